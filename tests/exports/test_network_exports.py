"""The other networks in the exports: a workbook sheet per network and the NetBox files."""
from __future__ import annotations

import csv
import io
import zipfile

import openpyxl
import pytest

from apps.designs.models import DeviceRecord, LinkRecord
from apps.exports.excel import version_workbook_write
from apps.exports.netbox import version_netbox_write
from tests.designs.conftest import inputs
from tests.designs.test_networks import networks
from tests.exports.test_exports import device_types, generate, logical_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def cluster(project, member, seed, django_capture_on_commit_callbacks):
    return generate(project, member, {**inputs(seed), "networks": networks(seed)}, django_capture_on_commit_callbacks,
                    name="Cluster")


def test_workbook_has_a_sheet_per_network_with_every_link(cluster, member, tmp_path):
    path = tmp_path / "cluster.xlsx"
    version_workbook_write(version=cluster, path_or_stream=str(path), user=member)
    book = openpyxl.load_workbook(path, read_only=True)
    for title, network in (("Front-end network", "frontend"), ("Storage network", "storage"),
                           ("OOB network", "oob")):
        assert title in book.sheetnames
        rows = list(book[title].iter_rows(values_only=True))
        data = [r for r in rows[1:] if r and r[0] is not None]
        assert len(data) == LinkRecord.objects.filter(version=cluster, network=network).count()
    oob_rows = list(book["OOB network"].iter_rows(values_only=True))[1:]
    assert {r[9] for r in oob_rows if r and r[0] is not None} <= {"Cat6A", "SMF"}
    bom = [r for r in book["BOM"].iter_rows(values_only=True) if r and r[0] and str(r[0]).startswith("SWITCH-48x1G")]
    assert bom  # the management switches are in the procurement BOM


def _netbox_csv(files: dict[str, str], key: str) -> list[dict]:
    """Rows of every part of one logical NetBox file (07-devices-part01.csv, ...), in order."""
    rows = []
    for name in sorted(n for n in files if n.endswith(".csv") and logical_file(n) == key):
        rows += list(csv.DictReader(io.StringIO(files[name])))
    return rows


def test_netbox_files_carry_every_network(cluster, tmp_path):
    path = tmp_path / "netbox.zip"
    counts = version_netbox_write(version=cluster, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        files = {name.rsplit("/", 1)[-1]: archive.read(name).decode("utf-8") for name in archive.namelist()}
    roles = {row["name"] for row in _netbox_csv(files, "device_roles")}
    assert {"Front-end leaf switch", "Storage leaf switch", "Storage node", "Management switch"} <= roles
    devices = _netbox_csv(files, "devices") + _netbox_csv(files, "devices_other_networks")
    assert sum(1 for d in devices if d["role"] == "Storage node") == 8
    cables = _netbox_csv(files, "cables")
    assert counts["cables"] == LinkRecord.objects.filter(version=cluster).count() == len(cables)
    bmc = [c for c in cables if c["side_a_name"] == "bmc"]
    assert len(bmc) == 32 + 8 and {c["type"] for c in bmc} == {"cat6a"}
    # every cable end is a port NetBox knows: a template of the backend's device types or a row of the
    # interfaces file
    templates = {}
    for document in device_types(files):
        templates[document["model"]] = {i["name"] for i in document["interfaces"]}
    model_of = {d["name"]: d["device_type"] for d in devices}
    interface_rows = _netbox_csv(files, "interfaces")
    interfaces = {(r["device"], r["name"]) for r in interface_rows}
    # a server's bmc is its management-only port; the management switch's own access ports are not
    assert {r["mgmt_only"] for r in interface_rows if r["name"] == "bmc"} == {"true"}
    management_switches = {d["name"] for d in devices if d["role"] == "Management switch"}
    assert {r["mgmt_only"] for r in interface_rows if r["device"] in management_switches} == {"false"}
    for cable in cables:
        for side in ("a", "b"):
            device, port = cable[f"side_{side}_device"], cable[f"side_{side}_name"]
            assert (device, port) in interfaces or port in templates[model_of[device]]


def test_netbox_files_carry_the_other_networks_pools_loopbacks_and_asns(cluster, tmp_path):
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=cluster, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        files = {name.rsplit("/", 1)[-1]: archive.read(name).decode("utf-8") for name in archive.namelist()}
    prefixes = {row["prefix"] for row in _netbox_csv(files, "prefixes")}
    for network in ("frontend", "storage", "oob"):
        pools = cluster.summary["networks"][network]["pools"]
        assert {pools[name]["cidr"] for name in ("host", "p2p", "loopback") if name in pools} <= prefixes, network
    switches = DeviceRecord.objects.filter(version=cluster, network__in=("frontend", "storage"),
                                           role__in=("leaf", "spine"))
    assert switches.exists()
    addresses = {(row["device"], row["interface"]): row["address"] for row in _netbox_csv(files, "ip_addresses")}
    interfaces = {(row["device"], row["name"]) for row in _netbox_csv(files, "interfaces")}
    asns = {int(row["asn"]) for row in _netbox_csv(files, "asns")}
    for switch in switches:
        key = (f"cluster-{switch.name}", "Loopback0")
        assert addresses[key] == f"{switch.loopback}/32" and key in interfaces
        assert switch.asn in asns


def test_netbox_readme_counts_every_networks_cables(cluster, tmp_path):
    path = tmp_path / "netbox.zip"
    counts = version_netbox_write(version=cluster, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        readme = archive.read("README.txt").decode("utf-8")
    line = next(line for line in readme.splitlines() if line.startswith("Links:"))
    per_network = {network: LinkRecord.objects.filter(version=cluster, network=network).count()
                   for network in ("backend", "frontend", "storage", "oob")}
    assert all(per_network.values())
    assert counts["cables"] == sum(per_network.values())
    assert line == (f"Links:    {sum(per_network.values()):,} (backend {per_network['backend']:,}, "
                    f"front-end {per_network['frontend']:,}, storage {per_network['storage']:,}, "
                    f"management {per_network['oob']:,})")
