"""Backend rack placement: a hall cell and a rack unit for every backend device, from which links get lengths.

Placement rules (engine.hall.rules says what a rack holds, engine.hall.grid where blocks stand):
- The hall is filled in blocks, each starting a new row of its zone (engine.hall.grid); reserved
  cells are skipped.
- Compute: each scale unit's servers fill consecutive racks, `servers_per_rack` each (derived from
  height and power when the layout says 0; a rack-scale system's compute trays per rack are fixed by
  its domain, 18 for NVL72, with its NVLink switch trays above them), and a new SU starts a new rack.
  The SU's leaves (all planes, one per rail) stand in leaf racks of their own in the middle of the SU's
  server racks (leaf_rack "middle", after the first half of them) or after them ("end"), as many leaf
  racks as their height and power need; with leaf_rack "server" they are spread over the SU's server
  racks (leaf of rail j in server rack j mod racks), above the servers. A partly filled last SU in
  "server" mode keeps all its racks and spreads its servers evenly over them.
- spine_rows = "middle" (default):
  2 tiers: the spine racks (all planes) form network rows between the first and the second half
  of the scale units, so no leaf is more than half the hall away from its spines;
  3 tiers: each pod's scale units are followed by a network row of that pod's spines (all planes);
  the core racks (all planes) form network rows in the middle of the pods.
- spine_rows = "end": spine rows (pod by pod), then core rows, after all compute rows.
- Spine and core racks hold at most `switches_per_rack` switches each (fewer when height or power
  says so), in device order.
- Rack units count from 1 at the bottom; devices stack from U1 in device order; the top of every rack
  is kept for its management switch when the design has an out-of-band network.

A link's length is its cable route (engine.hall.route): up from the device to the overhead tray,
along and across rows, down to the far device, plus slack_m; within one rack the height between the
two devices plus slack_m. Cabling rounds it up to a length the catalog sells.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .hall.grid import HallGrid
from .hall.route import run_lengths
from .hall.rules import RackFill, height, rack_fill, switch_draw
from .model import Sizing
from .spec import DesignSpec
from .topology import Layout, leaves_per_su, su_leaves


@dataclass(slots=True)
class Placement:
    row: np.ndarray  # int32 per device
    col: np.ndarray  # int32 per device: rack position in its row
    rack_unit: np.ndarray  # int32 per device: lowest rack unit it occupies (1-based)
    rows: int  # rows in the hall used so far (1 + the last used row)
    u_height: np.ndarray | None = None  # int32 per device
    fill: RackFill | None = None

    def rack_name(self, device: int) -> str:
        return rack_name(int(self.row[device]), int(self.col[device]))


def rack_name(row: int, col: int) -> str:
    """Rack "R012-05": row 12, position 5 (both 1-based as people count them)."""
    return f"R{row + 1:03d}-{col + 1:02d}"


def rack_names(rows: np.ndarray, cols: np.ndarray) -> list[str]:
    """rack_name(row, col) of each (rows[i], cols[i]) (0-based arrays), in one pass."""
    return list(map("R{:03d}-{:02d}".format, (np.asarray(rows, dtype=np.int64) + 1).tolist(),
                    (np.asarray(cols, dtype=np.int64) + 1).tolist()))


def place(spec: DesignSpec, sz: Sizing, lay: Layout, grid: HallGrid | None = None,
          fill: RackFill | None = None) -> Placement:
    layout = spec.layout
    grid = grid if grid is not None else HallGrid(layout)
    fill = fill if fill is not None else rack_fill(spec, sz.su_servers, su_leaves(sz))
    spr = fill.servers_per_rack
    in_server = layout.leaf_rack == "server"
    d, sus = sz.su_servers, sz.scale_units
    row = np.zeros(lay.count, dtype=np.int64)
    col = np.zeros(lay.count, dtype=np.int64)
    ru = np.ones(lay.count, dtype=np.int64)
    uh = np.ones(lay.count, dtype=np.int64)
    server_u = fill.server_u
    uh[:sz.servers] = server_u
    uh[lay.leaf_base:lay.spine_base] = height(spec.leaf)
    uh[lay.spine_base:lay.core_base] = height(spec.switch_hw("spine"))
    uh[lay.core_base:] = height(spec.switch_hw("core"))

    # Racks per SU: server racks (only the last SU may be partly filled), and the leaf racks of its group.
    last_servers = sz.servers - (sus - 1) * d
    full_server_racks = -(-d // spr)
    last_server_racks = full_server_racks if in_server else -(-last_servers // spr)
    su_server_racks = np.full(sus, full_server_racks, dtype=np.int64)
    su_server_racks[-1] = last_server_racks
    rails = max(1, su_leaves(sz))  # leaves per SU, all planes
    per = max(1, fill.leaves_per_leaf_rack)
    group = 1
    if not in_server and full_server_racks <= 2:
        # Small SUs (a rack-scale system's rack): neighbouring SUs share leaf racks, filled up to the
        # network racks' limit, instead of a leaf rack of a few switches each.
        shared = max(1, fill.per_rack(height(spec.leaf), fill_leaf_w(spec, fill), max(rails, layout.switches_per_rack)))
        if shared >= 2 * rails:
            group, per = shared // rails, shared

    # Blocks in hall order: ("compute", first SU, stop SU, spine devices at the block's end) or
    # ("network", role, device indexes).
    spines_all = np.arange(lay.spine_base, lay.core_base)
    cores_all = np.arange(lay.core_base, lay.count)
    none = np.zeros(0, dtype=np.int64)
    blocks: list[tuple] = []
    if layout.spine_rows == "end":
        blocks.append(("compute", 0, sus, none))
        if sz.tiers == 2:
            blocks.append(("network", "spine", spines_all))
        else:
            blocks.append(("network", "spine", _spines_by_pod(lay, spines_all)[0]))
            blocks.append(("network", "core", cores_all))
    elif sz.tiers == 2:
        half = -(-sus // 2)
        blocks.append(("compute", 0, half, none))
        blocks.append(("network", "spine", spines_all))
        if half < sus:
            blocks.append(("compute", half, sus, none))
    else:
        spines_sorted, pod_sorted = _spines_by_pod(lay, spines_all)
        bounds = np.searchsorted(pod_sorted, np.arange(sz.pods + 1))
        core_before = sz.pods // 2 if sz.pods > 1 else 1
        for k in range(sz.pods):
            if k == core_before:
                blocks.append(("network", "core", cores_all))
            first = k * sz.sus_per_pod
            # The pod's spines stand at the end of its rows (end-of-row network racks), not in a row of their own.
            blocks.append(("compute", first, min(sus, first + sz.sus_per_pod), spines_sorted[bounds[k]:bounds[k + 1]]))
        if core_before >= sz.pods:
            blocks.append(("network", "core", cores_all))

    # Leaf groups: consecutive SUs of one block sharing leaf racks, in the middle of their server racks or after.
    su_cell0 = np.zeros(sus, dtype=np.int64)  # offset of the SU's group's first rack within its block
    su_srv_off = np.zeros(sus, dtype=np.int64)  # server racks of the group before the SU's
    su_half = np.zeros(sus, dtype=np.int64)  # the group's server racks before its leaf racks
    su_leafr = np.zeros(sus, dtype=np.int64)  # the group's leaf racks
    su_leaf_off = np.zeros(sus, dtype=np.int64)  # the group's leaves before the SU's
    block_racks: list[int] = []
    for block in blocks:
        if block[0] == "compute":
            _, first, stop, spines = block
            offset = 0
            for g0 in range(first, stop, group):
                g1 = min(stop, g0 + group)
                members = np.arange(g0, g1)
                servers_in_group = int(su_server_racks[g0:g1].sum())
                leaf_racks = 0 if in_server else -(-((g1 - g0) * rails) // per)
                su_cell0[members] = offset
                su_srv_off[members] = np.concatenate([[0], np.cumsum(su_server_racks[g0:g1])[:-1]])
                su_half[members] = servers_in_group // 2 if layout.leaf_rack == "middle" else servers_in_group
                su_leafr[members] = leaf_racks
                su_leaf_off[members] = (members - g0) * rails
                offset += servers_in_group + leaf_racks
            swr = fill.switches_per_rack["spine"]
            block_racks.append(offset + -(-spines.shape[0] // swr))
        else:
            _, role, devices = block
            block_racks.append(-(-devices.shape[0] // fill.switches_per_rack[role]))
    # A derived hall takes the row length that makes its compute blocks (servers and leaves) nearest to square,
    # a row for each run of network blocks beside them: so the servers' places do not hang on the spine model.
    shape: list[int] = []
    network_rows = 0
    previous_network = False
    for block, racks in zip(blocks, block_racks):
        if block[0] == "compute":
            shape.append(racks - -(-block[3].shape[0] // fill.switches_per_rack["spine"]))
        elif not previous_network:
            network_rows += 1
        previous_network = block[0] != "compute"
    grid.shape_for(shape, network_rows)

    # Cells of every compute block's racks (in SU order), and the network racks.
    su_block_cell = np.zeros(sus, dtype=np.int64)  # index of the SU's block's first rack in the cell arrays
    cell_row: list[np.ndarray] = []
    cell_col: list[np.ndarray] = []
    taken = 0
    for block, racks in zip(blocks, block_racks):
        if block[0] == "compute":
            _, first, stop, spines = block
            if stop <= first:
                continue
            r, c = grid.block("compute", racks)
            su_block_cell[first:stop] = taken
            cell_row.append(r)
            cell_col.append(c)
            taken += racks
            n = spines.shape[0]
            if n:
                swr = fill.switches_per_rack["spine"]
                k = np.arange(n)
                spine_racks = -(-n // swr)
                row[spines] = r[racks - spine_racks + k // swr]
                col[spines] = c[racks - spine_racks + k // swr]
                ru[spines] = (k % swr) * uh[spines] + 1
        else:
            _, role, devices = block
            n = devices.shape[0]
            if not n:
                continue
            swr = fill.switches_per_rack[role]
            k = np.arange(n)
            r, c = grid.block("network", racks)
            row[devices] = r[k // swr]
            col[devices] = c[k // swr]
            ru[devices] = (k % swr) * uh[devices] + 1
    all_row = np.concatenate(cell_row) if cell_row else np.zeros(0, dtype=np.int64)
    all_col = np.concatenate(cell_col) if cell_col else np.zeros(0, dtype=np.int64)
    base = su_block_cell + su_cell0  # cell index of each SU's group's first rack

    # Servers: rack within the group, skipping the group's leaf racks in the middle.
    s = np.arange(sz.servers)
    su = s // d
    slot = s % d
    if in_server and last_servers < d and not fill.rack_scale_switch_trays:  # a domain never shares a rack
        # The partly filled last SU spreads its servers evenly over all its racks (its leaves need them).
        last = su == sus - 1
        rack_in_su = np.where(last, slot * full_server_racks // max(1, last_servers), slot // spr)
        first_slot = -(-(rack_in_su * max(1, last_servers)) // full_server_racks)
        in_rack = np.where(last, slot - first_slot, slot % spr)
    else:
        rack_in_su = slot // spr
        in_rack = slot % spr
    r_in_group = su_srv_off[su] + rack_in_su
    pos = r_in_group + (r_in_group >= su_half[su]) * su_leafr[su]
    index = base[su] + pos
    row[:sz.servers] = all_row[index]
    col[:sz.servers] = all_col[index]
    ru[:sz.servers] = fill.server_unit(in_rack)
    stack_top = fill.stack_u  # servers, and a rack-scale rack's NVLink switch trays and power shelves

    # Leaves: the group's leaf racks stacked by SU and rail, or spread over the SU's server racks.
    leaves = np.arange(lay.leaf_base, lay.spine_base)
    lsu = lay.su[leaves].astype(np.int64)
    per_su = leaves_per_su(sz)  # j: the leaf's place in its SU, plane by plane (its rail with a leaf per rail)
    j = lay.plane[leaves].astype(np.int64) * per_su + lay.local[leaves].astype(np.int64) % per_su
    lru = uh[leaves]
    if in_server:
        racks_of = su_server_racks[lsu]
        index = base[lsu] + su_srv_off[lsu] + j % racks_of
        ru[leaves] = stack_top + 1 + (j // racks_of) * lru
    else:
        k = su_leaf_off[lsu] + j
        index = base[lsu] + su_half[lsu] + k // per
        ru[leaves] = (k % per) * lru + 1
    row[leaves] = all_row[index]
    col[leaves] = all_col[index]
    rows = max(grid.used_rows, default=-1) + 1
    return Placement(row.astype(np.int32), col.astype(np.int32), ru.astype(np.int32), rows, uh.astype(np.int32),
                     fill)


def fill_leaf_w(spec: DesignSpec, fill: RackFill) -> float:
    return switch_draw(spec.leaf, fill.basis)


def _spines_by_pod(lay: Layout, spines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spine device indexes ordered by pod, then plane, then index; and their pods."""
    pod = lay.pod[lay.spine_base:lay.core_base]
    plane = lay.plane[lay.spine_base:lay.core_base]
    order = np.lexsort((np.arange(pod.shape[0]), plane, pod))
    return spines[order], pod[order]


def raw_lengths(spec: DesignSpec, placement: Placement, a_dev: np.ndarray, b_dev: np.ndarray) -> np.ndarray:
    """Run length in metres of each link between devices a_dev[i] and b_dev[i] (before rounding up)."""
    uh = placement.u_height if placement.u_height is not None else np.ones_like(placement.rack_unit)
    return run_lengths(spec.layout, placement.row, placement.col, placement.rack_unit, uh, a_dev, b_dev)
