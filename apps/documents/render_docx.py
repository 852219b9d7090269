"""The design document as an editable Word file (python-docx, https://python-docx.readthedocs.io/).

Rules:
- The same chapters and blocks as the PDF: Heading 1 per chapter, Heading 2 for sections, Word tables,
  bulleted lists, pictures.
- Pagination by keeping, not by hard breaks: the contents page and the first chapter start pages; later
  chapters follow on. Headings, lead lines and pictures keep with what follows; table rows do not split and
  header rows repeat; a short table (KEEP_TOGETHER_ROWS) stays on one page; a picture is never taller than PICTURE_MAX_HEIGHT, so it fits a page with its caption.
- Texts are python-docx text runs: nothing a user typed becomes a field, a hyperlink or markup.
- Pictures: the SVG of the PDF rasterised by CairoSVG to PNG (Word's own SVG support is not in the
  file format python-docx writes), in Noto Sans CJK SC so Chinese labels draw.
- The header of every page after the cover holds the running header; the footer the page number
  (a PAGE field). The table of contents is a TOC field whose stored result lists the chapters, so
  it reads right before Word or LibreOffice updates it with page numbers.
- East Asian text is set in Noto Sans CJK SC (w:eastAsia), Latin text in the document's font.
"""
from __future__ import annotations

import io
import logging
from typing import Any

from docx import Document as WordDocument
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Mm, Pt, RGBColor

from .model import Block, Bullets, Document, Figure, Heading, KeyValues, Paragraph, Table

logger = logging.getLogger(__name__)

LATIN_FONT = "Noto Sans"
CJK_FONT = "Noto Sans CJK SC"
RASTER_WIDTH_PX = 1600
PICTURE_WIDTH = Mm(165)
PICTURE_MAX_HEIGHT = Mm(165)  # a picture, its heading and caption fit on a page with room for a short table
KEEP_TOGETHER_ROWS = 20  # a table this short moves to the next page whole instead of leaving a few rows there
TEXT_WIDTH_MM = 178  # A4 less 16 mm margins


def _set_fonts(style) -> None:
    style.font.name = LATIN_FONT
    fonts = style.element.get_or_add_rPr().get_or_add_rFonts()
    fonts.set(qn("w:eastAsia"), CJK_FONT)
    fonts.set(qn("w:ascii"), LATIN_FONT)
    fonts.set(qn("w:hAnsi"), LATIN_FONT)


def _field(paragraph, instruction: str, result: str = "") -> None:
    """A complex field (PAGE, TOC) with a stored result."""
    def char(kind: str):
        run = paragraph.add_run()
        element = OxmlElement("w:fldChar")
        element.set(qn("w:fldCharType"), kind)
        if kind == "begin":
            element.set(qn("w:dirty"), "true")
        run._r.append(element)

    char("begin")
    run = paragraph.add_run()
    instr = OxmlElement("w:instrText")
    instr.set(qn("xml:space"), "preserve")
    instr.text = f" {instruction} "
    run._r.append(instr)
    char("separate")
    if result:
        paragraph.add_run(result)
    char("end")


def _png(svg: str) -> bytes | None:
    import cairosvg

    from apps.designs.api.topology.drawing import FONT

    svg = svg.replace(FONT, CJK_FONT)
    try:
        return cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=RASTER_WIDTH_PX, unsafe=False)
    except Exception:  # a picture that cannot be drawn leaves its caption, not a failed document
        logger.warning("a figure could not be rasterised", exc_info=True)
        return None


def _no_row_split(row, *, header: bool = False) -> None:
    """A table row stays on one page; a header row repeats at the top of every page the table spans."""
    properties = row._tr.get_or_add_trPr()
    properties.append(OxmlElement("w:cantSplit"))
    if header:
        properties.append(OxmlElement("w:tblHeader"))


def _table(word: Any, headers: list[str], rows: list[list[str]], *, numeric: tuple[int, ...] = (),
           bold_rows: set[int] | None = None, header_row: bool = True, widths: tuple[int, ...] = ()) -> None:
    bold_rows = bold_rows or set()
    table = word.add_table(rows=0, cols=len(headers) if headers else len(rows[0]))
    table.style = "Table Grid"
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    if widths:
        table.autofit = False
    if header_row:
        row = table.add_row()
        _no_row_split(row, header=True)
        for i, header in enumerate(headers):
            row.cells[i].text = ""
            paragraph = row.cells[i].paragraphs[0]
            paragraph.paragraph_format.keep_with_next = True  # never a header row alone at a page's foot
            run = paragraph.add_run(str(header))
            run.bold = True
            run.font.size = Pt(8)
            if i in numeric:
                paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    keep = len(rows) <= KEEP_TOGETHER_ROWS
    for r, values in enumerate(rows):
        row = table.add_row()
        _no_row_split(row)
        for i, value in enumerate(values):
            paragraph = row.cells[i].paragraphs[0]
            paragraph.paragraph_format.keep_with_next = keep and r < len(rows) - 1
            run = paragraph.add_run(str(value))
            run.font.size = Pt(8)
            run.bold = r in bold_rows
            if i in numeric:
                paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    if widths:
        for i, column in enumerate(table.columns):
            if i < len(widths):
                width = Mm(TEXT_WIDTH_MM * widths[i] / 100)
                column.width = width  # the table grid, which LibreOffice reads
                for cell in column.cells:
                    cell.width = width  # the cells, which Word reads
    gap = word.add_paragraph()  # the space after the table, kept small
    gap.paragraph_format.space_after = Pt(0)
    gap.paragraph_format.line_spacing = Pt(6)


