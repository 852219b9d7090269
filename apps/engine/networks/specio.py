"""The `frontend`, `storage` and `oob` objects of SPEC.json (engine.specio calls networks_from_dict).

    "frontend": {"ports_per_server": 2, "gbps": 200, "leaf": {"ports": 64, "gbps": 200} or {"sku": ..., "breakout": ...},
                 "spine": as leaf (optional), "oversubscription": "2:1", "pools": {...} (optional),
                 "server_ports": 2 (optional: the server model's front-end ports; a seed server states its own)}
    "storage": {"nodes": 32, "ports_per_node": 2, "gbps": 400, "ports_per_server": 2, "leaf": {...},
                "spine": {...}, "oversubscription": 1, "pools": {...}}
               or "frontend" (converged: storage traffic on the front-end), or {"nodes": 32, "ports_per_node": 2,
               "converged": true} (storage nodes on the front-end fabric)
    "oob": {"leaf": {"ports": 48, "gbps": 1}, "spine": {...} (optional), "uplinks": 2,
            "pools": {"host": "172.16.0.0/14", "p2p": "172.20.0.0/16"}}

Switches by SKU take the breakout at the network's speed, as for the backend.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any, Callable

import yaml

from ..messages import Message, message
from ..seedcatalog import SEED_DIR
from ..spec import AddressPools
from .spec import FRONTEND_POOLS, STORAGE_POOLS, FrontendSpec, OobPools, OobSpec, StorageSpec

SwitchOf = Callable[[Any, str, int | None], Any]
Add = Callable[[str, Message], None]
Ratio = Callable[[Any], Any]


@lru_cache(maxsize=1)
def seed_frontend_ports() -> dict[str, int]:
    """Front-end ports per seed server SKU (apps/catalog/seed/servers.yaml `frontend_ports`)."""
    rows = yaml.safe_load((SEED_DIR / "servers.yaml").read_text(encoding="utf-8")) or []
    return {str(row["sku"]): int(row.get("frontend_ports") or 0) for row in rows if isinstance(row, dict)}


def _fields(cls) -> dict[str, dataclasses.Field]:
    return {f.name: f for f in dataclasses.fields(cls)}


def _object(cls, data: Any, name: str, add: Add, *, build: dict[str, Any], required: tuple[str, ...] = (),
            ratio: Ratio = lambda v: v):
    """cls(**plain fields of data, **build) with unknown and missing keys reported."""
    if not isinstance(data, dict):
        add(name, message("spec.expected_object", type=type(data).__name__))
        return None
    fields = _fields(cls)
    ok = True
    for key in data:
        if key not in fields:
            add(f"{name}.{key}", message("spec.unknown_field_of", fields=", ".join(fields)))
            ok = False
    for key in required:
        if key not in data:
            add(f"{name}.{key}", message("spec.required"))
            ok = False
    if not ok or any(value is None and key in required for key, value in build.items()):
        return None
    kwargs = {k: v for k, v in data.items() if k not in build}
    if "oversubscription" in kwargs:
        kwargs["oversubscription"] = ratio(kwargs["oversubscription"])
    kwargs.update({k: v for k, v in build.items() if v is not None or k in data})
    return cls(**kwargs)


def _pools(cls, data: Any, name: str, add: Add, default):
    if data is None:
        return default
    if not isinstance(data, dict):
        add(name, message("spec.expected_object", type=type(data).__name__))
        return default
    fields = _fields(cls)
    unknown = [k for k in data if k not in fields]
    for key in unknown:
        add(f"{name}.{key}", message("spec.unknown_field_of", fields=", ".join(fields)))
    return dataclasses.replace(default, **{k: v for k, v in data.items() if k in fields})


def _switches(data: dict, name: str, switch_of: SwitchOf, gbps: Any) -> dict[str, Any]:
    speed = gbps if isinstance(gbps, int) and not isinstance(gbps, bool) else None
    return {role: switch_of(data[role], f"{name}.{role}", speed) if data.get(role) is not None else None
            for role in ("leaf", "spine")}


def networks_from_dict(data: dict, *, switch_of: SwitchOf, add: Add, ratio: Ratio, server_sku: str = "") -> dict[str, Any]:
    """{"frontend": FrontendSpec | None, "storage": ..., "oob": ...} from the spec dict; errors through `add`."""
    out: dict[str, Any] = {}
    raw = data.get("frontend")
    if raw is not None:
        if isinstance(raw, dict):
            build = _switches(raw, "frontend", switch_of, raw.get("gbps"))
            build["pools"] = _pools(AddressPools, raw.get("pools"), "frontend.pools", add, FRONTEND_POOLS)
            if "server_ports" not in raw and server_sku in seed_frontend_ports():
                build["server_ports"] = seed_frontend_ports()[server_sku]
            out["frontend"] = _object(FrontendSpec, raw, "frontend", add, build=build,
                                      required=("ports_per_server", "gbps", "leaf"), ratio=ratio)
        else:
            add("frontend", message("spec.expected_object", type=type(raw).__name__))
    raw = data.get("storage")
    if raw is not None:
        if raw == "frontend":
            out["storage"] = StorageSpec(converged=True, nodes=0)
        elif isinstance(raw, dict):
            build = _switches(raw, "storage", switch_of, raw.get("gbps"))
            build["pools"] = _pools(AddressPools, raw.get("pools"), "storage.pools", add, STORAGE_POOLS)
            out["storage"] = _object(StorageSpec, raw, "storage", add, build=build, ratio=ratio)
        else:
            add("storage", message("network.choice", choices='an object or "frontend"', value=repr(raw)[:40]))
    raw = data.get("oob")
    if raw is not None:
        if isinstance(raw, dict):
            leaf_gbps = raw.get("leaf", {}).get("gbps") if isinstance(raw.get("leaf"), dict) else None
            build = _switches(raw, "oob", switch_of, leaf_gbps)
            build["pools"] = _pools(OobPools, raw.get("pools"), "oob.pools", add, OobPools())
            out["oob"] = _object(OobSpec, raw, "oob", add, build=build, required=("leaf",))
        else:
            add("oob", message("spec.expected_object", type=type(raw).__name__))
    return out
