from io import BytesIO

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from apps.catalog.excel import XLSX_CONTENT_TYPE, catalog_export_workbook
from apps.catalog.models import FiberCord, Manufacturer, NicModel, ServerModel, SwitchModel, Transceiver
from apps.catalog.services import catalog_seed_load

pytestmark = pytest.mark.django_db


def workbook_bytes(wb) -> BytesIO:
    buffer = BytesIO()
    wb.save(buffer)
    buffer.seek(0)
    buffer.name = "catalog.xlsx"
    return buffer


def column(ws, name: str) -> int:
    return [c.value for c in ws[1]].index(name) + 1


def row_of(ws, sku: str) -> int:
    sku_col = column(ws, "sku")
    return next(r for r in range(2, ws.max_row + 1) if ws.cell(r, sku_col).value == sku)


@pytest.fixture
def seeded(db):
    catalog_seed_load()


@pytest.fixture
def exported(seeded, user_client):
    response = user_client.get(reverse("catalog-export"))
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX_CONTENT_TYPE
    return load_workbook(BytesIO(response.content))


def test_export_has_one_styled_sheet_per_kind(exported):
    assert exported.sheetnames == ["README", "Manufacturers", "Switches", "NICs", "Servers", "Transceivers",
                                   "Cables", "Fibers", "Patch panels"]
    ws = exported["Switches"]
    header = [c.value for c in ws[1]]
    assert header[:3] == ["sku", "manufacturer", "model"] and "breakouts" in header and "list_price" in header
    assert ws.freeze_panes == "B2"
    assert ws.auto_filter.ref.startswith("A1:")
    assert ws["A1"].font.bold
    assert ws.max_row == 1 + SwitchModel.objects.count()
    sn5600 = row_of(ws, "920-9N42F-00RI-7C0")
    assert ws.cell(sn5600, column(ws, "breakouts")).value == "1x800G, 2x400G, 4x200G"
    assert ws.cell(sn5600, column(ws, "manufacturer")).value == "NVIDIA"


def test_excel_round_trip_changes_a_price(exported, staff_client):
    ws = exported["Switches"]
    ws.cell(row_of(ws, "DCS-7060X6-64PE"), column(ws, "list_price")).value = 61234.5
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["updated"] == {"switches": 1}
    assert body["total_created"] == 0
    assert str(SwitchModel.objects.get(sku="DCS-7060X6-64PE").list_price) == "61234.50"


def test_excel_round_trip_carries_built_in_nics_cages_and_flat_tops(exported, staff_client):
    servers = exported["Servers"]
    dgx = row_of(servers, "DGXH-G640F+P2EDI36")
    assert servers.cell(dgx, column(servers, "backend_nics_built_in")).value is True
    assert servers.cell(dgx, column(servers, "backend_ports_per_cage")).value == 2
    h200 = row_of(servers, "SYS-821GE-TNHR")
    servers.cell(h200, column(servers, "backend_nics_built_in")).value = True
    optics = exported["Transceivers"]
    assert optics.cell(row_of(optics, "MMA4Z00-NS-FLT"), column(optics, "flat_top")).value is True
    optics.cell(row_of(optics, "MMA4Z00-NS"), column(optics, "flat_top")).value = True
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["updated"] == {"servers": 1, "transceivers": 1}
    assert ServerModel.objects.get(sku="SYS-821GE-TNHR").backend_nics_built_in
    assert Transceiver.objects.get(sku="MMA4Z00-NS").flat_top


def test_excel_round_trip_carries_the_switch_fabric(exported, staff_client):
    switches = exported["Switches"]
    assert switches.cell(row_of(switches, "MQM9700-NS2F"), column(switches, "fabric")).value == "infiniband"
    assert switches.cell(row_of(switches, "DCS-7060X6-64PE"), column(switches, "fabric")).value == "ethernet"
    switches.cell(row_of(switches, "DCS-7060X6-64PE"), column(switches, "fabric")).value = "infiniband"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["updated"] == {"switches": 1}
    assert SwitchModel.objects.get(sku="DCS-7060X6-64PE").fabric == "infiniband"


def test_an_unknown_fabric_is_a_cell_error(exported, staff_client):
    switches = exported["Switches"]
    row = row_of(switches, "MQM9700-NS2F")
    switches.cell(row, column(switches, "fabric")).value = "omni-path"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 400
    assert {(e["sheet"], e["row"], e["column"]) for e in response.json()["errors"]} == {("Switches", row, "fabric")}
    assert SwitchModel.objects.get(sku="MQM9700-NS2F").fabric == "infiniband"


