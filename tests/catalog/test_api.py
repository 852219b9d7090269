import pytest
from django.urls import reverse

from apps.catalog.models import Cable, NicModel, SwitchModel, Transceiver

from .factories import (
    CableFactory, FiberCordFactory, ManufacturerFactory, NicModelFactory, ServerModelFactory, SwitchModelFactory,
    TransceiverFactory,
)

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    "catalog-switch": SwitchModelFactory, "catalog-nic": NicModelFactory, "catalog-server": ServerModelFactory,
    "catalog-transceiver": TransceiverFactory, "catalog-cable": CableFactory, "catalog-fiber": FiberCordFactory,
    "catalog-manufacturer": ManufacturerFactory,
}


def switch_payload(**overrides):
    ManufacturerFactory(name="NVIDIA")
    payload = {
        "sku": "920-9N42F-00RI-7C0", "manufacturer": "NVIDIA", "model": "Spectrum-4 SN5600",
        "asic": "Spectrum-4", "asic_tbps": "51.20", "cages": 64, "cage_form_factor": "OSFP", "cage_gbps": 800,
        "breakouts": ["1x800G", "2x400G", "4x200G"], "rack_units": 2, "power_typical_w": 1200,
        "power_max_w": 2300, "list_price": "58000.00", "price_is_example": True,
    }
    payload.update(overrides)
    return payload


@pytest.mark.parametrize("basename", ENDPOINTS)
def test_any_signed_in_user_lists_and_reads_each_kind(user_client, basename):
    item = ENDPOINTS[basename]()
    listing = user_client.get(reverse(f"{basename}-list"))
    assert listing.status_code == 200
    assert listing.json()["count"] == 1
    detail = user_client.get(reverse(f"{basename}-detail", args=[item.pk]))
    assert detail.status_code == 200 and detail.json()["id"] == item.pk


@pytest.mark.parametrize("basename", ENDPOINTS)
def test_anonymous_is_refused(api_client, basename):
    assert api_client.get(reverse(f"{basename}-list")).status_code == 401


def test_switch_detail_shows_breakouts_and_logical_ports(user_client):
    switch = SwitchModelFactory()
    body = user_client.get(reverse("catalog-switch-detail", args=[switch.pk])).json()
    assert body["breakouts"] == ["1x800G", "2x400G", "4x200G"]
    assert body["logical_ports"] == {"1x800G": 64, "2x400G": 128, "4x200G": 256}
    assert body["native_breakout"] == "1x800G"
    assert body["manufacturer"] == switch.manufacturer.name


