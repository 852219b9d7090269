from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from apps.catalog.excel import catalog_export_workbook
from apps.catalog.models import SwitchModel
from apps.catalog.services import catalog_seed_load
from tests.factories import StaffFactory, UserFactory

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def seeded(db):
    catalog_seed_load()


def signed_in(client, *, staff=False):
    client.force_login(StaffFactory() if staff else UserFactory())
    return client


def test_catalog_page_lists_every_kind_with_breakouts_and_example_prices(client, seeded):
    response = signed_in(client).get(reverse("catalog:index"))
    assert response.status_code == 200
    html = response.content.decode()
    for table in ("switches", "nics", "servers", "transceivers", "cables", "fibers"):
        assert f'id="table-{table}"' in html
    assert "Spectrum-4 SN5600" in html and "2x400G: 128" in html and "1x800G: 64" in html
    assert "example" in html
    assert "Import Excel" not in html  # staff only


def test_catalog_search_narrows_the_tables(client, seeded):
    response = signed_in(client).get(reverse("catalog:index"), {"q": "QM9700", "kind": "switches"})
    sections = response.context["sections"]
    assert [s["key"] for s in sections] == ["switches"]
    assert [i.sku for i in sections[0]["items"]] == ["MQM9700-NS2F"]


def test_anonymous_is_sent_to_login(client):
    response = client.get(reverse("catalog:index"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_staff_see_the_import_forms_and_export_downloads(client, seeded):
    signed_in(client, staff=True)
    html = client.get(reverse("catalog:index")).content.decode()
    assert "Import Excel" in html and "Import NetBox YAML" in html and "Export Excel" in html
    response = client.get(reverse("catalog:export"))
    assert response.status_code == 200 and response["Content-Type"] == XLSX
    assert "Switches" in load_workbook(BytesIO(response.content)).sheetnames


def test_staff_excel_import_success_redirects_with_a_message(client, seeded):
    signed_in(client, staff=True)
    wb = load_workbook(BytesIO(catalog_export_workbook()))
    ws = wb["Switches"]
    header = [c.value for c in ws[1]]
    ws.cell(2, header.index("list_price") + 1).value = 12345
    buffer = BytesIO()
    wb.save(buffer)
    upload = SimpleUploadedFile("c.xlsx", buffer.getvalue(), content_type=XLSX)
    response = client.post(reverse("catalog:import-excel"), {"file": upload}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("catalog:index")
    assert "1 updated" in response.content.decode()
    assert SwitchModel.objects.filter(list_price=12345).count() == 1


def test_staff_excel_import_errors_are_shown_in_place(client, seeded):
    signed_in(client, staff=True)
    wb = load_workbook(BytesIO(catalog_export_workbook()))
    ws = wb["NICs"]
    header = [c.value for c in ws[1]]
    ws.cell(3, header.index("port_gbps") + 1).value = -400
    buffer = BytesIO()
    wb.save(buffer)
    upload = SimpleUploadedFile("c.xlsx", buffer.getvalue(), content_type=XLSX)
    response = client.post(reverse("catalog:import-excel"), {"file": upload})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="excel-issues"' in html and 'data-sheet="NICs" data-row="3" data-column="port_gbps"' in html
    assert "Nothing was imported" in html


def test_staff_netbox_import_from_the_page_shows_the_changes_and_saves_them_on_confirm(client):
    signed_in(client, staff=True)
    text = "manufacturer: Arista\nmodel: 7060X6-64PE\npart_number: DCS-7060X6-64PE\nu_height: 2\n" \
           "comments: |\n  Two lines\n  of comments\ninterfaces:\n" + "".join(
               f"  - {{name: Ethernet{i}/1, type: 800gbase-x-osfp}}\n" for i in range(1, 65))
    upload = SimpleUploadedFile("arista.yaml", text.encode(), content_type="application/yaml")
    response = client.post(reverse("catalog:import-netbox"), {"files": [upload]})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="netbox-plan"' in html and 'data-sku="DCS-7060X6-64PE"' in html and "price missing" in html
    assert not SwitchModel.objects.exists()  # the preview saves nothing
    plan = response.context["plan"]
    # a browser sends the hidden copy back with CRLF line ends
    response = client.post(reverse("catalog:import-netbox-confirm"), {
        "digest": plan.digest, "source_name": ["arista.yaml"], "source_text": [text.replace("\n", "\r\n")]},
        follow=True)
    assert response.status_code == 200
    assert "NetBox device types imported: 2 created, 0 updated." in response.content.decode()  # with Arista
    assert SwitchModel.objects.get(sku="DCS-7060X6-64PE").cages == 64


def test_the_page_imports_the_good_files_when_the_refused_ones_are_skipped(client):
    signed_in(client, staff=True)
    good = "manufacturer: Dell\nmodel: S5248F-ON\nslug: s5248f-on\nu_height: 1\ninterfaces:\n" + "".join(
        f"  - {{name: Ethernet 1/1/{i}, type: 25gbase-x-sfp28}}\n" for i in range(1, 49)) + "".join(
        f"  - {{name: Ethernet 1/1/{i}, type: 100gbase-x-qsfp28}}\n" for i in range(49, 55))
    chassis = "manufacturer: Arista\nmodel: DCS-7504N\nslug: arista-dcs-7504n\nu_height: 7\nmodule-bays:\n" \
              "  - {name: Slot 3, label: Line Card, position: '3'}\n"
    uploads = [SimpleUploadedFile("s5248f.yaml", good.encode()), SimpleUploadedFile("7504n.yaml", chassis.encode())]
    response = client.post(reverse("catalog:import-netbox"), {"files": uploads})
    html = response.content.decode()
    assert 'data-file="7504n.yaml"' in html and "Line cards are not supported" in html
    assert "front-end / storage switch" in html
    data = {"digest": response.context["plan"].digest, "source_name": ["s5248f.yaml", "7504n.yaml"],
            "source_text": [good, chassis]}
    response = client.post(reverse("catalog:import-netbox-confirm"), data)
    assert response.status_code == 200 and "Skip them to import the others" in response.content.decode()
    assert not SwitchModel.objects.exists()
    response = client.post(reverse("catalog:import-netbox-confirm"), data | {"skip_refused": "on"}, follow=True)
    assert "7504n.yaml skipped: Line cards are not supported" in response.content.decode()
    switch = SwitchModel.objects.get(sku="s5248f-on")
    assert (switch.switch_class, switch.cages, switch.uplink_cages, switch.uplink_gbps) == ("frontend", 48, 6, 100)


def test_staff_netbox_import_errors_are_shown_in_place(client):
    signed_in(client, staff=True)
    response = client.post(reverse("catalog:import-netbox"), {"yaml": "model: [unclosed"})
    assert response.status_code == 200
    assert 'id="netbox-issues"' in response.content.decode()
    response = client.post(reverse("catalog:import-netbox"), {"yaml": ""})
    assert "Upload a YAML file or paste YAML text." in response.content.decode()
    assert not SwitchModel.objects.exists()


def test_non_staff_cannot_import_from_the_page(client):
    signed_in(client)
    assert client.post(reverse("catalog:import-netbox"), {"yaml": "x: 1"}).status_code == 403
    assert client.post(reverse("catalog:import-excel"), {}).status_code == 403


def test_switch_netbox_yaml_download(client, seeded):
    signed_in(client)
    switch = SwitchModel.objects.get(sku="MQM9700-NS2F")
    response = client.get(reverse("catalog:switch-netbox", args=[switch.pk]))
    assert response.status_code == 200 and b"part_number: MQM9700-NS2F" in response.content


def test_catalog_page_renders_in_chinese(client, seeded):
    signed_in(client)
    response = client.get(reverse("catalog:index"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    assert response["Content-Language"] == "zh-hans"
    assert 'lang="zh-hans"' in response.content.decode()


def test_catalog_scale_up_domain_counts_gpus_in_chinese(client, seeded):
    from apps.accounts.services import profile_set_language

    user = UserFactory()
    profile_set_language(user=user, language="zh-hans")
    client.force_login(user)
    html = client.get(reverse("catalog:index")).content.decode()
    assert "(8 个 GPU)" in html
    assert " GPUs)" not in html


def test_excel_upload_over_the_size_limit_is_refused_on_the_file_field(client, seeded, monkeypatch):
    monkeypatch.setattr("apps.catalog.forms.UPLOAD_LIMIT", 1024)
    signed_in(client, staff=True)
    upload = SimpleUploadedFile("big.xlsx", catalog_export_workbook(), content_type=XLSX)
    response = client.post(reverse("catalog:import-excel"), {"file": upload})
    assert response.status_code == 200
    assert [str(e) for e in response.context["excel_form"].errors["file"]] == ["The file is larger than 20 MB."]


def test_netbox_upload_over_the_size_limit_is_refused_on_the_files_field(client, monkeypatch):
    monkeypatch.setattr("apps.catalog.forms.UPLOAD_LIMIT", 10)
    signed_in(client, staff=True)
    upload = SimpleUploadedFile("big.yaml", b"manufacturer: Arista\n" * 10, content_type="application/yaml")
    response = client.post(reverse("catalog:import-netbox"), {"files": [upload]})
    assert response.status_code == 200
    assert [str(e) for e in response.context["netbox_form"].errors["files"]] == ["The file is larger than 20 MB."]
    assert not SwitchModel.objects.exists()
