"""The design document as its reader gets it: every chapter, the customer, the BOM total to the cent,
Chinese in an embedded CJK font, an editable Word file LibreOffice opens, user text as text."""
from __future__ import annotations

import re
from decimal import Decimal

import docx
import pypdf
import pytest

from .conftest import COMMENT, CUSTOMER, soffice_convert

pytestmark = pytest.mark.django_db


def pdf_text(path) -> str:
    reader = pypdf.PdfReader(str(path))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def flat(text: str) -> str:
    """Extracted text without line breaks and hyphenation differences, for phrases that may wrap."""
    return re.sub(r"\s+", "", text)


def pdf_fonts(path) -> set[str]:
    names = set()
    for page in pypdf.PdfReader(str(path)).pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for font in fonts.values():
            font = font.get_object()
            names.add(str(font.get("/BaseFont")))
            for descendant in font.get("/DescendantFonts") or []:
                descriptor = descendant.get_object().get("/FontDescriptor")
                if descriptor is not None and descriptor.get_object().get("/FontFile2", descriptor.get_object().get(
                        "/FontFile3")) is not None:
                    names.add("embedded:" + str(descendant.get_object().get("/BaseFont")))
    return names


def money(total: str, currency: str) -> str:
    return f"{Decimal(total):,.2f} {currency}"


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_pdf_holds_every_chapter_the_customer_and_the_api_bom_total(documents, language):
    text = flat(pdf_text(documents.files[f"{language}.pdf"]))

    for title in documents.chapter_titles[language]:
        assert flat(title) in text, title
    assert flat(CUSTOMER) in text
    assert flat(money(documents.api_bom_total, documents.currency)) in text
    assert documents.currency == "EUR"


def test_the_two_languages_have_their_own_chapter_titles(documents):
    english, chinese = documents.chapter_titles["en"], documents.chapter_titles["zh-hans"]

    assert english[1] == "Executive summary" and "Bill of materials" in english
    assert chinese[1] == "执行摘要" and any("物料清单" in title for title in chinese)
    assert len(english) == len(chinese)


def test_the_chinese_pdf_embeds_a_cjk_font(documents):
    fonts = pdf_fonts(documents.files["zh-hans.pdf"])

    assert any("CJK" in name and name.startswith("embedded:") for name in fonts), fonts
    assert "执行摘要" in pdf_text(documents.files["zh-hans.pdf"])


def test_the_pdf_has_a_table_of_contents_page_numbers_and_the_running_header(documents):
    pages = [page.extract_text() for page in pypdf.PdfReader(str(documents.files["en.pdf"])).pages]

    assert "Contents" in pages[1] and re.search(r"1\. Executive summary \.+ ?\d+", pages[1])
    last = len(pages)
    assert f"{last} / {last}" in pages[-1]
    assert "Fabric A v1" in flat(pages[3]) or "FabricAv1" in flat(pages[3])
    assert flat(CUSTOMER) in flat(pages[3])


def test_user_text_is_text_in_the_pdf(documents):
    text = flat(pdf_text(documents.files["en.pdf"]))

    assert flat(COMMENT) in text  # shown as typed, tags and all: never markup
    assert flat("<b>Lab</b>") in text


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_word_file_opens_with_the_same_chapters(documents, language):
    document = docx.Document(str(documents.files[f"{language}.docx"]))
    headings = [p.text for p in document.paragraphs if p.style.name == "Heading 1"]
    titles = documents.chapter_titles[language]

    assert [re.sub(r"^\d+\. ", "", h) for h in headings] == titles[1:]
    everything = "\n".join(p.text for p in document.paragraphs) + "\n".join(
        cell.text for table in document.tables for row in table.rows for cell in row.cells)
    assert titles[0] in everything and CUSTOMER in everything
    assert money(documents.api_bom_total, documents.currency) in everything
    assert COMMENT in everything
    assert document.sections[0].header.paragraphs[0].text.startswith(CUSTOMER)
    assert document.inline_shapes, "the diagrams and charts are pictures in the Word file"


def test_libreoffice_converts_the_word_file_without_error(documents, tmp_path):
    result = soffice_convert(documents.files["zh-hans.docx"], tmp_path)

    converted = tmp_path / "zh-hans.pdf"
    assert result.returncode == 0, result.stderr
    assert converted.exists() and converted.stat().st_size > 0, result.stdout + result.stderr
    text = flat(pdf_text(converted))
    assert flat("执行摘要") in text and flat(CUSTOMER) in text


@pytest.mark.parametrize("language, spares_header, policy", [
    ("en", "Spares", "Spares policy: one cold spare of each switch model per 20 installed, rounded up; 2 % of "
                     "transceivers"),
    ("zh-hans", "备件", "备件策略：每种交换机型号每安装 20 台配一台冷备件，向上取整；光模块 2 %"),
])
def test_the_bom_chapter_shows_the_spares_of_each_line_and_the_policy(documents, language, spares_header, policy):
    from apps.designs.models import BomLineRecord

    document = docx.Document(str(documents.files[f"{language}.docx"]))
    table = next(t for t in document.tables if [c.text for c in t.rows[0].cells][:4][-1] == spares_header)
    rows = [[c.text for c in row.cells] for row in table.rows[1:]]
    lines = list(BomLineRecord.objects.filter(version_id=documents.version_id).order_by("index"))
    spares = {(line.category, line.sku): line.qty for line in lines if line.spare}
    switch = next(line for line in lines if line.category == "switch" and not line.spare)
    assert spares[("switch", switch.sku)] == -(-switch.qty // 20)  # the default: one per 20 of the model
    switch_row = next(row for row in rows if row[0] == switch.sku and not row[3] == "")
    assert switch_row[2] == f"{switch.qty:,}" and switch_row[3] == f"{spares[('switch', switch.sku)]:,}"
    text = flat("\n".join(p.text for p in document.paragraphs))
    assert flat(policy) in text
