"""Excel round trip of the catalog: export every kind to its own sheet, edit, import back.

The workbook has one sheet per kind (Manufacturers, Switches, NICs, Servers, Transceivers,
Cables, Fibers) whose first row holds the model field names, plus a README sheet that the
import ignores. The Switches sheet carries each switch's class (fabric, frontend, management) and its uplink group
(uplink_cages, uplink_form_factor, uplink_gbps, uplink_breakouts) beside the access cages; every
sheet carries `source` (data sheet title and URL); a Patch panels sheet holds the patch panels.
An empty power, ASIC or price cell means "not published", never 0. Import rules:
- sheets are matched by name (case-insensitive); a sheet may be left out;
- a column may be left out unless it is required for new rows; unknown columns are errors;
- references are by name (manufacturer) or SKU (default_nic); a new manufacturer must be on
  the Manufacturers sheet;
- every row of every sheet is checked first; one bad value anywhere and nothing is imported,
  and each problem is reported with its sheet, row and column.
"""
from __future__ import annotations

import zipfile
from decimal import Decimal
from io import BytesIO
from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.worksheet.datavalidation import DataValidation

from .kinds import KIND_BY_KEY, KIND_BY_SHEET, KINDS, MANUFACTURERS, CatalogKind
from .services import CatalogImportError, CatalogRow, ImportIssue, ImportResult, catalog_rows_upsert

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
README_SHEET = "README"
HEADER_FILL = PatternFill("solid", fgColor="1F3B5C")
HEADER_FONT = Font(bold=True, color="FFFFFF")
PRICE_FORMAT = "#,##0.00"
# Zip-bomb limits of an uploaded workbook, checked on the zip's declared sizes before parsing:
# the seed catalog's export expands to well under 1 MB at about 6:1; a 100,000-row catalog stays
# under 64 MB; sheet XML rarely compresses beyond 50:1, a bomb does by hundreds.
MAX_EXPANDED_BYTES = 64 * 2**20
MAX_COMPRESSION_RATIO = 100
RATIO_CHECKED_FROM_BYTES = 2**20
MAX_ZIP_ENTRIES = 1000


def _cell_value(item, column: str) -> Any:
    if column == "manufacturer":
        return item.manufacturer.name
    if column == "default_nic":
        return item.default_nic.sku if item.default_nic_id else None
    value = getattr(item, column)
    if column in ("breakouts", "uplink_breakouts", "fabrics", "compatible_vendors"):
        return ", ".join(value or [])
    if isinstance(value, str):
        # Rows saved before text was checked may hold characters a worksheet cannot store.
        return ILLEGAL_CHARACTERS_RE.sub("", value)
    return value


def _queryset(kind: CatalogKind):
    if kind is MANUFACTURERS:
        return kind.model.objects.order_by("name")
    related = ["manufacturer"] + (["default_nic"] if kind.key == "servers" else [])
    return kind.model.objects.select_related(*related).order_by("manufacturer__name", "sku")


def _write_readme(ws) -> None:
    lines = [
        _("fabricweb hardware catalog"),
        _("Exported %(when)s.") % {"when": timezone.now().strftime("%Y-%m-%d %H:%M UTC")},
        "",
        _("Edit the sheets and import the workbook back (Catalog page or POST /api/catalog/import/)."),
        _("Rows are matched by SKU (by name on the Manufacturers sheet): new SKUs are added, known ones updated."),
        _("Nothing is imported if any row is bad; each problem is reported with its sheet, row and column."),
        _("Breakouts are written as 1x800G, 2x400G, ...; the first is the switch's native mode."),
        _("switch_class is fabric, frontend or management; uplink_cages, uplink_form_factor, uplink_gbps and "
          "uplink_breakouts describe a front-end or management switch's uplink group beside its access cages."),
        _("Leave a power or ASIC figure empty when the vendor does not publish it; never write 0 for unknown. "
          "source names the data sheet (title and URL)."),
        _("fabrics (transceivers, cables, fibers) lists what the part is qualified for: ethernet, infiniband or "
          "both; compatible_vendors lists other switch vendors (manufacturers) the part is declared compatible "
          "with, separated by commas."),
        _("Prices marked price_is_example = TRUE are illustrations, not quotes."),
        _("This README sheet is ignored on import."),
    ]
    for row, line in enumerate(lines, start=1):
        ws.cell(row=row, column=1, value=line)
    ws["A1"].font = Font(bold=True, size=14)
    ws.column_dimensions["A"].width = 110


