"""A switch's ports in NetBox carry the names its configuration gives them (issue 33): an Arista switch EOS's
Ethernet<cage>/<lane>, as in its EOS configuration; a Dell switch SONiC's Ethernet<lane>, as in its config_db (the
configuration the design writes for Dell). Interface templates, cables, cable labels and addresses agree."""
from __future__ import annotations

import json
import re

import pytest

from apps.catalog.models import SwitchModel
from apps.designs.models import DesignVersion, LinkRecord
from apps.engine.plan import plan
from apps.engine.roce import RoceSettings, roce_configs
from apps.engine.specio import spec_from_dict
from tests.designs.conftest import inputs
from tests.exports.netbox_model import NetBox
from tests.exports.test_exports import device_types, generate, tables
from tests.exports.test_netbox_import import import_zip, netbox_files

pytestmark = pytest.mark.django_db

ARISTA_800G = "DCS-7060X6-64PE"  # 64x800G OSFP, 2x400G: two ports per cage
DELL_800G = "Z9864F-ON"
EOS_INTERFACE = re.compile(r"^interface (Ethernet\S+)$", re.M)


def design(project, member, seed, capture, sku: str, name: str, **changes) -> DesignVersion:
    leaf = SwitchModel.objects.get(sku=sku)
    return generate(project, member, inputs(seed, leaf_switch=leaf.pk, leaf_breakout="2x400G", gpus=256, **changes),
                    capture, name=name)


def configs(version: DesignVersion) -> dict[str, str]:
    return {name: text for name, text in roce_configs(plan(spec_from_dict(version.spec)), RoceSettings())
            if not name.startswith("server/")}


def netbox_ports(files: dict[str, str], prefix: str) -> tuple[dict[str, set[str]], dict[str, list[str]]]:
    """(cabled ports per device, interface templates per device type model) of a NetBox zip."""
    cabled: dict[str, set[str]] = {}
    for row in tables(files)["cables"]:
        for side in ("side_a", "side_b"):
            device = row[f"{side}_device"].removeprefix(f"{prefix}-")
            cabled.setdefault(device, set()).add(row[f"{side}_name"])
    templates = {t["model"]: [i["name"] for i in t.get("interfaces", [])] for t in device_types(files)}
    return cabled, templates


@pytest.fixture
def arista(project, member, seed, django_capture_on_commit_callbacks):
    return design(project, member, seed, django_capture_on_commit_callbacks, ARISTA_800G, "Arista 256")


@pytest.fixture
def dell(project, member, seed, django_capture_on_commit_callbacks):
    # The seed catalog has no Dell-qualified 800G optics: the design allows third-party ones.
    return design(project, member, seed, django_capture_on_commit_callbacks, DELL_800G, "Dell 256",
                  third_party_optics=True)


def test_an_arista_switchs_netbox_ports_are_the_interfaces_of_its_eos_configuration(arista, tmp_path):
    files = netbox_files(arista, tmp_path)
    cabled, templates = netbox_ports(files, "arista-256")
    eos = {name.split("/", 1)[1].removesuffix(".eos.cfg"): set(EOS_INTERFACE.findall(text))
           for name, text in configs(arista).items() if name.endswith(".eos.cfg")}
    assert eos  # every Arista switch has its EOS file
    for device, interfaces in eos.items():
        assert cabled[device] == interfaces
    leaf_type = next(names for model, names in templates.items() if model.startswith("7060X6-64PE"))
    assert leaf_type[:4] == ["Ethernet1/1", "Ethernet1/5", "Ethernet2/1", "Ethernet2/5"]
    assert leaf_type[-1] == "Loopback0" and len(leaf_type) == 128 + 1
    assert set().union(*eos.values()) <= set(leaf_type)
    # cable labels and the switches' addresses name the same ports
    for row in tables(files)["cables"]:
        if row["side_b_device"].startswith("arista-256-p"):
            assert row["label"].endswith(f":{row['side_b_name']}")
    switch_ports = {row["interface"] for row in tables(files)["ip_addresses"]
                    if "-leaf-" in row["device"] or "-spine-" in row["device"]}
    assert switch_ports and all(re.fullmatch(r"Ethernet\d+/\d+|Loopback0", port) for port in switch_ports)
    # NetBox takes it: the cables' ports are the ones the templates made
    netbox = NetBox()
    assert import_zip(netbox, files) == {}
    assert netbox.cables == LinkRecord.objects.filter(version=arista).count()


def test_a_dell_switchs_netbox_ports_are_the_ports_of_its_config_db(dell, tmp_path):
    files = netbox_files(dell, tmp_path)
    cabled, templates = netbox_ports(files, "dell-256")
    dbs = {name.split("/", 1)[1].removesuffix(".config_db.json"): json.loads(text)
           for name, text in configs(dell).items() if name.endswith(".config_db.json")}
    assert dbs and not any(name.endswith(".eos.cfg") for name in configs(dell))
    leaf_type = next(names for model, names in templates.items() if model.startswith("PowerSwitch Z9864F-ON"))
    for device, db in dbs.items():
        assert cabled[device] <= set(db["INTERFACE"]) | {key.split("|")[0] for key in db["INTERFACE"]}
        assert set(db["PORT"]) == set(leaf_type) - {"Loopback0"}
    netbox = NetBox()
    assert import_zip(netbox, files) == {}
    assert netbox.cables == LinkRecord.objects.filter(version=dell).count()
