"""The explorer's JSON: the CLI's EXPLORE.json in, {"candidates": [...]} out.

In: a spec as engine.specio reads it (server, nic, gpus, layout, pools, optics, prices ...), whose
leaf, spine, core, planes, tiers and oversubscription the explorer chooses (a leaf given is ignored),
plus:
    "switches": ["DCS-7060DX5-64S", ...]   optional: the switch models to explore (default: every
                                           switch of the seed catalog), each in every breakout mode
    "oversubscriptions": [1, "3:1"]        optional, default [1]
    "bar": {"max_oversubscription": 1, "max_hops": 3, "min_growth_gpus": 8192, "budget": 5e6,
            "max_power_w": 250000}         each optional
    "blocking": false                      optional: also list the fewest-spines (blocking) wirings
    "nearest": 5                           optional: candidates shown when nothing meets the bar
    "fabric": "ethernet"                   optional: or "infiniband"

Out (exploration_dict): {"candidates": [{"spec": {...}, "total_cost", "currency", "as_stated", "pareto",
"blocking", "meets_bar", "misses": [{"bar", "limit", "value"}], "label", "leaf", "spine", "core"
({sku, name, breakout}; core null in 2 tiers), "planes", "tiers", "oversubscription", "switches"
{leaf, spine, core}, "power_w", "power_max_w", "rack_units", "max_gpus", "max_hops",
"worst_pair_fraction", "stated_fraction"}], "bar": {...}, "bar_met", "explored", "feasible", "seconds"}.
Every candidate's "spec" planned with plan() totals its "total_cost" (a blocking candidate's spec plans
the even wiring instead: plan() never chooses a blocking one).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..messages import Message, message
from ..seedcatalog import SeedCatalog, seed_catalog
from ..spec import FABRICS, MAX_GPUS, MAX_OVERSUBSCRIPTION, SpecError, SwitchHw
from ..specio import parse_oversubscription, spec_from_dict, spec_to_dict
from .model import BARS, Bar, Candidate, Exploration, ExploreRequest

EXPLORE_KEYS = ("switches", "oversubscriptions", "bar", "blocking", "nearest", "fabric")
MAX_OVERSUBSCRIPTIONS = 8
BAR_RANGES = {
    "max_oversubscription": (1.0, MAX_OVERSUBSCRIPTION, float),
    "max_hops": (1, 9, int),
    "min_growth_gpus": (1, MAX_GPUS, int),
    "budget": (0.0, 1e12, float),
    "max_power_w": (0.0, 1e9, float),
}


def _number(errors: dict, name: str, value: Any, low: float, high: float, kind: type) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and value != int(value)):
        errors.setdefault(name, []).append(message(
            "value.whole_number" if kind is int else "value.number", value=repr(value)[:40]))
        return None
    if value < low:
        errors.setdefault(name, []).append(message("value.at_least", low=low, value=value))
        return None
    if value > high:
        errors.setdefault(name, []).append(message("value.at_most", high=high, value=value))
        return None
    return kind(value)


def bar_from_dict(data: Any, errors: dict[str, list[Message]], prefix: str = "bar") -> Bar:
    """A Bar from {name: value} (None or absent = no bar); problems go into `errors` by dotted name."""
    if data is None:
        return Bar()
    if not isinstance(data, dict):
        errors.setdefault(prefix, []).append(message("spec.expected_object", type=type(data).__name__))
        return Bar()
    values = {}
    for key, value in data.items():
        name = f"{prefix}.{key}"
        if key not in BARS:
            errors.setdefault(name, []).append(message("spec.unknown_field_of", fields=", ".join(BARS)))
            continue
        if value is None:
            continue
        if key == "max_oversubscription":
            value = parse_oversubscription(value)
        low, high, kind = BAR_RANGES[key]
        number = _number(errors, name, value, low, high, kind)
        if number is not None:
            values[key] = number
    return Bar(**values)


def oversubscriptions_from(data: Any, errors: dict[str, list[Message]]) -> tuple[float, ...]:
    if data is None:
        return (1.0,)
    if not isinstance(data, list) or not data:
        errors.setdefault("oversubscriptions", []).append(message("spec.expected_list"))
        return (1.0,)
    if len(data) > MAX_OVERSUBSCRIPTIONS:
        errors.setdefault("oversubscriptions", []).append(message("value.int_at_most", high=MAX_OVERSUBSCRIPTIONS,
                                                                  value=len(data)))
        return (1.0,)
    out = []
    for i, value in enumerate(data):
        number = _number(errors, f"oversubscriptions[{i}]", parse_oversubscription(value), 1.0,
                         MAX_OVERSUBSCRIPTION, float)
        if number is not None and number not in out:
            out.append(number)
    return tuple(out) or (1.0,)


def catalog_switches(catalog: SeedCatalog, skus: Any, errors: dict[str, list[Message]]) -> tuple[SwitchHw, ...]:
    """Every breakout mode of the named switch models (default: all of the catalog's)."""
    if skus is None:
        models = list(catalog.switches.values())
    elif not isinstance(skus, list) or not skus:
        errors.setdefault("switches", []).append(message("spec.expected_list"))
        return ()
    else:
        models = []
        for i, sku in enumerate(skus):
            model = catalog.switches.get(sku) if isinstance(sku, str) else None
            if model is None:
                errors.setdefault(f"switches[{i}]", []).append(
                    message("catalog.unknown_sku", kind="switch", sku=repr(sku)[:60]))
            else:
                models.append(model)
    return tuple(model.hw(mode) for model in models for mode in model.breakouts)


def request_from_dict(data: Any, *, catalog: SeedCatalog | None = None) -> ExploreRequest:
    """An ExploreRequest from the CLI's JSON (module docstring); SpecError names every bad field."""
    if not isinstance(data, dict):
        raise SpecError({"spec": [message("spec.json_object")]})
    catalog = catalog if catalog is not None else seed_catalog()
    errors: dict[str, list[Message]] = {}
    spec_data = {k: v for k, v in data.items() if k not in EXPLORE_KEYS}
    for key in ("planes", "tiers", "oversubscription", "spine", "core"):
        spec_data.pop(key, None)
    # With a split NIC port the explored planes are multiples of the split; the base stands on the least.
    split = spec_data.get("nic_split", 1)
    if isinstance(split, int) and not isinstance(split, bool) and split > 1:
        spec_data["planes"] = split
    switches = catalog_switches(catalog, data.get("switches"), errors)
    bar = bar_from_dict(data.get("bar"), errors)
    overs = oversubscriptions_from(data.get("oversubscriptions"), errors)
    blocking = data.get("blocking", False)
    if not isinstance(blocking, bool):
        errors.setdefault("blocking", []).append(message("value.boolean", value=repr(blocking)[:40]))
    nearest = _number(errors, "nearest", data.get("nearest", 5), 1, 50, int) or 5
    # The leaf only stands in for the explored ones: any switch at the NIC speed validates the rest.
    fabric = data.get("fabric", "ethernet")
    if fabric not in FABRICS:
        errors.setdefault("fabric", []).append(message("spec.fabric_choice", value=repr(fabric)[:40]))
        fabric = "ethernet"
    spec_data["leaf"] = _stand_in_leaf(spec_data, fabric, catalog)
    try:
        base = spec_from_dict(spec_data, catalog=catalog)
    except SpecError as exc:
        for name, items in exc.details.items():
            errors.setdefault(name, []).extend(items)
        base = None
    if errors:
        raise SpecError(errors)
    return ExploreRequest(base=base, switches=switches, bar=bar, oversubscriptions=overs, blocking=blocking,
                          nearest=nearest)


def _stand_in_leaf(data: dict, fabric: str, catalog: SeedCatalog) -> dict:
    server = data.get("server")
    gbps = None
    if isinstance(server, dict) and "nic_gbps" in server:
        gbps = server["nic_gbps"]
    elif isinstance(server, (str, dict)):
        sku = server if isinstance(server, str) else server.get("sku")
        found = catalog.servers.get(sku) if isinstance(sku, str) else None
        gbps = found.nic_gbps if found is not None else None
    gbps = gbps if isinstance(gbps, int) and not isinstance(gbps, bool) else 400
    split = data.get("nic_split", 1)
    if isinstance(split, int) and not isinstance(split, bool) and split > 1 and gbps % split == 0:
        gbps //= split  # each part of a split port runs at the part's speed
    return {"ports": 64, "gbps": gbps, "fabric": fabric}


def switch_ref(hw: SwitchHw | None) -> dict | None:
    if hw is None:
        return None
    return {"sku": hw.sku, "name": hw.name, "breakout": hw.breakout or f"{hw.ports // max(1, hw.physical_cages)}"
            f"x{hw.gbps}G", "vendor": hw.vendor}


def candidate_label(c: Candidate) -> str:
    """e.g. "2 tiers, 4 planes, 1:1: DCS-7060DX5-64S 1x400G / spine Z9864F-ON 2x400G"."""
    spec, sz = c.spec, c.sizing
    parts = [f"{sz.tiers} tiers"] + ([f"{sz.planes} planes"] if sz.planes > 1 else []) + [
        f"{spec.oversubscription:g}:1"]
    hw = [f"{spec.leaf.sku} {spec.leaf.breakout}".strip()]
    if spec.spine is not None:
        hw.append(f"spine {spec.spine_hw.sku} {spec.spine_hw.breakout}".strip())
    if sz.tiers == 3 and spec.core is not None:
        hw.append(f"core {spec.core_hw.sku} {spec.core_hw.breakout}".strip())
    return ", ".join(parts) + ": " + " / ".join(hw) + (" (blocking)" if c.blocking else "")


def candidate_dict(c: Candidate) -> dict:
    spec, q, sz, w = c.spec, c.quote, c.sizing, c.quote.wiring
    spec_out = spec_to_dict(spec)
    return {
        "label": candidate_label(c), "spec": spec_out, "total_cost": q.total_cost, "currency": q.currency,
        "as_stated": bool(w.as_stated), "pareto": c.pareto, "blocking": c.blocking, "meets_bar": c.meets_bar,
        "misses": [dataclasses.asdict(m) for m in c.misses],
        "leaf": switch_ref(spec.leaf), "spine": switch_ref(spec.spine_hw),
        "core": switch_ref(spec.core_hw) if sz.tiers == 3 else None,
        "planes": sz.planes, "tiers": sz.tiers, "oversubscription": spec.oversubscription,
        "switches": dict(sz.switches), "power_w": q.power_typical_w, "power_max_w": q.power_max_w,
        "rack_units": q.rack_units, "max_gpus": sz.max_gpus, "max_hops": sz.max_hops,
        "worst_pair_fraction": round(w.worst_pair_fraction, 4), "stated_fraction": round(w.stated_fraction, 4),
    }


def exploration_dict(result: Exploration) -> dict:
    return {
        "candidates": [candidate_dict(c) for c in result.candidates], "bar": result.bar.given(),
        "bar_met": result.bar_met, "explored": result.explored, "feasible": result.feasible,
        "seconds": result.seconds,
    }