def _choice_validation(kind: CatalogKind, ws, rows: int) -> None:
    last_row = max(rows + 200, 500)  # room for rows added by hand
    for index, column in enumerate(kind.columns, start=1):
        field = kind.model._meta.get_field(column) if column not in ("manufacturer", "default_nic") else None
        options: list[str] = []
        if field is not None and getattr(field, "choices", None):
            options = [str(value) for value, _label in field.choices]
        elif column in ("price_is_example", "active"):
            options = ["TRUE", "FALSE"]
        if not options:
            continue
        validation = DataValidation(type="list", formula1='"' + ",".join(options) + '"', allow_blank=True)
        validation.error = _("Choose one of: %(options)s") % {"options": ", ".join(options)}
        validation.showErrorMessage = True
        letter = get_column_letter(index)
        validation.add(f"{letter}2:{letter}{last_row}")
        ws.add_data_validation(validation)


def catalog_export_workbook() -> bytes:
    """The whole catalog (active and inactive items) as an .xlsx workbook."""
    wb = Workbook()
    _write_readme(wb.active)
    wb.active.title = README_SHEET
    for kind in KINDS:
        ws = wb.create_sheet(kind.sheet)
        ws.append(list(kind.columns))
        widths = [len(c) + 2 for c in kind.columns]
        count = 0
        for item in _queryset(kind):
            values = [_cell_value(item, column) for column in kind.columns]
            count += 1
            for index, value in enumerate(values, start=1):
                cell = ws.cell(row=count + 1, column=index, value=value)
                if isinstance(value, str):
                    cell.data_type = "s"  # a name starting with "=" stays text, never a formula
            for i, value in enumerate(values):
                widths[i] = max(widths[i], min(len(str(value if value is not None else "")) + 2, 60))
        for index, column in enumerate(kind.columns, start=1):
            cell = ws.cell(row=1, column=index)
            cell.font, cell.fill = HEADER_FONT, HEADER_FILL
            cell.alignment = Alignment(horizontal="center")
            ws.column_dimensions[get_column_letter(index)].width = max(10, widths[index - 1])
            if column == "list_price":
                for row in range(2, count + 2):
                    ws.cell(row=row, column=index).number_format = PRICE_FORMAT
        ws.freeze_panes = "B2"
        ws.auto_filter.ref = f"A1:{get_column_letter(len(kind.columns))}{count + 1}"
        _choice_validation(kind, ws, count)
    buffer = BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _sheet_kind(title: str) -> CatalogKind | None:
    key = title.strip().lower()
    return KIND_BY_SHEET.get(key) or KIND_BY_KEY.get(key)


