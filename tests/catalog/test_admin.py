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
