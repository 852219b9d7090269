"""NetBox device-type import through the API: preview, confirm with the plan's digest, per-file report;
export back to the library's format."""
import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.catalog.models import Manufacturer, SwitchModel
from apps.catalog.netbox_types import port_type

from .factories import SwitchModelFactory

pytestmark = pytest.mark.django_db


def device_type(interface_type: str, *, part_number="920-9N42F-00RI-7C0", cages=64, model="SN5600",
                power=True) -> str:
    """A device type shaped like the NetBox device-type library's SN5600 file."""
    interfaces = [{"name": "eth0", "type": "1000base-t", "mgmt_only": True}]
    interfaces += [{"name": f"swp{i}", "type": interface_type} for i in range(1, cages + 1)]
    interfaces += [{"name": "sfp1", "type": "25gbase-x-sfp28"}]
    doc = {
        "manufacturer": "NVIDIA", "model": model, "slug": f"nvidia-{model.lower()}", "u_height": 2,
        "airflow": "front-to-rear", "is_full_depth": True,
        "console-ports": [{"name": "console", "type": "rj-45"}],
        "interfaces": interfaces,
    }
    if part_number:
        doc["part_number"] = part_number
    if power:
        doc["power-ports"] = [
            {"name": "PSU1", "type": "iec-60320-c20", "maximum_draw": 2300, "allocated_draw": 1200},
            {"name": "PSU2", "type": "iec-60320-c20", "maximum_draw": 2300, "allocated_draw": 1200},
        ]
    return "---\n" + yaml.safe_dump(doc, sort_keys=False)


def preview(client, data, fmt="json"):
    return client.post(reverse("catalog-import-netbox"), data, format=fmt)


def import_confirmed(client, data, fmt="json", **extra):
    """Preview, then confirm with the preview's digest: what a client of the API does."""
    response = preview(client, data, fmt)
    assert response.status_code == 200, response.json()
    return client.post(reverse("catalog-import-netbox"), data | {"confirm": response.json()["digest"]} | extra,
                       format=fmt)


def test_the_preview_saves_nothing_and_the_confirm_saves_what_it_showed(staff_client):
    response = preview(staff_client, {"yaml": device_type("800gbase-x-osfp")})
    assert response.status_code == 200, response.json()
    plan = response.json()
    assert not SwitchModel.objects.exists() and not Manufacturer.objects.exists()
    [file] = plan["files"]
    [switch] = file["switches"]
    assert (file["status"], switch["action"], switch["sku"]) == ("ok", "create", "920-9N42F-00RI-7C0")
    changes = {c["field"]: c["new"] for c in switch["changes"]}
    assert changes["cages"] == "64" and changes["cage_gbps"] == "800" and changes["switch_class"] == "fabric"
    assert any("sfp1" in w for w in switch["warnings"])  # the port left out is counted and named
    response = staff_client.post(reverse("catalog-import-netbox"),
                                 {"yaml": device_type("800gbase-x-osfp"), "confirm": plan["digest"]}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["created"]["switches"] == 1 and body["switches"] == ["920-9N42F-00RI-7C0"]
    assert any("price missing" in w for w in body["warnings"])
    switch = SwitchModel.objects.get(sku="920-9N42F-00RI-7C0")
    assert (switch.cages, switch.cage_gbps, switch.cage_form_factor) == (64, 800, "OSFP")
    assert switch.breakouts == ["1x800G", "2x400G", "4x200G"]
    assert (switch.power_typical_w, switch.power_max_w, switch.rack_units) == (1200, 2300, 2)
    assert switch.list_price == 0 and not switch.price_is_example and switch.asic_tbps is None
    assert switch.manufacturer.name == "NVIDIA" and "NetBox device-type library" in switch.source


def test_a_confirm_whose_plan_changed_is_a_409_with_the_new_plan_and_saves_nothing(staff_client):
    text = device_type("800gbase-x-osfp")
    digest = preview(staff_client, {"yaml": text}).json()["digest"]
    SwitchModelFactory(sku="920-9N42F-00RI-7C0", cages=32, asic_tbps="51.2")  # someone changed the catalog
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": text, "confirm": digest}, format="json")
    assert response.status_code == 409
    assert response.json()["plan"]["files"][0]["switches"][0]["action"] == "update"
    assert SwitchModel.objects.get().cages == 32


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("800gbase-x-osfp", (800, "OSFP", "")), ("800gbase-osfp800", (800, "OSFP", "")),
        ("400gbase-x-osfp-rhs", (400, "OSFP-RHS", "")), ("400gbase-x-qsfpdd", (400, "QSFP-DD", "")),
        ("400gbase-x-qsfp112", (400, "QSFP112", "")), ("200gbase-x-qsfp56", (200, "QSFP56", "")),
        ("100gbase-x-qsfp28", (100, "QSFP28", "")), ("800gbase-x-qsfpdd", (800, "QSFP-DD", "")),
        ("100gbase-x-dsfp", (100, "DSFP", "")), ("100gbase-x-sfpdd", (100, "SFP-DD", "")),
        ("50gbase-x-sfp56", (50, "SFP56", "")), ("25gbase-x-sfp28", (25, "SFP28", "")),
        ("25gbase-sfp28", (25, "SFP28", "")), ("10gbase-x-sfpp", (10, "SFP+", "")), ("1000base-x-sfp", (1, "SFP", "")),
        ("40gbase-x-qsfpp", (40, "QSFP+", "")), ("1000base-t", (1, "RJ45", "")), ("10gbase-t", (10, "RJ45", "")),
        ("100gbase-x-cfp", (100, "", "CFP")), ("100gbase-x-cfp2", (100, "", "CFP2")),
        ("400gbase-x-cfp8", (400, "", "CFP8")), ("100gbase-x-cxp", (100, "", "CXP")),
        ("400gbase-x-cdfp", (400, "", "CDFP")),
        ("infiniband-ndr", (400, "OSFP", "")), ("infiniband-hdr", (200, "QSFP56", "")),
        ("infiniband-fdr", (56, "", "FDR")),
    ],
)
def test_interface_type_slugs_are_read_as_speed_and_cage(slug, expected):
    kind = port_type(slug)
    assert (kind.gbps, kind.form_factor, kind.unsupported_cage) == expected