def test_staff_creates_a_valid_switch(staff_client):
    response = staff_client.post(reverse("catalog-switch-list"), switch_payload(), format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["logical_ports"]["2x400G"] == 128
    assert SwitchModel.objects.get(sku="920-9N42F-00RI-7C0").cages == 64


def test_invalid_switch_gets_400_with_field_names_and_nothing_saved(staff_client):
    payload = switch_payload(breakouts=["2x300G"], power_max_w=100, cages=0)
    response = staff_client.post(reverse("catalog-switch-list"), payload, format="json")
    assert response.status_code == 400
    assert "cages" in response.json()
    assert not SwitchModel.objects.exists()
    response = staff_client.post(reverse("catalog-switch-list"), switch_payload(breakouts=["2x300G"], power_max_w=100),
                                 format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"breakouts", "power_max_w"}
    assert not SwitchModel.objects.exists()


def test_unknown_manufacturer_and_bad_choice_are_field_errors(staff_client):
    response = staff_client.post(reverse("catalog-switch-list"),
                                 switch_payload(manufacturer="Nobody", cage_form_factor="CFP2"), format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"manufacturer", "cage_form_factor"}


def test_duplicate_sku_is_refused(staff_client):
    NicModelFactory(sku="MCX75310AAS-NEAT")
    manufacturer = ManufacturerFactory()
    payload = {"sku": "MCX75310AAS-NEAT", "manufacturer": manufacturer.name, "model": "dup", "ports": 1,
               "port_gbps": 400, "form_factor": "OSFP", "list_price": "1.00"}
    response = staff_client.post(reverse("catalog-nic-list"), payload, format="json")
    assert response.status_code == 400 and "sku" in response.json()
    assert NicModel.objects.count() == 1


def test_partial_update_runs_the_model_rules(staff_client):
    cable = CableFactory(gbps=800, leg_gbps=400, legs=2)
    url = reverse("catalog-cable-detail", args=[cable.pk])
    assert staff_client.patch(url, {"legs": 1}, format="json").status_code == 400
    cable.refresh_from_db()
    assert cable.legs == 2
    response = staff_client.patch(url, {"list_price": "310.00"}, format="json")
    assert response.status_code == 200
    assert Cable.objects.get(pk=cable.pk).list_price == 310


def test_server_default_nic_is_written_by_sku(staff_client):
    server = ServerModelFactory()
    nic = NicModelFactory(sku="CX7-Q112", form_factor="QSFP112")
    url = reverse("catalog-server-detail", args=[server.pk])
    response = staff_client.patch(url, {"default_nic": "CX7-Q112"}, format="json")
    assert response.status_code == 200 and response.json()["default_nic"] == "CX7-Q112"
    server.refresh_from_db()
    assert server.default_nic == nic
    wrong_speed = NicModelFactory(sku="CX8", port_gbps=800)
    response = staff_client.patch(url, {"default_nic": wrong_speed.sku}, format="json")
    assert response.status_code == 400 and "default_nic" in response.json()


def test_non_staff_cannot_write(user_client):
    switch = SwitchModelFactory()
    assert user_client.post(reverse("catalog-switch-list"), switch_payload(sku="X"), format="json").status_code == 403
    assert user_client.patch(reverse("catalog-switch-detail", args=[switch.pk]), {"cages": 1},
                             format="json").status_code == 403
    assert user_client.delete(reverse("catalog-switch-detail", args=[switch.pk])).status_code == 403
    assert SwitchModel.objects.get(pk=switch.pk).cages == 64


def test_deleting_a_manufacturer_in_use_is_a_400_not_a_500(staff_client):
    switch = SwitchModelFactory()
    response = staff_client.delete(reverse("catalog-manufacturer-detail", args=[switch.manufacturer.pk]))
    assert response.status_code == 400
    assert "inactive" in response.json()["non_field_errors"][0]


def test_staff_creates_a_manufacturer_with_a_generated_slug(staff_client):
    response = staff_client.post(reverse("catalog-manufacturer-list"), {"name": "Credo Technology"}, format="json")
    assert response.status_code == 201 and response.json()["slug"] == "credo-technology"


@pytest.mark.parametrize(
    ("basename", "query", "expected"),
    [
        ("catalog-switch", {"speed": 400}, {"SW-800", "SW-400"}),
        ("catalog-switch", {"cage_gbps": 400}, {"SW-400"}),
        ("catalog-switch", {"breakout": "2x400G"}, {"SW-800"}),
        ("catalog-switch", {"manufacturer": "acme"}, {"SW-400"}),
        ("catalog-switch", {"q": "tomahawk"}, {"SW-400"}),
        ("catalog-switch", {"cage_form_factor": "QSFP-DD"}, {"SW-400"}),
        ("catalog-switch", {"fabric": "infiniband"}, {"SW-400"}),
        ("catalog-switch", {"fabric": "ethernet"}, {"SW-800"}),
        ("catalog-transceiver", {"fiber": "SMF", "reach_min": 400}, {"DR-500"}),
        ("catalog-transceiver", {"media": "SR"}, {"SR-50"}),
        ("catalog-transceiver", {"reach_max": 100}, {"SR-50"}),
        ("catalog-cable", {"length_max": 2}, {"DAC-1"}),
        ("catalog-cable", {"media": "AOC", "length_min": 10}, {"AOC-20"}),
        ("catalog-fiber", {"fiber": "SMF", "length_min": 100}, {"SMF-300"}),
        ("catalog-transceiver", {"fabric": "ethernet"}, {"SR-50", "DR-500"}),
        ("catalog-transceiver", {"fabric": "infiniband"}, {"SR-50"}),
        ("catalog-transceiver", {"qualified_for": "acme"}, {"DR-500"}),  # declared compatible with Acme
        ("catalog-cable", {"qualified_for": "Acme"}, {"AOC-20"}),  # made by Acme
        ("catalog-cable", {"fabric": "infiniband"}, {"DAC-1"}),
        ("catalog-fiber", {"fabric": "infiniband"}, {"MMF-10", "SMF-300"}),
    ],
)
def test_filters(user_client, basename, query, expected):
    acme = ManufacturerFactory(name="Acme", slug="acme")
    SwitchModelFactory(sku="SW-800")
    SwitchModelFactory(sku="SW-400", manufacturer=acme, asic="Tomahawk 4", asic_tbps="25.6", cage_form_factor="QSFP-DD",
                       cage_gbps=400, breakouts=["1x400G", "2x200G", "4x100G"], fabric="infiniband")
    TransceiverFactory(sku="SR-50")
    TransceiverFactory(sku="DR-500", media="DR", fiber="SMF", reach_m=500, fabrics=["ethernet"],
                       compatible_vendors=["Acme"])
    CableFactory(sku="DAC-1", length_m=1)
    CableFactory(sku="AOC-20", media="AOC", length_m=20, manufacturer=acme, fabrics=["ethernet"])
    FiberCordFactory(sku="MMF-10")
    FiberCordFactory(sku="SMF-300", fiber="SMF", length_m=300)
    response = user_client.get(reverse(f"{basename}-list"), query)
    assert response.status_code == 200
    assert {row["sku"] for row in response.json()["results"]} == expected


def test_schema_endpoint_documents_the_catalog(user_client):
    response = user_client.get(reverse("schema"), {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/catalog/switches/", "/api/catalog/export.xlsx", "/api/catalog/import/",
                 "/api/catalog/import-netbox/", "/api/catalog/switches/{id}/netbox.yaml"):
        assert path in paths


def test_catalog_schema_generates_without_warnings_or_errors():
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    from apps.catalog.api import views

    catalog_views = {name for name in dir(views) if name.endswith(("View", "ViewSet"))}
    GENERATOR_STATS.reset()
    schema = SchemaGenerator(patterns=None).get_schema(request=None, public=True)
    messages = [str(m) for m in list(GENERATOR_STATS._warn_cache) + list(GENERATOR_STATS._error_cache)]
    assert [m for m in messages if "catalog" in m.lower() or any(v in m for v in catalog_views)] == []
    assert schema["paths"]["/api/catalog/export.xlsx"]["get"]["operationId"] == "catalog_export_xlsx"


def test_control_characters_in_text_are_field_errors_and_nothing_saved(staff_client):
    response = staff_client.post(
        reverse("catalog-switch-list"), switch_payload(model="SN5600\x07", description="ok\nline two"), format="json"
    )
    assert response.status_code == 400
    assert "model" in response.json() and "description" not in response.json()
    assert not SwitchModel.objects.exists()
    response = staff_client.post(reverse("catalog-manufacturer-list"), {"name": "Acme\x00"}, format="json")
    assert response.status_code == 400 and "name" in response.json()


def test_schema_documents_built_in_nics_cages_per_server_and_flat_top_optics(user_client):
    response = user_client.get(reverse("schema"), {"format": "json"})
    schemas = response.json()["components"]["schemas"]
    server = schemas["ServerModel"]["properties"]
    assert server["backend_nics_built_in"]["type"] == "boolean" and server["backend_nics_built_in"]["description"]
    assert server["backend_ports_per_cage"]["description"]
    assert schemas["Transceiver"]["properties"]["flat_top"]["description"]


def test_a_server_whose_cages_do_not_divide_its_backend_ports_is_a_field_error(staff_client):
    from apps.catalog.models import ServerModel

    from .factories import ManufacturerFactory
    maker = ManufacturerFactory()
    payload = {"sku": "SRV-7", "manufacturer": maker.name, "model": "Odd", "gpus": 8, "gpu_model": "X",
               "backend_ports": 7, "backend_gbps": 400, "backend_ports_per_cage": 2, "backend_nics_built_in": True,
               "rack_units": 8, "power_w": 10_000, "list_price": "1.00"}
    response = staff_client.post(reverse("catalog-server-list"), payload, format="json")
    assert response.status_code == 400 and "backend_ports_per_cage" in response.json(), response.json()
    assert not ServerModel.objects.filter(sku="SRV-7").exists()


@pytest.mark.parametrize("field, value", [("manufacturer", "NVI\x00DIA"), ("manufacturer", "x" * 5000)])
def test_manufacturer_name_with_a_nul_or_absurd_length_is_a_400_on_that_field(staff_client, field, value):
    response = staff_client.post(reverse("catalog-switch-list"), switch_payload(**{field: value}), format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]
    assert not SwitchModel.objects.exists()


def test_server_default_nic_sku_with_a_nul_is_a_400_on_that_field(staff_client):
    server = ServerModelFactory()
    response = staff_client.patch(reverse("catalog-server-detail", kwargs={"pk": server.pk}),
                                  {"default_nic": "MCX\x00"}, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["default_nic"]


def test_manufacturer_name_with_control_characters_is_refused_like_every_catalog_text(staff_client):
    response = staff_client.post(reverse("catalog-manufacturer-list"), {"name": "Bell\x07Co"}, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["name"]
    maker = ManufacturerFactory(name="Arista")
    response = staff_client.patch(reverse("catalog-manufacturer-detail", kwargs={"pk": maker.pk}),
                                  {"name": "Ari\x02sta"}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["name"]
    maker.refresh_from_db()
    assert maker.name == "Arista"


def test_staff_write_the_fabrics_and_compatible_vendors_of_an_optic_and_bad_ones_are_field_errors(staff_client):
    ManufacturerFactory(name="NVIDIA", slug="nvidia")
    ManufacturerFactory(name="Arista", slug="arista")
    body = {"sku": "QDD-X", "manufacturer": "Arista", "model": "QSFP-DD 400G DR4", "form_factor": "QSFP-DD",
            "gbps": 400, "port_gbps": 400, "ports": 1, "media": "DR", "fiber": "SMF", "reach_m": 500,
            "list_price": "1000", "fabrics": ["ethernet"], "compatible_vendors": ["NVIDIA"]}
    response = staff_client.post(reverse("catalog-transceiver-list"), body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["fabrics"] == ["ethernet"] and response.json()["compatible_vendors"] == ["NVIDIA"]
    bad = {**body, "sku": "QDD-Y", "fabrics": ["fddi"], "compatible_vendors": ["Nobody Inc"]}
    response = staff_client.post(reverse("catalog-transceiver-list"), bad, format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"fabrics"}
    response = staff_client.post(reverse("catalog-transceiver-list"), {**bad, "fabrics": []}, format="json")
    assert response.status_code == 400 and "fabrics" in response.json()
    response = staff_client.post(reverse("catalog-transceiver-list"), {**bad, "fabrics": ["ethernet"]}, format="json")
    assert response.status_code == 400 and "Nobody Inc" in str(response.json()["compatible_vendors"])
    assert not Transceiver.objects.filter(sku="QDD-Y").exists()
