"""A design on the seed catalog's InfiniBand switch (NVIDIA Quantum-2 QM9700), as a presales engineer sees it.

InfiniBand is lossless by credit-based flow control and routed by the subnet manager: the design
has the same devices, cabling and BOM as on Ethernet, but no RoCE settings or configs, no ECMP
traffic analysis, no /31s, loopbacks or ASNs; its NetBox interfaces are infiniband-ndr.
"""
from __future__ import annotations

import csv
import ipaddress
import io
import re
import zipfile

import openpyxl
import pytest
import yaml
from django.test import Client
from django.urls import reverse
from django.utils import translation

from apps.catalog.models import SwitchModel
from apps.analysis.models import RoceReview, TrafficAnalysis
from apps.exports.excel import version_workbook_write
from apps.exports.netbox import version_netbox_write
from apps.designs.models import DesignVersion, DeviceRecord, Job, LinkRecord
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db

QM9700 = "MQM9700-NS2F"
NOT_APPLICABLE = "Not applicable on InfiniBand"


def generate(client, project, data, capture, name):
    with capture(execute=True):
        response = client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}), {"name": name, **data},
                               format="json")
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    assert version.status == DesignVersion.Status.READY, Job.objects.get(version=version).error
    return version


def ib_inputs(seed, **changes):
    """512 GPUs (64 DGX H100) on QM9700 leaves and spines in 2x400G: two scale units, two tiers."""
    qm9700 = SwitchModel.objects.get(sku=QM9700)
    return inputs(seed, leaf_switch=qm9700.pk, leaf_breakout="2x400G", gpus=512, **changes)


@pytest.fixture
def ib_version(member_client, project, seed, django_capture_on_commit_callbacks):
    return generate(member_client, project, ib_inputs(seed), django_capture_on_commit_callbacks, "IB fabric")


def test_an_infiniband_design_generates_with_the_bom_and_cabling_of_the_same_hardware_on_ethernet(
        member_client, project, seed, ib_version, django_capture_on_commit_callbacks):
    assert ib_version.fabric == "infiniband"
    assert ib_version.summary["fabric"] == "infiniband" and ib_version.summary["addressing"] == "subnet-manager"
    api = member_client.get(reverse("api-version-detail", kwargs={"pk": ib_version.pk})).json()
    assert api["fabric"] == "infiniband" and api["summary"]["fabric"] == "infiniband"
    SwitchModel.objects.filter(sku=QM9700).update(fabric="ethernet")
    eth = generate(member_client, project, ib_inputs(seed), django_capture_on_commit_callbacks, "Same on Ethernet")
    assert eth.fabric == "ethernet"

    def bom(version):
        body = member_client.get(reverse("api-version-bom", kwargs={"pk": version.pk})).json()
        return sorted((line["sku"], line["qty"]) for line in body["lines"]), body["totals"]["total"]

    def cabling(version):
        return list(LinkRecord.objects.filter(version=version).order_by("index").values_list(
            "a_device__name", "b_device__name", "medium", "length_m"))

    assert bom(ib_version) == bom(eth)
    assert cabling(ib_version) == cabling(eth)  # same ends, media and lengths; only the port names differ
    assert ib_version.summary["switches"] == eth.summary["switches"]


def test_an_infiniband_design_has_ipoib_host_addresses_and_no_p2p_loopbacks_or_asns(member_client, ib_version):
    switches = DeviceRecord.objects.filter(version=ib_version).exclude(role="server")
    assert not switches.exclude(asn__isnull=True).exists() and not switches.exclude(loopback__isnull=True).exists()
    fabric_links = LinkRecord.objects.filter(version=ib_version, tier__gt=0)
    assert fabric_links.exists() and not fabric_links.exclude(subnet="").exists()
    assert not fabric_links.exclude(a_ip__isnull=True).exists()
    hosts = LinkRecord.objects.filter(version=ib_version, tier=0)
    addresses = list(hosts.values_list("a_ip", flat=True))
    assert None not in addresses and len(set(addresses)) == len(addresses) == 512
    assert not hosts.exclude(b_ip__isnull=True).exists()
    assert set(ib_version.summary["pools"]) == {"host"}
    assert any(w["code"] == "fabric.infiniband_subnet_manager" for w in ib_version.summary["warning_codes"])
    links = member_client.get(reverse("api-version-link-list", kwargs={"pk": ib_version.pk}), {"tier": 1}).json()
    assert all(link["a_ip"] is None and link["b_ip"] is None and link["subnet"] == "" for link in links["results"])


