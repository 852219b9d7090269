"""Racks and floor plan: the hall's facts, its floor plan coloured by power, the fullest racks and an
elevation of the first rack of each kind. Left out (None) when the version is not placed in a hall.

The pictures are the racks pages' own (apps.racks.svg: floorplan_svg, rack_elevation_svg).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.missing import at_least
from apps.racks.presentation import hall_facts, kind_label, kw, rack_table_rows
from apps.racks.selectors import hall_plan, rack_contents, rack_get, rack_summaries
from apps.racks.svg import floorplan_svg, rack_elevation_svg

from ..model import Chapter, Figure, Heading, KeyValues, Paragraph, Table
from ..source import DocumentSource

KEY = "racks"
TITLE = gettext_lazy("Racks and floor plan")
FULLEST_ROWS = 15


def build(source: DocumentSource) -> Chapter | None:
    hall = hall_plan(version=source.version)
    if hall is None:
        return None
    racks = rack_summaries(version=source.version)
    if not racks:
        return None
    blocks: list = [KeyValues(hall_facts(hall, racks)),
                    Figure(svg=floorplan_svg(hall, racks, title=_("Floor plan")),
                           caption=_("The data hall: racks by row and position, coloured by their power against "
                                     "the budget per rack; zones and reserved cells."))]
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
