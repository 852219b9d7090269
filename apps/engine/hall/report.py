"""The hall's part of the JSON report (engine.report): counts, fill and power of the racks.

    hall {racks, rows, positions, racks_by_kind {compute, network, storage, management}, servers_per_rack,
          switches_per_rack {spine, core}, rack_units, rack_power_kw (0 = no budget), rack_power_basis, cooling,
          power_typical_w, power_max_w, max_rack_power_w (against the basis), power_missing (the parts without a
          published power figure: the totals leave them out and are lower bounds), structured_cabling
          {patch_panels, trunks, cable_managers}}
"""
from __future__ import annotations

from .model import HallPlan


def hall_dict(hall: HallPlan | None, layout) -> dict | None:
    if hall is None:
        return None
    kinds: dict[str, int] = {"compute": 0, "network": 0, "storage": 0, "management": 0}
    for rack in hall.racks:
        kinds[rack.kind] = kinds.get(rack.kind, 0) + 1
    return {
        "racks": len(hall.racks), "rows": hall.hall.rows, "positions": hall.hall.positions, "racks_by_kind": kinds,
        "servers_per_rack": hall.servers_per_rack, "switches_per_rack": dict(hall.switches_per_rack),
        "rack_units": layout.rack_units, "rack_power_kw": layout.rack_power_kw,
        "rack_power_basis": layout.rack_power_basis, "cooling": layout.cooling,
        "power_typical_w": hall.power_typical_w, "power_max_w": hall.power_max_w,
        "max_rack_power_w": max((rack.power_w for rack in hall.racks), default=0.0),
        "power_missing": hall.power_missing,
        "structured_cabling": {"patch_panels": hall.patch_panels, "trunks": hall.trunks,
                               "cable_managers": hall.cable_managers} if layout.structured_cabling else None,
    }
