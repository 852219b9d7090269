"""What a presales engineer reads on a design version's pages: figures, links between pages, Chinese text."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.accounts.services import profile_set_language
from apps.designs.models import DesignVersion
from apps.designs.services.design import design_create
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db


@pytest.fixture
def generate(project, member, seed, django_capture_on_commit_callbacks):
    def _generate(name="Hall A", **changes) -> DesignVersion:
        with django_capture_on_commit_callbacks(execute=True):
            job = design_create(project=project, user=member, name=name, data=inputs(seed, gpus=64, **changes))
        version = DesignVersion.objects.get(pk=job.version_id)
        assert version.is_ready
        return version

    return _generate


def version_url(name: str, version: DesignVersion) -> str:
    return reverse(f"designs:{name}", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


def cell(html: str, element_id: str) -> str:
    return re.search(rf'id="{element_id}"[^>]*>(.*?)</', html, re.S)[1].strip()


def test_a_bom_without_discount_shows_a_plain_zero_not_minus_zero(client_for_member, generate):
    html = client_for_member.get(version_url("version-detail", generate(discount_pct=0))).content.decode()
    assert cell(html, "bom-discount") == "0.00"


def test_a_discount_is_shown_as_an_amount_taken_off(client_for_member, generate):
    html = client_for_member.get(version_url("version-detail", generate(discount_pct=10))).content.decode()
    assert cell(html, "bom-discount").startswith("−")


def test_a_generated_version_links_to_the_job_that_generated_it(client_for_member, generate):
    version = generate()
    html = client_for_member.get(version_url("version-detail", version)).content.decode()
    job = version.jobs.get()
    link = re.search(r'<a href="([^"]+)" id="version-job-link">([^<]+)</a>', html)
    assert link[1] == reverse("designs:job-detail", kwargs={"project_pk": version.design.project_id,
                                                            "job_pk": job.pk})
    assert link[2] == f"generation job #{job.pk}"


def test_the_cost_chart_knows_the_currency_of_its_amounts(client_for_member, generate):
    version = generate(currency="EUR")
    html = client_for_member.get(version_url("version-detail", version)).content.decode()
    assert re.search(r'<canvas id="cost-chart"[^>]*data-currency="EUR"', html)


def test_exports_page_breadcrumbs_lead_back_through_projects_customer_project_design_and_version(
    client_for_member, generate
):
    version = generate()
    project = version.design.project
    html = client_for_member.get(reverse("design-exports:version-exports", kwargs={"version_pk": version.pk})).content.decode()
    crumbs = re.search(r'<nav class="breadcrumbs".*?</nav>', html, re.S)[0]
    hrefs = re.findall(r'href="([^"]+)"', crumbs)
    assert hrefs == [
        reverse("projects:project-list"),
        reverse("projects:customer-detail", kwargs={"customer_pk": project.customer_id}),
        reverse("projects:project-detail", kwargs={"project_pk": project.pk}),
        reverse("designs:design-detail", kwargs={"project_pk": project.pk, "design_pk": version.design_id}),
        version_url("version-detail", version),
    ]


def test_a_chinese_user_reads_the_job_link_in_chinese(client_for_member, member, generate):
    version = generate()
    profile_set_language(user=member, language="zh-hans")
    html = client_for_member.get(version_url("version-detail", version)).content.decode()
    assert re.search(r'id="version-job-link">生成任务 #\d+</a>', html)
