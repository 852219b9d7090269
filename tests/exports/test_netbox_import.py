"""The NetBox zip imported as its README says, into NetBox's rules (tests.exports.netbox_model): a first import
refuses nothing, a second import creates nothing, and other designs import beside it, Ethernet, InfiniBand and
whole-cluster alike, leaving an inventory equal to each design."""
from __future__ import annotations

import re
import zipfile

import pytest

from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord
from apps.exports.netbox import version_netbox_write
from tests.designs.conftest import inputs
from tests.designs.test_infiniband import ib_inputs
from tests.designs.test_networks import networks
from tests.exports.netbox_model import NetBox
from tests.exports.test_exports import generate, logical_file, tables

pytestmark = pytest.mark.django_db


def netbox_files(version: DesignVersion, tmp_path, prefix: str = "") -> dict[str, str]:
    path = tmp_path / f"netbox-{version.pk}-{prefix}.zip"
    version_netbox_write(version=version, path_or_stream=str(path), prefix=prefix)
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name).decode("utf-8") for name in archive.namelist()}


def readme_order(files: dict[str, str]) -> list[str]:
    """The numbered files in the order README.txt lists them."""
    readme = files["README.txt"]
    listing = readme[readme.index("Parts of one file go in their order"):]
    return [name for name in re.findall(r"^  (\d\d-\S+)", listing, re.M)]


def import_zip(netbox: NetBox, files: dict[str, str]) -> dict[str, object]:
    """Import every file in README order; the refusals by file name."""
    order = readme_order(files)
    assert sorted(order) == sorted(name for name in files if name[:2].isdigit())  # every file is listed
    refused = {}
    for name in order:
        refusal = netbox.import_file(logical_file(name), files[name])
        if refusal is not None:
            refused[name] = refusal
    return refused


def real_errors(refused: dict[str, object]) -> dict[str, str]:
    return {name: str(refusal) for name, refusal in refused.items() if refusal.kind != "exists"}


def address_count(files: dict[str, str]) -> int:
    return len(tables(files).get("ip_addresses", []))


def assert_inventory(netbox: NetBox, version: DesignVersion, files: dict[str, str], prefix: str) -> None:
    names = {name for name, _site, _tenant in netbox.devices}
    for device in DeviceRecord.objects.filter(version=version).values_list("name", flat=True):
        assert f"{prefix}-{device}" in names
    vrf = next(i for i, row in enumerate(netbox.vrfs) if row["name"] == prefix)
    assert sum(1 for v, _host in netbox.addresses if v == vrf) == address_count(files) > 0


@pytest.fixture
def ethernet(project, member, seed, django_capture_on_commit_callbacks):
    return generate(project, member, inputs(seed, gpus=512), django_capture_on_commit_callbacks, name="Eth 512")


@pytest.fixture
def infiniband(project, member, seed, django_capture_on_commit_callbacks):
    return generate(project, member, ib_inputs(seed), django_capture_on_commit_callbacks, name="IB 512")


@pytest.fixture
def whole_cluster(project, member, seed, django_capture_on_commit_callbacks):
    return generate(project, member, {**inputs(seed), "networks": networks(seed)}, django_capture_on_commit_callbacks,
                    name="Cluster")


def test_a_design_imports_with_no_refusal_and_every_cable(ethernet, tmp_path):
    files = netbox_files(ethernet, tmp_path)
    netbox = NetBox()
    assert import_zip(netbox, files) == {}
    assert netbox.cables == LinkRecord.objects.filter(version=ethernet).count()
    assert_inventory(netbox, ethernet, files, "eth-512")


def test_importing_the_same_zip_twice_creates_nothing_and_makes_no_second_vrf(ethernet, tmp_path):
    files = netbox_files(ethernet, tmp_path)
    netbox = NetBox()
    import_zip(netbox, files)
    before = netbox._copy()
    refused = import_zip(netbox, files)
    assert real_errors(refused) == {}
    assert set(refused) == set(readme_order(files))  # every file refused as a whole: all its rows exist
    assert netbox == before and len(netbox.vrfs) == 1


def test_a_whole_cluster_design_gives_each_address_once(whole_cluster, tmp_path):
    # the management switch's own address (its rack's gateway) sits on its SVI once, not on every access port
    files = netbox_files(whole_cluster, tmp_path)
    netbox = NetBox()
    assert real_errors(import_zip(netbox, files)) == {}
    assert netbox.cables == LinkRecord.objects.filter(version=whole_cluster).count()
    assert_inventory(netbox, whole_cluster, files, "cluster")
    svi = [row for row in tables(files)["ip_addresses"] if row["interface"] == "Vlan1"]
    assert svi and len({row["device"] for row in svi}) == len(svi)
    assert import_zip(netbox, files).keys() == set(readme_order(files))  # and a second import creates nothing


def test_designs_import_beside_each_other_in_either_order_and_twice(ethernet, infiniband, whole_cluster, tmp_path):
    designs = [(ethernet, "eth-512"), (infiniband, "ib-512"), (whole_cluster, "cluster")]
    for order in (designs, designs[::-1]):
        netbox = NetBox()
        for version, prefix in order:
            files = netbox_files(version, tmp_path)
            refused = import_zip(netbox, files)
            assert real_errors(refused) == {}, prefix
            # only files of objects the designs share may be refused: never the design's own
            own = [name for name in refused if logical_file(name) not in
                   {"manufacturers", "device_roles", "device_types", "tenants", "sites", "rirs", "asns"}]
            assert own == [], prefix
            assert_inventory(netbox, version, files, prefix)
        cables = netbox.cables
        for version, _prefix in order:
            assert real_errors(import_zip(netbox, netbox_files(version, tmp_path))) == {}
        assert netbox.cables == cables == sum(LinkRecord.objects.filter(version=v).count() for v, _ in designs)


def test_the_same_server_model_on_infiniband_and_ethernet_is_two_device_types(ethernet, infiniband, tmp_path):
    eth = {d for d in tables(netbox_files(ethernet, tmp_path))["devices"] for d in [d["device_type"]]}
    ib = {d for d in tables(netbox_files(infiniband, tmp_path))["devices"] for d in [d["device_type"]]}
    assert any(t.endswith("(Ethernet)") for t in eth) and any(t.endswith("(InfiniBand)") for t in ib)
    assert not eth & ib


def test_every_object_is_the_customers_tenant(ethernet, tmp_path):
    files = netbox_files(ethernet, tmp_path)
    customer = ethernet.design.project.customer.name
    t = tables(files)
    assert t["tenants"] == [{"name": customer, "slug": t["tenants"][0]["slug"], "description": "fabricweb customer"}]
    for key in ("sites", "locations", "racks", "devices", "vrfs", "prefixes", "ip_addresses"):
        assert {row["tenant"] for row in t[key]} == {customer}, key
