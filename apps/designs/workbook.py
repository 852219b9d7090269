"""A streaming .xlsx writer: openpyxl builds the workbook, rows are streamed into it.

Rules:
- openpyxl (write-only mode) writes everything but the rows: sheets, the style sheet, frozen
  panes, column widths, auto-filters (with their _FilterDatabase names), document properties
  and the "recalculate on load" flag. Rows, header included, are then streamed into each
  sheet's <sheetData> as inline strings and numbers. openpyxl's own cell writer costs about
  20 µs a cell on our machines and the 65,536-GPU Cabling and IP plan sheets hold about four
  million cells; this writer formats a typed column in well under a microsecond a cell.
- Styles form a fixed palette (`PALETTE`) registered with openpyxl before it saves, so every
  streamed cell can name its style by id.
- A formula cell carries its cached result, so viewers that never recalculate still show
  totals; Excel and LibreOffice recalculate the whole workbook on load (calcPr fullCalcOnLoad).
- A sheet's rows are counted when they are declared (the auto-filter range is written by
  openpyxl before the rows exist); a stream that yields another number of rows is an error.
- A worksheet holds at most MAX_SHEET_ROWS rows (Excel's limit, header included). A stream that
  would pass it continues on numbered sheets placed right after the first ("Cabling 1",
  "Cabling 2", ...), each with the same header, frozen pane, widths, formats and auto-filter;
  the parts share one iterator, written in order. `Sheet.parts` lists them (title, first and
  last data row of the table) so the Summary can say where each part is.
"""
from __future__ import annotations

import io
import itertools
import re
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import IO, Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter

# Rows are joined and written to the zip in chunks of this many.
CHUNK_ROWS = 4096
# Deflate level for streamed sheets: level 1 is several times faster than 6 and the file is
# only about 15% larger (sheet XML is very repetitive).
COMPRESS_LEVEL = 1
# Distinct values a streamed text column remembers escaped (unique values such as labels stop it filling).
TEXT_CACHE_SIZE = 20_000
MAX_TITLE = 31
# Rows of one worksheet, header included (Excel's and LibreOffice's limit); tests lower it.
MAX_SHEET_ROWS = 1_048_576

_HEADER_FILL = PatternFill("solid", fgColor="1F4E78")
_SECTION_FILL = PatternFill("solid", fgColor="DDEBF7")
_INPUT_FILL = PatternFill("solid", fgColor="FFF2CC")
_THIN = Side(style="thin", color="808080")

# name -> (number format, font, fill, alignment, border); numeric styles hold numbers.
PALETTE: dict[str, dict[str, Any]] = {
    "text": {},
    "header": {
        "font": Font(bold=True, color="FFFFFF"), "fill": _HEADER_FILL,
        "alignment": Alignment(vertical="center", wrap_text=True), "border": Border(bottom=_THIN),
    },
    "title": {"font": Font(bold=True, size=14)},
    "section": {"font": Font(bold=True), "fill": _SECTION_FILL},
    "bold": {"font": Font(bold=True)},
    "wrap": {"alignment": Alignment(wrap_text=True, vertical="top")},
    "note": {"font": Font(italic=True, color="595959")},
    "warning": {"font": Font(color="9C0006")},
    "ok": {"font": Font(color="006100")},
    "id": {"number_format": "0"},
    "int": {"number_format": "#,##0"},
    "metres": {"number_format": "0.0"},
    "decimal": {"number_format": "#,##0.0"},
    "ratio": {"number_format": "0.00"},
    "money": {"number_format": "#,##0.00"},
    "money_bold": {"number_format": "#,##0.00", "font": Font(bold=True), "border": Border(top=_THIN)},
    "input_int": {"number_format": "#,##0", "fill": _INPUT_FILL},
    "input_money": {"number_format": "#,##0.00", "fill": _INPUT_FILL},
    "input_percent": {"number_format": "0.00", "fill": _INPUT_FILL},
}
NUMERIC_STYLES = frozenset(name for name, spec in PALETTE.items() if "number_format" in spec)


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a sheet: header title, width in characters, and the palette style of its cells."""

    title: str
    width: float = 12
    style: str = "text"

    @property
    def numeric(self) -> bool:
        return self.style in NUMERIC_STYLES


@dataclass(frozen=True, slots=True)
class Formula:
    """A formula (without the leading "=") and its cached result."""

    text: str
    value: Any = None


@dataclass(frozen=True, slots=True)
class Styled:
    """One cell with a palette style other than its column's."""

    value: Any
    style: str


_SPACES = frozenset(" \t\r\n")


def _clean_text(value: str) -> str:
    if not value.isprintable():
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    if "&" in value or "<" in value or ">" in value:
        value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return value


