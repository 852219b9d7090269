"""The hall's grid as placement fills it: blocks of racks on free cells, row by row, zone by zone.

Rules:
- The hall has `layout.hall.rows` rows (0 = as many as the racks need) of `layout.hall.positions`
  positions (0 = `layout.racks_per_row`). Reserved cells (building columns, cooling units) never hold a
  rack: a block's racks take the next free positions of a row and go on in the next row.
- A block (an SU's racks, a tier's network racks, the storage racks) takes rows of its zone ("compute",
  "network" or "storage") when the hall names rows for that zone, else the rows no zone names, in hall
  order. Outside zones a compute block starts a new row, and so does a network or storage block that
  follows a compute block; network and storage blocks that follow one another share rows, and a later
  network block (not storage) that fits in the last network row's free cells goes there (one central network row holds
  the spines or cores and the other networks' switches, not a row each); in a zone's rows the blocks
  follow one another (the zone's rows are there for them).
- Positions per row: layout.hall.positions, else layout.racks_per_row, else what fits the room's width
  (layout.hall.width_m), else (all 0) a near-square hall from the placement's blocks (`shape_for`,
  engine.hall.geometry). Rows: layout.hall.rows, else what fits the room's depth (layout.hall.depth_m),
  else as many as needed.
- When the hall has a fixed number of rows (or a zone too few rows), placement still completes on rows
  past its end and `shortage()` tells how many rows are missing; engine.hall raises that as the field
  error of layout.hall.rows (or the zone), so the message says how many rows to add.
"""
from __future__ import annotations

import numpy as np

from ..spec import RackLayout, ZONE_KINDS
from . import geometry


