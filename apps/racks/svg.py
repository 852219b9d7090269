"""The floor plan of a data hall and the elevation of a rack, drawn on the server as SVG text.

Both are pure functions of the selectors' data (apps.racks.selectors: HallPlan, RackSummary,
RackContent) returning an SVG document as a string, so the pages, the design document and any
export draw the same picture. Every text that comes from a design or the catalog is escaped;
links (``rack_href``, ``device_href``) are callables the caller passes, or None for none.

Rules of the floor plan:
- Racks stand where the hall put them (x_m, y_m: aisles, row segments and clearances included),
  rack_depth_m deep; rows in hot/cold aisle pairs show their cold aisles blue and hot aisles red and
  each rack's front edge (toward the cold aisle) as a dark line. Zones are bands of rows behind the
  racks; reserved cells (building columns, cooling units) are hatched and keep their label as a tooltip.
- Cooling: a rack that needs a rear-door heat exchanger or direct liquid cooling carries a coloured mark
  at its back; one that needs more than the site offers (the hall's cooling) a red dashed outline.
- A rack's colour is its power against its budget (the hall's power basis: typical or maximum
  draw): POWER_STEPS; a rack over its budget is red and named in its tooltip. Without a budget,
  against the fullest rack of the hall.
- Type sizes are in drawing units of PX_PER_M per metre: rack numbers (class "rack-label", the position
  in the row) RACK_LABEL_PX, row names ("R001", class "row-label") ROW_LABEL_PX left of every row
  segment. The page opens at a zoom where a drawing unit is at least a screen pixel (static/js/racks.js);
  the printed plan is cut into sheets (`sheet_windows`) printed at the same legibility, with a key plan.
- The legend (`legend_entries`) goes under the plan, never over it; the page shows it beside the plan.

Rules of the elevation:
- Front and rear side by side, unit 1 at the bottom, unit numbers on the left; an item fills its
  units on the face it is mounted from, a full-depth item shows on the other face too, lighter.
- A power bar under the rack: the rack's draw against its budget on the hall's basis.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING

from django.utils.formats import number_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from apps.designs.missing import at_least, not_published

if TYPE_CHECKING:
    from .selectors import HallPlan, RackContent, RackSummary

PX_PER_M = 40.0
RACK_DEPTH_M = 1.2
MARGIN = 48.0
LEGEND_COLUMN = 150.0
LEGEND_H = 70.0
U_PX = 14.0
ELEVATION_W = 220.0

# (upper bound of power / budget, colour, legend key); the last step is "over the budget".
POWER_STEPS: tuple[tuple[float, str, str], ...] = (
    (0.25, "#dbeafe", "0-25"),
    (0.50, "#93c5fd", "25-50"),
    (0.75, "#3b82f6", "50-75"),
    (0.90, "#f59e0b", "75-90"),
    (1.0 + 1e-9, "#ea580c", "90-100"),
    (float("inf"), "#dc2626", "over"),
)
EMPTY_FILL = "#f3f4f6"
ZONE_FILLS = {"compute": "#ecfdf5", "network": "#eef2ff", "storage": "#fdf4ff"}
ROLE_FILLS = {
    "server": "#dcfce7", "leaf": "#dbeafe", "spine": "#ede9fe", "core": "#fde68a", "storage": "#fae8ff",
    "patch-panel": "#e5e7eb", "cable-manager": "#f3f4f6", "power-shelf": "#fecaca", "nvlink-switch": "#c7d2fe",
}
DEFAULT_FILL = "#e0f2fe"


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _n(value: float, digits: int = 1) -> str:
    return _number(round(float(value), digits), digits, get_language())


@lru_cache(maxsize=4096)
def _number(value: float, digits: int, language: str | None) -> str:
    # Racks of one kind draw the same power: a hall of thousands formats a handful of numbers.
    return number_format(value, decimal_pos=digits, use_l10n=True, force_grouping=True)


def _f(value: float) -> str:
    """A coordinate: short, without locale (SVG numbers)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rack_power_w(rack: RackSummary, basis: str) -> float:
    return rack.power_max_w if basis == "maximum" else rack.power_typical_w


def power_share(power_w: float, budget_w: float | None) -> float | None:
    return None if not budget_w else power_w / budget_w


