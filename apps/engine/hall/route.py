"""A link's cable route in the hall, from the positions of its two devices.

Rules:
- Racks stand on the hall's floor as engine.hall.geometry places them: x along the row (cross aisles
  between row segments included), y across rows (rows in pairs round a cold aisle, hot aisles between
  pairs, or one uniform row pitch).
- Between two racks a cable runs up from its device to the top of the rack (the rack's height less
  the device's middle, 1U = 44.45 mm per EIA-310), up `tray_height_m` to the overhead tray, along and
  across rows (|dx| + |dy|: trays run along rows and cross between them), down the same way at the far
  rack, plus `slack_m` (service loops at both ends). So no cable is shorter than the floor distance
  between its racks.
- Within one rack it runs the height between the two devices plus `slack_m`.
- Lengths are raw metres; engine.cabling rounds them up to lengths the catalog sells.
"""
from __future__ import annotations

import numpy as np

from ..spec import RackLayout
from . import geometry
from .model import U_M


def device_height_m(rack_unit: np.ndarray, u_height: np.ndarray) -> np.ndarray:
    """Height of each device's middle above the rack's floor, metres."""
    return (rack_unit.astype(np.float64) - 1.0 + u_height.astype(np.float64) / 2.0) * U_M


def run_lengths(layout: RackLayout, row: np.ndarray, col: np.ndarray, rack_unit: np.ndarray, u_height: np.ndarray,
                a_dev: np.ndarray, b_dev: np.ndarray) -> np.ndarray:
    """float32 run length of each link a_dev[i] - b_dev[i] (device arrays row, col, rack_unit, u_height)."""
    if not len(a_dev):
        return np.zeros(0, dtype=np.float32)
    z = device_height_m(rack_unit, u_height)
    # Floor coordinates once per device, then per link by index (a million links, thousands of devices); the
    # indexes as native integers once, not converted again by every gather.
    x = geometry.position_x(layout, col)
    y = geometry.row_y(layout, row)
    rack = (row.astype(np.int64) << 32) + col.astype(np.int64)  # one key per (row, position)
    a_dev, b_dev = a_dev.astype(np.intp, copy=False), b_dev.astype(np.intp, copy=False)
    top = layout.rack_units * U_M + layout.tray_height_m
    za, zb = z[a_dev], z[b_dev]
    same = rack[a_dev] == rack[b_dev]
    floor = np.abs(x[a_dev] - x[b_dev]) + np.abs(y[a_dev] - y[b_dev])
    between = (top - za) + floor + (top - zb)
    return (np.where(same, np.abs(za - zb), between) + layout.slack_m).astype(np.float32)


def route(layout: RackLayout, ra: np.ndarray, ca: np.ndarray, za: np.ndarray, rb: np.ndarray, cb: np.ndarray,
          zb: np.ndarray) -> np.ndarray:
    """Run lengths between (row, position, height) a and b, element-wise."""
    top = layout.rack_units * U_M + layout.tray_height_m
    same = (ra == rb) & (ca == cb)
    floor = (np.abs(geometry.position_x(layout, ca) - geometry.position_x(layout, cb))
             + np.abs(geometry.row_y(layout, ra) - geometry.row_y(layout, rb)))
    between = (top - za) + floor + (top - zb)
    inside = np.abs(za - zb)
    return (np.where(same, inside, between) + layout.slack_m).astype(np.float32)


def floor_distance(layout: RackLayout, ra, ca, rb, cb) -> np.ndarray:
    """Straight-line floor distance between two racks, metres (the shortest any cable between them can be)."""
    dx = geometry.position_x(layout, ca) - geometry.position_x(layout, cb)
    dy = geometry.row_y(layout, ra) - geometry.row_y(layout, rb)
    return np.hypot(dx, dy)
