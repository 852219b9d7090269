"""The hall plan of a planned cluster: its racks, what each holds, their power, checked.

Rules:
- Every device of every network (Plan.devices, then each NetworkPlan's) already has a row, a position
  and a rack unit from placement (engine.racks for the backend, engine.networks for the others, all on
  one engine.hall.grid). Here they become racks with items: height and power per device from its
  hardware (engine.hall.rules.draw), a rack-scale system's NVLink switch trays as passive items above
  its compute trays, and with structured cabling a patch panel and a cable manager per rack
  (engine.hall.structured).
- A rack's kind: "compute" when it holds a server, "storage" a storage node, "management" only
  management switches, else "network". Its zone is the hall's zone of its row.
- Power per device from its hardware plus the network-side optics and active cables in its ports
  (`_add_pluggables`); a figure no one publishes is named on the item, its rack and the hall, and in
  warning.hall_power_not_published, never counted as a silent 0.
- Checked, never silent: a hall too small (layout.hall.rows or the zone: how many rows are missing),
  two items sharing a unit or passing the rack's top (layout.rack_units), a rack over its budget
  (layout.rack_power_kw). Placement is built not to do the last two; the check makes sure.
"""
from __future__ import annotations

from itertools import repeat
from operator import attrgetter

import numpy as np

from ..messages import message
from ..model import Device, Plan
from ..racks import rack_names
from ..spec import DesignSpec, InfeasibleSpec
from . import cooling, geometry
from .grid import HallGrid
from .model import Hall, HallPlan, Rack, RackItem
from .rules import draw, height, rack_fill
from ..topology import su_leaves
from .structured import add_structured_cabling

STORAGE_NODE_U = 2
_INDEX = attrgetter("index")
NVLINK_TRAY = "nvlink-switch"
POWER_SHELF = "power-shelf"


def _hardware(spec: DesignSpec, network: str, role: str):
    """The hardware of a device of `role` in `network` (None: a storage node)."""
    if network == "backend":
        return spec.server if role == "server" else spec.switch_hw(role)
    if network == "oob":
        return spec.oob.leaf if role == "leaf" else spec.oob.spine_hw
    net = spec.frontend if network == "frontend" else spec.storage
    if role == "storage" or net is None:
        return None
    if role == "leaf":
        return net.leaf
    return net.spine or net.leaf


def device_u_height(spec: DesignSpec, device: Device, nets: dict) -> int:
    """Height in U of a device of the cluster (backend or another network's)."""
    if device.role == "storage":
        return STORAGE_NODE_U
    network = "backend"
    for key, net in nets.items():
        if net.devices and net.devices[0].index <= device.index <= net.devices[-1].index:
            network = key
            break
    hw = _hardware(spec, network, device.role)
    return height(hw) if hw is not None else 1


def cluster_devices_by_network(plan: Plan) -> list[tuple[str, Device]]:
    """(network, device) for every device of the cluster, in cluster index order."""
    out = list(zip(repeat("backend"), plan.devices))
    if not plan.networks:
        return out  # a plan's devices come in index order, each once (engine.plan.make_devices)
    for key, net in plan.networks.items():
        out.extend(("storage" if d.role == "storage" else key, d) for d in net.devices)
    index = np.fromiter(map(_INDEX, (d for _n, d in out)), dtype=np.int64, count=len(out))
    if not len(index) or bool((index[1:] > index[:-1]).all()):
        return out  # already in index order, each device once (a backend's own plan)
    seen = set()
    unique = []
    for item in sorted(out, key=lambda pair: pair[1].index):
        if item[1].index not in seen:
            seen.add(item[1].index)
            unique.append(item)
    return unique