def test_mixed_ethernet_and_infiniband_tiers_are_refused_on_the_spine_field(member_client, project, seed):
    data = ib_inputs(seed, spine_switch=seed["sn5600"].pk, spine_breakout="2x400G")
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": "Mixed", **data}, format="json")
    assert response.status_code == 400, response.content
    errors = response.json()
    (message,) = errors["spine_switch"]
    assert "QM9700" in message and "SN5600" in message
    assert not DesignVersion.objects.filter(design__name="Mixed").exists()


def test_no_roce_review_or_traffic_analysis_is_stored(ib_version):
    assert not RoceReview.objects.filter(version=ib_version).exists()
    assert not TrafficAnalysis.objects.filter(version=ib_version).exists()


@pytest.mark.parametrize("name, kwargs", [
    ("api-version-roce", {}),
    ("api-version-roce-configs-zip", {}),
    ("api-version-roce-device-config", {"device_name": "p0-su00-leaf-r0"}),
    ("api-version-traffic", {}),
])
def test_roce_and_traffic_endpoints_answer_409_not_applicable(member_client, ib_version, name, kwargs):
    response = member_client.get(reverse(name, kwargs={"pk": ib_version.pk, **kwargs}))
    assert response.status_code == 409
    assert response["Content-Type"].startswith("application/json")
    (message,) = response.json()["fabric"]
    assert message.startswith(NOT_APPLICABLE)


def test_running_a_traffic_analysis_answers_409_and_runs_nothing(member_client, ib_version):
    response = member_client.post(reverse("api-version-traffic", kwargs={"pk": ib_version.pk}), {"seed": 3},
                                  format="json")
    assert response.status_code == 409 and "ECMP" in response.json()["fabric"][0]
    assert not TrafficAnalysis.objects.filter(version=ib_version).exists()


def test_design_page_says_roce_and_traffic_do_not_apply(member, ib_version):
    client = Client()
    client.force_login(member)
    url = reverse("designs:version-detail", kwargs={"project_pk": ib_version.design.project_id,
                                                    "version_pk": ib_version.pk})
    html = client.get(url).content.decode()
    assert 'id="roce-not-applicable"' in html and 'id="traffic-not-applicable"' in html
    assert "credit-based" in html and "subnet manager" in html
    assert 'id="roce-verdict"' not in html and 'id="tab-roce-settings"' not in html
    assert 'id="roce-settings-table"' not in html and 'id="traffic-meta"' not in html
    settings = client.get(reverse("design-analysis:roce-settings", kwargs={
        "project_pk": ib_version.design.project_id, "version_pk": ib_version.pk})).content.decode()
    assert 'id="roce-not-applicable"' in settings and "<form" not in settings.split('id="roce-settings"')[1]
    with translation.override("zh-hans"):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "InfiniBand" in html and NOT_APPLICABLE not in html


