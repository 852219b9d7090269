"""The design document as PDF: HTML and CSS rendered by WeasyPrint (https://doc.courtbouillon.org/weasyprint/).

Rules:
- Every text is HTML-escaped; pictures are SVG documents embedded as data: URLs, drawn as vectors.
  The URL fetcher refuses anything but data: URLs, so a document never reaches the network or the
  disk, whatever a text holds.
- A4 pages; the cover has no header or number; every other page has the running header (customer,
  design and version, set from the cover by CSS `string-set`, so it is text, not CSS) and "page n / N".
- The table of contents takes its page numbers from `target-counter`; each chapter starts a page and
  is a PDF bookmark.
- Tables have fixed column widths from their contents (model.column_widths): a header wraps between its words
  inside its column, numbers never wrap (a figure with a note beside it, such as the parts it leaves out, does).
- Chinese text is set in Noto Sans CJK SC (Debian's fonts-noto-cjk), embedded as a subset; the English
  document names it as the fallback for Chinese names of customers and designs.
"""
from __future__ import annotations

import base64
from typing import Any

from django.utils.html import escape

from .model import Block, Bullets, Chapter, Document, Figure, Heading, KeyValues, Paragraph, Table

FONTS = {
    "zh-hans": '"Noto Sans CJK SC", "Noto Sans", "DejaVu Sans", sans-serif',
    "en": '"Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", sans-serif',
}
HTML_LANG = {"zh-hans": "zh-Hans", "en": "en"}

CSS = """
@page { size: A4; margin: 24mm 16mm 20mm 16mm;
  @top-left { content: string(running); font-size: 8pt; color: #5b6675; }
  @top-right { content: string(chapter); font-size: 8pt; color: #5b6675; }
  @bottom-right { content: counter(page) " / " counter(pages); font-size: 8pt; color: #5b6675; }
}
@page cover { @top-left { content: none; } @top-right { content: none; } @bottom-right { content: none; } }
html { font-family: FONTS; font-size: 9.5pt; line-height: 1.4; color: #1d2430; }
.cover { page: cover; padding-top: 45mm; }
.cover h1 { font-size: 24pt; margin: 0 0 10mm 0; bookmark-level: 1; }
.cover .running { string-set: running content(); font-size: 12pt; color: #1d4ed8; margin-bottom: 10mm; }
h1.chapter { font-size: 17pt; break-before: page; string-set: chapter content(); margin: 0 0 5mm 0;
  bookmark-level: 1; border-bottom: 1.5pt solid #1d4ed8; padding-bottom: 2mm; }
h2 { font-size: 12pt; margin: 6mm 0 2mm 0; bookmark-level: 2; break-after: avoid; }
h1.toc-title { font-size: 17pt; break-before: page; margin: 0 0 5mm 0; }
ol.toc { list-style: none; padding: 0; margin: 0; }
ol.toc li { margin: 1.5mm 0; }
ol.toc a { color: #1d2430; text-decoration: none; }
ol.toc a::after { content: leader('.') target-counter(attr(href), page); }
p.lead { font-size: 11pt; font-weight: bold; }
p.note { font-size: 8pt; color: #5b6675; }
p.warning { color: #b91c1c; }
table { border-collapse: collapse; table-layout: fixed; width: 100%; margin: 2mm 0 4mm 0; font-size: 8pt; }
th, td { border: 0.5pt solid #c7cfd9; padding: 1mm 1.5mm; text-align: left; vertical-align: top; }
thead th { background: #eef2f7; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th { overflow-wrap: break-word; hyphens: manual; }
td.num { text-align: right; white-space: nowrap; }
td.num.note { white-space: normal; }
th.num { text-align: right; }
tr.total td, tr.subtotal td { font-weight: bold; }
tr.total td { background: #eef2f7; }
table.kv th { width: 38%; background: #f7f9fb; font-weight: normal; color: #3d4756; }
figure { margin: 3mm 0 5mm 0; break-inside: avoid; text-align: center; }
figure img { max-width: 100%; max-height: 205mm; }
figcaption { font-size: 8pt; color: #5b6675; margin-top: 1.5mm; }
td { overflow-wrap: anywhere; }
"""