def _text_xml(value: str) -> str:
    text = _clean_text(value)
    if text and (text[0] in _SPACES or text[-1] in _SPACES):
        return f'<is><t xml:space="preserve">{text}</t></is>'
    return f"<is><t>{text}</t></is>"


def _number_text(value: Any) -> str | None:
    if isinstance(value, Decimal):
        return None if not value.is_finite() else format(value, "f")
    number = float(value)
    if number != number or number in (float("inf"), float("-inf")):
        return None
    return str(value) if isinstance(value, int) else repr(number)


class Styles:
    """Palette style name -> cell style id (an index into the workbook's cellXfs)."""

    def __init__(self, ws) -> None:
        self.ids: dict[str, int] = {}
        for name, spec in PALETTE.items():
            cell = WriteOnlyCell(ws)
            for attr, value in spec.items():
                setattr(cell, attr, value)
            self.ids[name] = cell.style_id

    def attr(self, name: str) -> str:
        """The cell's ` s="n"` attribute ("" for the default style)."""
        style_id = self.ids[name]
        return f' s="{style_id}"' if style_id else ""


class Sheet:
    """One worksheet: set its columns, then append rows (small sheets) and/or stream them (large ones)."""

    def __init__(self, book: StreamingWorkbook, ws, title: str) -> None:
        self.book = book
        self.ws = ws
        self.title = title
        self.columns_: list[Column] = []
        self._parts: list[tuple] = []  # ("rows", [row, ...]) or ("stream", iterable, count, last part)
        self._rows = 0
        self._filter_from: int | None = None
        self._streamed = False
        self._freeze = True
        self._auto_filter = True
        # When a stream is split: [(sheet, first table row, last table row), ...], this sheet first.
        self.parts: list[tuple[Sheet, int, int]] = []

    # Layout -----------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """Rows declared so far; the next row appended is row_count + 1."""
        return self._rows

    def set_widths(self, widths: Sequence[float]) -> None:
        for index, width in enumerate(widths, start=1):
            self.ws.column_dimensions[get_column_letter(index)].width = width

    def columns(self, columns: Sequence[Column], *, freeze: bool = True, auto_filter: bool = True) -> None:
        """Write the styled header row now; freeze it and filter the table below it."""
        self.columns_ = list(columns)
        self._freeze, self._auto_filter = freeze, auto_filter
        self.set_widths([c.width for c in columns])
        self.append([Styled(c.title, "header") for c in columns])
        if freeze:
            self.ws.freeze_panes = f"A{self._rows + 1}"
        if auto_filter:
            self._filter_from = self._rows

    def end_table(self) -> None:
        """Rows appended from now on are below the filtered table (totals, notes)."""
        if self._filter_from is not None:
            self._set_filter(self._rows)

    def _set_filter(self, last_row: int) -> None:
        last_col = get_column_letter(max(1, len(self.columns_)))
        self.ws.auto_filter.ref = f"A{self._filter_from}:{last_col}{max(last_row, self._filter_from)}"
        self._filter_from = None

    # Rows -----------------------------------------------------------------------

    def append(self, values: Sequence[Any]) -> int:
        """Add one row of mixed values (str, numbers, Formula, Styled, None); returns its row number."""
        if self._streamed:
            raise RuntimeError(f"sheet {self.title!r}: rows cannot follow a stream")
        if not self._parts or self._parts[-1][0] != "rows":
            self._parts.append(("rows", []))
        self._parts[-1][1].append(values)
        self._rows += 1
        return self._rows

    def stream(self, rows: Iterable[Sequence[Any]], *, count: int) -> None:
        """Declare `count` rows that are produced while the file is written.

        Values are typed by column: numeric columns take int/float/Decimal, the others str;
        None leaves the cell empty. The stream is the sheet's last rows. Rows past MAX_SHEET_ROWS
        continue on numbered sheets after this one (see the module rules).
        """
        if not self.columns_:
            raise RuntimeError(f"sheet {self.title!r}: declare columns before streaming rows")
        room = MAX_SHEET_ROWS - self._rows
        if count <= room:
            self._parts.append(("stream", rows, count, True))
            self._rows += count
            self._streamed = True
            return
        if room < 1 or MAX_SHEET_ROWS < 2:
            raise RuntimeError(f"sheet {self.title!r}: no room for a streamed table")
        shared = iter(rows)
        base = self.title
        self.rename(_numbered(base, 1, self.book.titles(except_sheet=self)))
        sizes = [room]
        left = count - room
        while left > 0:
            sizes.append(min(left, MAX_SHEET_ROWS - 1))
            left -= sizes[-1]
        sheet, done = self, 0
        for number, size in enumerate(sizes, start=1):
            if number > 1:
                sheet = self.book.add_sheet(_numbered(base, number, self.book.titles()), after=sheet)
                sheet.columns(self.columns_, freeze=self._freeze, auto_filter=self._auto_filter)
            sheet._parts.append(("stream", shared, size, number == len(sizes)))
            sheet._rows += size
            sheet._streamed = True
            self.parts.append((sheet, done + 1, done + size))
            done += size

    def rename(self, title: str) -> None:
        self.title = self.ws.title = title

    def finalize(self) -> None:
        if self._filter_from is not None:
            self._set_filter(self._rows)

    # XML ------------------------------------------------------------------------

    def xml_chunks(self) -> Iterator[str]:
        styles = self.book.styles
        row = 0
        for part in self._parts:
            if part[0] == "rows":
                lines = []
                for values in part[1]:
                    row += 1
                    lines.append(self._row_xml(row, values, styles))
                yield "".join(lines)
            else:
                _, rows, count, last = part
                first = row + 1
                # A part of a split stream takes its share of the shared iterator; the last part
                # takes the rest, so a stream longer than declared is still an error.
                source = rows if last else itertools.islice(rows, count)
                for chunk_rows in _stream_rows(source, first, self._cell_writers(styles)):
                    row += chunk_rows[0]
                    yield chunk_rows[1]
                if row - first + 1 != count:
                    raise RuntimeError(f"sheet {self.title!r}: {count} rows declared, {row - first + 1} streamed")

    def _row_xml(self, row: int, values: Sequence[Any], styles: Styles) -> str:
        cells = []
        r = str(row)
        for index, value in enumerate(values):
            style = self.columns_[index].style if index < len(self.columns_) else "text"
            if isinstance(value, Styled):
                value, style = value.value, value.style
            cell = _cell_xml(f"{get_column_letter(index + 1)}{r}", value, styles.attr(style))
            if cell:
                cells.append(cell)
        return f'<row r="{r}">{"".join(cells)}</row>'

    def _cell_writers(self, styles: Styles) -> list[Callable[[Any, str], str]]:
        writers = []
        for index, column in enumerate(self.columns_):
            letter = get_column_letter(index + 1)
            attr = styles.attr(column.style)
            writers.append(_number_writer(letter, attr) if column.numeric else _text_writer(letter, attr))
        return writers


