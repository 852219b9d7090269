"""The install kit as an installer uses it: rack work orders (print and CSV), label sheets, the P2P sheet."""
from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from apps.designs.models import DeviceRecord, LinkRecord

pytestmark = pytest.mark.django_db


def kit_url(name, version, **params):
    url = reverse(f"handover:{name}", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def test_rack_work_orders_list_each_cable_with_both_labels_and_ends(client_for_member, version):
    leaf = DeviceRecord.objects.filter(version=version, role="leaf").order_by("index").first()
    html = client_for_member.get(kit_url("kit-orders", version, rack=leaf.rack)).content.decode()
    link = LinkRecord.objects.filter(version=version, b_device=leaf).order_by("index").first()
    assert f"Cabling work orders, rack {leaf.rack}" in html
    for text in (link.label_a, link.label_b, link.a_port, link.b_port, link.medium, link.cable_sku or link.a_sku):
        assert str(text).replace(">", "&gt;") in html


def test_csv_of_every_rack_has_one_row_per_cable(client_for_member, version):
    response = client_for_member.get(kit_url("kit-csv", version))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:7] == ["Cable", "Label (A end)", "Label (B end)", "From rack", "From U", "From device",
                           "From port"]
    assert len(rows) == 1 + version.links.count()
    first = LinkRecord.objects.filter(version=version).order_by("index").first()
    assert rows[1][1:3] == [first.label_a, first.label_b]


def test_label_sheet_has_a_label_per_cable_end_in_the_rack(client_for_member, version):
    leaf = DeviceRecord.objects.filter(version=version, role="leaf").order_by("index").first()
    html = client_for_member.get(kit_url("kit-labels", version, rack=leaf.rack)).content.decode()
    ends = sum(1 for link in LinkRecord.objects.filter(version=version).select_related("a_device", "b_device")
               for d in (link.a_device, link.b_device) if d.rack == leaf.rack)
    assert html.count('class="cable-label"') == ends


def test_unknown_rack_is_404(client_for_member, version):
    assert client_for_member.get(kit_url("kit-orders", version, rack="nope")).status_code == 404


def test_p2p_sheet_has_the_cable_validation_tool_columns(client_for_member, version):
    response = client_for_member.get(kit_url("kit-p2p", version))
    sheet = load_workbook(io.BytesIO(response.content)).worksheets[0]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("A-Node Name", "A-Type", "A-Port", "Z-Node Name", "Z-Type", "Z-Port")
    assert len(rows) == 1 + version.links.count()
    assert rows[1][1] == "Host" and rows[1][4] == "Switch" and rows[1][2] == "eth0"


def test_design_page_links_the_install_kit(client_for_member, version):
    kwargs = {"project_pk": version.design.project_id, "version_pk": version.pk}
    html = client_for_member.get(reverse("designs:version-detail", kwargs=kwargs)).content.decode()
    assert 'id="tab-kit"' in html and 'id="tab-inventory"' in html
    kit = client_for_member.get(kit_url("kit", version)).content.decode()
    assert 'id="kit-p2p"' in kit and 'id="kit-rack"' in kit


def test_kit_and_inventory_pages_speak_chinese(client_for_member, version):
    from django.utils import translation

    with translation.override("zh-hans"):
        kit = client_for_member.get(kit_url("kit", version), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        inventory = client_for_member.get(kit_url("inventory", version), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "安装套件" in kit and "Install kit of" not in kit
    assert "主机预检" in inventory and "标记为赢单" in inventory and "Mark won" not in inventory


def test_the_install_kit_keeps_the_designs_header_and_tab_bar(client_for_member, version):
    kit = client_for_member.get(kit_url("kit", version)).content.decode()

    assert 'class="tabs"' in kit and 'id="tab-overview"' in kit and 'id="tab-topology"' in kit
    assert 'id="tab-kit"' in kit and 'id="version-switch"' in kit
