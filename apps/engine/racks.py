"""Default rack placement: a row and a rack position for every device, from which links get lengths.

Placement rules:
- Racks stand in rows of `racks_per_row`; racks are `rack_width_m` wide and rows `row_pitch_m`
  apart. Every block below starts a new row.
- Compute: each scale unit's servers fill consecutive racks, `servers_per_rack` each (a rack-scale
  system's compute trays per rack, fixed by its domain: 18 for NVL72, engine.scaleup), and a new
  SU starts a new rack; the SU's leaves (all planes, one per rail) stand together in one network
  rack in the middle of the SU's server racks (after the first half of them), or after them
  with leaf_rack = "end".
- spine_rows = "middle" (default):
  2 tiers: the spine racks (all planes) form network rows between the first and the second half
  of the scale units, so no leaf is more than half the hall away from its spines;
  3 tiers: each pod's scale units are followed by a network row of that pod's spines (all planes);
  the core racks (all planes) form network rows in the middle of the pods.
- spine_rows = "end": spine rows (pod by pod), then core rows, after all compute rows.
- Spine and core racks hold `switches_per_rack` switches each, in device order.
- Rack units count from 1 at the bottom; a rack's devices are stacked in device order. Racks
  are `rack_units` high; a placement that stacks higher is still made (the plan says which racks
  overflow in its review points, engine.plan), so a what-if never fails on furniture.

A link's length is the Manhattan distance between its racks, |d position| * rack_width_m +
|d row| * row_pitch_m, plus slack_m (in-rack routing and service loops at both ends); links within
one rack get the slack only. Cabling rounds it up to a length the catalog sells.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .model import Sizing
from .spec import DesignSpec
from .topology import Layout


@dataclass(slots=True)
class Placement:
    row: np.ndarray  # int32 per device
    col: np.ndarray  # int32 per device: rack position in its row
    rack_unit: np.ndarray  # int32 per device: lowest rack unit it occupies (1-based)
    rows: int  # rows in the hall

    def rack_name(self, device: int) -> str:
        return rack_name(int(self.row[device]), int(self.col[device]))


def rack_name(row: int, col: int) -> str:
    """Rack "R012-05": row 12, position 5 (both 1-based as people count them)."""
    return f"R{row + 1:03d}-{col + 1:02d}"


def place(spec: DesignSpec, sz: Sizing, lay: Layout) -> Placement:
    layout = spec.layout
    rpr, spr, swr = layout.racks_per_row, spec.servers_per_rack, layout.switches_per_rack
    d, sus = sz.su_servers, sz.scale_units
    row = np.zeros(lay.count, dtype=np.int64)
    col = np.zeros(lay.count, dtype=np.int64)
    ru = np.ones(lay.count, dtype=np.int64)

    # Racks per SU: server racks + the leaf rack; only the last SU may be partly filled.
    last_servers = sz.servers - (sus - 1) * d
    full_server_racks = -(-d // spr)
    last_server_racks = -(-last_servers // spr)

    def su_racks(first: int, stop: int) -> int:
        count = stop - first
        if stop == sus:
            return (count - 1) * (full_server_racks + 1) + last_server_racks + 1
        return count * (full_server_racks + 1)

    # Blocks in hall order: ("compute", first SU, stop SU) or ("network", device indexes).
    spines_all = np.arange(lay.spine_base, lay.core_base)
    cores_all = np.arange(lay.core_base, lay.count)
    blocks: list[tuple] = []
    if layout.spine_rows == "end":
        blocks.append(("compute", 0, sus))
        if sz.tiers == 2:
            blocks.append(("network", spines_all))
        else:
            blocks.append(("network", _spines_by_pod(lay, spines_all)[0]))
            blocks.append(("network", cores_all))
    elif sz.tiers == 2:
        half = -(-sus // 2)
        blocks.append(("compute", 0, half))
        blocks.append(("network", spines_all))
        if half < sus:
            blocks.append(("compute", half, sus))
    else:
        spines_sorted, pod_sorted = _spines_by_pod(lay, spines_all)
        bounds = np.searchsorted(pod_sorted, np.arange(sz.pods + 1))
        core_before = sz.pods // 2 if sz.pods > 1 else 1
        for k in range(sz.pods):
            if k == core_before:
                blocks.append(("network", cores_all))
            first = k * sz.sus_per_pod
            blocks.append(("compute", first, min(sus, first + sz.sus_per_pod)))
            blocks.append(("network", spines_sorted[bounds[k]:bounds[k + 1]]))
        if core_before >= sz.pods:
            blocks.append(("network", cores_all))

    # Rows where each block starts; per-SU block and position within the block.
    su_block_row = np.zeros(sus, dtype=np.int64)
    su_block_first = np.zeros(sus, dtype=np.int64)
    next_row = 0
    for block in blocks:
        if block[0] == "compute":
            _, first, stop = block
            su_block_row[first:stop] = next_row
            su_block_first[first:stop] = first
            racks = su_racks(first, stop)
        else:
            devices = block[1]
            n = devices.shape[0]
            k = np.arange(n)
            rack = k // swr
            row[devices] = next_row + rack // rpr
            col[devices] = rack % rpr
            ru[devices] = (k % swr) * np.array(_switch_ru(spec, lay, devices)) + 1
            racks = -(-n // swr)
        next_row += -(-racks // rpr) if racks else 0

    # Servers: rack within the SU, skipping the leaf rack in the middle.
    s = np.arange(sz.servers)
    su = s // d
    slot = s % d
    server_racks = np.where(su == sus - 1, last_server_racks, full_server_racks)
    mid = server_racks // 2 if layout.leaf_rack == "middle" else server_racks
    rack_in_su = slot // spr
    pos = rack_in_su + (rack_in_su >= mid)
    linear = (su - su_block_first[su]) * (full_server_racks + 1) + pos
    row[:sz.servers] = su_block_row[su] + linear // rpr
    col[:sz.servers] = linear % rpr
    ru[:sz.servers] = (slot % spr) * max(1, spec.server.rack_units) + 1

    # Leaves: the SU's network rack, stacked by rail.
    leaves = np.arange(lay.leaf_base, lay.spine_base)
    lsu = lay.su[leaves]
    lmid = np.where(lsu == sus - 1, last_server_racks, full_server_racks)
    if layout.leaf_rack == "middle":
        lmid = lmid // 2
    linear = (lsu - su_block_first[lsu]) * (full_server_racks + 1) + lmid
    row[leaves] = su_block_row[lsu] + linear // rpr
    col[leaves] = linear % rpr
    ru[leaves] = lay.rail[leaves] * max(1, spec.leaf.rack_units) + 1
    return Placement(row.astype(np.int32), col.astype(np.int32), ru.astype(np.int32), next_row)


def _spines_by_pod(lay: Layout, spines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spine device indexes ordered by pod, then plane, then index; and their pods."""
    pod = lay.pod[lay.spine_base:lay.core_base]
    plane = lay.plane[lay.spine_base:lay.core_base]
    order = np.lexsort((np.arange(pod.shape[0]), plane, pod))
    return spines[order], pod[order]


def _switch_ru(spec: DesignSpec, lay: Layout, devices: np.ndarray) -> int:
    if devices.shape[0] == 0:
        return 1
    role = "spine" if devices[0] < lay.core_base else "core"
    return max(1, spec.switch_hw(role).rack_units)


def raw_lengths(spec: DesignSpec, placement: Placement, a_dev: np.ndarray, b_dev: np.ndarray) -> np.ndarray:
    """Run length in metres of each link between devices a_dev[i] and b_dev[i] (before rounding up)."""
    layout = spec.layout
    dx = np.abs(placement.col[a_dev] - placement.col[b_dev]).astype(np.float32) * np.float32(layout.rack_width_m)
    dy = np.abs(placement.row[a_dev] - placement.row[b_dev]).astype(np.float32) * np.float32(layout.row_pitch_m)
    return dx + dy + np.float32(layout.slack_m)