class HallGrid:
    def __init__(self, layout: RackLayout) -> None:
        hall = layout.hall
        self.layout = layout
        self.positions = int(hall.positions or layout.racks_per_row)
        if not self.positions and hall.width_m:
            self.positions = geometry.positions_for_width(layout, float(hall.width_m))
        self.derived = not self.positions  # a near-square hall, shaped by the first placement (shape_for)
        self.rows = int(hall.rows)  # 0 = unbounded
        self.rows_field = "layout.hall.rows"
        if not self.rows and hall.depth_m:
            self.rows = geometry.rows_for_depth(layout, float(hall.depth_m))
            self.rows_field = "layout.hall.depth_m"
        self.reserved = frozenset((int(r) - 1, int(p) - 1) for r, p in hall.reserved)
        self.zone_rows: dict[str, list[int]] = {}
        self.zone_of: dict[int, str] = {}
        for kind, rows in hall.zones:
            for row in rows:
                self.zone_of[int(row) - 1] = kind
        for kind in ZONE_KINDS:
            rows = sorted(r for r, k in self.zone_of.items() if k == kind)
            if rows:
                self.zone_rows[kind] = rows
        self._free: dict[int, np.ndarray] = {}
        self._cursor: dict[str, int] = {}  # pool -> index of its next row (pool: a zone kind or "")
        self._offset: dict[str, int] = {}  # zone pool -> free cells of its last row already taken
        self._unzoned: list[int] = []
        self._last_unzoned = -1
        self.used_rows: set[int] = set()
        self.overflow: dict[str, int] = {}  # pool -> rows placed past the pool's end
        self._network_row: tuple[int, int] | None = None  # (row, free cells used) of the last network row
        self._last_row: dict[str, int] = {}  # pool -> the row its last block ended in
        # Rows to count beside the placement's blocks when shaping the hall (0: the backend alone shapes it, so its
        # cables are the same with or without the other networks).
        self.extra_rows = 0

    def shape_for(self, blocks: list[int], extra_rows: int = 0) -> None:
        """Fix a derived hall's positions per row from the placement's blocks (racks each), once."""
        if not self.positions:
            self.positions = geometry.near_square_positions(self.layout, blocks, extra_rows + self.extra_rows)

    def pool(self, kind: str) -> str:
        return kind if kind in self.zone_rows else ""

    def _pool_row(self, pool: str, k: int) -> tuple[int, bool]:
        """(row of the pool's k-th row, whether it lies past the hall's or the zone's end)."""
        if pool:
            rows = self.zone_rows[pool]
            if k < len(rows):
                return rows[k], False
            past = max(max(self.zone_of) + 1, self.rows, max(self.used_rows, default=-1) + 1)
            return past + (k - len(rows)), True
        while len(self._unzoned) <= k:
            self._last_unzoned += 1
            if self._last_unzoned not in self.zone_of:
                self._unzoned.append(self._last_unzoned)
        row = self._unzoned[k]
        return row, bool(self.rows) and row >= self.rows

    def free_positions(self, row: int) -> np.ndarray:
        free = self._free.get(row)
        if free is None:
            free = np.array([p for p in range(self.positions) if (row, p) not in self.reserved], dtype=np.int64) \
                if self.reserved else np.arange(self.positions, dtype=np.int64)
            self._free[row] = free
        return free

    def block(self, kind: str, racks: int) -> tuple[np.ndarray, np.ndarray]:
        """(row, position) of each of `racks` racks of a new block of `kind` (0-based)."""
        rows = np.zeros(racks, dtype=np.int64)
        cols = np.zeros(racks, dtype=np.int64)
        if racks <= 0:
            return rows, cols
        if not self.positions:
            self.shape_for([racks])
        pool = self.pool(kind)
        if not pool and kind == "network" and self._network_row is not None:
            # The central network row (the spines' or cores') takes later network blocks while they fit.
            row, used = self._network_row
            free = self.free_positions(row)[used:]
            if free.shape[0] >= racks:
                rows[:] = row
                cols[:] = free[:racks]
                self._network_row = (row, used + racks)
                if self._offset.get(pool) is not None and self._last_row.get(pool) == row:
                    self._offset[pool] = used + racks  # the next block that continues this row starts after these
                return rows, cols
        k = self._cursor.get(pool, 0)
        # A zone's blocks share rows, and so do network blocks that follow one another: the free cells of the
        # current row used so far. A compute block outside zones starts a new row.
        skip = self._offset.pop(pool, 0)
        if not pool and kind == "compute":
            skip = 0
        if skip:
            k -= 1
        done = 0
        while done < racks:
            row, past = self._pool_row(pool, k)
            k += 1
            free = self.free_positions(row) if not past else np.arange(self.positions, dtype=np.int64)
            free = free[skip:]
            skip = 0
            if not free.shape[0]:
                continue
            take = min(racks - done, int(free.shape[0]))
            rows[done:done + take] = row
            cols[done:done + take] = free[:take]
            done += take
            if row not in self.used_rows and past:
                self.overflow[pool] = self.overflow.get(pool, 0) + 1
            self.used_rows.add(row)
            if (pool or kind != "compute") and take < free.shape[0]:
                first_free = self.free_positions(row) if not past else np.arange(self.positions, dtype=np.int64)
                self._offset[pool] = int(np.searchsorted(first_free, free[take - 1], side="right"))
        self._cursor[pool] = k
        self._last_row[pool] = int(rows[-1])
        if not pool and (kind == "network" or (self._network_row is not None
                                              and self._network_row[0] == int(rows[-1]))):
            # A network block makes its last row the network row; a storage block that filled on in the network
            # row moves its free cells on.
            offset = self._offset.get(pool)
            self._network_row = (int(rows[-1]), offset) if offset else None
        return rows, cols

    def shortage(self) -> list[tuple[str, int, int]]:
        """(pool, rows the pool has, rows missing) for every pool that ran past its end."""
        out = []
        for pool, missing in self.overflow.items():
            have = len(self.zone_rows[pool]) if pool else self.rows - len(
                [r for r in self.zone_of if r < self.rows])
            out.append((pool, have, missing))
        return out
