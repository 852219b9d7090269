"""What a design document is made of, whatever it is rendered to: chapters of blocks.

Chapters (apps.documents.chapters) build these from a version's stored figures; the PDF renderer
(render_pdf) and the Word renderer (render_docx) draw the same blocks, so both files hold the
same chapters, tables and pictures. Every text here is plain text: the renderers escape it (HTML)
or hand it to python-docx as text runs, so nothing a user typed becomes markup or a field.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field


@dataclass
class Paragraph:
    text: str
    style: str = ""  # "lead" (larger), "note" (small, grey), "warning"


@dataclass
class Heading:
    """A section heading inside a chapter."""

    text: str


@dataclass
class Bullets:
    """A list whose items are said once: an item repeated (the same note from two collectives) is dropped."""

    items: list[str]

    def __post_init__(self) -> None:
        self.items = list(dict.fromkeys(self.items))


@dataclass
class KeyValues:
    """Two-column rows: a label and its value."""

    rows: list[tuple[str, str]]


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    numeric: tuple[int, ...] = ()  # right-aligned columns
    total_rows: int = 0  # the last n rows are totals (bold)
    subtotal_rows: tuple[int, ...] = ()  # indices of subtotal rows (bold)
    caption: str = ""
    widths: tuple[int, ...] = ()  # column widths in per cent (empty: from the contents, column_widths)

    def column_widths(self) -> tuple[int, ...]:
        """The widths in per cent: the stated ones, else shares by the columns' contents (text_width)."""
        if self.widths:
            return self.widths
        return column_widths(self.headers, self.rows, self.numeric)


@dataclass
class Figure:
    """A vector picture (a standalone SVG document) with its caption."""

    svg: str
    caption: str
    width_mm: float = 170.0


def text_width(text: str) -> float:
    """Width of a text in ems of its font size: wide (CJK) characters one em, the others about 0.56."""
    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.56 for ch in str(text))


def _longest_word(text: str) -> float:
    return max((text_width(word) for word in str(text).split()), default=0.0)


# A column wants its longest cell up to WANT_MAX ems; it never gets less than its longest unbreakable word (or a
# whole number, which does not wrap) up to WORD_MAX ems, so a header wraps between words but never runs into the next.
WANT_MAX, WORD_MAX, PAD = 30.0, 14.0, 1.2


def column_widths(headers: list[str], rows: list[list[str]], numeric: tuple[int, ...] = ()) -> tuple[int, ...]:
    columns = len(headers) if headers else max((len(row) for row in rows), default=0)
    if columns == 0:
        return ()
    want, floor = [], []
    for i in range(columns):
        cells = [str(row[i]) for row in rows if i < len(row)]
        header = str(headers[i]) if i < len(headers) else ""
        longest_cell = max((text_width(cell) for cell in cells), default=0.0)
        words = [_longest_word(header)] + [text_width(c) if i in numeric else _longest_word(c) for c in cells]
        floor.append(min(max(words), WORD_MAX) + PAD)
        want.append(max(min(max(longest_cell, text_width(header) / 2), WANT_MAX), floor[-1] - PAD) + PAD)
    total = sum(want)
    shares = [w / total for w in want]
    # Lift the columns below their floor, taking the room from the others in proportion.
    floor_total = sum(floor)
    floors = [f / max(total, floor_total) for f in floor]
    for _round in range(len(shares)):
        short = [i for i, s in enumerate(shares) if s < floors[i] - 1e-9]
        if not short:
            break
        needed = sum(floors[i] - shares[i] for i in short)
        rest = [i for i in range(columns) if i not in short and shares[i] > floors[i]]
        spare = sum(shares[i] - floors[i] for i in rest)
        if spare <= 0:
            break
        for i in short:
            shares[i] = floors[i]
        for i in rest:
            shares[i] -= needed * (shares[i] - floors[i]) / spare
    percents = [max(1, round(100 * s)) for s in shares]
    percents[percents.index(max(percents))] += 100 - sum(percents)
    return tuple(percents)


Block = Paragraph | Heading | Bullets | KeyValues | Table | Figure


@dataclass
class Chapter:
    key: str
    title: str
    blocks: list[Block] = field(default_factory=list)
    cover: bool = False  # the cover page: no number, not in the table of contents


@dataclass
class Document:
    title: str
    running_header: str  # customer and version, at the top of every page after the cover
    language: str  # "en" or "zh-hans"
    chapters: list[Chapter]
    toc_title: str = ""
    page_label: str = ""  # "Page" / "第"
