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
