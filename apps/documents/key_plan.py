"""The key plan of a large hall, summarised: one bar per row segment instead of one shape per rack.

Rules:
- Above KEY_PLAN_RACKS racks the racks chapter's key plan is this drawing: the racks pages' own floor plan
  (apps.racks.svg.floorplan_svg) draws every rack with its front edge, cooling mark and tooltip, about six SVG
  elements a rack; the 34,693 racks of a 1,000,000-GPU hall made a 19 MB figure that took WeasyPrint most of
  the document's time, for a picture printed 170 mm wide where a rack is a fraction of a millimetre.
- A segment is a run of racks of one row between cross aisles (a gap wider than 1.5 racks), drawn at its
  place in the hall. Its colour is the power colour of its fullest rack (the floor plan's POWER_STEPS, against
  the rack's budget or, without budgets, the hall's fullest rack), so a rack over its budget still shows; a
  segment holding a rack that needs more cooling than the site offers gets a red dashed outline.
- Row names every ROW_LABEL_EVERY rows; the printed sheets outlined and numbered as on the detailed key plan.
"""
from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.translation import gettext as _

from apps.racks.svg import _legend_items, basis_label, cooling_short, power_fill, power_share, rack_power_w

KEY_PLAN_RACKS = 5_000
PX_PER_M = 4.0
ROW_LABEL_EVERY = 10
MARGIN = 40.0


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def segments(hall, racks: Sequence) -> list[dict]:
    """Every row segment: {"row", "x0", "x1", "y", "racks", "fill", "short"} (metres)."""
    basis = hall.power_basis
    fullest = max((rack_power_w(r, basis) for r in racks), default=0.0)
    by_row: dict[int, list] = {}
    for rack in racks:
        by_row.setdefault(rack.row, []).append(rack)
    out: list[dict] = []
    for row, members in sorted(by_row.items()):
        members.sort(key=lambda r: r.x_m)
        run = [members[0]]
        for rack in members[1:] + [None]:
            if rack is not None and rack.x_m - run[-1].x_m <= hall.rack_width_m * 1.5:
                run.append(rack)
                continue
            shares = [power_share(rack_power_w(r, basis), r.budget_w or fullest) for r in run]
            top = max((s for s in shares if s is not None), default=None)
            out.append({"row": row, "x0": run[0].x_m, "x1": run[-1].x_m + hall.rack_width_m, "y": run[0].y_m,
                        "racks": len(run), "fill": power_fill(top), "short": any(cooling_short(hall, r) for r in run)})
            if rack is not None:
                run = [rack]
    return out


def key_plan_svg(hall, racks: Sequence, *, title: str, sheets: Sequence[tuple[float, float, float, float]],
                 depth_m: float) -> str:
    """The whole hall by row segment, with the printed sheets outlined and numbered, and the power legend."""
    px = PX_PER_M
    width_m = max(hall.width_m, max((r.x_m for r in racks), default=0.0) + hall.rack_width_m)
    height_m = max(hall.depth_m, max((r.y_m for r in racks), default=0.0) + depth_m)
    left, top = MARGIN, MARGIN + 20.0
    plan_w, plan_h = width_m * px, height_m * px
    items = _legend_items(any(r.budget_w for r in racks))
    column = 190.0
    per_line = max(1, int(plan_w // column))
    lines = -(-len(items) // per_line) + 1
    width = left + plan_w + 16.0
    height = top + plan_h + 34.0 + 18.0 * lines

    def X(x_m: float) -> float:
        return left + x_m * px

    def Y(y_m: float) -> float:
        return top + y_m * px

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="floorplan key-plan" viewBox="0 0 {_f(width)} {_f(height)}"'
           f' width="{_f(width)}" height="{_f(height)}" role="img" aria-label="{escape(title)}"'
           ' font-family="sans-serif">',
           f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>',
           f'<text x="{_f(left)}" y="{_f(top - 14)}" font-size="16" font-weight="bold">{escape(title)}</text>',
           f'<rect x="{_f(X(0))}" y="{_f(Y(0))}" width="{_f(plan_w)}" height="{_f(plan_h)}" fill="#fafafa"'
           ' stroke="#9ca3af" stroke-width="1"/>']
    rows_y: dict[int, float] = {}
    for seg in segments(hall, racks):
        rows_y.setdefault(seg["row"], seg["y"])
        stroke = ' stroke="#dc2626" stroke-width="1" stroke-dasharray="3 2"' if seg["short"] else ""
        out.append(f'<rect x="{_f(X(seg["x0"]))}" y="{_f(Y(seg["y"]))}" width="{_f((seg["x1"] - seg["x0"]) * px)}"'
                   f' height="{_f(max(depth_m * px, 1.0))}" fill="{seg["fill"]}"{stroke}/>')
    for row, y in sorted(rows_y.items()):
        if row % ROW_LABEL_EVERY == 0:
            out.append(f'<text x="{_f(X(0) - 3)}" y="{_f(Y(y) + depth_m * px)}" font-size="9" text-anchor="end"'
                       f' fill="#374151">R{row + 1:03d}</text>')
    for k, (sx0, sy0, sx1, sy1) in enumerate(sheets, start=1):
        # numbers no wider than their sheet, so neighbouring sheets' numbers never run together
        font = min(max(14.0, min(plan_w, plan_h) / 24), (sx1 - sx0) * px / (0.6 * len(str(k)) + 0.4),
                   (sy1 - sy0) * px * 0.8)
        out.append(f'<rect x="{_f(X(sx0))}" y="{_f(Y(sy0))}" width="{_f((sx1 - sx0) * px)}"'
                   f' height="{_f((sy1 - sy0) * px)}" fill="none" stroke="#1d4ed8" stroke-width="{_f(font / 14)}"'
                   f' stroke-dasharray="{_f(font / 2)} {_f(font / 4)}"/>'
                   f'<text x="{_f(X((sx0 + sx1) / 2))}" y="{_f(Y((sy0 + sy1) / 2) + font / 3)}"'
                   f' font-size="{_f(font)}" font-weight="bold" text-anchor="middle" fill="#1d4ed8"'
                   f' stroke="#ffffff" stroke-width="{_f(font / 10)}" paint-order="stroke">{k}</text>')
    y = top + plan_h + 24
    out.append(f'<text x="{_f(left)}" y="{_f(y)}" font-size="12" font-weight="bold">'
               f'{escape(_("Power of the fullest rack of each row segment (%(basis)s)") % {"basis": basis_label(hall.power_basis)})}'
               '</text>')
    x, y = left, y + 10
    for n, (colour, text) in enumerate(items):
        if n and n % per_line == 0:
            x, y = left, y + 18
        out.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="14" height="10" fill="{colour}" stroke="#374151"'
                   f' stroke-width="0.5"/><text x="{_f(x + 18)}" y="{_f(y + 9)}" font-size="11">{escape(text)}</text>')
        x += column
    if any(cooling_short(hall, r) for r in racks):
        out.append(f'<rect x="{_f(left)}" y="{_f(y + 18)}" width="14" height="10" fill="#ffffff" stroke="#dc2626"'
                   f' stroke-dasharray="3 2"/><text x="{_f(left + 18)}" y="{_f(y + 27)}" font-size="11">'
                   f'{escape(_("a rack of the segment needs more cooling than the site offers"))}</text>')
    out.append("</svg>")
    return "".join(out)
