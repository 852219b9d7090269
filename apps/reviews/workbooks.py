"""Excel for reviews: the workbook of a diff between two versions, and the "Review" sheet of a version's workbook.

The diff workbook (openpyxl; a diff holds a few dozen rows) has two sheets:
- "Diff": who exported what and when; inputs changed (input, A, B); headline figures, switches
  and links per tier (A, B, change); cost, power and rack-unit totals (A, B, change, unit).
- "BOM changes": one row per SKU of either version with its status (added, removed, changed,
  same), quantities, unit and extended prices of A and B and their changes; a styled, frozen,
  filtered header and a fill per status.
Values are written as numbers (not formulas) so every reader, openpyxl included, sees them; text
(names, inputs, SKUs) is always a string cell, even when it starts with "=", "+", "-" or "@".

The "Review" sheet is registered with the procurement workbook's sheet registry
(apps.designs.sheets.workbook_sheet_register, from ReviewsConfig.ready()): the version's
review state, its history and its comments. A version that was never reviewed nor commented on
gets no Review sheet.
"""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import IO, Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from .models import AnchorType, ReviewAction, ReviewState
from .selectors import comment_list_for_version, review_event_list_for_version, review_for_version
from .services.audit import user_label
from .services.diff import BomStatus, VersionDiff

REVIEW_SHEET_NAME = gettext_lazy("Review")
REVIEW_SHEET_ORDER = 90

_HEADER_FONT = Font(bold=True, color="FFFFFF")
_HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
_SECTION_FONT = Font(bold=True)
_SECTION_FILL = PatternFill("solid", fgColor="DDEBF7")
STATUS_FILLS = {
    BomStatus.ADDED: PatternFill("solid", fgColor="DAFBE1"),
    BomStatus.REMOVED: PatternFill("solid", fgColor="FFEBE9"),
    BomStatus.CHANGED: PatternFill("solid", fgColor="FFF8C5"),
}
MONEY = "#,##0.00"
INT = "#,##0"
SIGNED_MONEY = "+#,##0.00;-#,##0.00;0.00"
SIGNED_INT = "+#,##0;-#,##0;0"


def when_text(value: datetime | None) -> str:
    if value is None:
        return ""
    return date_format(timezone.localtime(value), "Y-m-d H:i T")


def bom_status_labels() -> dict[str, str]:
    return {BomStatus.ADDED: _("added"), BomStatus.REMOVED: _("removed"), BomStatus.CHANGED: _("changed"),
            BomStatus.SAME: _("same")}


# Diff workbook -------------------------------------------------------------------------------------------


