"""Template pages as a user sees them: the list, a template's source and counts, starting a design from it,
and staff saving a design version as a template."""
from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from apps.catalog.models import ServerModel, SwitchModel
from apps.design_templates.models import DesignTemplate
from apps.designs.models import Design
from tests.design_templates.conftest import browser
from tests.factories import UserFactory
from tests.projects.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def test_list_shows_every_template_with_its_source_and_the_reference_not_offered(templates, member):
    response = browser(member).get(reverse("design_templates:template-list"))
    assert response.status_code == 200
    page = response.content.decode()
    for template in templates.values():
        assert template.name in page
    assert "NVIDIA DGX SuperPOD Reference Architecture, DGX H100" in page
    assert "Alibaba HPN" in page and "dual-ToR" in page  # why there is no HPN template


def test_navigation_links_to_the_templates(member):
    response = browser(member).get(reverse("projects:project-list"))
    assert reverse("design_templates:template-list") in response.content.decode()


def test_list_in_chinese_shows_the_chinese_names(templates, member):
    client = browser(member)
    client.cookies["django_language"] = "zh-hans"
    with translation.override("zh-hans"):
        response = client.get(reverse("design_templates:template-list"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = response.content.decode()
    assert "个扩展单元" in page
    assert "设计模板" in page


def test_detail_shows_source_what_it_leaves_out_and_published_beside_generated_counts(templates, member, project):
    response = browser(member).get(reverse("design_templates:template-detail",
                                           kwargs={"slug": "dgx-superpod-h100-4su"}))
    assert response.status_code == 200
    rows = {row["key"]: (row["published"], row["ours"]) for row in response.context["rows"]}
    assert rows["leaf"] == (32, 32) and rows["spine"] == (16, 16)
    assert rows["server_leaf_links"] == (1020, 1016)
    page = response.content.decode()
    assert "UFM" in page
    assert "https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-h100" in page
    assert f'<option value="{project.pk}">' in page  # start in one of my projects


def test_unknown_template_is_404(templates, member):
    assert browser(member).get(reverse("design_templates:template-detail", kwargs={"slug": "nope"})).status_code == 404


def test_anonymous_user_goes_to_the_login_page(templates, client):
    response = client.get(reverse("design_templates:template-list"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_start_opens_the_project_design_form_filled_in_from_the_template(templates, member, project):
    client = browser(member)
    response = client.get(reverse("design_templates:template-start", kwargs={"slug": "deepseek-v3-multi-plane-16k"}),
                          {"project": project.pk})
    assert response.status_code == 302
    url = reverse("designs:design-create", kwargs={"project_pk": project.pk}) + "?template=deepseek-v3-multi-plane-16k"
    assert response["Location"] == url
    form_page = client.get(url)
    form = form_page.context["form"]
    assert form["gpus"].value() == 16384
    assert form["planes"].value() == 8
    assert form["tiers"].value() == "2"
    assert form["server"].value() == ServerModel.objects.get(sku="DGXH-G640F+P2EDI36").pk
    assert form["leaf_switch"].value() == SwitchModel.objects.get(sku="MQM9700-NS2F").pk
    page = form_page.content.decode()
    assert "Started from the template" in page and "H800" in page
    assert form["name"].value() == templates["deepseek-v3-multi-plane-16k"].name


def test_start_in_a_project_i_am_not_a_member_of_is_404(templates, member):
    other = ProjectFactory()
    response = browser(member).get(reverse("design_templates:template-start",
                                           kwargs={"slug": "roce-5000-gpus"}), {"project": other.pk})
    assert response.status_code == 404


def test_form_started_from_an_unknown_template_says_so_and_starts_empty(templates, member, project):
    response = browser(member).get(reverse("designs:design-create", kwargs={"project_pk": project.pk}),
                                   {"template": "no-such-template"})
    assert response.status_code == 200
    assert "There is no design template" in response.content.decode()


def test_submitting_the_filled_in_form_generates_the_template_design(templates, member, project, seed,
                                                                     django_capture_on_commit_callbacks):
    client = browser(member)
    url = reverse("designs:design-create", kwargs={"project_pk": project.pk}) + "?template=dgx-superpod-h100-4su"
    form = client.get(url).context["form"]
    data = {name: ("" if form[name].value() is None else form[name].value()) for name in form.fields}
    data = {k: v for k, v in data.items() if v is not False}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    version = Design.objects.get(project=project).versions.get()
    assert version.is_ready
    assert version.summary["switches"] == {"leaf": 32, "spine": 16, "core": 0}


# Save as template ---------------------------------------------------------------------------------


def test_staff_see_save_as_template_on_the_design_page_and_members_do_not(staff_version, staff_member, member):
    url = reverse("designs:version-detail", kwargs={"project_pk": staff_version.design.project_id,
                                                    "version_pk": staff_version.pk})
    assert 'id="save-as-template"' in browser(staff_member).get(url).content.decode()
    assert 'id="save-as-template"' not in browser(member).get(url).content.decode()


def _save_url(version):
    return reverse("design_templates:template-save", kwargs={"project_pk": version.design.project_id,
                                                             "version_pk": version.pk})


def test_staff_save_a_version_as_a_template_with_skus_not_ids(staff_version, staff_member, seed):
    client = browser(staff_member)
    assert client.get(_save_url(staff_version)).status_code == 200
    response = client.post(_save_url(staff_version), {"name": "Pilot hall, 64 GPUs", "leaves_out": "No storage.",
                                                      "reference_url": ""})
    template = DesignTemplate.objects.get(name="Pilot hall, 64 GPUs")
    assert response.status_code == 302
    assert response["Location"] == reverse("design_templates:template-detail", kwargs={"slug": template.slug})
    assert template.origin == DesignTemplate.Origin.SAVED and template.created_by == staff_member
    assert template.inputs["server"] == "DGXH-G640F+P2EDI36"
    assert template.inputs["leaf_switch"] == "920-9N42F-00RI-7C0"
    assert template.inputs["gpus"] == 64
    assert "currency" not in template.inputs and "discount_pct" not in template.inputs


def test_member_who_is_not_staff_cannot_save_a_template(staff_version, member):
    client = browser(member)
    assert client.get(_save_url(staff_version)).status_code == 403
    assert client.post(_save_url(staff_version), {"name": "Mine"}).status_code == 403
    assert not DesignTemplate.objects.filter(name="Mine").exists()


def test_staff_who_is_not_a_member_gets_404(staff_version):
    stranger = UserFactory(is_staff=True)
    assert browser(stranger).get(_save_url(staff_version)).status_code == 404


def test_bad_template_name_and_url_are_field_errors_and_nothing_is_saved(staff_version, staff_member, templates):
    client = browser(staff_member)
    existing = templates["roce-5000-gpus"].name
    response = client.post(_save_url(staff_version), {"name": existing, "reference_url": "javascript:alert(1)"})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "already exists" in errors["name"][0]
    assert "https://" in errors["reference_url"][0]
    assert DesignTemplate.objects.filter(name=existing).count() == 1


def test_every_template_page_shows_its_counts(templates, member):
    client = browser(member)
    for slug in templates:
        response = client.get(reverse("design_templates:template-detail", kwargs={"slug": slug}))
        assert response.status_code == 200 and not response.context["errors"], slug
        assert all(row["ours"] is not None for row in response.context["rows"]), slug


def test_a_template_part_missing_from_the_catalog_is_named_on_the_form_and_its_page(templates, member, project):
    DesignTemplate.objects.filter(slug="roce-5000-gpus").update(
        inputs={**templates["roce-5000-gpus"].inputs, "leaf_switch": "GONE-123"})
    client = browser(member)
    form_page = client.get(reverse("designs:design-create", kwargs={"project_pk": project.pk}),
                           {"template": "roce-5000-gpus"})
    assert "GONE-123" in form_page.content.decode()
    assert form_page.context["form"]["gpus"].value() == 5000  # what it could fill in, it did
    detail = client.get(reverse("design_templates:template-detail", kwargs={"slug": "roce-5000-gpus"}))
    assert detail.status_code == 200 and "GONE-123" in detail.content.decode()
