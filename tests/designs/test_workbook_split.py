"""Issue 21, item 7: a table longer than a worksheet continues on numbered sheets with the same header and formats."""
from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from apps.designs import workbook
from apps.exports.excel import version_workbook_write
from apps.designs.workbook import Column, StreamingWorkbook
from tests.analysis.test_analysis import generated
from tests.exports.test_exports import recalculate

LIMIT = 10  # rows per sheet, header included, in these tests


@pytest.fixture
def small_sheets(monkeypatch):
    monkeypatch.setattr(workbook, "MAX_SHEET_ROWS", LIMIT)


def _write(path: Path, count: int, *, declared: int | None = None) -> Path:
    book = StreamingWorkbook(title="split")
    first = book.add_sheet("Summary")
    first.columns([Column("Label", 20)])
    first.append(["before"])
    sheet = book.add_sheet("Cabling")
    sheet.columns([Column("Link index", 10, "id"), Column("A device", 20), Column("Length (m)", 11, "metres")])
    sheet.stream(((i, f"srv-{i:04d}", i / 10) for i in range(count)), count=count if declared is None else declared)
    book.add_sheet("Loopbacks").columns([Column("Device", 20)])
    book.save(str(path))
    return path


def _tables(path: Path) -> dict[str, list[tuple]]:
    wb = openpyxl.load_workbook(path)
    return {ws.title: list(ws.iter_rows(values_only=True)) for ws in wb.worksheets}


def test_a_stream_longer_than_a_sheet_continues_on_numbered_sheets(small_sheets, tmp_path):
    count = 25  # 9 + 9 + 7 data rows
    path = _write(tmp_path / "split.xlsx", count)
    for opened in (path, recalculate([path], tmp_path / "lo")[0]):
        wb = openpyxl.load_workbook(opened)
        assert wb.sheetnames == ["Summary", "Cabling 1", "Cabling 2", "Cabling 3", "Loopbacks"]
        rows = []
        for title, data_rows in (("Cabling 1", 9), ("Cabling 2", 9), ("Cabling 3", 7)):
            ws = wb[title]
            values = list(ws.iter_rows(values_only=True))
            assert values[0] == ("Link index", "A device", "Length (m)")
            assert len(values) == data_rows + 1 <= LIMIT
            assert ws["A1"].font.b and ws["B2"].data_type == "s"
            assert ws["C2"].number_format == "0.0" and ws["A2"].number_format == "0"
            if opened == path:  # LibreOffice keeps the views of the active sheet only
                assert ws.freeze_panes == "A2" and ws.column_dimensions["B"].width == 20
                assert ws.auto_filter.ref == f"A1:C{data_rows + 1}"
            rows += values[1:]
        assert rows == [(i, f"srv-{i:04d}", pytest.approx(i / 10)) for i in range(count)]


def test_a_stream_that_fits_keeps_one_sheet_named_as_registered(small_sheets, tmp_path):
    path = _write(tmp_path / "fits.xlsx", LIMIT - 1)
    assert list(_tables(path)) == ["Summary", "Cabling", "Loopbacks"]


@pytest.mark.parametrize("streamed", [24, 26])
def test_a_split_stream_of_another_length_than_declared_is_an_error(small_sheets, tmp_path, streamed):
    with pytest.raises(RuntimeError, match="rows declared"):
        _write(tmp_path / "bad.xlsx", streamed, declared=25)


@pytest.mark.django_db
def test_design_workbook_splits_cabling_and_ip_plan_and_says_where_on_the_summary(
    member_client, project, seed, django_capture_on_commit_callbacks, member, tmp_path, monkeypatch
):
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks)
    monkeypatch.setattr(workbook, "MAX_SHEET_ROWS", 200)
    path = tmp_path / "fabric.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path), user=member)
    links = version.links.count()
    parts = -(-(links - 199) // 199) + 1
    wb = openpyxl.load_workbook(path)
    cabling = [f"Cabling {n}" for n in range(1, parts + 1)]
    ip_plan = [f"IP plan {n}" for n in range(1, parts + 1)]
    assert wb.sheetnames[:2] == ["Summary", "BOM"]
    assert wb.sheetnames[2:2 + 2 * parts] == cabling + ip_plan
    indexes = [row[0] for title in cabling for row in wb[title].iter_rows(min_row=2, values_only=True)]
    assert indexes == list(range(links))
    assert [wb[t]["A1"].value for t in cabling + ip_plan] == ["Link index"] * (2 * parts)
    summary = {row[0]: row[1] for row in wb["Summary"].iter_rows(values_only=True) if row and row[0]}
    assert summary["Cabling 1"] == f"rows 1 to 199 of {links:,}"
    assert summary[f"IP plan {parts}"] == f"rows {199 * (parts - 1) + 1:,} to {links:,} of {links:,}"
    reopened = openpyxl.load_workbook(recalculate([path], tmp_path / "lo")[0], read_only=True)
    assert reopened.sheetnames == wb.sheetnames


@pytest.mark.slow
def test_at_the_real_limit_the_first_sheet_ends_on_excels_last_row(tmp_path):
    """1,048,586 streamed rows: the first sheet holds the header and 1,048,575 rows, the next one the rest.

    Read as XML: openpyxl and LibreOffice take minutes over a million rows (the lowered-limit tests open the files).
    """
    import re
    import zipfile

    assert workbook.MAX_SHEET_ROWS == 1_048_576
    count = workbook.MAX_SHEET_ROWS + 10
    book = StreamingWorkbook()
    sheet = book.add_sheet("Cabling")
    sheet.columns([Column("Link index", 10, "id")])
    sheet.stream(((i,) for i in range(count)), count=count)
    path = tmp_path / "big.xlsx"
    book.save(str(path))
    with zipfile.ZipFile(path) as archive:
        with archive.open("xl/worksheets/sheet1.xml") as first:
            first.seek(max(archive.getinfo("xl/worksheets/sheet1.xml").file_size - 4096, 0))
            tail = first.read().decode()
        second = archive.read("xl/worksheets/sheet2.xml").decode()
        workbook_xml = archive.read("xl/workbook.xml").decode()
    assert re.findall(r'<row r="(\d+)">', tail)[-1] == "1048576"
    assert "<v>1048574</v></c></row></sheetData>" in tail
    assert re.findall(r'<row r="(\d+)">', second) == [str(r) for r in range(1, 13)]
    assert "<v>1048575</v>" in second and "<v>1048585</v>" in second
    assert 'name="Cabling 1"' in workbook_xml and 'name="Cabling 2"' in workbook_xml
    assert "'Cabling 2'!$A$1:$A$12" in workbook_xml  # its own auto-filter