def power_fill(share: float | None) -> str:
    if share is None:
        return EMPTY_FILL
    for bound, colour, _key in POWER_STEPS:
        if share <= bound:
            return colour
    return POWER_STEPS[-1][1]


def basis_label(basis: str) -> str:
    return _("maximum draw") if basis == "maximum" else _("typical draw")


def zone_label(kind: str) -> str:
    return {"compute": _("compute zone"), "network": _("network zone"), "storage": _("storage zone")}.get(kind, kind)


def _legend_items(has_budget: bool) -> list[tuple[str, str]]:
    if has_budget:
        items = [(colour, _("%(range)s %% of the budget") % {"range": key.replace("-", "–")})
                 for _bound, colour, key in POWER_STEPS[:-1]]
        items.append((POWER_STEPS[-1][1], _("over the budget")))
    else:
        items = [(colour, _("%(range)s %% of the fullest rack") % {"range": key.replace("-", "–")})
                 for _bound, colour, key in POWER_STEPS[:-1]]
    return items


def legend_entries(hall: HallPlan, racks: Sequence[RackSummary]) -> list[tuple[str, str, str]]:
    """(kind, SVG paint attributes, text) of the floor plan's legend: power steps, cooling, aisles, reserved cells.
    The page shows them beside the plan (HTML), the document under it (SVG)."""
    entries = [("power", f'fill="{colour}" stroke="#374151"', text)
               for colour, text in _legend_items(any(r.budget_w for r in racks))]
    kinds = {r.cooling for r in racks}
    for kind in ("rear-door", "liquid"):
        if kind in kinds:
            entries.append(("cooling", f'fill="{COOLING_MARKS[kind]}" stroke="none"', cooling_text(kind)))
    if any(cooling_short(hall, r) for r in racks):
        entries.append(("cooling-short", 'fill="#ffffff" stroke="#dc2626" stroke-dasharray="3 2"',
                        _("needs more cooling than the site offers (%(cooling)s)") % {
                            "cooling": cooling_text(hall.cooling)}))
    if hall.paired:
        entries.append(("aisle", f'fill="{COLD_AISLE}" stroke="none"', _("cold aisle (rack fronts)")))
        entries.append(("aisle", f'fill="{HOT_AISLE}" stroke="none"', _("hot aisle (rack backs)")))
    if hall.reserved:
        entries.append(("reserved", 'fill="url(#reserved-hatch)" stroke="#6b7280"', _("reserved cell")))
    return entries


COOLING_MARKS = {"rear-door": "#0d9488", "liquid": "#1d4ed8"}
COOLING_ORDER = {"air": 0, "rear-door": 1, "liquid": 2}
COLD_AISLE = "#e0f2fe"
HOT_AISLE = "#fee2e2"
RACK_LABEL_PX = 11.0  # rack and row names, in drawing units: legible once a drawing unit is a screen pixel
ROW_LABEL_PX = 12.0


def cooling_text(kind: str) -> str:
    return {"air": _("air"), "rear-door": _("rear-door heat exchanger"),
            "liquid": _("direct liquid cooling")}.get(kind, kind)


def cooling_short(hall: HallPlan, rack: RackSummary) -> bool:
    """Whether the rack needs more cooling than the site offers (the hall's cooling)."""
    return COOLING_ORDER.get(rack.cooling, 0) > COOLING_ORDER.get(hall.cooling, 0)


def _rack_depth_m(hall: HallPlan) -> float:
    depth = float(hall.aisles.get("rack_depth_m") or 0.0)
    return depth if depth > 0 else min(RACK_DEPTH_M, hall.row_pitch_m * 0.8)


def _row_faces_down(hall: HallPlan, row: int) -> bool | None:
    """Whether the row's fronts face +y (None: rows not in aisle pairs)."""
    return (row % 2 == 0) if hall.paired else None