def test_excel_round_trip_carries_fabrics_and_compatible_vendors(exported, staff_client):
    optics = exported["Transceivers"]
    row = row_of(optics, "QDD-400G-DR4")
    assert optics.cell(row, column(optics, "fabrics")).value == "ethernet"
    assert optics.cell(row_of(optics, "MMA4Z00-NS"), column(optics, "fabrics")).value == "ethernet, infiniband"
    optics.cell(row, column(optics, "compatible_vendors")).value = "NVIDIA, Dell"
    cords = exported["Fibers"]
    cords.cell(row_of(cords, "FIB-OS2-LC-DX-1M"), column(cords, "fabrics")).value = "Ethernet"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["updated"] == {"transceivers": 1, "fibers": 1}
    assert Transceiver.objects.get(sku="QDD-400G-DR4").compatible_vendors == ["NVIDIA", "Dell"]
    assert FiberCord.objects.get(sku="FIB-OS2-LC-DX-1M").fabrics == ["ethernet"]


def test_bad_fabrics_and_unknown_compatible_vendors_are_cell_errors_and_nothing_is_imported(exported, staff_client):
    optics, cables = exported["Transceivers"], exported["Cables"]
    row, cable_row = row_of(optics, "QDD-400G-DR4"), row_of(cables, "OSFP-800G-AOC-10M")
    optics.cell(row, column(optics, "fabrics")).value = "ethernet, omni-path"
    cables.cell(cable_row, column(cables, "fabrics")).value = None
    cables.cell(cable_row, column(cables, "compatible_vendors")).value = "Nobody Inc"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 400
    assert {(e["sheet"], e["row"], e["column"]) for e in response.json()["errors"]} == {
        ("Transceivers", row, "fabrics"), ("Cables", cable_row, "fabrics"), ("Cables", cable_row, "compatible_vendors")}
    assert Transceiver.objects.get(sku="QDD-400G-DR4").fabrics == ["ethernet"]


def test_a_cage_size_that_does_not_divide_the_backend_ports_is_a_cell_error(exported, staff_client):
    servers = exported["Servers"]
    row = row_of(servers, "SYS-821GE-TNHR")
    servers.cell(row, column(servers, "backend_ports")).value = 7
    servers.cell(row, column(servers, "backend_ports_per_cage")).value = 2
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 400
    assert {(e["sheet"], e["row"], e["column"]) for e in response.json()["errors"]} == {
        ("Servers", row, "backend_ports_per_cage")}


def test_unchanged_export_imports_as_no_change(exported, staff_client):
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 200
    assert response.json()["total_updated"] == 0 and response.json()["total_created"] == 0


def test_new_rows_and_manufacturers_are_added(exported, staff_client):
    exported["Manufacturers"].append(["Celestica", "celestica"])
    nics = exported["NICs"]
    header = [c.value for c in nics[1]]
    values = {"sku": "NEW-NIC-1", "manufacturer": "Celestica", "model": "Test 400G", "ports": 1, "port_gbps": 400,
              "form_factor": "qsfp112", "list_price": 999, "price_is_example": "yes"}
    nics.append([values.get(h) for h in header])
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 200, response.json()
    nic = NicModel.objects.get(sku="NEW-NIC-1")
    assert nic.manufacturer.name == "Celestica" and nic.form_factor == "QSFP112" and nic.price_is_example
    assert nic.currency == "USD" and nic.active


def test_two_bad_rows_are_both_reported_and_nothing_is_imported(exported, staff_client):
    switches = exported["Switches"]
    good = row_of(switches, "DCS-7060X6-64PE")
    switches.cell(good, column(switches, "list_price")).value = 1  # valid, must not be saved
    bad_switch = row_of(switches, "920-9N42F-00RI-7C0")
    switches.cell(bad_switch, column(switches, "breakouts")).value = "1x800G, 2x300G"
    optics = exported["Transceivers"]
    bad_optic = row_of(optics, "MMA4Z00-NS")
    optics.cell(bad_optic, column(optics, "reach_m")).value = "far"
    before = SwitchModel.objects.get(sku="DCS-7060X6-64PE").list_price

    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {(e["sheet"], e["row"], e["column"]) for e in errors} == {
        ("Switches", bad_switch, "breakouts"), ("Transceivers", bad_optic, "reach_m"),
    }
    letter = {e["column"]: e["cell"] for e in errors}
    assert letter["reach_m"].endswith(str(bad_optic)) and letter["reach_m"][0].isalpha()
    assert all(e["message"] for e in errors)
    assert SwitchModel.objects.get(sku="DCS-7060X6-64PE").list_price == before
    assert Transceiver.objects.get(sku="MMA4Z00-NS").reach_m == 50


