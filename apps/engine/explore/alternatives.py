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

from ..hall.build import _check_size
from ..hall.grid import HallGrid
from ..hall.rules import check_rack_rules
from ..model import Alternative, Sizing
from ..names import core_names, leaf_names, server_name, slot_leaf_name, spine_names, width
from ..plan import BLOCKING_NOTES, planned_alternative, review_notes
from ..plan import alternatives as plan_alternatives
from ..spec import DesignSpec, InfeasibleSpec, backend_class_check
from ..topology import Layout, device_layout
from .fast import quote


def alternatives(spec: DesignSpec) -> list[Alternative]:
    """engine.plan.alternatives(spec), each structure priced by the fast path (module rules)."""
    return plan_alternatives(spec, price=_quoted)


def size(spec: DesignSpec) -> Sizing:
    """The backend's sizing and price as engine.plan.size gives them, refused where it refuses (module rules)."""
    spec.validate()
    return _quoted(spec).sizing


def _quoted(spec: DesignSpec, *, even: bool = True) -> Alternative:
    """The structure of `spec` priced as engine.plan._priced prices its plan (label left to the caller)."""
    if spec.layout.structured_cabling:
        return planned_alternative(spec, even=even)
    check_rack_rules(spec)  # plan()'s order: the racks' rules, then the switch classes, then the fabric
    backend_class_check(spec)
    grid = HallGrid(spec.layout)
    try:
        q = quote(spec, even=even, checked=True, grid=grid)
    except InfeasibleSpec:
        # The full plan's own reason (or, should the two ever differ, its figures).
        return planned_alternative(spec, even=even)
    _check_size(grid, q.racks)
    sz = q.sizing
    wiring = q.wiring
    if wiring.worst_pair is not None:
        wiring.worst_pair_names = tuple(device_names(spec, sz, device_layout(sz), list(wiring.worst_pair)))
    # Uneven wiring keeps its blocking notes; the three depend on neither racks nor cabling.
    notes = [] if even else [note for note in review_notes(spec, sz, wiring) if note.code in BLOCKING_NOTES]
    return Alternative(
        label="", planes=sz.planes, tiers=sz.tiers, feasible=True, sizing=sz, total_cost=q.total_cost,
        currency=q.currency, power_typical_w=q.power_typical_w, power_max_w=q.power_max_w, rack_units=q.rack_units,
        wiring=wiring, notes=notes,
    )


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
