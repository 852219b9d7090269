"""Cooling by density: the cooling each rack needs for its draw, against what the site offers.

Rules:
- A rack of a rack-scale system (NVL72, NVL36x2) needs direct liquid cooling whatever its figure: "The compute
  trays are cooled by liquid that runs up and down the rack through manifolds" (NVIDIA DGX GB200 User Guide,
  Hardware); "Grace CPU, Blackwell GPU, CX7, and NVLink Switches ASICs are liquid cooled" (NVIDIA Multi-Node
  NVLink Systems tuning guide, Architecture).
- Any other rack by its draw on the budget's basis: air up to `layout.air_limit_kw`, a rear-door heat
  exchanger up to `layout.rear_door_limit_kw`, direct liquid cooling above.
  Defaults: air 20 kW, "the 15-20 kW per rack ceiling of conventional air cooling" (Yobitel knowledge base,
  Rear-door heat exchanger), liquid cooling "worthwhile at power densities of approximately 20 to 25 kW per
  rack" (Sipoch, liquid cooling options for AI data centres); rear door 55 kW, the top of the middle of the
  three capacity families (14-35, 35-55, 55-75 kW) of HPE's Motivair liquid-cooled rear doors (HPE
  QuickSpecs, as quoted in Coolnetpower's RDHx capacity FAQ).
- `layout.cooling` is the most the site offers (air < rear-door < liquid). Racks that need more are never
  silent: one warning per kind of rack names how many, the highest draw and the limit (rack-scale racks
  are warned of by engine.hall.rules, warning.rack_scale_cooling).
"""
from __future__ import annotations

from ..messages import Message, message
from ..spec import RackLayout
from .model import Rack

ORDER = {"air": 0, "rear-door": 1, "liquid": 2}


def needed(layout: RackLayout, power_w: float, *, rack_scale: bool = False) -> str:
    """The cooling a rack of `power_w` needs."""
    if rack_scale:
        return "liquid"
    kw = power_w / 1000.0
    if kw <= layout.air_limit_kw + 1e-9:
        return "air"
    if kw <= layout.rear_door_limit_kw + 1e-9:
        return "rear-door"
    return "liquid"


def assign(layout: RackLayout, racks: list[Rack], *, rack_scale: bool) -> list[Message]:
    """Set every rack's cooling to what it needs; warnings for the racks the site's cooling cannot serve."""
    offered = ORDER.get(layout.cooling, 0)
    short: dict[str, list[float]] = {}
    for rack in racks:
        scale = rack_scale and rack.kind == "compute"
        rack.cooling = needed(layout, rack.power_w, rack_scale=scale)
        if ORDER[rack.cooling] > offered and not scale:
            short.setdefault(rack.cooling, []).append(rack.power_w)
    notes = []
    for kind in ("rear-door", "liquid"):
        draws = short.get(kind)
        if not draws:
            continue
        notes.append(message("warning.rack_cooling", racks=len(draws), needed=kind,
                             power_kw=round(max(draws) / 1000, 1), air_kw=float(layout.air_limit_kw),
                             rear_door_kw=float(layout.rear_door_limit_kw), cooling=layout.cooling))
    return notes
