"""Planning entry points: plan(), size() and alternatives().

    plan(spec, *, progress=None) -> Plan        every device and link, cabling, BOM and addresses
    size(spec) -> Sizing                        counts, growth limit and a cost estimate, no links
    alternatives(spec) -> list[Alternative]     2 tiers, 3 tiers and each multi-plane split, priced

All three validate the spec first (SpecError / InfeasibleSpec name the field). Interconnects
come from the spec; a spec that carries none (no optics, cables or fibres) uses the seed
catalog's. Progress stages, in order: "topology", "cabling", "bom", "addressing"; the percent
passed with them is the whole plan's progress (0-100, never decreasing, 100 at the end).
"""
from __future__ import annotations

import gc
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import replace
from itertools import chain, repeat

import numpy as np

from .addressing import assign, check_pools
from .bom import bill, price_notes, switch_sku
from .cabling import cable_links
from .messages import Message, message
from .model import Alternative, Device, Plan, Progress, Sizing, Wiring
from .names import (core_names, is_nvos, lanes_per_port, leaf_names, server_names, slot_leaf_name, spine_names,
                    width)
from .hall.build import place_hall
from .hall.grid import HallGrid
from .hall.structured import apply_structured_bom
from .hall.rules import RackFill, check_rack_rules, rack_fill
from .racks import Placement, place, rack_names, raw_lengths
from .seedcatalog import seed_catalog
from .spec import DesignSpec, InfeasibleSpec, backend_class_check
from .topology import (Layout, build_links, device_layout, last_su_leaf_links, leaf_downlinks, size_fabric,
                       su_leaves)
from .wiring import prove

STAGES = {"topology": (0, 35), "cabling": (35, 70), "bom": (70, 80), "addressing": (80, 100)}


def interconnects(spec: DesignSpec) -> tuple[tuple, tuple, tuple]:
    """(optics, cables, fibres) the plan may use: the spec's, or the seed catalog's when it has none."""
    if spec.optics or spec.cables or spec.fibers:
        return spec.optics, spec.cables, spec.fibers
    return seed_catalog().interconnects()


def size(spec: DesignSpec) -> Sizing:
    """Counts, limits and the price of the fabric, for the live check as the user types.

    Priced by the same code as plan() (every link placed, cabled and priced; only addressing is
    skipped), so the live estimate is the generated quote: estimated_cost == plan(spec).total_cost.
    """
    return _plan(spec, progress=None, address=False).sizing


