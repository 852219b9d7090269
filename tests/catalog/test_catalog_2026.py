"""The 2026 catalog fields: switch classes and uplink groups, unpublished power, sources, patch panels;
their model rules, filters on the page and the API, and the Excel round trip (bad rows by row and column,
nothing imported when any row is bad)."""
from decimal import Decimal
from io import BytesIO

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from openpyxl import load_workbook

from apps.catalog.models import PatchPanel, ServerModel, SwitchModel
from apps.catalog.selectors import patch_panel_catalog, switch_hw
from apps.catalog.services import catalog_seed_load

from .factories import ManufacturerFactory, SwitchModelFactory
from .test_excel import column, row_of, workbook_bytes
from .test_views import signed_in

pytestmark = pytest.mark.django_db


def frontend_switch(**overrides) -> SwitchModel:
    values = dict(switch_class="frontend", asic="", asic_tbps=None, cages=48, cage_form_factor="SFP28",
                  cage_gbps=25, breakouts=["1x25G"], uplink_cages=8, uplink_form_factor="QSFP28", uplink_gbps=100,
                  rack_units=1, power_typical_w=None, power_max_w=None)
    values.update(overrides)
    return SwitchModelFactory.build(manufacturer=ManufacturerFactory(name="Huawei"), **values)


def errors_of(item) -> dict:
    with pytest.raises(ValidationError) as err:
        item.full_clean()
    return err.value.message_dict


def test_a_front_end_switch_with_an_uplink_group_and_unpublished_power_is_valid():
    switch = frontend_switch()
    switch.full_clean()
    switch.save()
    hw = switch_hw(switch=switch, breakout="1x25G")
    assert (hw.ports, hw.gbps, hw.uplinks, hw.uplink_gbps, hw.uplink_form_factor) == (48, 25, 8, 100, "QSFP28")
    assert hw.switch_class == "frontend" and hw.power_typical_w is None and not hw.power_published


@pytest.mark.parametrize("overrides, field", [
    ({"uplink_form_factor": ""}, "uplink_form_factor"),
    ({"uplink_gbps": 0}, "uplink_gbps"),
    ({"uplink_breakouts": ["4x40G"]}, "uplink_breakouts"),
    ({"uplink_cages": 0}, "uplink_form_factor"),
    ({"switch_class": "fabric"}, "switch_class"),
    ({"power_typical_w": 0}, "power_typical_w"),
    ({"power_typical_w": 400, "power_max_w": 300}, "power_max_w"),
    ({"asic_tbps": Decimal("1.0")}, "asic_tbps"),
])
def test_uplink_group_power_and_asic_rules_are_field_errors(overrides, field):
    assert field in errors_of(frontend_switch(**overrides))


def test_asic_capacity_counts_the_uplink_group():
    # 48 x 25G + 8 x 100G = 2.0 Tb/s: fits a 2.0 Tb/s ASIC, not a 1.6 Tb/s one.
    frontend_switch(asic_tbps=Decimal("2.0")).full_clean()
    assert "asic_tbps" in errors_of(frontend_switch(asic_tbps=Decimal("1.6")))


def test_rack_scale_power_fields_belong_to_rack_scale_servers_only():
    server = ServerModel(manufacturer=ManufacturerFactory(), sku="S", model="S", gpus=8, gpu_model="H100",
                         backend_ports=8, backend_gbps=400, rack_units=8, power_w=10_000,
                         scale_up_rack_power_w=120_000)
    assert "scale_up_rack_power_w" in errors_of(server)


def test_patch_panel_counts_its_fibres_and_reaches_the_engine():
    catalog_seed_load()
    panel = PatchPanel.objects.get()
    assert panel.fibers == panel.ports * 2 and "fs.com" in panel.source
    (hw,) = patch_panel_catalog()
    assert (hw.sku, hw.ports, hw.connector, hw.fibers, hw.rack_units) == (panel.sku, 48, "LC duplex", 96, 1)


MANAGEMENT = {"SN2201", "N3248TE-ON", "N9K-C9348GC-FX3", "EX4400-48T"}
FRONTEND_LEAVES = {"02353EGM", "S5248F-ON", "DCS-7050SX3-48YC8", "N9K-C93180YC-FX3"}
FRONTEND_SPINES = {"DCS-7050CX3-32S", "S5232F-ON", "N9K-C9336C-FX2"}


@pytest.mark.parametrize("query, expected", [
    ("switch_class=management", MANAGEMENT),
    ("switch_class=frontend", FRONTEND_LEAVES | FRONTEND_SPINES),
    ("vendor=huawei", {"02353EGM"}),
    ("vendor=Arista&fabric=ethernet", {"DCS-7060X6-64PE", "DCS-7060DX5-64S", "DCS-7050CX3-32S", "DCS-7050SX3-48YC8"}),
    ("fabric=infiniband", {"MQM9700-NS2F", "Q3400-RA"}),  # Quantum-2 NDR and Quantum-X800 XDR
    ("power_published=false", MANAGEMENT | FRONTEND_LEAVES | FRONTEND_SPINES | {"Q3400-RA"}),
    ("uplink_gbps=100", MANAGEMENT | FRONTEND_LEAVES),
])
def test_api_filters_switches_by_vendor_class_fabric_and_published_power(user_client, query, expected):
    catalog_seed_load()
    response = user_client.get(reverse("catalog-switch-list") + "?" + query)
    assert response.status_code == 200
    rows = response.json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert {row["sku"] for row in rows} == expected