def place_hall(spec: DesignSpec, plan: Plan, grid: HallGrid) -> HallPlan:
    layout = spec.layout
    basis = layout.rack_power_basis
    fill = rack_fill(spec, plan.su_servers, su_leaves(plan.sizing) if plan.sizing else plan.rails)
    devices = cluster_devices_by_network(plan)
    count = (devices[-1][1].index + 1) if devices else 0
    devs = [d for _n, d in devices]
    networks = [n for n, _d in devices]
    roles = list(map(attrgetter("role"), devs))
    index = np.fromiter(map(_INDEX, devs), dtype=np.int64, count=len(devs))
    row = np.fromiter(map(attrgetter("row"), devs), dtype=np.int64, count=len(devs))
    col = np.fromiter(map(attrgetter("col"), devs), dtype=np.int64, count=len(devs))
    units = list(map(attrgetter("rack_unit"), devs))
    kinds = list(zip(networks, roles))
    first = dict(zip(reversed(kinds), reversed(devs)))  # (network, role) -> its first device

    # Hardware figures per (network, role), once: height, typical and maximum watts, the parts without a figure.
    figures: dict[tuple[str, str], tuple[int, float, float, tuple[str, ...]]] = {}
    for key in dict.fromkeys(kinds):
        network, d = key[0], first[key]
        hw = _hardware(spec, network, d.role)
        if hw is None:
            figures[key] = (STORAGE_NODE_U, 0.0, 0.0, (d.model or "storage node",))
        elif d.role == "server":
            missing = () if fill.server_w else (hw.name or hw.sku or "server",)
            figures[key] = (height(hw), fill.server_w, fill.server_w, missing)
        else:
            missing = () if (hw.power_typical_w is not None or hw.power_max_w is not None) else (
                hw.sku or hw.name or f"{hw.ports}x{hw.gbps}G switch",)
            figures[key] = (height(hw), float(hw.power_typical_w or hw.power_max_w or 0.0),
                            float(hw.power_max_w or hw.power_typical_w or 0.0), missing)

    rack_key = (row << 20) + col
    keys, inverse = np.unique(rack_key, return_inverse=True)
    zone_of = grid.zone_of
    key_list = keys.tolist()
    xs = geometry.position_x(layout, [k & ((1 << 20) - 1) for k in key_list]).tolist()
    ys = geometry.row_y(layout, [k >> 20 for k in key_list]).tolist()
    # A rack's kind: compute with a server, else storage with a storage node, else network (management when
    # it holds only the out-of-band network's switches).
    role_arr = np.array(roles, dtype=object)
    per_rack = np.bincount(inverse, minlength=len(key_list))
    servers = np.bincount(inverse[role_arr == "server"], minlength=len(key_list))
    storage = np.bincount(inverse[role_arr == "storage"], minlength=len(key_list))
    oob = np.bincount(inverse[np.array(networks, dtype=object) == "oob"], minlength=len(key_list))
    rack_kind = np.where(servers > 0, "compute", np.where(storage > 0, "storage", np.where(
        oob == per_rack, "management", "network"))).tolist()
    rack_rows = (keys >> 20).tolist()
    rack_cols = (keys & ((1 << 20) - 1)).tolist()
    n_racks = len(key_list)
    racks = list(map(Rack, range(n_racks), rack_names(keys >> 20, keys & ((1 << 20) - 1)),
                     rack_rows, rack_cols, [round(x, 4) for x in xs], [round(y, 4) for y in ys],
                     repeat(layout.rack_units, n_racks), repeat(float(layout.rack_power_kw) * 1000.0, n_racks),
                     repeat(basis, n_racks), repeat(layout.cooling, n_racks),
                     [zone_of.get(r, "") for r in rack_rows], rack_kind))
    figure = [figures[k] for k in kinds]
    heights = [f[0] for f in figure]
    faces = ["front" if r in ("server", "storage") else "rear" for r in roles]
    items = list(map(RackItem, index.tolist(), map(attrgetter("name"), devs), roles, networks, units, heights,
                     faces, [f[1] for f in figure], [f[2] for f in figure], map(attrgetter("sku"), devs),
                     map(attrgetter("model"), devs), repeat(0.0), [f[3] for f in figure]))
    device_rack = np.full(count, -1, dtype=np.int32)
    device_u = np.zeros(count, dtype=np.int32)
    device_h = np.zeros(count, dtype=np.int32)
    device_rack[index] = inverse
    device_u[index] = units
    device_h[index] = heights
    # Each rack's items by unit (ties in device order), as the rack check and every drawing read them.
    order = np.lexsort((np.array(units, dtype=np.int64), inverse))
    bounds = np.searchsorted(inverse[order], np.arange(len(racks) + 1)).tolist()
    in_order = [items[i] for i in order.tolist()]
    for i, rack in enumerate(racks):
        rack.items = in_order[bounds[i]:bounds[i + 1]]
    passive = bool(fill.rack_scale_switch_trays or fill.shelves_below or fill.shelves_above
                   or layout.structured_cabling)
    if fill.rack_scale_switch_trays:
        _nvlink_trays(spec, racks, fill)
    if fill.shelves_below or fill.shelves_above:
        _power_shelves(spec, racks, fill)
    # A grid the devices were not placed on (a fresh one) knows neither: the devices' own rows and positions say.
    rows = max(grid.rows, max(grid.used_rows, default=-1) + 1, int(row.max(initial=-1)) + 1)
    positions = max(1, grid.positions or int(col.max(initial=0)) + 1)
    hall = Hall(rows=rows, positions=positions,
                rack_width_m=layout.rack_width_m, row_pitch_m=layout.row_pitch_m or geometry.pair_pitch(layout) / 2,
                reserved=grid.reserved, zones=dict(zone_of),
                footprint_width_m=round(geometry.hall_width(layout, positions), 3),
                footprint_depth_m=round(geometry.hall_depth(layout, rows), 3),
                aisles={"paired": geometry.paired(layout), "rack_depth_m": layout.rack_depth_m,
                        "cold_aisle_m": layout.cold_aisle_m, "hot_aisle_m": layout.hot_aisle_m,
                        "cross_aisle_m": layout.cross_aisle_m, "row_racks_max": layout.row_racks_max})
    result = HallPlan(hall=hall, racks=racks, device_rack=device_rack, device_u=device_u, device_u_height=device_h,
                      rack_x_m=np.array([r.x_m for r in racks], dtype=np.float64),
                      rack_y_m=np.array([r.y_m for r in racks], dtype=np.float64),
                      servers_per_rack=fill.servers_per_rack, switches_per_rack=dict(fill.switches_per_rack))
    _check_size(grid, len(racks))
    if layout.structured_cabling:
        add_structured_cabling(spec, plan, result)
    if passive:  # the devices' items are in order already
        for rack in racks:
            rack.items.sort(key=lambda item: item.u)
    check_racks(result)
    endpoint = np.zeros(count, dtype=bool)
    endpoint[index[(role_arr == "server") | (role_arr == "storage")]] = True
    pluggable_notes = _add_pluggables(plan, endpoint, items, racks)
    result.notes = cooling.assign(layout, racks, rack_scale=bool(fill.rack_scale_switch_trays))
    result.notes.extend(pluggable_notes)
    result.notes.extend(hall_power_notes(result))
    return result


