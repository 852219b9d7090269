"""DesignSpec from and to JSON-ready dicts (the CLI's SPEC.json, the web app's stored spec).

    {
      "name": "5k H100",                       optional
      "gpus": 5000,
      "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400}      inline, or
                {"sku": "DGXH-G640F+P2EDI36"} / "DGXH-G640F+P2EDI36"   from the seed catalog
      "nic": {"ports": 1, "gbps": 400, "form_factor": "OSFP"} or {"sku": ...}   optional; a server
                given by SKU brings its default NIC
      "leaf": {"ports": 64, "gbps": 400[, "fabric": "infiniband"]}
              or {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}
              (breakout optional: the first mode at the NIC speed)
      "spine", "core": as leaf, optional (default: the tier below)
      "planes": 1, "oversubscription": 1 or "3:1", "tiers": "auto" | 2 | 3,
      "nic_split": 1 | 2 | 4        optional: split each NIC port in parts, one per plane (the NIC's
                                    "splits" must list it; planes a multiple of it), see engine.topology
      "layout": {"servers_per_rack": 4, "racks_per_row": 0, "rack_width_m": 0.6, "row_pitch_m": 0,
                 "rack_depth_m": 1.2, "cold_aisle_m": 1.2, "hot_aisle_m": 0.9, "cross_aisle_m": 1.2,
                 "row_racks_max": 20, "max_aspect": 3, "air_limit_kw": 20, "rear_door_limit_kw": 55,
                 "slack_m": 3, "switches_per_rack": 16, "rack_units": 48,
                 "rack_power_kw": 0, "rack_power_basis": "typical", "cooling": "air",
                 "leaf_rack": "middle" | "end" | "server", "spine_rows": "middle" | "end",
                 "tray_height_m": 0.3, "structured_cabling": false,
                 "hall": {"rows": 0, "positions": 0, "width_m": 0, "depth_m": 0,
                          "reserved": [[row, position], ...],
                          "zones": {"network": [rows], "storage": [rows], "compute": [rows]}}},
                (engine.hall: servers_per_rack 0 = from height and power; rows/positions 0 = as needed,
                 racks_per_row 0 = a near-square hall; row_pitch_m 0 = rows in hot/cold aisle pairs;
                 width_m/depth_m: the room, 0 = none)
      "pools": {"host": "10.0.0.0/12", "p2p": "10.16.0.0/12", "loopback": "10.32.0.0/16",
                "asn_base": 4200000000},
      "optics" / "cables" / "fibers": lists of inline items or seed SKUs (none: the seed catalog's);
                an inline item may give "fabrics": ["ethernet", "infiniband"], "vendor": "NVIDIA" and
                (optics, cables) "compatible_vendors": [...] (see engine.cabling for qualification),
      "third_party_optics": false      optional: true lets switch cages take other vendors' parts
                                       qualified for the fabric (default false, InfiniBand included),
      "discount_pct": 0, "currency": "USD",
      "spares": {"switches": 0, "transceivers": 2, "cables": 2, "fibers": 2,   percent per category,
                 "switches_per_spare": 20}   0 to 100; plus one cold spare per switch model per N
                installed (0 = none); optional (missing keys: these defaults, SparesPolicy),
      "frontend": {"ports_per_server": 2, "gbps": 200, "leaf": {...}, "oversubscription": "2:1"},  optional
      "storage": {"nodes": 32, "ports_per_node": 2, "gbps": 400, "ports_per_server": 2, "leaf": {...}}
                 or "frontend" (converged),                                                 optional
      "oob": {"leaf": {"ports": 48, "gbps": 1}}                                             optional
                (the other networks: engine.networks.specio; switches by SKU as above)
    }

Errors are SpecError with dotted field names ("leaf.ports", "layout.slack_m", "optics[2].sku").
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from .hall.rules import check_rack_rules
from .messages import Message, message
from .networks.spec import validate_networks
from .networks.specio import networks_from_dict
from .seedcatalog import SeedCatalog, seed_catalog
from .spec import (AddressPools, CableAssembly, DesignSpec, FiberCord, HallLayout, NicHw, Optic, RackLayout, ServerHw,
                   SparesPolicy, SpecError, SwitchHw)

RATIO = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\s*$")


class _Errors:
    def __init__(self) -> None:
        self.errors: dict[str, list[Message]] = {}

    def add(self, name: str, msg: Message) -> None:
        self.errors.setdefault(name, []).append(msg)

    def merge(self, exc: SpecError) -> None:
        for key, messages in exc.details.items():
            for msg in messages:
                self.add(key, msg)


def _fields(cls) -> dict[str, dataclasses.Field]:
    return {f.name: f for f in dataclasses.fields(cls)}


def _build(cls, data: Any, name: str, errs: _Errors, *, skip: tuple[str, ...] = ()):
    """cls(**data) with unknown keys and missing required keys reported by field name."""
    if not isinstance(data, dict):
        errs.add(name, message("spec.expected_object", type=type(data).__name__))
        return None
    fields = _fields(cls)
    unknown = [k for k in data if k not in fields and k not in skip]
    for key in unknown:
        errs.add(f"{name}.{key}", message("spec.unknown_field_of", fields=", ".join(fields)))
    missing = [k for k, f in fields.items() if f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING and k not in data]
    for key in missing:
        errs.add(f"{name}.{key}", message("spec.required"))
    if unknown or missing:
        return None
    return cls(**{k: v for k, v in data.items() if k in fields})


def _hall(value: Any, errs: _Errors) -> HallLayout | None:
    """layout.hall: {"rows", "positions", "reserved": [[row, position], ...], "zones": {kind: [rows]}}."""
    if value is None:
        return None
    hall = _build(HallLayout, value, "layout.hall", errs)
    if hall is None:
        return None
    reserved = hall.reserved
    if isinstance(reserved, (list, tuple)) and all(isinstance(cell, (list, tuple)) for cell in reserved):
        reserved = tuple(tuple(cell) for cell in reserved)
    zones = hall.zones
    if isinstance(zones, dict):
        zones = tuple((kind, tuple(rows) if isinstance(rows, (list, tuple)) else rows) for kind, rows in zones.items())
    elif isinstance(zones, (list, tuple)) and all(isinstance(z, (list, tuple)) and len(z) == 2 for z in zones):
        zones = tuple((z[0], tuple(z[1]) if isinstance(z[1], (list, tuple)) else z[1]) for z in zones)
    return dataclasses.replace(hall, reserved=reserved, zones=zones)


def _switch(value: Any, name: str, catalog: SeedCatalog | None, nic_gbps: int | None, errs: _Errors):
    if isinstance(value, str):
        value = {"sku": value}
    if isinstance(value, dict) and "sku" in value and "ports" not in value:
        extra = [k for k in value if k not in ("sku", "breakout")]
        for key in extra:
            errs.add(f"{name}.{key}", message("spec.sku_or_inline"))
        try:
            return _catalog(catalog).switch(str(value["sku"]), value.get("breakout"), gbps=nic_gbps,
                                            field_name=name)
        except SpecError as exc:
            errs.merge(exc)
            return None
    if isinstance(value, dict):
        # An inline switch that states no power has none we know: never a 0 W that reads as a figure.
        value = {"power_typical_w": None, "power_max_w": None, **value}
    return _build(SwitchHw, value, name, errs)


def _catalog(catalog: SeedCatalog | None) -> SeedCatalog:
    return catalog if catalog is not None else seed_catalog()


def _items(values: Any, name: str, cls, pool: tuple, errs: _Errors) -> tuple:
    if values is None:
        return ()
    if not isinstance(values, list):
        errs.add(name, message("spec.expected_list"))
        return ()
    by_sku = {item.sku: item for item in pool}
    out = []
    for i, value in enumerate(values):
        where = f"{name}[{i}]"
        if isinstance(value, str) or (isinstance(value, dict) and set(value) == {"sku"}):
            sku = value if isinstance(value, str) else value["sku"]
            if isinstance(sku, str) and sku in by_sku:
                out.append(by_sku[sku])
            else:
                errs.add(f"{where}.sku", message("catalog.unknown_sku", kind=name[:-1], sku=repr(sku)))
            continue
        if isinstance(value, dict):  # JSON lists as the tuples the frozen dataclasses hold
            value = {k: tuple(v) if k in ("fabrics", "compatible_vendors") and isinstance(v, list) else v
                     for k, v in value.items()}
        item = _build(cls, value, where, errs)
        if item is not None:
            out.append(item)
    return tuple(out)


def parse_oversubscription(value: Any) -> Any:
    """3, 3.0 or "3:1" -> 3.0; anything else is returned for validation to reject."""
    if isinstance(value, str):
        match = RATIO.match(value)
        if match and float(match.group(2)) > 0:
            return float(match.group(1)) / float(match.group(2))
        try:
            return float(value)
        except ValueError:
            return value
    return value


def spec_from_dict(data: Any, *, catalog: SeedCatalog | None = None) -> DesignSpec:
    """Build (and validate) a DesignSpec; SpecError names every bad field."""
    errs = _Errors()
    if not isinstance(data, dict):
        raise SpecError({"spec": [message("spec.json_object")]})
    known = set(_fields(DesignSpec))
    for key in data:
        if key not in known:
            errs.add(key, message("spec.unknown_field"))
    if "gpus" not in data:
        errs.add("gpus", message("spec.required"))
    for key in ("server", "leaf"):
        if key not in data:
            errs.add(key, message("spec.required"))

    server = nic = None
    raw_server = data.get("server")
    if isinstance(raw_server, str):
        raw_server = {"sku": raw_server}
    if isinstance(raw_server, dict) and "sku" in raw_server and "gpus" not in raw_server:
        try:
            cat = _catalog(catalog)
            server = cat.server(str(raw_server["sku"]))
            if "nic" not in data and server.sku in cat.default_nic:
                nic = cat.nics.get(cat.default_nic[server.sku])
        except SpecError as exc:
            errs.merge(exc)
    elif raw_server is not None:
        server = _build(ServerHw, raw_server, "server", errs)
    split = data.get("nic_split", 1)
    nic_gbps = server.nic_gbps if isinstance(server, ServerHw) else None
    if nic_gbps is not None and isinstance(split, int) and not isinstance(split, bool) and split >= 1 \
            and isinstance(nic_gbps, int) and nic_gbps % split == 0:
        nic_gbps //= split  # switches run at the speed of one part of a split NIC port

    raw_nic = data.get("nic")
    if isinstance(raw_nic, str):
        raw_nic = {"sku": raw_nic}
    if isinstance(raw_nic, dict) and "sku" in raw_nic and "ports" not in raw_nic:
        try:
            nic = _catalog(catalog).nic(str(raw_nic["sku"]))
        except SpecError as exc:
            errs.merge(exc)
    elif raw_nic is not None:
        nic = _build(NicHw, raw_nic, "nic", errs)
    if isinstance(nic, NicHw) and isinstance(nic.splits, list):
        nic = dataclasses.replace(nic, splits=tuple(nic.splits))

    switches = {}
    for role in ("leaf", "spine", "core"):
        if data.get(role) is not None:
            switches[role] = _switch(data[role], role, catalog, nic_gbps, errs)

    layout = RackLayout()
    if data.get("layout") is not None:
        raw_layout = data["layout"]
        hall = _hall(raw_layout.get("hall"), errs) if isinstance(raw_layout, dict) else None
        layout = _build(RackLayout, raw_layout, "layout", errs, skip=("hall",)) or layout
        if hall is not None:
            layout = dataclasses.replace(layout, hall=hall)
    pools = AddressPools()
    if data.get("pools") is not None:
        pools = _build(AddressPools, data["pools"], "pools", errs) or pools
    spares = SparesPolicy()
    if data.get("spares") is not None:
        spares = _build(SparesPolicy, data["spares"], "spares", errs) or spares

    def pool_of(kind: str) -> tuple:
        values = data.get(kind)
        if not isinstance(values, list) or not any(
                isinstance(v, str) or (isinstance(v, dict) and set(v) == {"sku"}) for v in values):
            return ()
        return getattr(_catalog(catalog), kind)

    optics = _items(data.get("optics"), "optics", Optic, pool_of("optics"), errs)
    cables = _items(data.get("cables"), "cables", CableAssembly, pool_of("cables"), errs)
    fibers = _items(data.get("fibers"), "fibers", FiberCord, pool_of("fibers"), errs)
    # The other networks of the cluster (engine.networks.specio): switches by SKU as for the backend.
    networks = networks_from_dict(
        data, switch_of=lambda value, name, gbps: _switch(value, name, catalog, gbps, errs), add=errs.add,
        ratio=parse_oversubscription, server_sku=server.sku if isinstance(server, ServerHw) else "")
    if errs.errors:
        raise SpecError(errs.errors)

    kwargs = {k: data[k] for k in ("gpus", "planes", "tiers", "discount_pct", "currency", "name",
                                   "third_party_optics", "nic_split") if k in data}
    if isinstance(kwargs.get("tiers"), str) and kwargs["tiers"].strip() in ("2", "3"):
        kwargs["tiers"] = int(kwargs["tiers"])
    if "oversubscription" in data:
        kwargs["oversubscription"] = parse_oversubscription(data["oversubscription"])
    spec = DesignSpec(server=server, leaf=switches.get("leaf"), spine=switches.get("spine"),
                      core=switches.get("core"), nic=nic, layout=layout, pools=pools, optics=optics, cables=cables,
                      fibers=fibers, spares=spares, **networks, **kwargs)
    spec.validate()
    check_rack_rules(spec)
    validate_networks(spec)
    return spec


def spec_to_dict(spec: DesignSpec) -> dict:
    """A JSON-ready dict that spec_from_dict turns back into an equal spec (hardware inline)."""
    out = dataclasses.asdict(spec)
    for key in ("spine", "core", "nic", "frontend", "storage", "oob"):
        if out[key] is None:
            del out[key]
    for key in ("frontend", "storage", "oob"):
        for role in ("spine", "leaf"):
            if key in out and out[key].get(role) is None:
                out[key].pop(role, None)
    for key in ("optics", "cables", "fibers"):
        out[key] = list(out[key])
    hall = out["layout"]["hall"]
    hall["reserved"] = [list(cell) for cell in hall["reserved"]]
    hall["zones"] = {kind: list(rows) for kind, rows in hall["zones"]}
    for key in ("width_m", "depth_m"):  # no room given: left out, as specs written before rooms were
        if not hall.get(key):
            hall.pop(key, None)
    return out
