"""The floor plan of a data hall and the elevation of a rack, drawn on the server as SVG text.

Both are pure functions of the selectors' data (apps.racks.selectors: HallPlan, RackSummary,
RackContent) returning an SVG document as a string, so the pages, the design document and any
export draw the same picture. Every text that comes from a design or the catalog is escaped;
links (``rack_href``, ``device_href``) are callables the caller passes, or None for none.

Rules of the floor plan:
- The hall is a grid of rows (top to bottom) and positions (left to right); one cell is a rack's
  width by the row pitch, a rack fills the cell's width and RACK_DEPTH_M of its depth (the rest is
  the aisle). Zones are bands of rows behind the racks; reserved cells (building columns, cooling
  units) are hatched and keep their label as a tooltip.
- A rack's colour is its power against its budget (the hall's power basis: typical or maximum
  draw): POWER_STEPS; a rack over its budget is red and named in its tooltip. Without a budget,
  against the fullest rack of the hall.
- Rack names are drawn inside the racks in small type (class "rack-label"); the page shows them
  only when zoomed in far enough to read them.

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
    "patch-panel": "#e5e7eb", "cable-manager": "#f3f4f6",
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


def floorplan_svg(hall: HallPlan, racks: Sequence[RackSummary], *, rack_href: Callable[[str], str] | None = None,
                  title: str = "") -> str:
    """The hall's floor plan: grid, zones, reserved cells, racks coloured by power against the budget, legend."""
    cell_w = hall.rack_width_m * PX_PER_M
    cell_h = hall.row_pitch_m * PX_PER_M
    rack_h = min(RACK_DEPTH_M, hall.row_pitch_m * 0.8) * PX_PER_M
    plan_w = max(1, hall.positions) * cell_w
    plan_h = max(1, hall.rows) * cell_h
    width = plan_w + 2 * MARGIN
    per_line = max(1, int(max(plan_w, LEGEND_COLUMN) // LEGEND_COLUMN))
    legend_lines = -(-(len(POWER_STEPS) + 1) // per_line)
    height = plan_h + 2 * MARGIN + LEGEND_H + 16 * (legend_lines - 1)
    top = MARGIN + (18.0 if title else 0.0)
    basis = hall.power_basis
    fullest = max((rack_power_w(r, basis) for r in racks), default=0.0)
    # Translated outside the f-strings (xgettext does not read calls inside them).
    label = _("Floor plan of the data hall")
    legend_title = _("Power per rack (%(basis)s)") % {"basis": basis_label(basis)}
    reserved_label = _("reserved cell")
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="floorplan"'
        f' viewBox="0 0 {_f(width)} {_f(height + top - MARGIN)}"'
        f' width="{_f(width)}" height="{_f(height + top - MARGIN)}" role="img"'
        f' aria-label="{_e(label)}" font-family="sans-serif">',
        "<defs>"
        '<pattern id="reserved-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="6" height="6" fill="#f3f4f6"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#9ca3af" stroke-width="2"/>'
        "</pattern></defs>",
        f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height + top - MARGIN)}" fill="#ffffff"/>',
    ]
    if title:
        out.append(f'<text x="{_f(MARGIN)}" y="{_f(MARGIN - 8)}" font-size="16" font-weight="bold">{_e(title)}</text>')
    # Zones: bands of rows behind everything.
    for zone in hall.zones:
        rows = zone.get("rows") or [0, hall.rows - 1]
        first, last = int(rows[0]), int(rows[-1])
        kind = str(zone.get("kind") or "")
        y = top + first * cell_h
        out.append(f'<rect class="zone zone-{_e(kind)}" x="{_f(MARGIN)}" y="{_f(y)}" width="{_f(plan_w)}"'
                   f' height="{_f((last - first + 1) * cell_h)}" fill="{ZONE_FILLS.get(kind, "#f9fafb")}"'
                   f' stroke="#d1d5db" stroke-dasharray="4 3"><title>{_e(zone_label(kind))}</title></rect>')
        out.append(f'<text class="zone-label" x="{_f(MARGIN + plan_w + 4)}" y="{_f(y + 12)}" font-size="11"'
                   f' fill="#6b7280">{_e(zone_label(kind))}</text>')
    # The grid: one line per row, numbers on the left, positions on top.
    grid = []
    for row in range(hall.rows + 1):
        y = top + row * cell_h
        grid.append(f"M{_f(MARGIN)} {_f(y)}H{_f(MARGIN + plan_w)}")
    for pos in range(hall.positions + 1):
        x = MARGIN + pos * cell_w
        grid.append(f"M{_f(x)} {_f(top)}V{_f(top + plan_h)}")
    out.append(f'<path class="grid" d="{"".join(grid)}" stroke="#e5e7eb" stroke-width="0.5" fill="none"/>')
    step = max(1, hall.rows // 60)
    for row in range(0, hall.rows, step):
        out.append(f'<text class="row-label" x="{_f(MARGIN - 6)}" y="{_f(top + row * cell_h + rack_h / 2 + 4)}"'
                   f' font-size="10" text-anchor="end" fill="#6b7280">{row + 1}</text>')
    for pos in range(hall.positions):
        out.append(f'<text class="position-label" x="{_f(MARGIN + pos * cell_w + cell_w / 2)}" y="{_f(top - 4)}"'
                   f' font-size="9" text-anchor="middle" fill="#6b7280">{pos + 1}</text>')
    # Reserved cells.
    for cell in hall.reserved:
        x = MARGIN + int(cell["position"]) * cell_w
        y = top + int(cell["row"]) * cell_h
        out.append(f'<rect class="reserved" x="{_f(x)}" y="{_f(y)}" width="{_f(cell_w)}" height="{_f(rack_h)}"'
                   f' fill="url(#reserved-hatch)" stroke="#6b7280" stroke-width="0.5">'
                   f'<title>{_e(reserved_label)}</title></rect>')
    # Racks.
    budget_text = _("of %(budget)s kW") if any(r.budget_w for r in racks) else ""
    for rack in racks:
        x = MARGIN + rack.position * cell_w
        y = top + rack.row * cell_h
        power = rack_power_w(rack, basis)
        share = power_share(power, rack.budget_w) if rack.budget_w else power_share(power, fullest)
        fill = power_fill(share)
        over = bool(rack.budget_w) and power > rack.budget_w + 1e-6
        tip = f"{rack.name} · {at_least(f'{_n(power / 1000)} kW', rack.power_missing)}"
        if rack.budget_w and budget_text:
            tip += " " + budget_text % {"budget": _n(rack.budget_w / 1000)}
        if over:
            tip += " · " + _("over the budget")
        shape = (f'<rect class="rack rack-{_e(rack.kind)}{" over" if over else ""}" data-rack="{_e(rack.name)}"'
                 f' x="{_f(x + 0.5)}" y="{_f(y)}" width="{_f(cell_w - 1)}" height="{_f(rack_h)}" fill="{fill}"'
                 f' stroke="{"#7f1d1d" if over else "#374151"}" stroke-width="{1.5 if over else 0.5}">'
                 f"<title>{_e(tip)}</title></rect>"
                 f'<text class="rack-label" x="{_f(x + cell_w / 2)}" y="{_f(y + rack_h / 2 + 2)}" font-size="5"'
                 f' text-anchor="middle" pointer-events="none">{_e(rack.name)}</text>')
        if rack_href is not None:
            shape = f'<a href="{_e(rack_href(rack.name))}">{shape}</a>'
        out.append(shape)
    # Legend.
    y = top + plan_h + 22
    out.append(f'<text class="legend-title" x="{_f(MARGIN)}" y="{_f(y)}" font-size="12" font-weight="bold">'
               f'{_e(legend_title)}</text>')
    # Legend entries in columns of LEGEND_COLUMN px, wrapped to the plan's width.
    x = MARGIN
    y += 10
    entries = [(f'fill="{colour}" stroke="#374151"', text) for colour, text in _legend_items(
        any(r.budget_w for r in racks))]
    entries.append(('fill="url(#reserved-hatch)" stroke="#6b7280"', reserved_label))
    for paint, text in entries:
        if x + LEGEND_COLUMN > MARGIN + per_line * LEGEND_COLUMN + 1:
            x = MARGIN
            y += 16
        out.append(f'<rect class="legend-swatch" x="{_f(x)}" y="{_f(y)}" width="14" height="10" {paint}'
                   f' stroke-width="0.5"/><text x="{_f(x + 18)}" y="{_f(y + 9)}" font-size="10">{_e(text)}</text>')
        x += LEGEND_COLUMN
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
