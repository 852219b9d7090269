import pytest
import yaml
from django.urls import reverse

from apps.catalog.models import Manufacturer, SwitchModel
from apps.catalog.netbox import netbox_interface_kind

from .factories import SwitchModelFactory

pytestmark = pytest.mark.django_db


def device_type(interface_type: str, *, part_number="920-9N42F-00RI-7C0", cages=64) -> str:
    """A device type shaped like the NetBox device-type library's SN5600 file."""
    interfaces = [{"name": "eth0", "type": "1000base-t", "mgmt_only": True}]
    interfaces += [{"name": f"swp{i}", "type": interface_type} for i in range(1, cages + 1)]
    interfaces += [{"name": "sfp1", "type": "25gbase-x-sfp28"}]
    doc = {
        "manufacturer": "NVIDIA", "model": "SN5600", "slug": "nvidia-sn5600", "part_number": part_number,
        "u_height": 2, "airflow": "front-to-rear", "is_full_depth": True,
        "console-ports": [{"name": "console", "type": "rj-45"}],
        "interfaces": interfaces,
        "power-ports": [
            {"name": "PSU1", "type": "iec-60320-c20", "maximum_draw": 2300, "allocated_draw": 1200},
            {"name": "PSU2", "type": "iec-60320-c20", "maximum_draw": 2300, "allocated_draw": 1200},
        ],
    }
    return "---\n" + yaml.safe_dump(doc, sort_keys=False)


@pytest.mark.parametrize("interface_type", ["800gbase-x-osfp", "800gbase-osfp800"])
def test_netbox_sn5600_gives_64_cages_at_800g(staff_client, interface_type):
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": device_type(interface_type)},
                                 format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["created"]["switches"] == 1 and body["switches"] == ["920-9N42F-00RI-7C0"]
    assert any("price missing" in w for w in body["warnings"])
    switch = SwitchModel.objects.get(sku="920-9N42F-00RI-7C0")
    assert (switch.cages, switch.cage_gbps, switch.cage_form_factor) == (64, 800, "OSFP")
    assert switch.breakouts == ["1x800G", "2x400G", "4x200G"]
    assert switch.logical_ports["2x400G"] == 128
    assert (switch.power_typical_w, switch.power_max_w, switch.rack_units) == (1200, 2300, 2)
    assert switch.list_price == 0 and not switch.price_is_example
    assert switch.manufacturer.name == "NVIDIA"


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        ("800gbase-x-osfp", (800, "OSFP")), ("800gbase-osfp800", (800, "OSFP")),
        ("400gbase-x-osfp-rhs", (400, "OSFP")), ("400gbase-x-qsfpdd", (400, "QSFP-DD")),
        ("400gbase-x-qsfp112", (400, "QSFP112")), ("200gbase-x-qsfp56", (200, "QSFP56")),
        ("100gbase-x-qsfp28", (100, "QSFP28")), ("800gbase-x-qsfpdd", (800, "QSFP-DD")),
        ("1000base-t", None), ("25gbase-x-sfp28", None), ("virtual", None),
        ("infiniband-ndr", (400, "OSFP")), ("infiniband-hdr", (200, "QSFP56")), ("infiniband-fdr", None),
    ],
)
def test_interface_type_slugs_are_normalised(slug, expected):
    assert netbox_interface_kind(slug) == expected