def _number_writer(letter: str, attr: str) -> Callable[[Any, str], str]:
    def write(value: Any, row: str) -> str:
        if type(value) is int:
            return f'<c r="{letter}{row}"{attr}><v>{value}</v></c>'
        text = _number_text(value)
        return "" if text is None else f'<c r="{letter}{row}"{attr}><v>{text}</v></c>'

    return write


def _text_writer(letter: str, attr: str) -> Callable[[Any, str], str]:
    # Most text columns repeat a few values (tiers, media, SKUs, racks, port names): escape each once.
    cache: dict[Any, str] = {}

    def write(value: Any, row: str) -> str:
        inner = cache.get(value)
        if inner is None:
            text = value if isinstance(value, str) else str(value)
            if not text:
                return ""
            inner = _text_xml(text)
            if len(cache) < TEXT_CACHE_SIZE:
                cache[value] = inner
        return f'<c r="{letter}{row}"{attr} t="inlineStr">{inner}</c>'

    return write


def _stream_rows(rows: Iterable[Sequence[Any]], first: int, writers) -> Iterator[tuple[int, str]]:
    """(rows in chunk, XML) for each chunk of CHUNK_ROWS rows, numbered from `first`."""
    lines: list[str] = []
    row = first
    for values in rows:
        r = str(row)
        cells = "".join([w(v, r) for w, v in zip(writers, values) if v is not None])
        lines.append(f'<row r="{r}">{cells}</row>')
        row += 1
        if len(lines) == CHUNK_ROWS:
            yield len(lines), "".join(lines)
            lines = []
    if lines:
        yield len(lines), "".join(lines)


def _cell_xml(ref: str, value: Any, attr: str) -> str:
    if value is None:
        return ""
    if isinstance(value, Formula):
        cached = value.value
        formula = _clean_text(value.text)
        if cached is None:
            return f'<c r="{ref}"{attr}><f>{formula}</f></c>'
        if isinstance(cached, str):
            return f'<c r="{ref}"{attr} t="str"><f>{formula}</f><v>{_clean_text(cached)}</v></c>'
        text = _number_text(cached)
        return f'<c r="{ref}"{attr}><f>{formula}</f>' + (f"<v>{text}</v>" if text is not None else "") + "</c>"
    if isinstance(value, bool):
        return f'<c r="{ref}"{attr} t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float, Decimal)):
        text = _number_text(value)
        return "" if text is None else f'<c r="{ref}"{attr}><v>{text}</v></c>'
    if isinstance(value, datetime):
        value = value.strftime("%Y-%m-%d %H:%M:%S %Z").strip()
    elif isinstance(value, date):
        value = value.isoformat()
    text = str(value)
    if not text:
        return ""
    return f'<c r="{ref}"{attr} t="inlineStr">{_text_xml(text)}</c>'


