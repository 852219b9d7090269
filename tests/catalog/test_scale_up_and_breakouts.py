"""Server scale-up domains and NIC breakout modes in the catalog: seed figures, API, Excel round trip."""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.models import NicModel, ServerModel
from apps.catalog.selectors import nic_hw, server_hw
from apps.catalog.services import catalog_seed_load

from .factories import NicModelFactory, ServerModelFactory
from .test_excel import column, row_of, workbook_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(db):
    catalog_seed_load()


@pytest.mark.parametrize("sku, kind, domain, gb_s, racks, trays", [
    ("DGXH-G640F+P2EDI36", "in-server", 8, 900, 0, 0),  # DGX H100, NVLink 4
    ("SYS-821GE-TNHR", "in-server", 8, 900, 0, 0),  # HGX H200, NVLink 4
    ("DGXB-G1440+P2CMI36", "in-server", 8, 1800, 0, 0),  # DGX B200, NVLink 5
    ("90SF02H1-M00030", "in-server", 8, 1800, 0, 0),  # HGX B300, 14.4 TB/s / 8
    ("DGX-GB200-NVL72-TRAY", "rack-scale", 72, 1800, 1, 9),  # 18 trays + 9 NVLink switch trays per rack
    ("ARS-121GL-NB3-LCC-R1", "rack-scale", 72, 1800, 1, 9),  # GB300 NVL72
])
def test_seed_servers_state_their_published_scale_up_domain(seeded, sku, kind, domain, gb_s, racks, trays):
    server = ServerModel.objects.get(sku=sku)
    assert (server.scale_up_kind, server.scale_up_domain_gpus, server.scale_up_gb_s_per_gpu, server.scale_up_racks,
            server.scale_up_switch_trays) == (kind, domain, gb_s, racks, trays)
    hw = server_hw(server=server)
    assert (hw.scale_up_kind, hw.scale_up_gpus, hw.scale_up_gb_s) == (kind, domain, gb_s)


def test_rack_scale_trays_hold_one_nic_port_per_gpu(seeded):
    for sku, gbps in (("DGX-GB200-NVL72-TRAY", 400), ("ARS-121GL-NB3-LCC-R1", 800)):
        tray = ServerModel.objects.get(sku=sku)
        assert (tray.gpus, tray.backend_ports, tray.backend_gbps, tray.rack_units) == (4, 4, gbps, 1)


def test_connectx8_publishes_a_2x400g_split_and_connectx7_none(seeded):
    cx8 = NicModel.objects.get(sku="900-9X81E-00EX-ST0")
    assert cx8.breakouts == ["1x800G", "2x400G"] and cx8.splits == (1, 2)
    assert nic_hw(nic=cx8).splits == (1, 2)
    assert NicModel.objects.get(sku="MCX75310AAS-NEAT").splits == (1,)


def test_api_writes_and_checks_the_scale_up_fields(staff_client):
    server = ServerModelFactory(gpus=4, backend_ports=4)
    url = reverse("catalog-server-detail", args=[server.pk])
    ok = staff_client.patch(url, {"scale_up_kind": "rack-scale", "scale_up_domain_gpus": 72, "scale_up_racks": 1,
                                  "scale_up_switch_trays": 9, "scale_up_gb_s_per_gpu": 1800}, format="json")
    assert ok.status_code == 200, ok.json()
    assert ok.json()["scale_up_kind"] == "rack-scale" and ok.json()["scale_up_gb_s_per_gpu"] == 1800
    bad = staff_client.patch(url, {"scale_up_domain_gpus": 70}, format="json")
    assert bad.status_code == 400 and "scale_up_domain_gpus" in bad.json()
    bad = staff_client.patch(url, {"scale_up_racks": 0}, format="json")
    assert bad.status_code == 400 and "scale_up_racks" in bad.json()
    bad = staff_client.patch(url, {"scale_up_kind": "quantum"}, format="json")
    assert bad.status_code == 400 and "scale_up_kind" in bad.json()
    server.refresh_from_db()
    assert server.scale_up_domain_gpus == 72 and server.scale_up_racks == 1


def test_an_in_server_domain_larger_than_the_server_is_refused(staff_client):
    server = ServerModelFactory()
    url = reverse("catalog-server-detail", args=[server.pk])
    bad = staff_client.patch(url, {"scale_up_kind": "in-server", "scale_up_domain_gpus": 72}, format="json")
    assert bad.status_code == 400 and "scale_up_kind" in bad.json()


def test_api_writes_and_checks_nic_breakouts(staff_client):
    nic = NicModelFactory(port_gbps=800)
    url = reverse("catalog-nic-detail", args=[nic.pk])
    ok = staff_client.patch(url, {"breakouts": ["1x800G", "2x400G"]}, format="json")
    assert ok.status_code == 200 and ok.json()["splits"] == [1, 2]
    for modes in (["2x300G"], ["8x100G"], ["fast"]):
        bad = staff_client.patch(url, {"breakouts": modes}, format="json")
        assert bad.status_code == 400 and "breakouts" in bad.json(), modes
    assert NicModel.objects.get(pk=nic.pk).breakouts == ["1x800G", "2x400G"]


def test_excel_round_trip_carries_scale_up_and_breakouts(seeded, user_client, staff_client):
    from io import BytesIO

    from openpyxl import load_workbook

    exported = load_workbook(BytesIO(user_client.get(reverse("catalog-export")).content))
    servers, nics = exported["Servers"], exported["NICs"]
    tray = row_of(servers, "DGX-GB200-NVL72-TRAY")
    assert servers.cell(tray, column(servers, "scale_up_kind")).value == "rack-scale"
    assert servers.cell(tray, column(servers, "scale_up_switch_trays")).value == 9
    assert nics.cell(row_of(nics, "900-9X81E-00EX-ST0"), column(nics, "breakouts")).value == "1x800G, 2x400G"
    servers.cell(tray, column(servers, "scale_up_racks")).value = 2  # an NVL36x2 domain: 9 trays per rack
    nics.cell(row_of(nics, "MCX75310AAS-NEAT"), column(nics, "breakouts")).value = "1x400G, 2x200G"
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["updated"] == {"nics": 1, "servers": 1}
    assert ServerModel.objects.get(sku="DGX-GB200-NVL72-TRAY").scale_up_racks == 2
    assert NicModel.objects.get(sku="MCX75310AAS-NEAT").splits == (1, 2)


def test_excel_scale_up_errors_are_cell_errors(seeded, user_client, staff_client):
    from io import BytesIO

    from openpyxl import load_workbook

    exported = load_workbook(BytesIO(user_client.get(reverse("catalog-export")).content))
    servers = exported["Servers"]
    tray = row_of(servers, "ARS-121GL-NB3-LCC-R1")
    servers.cell(tray, column(servers, "scale_up_racks")).value = 5  # 18 trays do not fill 5 racks
    response = staff_client.post(reverse("catalog-import"), {"file": workbook_bytes(exported)}, format="multipart")
    assert response.status_code == 400
    assert {(e["sheet"], e["row"], e["column"]) for e in response.json()["errors"]} == {
        ("Servers", tray, "scale_up_racks")}
    assert ServerModel.objects.get(sku="ARS-121GL-NB3-LCC-R1").scale_up_racks == 1