def sheet_windows(hall: HallPlan, racks: Sequence[RackSummary], *, width_m: float, depth_m: float,
                  limit: int = 0) -> list[tuple[float, float, float, float]]:
    """Windows (x0, y0, x1, y1, metres) of at most width_m x depth_m that together show every rack, cut at the
    cross aisles between row segments and between row pairs (a segment or pair too big for one is cut between
    racks or rows); in reading order, at most `limit` (0: all)."""
    if not racks:
        return []
    depth = _rack_depth_m(hall)
    xs = sorted({round(r.x_m, 3) for r in racks})
    x_groups = _runs(xs, hall.rack_width_m)
    row_y: dict[int, float] = {}
    for r in racks:
        row_y.setdefault(r.row, round(r.y_m, 3))
    by_pair: dict[int, list[float]] = {}
    for row, y in row_y.items():
        by_pair.setdefault(row // 2 if hall.paired else row, []).append(y)
    y_groups = [sorted(ys) for _key, ys in sorted(by_pair.items())]
    cols = _pack(x_groups, hall.rack_width_m, width_m)
    bands = _pack(y_groups, depth, depth_m)
    out = [(x0, y0, x1, y1) for (y0, y1) in bands for (x0, x1) in cols]
    return out[:limit] if limit else out


def _runs(starts: list[float], size: float) -> list[list[float]]:
    """Starts split where a gap opens between items of `size` (a cross aisle)."""
    runs = [[starts[0]]]
    for start in starts[1:]:
        if start - runs[-1][-1] > size * 1.5:
            runs.append([start])
        else:
            runs[-1].append(start)
    return runs


def _pack(groups: list[list[float]], size: float, span: float) -> list[tuple[float, float]]:
    """Intervals of at most `span` holding whole groups of items of `size` (a group too long is cut)."""
    out: list[tuple[float, float]] = []
    first = last_end = None
    for group in groups:
        end = group[-1] + size
        if first is not None and end - first <= span:
            last_end = end
            continue
        if first is not None:
            out.append((first, last_end))
        first, last_end = group[0], group[0] + size
        for start in group[1:]:  # a group longer than a sheet: cut between its items
            if start + size - first > span:
                out.append((first, last_end))
                first = start
            last_end = start + size
    if first is not None:
        out.append((first, last_end))
    return out


def floorplan_svg(hall: HallPlan, racks: Sequence[RackSummary], *, rack_href: Callable[[str], str] | None = None,
                  title: str = "", legend: bool = True, window: tuple[float, float, float, float] | None = None,
                  sheets: Sequence[tuple[float, float, float, float]] = (), labels: bool = True) -> str:
    """The hall's floor plan at its real positions: aisles, zones, reserved cells, racks coloured by power against
    the budget with their cooling, row names at every row segment, rack numbers in the racks, and the legend under
    it (`legend`). `window` (metres) draws only that part of the hall (a sheet of the printed plan); `sheets`
    outlines such parts on a whole-hall key plan; `labels` False leaves the rack numbers out (a key plan)."""
    px = PX_PER_M
    depth_m = _rack_depth_m(hall)
    if window is None:
        x0_m, y0_m, x1_m, y1_m = 0.0, 0.0, max(hall.width_m, hall.rack_width_m), max(hall.depth_m, depth_m)
    else:
        x0_m, y0_m, x1_m, y1_m = window
        # Room for the row names left of the window's first racks.
        x0_m -= ROW_LABEL_PX * 4 / px
    shown = [r for r in racks if r.x_m + hall.rack_width_m > x0_m - 1e-6 and r.x_m < x1_m + 1e-6
             and r.y_m + depth_m > y0_m - 1e-6 and r.y_m < y1_m + 1e-6] if window is not None else list(racks)
    plan_w = (x1_m - x0_m) * px
    plan_h = (y1_m - y0_m) * px
    left = MARGIN if window is None else 8.0
    top = (MARGIN if window is None else 12.0) + (20.0 if title else 0.0)
    width = plan_w + left + 16.0
    entries = legend_entries(hall, racks) if legend else []
    # Columns as wide as the longest entry (11 px type, CJK glyphs twice as wide): texts never run into each other.
    longest = max((sum(2 if ord(ch) > 0x2E80 else 1 for ch in text) for _k, _p, text in entries), default=0)
    column = 18.0 + longest * 6.4 + 14.0
    per_line = max(1, int((width - left) // column))
    legend_lines = -(-len(entries) // per_line) if entries else 0
    height = top + plan_h + (34.0 + 18.0 * legend_lines if entries else 12.0)
    basis = hall.power_basis

    def X(x_m: float) -> float:
        return left + (x_m - x0_m) * px

    def Y(y_m: float) -> float:
        return top + (y_m - y0_m) * px

    fullest = max((rack_power_w(r, basis) for r in racks), default=0.0)
    label = _("Floor plan of the data hall")
    legend_title = _("Power per rack (%(basis)s)") % {"basis": basis_label(basis)}
    reserved_label = _("reserved cell")
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="floorplan" viewBox="0 0 {_f(width)} {_f(height)}"'
        f' width="{_f(width)}" height="{_f(height)}" role="img" aria-label="{_e(label)}" font-family="sans-serif">',
        "<defs>"
        '<pattern id="reserved-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="6" height="6" fill="#f3f4f6"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#9ca3af" stroke-width="2"/>'
        "</pattern></defs>",
        f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>',
    ]
    if title:
        out.append(f'<text class="plan-title" x="{_f(left)}" y="{_f(top - 10)}" font-size="16" font-weight="bold">'
                   f'{_e(title)}</text>')
    # The hall's outline, then the aisles between the rows (pairs of rows round a cold aisle).
    out.append(f'<rect class="hall-outline" x="{_f(X(max(0.0, x0_m)))}" y="{_f(Y(max(0.0, y0_m)))}"'
               f' width="{_f((min(x1_m, hall.width_m) - max(0.0, x0_m)) * px)}"'
               f' height="{_f((min(y1_m, hall.depth_m) - max(0.0, y0_m)) * px)}" fill="#fafafa" stroke="#9ca3af"'
               f' stroke-width="1"/>')
    rows_y: dict[int, float] = {}
    for r in racks:
        rows_y.setdefault(r.row, r.y_m)
    if hall.paired:
        cold = float(hall.aisles.get("cold_aisle_m") or 0.0)
        hot = float(hall.aisles.get("hot_aisle_m") or 0.0)
        ax0, ax1 = max(0.0, x0_m), min(x1_m, hall.width_m)
        for row, y in rows_y.items():
            if y + depth_m + max(cold, hot) < y0_m or y > y1_m:
                continue
            faces_down = _row_faces_down(hall, row)
            gap, fill = (cold, COLD_AISLE) if faces_down else (hot, HOT_AISLE)
            ay0, ay1 = max(y0_m, y + depth_m), min(y1_m, y + depth_m + gap)
            if ay1 > ay0 and (faces_down or row + 1 in rows_y):
                out.append(f'<rect class="aisle {"cold" if faces_down else "hot"}" x="{_f(X(ax0))}" y="{_f(Y(ay0))}"'
                           f' width="{_f((ax1 - ax0) * px)}" height="{_f((ay1 - ay0) * px)}" fill="{fill}"/>')
    # Zones: bands of rows behind the racks.
    for zone in hall.zones:
        zrows = zone.get("rows") or [0, hall.rows - 1]
        first, last = int(zrows[0]), int(zrows[-1])
        ys = [y for row, y in rows_y.items() if first <= row <= last]
        if not ys:
            continue
        kind = str(zone.get("kind") or "")
        zy0, zy1 = max(y0_m, min(ys)), min(y1_m, max(ys) + depth_m)
        if zy1 <= zy0:
            continue
        out.append(f'<rect class="zone zone-{_e(kind)}" x="{_f(X(max(0.0, x0_m)))}" y="{_f(Y(zy0))}"'
                   f' width="{_f((min(x1_m, hall.width_m) - max(0.0, x0_m)) * px)}" height="{_f((zy1 - zy0) * px)}"'
                   f' fill="{ZONE_FILLS.get(kind, "#f9fafb")}" fill-opacity="0.6" stroke="#d1d5db"'
                   f' stroke-dasharray="4 3"><title>{_e(zone_label(kind))}</title></rect>')
    # Reserved cells, at their grid place.
    for cell in hall.reserved:
        row, pos = int(cell["row"]), int(cell["position"])
        y = rows_y.get(row, row * hall.row_pitch_m)
        x = next((r.x_m - (r.position - pos) * hall.rack_width_m for r in racks if r.row == row), pos * hall.rack_width_m)
        if not (x0_m - 1 <= x <= x1_m and y0_m - 1 <= y <= y1_m):
            continue
        out.append(f'<rect class="reserved" x="{_f(X(x))}" y="{_f(Y(y))}" width="{_f(hall.rack_width_m * px)}"'
                   f' height="{_f(depth_m * px)}" fill="url(#reserved-hatch)" stroke="#6b7280" stroke-width="0.5">'
                   f'<title>{_e(reserved_label)}</title></rect>')
    # Racks: power colour, front edge, cooling mark, number.
    budget_text = _("of %(budget)s kW") if any(r.budget_w for r in racks) else ""
    cell_w = hall.rack_width_m * px
    rack_h = depth_m * px
    for rack in shown:
        x, y = X(rack.x_m), Y(rack.y_m)
        power = rack_power_w(rack, basis)
        share = power_share(power, rack.budget_w) if rack.budget_w else power_share(power, fullest)
        fill = power_fill(share)
        over = bool(rack.budget_w) and power > rack.budget_w + 1e-6
        short = cooling_short(hall, rack)
        tip = f"{rack.name} · {at_least(f'{_n(power / 1000)} kW', rack.power_missing)}"
        if rack.budget_w and budget_text:
            tip += " " + budget_text % {"budget": _n(rack.budget_w / 1000)}
        if over:
            tip += " · " + _("over the budget")
        tip += " · " + cooling_text(rack.cooling)
        if short:
            tip += " · " + _("needs more cooling than the site offers (%(cooling)s)") % {
                "cooling": cooling_text(hall.cooling)}
        stroke = "#7f1d1d" if over else ("#dc2626" if short else "#374151")
        extra = ' stroke-dasharray="3 2"' if short and not over else ""
        classes = "rack rack-" + _e(rack.kind) + (" over" if over else "") + (" cooling-short" if short else "")
        shape = (f'<rect class="{classes}" data-rack="{_e(rack.name)}" data-cooling="{_e(rack.cooling)}"'
                 f' x="{_f(x + 0.5)}" y="{_f(y)}" width="{_f(cell_w - 1)}" height="{_f(rack_h)}" fill="{fill}"'
                 f' stroke="{stroke}" stroke-width="{1.5 if over or short else 0.5}"{extra}>'
                 f"<title>{_e(tip)}</title></rect>")
        down = _row_faces_down(hall, rack.row)
        if down is not None:  # the front edge, toward the cold aisle
            fy = y + rack_h - 1.5 if down else y + 1.5
            shape += (f'<line class="rack-front" x1="{_f(x + 1.5)}" y1="{_f(fy)}" x2="{_f(x + cell_w - 1.5)}"'
                      f' y2="{_f(fy)}" stroke="#111827" stroke-width="2" pointer-events="none"/>')
        mark = COOLING_MARKS.get(rack.cooling)
        if mark:  # at the back of the rack
            my = y + 3 if down in (True, None) else y + rack_h - 9
            shape += (f'<rect class="cooling-mark" x="{_f(x + cell_w / 2 - 3)}" y="{_f(my)}" width="6" height="6"'
                      f' fill="{mark}" pointer-events="none"/>')
        if labels:
            shape += (f'<text class="rack-label" x="{_f(x + cell_w / 2)}" y="{_f(y + rack_h / 2 + 4)}"'
                      f' font-size="{_f(RACK_LABEL_PX)}" text-anchor="middle" fill="#111827"'
                      f' pointer-events="none">{rack.position + 1:02d}</text>')
        if rack_href is not None:
            shape = f'<a href="{_e(rack_href(rack.name))}">{shape}</a>'
        out.append(shape)
    # Row names: left of every row segment's first rack (and of the window's first rack of the row).
    by_row: dict[int, list[float]] = {}
    for rack in shown:
        by_row.setdefault(rack.row, []).append(rack.x_m)
    for row, xs in sorted(by_row.items()):
        xs.sort()
        starts = [xs[0]] + [b for a, b in zip(xs, xs[1:]) if b - a > hall.rack_width_m * 1.5]
        y = rows_y[row]
        for xm in starts:
            out.append(f'<text class="row-label" x="{_f(X(xm) - 4)}" y="{_f(Y(y) + rack_h / 2 + 4)}"'
                       f' font-size="{_f(ROW_LABEL_PX)}" font-weight="bold" text-anchor="end" fill="#374151"'
                       f' pointer-events="none">R{row + 1:03d}</text>')
    # A key plan's sheets.
    sheet_font = max(14.0, min(plan_w, plan_h) / 24)
    for k, (sx0, sy0, sx1, sy1) in enumerate(sheets, start=1):
        out.append(f'<rect class="sheet" x="{_f(X(sx0))}" y="{_f(Y(sy0))}" width="{_f((sx1 - sx0) * px)}"'
                   f' height="{_f((sy1 - sy0) * px)}" fill="none" stroke="#1d4ed8" stroke-width="{_f(sheet_font / 14)}"'
                   f' stroke-dasharray="{_f(sheet_font / 2)} {_f(sheet_font / 4)}"/>'
                   f'<text class="sheet-label" x="{_f(X((sx0 + sx1) / 2))}" y="{_f(Y((sy0 + sy1) / 2) + sheet_font / 3)}"'
                   f' font-size="{_f(sheet_font)}" font-weight="bold" text-anchor="middle" fill="#1d4ed8"'
                   f' fill-opacity="0.85" stroke="#ffffff" stroke-width="{_f(sheet_font / 10)}" paint-order="stroke">'
                   f'{k}</text>')
    # Legend, under the plan: never over it.
    if entries:
        y = top + plan_h + 24
        out.append(f'<text class="legend-title" x="{_f(left)}" y="{_f(y)}" font-size="12" font-weight="bold">'
                   f'{_e(legend_title)}</text>')
        x = left
        y += 10
        for n, (_kind, paint, text) in enumerate(entries):
            if n and n % per_line == 0:
                x = left
                y += 18
            out.append(f'<rect class="legend-swatch" x="{_f(x)}" y="{_f(y)}" width="14" height="10" {paint}'
                       f' stroke-width="0.5"/><text class="legend-text" x="{_f(x + 18)}" y="{_f(y + 9)}"'
                       f' font-size="11">{_e(text)}</text>')
            x += column
    out.append("</svg>")
    return "".join(out)


def _item_label(item: RackContent) -> str:
    return item.name if item.kind == "device" else (item.model or item.name)


def rack_elevation_svg(rack: RackSummary, items: Sequence[RackContent], *, basis: str = "typical",
                       device_href: Callable[[RackContent], str | None] | None = None) -> str:
    """A rack's front and rear elevation with the device names, and its power bar against the budget."""
    units = max(rack.u_height, max((i.u + i.u_height - 1 for i in items), default=0))
    left = 34.0
    gap = 40.0
    top = 34.0
    body_h = units * U_PX
    width = left + 2 * ELEVATION_W + gap + 20
    bar_y = top + body_h + 28
    height = bar_y + 56
    aria = _("Elevation of rack %(rack)s") % {"rack": rack.name}
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rack-elevation" viewBox="0 0 {_f(width)} {_f(height)}"'
        f' width="{_f(width)}" height="{_f(height)}" role="img" font-family="sans-serif"'
        f' aria-label="{_e(aria)}">',
        f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>',
    ]
    for face_index, (face, face_title) in enumerate((("front", _("Front")), ("rear", _("Rear")))):
        x0 = left + face_index * (ELEVATION_W + gap)
        out.append(f'<text x="{_f(x0 + ELEVATION_W / 2)}" y="{_f(top - 12)}" font-size="13" font-weight="bold"'
                   f' text-anchor="middle">{_e(face_title)} · {_e(rack.name)}</text>')
        out.append(f'<g class="face face-{face}">')
        out.append(f'<rect x="{_f(x0)}" y="{_f(top)}" width="{_f(ELEVATION_W)}" height="{_f(body_h)}" fill="#f9fafb"'
                   f' stroke="#111827" stroke-width="1.5"/>')
        lines = "".join(f"M{_f(x0)} {_f(top + k * U_PX)}h{_f(ELEVATION_W)}" for k in range(1, units))
        out.append(f'<path d="{lines}" stroke="#e5e7eb" stroke-width="0.5"/>')
        for unit in range(1, units + 1):
            if face_index == 0 and (unit == 1 or unit % 5 == 0 or unit == units):
                out.append(f'<text x="{_f(x0 - 6)}" y="{_f(top + (units - unit) * U_PX + U_PX - 3)}" font-size="9"'
                           f' text-anchor="end" fill="#6b7280">{unit}</text>')
        for item in items:
            mounted = item.face == face
            if not mounted and not item.full_depth:
                continue
            y = top + (units - (item.u + item.u_height - 1)) * U_PX
            h = item.u_height * U_PX
            fill = ROLE_FILLS.get(item.role or item.kind, ROLE_FILLS.get(item.kind, DEFAULT_FILL))
            overhang = item.u + item.u_height - 1 > rack.u_height
            label = _item_label(item)
            tip = f"{label} · U{item.u}" + (f"–{item.u + item.u_height - 1}" if item.u_height > 1 else "")
            if item.power_typical_w or item.power_missing:
                tip += " · " + (at_least(f"{_n(item.power_typical_w, 0)} W", item.power_missing)
                                if item.power_typical_w else not_published())
            shape = (f'<g class="item{" mounted" if mounted else " depth"}" data-item="{_e(item.name)}"'
                     f' data-u="{item.u}" data-face="{face}">'
                     f'<rect x="{_f(x0 + 2)}" y="{_f(y + 0.5)}" width="{_f(ELEVATION_W - 4)}" height="{_f(h - 1)}"'
                     f' fill="{fill}" fill-opacity="{1 if mounted else 0.35}"'
                     f' stroke="{"#dc2626" if overhang else "#374151"}" stroke-width="{1.5 if overhang else 0.6}">'
                     f"<title>{_e(tip)}</title></rect>")
            if mounted or item.u_height > 1:
                shape += (f'<text x="{_f(x0 + 8)}" y="{_f(y + min(h, U_PX) / 2 + 4)}" font-size="10"'
                          f' fill="{"#111827" if mounted else "#6b7280"}">{_e(label[:34])}</text>')
            shape += "</g>"
            href = device_href(item) if (device_href is not None and mounted) else None
            if href:
                shape = f'<a href="{_e(href)}">{shape}</a>'
            out.append(shape)
        out.append("</g>")
    # Power bar against the budget.
    power = rack.power_max_w if basis == "maximum" else rack.power_typical_w
    budget = rack.budget_w
    bar_w = 2 * ELEVATION_W + gap
    share = power_share(power, budget)
    filled = bar_w * min(1.0, share) if share is not None else 0.0
    over = share is not None and share > 1.0 + 1e-9
    out.append(f'<g class="power-bar{" over" if over else ""}">')
    out.append(f'<rect x="{_f(left)}" y="{_f(bar_y)}" width="{_f(bar_w)}" height="14" fill="#f3f4f6"'
               f' stroke="#374151" stroke-width="0.6"/>')
    if share is not None:
        out.append(f'<rect class="power-fill" x="{_f(left)}" y="{_f(bar_y)}" width="{_f(filled)}" height="14"'
                   f' fill="{power_fill(share)}"/>')
    if budget:
        text = _("%(power)s kW of %(budget)s kW budget (%(basis)s, %(share)s %%)") % {
            "power": _n(power / 1000), "budget": _n(budget / 1000), "basis": basis_label(basis),
            "share": _n((share or 0) * 100, 0)}
    else:
        text = _("%(power)s kW (%(basis)s), no budget set") % {"power": _n(power / 1000), "basis": basis_label(basis)}
    if rack.power_missing:
        text = at_least(text, rack.power_missing)
    if over:
        text += " · " + _("over the budget")
    out.append(f'<text x="{_f(left)}" y="{_f(bar_y + 30)}" font-size="11"'
               f' fill="{"#b91c1c" if over else "#111827"}">{_e(text)}</text>')
    used = _("%(used)s of %(units)s U used") % {"used": rack.used_u, "units": rack.u_height}
    out.append(f'<text x="{_f(left)}" y="{_f(bar_y + 46)}" font-size="11" fill="#374151">{_e(used)}</text>')
    out.append("</g></svg>")
    return "".join(out)
