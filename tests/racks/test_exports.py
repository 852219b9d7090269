"""The hall in the exports: the workbook's Racks sheet (one block per rack) and rack positions in NetBox."""
from __future__ import annotations

import csv
import io
import zipfile

import openpyxl
import pytest

from apps.exports.excel import version_workbook_write
from apps.exports.netbox import version_netbox_write
from apps.racks.models import Rack, RackItem
from tests.exports.test_exports import generate
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db


def test_workbook_racks_sheet_has_one_block_per_rack_top_to_bottom(hall_version, member, tmp_path):
    path = tmp_path / "hall.xlsx"
    version_workbook_write(version=hall_version, path_or_stream=str(path), user=member)
    book = openpyxl.load_workbook(path, read_only=True)
    assert "Racks" in book.sheetnames
    assert book.sheetnames.index("Racks") == book.sheetnames.index("ASN plan") + 1
    rows = [r for r in book["Racks"].iter_rows(values_only=True)]
    assert rows[0][:5] == ("Rack", "U", "Height (U)", "Face", "Name")
    racks = list(Rack.objects.filter(version=hall_version).order_by("id"))
    # A block: the rack's heading row (its name, then where it stands and its power), its items, an empty row.
    headings = [r for r in rows[2:] if r and r[0] and r[1] and isinstance(r[1], str)]
    assert [r[0] for r in headings] == [rack.name for rack in racks]
    assert "row 1 position 1" in headings[0][1] and "of 45.0 kW" in headings[0][1]
    first = racks[0]
    items = [r for r in rows if r and r[0] == first.name and isinstance(r[1], int)]
    expected = list(RackItem.objects.filter(rack_id=first.pk).order_by("-u").values_list("u", "name"))
    assert [(r[1], r[4]) for r in items] == expected
    assert all(r[9] >= 0 and r[10] >= r[9] for r in items)


def test_a_version_without_a_hall_has_no_racks_sheet(project, member, seed, django_capture_on_commit_callbacks,
                                                     tmp_path):
    version = generate(project, member, inputs(seed, gpus=64), django_capture_on_commit_callbacks, name="Old")
    Rack.objects.filter(version=version).delete()
    version.hall.delete()
    path = tmp_path / "old.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path), user=member)
    assert "Racks" not in openpyxl.load_workbook(path, read_only=True).sheetnames


def _rows(files: dict[str, str], key: str) -> list[dict]:
    rows = []
    for name in sorted(n for n in files if n.split("-", 1)[-1].startswith(f"{key}-part") or
                       n.split("-", 1)[-1] == f"{key}.csv"):
        rows += list(csv.DictReader(io.StringIO(files[name])))
    return rows


def test_netbox_racks_have_their_height_and_devices_their_rack_position_and_face(hall_version, tmp_path):
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=hall_version, path_or_stream=str(path), prefix="halla")
    with zipfile.ZipFile(path) as archive:
        files = {name.rsplit("/", 1)[-1]: archive.read(name).decode("utf-8") for name in archive.namelist()}
    racks = {row["name"]: row for row in _rows(files, "racks")}
    stored = dict(Rack.objects.filter(version=hall_version).values_list("name", "u_height"))
    assert {name: int(row["u_height"]) for name, row in racks.items()} == stored
    assert all(row["location"] == "halla" and row["status"] == "planned" for row in racks.values())
    devices = {row["name"]: row for row in _rows(files, "devices")}
    placed = RackItem.objects.filter(version=hall_version, kind="device").values_list("name", "rack__name", "u",
                                                                                      "face")
    for name, rack, u, face in placed:
        row = devices[f"halla-{name}"]
        assert (row["rack"], row["position"], row["face"]) == (rack, str(u), face)
    # Numbered files and the name prefix are kept (safe to import twice and beside another design).
    assert "05-racks.csv" in files and any(n.startswith("07-devices-part01") for n in files)
