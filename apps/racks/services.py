"""Storing a generated version's hall: registered with designs' generation hook (apps.designs.generation).

Rules:
- compute (outside the transaction): the engine's placement (Plan.hall, apps.engine.hall) is turned
  into columns: one Hall, a row per rack and a row per rack item; nothing is read back.
- save (inside the generation's transaction): the Hall row, then racks and items with one COPY each
  (apps.designs.persistence.table_write), so the hall appears with the version's rows or not at all.
- Ids are composed (models.rack_row_id); a rack item's device id is the device's DeviceRecord id
  (apps.designs.persistence_networks.cluster_record_ids), passive items have none.
- A plan without a placement (an engine that does not place) stores no hall; the pages say so.
- Zones are stored as bands of consecutive rows of one kind; reserved cells as 0-based (row, position).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from apps.designs.generation import GenerationStep
from apps.designs.models import DesignVersion
from apps.designs.persistence import Table, table_write
from apps.designs.persistence_networks import cluster_record_ids
from apps.engine.model import Plan

from .models import Hall, Rack, RackItem

PASSIVE_ROLES = ("patch-panel", "cable-manager")  # a power shelf or NVLink switch tray is a device without a record


@dataclass(slots=True)
class HallRows:
    hall: dict[str, Any]
    racks: Table
    items: Table


def zone_bands(zones: dict[int, str]) -> list[dict[str, Any]]:
    """{row: kind} -> [{"kind", "rows": [first, last]}] for runs of consecutive rows of one kind."""
    bands: list[dict[str, Any]] = []
    for row in sorted(zones):
        kind = zones[row]
        if bands and bands[-1]["kind"] == kind and bands[-1]["rows"][1] == row - 1:
            bands[-1]["rows"][1] = row
        else:
            bands.append({"kind": kind, "rows": [row, row]})
    return bands


def _nullable(values: list[int | None]) -> tuple[np.ndarray, np.ndarray]:
    null = np.array([v is None for v in values], dtype=bool)
    return np.array([0 if v is None else v for v in values], dtype=np.int64), null


def hall_rows(*, version_id: int, plan: Plan) -> HallRows | None:
    """The hall, rack and rack item rows of a placed plan (None when the plan has no placement)."""
    placed = getattr(plan, "hall", None)
    if placed is None:
        return None
    spec = plan.spec
    layout = spec.layout
    hall = placed.hall
    racks = placed.racks
    record_ids = cluster_record_ids(version_id=version_id, plan=plan)
    backend = plan.devices
    base = np.int64(version_id) << np.int64(32)

    rack_table = Table(Rack)
    item_cols: dict[str, list] = {name: [] for name in (
        "rack_id", "kind", "name", "role", "network", "device_id", "sku", "model", "u", "u_height", "face",
        "full_depth", "power_typical_w", "power_max_w", "power_missing")}
    pods: list[int | None] = []
    sus: list[int | None] = []
    typical: list[float] = []
    maximum: list[float] = []
    used: list[int] = []
    counts: list[int] = []
    for rack in racks:
        rack_id = int(base + rack.index)
        pod = su = None
        rack_typical = rack_max = 0.0
        rack_used = 0
        for item in rack.items:
            passive = item.device < 0 or item.role in PASSIVE_ROLES
            item_cols["rack_id"].append(rack_id)
            item_cols["kind"].append(item.role if item.role in PASSIVE_ROLES else "device")
            item_cols["name"].append(item.name)
            item_cols["role"].append(item.role)
            item_cols["network"].append(item.network)
            item_cols["device_id"].append(None if item.device < 0 else int(record_ids[item.device]))
            item_cols["sku"].append(item.sku)
            item_cols["model"].append(item.model)
            item_cols["u"].append(item.u)
            item_cols["u_height"].append(item.u_height)
            item_cols["face"].append(item.face)
            item_cols["full_depth"].append(not passive)
            item_cols["power_typical_w"].append(float(item.power_typical_w))
            item_cols["power_max_w"].append(float(item.power_max_w))
            item_cols["power_missing"].append(", ".join(item.power_missing))
            rack_typical += item.power_typical_w
            rack_max += item.power_max_w
            rack_used += item.u_height
            if su is None and 0 <= item.device < len(backend) and item.role in ("server", "leaf"):
                device = backend[item.device]
                su = device.su if device.su >= 0 else None
                pod = device.pod if device.pod >= 0 else None
        pods.append(pod)
        sus.append(su)
        typical.append(rack_typical)
        maximum.append(rack_max)
        used.append(rack_used)
        counts.append(len(rack.items))

    count = len(racks)
    rack_table.add("id", base + np.array([r.index for r in racks], dtype=np.int64))
    rack_table.add("version_id", np.full(count, version_id, dtype=np.int64))
    rack_table.add("index", np.array([r.index for r in racks], dtype=np.int64))
    rack_table.add("name", [r.name for r in racks])
    rack_table.add("kind", [r.kind for r in racks])
    rack_table.add("zone", [r.zone or "" for r in racks])
    rack_table.add("row", np.array([r.row for r in racks], dtype=np.int64))
    rack_table.add("position", np.array([r.position for r in racks], dtype=np.int64))
    rack_table.add("x_m", np.array([r.x_m for r in racks], dtype=np.float64))
    rack_table.add("y_m", np.array([r.y_m for r in racks], dtype=np.float64))
    rack_table.add("u_height", np.array([r.units for r in racks], dtype=np.int64))
    rack_table.add("used_u", np.array(used, dtype=np.int64))
    rack_table.add("power_typical_w", np.array(typical, dtype=np.float64))
    rack_table.add("power_max_w", np.array(maximum, dtype=np.float64))
    budget = np.array([r.power_budget_w or 0.0 for r in racks], dtype=np.float64)
    rack_table.add("budget_w", budget, budget <= 0)
    rack_table.add("cooling", [r.cooling for r in racks])
    pod_values, pod_null = _nullable(pods)
    rack_table.add("pod", pod_values, pod_null)
    su_values, su_null = _nullable(sus)
    rack_table.add("su", su_values, su_null)
    rack_table.add("items", np.array(counts, dtype=np.int64))
    rack_table.add("power_missing", [", ".join(r.power_missing) for r in racks])

    items = Table(RackItem)
    total = len(item_cols["name"])
    items.add("id", base + np.arange(total, dtype=np.int64))
    items.add("version_id", np.full(total, version_id, dtype=np.int64))
    items.add("index", np.arange(total, dtype=np.int64))
    for name in ("rack_id", "u", "u_height"):
        items.add(name, np.array(item_cols[name], dtype=np.int64))
    for name in ("kind", "name", "role", "network", "sku", "model", "face", "power_missing"):
        items.add(name, item_cols[name])
    device_values, device_null = _nullable(item_cols["device_id"])
    items.add("device_id", device_values, device_null)
    items.add("full_depth", item_cols["full_depth"])
    for name in ("power_typical_w", "power_max_w"):
        items.add(name, np.array(item_cols[name], dtype=np.float64))

    budget_w = float(layout.rack_power_kw or 0) * 1000 or None
    return HallRows(
        hall={
            "rows": hall.rows, "positions": hall.positions, "rack_width_m": hall.rack_width_m,
            "row_pitch_m": hall.row_pitch_m, "rack_units": layout.rack_units, "budget_w": budget_w,
            "power_basis": layout.rack_power_basis, "cooling": layout.cooling,  # what the site offers
            "structured_cabling": bool(layout.structured_cabling),
            "reserved": [{"row": r, "position": p} for r, p in sorted(hall.reserved)],
            "zones": zone_bands(dict(hall.zones)), "racks": count,
            "power_typical_w": float(sum(typical)), "power_max_w": float(sum(maximum)),
            "power_missing": list(placed.power_missing),
            "footprint_width_m": float(hall.footprint_width_m), "footprint_depth_m": float(hall.footprint_depth_m),
            "aisles": dict(hall.aisles, air_limit_kw=float(layout.air_limit_kw),
                           rear_door_limit_kw=float(layout.rear_door_limit_kw)),
        },
        racks=rack_table, items=items)


def hall_compute(plan: Plan, version: DesignVersion, progress) -> HallRows | None:
    progress("racks", 10)
    rows = hall_rows(version_id=version.pk, plan=plan)
    progress("racks", 100)
    return rows


def hall_save(version: DesignVersion, rows: HallRows | None) -> dict[str, float]:
    """Write the hall, its racks and their items; call inside the generation's transaction."""
    if rows is None:
        return {}
    started = time.perf_counter()
    Hall.objects.create(version_id=version.pk, **rows.hall)
    table_write(rows.racks)
    table_write(rows.items)
    return {"racks": round(time.perf_counter() - started, 3)}


RACKS_GENERATION_STEP = GenerationStep(key="racks", compute=hall_compute, save=hall_save, order=5)