def test_workbook_lists_ipoib_addresses_and_says_loopbacks_asns_roce_and_traffic_do_not_apply(
        ib_version, member, tmp_path):
    path = tmp_path / "ib.xlsx"
    version_workbook_write(version=ib_version, path_or_stream=str(path), user=member)
    wb = openpyxl.load_workbook(path, read_only=True)
    ip_rows = [row for row in wb["IP plan"].iter_rows(values_only=True) if any(v is not None for v in row)]
    assert ip_rows[0][0].startswith(NOT_APPLICABLE)
    header, *data = ip_rows[1:]
    assert "IPoIB address" in header and len(data) == 512
    hosts = dict(LinkRecord.objects.filter(version=ib_version, tier=0).values_list("index", "a_ip"))
    assert all(row[header.index("IPoIB address")] == hosts[row[0]] for row in data)
    for sheet in ("Loopbacks", "ASN plan", "RoCE", "Traffic"):
        cells = [v for row in wb[sheet].iter_rows(values_only=True) for v in row if v is not None]
        assert len(cells) == 2 and cells[1].startswith(NOT_APPLICABLE), (sheet, cells)
    summary = {row[0]: row[1] for row in openpyxl.load_workbook(path)["Summary"].iter_rows(values_only=True)
               if row[0]}
    assert summary["Fabric"] == "InfiniBand"
    assert "Switch-to-switch pool (a /31 per link)" not in summary and "First ASN" not in summary
    assert "ASN range" not in summary


def test_netbox_interfaces_are_infiniband_ndr_with_the_switch_os_names_and_addresses_ipoib_only(ib_version, tmp_path):
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=ib_version, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    types = [t for name in sorted(files) if name.startswith("06-device_types-") for t in yaml.safe_load_all(files[name])]
    interfaces = [i for t in types for i in t["interfaces"]]
    assert {i["type"] for i in interfaces} == {"infiniband-ndr"}
    assert not any(i["name"] == "Loopback0" for i in interfaces)
    server_type = next(t for t in types if t["interfaces"][0]["name"] == "mlx5_0")
    assert [i["name"] for i in server_type["interfaces"]] == [f"mlx5_{i}" for i in range(8)]  # the HCAs
    switch_names = [i["name"] for t in types if t is not server_type for i in t["interfaces"]]
    # MLNX-OS on Quantum-2: <asic>/<cage>/<port>, the two NDR ports of each twin-port OSFP cage
    assert switch_names[:4] == ["1/1/1", "1/1/2", "1/2/1", "1/2/2"] and switch_names[63] == "1/32/2"
    addresses = [row for name in sorted(files) if name.startswith("13-ip_addresses")
                 for row in csv.DictReader(io.StringIO(files[name]))]
    assert len(addresses) == 512 and {row["description"] for row in addresses} == {"IPoIB"}
    assert all(row["address"].endswith("/12") for row in addresses)
    assert all(row["interface"].startswith("mlx5_") for row in addresses)
    # never the host subnet's network or broadcast address (NetBox's edit form refuses those)
    net = ipaddress.ip_network(ib_version.spec["pools"]["host"])
    for row in addresses:
        ip = ipaddress.ip_address(row["address"].split("/")[0])
        assert ip not in (net.network_address, net.broadcast_address)
    cables = [row for name in sorted(files) if name.startswith("08-cables")
              for row in csv.DictReader(io.StringIO(files[name]))]
    names = set(switch_names) | {i["name"] for i in server_type["interfaces"]}
    assert all(c["side_a_name"] in names and c["side_b_name"] in names for c in cables)
    assert "InfiniBand" in files["README.txt"]
    assert not any(name.startswith("10-asns") for name in files) and "ASNs:" not in files["README.txt"]


def bom_parts(member_client, version) -> list:
    """The catalog rows of the version's transceiver, cable and fibre lines."""
    from apps.catalog.models import Cable, FiberCord, Transceiver
    body = member_client.get(reverse("api-version-bom", kwargs={"pk": version.pk})).json()
    skus = {line["sku"] for line in body["lines"]}
    return [item for model in (Transceiver, Cable, FiberCord)
            for item in model.objects.filter(sku__in=skus).select_related("manufacturer")]