def test_unknown_manufacturer_and_nic_references_are_row_errors(exported, staff_client):
    servers = exported["Servers"]
    row = row_of(servers, "DGXH-G640F+P2EDI36")
    servers.cell(row, column(servers, "manufacturer")).value = "Nobody Inc"
    servers.cell(row, column(servers, "default_nic")).value = "NO-SUCH-NIC"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 400
    assert {e["column"] for e in response.json()["errors"]} == {"manufacturer", "default_nic"}
    assert not Manufacturer.objects.filter(name="Nobody Inc").exists()


def test_duplicate_sku_in_a_sheet_is_reported(exported, staff_client):
    ws = exported["Fibers"]
    ws.append([c.value for c in ws[2]])
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["sheet"] == "Fibers" and error["row"] == ws.max_row and "twice" in error["message"]


def test_missing_and_unknown_columns_are_header_errors(exported, staff_client):
    ws = exported["Cables"]
    ws.delete_cols(column(ws, "legs"))
    ws.cell(1, ws.max_column + 1).value = "colour"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 400
    errors = {(e["sheet"], e["row"], e["column"]) for e in response.json()["errors"]}
    assert errors == {("Cables", 1, "legs"), ("Cables", 1, "colour")}


def test_a_file_that_is_not_a_workbook_is_a_clear_400(staff_client, seeded):
    upload = BytesIO(b"sku,model\nX,Y\n")
    upload.name = "catalog.xlsx"
    response = staff_client.post(reverse("catalog-import"), {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert "not an Excel" in response.json()["errors"][0]["message"]


def test_a_workbook_without_catalog_sheets_is_a_clear_400(staff_client):
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "Budget"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(wb)}, format="multipart")
    assert response.status_code == 400
    assert "No catalog sheet" in response.json()["errors"][0]["message"]


def test_missing_file_is_a_field_error(staff_client):
    response = staff_client.post(reverse("catalog-import"), {}, format="multipart")
    assert response.status_code == 400 and "file" in response.json()


def test_only_staff_import(exported, user_client, api_client):
    response = user_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 403
    assert api_client.post(reverse("catalog-import"), {}, format="multipart").status_code == 401
    assert api_client.get(reverse("catalog-export")).status_code == 401


def test_export_of_an_empty_catalog_is_still_a_template():
    wb = load_workbook(BytesIO(catalog_export_workbook()))
    assert [c.value for c in wb["Fibers"][1]][:3] == ["sku", "manufacturer", "model"]
    assert wb["Fibers"].max_row == 1


def test_export_survives_text_saved_before_control_characters_were_refused(seeded, user_client):
    # Rows written around the model rules (e.g. by an old import) must not break the export.
    SwitchModel.objects.filter(sku="920-9N42F-00RI-7C0").update(description="twin-port\x0b OSFP\x1f cages")
    workbook = load_workbook(BytesIO(catalog_export_workbook()))
    sheet = workbook["Switches"]
    described = sheet.cell(row_of(sheet, "920-9N42F-00RI-7C0"), column(sheet, "description")).value
    assert described == "twin-port OSFP cages"


def test_export_writes_formula_like_names_as_text(seeded, user_client):
    formula = '=HYPERLINK("http://evil.example/","click")'
    SwitchModel.objects.filter(sku="920-9N42F-00RI-7C0").update(model=formula, description="@SUM(1,2)")
    Manufacturer.objects.filter(name="NVIDIA").update(name="+NVIDIA")
    response = user_client.get(reverse("catalog-export"))
    workbook = load_workbook(BytesIO(response.content))
    sheet = workbook["Switches"]
    row = row_of(sheet, "920-9N42F-00RI-7C0")
    for name, text in (("model", formula), ("description", "@SUM(1,2)"), ("manufacturer", "+NVIDIA")):
        cell = sheet.cell(row, column(sheet, name))
        assert (cell.value, cell.data_type) == (text, "s")
    assert all(cell.data_type != "f" for ws in workbook.worksheets for r in ws.iter_rows() for cell in r)


def _bomb(expanded_mb: int) -> BytesIO:
    """A workbook whose sheet expands to `expanded_mb` MB from a few hundred KB (one repeated row)."""
    import zipfile

    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "Switches"
    source = workbook_bytes(wb)
    out = BytesIO()
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"<sheetData></sheetData>",
                                    b"<sheetData>" + b" " * (expanded_mb * 2**20) + b"</sheetData>")
                assert len(data) > expanded_mb * 2**20
            dst.writestr(info.filename, data)
    out.seek(0)
    out.name = "bomb.xlsx"
    return out


def test_a_zip_bomb_is_refused_before_parsing(staff_client, seeded):
    import time

    upload = _bomb(150)
    assert len(upload.getvalue()) < 1_000_000
    started = time.perf_counter()
    response = staff_client.post(reverse("catalog-import"), {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert "expands to 150 MB" in response.json()["errors"][0]["message"]
    assert time.perf_counter() - started < 5
