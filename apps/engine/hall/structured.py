"""Structured cabling (layout.structured_cabling): patch panels and cable managers in every rack.

Rules:
- Every rack keeps two units under its top reserve (the management switch, if any): a 1U patch panel
  and, below it, a 1U horizontal cable manager (engine.hall.rules counts them in the rack's room).
- Links between racks run device -> patch cord -> the rack's panel -> MPO trunk -> the far rack's panel
  -> patch cord -> device; trunks are counted per pair of racks joined by at least one link.
- BOM (on the backend plan, whose racks hold every network's devices): the panels at the catalog's
  price (the cheapest MPO panel of the seed catalog), the cable managers and trunks listed without a
  price (the catalog sells neither). Link lengths stay the end-to-end route (engine.hall.route).
"""
from __future__ import annotations

import numpy as np

from ..bom import discount_of, price_notes
from ..model import BomLine, Plan
from ..spec import DesignSpec
from .model import HallPlan, RackItem
from .rules import top_reserve


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


def panel_for(spec: DesignSpec):
    """The patch panel the racks take: the cheapest MPO panel of the seed catalog (the design names none)."""
    from ..seedcatalog import seed_catalog

    panels = [p for p in seed_catalog().patch_panels if p.connector.upper().startswith("MPO")] or list(
        seed_catalog().patch_panels)
    return min(panels, key=lambda p: (p.price, p.sku)) if panels else None


def structured_lines(spec: DesignSpec, result: HallPlan) -> list[BomLine]:
    """BOM lines of the structured cabling: a patch panel per rack (catalog), a cable manager per rack and an MPO
    trunk per pair of racks joined by links (no catalog SKU: listed without a price)."""
    lines = []
    panel = panel_for(spec)
    if result.patch_panels:
        if panel is not None:
            lines.append(BomLine(sku=panel.sku, description=f"{panel.name or panel.sku} (patch panel, one per rack)",
                                 category="fiber", qty=result.patch_panels, unit_price=round(panel.price, 2),
                                 total=round(result.patch_panels * panel.price, 2),
                                 rack_units=result.patch_panels * max(1, panel.rack_units),
                                 price_published=panel.price > 0))
        else:
            lines.append(BomLine(sku="PATCH-PANEL-1U", description="1U MPO patch panel (no catalog price)",
                                 category="fiber", qty=result.patch_panels, unit_price=0.0, total=0.0,
                                 rack_units=result.patch_panels, price_published=False))
    if result.cable_managers:
        lines.append(BomLine(sku="CABLE-MANAGER-1U", description="1U horizontal cable manager (no catalog price)",
                             category="cable", qty=result.cable_managers, unit_price=0.0, total=0.0,
                             rack_units=result.cable_managers, price_published=False))
    if result.trunks:
        lines.append(BomLine(sku="MPO-TRUNK", description="MPO trunk between two racks' panels, length by route "
                             "(no catalog price)", category="fiber", qty=result.trunks, unit_price=0.0, total=0.0,
                             price_published=False))
    return lines


def apply_structured_bom(spec: DesignSpec, plan: Plan) -> None:
    """Add the structured cabling's lines to the backend plan's BOM and totals (the racks are the cluster's)."""
    hall = plan.hall
    if hall is None or not spec.layout.structured_cabling:
        return
    lines = structured_lines(spec, hall)
    if not lines:
        return
    plan.bom.extend(lines)
    plan.notes.extend(price_notes(lines))
    plan.warnings[:] = [note.text for note in plan.notes]
    subtotal = round(plan.subtotal + sum(line.total for line in lines), 2)
    plan.subtotal = subtotal
    plan.discount = discount_of(subtotal, spec.discount_pct)
    plan.total_cost = round(subtotal - plan.discount, 2)
    plan.rack_units += sum(line.rack_units for line in lines)
    if plan.sizing is not None:
        plan.sizing.estimated_cost = plan.total_cost
