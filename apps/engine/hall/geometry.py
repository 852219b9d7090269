"""Where racks stand on the floor: rows in hot/cold aisle pairs, row segments, and the hall's shape.

Rules (every figure a layout field the user can change; the defaults and their sources):
- Rows come in pairs whose fronts face each other across a cold aisle, and whose backs face the next
  pair's backs across a hot aisle (hot/cold aisle containment). Row 2k faces the cold aisle below it,
  row 2k+1 the one above it.
  cold_aisle_m 1.2: "the recommended width for a cold aisle is 1.2 meters", two floor tiles
  (ANSI/TIA-942-A, as data-centre layout guides quote it); hot_aisle_m 0.9: the narrow side of the
  alternating 5 ft / 3 ft aisles of NEBS planning, and the 915 mm (36 in) service clearance of vendors'
  rack site guides (IBM rack configuration); cross_aisle_m 1.2: "circulation pathways shall be a minimum
  of 1.2 m (4 ft) wide", and "rows should not exceed 20 cabinets or racks in length" (row_racks_max 20),
  both from a data-centre design directive after BICSI 002 (RISA data center directives, Circulation).
  rack_depth_m 1.2: a 1200 mm deep rack.
- A row longer than row_racks_max racks is cut into segments with a cross aisle between them; a cross
  aisle of the same width runs round the hall (the clearance to its walls).
- x of position p: clearance + p x rack_width_m + (p // row_racks_max) x cross_aisle_m;
  y of row r: clearance + (r // 2) x (2 rack depth + cold + hot) + (r % 2) x (rack depth + cold aisle).
  A layout with row_pitch_m > 0 keeps its own uniform pitch (y = r x row_pitch_m) and no clearance.
- The hall's shape when the user gives none (positions 0, racks_per_row 0, no room): the number of
  positions per row that makes the hall nearest to square, counting each placement block's rows as
  placement will lay them (every block of racks starts a new row); so a derived hall's longer side is
  at most max_aspect times its shorter whenever any row length allows it.
- A room (hall.width_m, hall.depth_m): positions per row are as many as fit the width, rows as many as
  fit the depth; a design that needs more rows is refused on layout.hall.depth_m.
"""
from __future__ import annotations

import numpy as np

from ..spec import RackLayout


def paired(layout: RackLayout) -> bool:
    """Whether rows stand in hot/cold aisle pairs (no uniform row pitch given)."""
    return not layout.row_pitch_m


def clearance(layout: RackLayout) -> float:
    return float(layout.cross_aisle_m) if paired(layout) else 0.0


def pair_pitch(layout: RackLayout) -> float:
    return 2 * layout.rack_depth_m + layout.cold_aisle_m + layout.hot_aisle_m


def row_y(layout: RackLayout, row) -> np.ndarray:
    """y (metres) of the front-left corner of rows `row` (0-based)."""
    r = np.asarray(row, dtype=np.int64)
    if not paired(layout):
        return r * float(layout.row_pitch_m)
    return clearance(layout) + (r // 2) * pair_pitch(layout) + (r % 2) * (layout.rack_depth_m + layout.cold_aisle_m)


def position_x(layout: RackLayout, position) -> np.ndarray:
    """x (metres) of the left side of rack positions `position` (0-based)."""
    p = np.asarray(position, dtype=np.int64)
    x = p * float(layout.rack_width_m)
    segment = int(layout.row_racks_max or 0)
    if paired(layout) and segment > 0:
        x = x + (p // segment) * float(layout.cross_aisle_m)
    return clearance(layout) + x


def faces_down(row: int) -> bool:
    """Whether row `row`'s fronts face the aisle below it (+y): the first row of each pair."""
    return row % 2 == 0


def hall_width(layout: RackLayout, positions: int) -> float:
    if positions <= 0:
        return 0.0
    return float(position_x(layout, positions - 1)) + layout.rack_width_m + clearance(layout)


def hall_depth(layout: RackLayout, rows: int) -> float:
    if rows <= 0:
        return 0.0
    if not paired(layout):
        return rows * float(layout.row_pitch_m)
    return float(row_y(layout, rows - 1)) + layout.rack_depth_m + clearance(layout)


def positions_for_width(layout: RackLayout, width_m: float) -> int:
    """The most positions whose row fits `width_m` (at least 1)."""
    p = max(1, int(width_m / max(layout.rack_width_m, 1e-9)) + 1)
    while p > 1 and hall_width(layout, p) > width_m + 1e-9:
        p -= 1
    return p


def rows_for_depth(layout: RackLayout, depth_m: float) -> int:
    """The most rows that fit `depth_m` (at least 1)."""
    step = pair_pitch(layout) / 2 if paired(layout) else float(layout.row_pitch_m)
    r = max(1, int(depth_m / max(step, 1e-9)) + 2)
    while r > 1 and hall_depth(layout, r) > depth_m + 1e-9:
        r -= 1
    return r


def near_square_positions(layout: RackLayout, blocks: list[int], extra_rows: int = 0) -> int:
    """Positions per row making the hall of these placement blocks (racks each, each starting a row) nearest to
    square; `extra_rows` rows more stand beside them whatever the row length."""
    sizes = np.array([b for b in blocks if b > 0], dtype=np.int64)
    if not sizes.shape[0]:
        return max(1, int(layout.row_racks_max or 16))
    # Up to all racks in one row: a row longer than the biggest block only widens a hall of many short blocks.
    top = int(min(max(int(sizes.sum()), 2 * int(layout.row_racks_max or 0), 40), 20_000))
    candidates = np.arange(1, top + 1, dtype=np.int64)
    rows = (-(-sizes[None, :] // candidates[:, None])).sum(axis=1) + extra_rows
    width = position_x(layout, candidates - 1) + layout.rack_width_m + clearance(layout)
    if paired(layout):
        depth = row_y(layout, rows - 1) + layout.rack_depth_m + clearance(layout)
    else:
        depth = rows * float(layout.row_pitch_m)
    aspect = np.maximum(width, depth) / np.maximum(np.minimum(width, depth), 1e-9)
    # Nearest to square; among equals the shorter rows (fewer cross aisles to walk).
    return int(candidates[int(np.argmin(np.round(aspect, 3)))])


def aspect(width_m: float, depth_m: float) -> float:
    if min(width_m, depth_m) <= 0:
        return float("inf")
    return max(width_m, depth_m) / min(width_m, depth_m)
