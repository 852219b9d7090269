"""Structured cabling (layout.structured_cabling): patch panels and cable managers in every rack.

Rules:
- Every rack keeps two units under its top reserve (the management switch, if any): a 1U patch panel
  and, below it, a 1U horizontal cable manager (engine.hall.rules counts them in the rack's room).
- Links between racks run device -> patch cord -> the rack's panel -> MPO trunk -> the far rack's panel
  -> patch cord -> device; trunks are counted per pair of racks joined by at least one link.
"""
from __future__ import annotations

import numpy as np

from ..model import Plan
from ..spec import DesignSpec
from .model import HallPlan, RackItem
from .rules import STRUCTURED_U, top_reserve


def add_structured_cabling(spec: DesignSpec, plan: Plan, result: HallPlan) -> None:
    oob_u, _ = top_reserve(spec, spec.layout.rack_power_basis, structured=False)
    units = spec.layout.rack_units
    panel_u = units - oob_u  # just under the management switch
    for rack in result.racks:
        rack.items.append(RackItem(device=-1, name=f"pp-{rack.name}", role="patch-panel", network="cabling",
                                   u=panel_u, u_height=1, face="rear", model="MPO patch panel"))
        rack.items.append(RackItem(device=-1, name=f"cm-{rack.name}", role="cable-manager", network="cabling",
                                   u=panel_u - 1, u_height=1, face="rear", model="horizontal cable manager"))
    result.patch_panels = len(result.racks)
    result.cable_managers = len(result.racks)
    pairs = set()
    links = [plan.links] + [net.links for net in plan.networks.values()]
    for table in links:
        if not len(table):
            continue
        a = result.device_rack[table.a_dev.astype(np.int64)].astype(np.int64)
        b = result.device_rack[table.b_dev.astype(np.int64)].astype(np.int64)
        apart = a != b
        lo, hi = np.minimum(a[apart], b[apart]), np.maximum(a[apart], b[apart])
        pairs.update(np.unique(lo * (1 << 32) + hi).tolist())
    result.trunks = len(pairs)
