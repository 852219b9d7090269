"""The design template API: list and detail for everyone signed in, staff save a version, and a new design
from a template in a project, with field-level errors and nothing created on bad input."""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.design_templates.models import DesignTemplate
from apps.designs.models import Design
from tests.design_templates.conftest import api
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_list_and_detail_carry_source_inputs_and_published_counts(templates, member):
    client = api(member)
    listed = client.get(reverse("api-design-template-list")).json()
    assert {row["slug"] for row in listed} == set(templates)
    detail = client.get(reverse("api-design-template-detail", kwargs={"slug": "deepseek-v3-multi-plane-16k"})).json()
    assert detail["reference"]["url"] == "https://arxiv.org/abs/2505.09343"
    assert detail["inputs"]["planes"] == 8 and detail["inputs"]["server"] == "DGXH-G640F+P2EDI36"
    assert detail["published_counts"]["switches"] == 768
    assert "H800" in detail["leaves_out"] and detail["origin"] == "builtin"


def test_detail_in_chinese(templates, member):
    detail = api(member).get(reverse("api-design-template-detail", kwargs={"slug": "roce-5000-gpus"}),
                             HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert "5,000 个 GPU" in detail["name"]


def test_unknown_template_is_404_and_anonymous_is_refused(templates, client, member):
    assert api(member).get(reverse("api-design-template-detail", kwargs={"slug": "nope"})).status_code == 404
    assert client.get(reverse("api-design-template-list")).status_code in (401, 403)


def _from_template(client, project, **body):
    return client.post(reverse("api-design-from-template", kwargs={"project_pk": project.pk}), body, format="json")


def test_member_creates_a_design_from_a_template_and_it_generates(templates, member, project,
                                                                  django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = _from_template(api(member), project, template="roce-5000-gpus", name="5k RoCE")
    assert response.status_code == 202, response.content
    body = response.json()
    version = Design.objects.get(pk=body["design"]["id"]).versions.get()
    assert version.is_ready
    assert version.gpus == 5000
    assert version.summary["switches"] == {"leaf": 80, "spine": 64, "core": 0}


def test_changes_go_on_top_of_the_template(templates, member, project, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = _from_template(api(member), project, template="dgx-superpod-h100-4su", name="Two SUs",
                                  changes={"gpus": 504})
    assert response.status_code == 202, response.content
    version = Design.objects.get(name="Two SUs").versions.get()
    assert version.gpus == 504 and version.summary["switches"] == {"leaf": 16, "spine": 8, "core": 0}


def test_non_member_gets_404_on_the_project(templates, project):
    response = _from_template(api(UserFactory()), project, template="roce-5000-gpus", name="x")
    assert response.status_code == 404
    assert not Design.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({"template": "no-such-template", "name": "A"}, "template"),
    ({"template": "roce-5000-gpus", "name": ""}, "name"),
    ({"template": "roce-5000-gpus", "name": "A", "changes": {"gpus": "many"}}, "gpus"),
    ({"template": "roce-5000-gpus", "name": "A", "changes": {"planes": 3}}, "planes"),
    ({"template": "bad slug!", "name": "A"}, "template"),
])
def test_bad_input_is_a_field_error_and_creates_nothing(templates, member, project, body, field):
    response = _from_template(api(member), project, **body)
    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()
    assert not Design.objects.exists()


def test_a_template_naming_a_part_the_catalog_lacks_says_which(templates, member, project):
    DesignTemplate.objects.filter(slug="roce-5000-gpus").update(
        inputs={**templates["roce-5000-gpus"].inputs, "server": "NO-SUCH-SKU"})
    response = _from_template(api(member), project, template="roce-5000-gpus", name="A")
    assert response.status_code == 400
    assert "NO-SUCH-SKU" in response.json()["server"][0]
    assert not Design.objects.exists()


# Staff save a version as a template --------------------------------------------------------------------


def _save(client, **body):
    return client.post(reverse("api-design-template-list"), body, format="json")


def test_staff_save_a_version_they_can_see(staff_version, staff_member):
    response = _save(api(staff_member), version=staff_version.pk, name="Pilot", leaves_out="No storage network.",
                     reference_title="Our pilot", reference_url="https://example.com/pilot")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["origin"] == "saved" and body["source_version"] == staff_version.pk
    assert body["inputs"]["leaf_switch"] == "920-9N42F-00RI-7C0" and body["created_by"] == staff_member.username


def test_non_staff_cannot_save_templates(staff_version, member):
    response = _save(api(member), version=staff_version.pk, name="Pilot")
    assert response.status_code == 403
    assert not DesignTemplate.objects.filter(name="Pilot").exists()


def test_staff_saving_a_version_of_a_project_they_are_not_in_gets_404(staff_version):
    response = _save(api(UserFactory(is_staff=True)), version=staff_version.pk, name="Pilot")
    assert response.status_code == 404


@pytest.mark.parametrize("body, field", [
    ({"name": ""}, "name"),
    ({"name": "Pilot", "reference_url": "ftp://example.com"}, "reference_url"),
    ({"name": "Line\nbreak"}, "name"),
    ({"name": "Pilot", "version": "x"}, "version"),
])
def test_bad_template_input_is_a_field_error(staff_version, staff_member, body, field):
    response = _save(api(staff_member), **{"version": staff_version.pk, **body})
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not DesignTemplate.objects.exists()