def _add_pluggables(plan: Plan, endpoint: np.ndarray, items: list[RackItem], racks: list[Rack]) -> list:
    """Add to each switch the network-side optics and active cables in its ports; a review point for each rack
    they take over its budget. A SKU's BOM watts (engine.bom) are spread evenly over the link ends it serves, so
    the racks add up to the BOM; a server's or storage node's ends are inside its own rating (in-server, not
    added). Placement and the rack check count devices (optics follow from cable lengths, which follow from the
    racks), so a rack the optics take over budget is said, not refused. `endpoint[i]`: device i is a server or a
    storage node; `items`: the devices' rack items."""
    count = len(endpoint)
    watts = np.zeros(count, dtype=np.float64)
    unpublished: dict[int, set[str]] = {}
    tables = [(plan.links.a_dev, plan.links.b_dev, plan.links.medium, plan.media, plan.bom)]
    tables += [(n.links.a_dev, n.links.b_dev, n.links.medium, n.media, n.bom) for n in plan.networks.values()]
    for a_dev, b_dev, medium, media, bom in tables:
        if not len(a_dev) or not media:
            continue
        line_w: dict[str, float] = {}
        published: dict[str, bool] = {}
        for line in bom:
            if not line.spare:
                line_w[line.sku] = line_w.get(line.sku, 0.0) + line.power_typical_w
                published[line.sku] = published.get(line.sku, True) and line.power_published
        per_medium = np.bincount(medium.astype(np.int64), minlength=len(media))
        ends: dict[str, int] = {}
        plugs = []  # (medium index, sku, which ends: "a", "b")
        for i, m in enumerate(media):
            pairs = [(m.cable_sku or m.a_sku, "ab")] if not m.b_sku else [(m.a_sku, "a"), (m.b_sku, "b")]
            for sku, sides in pairs:
                if sku and sku in line_w:
                    ends[sku] = ends.get(sku, 0) + int(per_medium[i]) * len(sides)
                    plugs.append((i, sku, sides))
        for i, sku, sides in plugs:
            rows = medium == i
            share = line_w[sku] / ends[sku] if ends[sku] else 0.0
            for side in sides:
                dev = (a_dev if side == "a" else b_dev)[rows].astype(np.int64)
                dev = dev[~endpoint[dev]]
                np.add.at(watts, dev, share)
                if not published[sku]:
                    for index in np.unique(dev).tolist():
                        unpublished.setdefault(index, set()).add(sku)
    # Only the items that get watts or a missing figure change (a server's or storage node's never do).
    extras = watts[[item.device for item in items]]
    changed = np.flatnonzero(extras)
    if unpublished:
        changed = np.union1d(changed, [i for i, item in enumerate(items) if item.device in unpublished])
    for i, extra in zip(changed.tolist(), extras[changed].tolist()):
        item = items[i]
        item.pluggable_w = extra
        item.power_typical_w += extra
        item.power_max_w += extra
        if item.device in unpublished:
            item.power_missing = item.power_missing + tuple(sorted(unpublished[item.device]))
    notes = []
    for rack in racks:
        if rack.power_budget_w and rack.power_w > rack.power_budget_w + 1e-6:
            notes.append(message("warning.rack_over_budget_optics", rack=rack.name,
                                 power_kw=round(rack.power_w / 1000, 3), budget_kw=rack.power_budget_w / 1000))
    return notes