def test_multipart_upload_of_several_files_and_documents(staff_client):
    tomahawk4 = device_type("400gbase-x-qsfpdd", part_number="DCS-7060DX5-64S").replace("NVIDIA", "Arista")
    two_docs = device_type("800gbase-x-osfp") + device_type("400gbase-x-osfp", part_number="MQM9700-NS2F")
    files = []
    for name, text in (("a.yaml", tomahawk4), ("b.yaml", two_docs)):
        from django.core.files.uploadedfile import SimpleUploadedFile

        files.append(SimpleUploadedFile(name, text.encode(), content_type="application/yaml"))
    response = staff_client.post(reverse("catalog-import-netbox"), {"file": files}, format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json()["created"]["switches"] == 3
    arista = SwitchModel.objects.get(sku="DCS-7060DX5-64S")
    assert (arista.cage_form_factor, arista.cage_gbps, arista.breakouts[0]) == ("QSFP-DD", 400, "1x400G")
    assert arista.manufacturer.name == "Arista"


def test_reimport_keeps_an_existing_price(staff_client):
    SwitchModelFactory(sku="920-9N42F-00RI-7C0", list_price="58000.00", cages=32, asic_tbps="51.2")
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": device_type("800gbase-x-osfp")},
                                 format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["updated"]["switches"] == 1
    switch = SwitchModel.objects.get(sku="920-9N42F-00RI-7C0")
    assert switch.cages == 64 and switch.list_price == 58000
    assert not any("price missing" in w for w in response.json()["warnings"])


def test_malformed_yaml_is_a_400_and_nothing_is_saved(staff_client):
    response = staff_client.post(reverse("catalog-import-netbox"),
                                 {"yaml": "manufacturer: NVIDIA\ninterfaces: [ {name: a, type: \n"}, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert "Not valid YAML" in error["message"] and error["sheet"] == "yaml"
    assert not SwitchModel.objects.exists() and not Manufacturer.objects.exists()


def test_unknown_interface_type_and_missing_model_are_field_errors(staff_client):
    doc = yaml.safe_load(device_type("800gbase-x-osfp"))
    doc["interfaces"][5]["type"] = "400gbase-x-cfp8"
    del doc["model"]
    good = device_type("800gbase-x-osfp", part_number="OTHER")
    text = good + "---\n" + yaml.safe_dump(doc)
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": text}, format="json")
    assert response.status_code == 400
    errors = {(e["row"], e["column"]) for e in response.json()["errors"]}
    assert errors == {(2, "model"), (2, "interfaces[5].type")}
    assert not SwitchModel.objects.exists()


def test_document_without_data_ports_is_refused(staff_client):
    text = yaml.safe_dump({"manufacturer": "X", "model": "Mgmt", "interfaces": [{"name": "eth0", "type": "1000base-t"}]})
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": text}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["column"] == "interfaces"


def test_empty_request_is_a_field_error(staff_client):
    response = staff_client.post(reverse("catalog-import-netbox"), {}, format="json")
    assert response.status_code == 400 and "file" in response.json()


def test_only_staff_import_netbox(user_client):
    response = user_client.post(reverse("catalog-import-netbox"), {"yaml": device_type("800gbase-x-osfp")},
                                format="json")
    assert response.status_code == 403
    assert not SwitchModel.objects.exists()


def test_switch_exports_to_netbox_yaml_and_imports_back(user_client, staff_client):
    switch = SwitchModelFactory(sku="Z9864F-ON", model="PowerSwitch Z9864F-ON", power_typical_w=1080,
                                power_max_w=2250)
    response = user_client.get(reverse("catalog-switch-netbox", args=[switch.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/yaml")
    doc = yaml.safe_load(response.content)
    assert doc["part_number"] == "Z9864F-ON" and doc["u_height"] == 2
    assert len(doc["interfaces"]) == 64 and {i["type"] for i in doc["interfaces"]} == {"800gbase-x-osfp"}
    switch.delete()
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": response.content.decode()}, format="json")
    assert response.status_code == 200, response.json()
    back = SwitchModel.objects.get(sku="Z9864F-ON")
    assert (back.cages, back.cage_gbps, back.cage_form_factor, back.rack_units) == (64, 800, "OSFP", 2)
    assert (back.power_typical_w, back.power_max_w) == (1080, 2250)


@pytest.mark.parametrize("text, problem", [
    ("a: " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    (device_type("800gbase-x-osfp").replace("u_height: 2", "u_height: " + "9" * 5000), "too many digits"),
], ids=["deep-nesting", "5000-digit-number"])
def test_yaml_python_cannot_load_is_a_400_naming_the_problem(staff_client, text, problem):
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": text}, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["message"].startswith("Not valid YAML") and problem in error["message"]
    assert not SwitchModel.objects.exists() and not Manufacturer.objects.exists()


def test_a_number_past_the_float_range_is_a_field_error(staff_client):
    text = device_type("800gbase-x-osfp").replace("u_height: 2", "u_height: " + "9" * 400)
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": text}, format="json")
    assert response.status_code == 400
    assert [e["column"] for e in response.json()["errors"]] == ["u_height"]
    assert not SwitchModel.objects.exists()


def test_infiniband_ndr_ports_import_as_an_infiniband_switch_of_twin_port_cages(staff_client):
    text = device_type("infiniband-ndr", part_number="MQM9790-NS2F", cages=64)
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": text}, format="json")
    assert response.status_code == 200, response.json()
    switch = SwitchModel.objects.get(sku="MQM9790-NS2F")
    assert switch.fabric == "infiniband"
    assert (switch.cages, switch.cage_gbps, switch.cage_form_factor) == (32, 800, "OSFP")
    assert switch.breakouts == ["2x400G", "4x200G"]


def test_ethernet_import_stays_ethernet(staff_client):
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": device_type("800gbase-x-osfp")},
                                 format="json")
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
    response = staff_client.post(reverse("catalog-import-netbox"), {"yaml": response.content.decode()}, format="json")
    assert response.status_code == 200, response.json()
    back = SwitchModel.objects.get(sku="MQM9700-NS2F")
    assert (back.fabric, back.cages, back.cage_gbps, back.breakouts) == ("infiniband", 32, 800, ["2x400G", "4x200G"])
