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
from tests.designs.conftest import client_for_member, inputs, member, member_client, project, seed  # noqa: F401
from tests import querycount
from tests.querycount import Measured, QueryCounter

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# name -> {size: queries}, recorded with QUERYCOUNT_RECORD=1 (see tests/querycount.py).
BASELINES: dict[str, dict[str, int]] = {
    "api-project-list": {"small": 2, "large": 2},
    "api-project-detail": {"small": 1, "large": 1},
    "api-design-list": {"small": 4, "large": 4},
    "api-design-detail": {"small": 3, "large": 3},
    "api-project-version-list": {"small": 3, "large": 3},
    "api-design-version-list": {"small": 3, "large": 3},
    "api-project-job-list": {"small": 6, "large": 6},
    "api-job-detail": {"small": 5, "large": 5},
    "api-version-detail": {"small": 3, "large": 3},
    "api-version-device-list": {"small": 3, "large": 3},
    "api-version-link-list": {"small": 3, "large": 3},
    "api-version-port-list": {"small": 3, "large": 3},
    "api-version-bom": {"small": 3, "large": 3},
    "api-version-export-list": {"small": 3, "large": 3},
    "api-export-detail": {"small": 1, "large": 1},
    "api-version-roce": {"small": 2, "large": 2},
    "api-version-traffic": {"small": 3, "large": 3},
    "api-version-traffic-detail": {"small": 2, "large": 2},
    "api-version-comment-list": {"small": 4, "large": 4},
    "api-version-review": {"small": 3, "large": 3},
    "api-project-audit": {"small": 4, "large": 4},
    "catalog-switch-list": {"small": 2, "large": 2},
    "api-version-topology": {"small": 8, "large": 8},
    "page projects:project-list": {"small": 5, "large": 5},
    "page projects:project-detail": {"small": 12, "large": 12},  # +1 handover install progress, +1 review states
    "page designs:version-detail": {"small": 30, "large": 30},  # +1: the latest as-built check
    "page designs:version-topology": {"small": 11, "large": 11},
    "page design-exports:version-exports": {"small": 6, "large": 6},
    # The design header and tab bar (versions, job, review state, panels): the design page's own queries.
    "page design-analysis:roce-settings": {"small": 12, "large": 12},
    "page reviews:version-review": {"small": 12, "large": 12},
    "page reviews:audit": {"small": 7, "large": 7},
}


API = {name for name in BASELINES if not name.startswith("page ")}


def test_no_baseline_grows_with_the_data():
    """Every endpoint and page needs as many queries for the large data as for the small: no N+1."""
    assert {name: counts for name, counts in BASELINES.items() if counts["large"] != counts["small"]} == {}


def test_a_request_needing_more_queries_than_recorded_fails_with_its_queries(monkeypatch):
    monkeypatch.setattr(querycount, "RECORD", False)
    counts = QueryCounter(client=None)
    counts.measured["api-version-device-list"] = Measured(4, ['SELECT "designs_devicerecord"."id"'] * 4)
    with pytest.raises(AssertionError, match=r"api-version-device-list \(large\): 4 queries, baseline 3"):
        counts.check({"api-version-device-list": {"small": 3, "large": 3}}, size="large")
    counts.check({"api-version-device-list": {"small": 5, "large": 5}}, size="large")  # fewer is fine


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
    counts.check({name: BASELINES[name] for name in API}, size=size)


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
    counts.check({name: BASELINES[name] for name in BASELINES if name not in API}, size=size)