@contextmanager
def collector_paused():
    """Python's cycle collector paused for the block, as it was after. A plan allocates its objects (devices, rack
    items, messages) in one go and keeps them: the collector's passes over them, triggered by the allocations
    alone, find no garbage and took a tenth of plan() at 65,536 GPUs (bench/bench_engine.py). Cycles made
    meanwhile are collected at the next pass after the block."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def plan(spec: DesignSpec, *, progress: Progress | None = None) -> Plan:
    """The whole fabric: devices, links port to port, cabling, BOM and cost, addresses and ASNs."""
    with collector_paused():
        return _plan(spec, progress=progress, address=True)


def _plan(spec: DesignSpec, *, progress: Progress | None, address: bool, even: bool = True,
          grid: HallGrid | None = None) -> Plan:
    """The backend's plan. Its racks come from `grid` (a cluster's shared hall, which then makes the hall plan)
    or from a hall of its own, placed here."""
    report = progress or (lambda stage, percent: None)
    report("topology", 0)
    spec.validate()
    check_rack_rules(spec)
    backend_class_check(spec)
    sz = size_fabric(spec, even=even)
    if address:
        check_pools(spec, sz)  # fail before the heavy work
    lay = device_layout(sz)
    links = build_links(sz, lay)
    wiring = prove(sz, lay, links)
    own_hall = grid is None
    grid = HallGrid(spec.layout) if own_hall else grid
    placement = place(spec, sz, lay, grid)
    devices = make_devices(spec, sz, lay, placement)
    if wiring.worst_pair is not None:
        wiring.worst_pair_names = tuple(devices[i].name for i in wiring.worst_pair)
    report("topology", STAGES["topology"][1])

    report("cabling", STAGES["cabling"][0])
    raw = raw_lengths(spec, placement, links.a_dev, links.b_dev)
    optics, cables, fibers = interconnects(spec)
    cabling = cable_links(spec, links, raw, optics, cables, fibers)
    report("cabling", STAGES["cabling"][1])

    report("bom", STAGES["bom"][0])
    b = bill(spec, sz, cabling)
    sz.estimated_cost = b.total_cost
    report("bom", STAGES["bom"][1])

    report("addressing", STAGES["addressing"][0])
    pools = assign(spec, sz, lay, links, devices) if address else {}
    report("addressing", STAGES["addressing"][1])
    notes = (review_notes(spec, sz, wiring, fill=placement.fill) + cabling.notes + power_notes(b.lines)
             + price_notes(b.lines))
    result = Plan(
        spec=spec, tiers=sz.tiers, planes=sz.planes, servers=sz.servers, gpus=spec.gpus, rails=sz.rails,
        su_servers=sz.su_servers, scale_units=sz.scale_units, pods=sz.pods, switches=dict(sz.switches),
        links_by_tier=dict(sz.links_by_tier), max_gpus=sz.max_gpus, max_hops=sz.max_hops,
        oversubscription=dict(sz.oversubscription), bisection_gbps=sz.bisection_gbps,
        free_ports=dict(sz.free_ports), devices=devices, links=links, media=cabling.media, bom=b.lines,
        subtotal=b.subtotal, discount=b.discount, total_cost=b.total_cost, currency=spec.currency,
        power_typical_w=b.power_typical_w, power_max_w=b.power_max_w, rack_units=b.rack_units, pools=pools,
        warnings=[note.text for note in notes], notes=notes, sizing=sz, wiring=wiring,
        in_server_typical_w=b.in_server_typical_w, in_server_max_w=b.in_server_max_w,
        spares_subtotal=b.spares_subtotal,
    )
    if own_hall:
        result.hall = place_hall(spec, result, grid)
        add_notes(result, result.hall.notes)
        apply_structured_bom(spec, result)
    return result


def add_notes(result: Plan, notes: list[Message]) -> None:
    """Append review points to a plan (its notes and their English warnings), each once."""
    for note in notes:
        if note not in result.notes:
            result.notes.append(note)
    result.warnings[:] = [note.text for note in result.notes]


def make_devices(spec: DesignSpec, sz: Sizing, lay: Layout, placement: Placement) -> list[Device]:
    """Device objects in index order: servers, leaves, spines, cores (see engine.names for names)."""
    server = spec.server
    count = lay.count
    # Rack names: one string per distinct (row, position), shared by the devices standing in it.
    key = placement.row.astype(np.int64) * (1 << 20) + placement.col.astype(np.int64)
    unique, inverse = np.unique(key, return_inverse=True)
    names_of_racks = rack_names(unique >> 20, unique & ((1 << 20) - 1))
    racks = map(names_of_racks.__getitem__, inverse.tolist())

    plane, su, rail, local = lay.plane.tolist(), lay.su.tolist(), lay.rail.tolist(), lay.local.tolist()
    srv_w = width(sz.servers, 4)
    names = server_names(sz.servers, srv_w)
    su_w, rail_w = width(sz.scale_units, 2), width(sz.rails, 1)
    leaves, spines = slice(lay.leaf_base, lay.spine_base), slice(lay.spine_base, lay.core_base)
    if sz.leaf_slots:  # leaves shared by tray slot are named by it (engine.names)
        slots = sz.leaf_slots
        names += [slot_leaf_name(plane[i], su[i], local[i] % slots, su_w, width(slots, 2))
                  for i in range(lay.leaf_base, lay.spine_base)]
    else:
        names += leaf_names(plane[leaves], su[leaves], rail[leaves], su_w, rail_w)
    names += spine_names(plane[spines], local[spines], width(sz.spines_per_plane, 3))
    names += core_names(plane[lay.core_base:count], local[lay.core_base:count], width(sz.cores_per_plane, 3))

    blocks = [(sz.servers, "server", server.sku, server.name or
               f"{server.gpus}-GPU server, {server.nic_ports}x{server.nic_gbps}G", spec.rails, 1, 0, False)]
    for role, n in (("leaf", lay.spine_base - lay.leaf_base), ("spine", lay.core_base - lay.spine_base),
                    ("core", count - lay.core_base)):
        hw = spec.switch_hw(role)
        blocks.append((n, role, switch_sku(hw), hw.name or f"{hw.ports}x{hw.gbps}G switch", hw.ports,
                       hw.ports_per_cage, lanes_per_port(hw), spec.infiniband and is_nvos(hw)))

    def per_device(position: int):
        """The column `position` of the blocks, one value per device (an iterator: map() reads it once)."""
        return chain.from_iterable(repeat(values[position], n) for n, *values in blocks)

    # Device.rail is a leaf's own rail; servers span all rails, spines and cores serve their plane.
    rail_out = lay.rail.copy()
    rail_out[:lay.leaf_base] = -1
    rail_out[lay.spine_base:] = -1
    zeros = repeat(0, count)
    return list(map(
        Device, range(count), names, per_device(0), per_device(1), per_device(2), per_device(3), plane,
        lay.pod.tolist(), su, rail_out.tolist(), lay.group.tolist(), placement.row.tolist(), racks,
        placement.rack_unit.tolist(), zeros, repeat(0, count), placement.col.tolist(), per_device(4),
        per_device(5), repeat(spec.infiniband, count), per_device(6),
    ))


def warnings(spec: DesignSpec, sz: Sizing) -> list[str]:
    """Things a presales engineer should say out loud about this structure (English sentences)."""
    return [note.text for note in review_notes(spec, sz)]


def review_notes(spec: DesignSpec, sz: Sizing, wiring: Wiring | None = None, fill: RackFill | None = None
                 ) -> list[Message]:
    """The same points as `warnings`, as Messages with their codes and params (and the wiring proof's, if failed)."""
    out = []
    spare = sz.servers * sz.gpus_per_server - spec.gpus
    if spare:
        out.append(message("warning.spare_gpu_slots", gpus=spec.gpus, servers=sz.servers,
                           gpus_per_server=sz.gpus_per_server, spare=spare))
    last = sz.servers - (sz.scale_units - 1) * sz.su_servers
    if last < sz.su_servers and sz.leaf_uplinks_last_su:  # shared leaves cable what the last SU's racks carry
        down_last, up_last = last_su_leaf_links(sz)
        out.append(message("warning.partial_scale_unit_shared", servers=last, su_servers=sz.su_servers,
                           downlinks=down_last, uplinks=up_last))
    elif last < sz.su_servers:
        out.append(message("warning.partial_scale_unit", servers=last, su_servers=sz.su_servers,
                           uplinks=sz.leaf_uplinks))
    leaf = spec.leaf
    o = spec.oversubscription
    ideal = leaf.ports * o / (o + 1)
    down = leaf_downlinks(sz)
    if not leaf.uplinks and abs(ideal - down) > 1e-6:  # an uplink group's split is the hardware's
        out.append(message("warning.leaf_split", ports=leaf.ports, oversubscription=o, downlinks=down,
                           uplinks=sz.leaf_uplinks, ratio=down / sz.leaf_uplinks))
    out += _rack_notes(spec, sz, fill)
    if sz.tiers == 3 and sz.spines_last_pod != sz.spines_per_pod:
        out.append(message("warning.partial_pod", spines=sz.spines_last_pod, spines_per_pod=sz.spines_per_pod))
    if sz.tiers == 2:
        groups = [sz.spines_per_plane]
    else:
        groups = ([sz.spines_per_pod] if sz.pods > 1 else []) + [sz.spines_last_pod]
    for spines in dict.fromkeys(groups):
        if sz.leaf_uplinks % spines:
            q = sz.leaf_uplinks // spines
            even = next(n for n in range(spines, sz.leaf_uplinks + 1) if sz.leaf_uplinks % n == 0)
            out.append(message("warning.uneven_uplinks", uplinks=sz.leaf_uplinks, spines=spines, fewer=q, more=q + 1,
                               even=even))
    if wiring is not None and not wiring.as_stated:
        out.append(blocking_note(wiring))
    if spec.infiniband:
        out.append(message("fabric.infiniband_subnet_manager", cidr=spec.pools.host))
    if spec.server.nics_built_in:
        nic = spec.nic_hw
        out.append(message("note.nics_built_in", ports=sz.servers * spec.server.nic_ports,
                           nic=nic.name or nic.sku, servers=sz.servers, server=spec.server.name or spec.server.sku))
    return out


def power_notes(lines: list) -> list[Message]:
    """A review point when parts of the BOM have no published power (their watts are left out of the totals)."""
    missing = [line for line in lines if not line.spare and not line.power_published]
    if not missing:
        return []
    return [message("warning.power_not_published", skus=", ".join(line.sku for line in missing),
                    count=sum(line.qty for line in missing))]


def blocking_note(wiring: Wiring) -> Message:
    """The wiring proof's verdict on a fabric that delivers less than its stated oversubscription."""
    leaf_fraction = min(1.0, wiring.worst_pair_links / wiring.leaf_downlinks) if wiring.leaf_downlinks else 1.0
    if wiring.worst_pod_pair is not None and leaf_fraction >= wiring.stated_fraction - 1e-9:  # the pods fall short
        plane, pod_a, pod_b = wiring.worst_pod_pair
        return message("wiring.blocking_pods", plane=plane + 1, pod_a=pod_a + 1, pod_b=pod_b + 1,
                       links=wiring.worst_pod_pair_links, uplinks=wiring.pod_pair_uplinks,
                       percent=round(100 * wiring.worst_pod_pair_fraction, 1))
    leaf_a, leaf_b = (tuple(wiring.worst_pair_names) + ("", ""))[:2]
    return message("wiring.blocking", leaf_a=leaf_a, leaf_b=leaf_b, links=wiring.worst_pair_links,
                   percent=round(100 * wiring.worst_pair_fraction, 1), downlinks=wiring.leaf_downlinks,
                   stated=round(100 * wiring.stated_fraction, 1))


def _rack_notes(spec: DesignSpec, sz: Sizing, fill: RackFill | None) -> list[Message]:
    """What the racks could not take as the layout asked (engine.hall.rules lowers it and says so here)."""
    fill = fill if fill is not None else rack_fill(spec, sz.su_servers, su_leaves(sz))
    out = list(fill.notes)
    layout = spec.layout
    tiers = [("spine", spec.spine_hw, sz.switches.get("spine", 0))]
    if sz.tiers == 3:
        tiers.append(("core", spec.core_hw, sz.switches.get("core", 0)))
    for role, hw, count in tiers:
        switch_ru = max(1, hw.rack_units)
        switches = min(layout.switches_per_rack, count)
        placed = fill.switches_per_rack.get(role, switches)
        if count and switches * switch_ru + fill.top_u > layout.rack_units and placed < switches:
            out.append(message("warning.rack_switches_height", switches=switches, role=role, switch_ru=switch_ru,
                               needed=switches * switch_ru, rack_units=layout.rack_units, fit=placed))
    return out


BLOCKING_NOTES = ("warning.uneven_uplinks", "wiring.blocking", "wiring.blocking_pods")


def alternatives(spec: DesignSpec, *, price: Callable[..., Alternative] | None = None) -> list[Alternative]:
    """The same request as 2 tiers, 3 tiers (one plane) and split over every plane count p > 1
    dividing the rails (tiers automatic), plus the spec's own structure; priced by full planning, or by
    `price(variant, even=...)` (an unlabelled Alternative with the same figures: engine.explore.alternatives).

    Infeasible structures are listed with the reason; the cheapest feasible one is marked. When the
    spec's own structure could take fewer spines with uneven leaf uplinks and cost less, that wiring
    is listed last, marked blocking with its wiring proof, and never marked cheapest.
    """
    price = price or planned_alternative
    spec.validate()
    try:
        own: Sizing | None = size_fabric(spec)
    except InfeasibleSpec:  # the other structures may still fit (the live check lists them)
        own = None
    rails = spec.rails
    # Parts of a split NIC port land on planes of their own: only plane counts that are multiples of the split.
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
            alt = price(variant)
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
    blocking = _uneven(spec, own, price) if current is not None and own is not None else None
    if blocking is not None and blocking.total_cost < current.total_cost:
        out.append(blocking)
    return out


def planned_alternative(spec: DesignSpec, *, even: bool = True) -> Alternative:
    """The structure of `spec` planned in full and priced (unlabelled); uneven wiring keeps its blocking notes."""
    result = _plan(spec, progress=None, address=False, even=even)
    notes = None if even else [note for note in result.notes if note.code in BLOCKING_NOTES]
    return _priced(result, "", notes=notes)


def _priced(result: Plan, label: str, *, blocking: bool = False, notes: list[Message] | None = None) -> Alternative:
    return Alternative(
        label=label, planes=result.planes, tiers=result.tiers, feasible=True, sizing=result.sizing,
        total_cost=result.total_cost, currency=result.currency, power_typical_w=result.power_typical_w,
        power_max_w=result.power_max_w, rack_units=result.rack_units, wiring=result.wiring, blocking=blocking,
        notes=list(notes or []),
    )


def _uneven(spec: DesignSpec, own: Sizing, price: Callable[..., Alternative]) -> Alternative | None:
    """The spec's own structure with the fewest spines (uneven uplinks), if that is fewer: blocking."""
    variant = replace(spec, tiers=own.tiers)
    fewest = size_fabric(variant, even=False)
    if fewest.switches["spine"] + fewest.switches["core"] >= own.switches["spine"] + own.switches["core"]:
        return None
    alt = price(variant, even=False)
    alt.label = _label(alt.planes, alt.tiers) + ", fewest spines (blocking)"
    alt.blocking = True
    return alt


def _label(planes: int, tiers: int) -> str:
    return f"{tiers} tiers" if planes == 1 else f"{planes} planes, {tiers} tiers"
