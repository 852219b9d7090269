"""The alternatives of a request priced by the fast path: engine.plan.alternatives' list, without its plans.

    alternatives(spec) -> list[Alternative]     the same structures, figures, reasons and marks as
                                                engine.plan.alternatives(spec), each priced by quote()
    size(spec) -> Sizing                        engine.plan.size(spec)'s counts and refusals, priced by quote()

engine.plan.alternatives plans every structure in full (devices, links, cabling, hall) to price it: at
1,000,000 GPUs that is five plans of 3 M links each. The figures an alternative shows (switch and link
counts, growth, hops, oversubscription, bisection, total, power, rack units, the wiring proof) are
what engine.explore.fast.quote computes from the structure itself, so each structure is quoted instead.
tests/engine/test_explore_alternatives.py checks the two lists equal on 2-tier, 3-tier, multi-plane,
split-port, blocking and infeasible requests.

Rules (where the fast path is not the full plan, the full plan is used):
- The checks run in plan()'s order: the spec, the racks' rules, the backend's switch classes, then
  sizing, cabling and placement; a hall too small for the racks fails as engine.hall.build says.
- A structure the fast path refuses is planned in full, so an infeasible alternative's reason is
  the full plan's word for word (the cabling's reasons name the cables that fall short there).
- With structured cabling the hall's patch panels are part of the price (engine.hall.structured,
  counted from the links between racks): those structures are planned in full.
- The worst leaf pair is named as engine.plan.make_devices names the devices.
"""
from __future__ import annotations

from dataclasses import replace

from ..hall.build import _check_size
from ..hall.grid import HallGrid
from ..hall.rules import check_rack_rules
from ..model import Alternative, Sizing
from ..names import core_names, leaf_names, server_name, slot_leaf_name, spine_names, width
from ..plan import _label, _plan, _priced, review_notes
from ..spec import DesignSpec, InfeasibleSpec, backend_class_check
from ..topology import Layout, device_layout, size_fabric
from .fast import quote

BLOCKING_NOTES = ("warning.uneven_uplinks", "wiring.blocking", "wiring.blocking_pods")


def alternatives(spec: DesignSpec) -> list[Alternative]:
    """engine.plan.alternatives(spec), each structure priced by the fast path (module rules)."""
    spec.validate()
    try:
        own: Sizing | None = size_fabric(spec)
    except InfeasibleSpec:  # the other structures may still fit (the live check lists them)
        own = None
    rails = spec.rails
    split = spec.nic_split
    options: list[tuple[int, int | str]] = [(1, 2), (1, 3)] if split == 1 else [(split, 2), (split, 3)]
    options += [(p, "auto") for p in range(2, rails + 1) if rails % p == 0 and p % split == 0 and p != split]
    if own is not None and (spec.planes, own.tiers) not in [(p, t) for p, t in options]:
        options.append((spec.planes, own.tiers))
    out: list[Alternative] = []
    seen = set()
    for planes, tiers in options:
        variant = replace(spec, planes=planes, tiers=tiers)
        resolved = tiers if tiers != "auto" else 3
        try:
            resolved = size_fabric(variant).tiers
            alt = _quoted(variant)
        except InfeasibleSpec as exc:
            if (planes, resolved) in seen:
                continue
            seen.add((planes, resolved))
            out.append(Alternative(label=_label(planes, resolved), planes=planes, tiers=resolved, feasible=False,
                                   reason=str(exc), reason_details=exc.details, currency=spec.currency))
            continue
        key = (planes, alt.tiers)
        if key in seen:
            continue
        seen.add(key)
        alt.label = _label(planes, alt.tiers)
        out.append(alt)
    feasible = [a for a in out if a.feasible]
    if feasible:
        min(feasible, key=lambda a: (a.total_cost, a.planes, a.tiers)).cheapest = True
    for alt in out:
        alt.current = own is not None and alt.planes == spec.planes and alt.tiers == own.tiers
    current = next((a for a in out if a.current and a.feasible), None)
    blocking = _uneven(spec, own) if current is not None and own is not None else None
    if blocking is not None and blocking.total_cost < current.total_cost:
        out.append(blocking)
    return out


def size(spec: DesignSpec) -> Sizing:
    """The backend's sizing and price as engine.plan.size gives them, refused where it refuses (module rules)."""
    spec.validate()
    return _quoted(spec).sizing


def _quoted(spec: DesignSpec, *, even: bool = True) -> Alternative:
    """The structure of `spec` priced as engine.plan._priced prices its plan (label left to the caller)."""
    if spec.layout.structured_cabling:
        return _priced(_plan(spec, progress=None, address=False, even=even), "")
    check_rack_rules(spec)  # plan()'s order: the racks' rules, then the switch classes, then the fabric
    backend_class_check(spec)
    grid = HallGrid(spec.layout)
    try:
        q = quote(spec, even=even, checked=True, grid=grid)
    except InfeasibleSpec:
        # The full plan's own reason (or, should the two ever differ, its figures).
        return _priced(_plan(spec, progress=None, address=False, even=even), "")
    _check_size(grid, q.racks)
    sz = q.sizing
    wiring = q.wiring
    if wiring.worst_pair is not None:
        wiring.worst_pair_names = tuple(device_names(spec, sz, device_layout(sz), list(wiring.worst_pair)))
    return Alternative(
        label="", planes=sz.planes, tiers=sz.tiers, feasible=True, sizing=sz, total_cost=q.total_cost,
        currency=q.currency, power_typical_w=q.power_typical_w, power_max_w=q.power_max_w, rack_units=q.rack_units,
        wiring=wiring,
    )


def _uneven(spec: DesignSpec, own: Sizing) -> Alternative | None:
    """engine.plan._uneven: the spec's own structure with the fewest spines (uneven uplinks), if fewer: blocking."""
    variant = replace(spec, tiers=own.tiers)
    fewest = size_fabric(variant, even=False)
    if fewest.switches["spine"] + fewest.switches["core"] >= own.switches["spine"] + own.switches["core"]:
        return None
    alt = _quoted(variant, even=False)
    notes = review_notes(variant, alt.sizing, alt.wiring)  # the three kept depend on neither racks nor cabling
    alt.label = _label(alt.planes, alt.tiers) + ", fewest spines (blocking)"
    alt.blocking = True
    alt.notes = [note for note in notes if note.code in BLOCKING_NOTES]
    return alt


def device_names(spec: DesignSpec, sz: Sizing, lay: Layout, indexes: list[int]) -> list[str]:
    """The names engine.plan.make_devices gives the devices `indexes` (servers, leaves, spines, cores)."""
    out = []
    for i in indexes:
        plane, su, rail, local = int(lay.plane[i]), int(lay.su[i]), int(lay.rail[i]), int(lay.local[i])
        if i < lay.leaf_base:
            out.append(server_name(i, width(sz.servers, 4)))
        elif i < lay.spine_base:
            su_w = width(sz.scale_units, 2)
            if sz.leaf_slots:
                out.append(slot_leaf_name(plane, su, local % sz.leaf_slots, su_w, width(sz.leaf_slots, 2)))
            else:
                out.append(leaf_names([plane], [su], [rail], su_w, width(sz.rails, 1))[0])
        elif i < lay.core_base:
            out.append(spine_names([plane], [local], width(sz.spines_per_plane, 3))[0])
        else:
            out.append(core_names([plane], [local], width(sz.cores_per_plane, 3))[0])
    return out
