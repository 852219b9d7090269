import pytest
from django.urls import reverse

from apps.catalog.services import catalog_seed_load
from tests.factories import StaffFactory

pytestmark = pytest.mark.django_db

MODELS = ("manufacturer", "switchmodel", "nicmodel", "servermodel", "transceiver", "cable", "fibercord")


@pytest.mark.parametrize("model", MODELS)
def test_staff_manage_each_kind_in_the_admin(client, model):
    catalog_seed_load()
    client.force_login(StaffFactory(is_superuser=True))
    listing = client.get(reverse(f"admin:catalog_{model}_changelist"), {"q": "a"})
    assert listing.status_code == 200
    assert listing.context["cl"].result_count > 0
    assert client.get(reverse(f"admin:catalog_{model}_add")).status_code == 200


def test_admin_refuses_a_switch_with_a_bad_breakout(client):
    catalog_seed_load()
    client.force_login(StaffFactory(is_superuser=True))
    from apps.catalog.models import Manufacturer, SwitchModel

    data = {
        "manufacturer": Manufacturer.objects.get(name="NVIDIA").pk, "sku": "BAD-1", "model": "Bad", "asic": "",
        "asic_tbps": "51.2", "cages": 64, "cage_form_factor": "OSFP", "cage_gbps": 800, "breakouts": '["3x300G"]',
        "rack_units": 2, "power_typical_w": 1, "power_max_w": 2, "list_price": "0", "currency": "USD",
        "description": "", "active": "on",
    }
    response = client.post(reverse("admin:catalog_switchmodel_add"), data)
    assert response.status_code == 200
    assert "breakouts" in response.context["adminform"].form.errors
    assert not SwitchModel.objects.filter(sku="BAD-1").exists()


def test_staff_tick_the_fabrics_of_a_cable_in_the_admin_and_an_unknown_compatible_vendor_is_refused(client):
    catalog_seed_load()
    client.force_login(StaffFactory(is_superuser=True))
    from apps.catalog.models import Cable, Manufacturer

    data = {
        "manufacturer": Manufacturer.objects.get(name="Arista").pk, "sku": "AOC-NEW", "model": "AOC", "media": "AOC",
        "form_factor_a": "OSFP", "form_factor_b": "OSFP", "gbps": 800, "leg_gbps": 800, "legs": 1, "length_m": 3,
        "power_w": 0, "list_price": "10", "currency": "USD", "description": "", "active": "on",
        "fabrics": ["ethernet"], "compatible_vendors": "Nobody Inc",
    }
    response = client.post(reverse("admin:catalog_cable_add"), data)
    assert response.status_code == 200
    assert "compatible_vendors" in response.context["adminform"].form.errors
    response = client.post(reverse("admin:catalog_cable_add"), {**data, "fabrics": []})
    assert "fabrics" in response.context["adminform"].form.errors
    response = client.post(reverse("admin:catalog_cable_add"), {**data, "compatible_vendors": "NVIDIA, Dell"})
    assert response.status_code == 302
    cable = Cable.objects.get(sku="AOC-NEW")
    assert cable.fabrics == ["ethernet"] and cable.compatible_vendors == ["NVIDIA", "Dell"]
    listing = client.get(reverse("admin:catalog_cable_changelist"), {"qualified_fabric": "infiniband"})
    skus = {c.sku for c in listing.context["cl"].result_list}
    assert "AOC-NEW" not in skus and "MCP4Y10-N001" in skus