class _Writer:
    """Rows appended one after another on an openpyxl worksheet, with the few styles a diff needs."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.row = 0

    def append(self, values: list[Any], *, formats: dict[int, str] | None = None, font=None, fill=None) -> int:
        self.row += 1
        for index, value in enumerate(values, start=1):
            if value is None:
                continue
            cell = self.ws.cell(row=self.row, column=index)
            if isinstance(value, str):
                # Names and comments may hold characters a worksheet cannot store; and text is
                # always a string cell: openpyxl would store "=HYPERLINK(...)" as a live formula.
                cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)
                cell.data_type = "s"
            else:
                cell.value = value
            if formats and index in formats:
                cell.number_format = formats[index]
            if font is not None:
                cell.font = font
            if fill is not None:
                cell.fill = fill
        return self.row

    def header(self, titles: list[str]) -> int:
        row = self.append(titles, font=_HEADER_FONT, fill=_HEADER_FILL)
        for index in range(1, len(titles) + 1):
            self.ws.cell(row=row, column=index).alignment = Alignment(vertical="center", wrap_text=True)
        return row

    def section(self, title: str, width: int) -> None:
        self.blank()
        self.append([title] + [""] * (width - 1), font=_SECTION_FONT, fill=_SECTION_FILL)

    def blank(self) -> None:
        self.row += 1

    def widths(self, widths: list[float]) -> None:
        for index, width in enumerate(widths, start=1):
            self.ws.column_dimensions[get_column_letter(index)].width = width


def _number_format(value: Any, *, money: bool, signed: bool = False) -> str:
    if money or isinstance(value, Decimal) and value != value.to_integral_value():
        return SIGNED_MONEY if signed else MONEY
    return SIGNED_INT if signed else INT


def _diff_sheet(ws, diff: VersionDiff, *, user: Any) -> None:
    w = _Writer(ws)
    w.widths([40, 44, 44, 16, 8])
    w.append([_("Diff: %(a)s → %(b)s") % {"a": diff.a_label, "b": diff.b_label}], font=Font(bold=True, size=14))
    project = diff.a.design.project
    w.append([_("Project"), f"{project.customer.name} / {project.name}"])
    w.append([_("A"), diff.a_label, _("generated %(when)s") % {"when": when_text(diff.a.generated_at)}])
    w.append([_("B"), diff.b_label, _("generated %(when)s") % {"when": when_text(diff.b.generated_at)}])
    w.append([_("Exported by"), user_label(user), when_text(timezone.now())])
    if not diff.same_currency:
        w.append([_("The versions are priced in different currencies (%(a)s, %(b)s): money changes are left out.")
                  % {"a": diff.a.currency, "b": diff.b.currency}], font=Font(color="9C0006"))

    w.section(_("Inputs changed"), 3)
    w.header([_("Input"), diff.a_label, diff.b_label])
    for change in diff.inputs:
        w.append([change.label, change.a, change.b])
    if not diff.inputs:
        w.append([_("No input changed.")], font=Font(italic=True))

    for title, rows in ((_("Figures"), diff.figures), (_("Switches per tier"), diff.switches),
                        (_("Links per tier"), diff.links)):
        w.section(title, 4)
        w.header([_("Figure"), diff.a_label, diff.b_label, _("Change")])
        for row in rows:
            w.append([row.label, row.a, row.b, row.delta], formats={2: INT, 3: INT, 4: SIGNED_INT},
                     fill=STATUS_FILLS[BomStatus.CHANGED] if row.changed else None)

    w.section(_("Totals"), 5)
    w.header([_("Total"), diff.a_label, diff.b_label, _("Change"), _("Unit")])
    for row in diff.totals:
        fmt = _number_format(row.a, money=row.money)
        w.append([row.label, row.a, row.b, row.delta, row.unit],
                 formats={2: fmt, 3: fmt, 4: _number_format(row.a, money=row.money, signed=True)},
                 fill=STATUS_FILLS[BomStatus.CHANGED] if row.changed else None)
    ws.freeze_panes = "A2"


def _bom_sheet(ws, diff: VersionDiff) -> None:
    w = _Writer(ws)
    w.widths([24, 48, 13, 11, 10, 10, 11, 14, 14, 16, 16, 16])
    w.header([_("SKU"), _("Description"), _("Category"), _("Status"), _("Qty A"), _("Qty B"), _("Qty change"),
              _("Unit price A"), _("Unit price B"), _("Extended A"), _("Extended B"), _("Extended change")])
    labels = bom_status_labels()
    money = {5: INT, 6: INT, 7: SIGNED_INT, 8: MONEY, 9: MONEY, 10: MONEY, 11: MONEY, 12: SIGNED_MONEY}
    for line in diff.bom:
        w.append(
            [line.sku, line.description, line.category, labels[line.status], line.qty_a, line.qty_b, line.qty_delta,
             line.unit_price_a, line.unit_price_b, line.total_a, line.total_b,
             line.total_delta if diff.same_currency else None],
            formats=money, fill=STATUS_FILLS.get(line.status),
        )
    last = max(w.row, 1)
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = f"A1:L{last}"


def diff_workbook_write(*, diff: VersionDiff, stream: IO[bytes], user: Any = None) -> None:
    """Write the diff workbook (sheets "Diff" and "BOM changes") to a binary stream."""
    book = Workbook()
    summary = book.active
    summary.title = _("Diff")[:31]
    _diff_sheet(summary, diff, user=user)
    _bom_sheet(book.create_sheet(_("BOM changes")[:31]), diff)
    book.properties.creator = "fabricweb"
    book.properties.title = _("Diff: %(a)s → %(b)s") % {"a": diff.a_label, "b": diff.b_label}
    book.save(stream)


def diff_workbook_filename(diff: VersionDiff) -> str:
    def part(version) -> str:
        return f"{version.design.name}-v{version.number}"

    raw = f"{diff.a.design.project.name}-diff-{part(diff.a)}-{part(diff.b)}.xlsx"
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in raw)


# "Review" sheet of the procurement workbook ----------------------------------------------------------------


def _anchor_text(comment) -> str:
    if comment.anchor_type == AnchorType.NONE:
        return ""
    return f"{AnchorType(comment.anchor_type).label}: {comment.anchor_ref}"


def review_sheet_write(context: Any, sheet: Any) -> bool | None:
    """Fill the version workbook's Review sheet: state, history, comments (False: nothing to show)."""
    from apps.designs.workbook import Column

    version = context.version
    review = review_for_version(version=version)
    events = list(review_event_list_for_version(version=version))
    comments = list(comment_list_for_version(version=version))
    if review is None and not events and not comments:
        return False
    sheet.columns([
        Column(_("When"), 20), Column(_("Who"), 18), Column(_("What"), 22), Column(_("About"), 30),
        Column(_("Text"), 80, "wrap"),
    ])
    state = ReviewState(review.state if review is not None else ReviewState.DRAFT)
    sheet.append([when_text(review.changed_at if review else None),
                  user_label(review.changed_by) if review else "", _("Current state"), "", str(state.label)])
    for event in events:
        sheet.append([when_text(event.at), user_label(event.actor), str(ReviewAction(event.action).label),
                      f"{ReviewState(event.from_state).label} → {ReviewState(event.to_state).label}", event.note])
    for comment in comments:
        sheet.append([when_text(comment.created_at), user_label(comment.author), _("comment"),
                      _anchor_text(comment), comment.body])
    return None


def review_sheet_register() -> None:
    """Add the Review sheet to the procurement workbook (called from ReviewsConfig.ready())."""
    from apps.designs.sheets import workbook_sheet_register

    workbook_sheet_register(REVIEW_SHEET_NAME, review_sheet_write, order=REVIEW_SHEET_ORDER)
