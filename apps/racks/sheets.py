"""The "Racks" sheet of the workbook (registered with apps.designs.sheets, order 52: after the ASN plan).

One block per rack in hall order: a section row naming the rack with its place in the hall (row,
position, floor x and y in metres), its height used, its power against the budget (the hall's basis)
and its cooling; then what it holds from the top unit down (U, height, face, name, role, network,
model, SKU, typical and maximum power); then an empty row. The rack's name is repeated on every
row of its block, so the header's filter on the first column keeps one rack. Names and models are written as
text cells (apps.designs.workbook), never as formulas. A version without a hall has no Racks sheet.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.sheets import SheetContext, workbook_sheet_register
from apps.designs.workbook import Column, Sheet, Styled

from apps.designs.missing import at_least, missing_sentence, not_published

from .presentation import cooling_label, face_label, kind_label, kw, network_labels, role_labels
from .selectors import hall_plan, rack_blocks
from .svg import basis_label

RACKS_SHEET = gettext_lazy("Racks")


def racks_sheet_write(ctx: SheetContext, sheet: Sheet) -> bool | None:
    version = ctx.version
    hall = hall_plan(version=version)
    if hall is None:
        return False
    roles, networks = role_labels(), network_labels()
    basis = hall.power_basis
    sheet.columns([
        Column(_("Rack"), 12), Column(_("U"), 6, "int"), Column(_("Height (U)"), 9, "int"), Column(_("Face"), 8),
        Column(_("Name"), 26), Column(_("Role"), 16), Column(_("Network"), 18), Column(_("Model"), 28),
        Column(_("SKU"), 20), Column(_("Typical power (W)"), 12, "int"), Column(_("Maximum power (W)"), 12, "int"),
        Column(_("Missing power figures"), 30),
    ])
    sheet.append([Styled(_("%(racks)s racks in %(rows)s rows of %(positions)s positions; budget per rack %(budget)s "
                           "(%(basis)s); rack height %(units)s U; %(cooling)s cooling") % {
        "racks": f"{hall.racks:,}", "rows": hall.rows, "positions": hall.positions,
        "budget": f"{kw(hall.budget_w)} kW" if hall.budget_w else _("none set"), "basis": basis_label(basis),
        "units": hall.rack_units, "cooling": cooling_label(hall.cooling)}, "note")])
    if hall.power_missing:
        # A figure no vendor publishes is left out of every power cell below: said once at the top, then per row.
        sheet.append([Styled(_("Power of the hall: %(power)s") % {"power": at_least(
            f"{kw(hall.power_typical_w)} / {kw(hall.power_max_w)} kW", hall.power_missing)}, "warning")])
    ctx.progress("racks", 10)
    for rack, contents in rack_blocks(version=version):
        power = rack.power_w(basis)
        budget = (_("%(power)s of %(budget)s kW") % {"power": kw(power), "budget": kw(rack.budget_w)}
                  if rack.budget_w else f"{kw(power)} kW")
        budget = at_least(budget, rack.power_missing)
        over = rack.over_budget(basis)
        heading = _("%(kind)s rack, row %(row)s position %(position)s, x %(x)s m y %(y)s m, %(used)s of %(units)s U, "
                    "%(power)s, %(cooling)s") % {
            "kind": kind_label(rack.kind), "row": rack.row + 1, "position": rack.position + 1,
            "x": f"{rack.x_m:.1f}", "y": f"{rack.y_m:.1f}", "used": rack.used_u, "units": rack.u_height,
            "power": budget, "cooling": cooling_label(rack.cooling)}
        if over:
            heading += " · " + _("over the budget")
        sheet.append([Styled(rack.name, "section"), Styled(heading, "warning" if over or rack.power_missing
                                                           else "section")])
        for item in contents:
            unknown = item.power_missing and not item.power_typical_w  # no figure at all: never a 0 that reads as one
            sheet.append([rack.name, item.u, item.u_height, face_label(item.face), item.name,
                          roles.get(item.role, item.role), networks.get(item.network, item.network), item.model,
                          item.sku, not_published() if unknown else round(item.power_typical_w),
                          not_published() if unknown else round(item.power_max_w),
                          missing_sentence(item.power_missing)])
        sheet.append([])
    return None


def racks_sheet_register() -> None:
    workbook_sheet_register(RACKS_SHEET, racks_sheet_write, order=52)
