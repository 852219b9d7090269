"""Racks and floor plan: the hall's facts, a warning for racks needing more cooling than the site offers, its
floor plan coloured by power (one figure, or a key plan and numbered sheets each legible in print), the fullest
racks and an elevation of the first rack of each kind. Left out (None) when the version is not placed in a hall.

The pictures are the racks pages' own (apps.racks.svg: floorplan_svg, rack_elevation_svg).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import re
from bisect import bisect_right

from apps.designs.missing import at_least
from apps.racks.presentation import hall_facts, kind_label, kw, rack_table_rows
from apps.racks.selectors import hall_plan, rack_contents, rack_get, rack_summaries
from apps.racks.svg import (COOLING_ORDER, PX_PER_M, RACK_LABEL_PX, ROW_LABEL_PX, _rack_depth_m, cooling_short,
                            cooling_text, floorplan_svg, rack_elevation_svg, sheet_windows)

from ..key_plan import KEY_PLAN_RACKS, key_plan_svg
from ..model import Chapter, Figure, Heading, KeyValues, Paragraph, Table
from ..source import DocumentSource

KEY = "racks"
TITLE = gettext_lazy("Racks and floor plan")
FULLEST_ROWS = 15
# Print legibility: rack numbers (RACK_LABEL_PX drawing units) at least 2.5 mm high (7 pt) on a figure at most
# FIGURE_MM wide on the A4 page; a sheet is a part of the hall that fits that, cut between row pairs and segments.
FIGURE_MM = 170.0
MIN_TEXT_MM = 2.5
MM_PER_UNIT = MIN_TEXT_MM / RACK_LABEL_PX
SHEET_WIDTH_M = (FIGURE_MM / MM_PER_UNIT - 24 - 4 * ROW_LABEL_PX) / PX_PER_M
SHEET_DEPTH_M = (215.0 / MM_PER_UNIT - 60) / PX_PER_M
MAX_SHEETS = 40
# Above KEY_PLAN_RACKS racks (the key plan by row segment) fewer sheets: a sheet's 200-odd rack numbers cost
# WeasyPrint about a second each, and a hall of 34,693 racks (1,000,000 GPUs) needs some 200 sheets anyway.
LARGE_HALL_SHEETS = 12


def build(source: DocumentSource) -> Chapter | None:
    hall = hall_plan(version=source.version)
    if hall is None:
        return None
    racks = rack_summaries(version=source.version)
    if not racks:
        return None
    blocks: list = [KeyValues(hall_facts(hall, racks))]
    short = [r for r in racks if cooling_short(hall, r)]
    if short:
        needs = sorted({r.cooling for r in short}, key=lambda kind: COOLING_ORDER.get(kind, 9))
        blocks.append(Paragraph("⚠ " + _(
            "%(racks)s racks need %(needs)s, but the site offers %(cooling)s (up to %(kw)s kW a rack): plan that "
            "cooling, or fewer servers per rack.") % {
            "racks": f"{len(short):,}", "needs": ", ".join(cooling_text(kind) for kind in needs),
            "cooling": cooling_text(hall.cooling), "kw": kw(max(r.power_w(hall.power_basis) for r in short))},
            style="warning"))
    # Sheets whose racks all start in another sheet add nothing (and would be captioned with no rows).
    starting = _racks_by_window(racks, sheet_windows(hall, racks, width_m=SHEET_WIDTH_M, depth_m=SHEET_DEPTH_M))
    windows = [window for window, inside in starting.items() if inside]
    printed = windows[:MAX_SHEETS if len(racks) <= KEY_PLAN_RACKS else LARGE_HALL_SHEETS]
    if len(windows) == 1:
        blocks.append(_sheet_figure(hall, racks, windows[0], _("Floor plan"), _(
            "The data hall: racks at their places, numbered by position in their row (R001 is row 1), coloured by "
            "their power against the budget per rack; cold aisles blue, hot aisles red, each rack's front a dark "
            "edge; cooling marks, zones and reserved cells.")))
    else:
        if len(racks) > KEY_PLAN_RACKS:  # one bar per row segment, not a shape per rack (apps.documents.key_plan)
            blocks.append(Figure(svg=key_plan_svg(hall, racks, title=_("Floor plan: key plan"), sheets=printed,
                                                  depth_m=_rack_depth_m(hall)),
                                 caption=_("The whole hall by row segment (%(racks)s racks), coloured by each "
                                           "segment's fullest rack, with the %(sheets)s sheets that follow outlined "
                                           "and numbered; each sheet shows its racks at a size that can be read in "
                                           "print.") % {"racks": f"{len(racks):,}", "sheets": len(printed)}))
        else:
            blocks.append(Figure(svg=floorplan_svg(hall, racks, title=_("Floor plan: key plan"), labels=False,
                                                   sheets=printed),
                                 caption=_("The whole hall, with the %(sheets)s sheets that follow outlined and "
                                           "numbered; each sheet shows its racks at a size that can be read in "
                                           "print.") % {"sheets": len(printed)}))
        for k, window in enumerate(printed, start=1):
            inside = starting[window]
            rows = sorted({r.row for r in inside}) or [0]
            positions = sorted({r.position for r in inside}) or [0]
            blocks.append(_sheet_figure(hall, racks, window, _("Floor plan, sheet %(sheet)s of %(sheets)s") % {
                "sheet": k, "sheets": len(printed)}, _(
                "Rows R%(first_row)03d–R%(last_row)03d, positions %(first)s–%(last)s.") % {
                "first_row": rows[0] + 1, "last_row": rows[-1] + 1, "first": positions[0] + 1,
                "last": positions[-1] + 1}))
        if len(windows) > len(printed):
            blocks.append(Paragraph(_("The hall needs %(sheets)s sheets; the first %(printed)s are printed here. "
                                      "The racks pages show the whole plan at any zoom, and the Excel workbook's "
                                      "Racks sheet lists every rack.") % {"sheets": len(windows),
                                                                         "printed": len(printed)}, style="note"))
    if hall.power_missing:
        blocks.append(Paragraph(_("No published power figure for %(parts)s: the rack and hall power above and below "
                                  "leave them out and are lower bounds (marked ≥).") % {
            "parts": ", ".join(hall.power_missing)}, style="warning"))
    rows = rack_table_rows(hall, racks, limit=FULLEST_ROWS)
    blocks.append(Heading(_("The fullest racks")))
    blocks.append(Table(headers=[_("Rack"), _("Kind"), _("Row"), _("Position"), _("Units used"), _("Power (kW)"),
                                 _("Budget (kW)")],
                        rows=[[row["rack"].name, str(row["kind"]), str(row["rack"].row + 1),
                               str(row["rack"].position + 1), f"{row['rack'].used_u} / {row['rack'].u_height}",
                               str(row["power_kw"]) + (" ⚠" if row["over"] else ""), str(row["budget_kw"])]
                              for row in rows], numeric=(2, 3, 4, 5, 6)))
    blocks.append(Heading(_("Rack elevations")))
    seen: set[str] = set()
    for summary in racks:
        if summary.kind in seen:
            continue
        seen.add(summary.kind)
        rack = rack_get(version=source.version, name=summary.name)
        if rack is None:
            continue
        blocks.append(Figure(
            svg=rack_elevation_svg(summary, rack_contents(rack=rack), basis=hall.power_basis),
            caption=_("%(kind)s rack %(name)s, front and rear (%(kw)s kW).") % {
                "kind": kind_label(summary.kind), "name": summary.name,
                "kw": at_least(kw(summary.power_w(hall.power_basis)), summary.power_missing)},
            width_mm=80))
    blocks.append(Paragraph(_("Every rack, its contents and positions are in the Racks sheet of the Excel workbook "
                              "and in the NetBox files."), style="note"))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)


def _racks_by_window(racks, windows: list[tuple[float, float, float, float]]) -> dict[tuple, list]:
    """Each window (in order) with the racks that start in it: the windows are a grid of columns and bands, so a
    rack's column and band are found by bisection, not by testing every window."""
    xs = sorted({(w[0], w[2]) for w in windows})
    ys = sorted({(w[1], w[3]) for w in windows})
    x_starts, y_starts = [x0 - 1e-6 for x0, _x1 in xs], [y0 - 1e-6 for y0, _y1 in ys]
    out: dict[tuple, list] = {window: [] for window in windows}
    for rack in racks:
        i, j = bisect_right(x_starts, rack.x_m) - 1, bisect_right(y_starts, rack.y_m) - 1
        if i < 0 or j < 0 or rack.x_m >= xs[i][1] or rack.y_m >= ys[j][1]:
            continue
        window = (xs[i][0], ys[j][0], xs[i][1], ys[j][1])
        if window in out:
            out[window].append(rack)
    return out


def _sheet_figure(hall, racks, window, title: str, caption: str) -> Figure:
    """A part of the floor plan printed so its rack numbers and row names are at least MIN_TEXT_MM high."""
    svg = floorplan_svg(hall, racks, title=title, window=window)
    width_units = float(re.search(r'width="([0-9.]+)"', svg).group(1))
    return Figure(svg=svg, caption=caption, width_mm=min(FIGURE_MM, width_units * MM_PER_UNIT))