def _svg_data_url(svg: str) -> str:
    svg = svg.lstrip()
    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:]
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _table(block: Table) -> str:
    numeric = set(block.numeric)
    head = "".join(f'<th{" class=num" if i in numeric else ""}>{escape(h)}</th>' for i, h in enumerate(block.headers))
    body = []
    first_total = len(block.rows) - block.total_rows
    subtotals = set(block.subtotal_rows)
    for r, row in enumerate(block.rows):
        cls = " class=total" if r >= first_total else (" class=subtotal" if r in subtotals else "")
        cells = "".join(f'<td{_num_class(cell) if i in numeric else ""}>{escape(cell)}</td>' for i, cell in enumerate(row))
        body.append(f"<tr{cls}>{cells}</tr>")
    caption = f"<caption>{escape(block.caption)}</caption>" if block.caption else ""
    columns = "".join(f'<col style="width: {width}%">' for width in block.column_widths())
    columns = f"<colgroup>{columns}</colgroup>" if columns else ""
    return f"<table>{caption}{columns}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def block_html(block: Block) -> str:
    if isinstance(block, Paragraph):
        cls = f' class="{block.style}"' if block.style else ""
        return f"<p{cls}>{escape(block.text)}</p>"
    if isinstance(block, Heading):
        return f"<h2>{escape(block.text)}</h2>"
    if isinstance(block, Bullets):
        return "<ul>" + "".join(f"<li>{escape(item)}</li>" for item in block.items) + "</ul>"
    if isinstance(block, KeyValues):
        rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in block.rows)
        return f'<table class="kv"><colgroup><col style="width: 38%"><col></colgroup><tbody>{rows}</tbody></table>'
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Figure):
        return (f'<figure><img src="{_svg_data_url(block.svg)}" alt="{escape(block.caption)}" '
                f'style="width: {block.width_mm:.0f}mm"><figcaption>{escape(block.caption)}</figcaption></figure>')
    raise TypeError(f"unknown block {type(block).__name__}")


def _num_class(cell: str) -> str:
    """A number stays on one line; a figure with words beside it ("≥ 1,200 (missing: A, B)") wraps in its column."""
    return ' class="num note"' if len(str(cell)) > 24 and " " in str(cell) else " class=num"


def _chapter_html(chapter: Chapter, number: int) -> str:
    blocks = "".join(block_html(block) for block in chapter.blocks)
    return (f'<section id="ch-{escape(chapter.key)}"><h1 class="chapter">{number}. {escape(chapter.title)}</h1>'
            f"{blocks}</section>")


def document_html(document: Document) -> str:
    parts = []
    numbered = [chapter for chapter in document.chapters if not chapter.cover]
    for chapter in document.chapters:
        if chapter.cover:
            parts.append(f'<section class="cover"><h1>{escape(chapter.title)}</h1>'
                         f'<div class="running">{escape(document.running_header)}</div>'
                         + "".join(block_html(block) for block in chapter.blocks) + "</section>")
    toc = "".join(f'<li><a href="#ch-{escape(chapter.key)}">{i}. {escape(chapter.title)}</a></li>'
                  for i, chapter in enumerate(numbered, start=1))
    parts.append(f'<h1 class="toc-title">{escape(document.toc_title)}</h1><ol class="toc">{toc}</ol>')
    parts += [_chapter_html(chapter, i) for i, chapter in enumerate(numbered, start=1)]
    css = CSS.replace("FONTS", FONTS.get(document.language, FONTS["en"]))
    return (f'<!DOCTYPE html><html lang="{HTML_LANG.get(document.language, "en")}"><head><meta charset="utf-8">'
            f"<title>{escape(document.title)} · {escape(document.running_header)}</title><style>{css}</style></head>"
            f"<body>{''.join(parts)}</body></html>")


def document_pdf_write(*, document: Document, target: Any) -> None:
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher

    # data: URLs only (the pictures): nothing from the network or the disk, whatever a text holds.
    fetcher = URLFetcher(allowed_protocols={"data"}, allow_redirects=False)
    HTML(string=document_html(document), url_fetcher=fetcher, base_url=None).write_pdf(target)