def _expansion_check(data: bytes) -> None:
    """Refuse a zip bomb before openpyxl inflates it: cap the declared sizes and the compression ratio.

    The sizes come from the zip's central directory; zipfile stops reading an entry at its declared
    size (and fails its CRC), so a lying entry cannot expand past the cap either.
    """
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return  # not a zip: openpyxl reports it as "not an Excel workbook"
    total = sum(info.file_size for info in entries)
    ratio = max((info.file_size / max(info.compress_size, 1) for info in entries
                 if info.file_size > RATIO_CHECKED_FROM_BYTES), default=0)
    if total > MAX_EXPANDED_BYTES or ratio > MAX_COMPRESSION_RATIO or len(entries) > MAX_ZIP_ENTRIES:
        raise CatalogImportError([ImportIssue(
            "", None, "",
            _("This workbook expands to %(size)s MB (at most %(max)s MB, compressed at most %(ratio)s:1): "
              "export the catalog again or split the file.")
            % {"size": f"{total / 2**20:,.0f}", "max": MAX_EXPANDED_BYTES // 2**20, "ratio": MAX_COMPRESSION_RATIO},
        )])


def workbook_rows(*, data: bytes) -> tuple[list[CatalogRow], list[str]]:
    """Rows of every catalog sheet, and warnings; CatalogImportError for a malformed workbook or header."""
    _expansion_check(data)
    try:
        wb = load_workbook(BytesIO(data), read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError):
        raise CatalogImportError([ImportIssue(
            "", None, "", _("This is not an Excel .xlsx workbook. Export the catalog to get a template."),
        )]) from None
    issues: list[ImportIssue] = []
    rows: list[CatalogRow] = []
    warnings: list[str] = []
    found = False
    try:
        for ws in wb.worksheets:
            kind = _sheet_kind(ws.title)
            if kind is None:
                if ws.title.strip().lower() != README_SHEET.lower():
                    warnings.append(_('Sheet "%(sheet)s" is not a catalog sheet and was ignored.') % {"sheet": ws.title})
                continue
            found = True
            sheet_rows = ws.iter_rows(values_only=True)
            header = next(sheet_rows, None)
            columns = _header_columns(kind, ws.title, header or (), issues)
            if columns is None:
                continue
            for number, values in enumerate(sheet_rows, start=2):
                cells = {}
                record: dict[str, Any] = {}
                for index, column in columns.items():
                    value = values[index] if index < len(values) else None
                    record[column] = value
                    cells[column] = f"{get_column_letter(index + 1)}{number}"
                if all(v is None or (isinstance(v, str) and not v.strip()) for v in record.values()):
                    continue
                rows.append(CatalogRow(kind, ws.title, number, record, cells))
    finally:
        wb.close()
    if not found:
        issues.append(ImportIssue("", None, "", _("No catalog sheet found; expected sheets named %(names)s.")
                                  % {"names": ", ".join(k.sheet for k in KINDS)}))
    if issues:
        raise CatalogImportError(issues)
    return rows, warnings


def _header_columns(kind: CatalogKind, sheet: str, header: tuple, issues: list[ImportIssue]) -> dict[int, str] | None:
    """Column index -> field name from the header row, recording unknown, duplicate and missing columns."""
    columns: dict[int, str] = {}
    before = len(issues)
    for index, name in enumerate(header):
        if name is None or not str(name).strip():
            continue
        column = str(name).strip().lower()
        cell = f"{get_column_letter(index + 1)}1"
        if column not in kind.columns:
            issues.append(ImportIssue(sheet, 1, str(name), _("Unknown column; expected one of %(columns)s.")
                                      % {"columns": ", ".join(kind.columns)}, cell))
        elif column in columns.values():
            issues.append(ImportIssue(sheet, 1, column, _("This column appears twice."), cell))
        else:
            columns[index] = column
    for column in kind.required:
        if column not in columns.values():
            issues.append(ImportIssue(sheet, 1, column, _("Missing column.")))
    return columns if len(issues) == before else None


def catalog_import_workbook(*, data: bytes, user) -> ImportResult:
    """Import an edited catalog workbook (staff only), all or nothing, upserting by SKU."""
    if not getattr(user, "is_staff", False):
        raise PermissionDenied(_("Only staff can change the catalog."))
    rows, warnings = workbook_rows(data=data)
    if not rows:
        raise CatalogImportError([ImportIssue("", None, "", _("The workbook has no catalog rows."))])
    result = catalog_rows_upsert(rows=rows, create_manufacturers=False)
    result.warnings.extend(warnings)
    return result
