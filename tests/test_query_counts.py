"""Query-count baselines of the main API endpoints and pages, at two sizes of data (tests/querycount.py).

"small": one design of 64 GPUs with an export and a comment. "large": two designs, one with two
versions (the measured one of 256 GPUs), two exports, three comments and an on-demand traffic
analysis. Counts are per request, after a warm-up request (the topology is measured cold: its
cached first view is dropped first). A count that grows with the data is an N+1.
"""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from apps.analysis.models import TrafficAnalysis
from apps.analysis.services import traffic_analysis_request
from apps.designs.api.topology import LEVELS, first_view_cache_key
from apps.designs.models import Design, DesignVersion, Job
from apps.designs.services.design import design_create, design_version_create
from apps.exports.services import version_export_create
from apps.reviews.services.comments import comment_create
from tests.designs.conftest import inputs
from tests.querycount import QueryCounter

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# name -> {size: queries}, recorded with QUERYCOUNT_RECORD=1 (see tests/querycount.py).
BASELINES: dict[str, dict[str, int]] = {
}


def _generate(capture, **kwargs) -> DesignVersion:
    with capture(execute=True):
        job = kwargs.pop("create")(**kwargs)
    version = DesignVersion.objects.get(pk=job.version_id)
    assert version.status == DesignVersion.Status.READY, Job.objects.get(pk=job.pk).error
    return version


def _dataset(size, *, project, member, seed, capture) -> DesignVersion:
    version = _generate(capture, create=design_create, project=project, user=member, name="Hall A",
                        data=inputs(seed, gpus=64))
    version_export_create(version=version, user=member, kind="xlsx", background=False)
    comment_create(version=version, author=member, body="Check the spine optics.")
    if size == "small":
        return version
    _generate(capture, create=design_create, project=project, user=member, name="Hall B", data=inputs(seed, gpus=128))
    design = Design.objects.get(project=project, name="Hall A")
    version = _generate(capture, create=design_version_create, design=design, user=member, data={"gpus": 256})
    version_export_create(version=version, user=member, kind="xlsx", background=False)
    version_export_create(version=version, user=member, kind="netbox", background=False)
    for body in ("Leaves in rows 3 and 4.", "Quote the DR4 optics.", "Approved by the customer."):
        comment_create(version=version, author=member, body=body)
    traffic_analysis_request(version=version, user=member, data={"seed": 3, "max_flows": 2000})
    return version


def _topology_uncached(version):
    def drop():
        for level in ("auto", *LEVELS):
            cache.delete(first_view_cache_key(version, level))
    return drop


@pytest.mark.parametrize("size", ["small", "large"])
def test_api_query_counts_stay_at_their_baselines(size, project, member, seed, member_client,
                                                  django_capture_on_commit_callbacks):
    version = _dataset(size, project=project, member=member, seed=seed, capture=django_capture_on_commit_callbacks)
    design, job = version.design, version.jobs.get(kind=Job.Kind.GENERATE)
    export = version.export_files.first()
    analysis = TrafficAnalysis.objects.filter(version=version).first()
    by_version = {"pk": version.pk}
    counts = QueryCounter(member_client)
    for name, kwargs in (
        ("api-project-list", {}), ("api-project-detail", {"pk": project.pk}),
        ("api-design-list", {"project_pk": project.pk}), ("api-design-detail", {"pk": design.pk}),
        ("api-project-version-list", {"project_pk": project.pk}), ("api-design-version-list", {"pk": design.pk}),
        ("api-project-job-list", {"project_pk": project.pk}), ("api-job-detail", {"pk": job.pk}),
        ("api-version-detail", by_version), ("api-version-device-list", by_version),
        ("api-version-link-list", by_version), ("api-version-port-list", by_version), ("api-version-bom", by_version),
        ("api-version-export-list", by_version), ("api-export-detail", {"pk": export.pk}),
        ("api-version-roce", by_version), ("api-version-traffic", by_version),
        ("api-version-traffic-detail", {"pk": version.pk, "analysis_pk": analysis.pk}),
        ("api-version-comment-list", by_version), ("api-version-review", by_version),
        ("api-project-audit", {"project_pk": project.pk}), ("catalog-switch-list", {}),
    ):
        counts.get(name, reverse(name, kwargs=kwargs))
    counts.get("api-version-topology", reverse("api-version-topology", kwargs=by_version),
               before=_topology_uncached(version))
    counts.check(BASELINES, size=size)


@pytest.mark.parametrize("size", ["small", "large"])
def test_page_query_counts_stay_at_their_baselines(size, project, member, seed, client_for_member,
                                                   django_capture_on_commit_callbacks):
    version = _dataset(size, project=project, member=member, seed=seed, capture=django_capture_on_commit_callbacks)
    in_project = {"project_pk": project.pk, "version_pk": version.pk}
    counts = QueryCounter(client_for_member)
    for name, kwargs in (
        ("projects:project-list", {}), ("projects:project-detail", {"project_pk": project.pk}),
        ("designs:version-detail", in_project), ("designs:version-topology", in_project),
        ("design-exports:version-exports", {"version_pk": version.pk}),
        ("design-analysis:roce-settings", in_project),
        ("reviews:version-review", in_project), ("reviews:audit", {"project_pk": project.pk}),
    ):
        counts.get(f"page {name}", reverse(name, kwargs=kwargs))
    counts.check(BASELINES, size=size)
