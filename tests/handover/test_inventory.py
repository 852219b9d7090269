"""The fabric's inventory as a user meets it: mark won, import serials and asset tags, statuses."""
from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from apps.designs.models import DeviceRecord
from apps.designs.models.records import record_id
from apps.handover.models import DeviceInventory, FabricHandover
from apps.reviews.services.review import version_review_act

from .dumps import as_zip, dump_files, swapped_and_missing

pytestmark = pytest.mark.django_db


def inventory_url(version):
    return reverse("handover:inventory", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


def approve(version, member):
    version_review_act(version=version, user=member, action="submit")
    version_review_act(version=version, user=version.design.project.owner, action="approve")


@pytest.fixture
def won(version, member, client_for_member):
    approve(version, member)
    response = client_for_member.post(inventory_url(version), {"action": "won"})
    assert response.status_code == 302
    return version


def csv_upload(text, name="inventory.csv"):
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def test_a_version_that_is_not_approved_cannot_be_marked_won(client_for_member, version):
    response = client_for_member.post(inventory_url(version), {"action": "won"})
    assert response.status_code == 400
    assert "Only an approved version can be marked won" in response.content.decode()
    assert not FabricHandover.objects.exists()


def test_an_approved_version_is_marked_won_and_lists_its_devices_as_planned(client_for_member, won):
    html = client_for_member.get(inventory_url(won)).content.decode()
    assert 'id="inventory-won"' in html and 'data-device="srv-00' in html
    links = won.links.count()
    assert f'<td class="num">{links}</td><td class="num">0</td><td class="num">0</td>' in html


def test_csv_import_sets_serials_and_asset_tags(client_for_member, won):
    leaf = DeviceRecord.objects.filter(version=won, role="leaf").order_by("index").first()
    text = f"device,serial,asset_tag\n{leaf.name},MT2301X00001,AT-0001\n"
    response = client_for_member.post(inventory_url(won), {"action": "import", "file": csv_upload(text)})
    assert response.status_code == 302
    html = client_for_member.get(inventory_url(won), {"q": leaf.name}).content.decode()
    assert "MT2301X00001" in html and "AT-0001" in html


def test_excel_import_reports_every_bad_row_and_column_and_imports_nothing(client_for_member, won):
    leaf = DeviceRecord.objects.filter(version=won, role="leaf").order_by("index").first()
    book = Workbook()
    sheet = book.active
    sheet.append(["Device", "Serial number", "Asset tag", "Status"])
    sheet.append([leaf.name, "SN-1", "AT-1", "installed"])
    sheet.append(["no-such-switch", "SN-2", "AT-2", ""])
    sheet.append([leaf.name, "SN-1", "", "broken"])
    data = io.BytesIO()
    book.save(data)
    upload = SimpleUploadedFile("inventory.xlsx", data.getvalue())
    response = client_for_member.post(inventory_url(won), {"action": "import", "file": upload})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Nothing was saved" in html
    assert "Row 3, column Device: no-such-switch is not a device of this design" in html
    assert f"Row 4, column Device: {leaf.name} is already on row 2" in html
    assert "Row 4, column Serial number: serial number SN-1 is already on row 2" in html
    assert "Row 4, column Status: must be planned, installed or verified, not broken" in html
    assert not DeviceInventory.objects.exists()


def test_asbuilt_check_of_a_won_version_sets_links_and_devices_verified(client_for_member, member_client, won):
    f, pairs = swapped_and_missing(won)
    url = reverse("handover:asbuilt", kwargs={"project_pk": won.design.project_id, "version_pk": won.pk})
    client_for_member.post(url, {"files": as_zip(dump_files(pairs))})
    body = member_client.get(reverse("api-version-inventory", kwargs={"pk": won.pk})).json()
    assert body["won"] is True
    assert body["link_status"] == {"planned": 1, "installed": 2, "verified": len(f) - 3}
    statuses = {d["name"]: d["status"] for d in body["devices"]}
    assert statuses[f.b_device[0]] == "installed"  # the leaf with the swapped pair
    assert "verified" in statuses.values()


def test_api_marks_links_installed_by_topology_key(member_client, won):
    url = reverse("api-version-inventory-links", kwargs={"pk": won.pk})
    response = member_client.post(url, {"links": [f"link:{record_id(won.pk, 3)}"], "status": "installed"},
                                  format="json")
    assert response.status_code == 200 and response.json() == {"updated": 1}
    assert FabricHandover.objects.get(version=won).link_status[3] == "i"
    bad = member_client.post(url, {"links": ["link:1"], "status": "installed"}, format="json")
    assert bad.status_code == 400 and "is not a link of this version" in bad.json()["links"][0]
    verified = member_client.post(url, {"links": [f"link:{record_id(won.pk, 3)}"], "status": "verified"},
                                  format="json")
    assert verified.status_code == 400


def test_api_import_before_won_is_refused(member_client, version):
    url = reverse("api-version-inventory-import", kwargs={"pk": version.pk})
    response = member_client.post(url, {"file": csv_upload("device,serial\nsrv-0000,X\n")}, format="multipart")
    assert response.status_code == 400 and "Mark the version won" in response.json()["file"][0]
