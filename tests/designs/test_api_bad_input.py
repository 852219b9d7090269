"""The design API under bad input and schema conformance: field-level 400s, nothing saved, never a 500."""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.designs.models import Design, DesignVersion, Job
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db


def test_design_detail_and_create_answer_give_version_count_as_a_number(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        created = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                     {"name": "Small", **inputs(seed, gpus=64)}, format="json")
    assert created.status_code == 202, created.content
    assert created.json()["design"]["version_count"] == 1
    detail = member_client.get(reverse("api-design-detail", kwargs={"pk": created.json()["design"]["id"]}))
    assert detail.json()["version_count"] == 1


@pytest.mark.parametrize("roce", [{"cnp_dscp": 10 ** 400}, {"roce_mtu": "²"}])
def test_create_design_with_unconvertible_roce_numbers_is_a_400_on_the_roce_field(member_client, project, seed, roce):
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": "Bad RoCE", **inputs(seed, gpus=64), "roce": roce}, format="json")
    assert response.status_code == 400, response.content
    assert any(key.startswith("roce") for key in response.json()), response.json()
    assert not Design.objects.exists() and not DesignVersion.objects.exists() and not Job.objects.exists()


ARABIC_INDIC = "٢٥٦"  # 256
FULL_WIDTH = "２５６"


@pytest.mark.parametrize(("change", "field"), [
    ({"gpus": ARABIC_INDIC}, "gpus"),
    ({"gpus": FULL_WIDTH}, "gpus"),
    ({"planes": "١"}, "planes"),
    ({"oversubscription": "٢"}, "oversubscription"),
    ({"discount_pct": "٥"}, "discount_pct"),
    ({"layout": {"servers_per_rack": "٤"}}, "layout.servers_per_rack"),
    ({"roce": {"mtu": "٩١٠٠"}}, "roce.mtu"),
    ({"layout": []}, "layout"),
    ({"pools": []}, "pools"),
    ({"layout": ""}, "layout"),
    ({"pools": "10.0.0.0/8"}, "pools"),
])
def test_numbers_take_ascii_digits_and_settings_objects_only(member_client, project, seed, change, field):
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": "Digits", **inputs(seed, gpus=64), **change}, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()
    assert not Design.objects.exists() and not DesignVersion.objects.exists() and not Job.objects.exists()


@pytest.mark.parametrize("gpus", [ARABIC_INDIC, FULL_WIDTH])
def test_design_form_refuses_non_ascii_gpu_counts(client_for_member, project, seed, gpus):
    response = client_for_member.post(reverse("designs:design-create", kwargs={"project_pk": project.pk}),
                                      {"name": "Digits", **inputs(seed, gpus=gpus)})
    assert response.status_code == 200
    assert "digits 0-9" in response.content.decode()
    assert not Design.objects.exists()


def test_service_refuses_non_ascii_tiers_and_catalog_ids(member, project, seed):
    from django.core.exceptions import ValidationError

    from apps.designs.services.inputs import design_inputs_clean

    with pytest.raises(ValidationError) as caught:
        design_inputs_clean(project=project, data={**inputs(seed, gpus=64), "tiers": "٢",
                                                   "server": str(seed["dgx_h100"].pk).translate(
                                                       str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))})
    assert {"tiers", "server"} <= set(caught.value.message_dict)