@pytest.mark.parametrize("slug", ["virtual", "lag", "ieee802.11ax", "cisco-stackwise-480", "10gbase-kr", "32gfc-sfp28"])
def test_types_that_are_not_data_ports_are_no_cages(slug):
    assert port_type(slug).use != "data"


def test_multipart_upload_of_several_files_and_documents(staff_client):
    tomahawk4 = device_type("400gbase-x-qsfpdd", part_number="DCS-7060DX5-64S", model="7060DX5-64S").replace(
        "NVIDIA", "Arista")
    two_docs = device_type("800gbase-x-osfp") + device_type("400gbase-x-osfp", part_number="MQM9700-NS2F",
                                                            model="QM9700")
    files = [SimpleUploadedFile(name, text.encode(), content_type="application/yaml")
             for name, text in (("a.yaml", tomahawk4), ("b.yaml", two_docs))]
    response = preview(staff_client, {"file": files}, fmt="multipart")
    assert response.status_code == 200, response.json()
    digest = response.json()["digest"]
    files = [SimpleUploadedFile(name, text.encode(), content_type="application/yaml")
             for name, text in (("a.yaml", tomahawk4), ("b.yaml", two_docs))]
    response = staff_client.post(reverse("catalog-import-netbox"), {"file": files, "confirm": digest},
                                 format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["created"]["switches"] == 3
    arista = SwitchModel.objects.get(sku="DCS-7060DX5-64S")
    assert (arista.cage_form_factor, arista.cage_gbps, arista.breakouts[0]) == ("QSFP-DD", 400, "1x400G")
    assert arista.manufacturer.name == "Arista"
    # the library types the QM9700 as Ethernet: its model family makes it InfiniBand, 2 ports per OSFP cage
    quantum = SwitchModel.objects.get(sku="MQM9700-NS2F")
    assert (quantum.fabric, quantum.cages, quantum.cage_gbps) == ("infiniband", 32, 800)


def test_reimport_keeps_an_existing_price(staff_client):
    SwitchModelFactory(sku="920-9N42F-00RI-7C0", list_price="58000.00", cages=32, asic_tbps="51.2")
    response = import_confirmed(staff_client, {"yaml": device_type("800gbase-x-osfp")})
    assert response.status_code == 200, response.json()
    assert response.json()["updated"]["switches"] == 1
    switch = SwitchModel.objects.get(sku="920-9N42F-00RI-7C0")
    assert switch.cages == 64 and switch.list_price == 58000
    assert not any("price missing" in w for w in response.json()["warnings"])


def test_a_file_without_power_or_part_number_never_wipes_what_the_catalog_knows(staff_client):
    SwitchModelFactory(sku="920-9N42F-00RI-7C0", model="Spectrum-4 SN5600", description="The seed's words",
                       manufacturer__name="NVIDIA", power_typical_w=1200, power_max_w=2300, source="data sheet")
    text = device_type("800gbase-x-osfp", part_number=None, power=False).replace("NVIDIA", "Nvidia")
    response = preview(staff_client, {"yaml": text})
    [switch] = response.json()["files"][0]["switches"]
    assert (switch["action"], switch["sku"], switch["matched_by"]) == ("unchanged", "920-9N42F-00RI-7C0", "model")
    assert any("power (1200 / 2300 W) is kept" in w for w in switch["warnings"])
    response = import_confirmed(staff_client, {"yaml": text})
    assert response.status_code == 200, response.json()
    assert SwitchModel.objects.count() == 1
    kept = SwitchModel.objects.get()
    assert (kept.model, kept.description, kept.source) == ("Spectrum-4 SN5600", "The seed's words", "data sheet")
    assert (kept.power_typical_w, kept.power_max_w) == (1200, 2300)


CHASSIS = yaml.safe_dump({"manufacturer": "Cisco", "model": "Nexus 9508", "slug": "cisco-n9k-c9508", "u_height": 13,
                          "module-bays": [{"name": f"Slot {i}", "position": str(i), "description": "Line Card"}
                                          for i in range(1, 9)]})


def files():
    return [SimpleUploadedFile("good.yaml", device_type("800gbase-x-osfp").encode()),
            SimpleUploadedFile("chassis.yaml", CHASSIS.encode())]


def test_a_refused_file_stops_the_batch_unless_the_user_skips_it(staff_client):
    plan = preview(staff_client, {"file": files()}, fmt="multipart").json()
    statuses = {f["file"]: f["status"] for f in plan["files"]}
    assert statuses == {"good.yaml": "ok", "chassis.yaml": "refused"} and plan["refused_files"] == 1
    [refusal] = plan["files"][1]["switches"][0]["errors"]
    assert refusal["message"].startswith("Line cards are not supported") and refusal["column"] == "module-bays"
    response = staff_client.post(reverse("catalog-import-netbox"), {"file": files(), "confirm": plan["digest"]},
                                 format="multipart")
    assert response.status_code == 400 and not SwitchModel.objects.exists()
    response = staff_client.post(reverse("catalog-import-netbox"),
                                 {"file": files(), "confirm": plan["digest"], "skip_refused": "true"},
                                 format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["skipped_files"] == ["chassis.yaml"] and response.json()["created"]["switches"] == 1
    assert any(w.startswith("chassis.yaml skipped: Line cards are not supported") for w in response.json()["warnings"])


def test_malformed_yaml_is_a_400_and_nothing_is_saved(staff_client):
    response = preview(staff_client, {"yaml": "manufacturer: NVIDIA\ninterfaces: [ {name: a, type: \n"})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert "Not valid YAML" in error["message"] and error["sheet"] == "yaml"
    assert not SwitchModel.objects.exists() and not Manufacturer.objects.exists()


def test_unknown_interface_type_and_missing_model_are_field_errors(staff_client):
    doc = yaml.safe_load(device_type("800gbase-x-osfp"))
    doc["interfaces"][5]["type"] = "800gbase-x-warp"
    del doc["model"]
    text = device_type("800gbase-x-osfp", part_number="OTHER") + "---\n" + yaml.safe_dump(doc)
    response = preview(staff_client, {"yaml": text})
    assert response.status_code == 400
    errors = {(e["row"], e["column"]) for e in response.json()["errors"]}
    assert errors == {(2, "model"), (2, "interfaces[5].type")}
    assert not SwitchModel.objects.exists()


def test_data_ports_in_cages_the_catalog_does_not_stock_are_named(staff_client):
    response = preview(staff_client, {"yaml": device_type("100gbase-x-cfp2", cages=8)})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["column"] == "interfaces" and "CFP2 cages" in error["message"]


def test_document_without_data_ports_is_refused(staff_client):
    text = yaml.safe_dump({"manufacturer": "X", "model": "Mgmt",
                           "interfaces": [{"name": "eth0", "type": "1000base-t", "mgmt_only": True}]})
    response = preview(staff_client, {"yaml": text})
    assert response.status_code == 400
    assert response.json()["errors"][0]["column"] == "interfaces"


def test_empty_request_is_a_field_error(staff_client):
    response = preview(staff_client, {})
    assert response.status_code == 400 and "file" in response.json()


def test_only_staff_import_netbox(user_client):
    response = preview(user_client, {"yaml": device_type("800gbase-x-osfp")})
    assert response.status_code == 403
    assert not SwitchModel.objects.exists()


def test_switch_exports_to_netbox_yaml_and_imports_back(user_client, staff_client):
    switch = SwitchModelFactory(sku="Z9864F-ON", model="PowerSwitch Z9864F-ON", power_typical_w=1080,
                                power_max_w=2250, source="Dell data sheet")
    response = user_client.get(reverse("catalog-switch-netbox", args=[switch.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/yaml")
    doc = yaml.safe_load(response.content)
    assert doc["part_number"] == "Z9864F-ON" and doc["u_height"] == 2
    assert len(doc["interfaces"]) == 64 and {i["type"] for i in doc["interfaces"]} == {"800gbase-x-osfp"}
    switch.delete()
    response = import_confirmed(staff_client, {"yaml": response.content.decode()})
    assert response.status_code == 200, response.json()
    back = SwitchModel.objects.get(sku="Z9864F-ON")
    assert (back.cages, back.cage_gbps, back.cage_form_factor, back.rack_units) == (64, 800, "OSFP", 2)
    assert (back.power_typical_w, back.power_max_w, back.source) == (1080, 2250, "Dell data sheet")


def test_a_front_end_switch_exports_its_uplinks_and_imports_back_the_same(user_client, staff_client):
    switch = SwitchModelFactory(sku="N8560-48BC", model="N8560-48BC", switch_class="frontend", cages=48,
                                cage_form_factor="SFP28", cage_gbps=25, breakouts=["1x25G"], uplink_cages=8,
                                uplink_form_factor="QSFP28", uplink_gbps=100, asic_tbps="2.0",
                                power_typical_w=None, power_max_w=None)
    doc = yaml.safe_load(user_client.get(reverse("catalog-switch-netbox", args=[switch.pk])).content)
    types = [i["type"] for i in doc["interfaces"]]
    assert types == ["25gbase-x-sfp28"] * 48 + ["100gbase-x-qsfp28"] * 8
    assert doc["power-ports"][0] == {"name": "PSU1", "type": "iec-60320-c20"}  # no draw of 0 W
    switch.delete()
    response = import_confirmed(staff_client, {"yaml": yaml.safe_dump(doc)})
    assert response.status_code == 200, response.json()
    back = SwitchModel.objects.get(sku="N8560-48BC")
    assert (back.switch_class, back.cages, back.cage_gbps, back.cage_form_factor) == ("frontend", 48, 25, "SFP28")
    assert (back.uplink_cages, back.uplink_gbps, back.uplink_form_factor) == (8, 100, "QSFP28")
    assert back.power_typical_w is None and back.power_max_w is None


@pytest.mark.parametrize("text, problem", [
    ("a: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    (device_type("800gbase-x-osfp").replace("u_height: 2", "u_height: " + "9" * 5000), "too many digits"),
], ids=["deep-nesting", "5000-digit-number"])
def test_yaml_python_cannot_load_is_a_400_naming_the_problem(staff_client, text, problem):
    response = preview(staff_client, {"yaml": text})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["message"].startswith("Not valid YAML") and problem in error["message"]
    assert not SwitchModel.objects.exists() and not Manufacturer.objects.exists()


def test_a_number_past_the_float_range_is_a_field_error(staff_client):
    text = device_type("800gbase-x-osfp").replace("u_height: 2", "u_height: " + "9" * 400)
    response = preview(staff_client, {"yaml": text})
    assert response.status_code == 400
    assert [e["column"] for e in response.json()["errors"]] == ["u_height"]
    assert not SwitchModel.objects.exists()


def test_infiniband_ndr_ports_import_as_an_infiniband_switch_of_twin_port_cages(staff_client):
    text = device_type("infiniband-ndr", part_number="MQM9790-NS2F", cages=64, model="QM9790")
    response = import_confirmed(staff_client, {"yaml": text})
    assert response.status_code == 200, response.json()
    switch = SwitchModel.objects.get(sku="MQM9790-NS2F")
    assert switch.fabric == "infiniband"
    assert (switch.cages, switch.cage_gbps, switch.cage_form_factor) == (32, 800, "OSFP")
    assert switch.breakouts == ["2x400G", "4x200G"]


def test_ethernet_import_stays_ethernet(staff_client):
    response = import_confirmed(staff_client, {"yaml": device_type("800gbase-x-osfp")})
    assert response.status_code == 200, response.json()
    assert SwitchModel.objects.get(sku="920-9N42F-00RI-7C0").fabric == "ethernet"


def test_infiniband_switch_exports_ndr_ports_and_imports_back(user_client, staff_client):
    switch = SwitchModelFactory(sku="MQM9700-NS2F", model="Quantum-2 QM9700", fabric="infiniband", cages=32,
                                cage_gbps=800, breakouts=["2x400G", "4x200G"], rack_units=1)
    response = user_client.get(reverse("catalog-switch-netbox", args=[switch.pk]))
    doc = yaml.safe_load(response.content)
    assert len(doc["interfaces"]) == 64 and {i["type"] for i in doc["interfaces"]} == {"infiniband-ndr"}
    assert doc["interfaces"][1]["name"] == "IB1/2"
    switch.delete()
    response = import_confirmed(staff_client, {"yaml": response.content.decode()})
    assert response.status_code == 200, response.json()
    back = SwitchModel.objects.get(sku="MQM9700-NS2F")
    assert (back.fabric, back.cages, back.cage_gbps, back.breakouts) == ("infiniband", 32, 800, ["2x400G", "4x200G"])