def test_an_infiniband_design_carries_only_nvidia_parts_qualified_for_infiniband(member_client, ib_version):
    parts = bom_parts(member_client, ib_version)
    assert parts and all("infiniband" in part.fabrics for part in parts)
    from apps.catalog.models import FiberCord
    assert {p.manufacturer.name for p in parts if not isinstance(p, FiberCord)} == {"NVIDIA"}  # optics and cables
    assert ib_version.third_party_optics is False


def test_an_infiniband_design_with_third_party_optics_allowed_still_gets_only_infiniband_parts(
        member_client, client_for_member, project, seed, django_capture_on_commit_callbacks):
    version = generate(member_client, project, ib_inputs(seed, third_party_optics=True),
                       django_capture_on_commit_callbacks, "IB, third-party allowed")
    assert version.third_party_optics is True
    api = member_client.get(reverse("api-version-detail", kwargs={"pk": version.pk})).json()
    assert api["inputs"]["third_party_optics"] is True
    assert all("infiniband" in part.fabrics for part in bom_parts(member_client, version))
    page = client_for_member.get(reverse("designs:version-detail",
                                         kwargs={"project_pk": project.pk, "version_pk": version.pk}))
    assert page.status_code == 200
    assert "third-party optics allowed" in page.content.decode()


def test_third_party_optics_must_be_true_or_false(member_client, project, seed):
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": "x", **ib_inputs(seed, third_party_optics="maybe")}, format="json")
    assert response.status_code == 400 and "third_party_optics" in response.json()


def test_an_infiniband_design_names_ports_as_the_switch_os_and_the_hosts_do(member_client, ib_version):
    """Cabling table and labels: HCAs mlx5_<rail> on the hosts, MLNX-OS <asic>/<cage>/<port> on the QM9700s."""
    links = list(LinkRecord.objects.filter(version=ib_version).order_by("index").values(
        "tier", "a_device__name", "a_port", "b_device__name", "b_port", "label_a", "label_b"))
    first = links[0]
    assert (first["a_device__name"], first["a_port"], first["b_device__name"], first["b_port"]) == (
        "srv-0000", "mlx5_0", "p0-su00-leaf-r0", "1/1/1")
    assert first["label_a"] == "srv-0000:mlx5_0 > p0-su00-leaf-r0:1/1/1"
    assert first["label_b"] == "p0-su00-leaf-r0:1/1/1 > srv-0000:mlx5_0"
    ports = {p for link in links for p in (link["a_port"], link["b_port"])}
    assert not any(p.startswith(("Ethernet", "eth")) for p in ports)
    switch_ports = {link["b_port"] for link in links} | {link["a_port"] for link in links if link["tier"] > 0}
    # 32 twin-port cages of two NDR ports each: 1/1/1 .. 1/32/2, never a cage 33 or a port 3
    assert all(re.fullmatch(r"1/([1-9]|[12][0-9]|3[0-2])/[12]", p) for p in switch_ports)
    host_ports = {link["a_port"] for link in links if link["tier"] == 0}
    assert host_ports == {f"mlx5_{i}" for i in range(8)}
    # the API's cabling rows are the same names
    body = member_client.get(reverse("api-version-link-list", kwargs={"pk": ib_version.pk})).json()
    row = body["results"][0] if isinstance(body, dict) else body[0]
    assert (row["a_port"], row["b_port"]) == ("mlx5_0", "1/1/1")


def test_the_design_document_of_an_infiniband_design_shows_its_port_names(ib_version):
    from apps.documents.document import document_build
    from apps.documents.render_pdf import document_html

    html = document_html(document_build(version=ib_version))
    assert "srv-0000:mlx5_0 &gt; p0-su00-leaf-r0:1/1/1" in html
    assert "sw&lt;cage&gt;p&lt;port&gt;" in html and "Ethernet0" not in html
    with translation.override("zh-hans"):
        zh = document_html(document_build(version=ib_version))
    assert "srv-0000:mlx5_0 &gt; p0-su00-leaf-r0:1/1/1" in zh and "端口" in zh