def test_api_shows_and_writes_the_uplink_group_class_and_source(staff_client):
    ManufacturerFactory(name="Dell")
    payload = {"sku": "S5248F-ON", "manufacturer": "Dell", "model": "S5248F-ON", "switch_class": "frontend",
               "cages": 48, "cage_form_factor": "SFP28", "cage_gbps": 25, "breakouts": ["1x25G"],
               "uplink_cages": 4, "uplink_form_factor": "QSFP28", "uplink_gbps": 100, "rack_units": 1,
               "source": "Dell S5248F-ON spec sheet, https://example.com/s5248", "list_price": "1.00"}
    response = staff_client.post(reverse("catalog-switch-list"), payload, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["power_typical_w"] is None and body["asic_tbps"] is None
    assert body["uplink_cages"] == 4 and body["source"].startswith("Dell")
    bad = dict(payload, sku="X", uplink_form_factor="", switch_class="fabric")
    response = staff_client.post(reverse("catalog-switch-list"), bad, format="json")
    assert response.status_code == 400
    assert {"uplink_form_factor", "switch_class"} <= set(response.json())
    assert not SwitchModel.objects.filter(sku="X").exists()


def test_patch_panel_endpoint_lists_and_validates(staff_client):
    catalog_seed_load()
    response = staff_client.get(reverse("catalog-patch-panel-list") + "?connector=LC%20duplex")
    rows = response.json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert [row["fibers"] for row in rows] == [96]
    response = staff_client.post(reverse("catalog-patch-panel-list"), {
        "sku": "P", "manufacturer": "FS", "model": "P", "ports": 0, "connector": "MPO-99", "fiber": "MMF",
        "list_price": "1"}, format="json")
    assert response.status_code == 400 and {"ports", "connector"} <= set(response.json())


def test_catalog_page_filters_by_vendor_class_and_fabric(client):
    catalog_seed_load()
    signed_in(client)
    page = client.get(reverse("catalog:index") + "?switch_class=management").content.decode()
    assert 'data-sku="SN2201"' in page and 'data-sku="920-9N42F-00RI-7C0"' not in page
    assert 'id="section-transceivers"' not in page
    page = client.get(reverse("catalog:index") + "?vendor=huawei").content.decode()
    assert 'data-sku="02353EGM"' in page and 'data-sku="SN2201"' not in page
    page = client.get(reverse("catalog:index") + "?fabric=infiniband&kind=switches").content.decode()
    assert 'data-sku="MQM9700-NS2F"' in page and 'data-sku="DCS-7060X6-64PE"' not in page
    page = client.get(reverse("catalog:index") + "?switch_class=frontend").content.decode()
    assert "not published" in page and "8 × 100G QSFP28" in page


def test_catalog_page_filters_in_chinese(client):
    catalog_seed_load()
    page = signed_in(client).get(reverse("catalog:index") + "?switch_class=management",
                           HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "带外管理" in page and "未公布" in page


@pytest.fixture
def exported(user_client):
    catalog_seed_load()
    response = user_client.get(reverse("catalog-export"))
    return load_workbook(BytesIO(response.content))


def test_excel_round_trip_carries_class_uplinks_power_and_source(exported, staff_client):
    switches = exported["Switches"]
    row = row_of(switches, "02353EGM")
    assert switches.cell(row, column(switches, "switch_class")).value == "frontend"
    assert switches.cell(row, column(switches, "uplink_cages")).value == 8
    assert switches.cell(row, column(switches, "uplink_breakouts")).value == "1x100G, 4x25G"
    assert switches.cell(row, column(switches, "power_typical_w")).value is None
    assert "huawei.com" in switches.cell(row, column(switches, "source")).value
    switches.cell(row, column(switches, "power_typical_w")).value = 300
    switches.cell(row, column(switches, "power_max_w")).value = 450
    switches.cell(row, column(switches, "uplink_cages")).value = 6
    panels = exported["Patch panels"]
    panels.cell(row_of(panels, "FS-43552"), column(panels, "ports")).value = 24
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["updated"] == {"switches": 1, "patch_panels": 1}
    switch = SwitchModel.objects.get(sku="02353EGM")
    assert (switch.power_typical_w, switch.power_max_w, switch.uplink_cages) == (300, 450, 6)
    assert PatchPanel.objects.get(sku="FS-43552").ports == 24


def test_excel_bad_rows_are_reported_by_row_and_column_and_nothing_is_imported(exported, staff_client):
    switches = exported["Switches"]
    fe, mg = row_of(switches, "02353EGM"), row_of(switches, "SN2201")
    switches.cell(fe, column(switches, "switch_class")).value = "access"
    switches.cell(mg, column(switches, "power_typical_w")).value = 0
    switches.cell(row_of(switches, "DCS-7060X6-64PE"), column(switches, "list_price")).value = 1  # a good edit
    panels = exported["Patch panels"]
    panel_row = row_of(panels, "FS-43552")
    panels.cell(panel_row, column(panels, "connector")).value = "MPO-99"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 400
    where = {(e["sheet"], e["row"], e["column"]) for e in response.json()["errors"]}
    assert where == {("Switches", fe, "switch_class"), ("Switches", mg, "power_typical_w"),
                     ("Patch panels", panel_row, "connector")}
    assert SwitchModel.objects.get(sku="DCS-7060X6-64PE").list_price != 1
    assert SwitchModel.objects.get(sku="SN2201").power_typical_w is None