def _picture_size(png: bytes) -> dict[str, Any]:
    """The picture's width, or its height when the full width would make it taller than PICTURE_MAX_HEIGHT."""
    import struct

    width, height = struct.unpack(">II", png[16:24])  # the PNG's IHDR chunk
    if width and height and PICTURE_WIDTH * height / width > PICTURE_MAX_HEIGHT:
        return {"height": PICTURE_MAX_HEIGHT}
    return {"width": PICTURE_WIDTH}


def _block(word: Any, block: Block) -> None:
    if isinstance(block, Paragraph):
        paragraph = word.add_paragraph()
        run = paragraph.add_run(block.text)
        if block.style == "lead":
            run.bold = True
            run.font.size = Pt(11)
            paragraph.paragraph_format.keep_with_next = True  # a lead line introduces what follows
        elif block.style == "note":
            run.font.size = Pt(8)
            run.font.color.rgb = RGBColor(0x5B, 0x66, 0x75)
        elif block.style == "warning":
            run.font.color.rgb = RGBColor(0xB9, 0x1C, 0x1C)
    elif isinstance(block, Heading):
        heading = word.add_heading(block.text, level=2)
        heading.paragraph_format.keep_with_next = True
    elif isinstance(block, Bullets):
        for item in block.items:
            word.add_paragraph(item, style="List Bullet")
    elif isinstance(block, KeyValues):
        _table(word, [], [[k, v] for k, v in block.rows], header_row=False, widths=(38, 62))
    elif isinstance(block, Table):
        first_total = len(block.rows) - block.total_rows
        bold = {r for r in range(len(block.rows)) if r >= first_total} | set(block.subtotal_rows)
        _table(word, block.headers, block.rows, numeric=block.numeric, bold_rows=bold,
               widths=block.column_widths())
    elif isinstance(block, Figure):
        png = _png(block.svg)
        if png is not None:
            word.add_picture(io.BytesIO(png), **_picture_size(png))
            picture = word.paragraphs[-1]
            picture.alignment = WD_ALIGN_PARAGRAPH.CENTER
            picture.paragraph_format.keep_with_next = True  # the caption stays under its picture
        caption = word.add_paragraph()
        run = caption.add_run(block.caption)
        run.italic = True
        run.font.size = Pt(8)
    else:
        raise TypeError(f"unknown block {type(block).__name__}")


def document_docx_write(*, document: Document, target: Any) -> None:
    word = WordDocument()
    for name in ("Normal", "Title", "Heading 1", "Heading 2", "List Bullet"):
        _set_fonts(word.styles[name])
    word.styles["Normal"].font.size = Pt(9.5)
    word.core_properties.title = f"{document.title} · {document.running_header}"
    word.core_properties.language = document.language
    section = word.sections[0]
    section.page_height, section.page_width = Mm(297), Mm(210)
    section.left_margin = section.right_margin = Mm(16)
    section.different_first_page_header_footer = True  # the cover has no header or number

    header = section.header.paragraphs[0]
    header.add_run(document.running_header).font.size = Pt(8)
    footer = section.footer.paragraphs[0]
    footer.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    footer.add_run(f"{document.page_label} ").font.size = Pt(8)
    _field(footer, "PAGE", "1")

    numbered = [chapter for chapter in document.chapters if not chapter.cover]
    for chapter in document.chapters:
        if chapter.cover:
            word.add_paragraph(chapter.title, style="Title")
            running = word.add_paragraph()
            running.add_run(document.running_header).font.size = Pt(12)
            for block in chapter.blocks:
                _block(word, block)
    word.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    word.add_paragraph().add_run(document.toc_title).bold = True
    toc = word.add_paragraph()
    _field(toc, 'TOC \\o "1-1" \\h \\z \\u',
           "\n".join(f"{i}. {chapter.title}" for i, chapter in enumerate(numbered, start=1)))
    for i, chapter in enumerate(numbered, start=1):
        heading = word.add_heading(f"{i}. {chapter.title}", level=1)
        # Chapters follow on from each other (a hard page break left near-empty pages after short chapter
        # ends); the heading keeps with its first block and a wide gap above marks the new chapter.
        heading.paragraph_format.page_break_before = i == 1
        heading.paragraph_format.keep_with_next = True
        heading.paragraph_format.space_before = Pt(28)
        for block in chapter.blocks:
            _block(word, block)
    word.save(target)

