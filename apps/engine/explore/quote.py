"""The explorer's fast path: a fabric's counts, wiring proof and price, as plan() computes them, without
the parts of a plan the explorer never shows.

quote(spec) runs the very functions plan() runs for what a quote is made of (engine.topology's sizing
and wiring arrays, engine.wiring's proof, engine.racks' run lengths, engine.cabling's media per cage
group, engine.bom's prices, spares and discount), so its total, power, rack units, switch counts,
growth, hops, worst-pair fraction and `as_stated` are the plan's by construction (tests/engine/
test_explore.py checks them against plan() on a sample). It skips what only a generated design
needs: device objects and their names, rack names, the media list, addresses and ASNs, review notes.

Before any array is built, two cheap refusals: engine.topology's sizing (radix, pods, tiers), and,
per link tier, whether the catalog has any qualified way at all to join the two ends (engine.cabling's
candidates, remembered per pair of ends across candidates): most mixed-vendor structures end there.
"""
from __future__ import annotations

from ..bom import bill
from ..cabling import cable_links, candidates, tier_ends
from ..messages import message
from ..model import TIER_NAMES
from ..plan import interconnects
from ..racks import place, raw_lengths
from ..spec import DesignSpec, InfeasibleSpec
from ..topology import build_links, device_layout, size_fabric
from ..wiring import prove
from .model import Quote


def quote(spec: DesignSpec, *, even: bool = True, ends_cache: dict | None = None) -> Quote:
    """What plan(spec) would count and total (even=False: the fewest-spines, blocking wiring).

    Raises SpecError / InfeasibleSpec as plan() does. `ends_cache` remembers, across calls, whether
    two link ends can be joined at all.
    """
    spec.validate()
    sz = size_fabric(spec, even=even)
    optics, cables, fibers = interconnects(spec)
    cache = ends_cache if ends_cache is not None else {}
    for tier in range(3 if sz.tiers == 3 else 2):
        a, b = tier_ends(spec, tier)
        key = (a, b, id(optics), id(cables), id(fibers))
        joinable = cache.get(key)
        if joinable is None:
            joinable = cache[key] = bool(candidates(a, b, optics, cables, fibers))
        if not joinable:
            raise InfeasibleSpec({f"cabling.{TIER_NAMES[tier]}": [
                message("cabling.no_way", a=a.description(), b=b.description())]})
    lay = device_layout(sz)
    links = build_links(sz, lay)
    wiring = prove(sz, lay, links)
    placement = place(spec, sz, lay)
    raw = raw_lengths(spec, placement, links.a_dev, links.b_dev)
    cabling = cable_links(spec, links, raw, optics, cables, fibers)
    b = bill(spec, sz, cabling)
    sz.estimated_cost = b.total_cost
    return Quote(sizing=sz, wiring=wiring, total_cost=b.total_cost, subtotal=b.subtotal,
                 power_typical_w=b.power_typical_w, power_max_w=b.power_max_w, rack_units=b.rack_units,
                 currency=spec.currency)