def hall_power_notes(hall: HallPlan) -> list:
    """A review point naming every part whose power no one publishes: the rack and hall totals leave it out."""
    parts = hall.power_missing
    if not parts:
        return []
    return [message("warning.hall_power_not_published", parts=", ".join(parts), count=hall.power_missing_devices)]


def _nvlink_trays(spec: DesignSpec, racks: list[Rack], fill) -> None:
    """A rack-scale system's NVLink switch trays: 1U each, above the compute trays of every compute rack."""
    from ..scaleup import NVLINK_SWITCH_TRAY_RU

    first = fill.shelves_below + fill.trays_below * fill.server_u + 1
    server = spec.server
    # A published rack figure covers its switch trays (the compute trays share it, engine.hall.rules); else the
    # tray's own figure, else nothing published: named as missing.
    tray_w = 0.0 if server.scale_up_rack_power_w else server.scale_up_switch_tray_power_w
    for rack in racks:
        if rack.kind != "compute":
            continue
        for k in range(fill.rack_scale_switch_trays):
            rack.items.append(RackItem(device=-1, name=f"nvsw-{rack.name}-{k + 1}", role=NVLINK_TRAY,
                                       network="scale-up", u=first + k * NVLINK_SWITCH_TRAY_RU,
                                       u_height=NVLINK_SWITCH_TRAY_RU, face="front", model="NVLink switch tray",
                                       power_typical_w=tray_w or 0.0, power_max_w=tray_w or 0.0,
                                       power_missing=() if tray_w is not None else ("NVLink switch tray",)))


def _power_shelves(spec: DesignSpec, racks: list[Rack], fill) -> None:
    """A rack-scale rack's power shelves (1U each, engine.hall.rules.rack_scale_stack): below and above its trays.
    Their losses are inside the rack system's published power (carried by its compute trays); while that figure
    is unpublished, a shelf names the system as missing like its trays do, never a silent 0 W."""
    server = spec.server
    missing = () if server.scale_up_rack_power_w else (server.name or server.sku or "server",)
    above_first = fill.shelves_below + fill.stack_u - fill.shelves_below - fill.shelves_above + 1
    for rack in racks:
        if rack.kind != "compute":
            continue
        units = [k + 1 for k in range(fill.shelves_below)] + [above_first + k for k in range(fill.shelves_above)]
        for k, u in enumerate(units):
            rack.items.append(RackItem(device=-1, name=f"ps-{rack.name}-{k + 1}", role=POWER_SHELF, network="power",
                                       u=u, u_height=1, face="front", model="power shelf", power_missing=missing))


def _check_size(grid: HallGrid, racks: int) -> None:
    errors = {}
    for pool, have, missing in grid.shortage():
        if pool:
            errors.setdefault(f"layout.hall.zones.{pool}", []).append(message(
                "hall.zone_too_small", zone=pool, needed_rows=have + missing, positions=grid.positions, rows=have,
                missing=missing))
        else:
            errors.setdefault(grid.rows_field, []).append(message(
                "hall.too_small", needed_rows=have + missing, positions=grid.positions, racks=racks, rows=have,
                missing=missing))
    if errors:
        raise InfeasibleSpec(errors)


def check_racks(result: HallPlan) -> None:
    """Items never share a unit nor pass the top; no rack is over its budget (InfeasibleSpec otherwise)."""
    for rack in result.racks:
        top = 0
        units = rack.units
        for item in rack.items:  # sorted by u
            u = item.u
            if u < 1 or u <= top or u + item.u_height - 1 > units:  # the item's top unit (RackItem.top_u)
                raise InfeasibleSpec({"layout.rack_units": [message(
                    "rack.overfull", rack=rack.name, units=rack.units, used=rack.used_units)]})
            top = u + item.u_height - 1
        if rack.power_budget_w and rack.power_w > rack.power_budget_w + 1e-6:
            raise InfeasibleSpec({"layout.rack_power_kw": [message(
                "rack.over_budget", rack=rack.name, power_kw=round(rack.power_w / 1000, 3),
                budget_kw=rack.power_budget_w / 1000)]})
