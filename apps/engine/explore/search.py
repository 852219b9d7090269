"""Enumerate the design space, size and price every structure, mark the Pareto frontier, apply the bar.

What is enumerated (every combination, each sized, proved and priced as plan() would by engine.explore.fast,
which builds no link table):
- leaf: every catalog switch model in every breakout mode whose ports run at the NIC speed, of the
  request's fabric (Ethernet or InfiniBand: one design never mixes them), of the fabric class (or of no
  stated class) and with published typical and maximum power (a candidate's power must be comparable);
- spine: the same list (the leaf's model, or a different one: mixed tiers); core (3 tiers only): the
  same list again, so a different core model is tried as well;
- planes: every p dividing the server's backend ports (rails; with a split NIC port, each part is a rail
  at the part's speed, and p is a multiple of the split: every part on a plane of its own);
- tiers: 2 and 3 (a structure infeasible in 2 tiers, too many leaves for the spine radix, is dropped);
- oversubscription: every o:1 the request asks for (1:1 by default).
Structures the engine refuses (radix, pods, no qualified optic or cable for two ends, a run longer
than anything reaches) are counted in `explored` and dropped.

The bar (each optional): oversubscription at most, hops at most, growth to at least N GPUs, total cost at
most (budget), network power (typical) at most. Candidates meeting every bar are shown, cheapest first.
When none does, the `nearest` candidates are shown instead, fewest bars missed first, then the smallest
relative shortfall, then cost; each says which bars it misses (Miss: bar, limit, value).

Pareto frontier, among the non-blocking candidates shown: a candidate is on it when no other one is at
least as good on all of cost (lower), growth (max GPUs, higher), network power (lower) and hops (lower)
and better on one. Equal candidates (the same four figures) are all on it.

Blocking candidates (request.blocking): for each feasible structure, the fewest-spines wiring with uneven
leaf uplinks (engine.topology `even=False`), listed only when it has fewer spines, labelled blocking,
never on the frontier. Its worst-pair fraction says how far below the stated oversubscription it is.
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..hall.rules import check_rack_rules
from ..spec import DesignSpec, SpecError, SwitchHw
from .model import BARS, Bar, Candidate, Exploration, ExploreRequest, Miss
from .fast import quote


def explorable(hw: SwitchHw) -> bool:
    """A backend fabric switch whose power the vendor publishes (front-end / management ones never lead a fabric)."""
    return hw.switch_class in ("", "fabric") and hw.power_published and not hw.uplinks


def switch_options(switches: tuple[SwitchHw, ...], *, fabric: str, gbps: int) -> list[SwitchHw]:
    """The switch modes a tier can use: the fabric's, fabric-class with published power, with ports at `gbps`,
    one per (SKU, breakout)."""
    seen, out = set(), []
    for hw in switches:
        key = (hw.sku, hw.breakout, hw.ports, hw.gbps)
        if not explorable(hw):
            continue
        if hw.fabric == fabric and hw.gbps == gbps and key not in seen:
            seen.add(key)
            out.append(hw)
    return out


def structures(request: ExploreRequest):
    """Every spec to try, in a stable order (leaf, spine, core, planes, tiers, oversubscription)."""
    base = request.base
    options = [hw for hw in switch_options(request.switches, fabric=base.fabric, gbps=base.port_gbps)
               if _valid(replace(base, leaf=hw, planes=base.nic_split))]  # once here, not in quote()
    rails = base.rails
    planes = [p for p in range(1, rails + 1) if rails % p == 0 and p % base.nic_split == 0]
    for leaf in options:
        for spine in options:
            for tiers in (2, 3):
                for core in (options if tiers == 3 else [None]):
                    for p in planes:
                        for o in request.oversubscriptions:
                            yield replace(base, leaf=leaf, spine=None if spine == leaf else spine,
                                          core=None if core is None or core == spine else core, planes=p,
                                          tiers=tiers, oversubscription=float(o))


def _valid(spec: DesignSpec) -> bool:
    try:
        spec.validate()
        check_rack_rules(spec)
    except SpecError:
        return False
    return True


def misses(candidate: Candidate, bar: Bar) -> list[Miss]:
    out = []
    for name, limit in bar.given().items():
        value = candidate.figure(name)
        kind = BARS[name][1]
        if (kind == "max" and value > limit + 1e-9) or (kind == "min" and value < limit - 1e-9):
            out.append(Miss(name, float(limit), float(value)))
    return out


def mark_pareto(candidates: list[Candidate]) -> None:
    """Set `pareto` on the non-blocking candidates no other non-blocking one dominates (module rules)."""
    pool = [c for c in candidates if not c.blocking]
    for c in candidates:
        c.pareto = False
    if not pool:
        return
    # Every objective as "lower is better".
    figures = np.array([[c.quote.total_cost, -c.sizing.max_gpus, c.quote.power_typical_w, c.sizing.max_hops]
                        for c in pool], dtype=np.float64)
    no_worse = (figures[:, None, :] <= figures[None, :, :] + 1e-9).all(axis=2)  # [j, i]: j no worse than i
    better = (figures[:, None, :] < figures[None, :, :] - 1e-9).any(axis=2)
    dominated = (no_worse & better).any(axis=0)
    for c, d in zip(pool, dominated.tolist()):
        c.pareto = not d


def _order(c: Candidate) -> tuple:
    sz = c.sizing
    return (c.quote.total_cost, -sz.max_gpus, c.quote.power_typical_w, sz.max_hops, c.blocking,
            c.spec.leaf.sku, c.spec.spine_hw.sku, c.spec.core_hw.sku, sz.planes, sz.tiers)


def explore(request: ExploreRequest) -> Exploration:
    """Every feasible fabric for the request, the frontier marked and the bar applied (module rules)."""
    started = time.perf_counter()
    request.base.validate()
    cache: dict = {}
    found: dict[tuple, Candidate] = {}
    explored = 0
    for spec in structures(request):
        explored += 1
        try:
            q = quote(spec, cache=cache, checked=True)
        except SpecError:
            continue
        sz = q.sizing
        # "auto" tiers would resolve the same; a spine equal to the core in 2 tiers is the same fabric.
        key = (spec.leaf, spec.spine_hw, spec.core_hw if sz.tiers == 3 else None, sz.planes, sz.tiers,
               spec.oversubscription, False)
        if key in found:
            continue
        found[key] = Candidate(spec=replace(spec, tiers=sz.tiers), quote=q)
        if request.blocking:
            fewest = _blocking(spec, sz, cache)
            if fewest is not None:
                found[key[:-1] + (True,)] = fewest
    everything = list(found.values())
    feasible = sum(1 for c in everything if not c.blocking)
    for c in everything:
        c.misses = misses(c, request.bar)
    meeting = [c for c in everything if c.meets_bar]
    bar_met = any(not c.blocking for c in meeting) or not everything
    if bar_met:
        shown = meeting
    else:
        ranked = sorted((c for c in everything if not c.blocking),
                        key=lambda c: (len(c.misses), sum(m.shortfall for m in c.misses), _order(c)))
        shown = ranked[:max(1, request.nearest)]
    shown.sort(key=_order)
    mark_pareto(shown)
    return Exploration(candidates=shown, bar=request.bar, bar_met=bar_met, explored=explored, feasible=feasible,
                       seconds=round(time.perf_counter() - started, 3))


def _blocking(spec: DesignSpec, sz, cache: dict) -> Candidate | None:
    """The fewest-spines wiring of the same structure, when it has fewer spines (engine.plan._uneven's rule)."""
    variant = replace(spec, tiers=sz.tiers)
    try:
        q = quote(variant, even=False, cache=cache, checked=True)
    except SpecError:
        return None
    if q.sizing.switches["spine"] >= sz.switches["spine"]:
        return None
    return Candidate(spec=variant, quote=q, blocking=True)
