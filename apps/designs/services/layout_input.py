"""The `layout` input: rack rules and the data hall, with field-level errors (engine: RackLayout, HallLayout).

Rules:
- Keys are the engine's RackLayout fields; every one is optional (the engine's default). Errors are
  reported on "layout.<key>", and for the hall on "layout.hall.rows", "layout.hall.positions",
  "layout.hall.reserved" and "layout.hall.zones.<kind>".
- Numbers within LAYOUT_RANGES (servers_per_rack 0 = derived from the rack's height and power budget;
  rack_power_kw 0 = no budget); text settings one of LAYOUT_CHOICES; structured_cabling yes or no.
- The hall: rows and positions 0 (as the racks need) to 10,000; the room's width_m and depth_m (0: none);
  reserved cells as a list of
  [row, position] pairs or as text "3:5, 3:6" (row:position, counted from 1; "3:5-8" is row 3,
  positions 5 to 8); zones as {"compute"|"network"|"storage": rows}, rows a list or text "1-3, 7".
  Stored normalised: {"rows", "positions", "reserved": [[r, p], ...], "zones": {kind: [rows]}}.
- Whether the racks fit (a budget below one server, a hall too small, racks lower than a device)
  is the engine's to say when the spec is checked (apps.designs.services.design._spec_check).
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from django.utils.translation import gettext as _

from apps.engine.spec import COOLING, LEAF_RACKS, POWER_BASIS, SPINE_ROWS, ZONE_KINDS, HallLayout, RackLayout

# Ranges of the numeric settings, as the engine checks them (open-low for lengths).
LAYOUT_RANGES: dict[str, tuple[float, float]] = {
    "servers_per_rack": (0, 512),
    "racks_per_row": (0, 10_000),
    "rack_width_m": (0.01, 100.0),
    "row_pitch_m": (0.0, 100.0),
    "rack_depth_m": (0.0, 20.0),
    "cold_aisle_m": (0.0, 20.0),
    "hot_aisle_m": (0.0, 20.0),
    "cross_aisle_m": (0.0, 20.0),
    "row_racks_max": (0, 10_000),
    "max_aspect": (1.0, 100.0),
    "air_limit_kw": (0.0, 10_000.0),
    "rear_door_limit_kw": (0.0, 10_000.0),
    "slack_m": (0.0, 1000.0),
    "switches_per_rack": (1, 512),
    "rack_units": (1, 100),
    "rack_power_kw": (0.0, 10_000.0),
    "tray_height_m": (0.0, 10.0),
}
# Text settings with a fixed set of values.
LAYOUT_CHOICES: dict[str, tuple[str, ...]] = {
    "leaf_rack": LEAF_RACKS,
    "spine_rows": SPINE_ROWS,
    "rack_power_basis": POWER_BASIS,
    "cooling": COOLING,
}
HALL_RANGES = {"rows": (0, 10_000), "positions": (0, 10_000)}
HALL_LENGTHS = {"width_m": (0.0, 100_000.0), "depth_m": (0.0, 100_000.0)}  # the room, metres; 0 = none
MAX_CELLS = 100_000
_CELL = re.compile(r"^(\d{1,5})\s*:\s*(\d{1,5})(?:\s*-\s*(\d{1,5}))?$")
_ROWS = re.compile(r"^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$")


def _parts(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,;\n]+", text) if part.strip()]


def cells_parse(value: Any) -> list[list[int]] | None:
    """Reserved cells from a list of [row, position] or text "3:5, 3:6-8"; None when malformed."""
    if isinstance(value, str):
        cells: list[list[int]] = []
        for part in _parts(value):
            match = _CELL.match(part) if part.isascii() else None
            if not match:
                return None
            row, first = int(match[1]), int(match[2])
            last = int(match[3]) if match[3] else first
            if row < 1 or first < 1 or last < first or len(cells) + last - first + 1 > MAX_CELLS:
                return None
            cells.extend([row, position] for position in range(first, last + 1))
        return cells
    if isinstance(value, (list, tuple)) and len(value) <= MAX_CELLS:
        cells = []
        for cell in value:
            if not (isinstance(cell, (list, tuple)) and len(cell) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in cell)):
                return None
            cells.append([int(cell[0]), int(cell[1])])
        return cells
    return None


def rows_parse(value: Any) -> list[int] | None:
    """Rows from a list of numbers or text "1-3, 7" (counted from 1); None when malformed."""
    if isinstance(value, str):
        rows: list[int] = []
        for part in _parts(value):
            match = _ROWS.match(part) if part.isascii() else None
            if not match:
                return None
            first = int(match[1])
            last = int(match[2]) if match[2] else first
            if first < 1 or last < first or len(rows) + last - first + 1 > 10_000:
                return None
            rows.extend(range(first, last + 1))
        return rows or None
    if isinstance(value, (list, tuple)) and value and len(value) <= 10_000:
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value):
            return None
        return [int(v) for v in value]
    return None


def _ranges(numbers: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for n in sorted(set(numbers)):
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def rows_text(rows: list[int]) -> str:
    """[1, 2, 3, 7] -> "1-3, 7" (the form's way of writing rows)."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in _ranges(rows))


def cells_text(cells: list[list[int]]) -> str:
    """[[3, 5], [3, 6], [4, 1]] -> "3:5-6, 4:1" (the form's way of writing reserved cells)."""
    by_row: dict[int, list[int]] = {}
    for row, position in cells:
        by_row.setdefault(int(row), []).append(int(position))
    return ", ".join(f"{row}:{a}" if a == b else f"{row}:{a}-{b}"
                     for row in sorted(by_row) for a, b in _ranges(by_row[row]))


def flag_value(value: Any) -> bool | None:
    """A yes/no input as JSON or form values: True, False (blank or absent too), or None when it is neither."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if value is not None else ""
    if text in ("", "false", "0", "no", "off"):
        return False
    if text in ("true", "1", "yes", "on"):
        return True
    return None


def _hall(errors, value: Any, number) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        errors.add("layout.hall", _('Give the hall as an object, e.g. {"rows": 20, "positions": 16}.'))
        return None
    hall: dict[str, Any] = {}
    known = ("rows", "positions", "width_m", "depth_m", "reserved", "zones")
    for key, raw in value.items():
        name = f"layout.hall.{key}"
        if key in HALL_RANGES or key in HALL_LENGTHS:
            low, high = HALL_RANGES.get(key) or HALL_LENGTHS[key]
            parsed = number(errors, {name: raw}, name, None, kind=int if key in HALL_RANGES else float, low=low,
                            high=high,
                            low_message=_("Must be at least %(low)s.") % {"low": low},
                            high_message=_("Must be at most %(high)s.") % {"high": high})
            if parsed is not None:
                hall[key] = parsed
        elif key == "reserved":
            if raw in (None, "", []):
                continue
            cells = cells_parse(raw)
            if cells is None:
                errors.add(name, _("Give the reserved cells as row:position, counted from 1, separated by commas "
                                   "(e.g. 3:5, 3:6-8 for row 3, positions 5 to 8)."))
            else:
                hall["reserved"] = cells
        elif key == "zones":
            if raw in (None, "", {}):
                continue
            if not isinstance(raw, dict):
                errors.add("layout.hall.zones", _('Give the zones as an object of rows per kind, e.g. '
                                                  '{"network": [9, 10]}.'))
                continue
            zones: dict[str, list[int]] = {}
            for kind, rows in raw.items():
                if kind not in ZONE_KINDS:
                    errors.add("layout.hall.zones",
                               _("Unknown zone; use %(kinds)s.") % {"kinds": ", ".join(ZONE_KINDS)})
                    continue
                if rows in (None, "", []):
                    continue
                parsed_rows = rows_parse(rows)
                if parsed_rows is None:
                    errors.add(f"layout.hall.zones.{kind}", _("Give the rows counted from 1, separated by commas; "
                                                              "a range as 1-4 (e.g. 1-4, 9)."))
                else:
                    zones[kind] = parsed_rows
            if zones:
                hall["zones"] = zones
        else:
            errors.add(name, _("Unknown hall setting; use %(keys)s.") % {"keys": ", ".join(known)})
    return hall


def layout_input_clean(errors, data: dict, *, number) -> dict[str, Any]:
    """The cleaned `layout` input (only the keys given), errors added on "layout.<key>".

    `number` is the inputs module's number parser (same messages as every other number input)."""
    value = data.get("layout")
    value = {} if value is None else value
    if not isinstance(value, dict):
        errors.add("layout", _("Give the rack layout as an object, e.g. {\"servers_per_rack\": 4}."))
        return {}
    known = {f.name: f for f in dataclasses.fields(RackLayout)}
    layout: dict[str, Any] = {}
    for key, raw in value.items():
        name = f"layout.{key}"
        if key not in known:
            errors.add(name, _("Unknown rack layout setting; use %(keys)s.") % {"keys": ", ".join(known)})
        elif key == "hall":
            hall = _hall(errors, raw, number)
            if hall:
                layout["hall"] = hall
        elif key in LAYOUT_CHOICES:
            if raw not in LAYOUT_CHOICES[key]:
                errors.add(name, _("Choose one of: %(choices)s.") % {"choices": ", ".join(LAYOUT_CHOICES[key])})
            else:
                layout[key] = raw
        elif key == "structured_cabling":
            flag = flag_value(raw)
            if flag is None:
                errors.add(name, _("Choose yes or no."))
            else:
                layout[key] = flag
        else:
            is_int = isinstance(known[key].default, int) and not isinstance(known[key].default, bool)
            low, high = LAYOUT_RANGES.get(key, (0, 1e6))
            parsed = number(
                errors, {name: raw}, name, None, kind=int if is_int else float, low=low, high=high,
                low_message=_("Must be at least %(low)s.") % {"low": low},
                high_message=_("Must be at most %(high)s.") % {"high": high},
            )
            if parsed is not None:
                layout[key] = parsed
    return layout


def layout_spec(layout: dict[str, Any]) -> RackLayout:
    """The engine's RackLayout from a cleaned (or stored) `layout` input."""
    values = {key: value for key, value in layout.items() if key != "hall"}
    hall = layout.get("hall") or {}
    return RackLayout(**values, hall=HallLayout(
        rows=int(hall.get("rows") or 0), positions=int(hall.get("positions") or 0),
        width_m=float(hall.get("width_m") or 0.0), depth_m=float(hall.get("depth_m") or 0.0),
        reserved=tuple(tuple(int(v) for v in cell) for cell in hall.get("reserved") or ()),
        zones=tuple((kind, tuple(int(r) for r in rows)) for kind, rows in (hall.get("zones") or {}).items()),
    ))
