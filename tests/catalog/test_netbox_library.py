"""Real files of the NetBox community device-type library (tests/catalog/data/devicetype-library, CC0) through
the catalog's NetBox import: what each one becomes is pinned here, and the export stays valid against the
library's own JSON schema."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from apps.catalog.models import SwitchModel
from apps.catalog.services import catalog_seed_load
from tests.factories import StaffFactory

from .factories import SwitchModelFactory

pytestmark = pytest.mark.django_db

LIBRARY = Path(__file__).parent / "data" / "devicetype-library"
DEVICE_TYPES = LIBRARY / "device-types"
# Written against another revision of the library's schema than the one kept here (see the data README).
OTHER_SCHEMA_REVISION = {"Edgecore/7726-32X-O.yaml", "Edgecore/AS9817-64O-O-AC-F.yaml", "Juniper/EX4400-48T.yaml",
                         "Juniper/QFX5120-48Y.yaml", "Juniper/QFX5130-32CD.yaml"}


@dataclass(frozen=True)
class Becomes:
    switch_class: str
    fabric: str
    cages: int
    gbps: int
    cage: str
    uplinks: tuple[int, int, str] = (0, 0, "")
    power: tuple[float | None, float | None] = (None, None)  # typical, maximum
    left_out: int = 0  # interfaces the warning counts as not modelled
    notes: tuple[str, ...] = ()  # words some warning of the switch holds


@dataclass(frozen=True)
class Refused:
    reason: str


ETH, IB = "ethernet", "infiniband"
EXPECTED: dict[str, Becomes | Refused] = {
    "Arista/DCS-7010TX-48.yaml": Becomes("management", ETH, 48, 1, "RJ45", (4, 25, "SFP28"), (91, 106), 1),
    "Arista/DCS-7050CX3-32S-F.yaml": Becomes("fabric", ETH, 32, 100, "QSFP28", left_out=3,
                                             notes=("2 × 10G SFP+ (Ethernet33, Ethernet34)",)),
    "Arista/DCS-7060DX5-64S-F.yaml": Becomes("fabric", ETH, 64, 400, "QSFP-DD", left_out=3),
    "Arista/DCS-7060X6-64PE-F.yaml": Becomes("fabric", ETH, 64, 800, "OSFP", power=(None, 2400), left_out=3,
                                             notes=("management ports not marked mgmt_only (Management1)",
                                                    "2 × 25G SFP28 (SFP1, SFP2)")),
    "Arista/DCS-7504N.yaml": Refused("Line cards are not supported"),
    "Cisco/N9K-C9348GC-FX3.yaml": Becomes("management", ETH, 48, 1, "RJ45", (2, 100, "QSFP28"), left_out=5,
                                          notes=("4 × 25G SFP28 (Ethernet1/49",)),
    "Cisco/N9K-C93600CD-GX.yaml": Becomes("frontend", ETH, 28, 100, "QSFP28", (8, 400, "QSFP-DD"), left_out=1),
    "Cisco/N9K-C9364D-GX2A.yaml": Becomes("fabric", ETH, 64, 400, "QSFP-DD", left_out=3),
    "Cisco/N9K-C9508.yaml": Refused("Line cards are not supported"),
    "Dell/Networking-z9264f-on-os10.yaml": Becomes("fabric", ETH, 64, 100, "QSFP28", power=(360, 635), left_out=3),
    "Dell/Networking_N3248TE-ON.yaml": Becomes("management", ETH, 48, 1, "RJ45", (2, 100, "QSFP28"), (212, 550), 5,
                                               notes=("4 × 10G SFP+",)),
    "Dell/Networking_s5232f-on-os10.yaml": Becomes("fabric", ETH, 32, 100, "QSFP28", power=(360, 635), left_out=3),
    "Dell/Networking_s5248f-on-os10.yaml": Becomes("frontend", ETH, 48, 25, "SFP28", (6, 100, "QSFP28"), (360, 635),
                                                   1),
    "Dell/Networking_z9332f-on-os10.yaml": Becomes("fabric", ETH, 32, 400, "QSFP-DD", power=(360, 635), left_out=3),
    "Edgecore/7726-32X-O.yaml": Becomes("fabric", ETH, 32, 100, "QSFP28", left_out=3),
    "Edgecore/AS9716-32D.yaml": Becomes("fabric", ETH, 32, 400, "QSFP-DD", power=(None, 1300), left_out=2),
    "Edgecore/AS9817-64O-O-AC-F.yaml": Becomes("fabric", ETH, 64, 800, "OSFP", power=(None, 1500), left_out=3,
                                               notes=("ASIC Management Port 1",)),
    "FS/N8560-32C.yaml": Becomes("fabric", ETH, 32, 100, "QSFP28", left_out=1),
    "FS/N8560-48BC.yaml": Becomes("frontend", ETH, 48, 25, "SFP28", (8, 100, "QSFP28"), (24, 37)),
    "Huawei/CE16804-AH.yaml": Refused("Line cards are not supported"),
    "Huawei/CE6865-48S8CQ-EI.yaml": Becomes("frontend", ETH, 48, 25, "SFP28", (8, 100, "QSFP28"), left_out=1),
    "Huawei/CE8850-64CQ-EI.yaml": Becomes("fabric", ETH, 64, 100, "QSFP28", power=(375, 965), left_out=1),
    "Huawei/CE8855-32CQ4BQ.yaml": Becomes("frontend", ETH, 32, 100, "QSFP28", (4, 200, "QSFP56"), left_out=1),
    "Juniper/EX4400-48T.yaml": Becomes("management", ETH, 48, 1, "RJ45", (2, 100, "QSFP28"), left_out=1),
    "Juniper/QFX5120-48Y.yaml": Becomes("frontend", ETH, 48, 25, "SFP28", (8, 100, "QSFP28"), (None, 650), 1),
    "Juniper/QFX5130-32CD.yaml": Becomes("fabric", ETH, 32, 400, "QSFP-DD", power=(None, 650), left_out=1),
    "Mellanox/SB7800.yml": Becomes("fabric", IB, 36, 100, "QSFP28", power=(None, 460), left_out=1,
                                   notes=("types its ports as Ethernet (100gbase-x-qsfp28)", "Switch-IB 2 (EDR)")),
    "Mellanox/SN3700.yml": Becomes("fabric", ETH, 32, 200, "QSFP56", left_out=1),
    "Mellanox/SN4700.yml": Becomes("fabric", ETH, 32, 400, "QSFP-DD", left_out=1),
    "Mellanox/qm8700.yml": Becomes("fabric", IB, 40, 200, "QSFP56", power=(None, 1100), left_out=1,
                                   notes=("Quantum (HDR)",)),
    "Nvidia/Q3400-RA.yaml": Becomes("fabric", IB, 72, 1600, "OSFP", left_out=3,
                                    notes=("8 power supplies of up to 875 W", "(eth1, fnm1)")),
    "Nvidia/QM9700.yaml": Becomes("fabric", IB, 32, 800, "OSFP",
                                  notes=("types its ports as Ethernet (400gbase-x-osfp)",
                                         "62 InfiniBand ports in 32 twin-port cages: 2 ports")),
    "Nvidia/SN2201.yaml": Becomes("management", ETH, 48, 1, "RJ45", (4, 100, "QSFP28"), left_out=1),
    "Nvidia/SN3420.yml": Becomes("frontend", ETH, 48, 25, "SFP28", (12, 100, "QSFP28"), left_out=1),
    "Nvidia/SN5600.yaml": Becomes("fabric", ETH, 64, 800, "OSFP", left_out=1),
    "Nvidia/SN5610.yaml": Becomes("fabric", ETH, 64, 800, "OSFP", left_out=1),
}


def library_files() -> list[Path]:
    return sorted(p for p in DEVICE_TYPES.rglob("*") if p.is_file())


def uploads() -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(str(p.relative_to(DEVICE_TYPES)), p.read_bytes()) for p in library_files()]


def schema_validator() -> Draft202012Validator:
    registry = Registry()
    schemas = {p.name: json.loads(p.read_text()) for p in (LIBRARY / "schema").glob("*.json")}
    for name, schema in schemas.items():
        uri = schema.get("$id", "urn:devicetype-library:" + name.removesuffix(".json"))
        registry = registry.with_resource(uri, Resource.from_contents(schema, default_specification=DRAFT202012))
    return Draft202012Validator(schemas["devicetype.json"], registry=registry)


def test_the_test_data_is_the_36_library_files_the_expectations_name():
    names = {str(p.relative_to(DEVICE_TYPES)) for p in library_files()}
    assert names == set(EXPECTED) and len(names) == 36


@pytest.mark.parametrize("path", [str(p.relative_to(DEVICE_TYPES)) for p in library_files()])
def test_library_files_are_valid_against_the_libraries_schema(path):
    errors = list(schema_validator().iter_errors(yaml.safe_load((DEVICE_TYPES / path).read_text())))
    assert bool(errors) == (path in OTHER_SCHEMA_REVISION), [e.message for e in errors]


def test_every_library_file_becomes_what_is_pinned_and_the_batch_imports_the_good_ones(staff_client):
    url = reverse("catalog-import-netbox")
    response = staff_client.post(url, {"file": uploads()}, format="multipart")
    assert response.status_code == 200, response.json()
    plan = response.json()
    by_file = {f["file"]: f for f in plan["files"]}  # an upload keeps its base name
    assert set(by_file) == {Path(name).name for name in EXPECTED}
    refused = sorted(Path(name).name for name, want in EXPECTED.items() if isinstance(want, Refused))
    assert sorted(f["file"] for f in plan["files"] if f["status"] == "refused") == refused
    assert (plan["refused_files"], plan["to_create"]) == (3, 33)
    for name, want in EXPECTED.items():
        [switch] = by_file[Path(name).name]["switches"]
        if isinstance(want, Refused):
            assert switch["action"] == "refused" and switch["errors"][0]["message"].startswith(want.reason), name
            continue
        assert switch["action"] == "create", (name, switch["errors"])
        warnings = " | ".join(switch["warnings"])
        for note in want.notes:
            assert note in warnings, (name, note, warnings)
        if want.left_out:
            assert f"{want.left_out} interface" in warnings and "not modelled as" in warnings, (name, warnings)
        else:
            assert "not modelled as" not in warnings, (name, warnings)

    # all or nothing unless the refused files are skipped
    response = staff_client.post(url, {"file": uploads(), "confirm": plan["digest"]}, format="multipart")
    assert response.status_code == 400 and not SwitchModel.objects.exists()
    response = staff_client.post(url, {"file": uploads(), "confirm": plan["digest"], "skip_refused": "true"},
                                 format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["created"]["switches"] == 33 and sorted(response.json()["skipped_files"]) == refused
    for name, want in EXPECTED.items():
        if isinstance(want, Refused):
            continue
        [planned] = by_file[Path(name).name]["switches"]
        switch = SwitchModel.objects.get(sku=planned["sku"])
        got = Becomes(switch.switch_class, switch.fabric, switch.cages, switch.cage_gbps, switch.cage_form_factor,
                      (switch.uplink_cages, switch.uplink_gbps, switch.uplink_form_factor),
                      (switch.power_typical_w, switch.power_max_w), want.left_out, want.notes)
        assert got == want, name
        assert switch.full_clean() is None and not switch.list_price and switch.asic_tbps is None


def test_library_files_of_seed_switches_update_them_instead_of_adding_duplicates(staff_client):
    catalog_seed_load()
    seed_count = SwitchModel.objects.count()
    files = [DEVICE_TYPES / "Nvidia" / name for name in ("SN5600.yaml", "QM9700.yaml", "SN2201.yaml")]
    data = lambda: {"file": [SimpleUploadedFile(p.name, p.read_bytes()) for p in files]}  # noqa: E731
    url = reverse("catalog-import-netbox")
    plan = staff_client.post(url, data(), format="multipart").json()
    found = {f["file"]: (f["switches"][0]["sku"], f["switches"][0]["matched_by"]) for f in plan["files"]}
    skus = ["920-9N42F-00RI-7C0", "MQM9700-NS2F", "SN2201"]
    assert found == {"SN5600.yaml": (skus[0], "model"), "QM9700.yaml": (skus[1], "model"),
                     "SN2201.yaml": (skus[2], "model")}
    before = {s.sku: (s.model, s.description, s.power_typical_w, s.power_max_w, s.source, s.list_price,
                      s.switch_class, s.cages, s.uplink_cages) for s in SwitchModel.objects.filter(sku__in=skus)}
    response = staff_client.post(url, data() | {"confirm": plan["digest"]}, format="multipart")
    assert response.status_code == 200, response.json()
    assert SwitchModel.objects.count() == seed_count
    after = {s.sku: (s.model, s.description, s.power_typical_w, s.power_max_w, s.source, s.list_price,
                     s.switch_class, s.cages, s.uplink_cages) for s in SwitchModel.objects.filter(sku__in=skus)}
    assert after == before  # the files carry no power, no model name of the seed's, no price: all kept
    quantum = SwitchModel.objects.get(sku="MQM9700-NS2F")
    assert (quantum.fabric, quantum.cages, quantum.cage_gbps) == ("infiniband", 32, 800)


def test_the_export_of_every_seed_switch_and_of_each_class_is_valid_against_the_libraries_schema(user_client):
    catalog_seed_load()
    SwitchModelFactory(sku="N8560-48BC", switch_class="frontend", cages=48, cage_form_factor="SFP28", cage_gbps=25,
                       breakouts=["1x25G"], uplink_cages=8, uplink_form_factor="QSFP28", uplink_gbps=100,
                       asic_tbps=None, power_typical_w=None, power_max_w=None, description="")
    SwitchModelFactory(sku="MGMT-48T-MAX-ONLY", switch_class="management", cages=48, cage_form_factor="RJ45", cage_gbps=1,
                       breakouts=["1x1G"], uplink_cages=2, uplink_form_factor="QSFP28", uplink_gbps=100,
                       asic_tbps=None, power_typical_w=None, power_max_w=550)
    validator = schema_validator()
    for switch in SwitchModel.objects.all():
        doc = yaml.safe_load(user_client.get(reverse("catalog-switch-netbox", args=[switch.pk])).content)
        assert [e.message for e in validator.iter_errors(doc)] == [], switch.sku
        draws = [port.get(key) for port in doc["power-ports"] for key in ("maximum_draw", "allocated_draw")]
        assert 0 not in draws


@pytest.mark.parametrize("language, words", [("en", "Line cards are not supported"), ("zh-hans", "不支持线卡")])
def test_the_page_previews_the_36_files_per_file_in_both_languages(client, language, words):
    client.force_login(StaffFactory())
    response = client.post(reverse("catalog:import-netbox"), {"files": uploads()}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('data-action="refused"') == 3 and html.count('data-action="create"') == 33
    assert html.count(words) == 3 and 'name="skip_refused"' in html
    assert not SwitchModel.objects.exists()
