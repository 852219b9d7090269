"""What a design document is made of, whatever it is rendered to: chapters of blocks.

Chapters (apps.documents.chapters) build these from a version's stored figures; the PDF renderer
(render_pdf) and the Word renderer (render_docx) draw the same blocks, so both files hold the
same chapters, tables and pictures. Every text here is plain text: the renderers escape it (HTML)
or hand it to python-docx as text runs, so nothing a user typed becomes markup or a field.
"""
from __future__ import annotations

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
    items: list[str]


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
    widths: tuple[int, ...] = ()  # column widths in per cent (empty: equal)


@dataclass
class Figure:
    """A vector picture (a standalone SVG document) with its caption."""

    svg: str
    caption: str
    width_mm: float = 170.0


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
