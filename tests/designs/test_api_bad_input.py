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