_SHEET_DATA = re.compile(rb"<sheetData\s*/>|<sheetData>\s*</sheetData>")


class StreamingWorkbook:
    """Sheets in the order added; `save()` writes the .xlsx to a path or a binary stream."""

    def __init__(self, *, title: str = "", creator: str = "fabricweb") -> None:
        self.wb = Workbook(write_only=True)
        self.wb.properties.creator = creator
        if title:
            self.wb.properties.title = title
        self.sheets: list[Sheet] = []
        self._styles: Styles | None = None

    @property
    def styles(self) -> Styles:
        if self._styles is None:
            raise RuntimeError("add a sheet first")
        return self._styles

    def titles(self, *, except_sheet: Sheet | None = None) -> set[str]:
        """Sheet titles in use, lower-cased."""
        return {s.title.lower() for s in self.sheets if s is not except_sheet}

    def add_sheet(self, title: str, *, after: Sheet | None = None) -> Sheet:
        """A new sheet at the end, or right after `after`."""
        title = safe_sheet_title(title, taken=self.titles())
        position = None if after is None else self.sheets.index(after) + 1
        ws = self.wb.create_sheet(title, None if after is None else self.wb.worksheets.index(after.ws) + 1)
        if self._styles is None:
            self._styles = Styles(ws)
        sheet = Sheet(self, ws, title)
        if position is None:
            self.sheets.append(sheet)
        else:
            self.sheets.insert(position, sheet)
        return sheet

    def remove_sheet(self, sheet: Sheet) -> None:
        """Leave a sheet out (its styles stay registered: ids are positions in the style sheet)."""
        self.sheets.remove(sheet)
        self.wb.remove(sheet.ws)

    def save(self, target: str | IO[bytes], *, on_sheet: Callable[[Sheet], None] | None = None) -> None:
        """Write the workbook; `on_sheet(sheet)` is called before each sheet's rows are streamed."""
        if not self.sheets:
            raise RuntimeError("a workbook needs at least one sheet")
        for sheet in self.sheets:
            sheet.finalize()
        skeleton = io.BytesIO()
        self.wb.save(skeleton)
        by_path = {sheet.ws.path.lstrip("/"): sheet for sheet in self.sheets}
        skeleton.seek(0)
        with zipfile.ZipFile(skeleton) as source, zipfile.ZipFile(
            target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL
        ) as out:
            for info in source.infolist():
                data = source.read(info.filename)
                sheet = by_path.get(info.filename)
                if sheet is None:
                    out.writestr(info.filename, data)
                    continue
                match = _SHEET_DATA.search(data)
                if match is None:
                    raise RuntimeError(f"no sheetData in {info.filename}")
                if on_sheet is not None:
                    on_sheet(sheet)
                with out.open(zip_entry(info.filename), "w", force_zip64=True) as stream:
                    stream.write(data[:match.start()] + b"<sheetData>")
                    for chunk in sheet.xml_chunks():
                        stream.write(chunk.encode("utf-8"))
                    stream.write(b"</sheetData>" + data[match.end():])


def zip_entry(name: str) -> zipfile.ZipInfo:
    """A deflated zip entry stamped now and readable by everyone once extracted."""
    info = zipfile.ZipInfo(name, date_time=time.localtime()[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


_TITLE_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")


def safe_sheet_title(title: str, *, taken: set[str] = frozenset()) -> str:
    """A valid, unused sheet title: no []:*?/\\, at most 31 characters, unique (case-insensitively)."""
    base = _TITLE_FORBIDDEN.sub("-", str(title)).strip().strip("'")[:MAX_TITLE] or "Sheet"
    candidate, n = base, 2
    while candidate.lower() in taken:
        suffix = f" ({n})"
        candidate = base[:MAX_TITLE - len(suffix)] + suffix
        n += 1
    return candidate


def _numbered(base: str, number: int, taken: set[str]) -> str:
    """"Cabling 2": the part number kept whole when the title must be cut to 31 characters."""
    suffix = f" {number}"
    return safe_sheet_title(base[:MAX_TITLE - len(suffix)].rstrip() + suffix, taken=taken)


def column_letter(index: int) -> str:
    """1 -> "A"."""
    return get_column_letter(index)


def sheet_ref(title: str, cell: str) -> str:
    """A reference to `cell` on sheet `title` for formulas: 'BOM'!$F$12."""
    return "'" + title.replace("'", "''") + "'!" + cell


def flat_items(prefix: str, value: Any) -> Iterator[tuple[str, Any]]:
    """(dotted key, value) pairs of nested settings, lists joined with ", ": one row each on a sheet."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from flat_items(f"{prefix}.{key}" if prefix else str(key), inner)
    elif isinstance(value, (list, tuple)):
        yield prefix, ", ".join(str(v) for v in value)
    else:
        yield prefix, value
