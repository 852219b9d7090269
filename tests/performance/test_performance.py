"""The Performance page, API, background job and workbook sheet, as a user sees them."""
from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from apps.designs.models import Job
from apps.performance.models import PerformanceRun
from tests.analysis.test_analysis import generated

pytestmark = pytest.mark.django_db


@pytest.fixture
def version(member_client, project, seed, django_capture_on_commit_callbacks):
    """A generated 512-GPU design (64 DGX H100, NVLink 4)."""
    return generated(member_client, project, seed, django_capture_on_commit_callbacks)


@pytest.fixture
def browser_client(member):
    client = Client()
    client.force_login(member)
    return client


def page_url(version):
    return reverse("performance:version", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


def test_design_page_links_to_the_performance_page(browser_client, version):
    url = reverse("designs:version-detail", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})
    html = browser_client.get(url).content.decode()
    assert f'href="{page_url(version)}" id="tab-performance"' in html


def test_running_a_preset_from_the_page_shows_step_charts_and_scenarios(browser_client, version,
                                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = browser_client.post(page_url(version), {
            "model": "llama3-70b", "routing": "ecmp", "precision": "bf16", "zero": "zero1", "tp": "8", "pp": "4",
            "failures": ["spine", "leaf"]})
    assert response.status_code == 302
    run = PerformanceRun.objects.get(version=version)
    assert run.job.kind == Job.Kind.PERFORMANCE and run.job.status == Job.Status.SUCCEEDED, run.job.error
    html = browser_client.get(response["Location"]).content.decode()
    assert 'id="performance-step"' in html and 'id="performance-share"' in html
    for canvas in ("performance-collectives", "performance-busbw", "performance-links", "performance-scenarios"):
        assert f'<canvas id="{canvas}"' in html
    assert "TP All-Reduce" in html and "DP gradient Reduce-Scatter" in html
    assert "one spine down" in html and "one leaf down" in html
    data = json.loads(re.search(r'<script id="performance-data" type="application/json">(.*?)</script>', html, re.S)[1])
    assert [s["label"] for s in data["scenarios"]] == ["healthy", "one spine down", "one leaf down"]
    assert data["curves"] and all(p["y"] > 0 for c in data["curves"] for p in c["points"])
    # DGX H100 has a published peak: the step and its communication share are computed
    assert run.result["step"]["comm_share"] is not None and 0 < run.result["step"]["comm_share"] < 1
    # under the design's tab bar, with its tab active; the model's name, sizes in MiB, busbw in GB/s and Gb/s
    assert 'class="tabs"' in html and 'id="tab-performance" class="active"' in html
    assert "Llama 3 70B on 512 GPUs" in html and "llama3-70b <" not in html and ">llama3-70b" not in html
    assert " MiB</td>" in html and "busbw (GB/s)" in html and "busbw (Gb/s)" in html
    assert not re.search(r">\d{7,}<", html)  # no raw byte counts in a cell
    assert all(0 <= t["max"] <= 100 for t in data["tiers"])  # utilisation in %
    with translation.override("zh-hans"):
        zh = browser_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "模型" in zh and "busbw（GB/s）" in zh


def test_a_2_tier_design_offers_no_core_switch_failure(browser_client, version):
    assert version.summary["tiers"] == 2
    html = browser_client.get(page_url(version)).content.decode()
    assert 'value="spine"' in html and 'value="core"' not in html


def test_bad_parallelism_is_a_field_error_and_creates_nothing(browser_client, version):
    response = browser_client.post(page_url(version), {"model": "llama3-70b", "routing": "ecmp", "precision": "bf16",
                                                       "zero": "zero1", "tp": "16"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-field="tp"' in html and "scale-up domain" in html
    assert not PerformanceRun.objects.exists() and not Job.objects.filter(kind=Job.Kind.PERFORMANCE).exists()


def test_api_runs_a_collective_and_serves_link_utilisation(member_client, version, django_capture_on_commit_callbacks):
    url = reverse("api-version-performance", kwargs={"pk": version.pk})
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(url, {"workload": {"collective": "all-reduce", "bytes": 1 << 32, "ranks": "all",
                                                         "routing": "spray", "algorithm": "ring"},
                                             "alternatives": True}, format="json")
    assert response.status_code == 202, response.content
    run_id = response.json()["id"]
    detail = member_client.get(reverse("api-version-performance-detail", kwargs={"pk": version.pk, "run_pk": run_id}))
    body = detail.json()
    assert body["job"]["status"] == "succeeded"
    row = body["result"]["collectives"][0]
    assert row["ranks"] == 512 and row["routing"] == "spray" and 0 < row["busbw_gbps"] <= 3200
    assert any(a["feasible"] for a in body["alternatives"])
    links = member_client.get(reverse("api-version-performance-links", kwargs={"pk": version.pk, "run_pk": run_id}))
    data = links.json()
    assert data["top"] and {"from", "to", "tier", "utilisation"} <= set(data["top"][0])
    assert [t["tier"] for t in data["tiers"]][0] == "server-leaf"


def test_api_bad_workload_is_400_with_fields(member_client, version):
    url = reverse("api-version-performance", kwargs={"pk": version.pk})
    response = member_client.post(url, {"workload": {"collective": "all-reduce", "routing": "magic"}}, format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"bytes", "routing"}
    assert not PerformanceRun.objects.exists()


def test_outsider_gets_404(outsider_client, version):
    assert outsider_client.get(reverse("api-version-performance", kwargs={"pk": version.pk})).status_code == 404


def test_performance_page_in_chinese(browser_client, version):
    with translation.override("zh-hans"):
        html = browser_client.get(page_url(version), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "运行模型" in html


def test_workbook_performance_sheet_lists_the_collectives(member_client, version, django_capture_on_commit_callbacks):
    from apps.exports.excel import workbook_sheet_register
    from apps.performance.sheets import PERFORMANCE_SHEET, performance_sheet_write

    workbook_sheet_register(PERFORMANCE_SHEET, performance_sheet_write, order=75)  # as at start-up
    assert "Performance" not in _workbook(version).sheetnames  # no run of the model yet
    with django_capture_on_commit_callbacks(execute=True):
        member_client.post(reverse("api-version-performance", kwargs={"pk": version.pk}),
                           {"workload": {"model": "llama3-8b", "failures": ["spine"]}}, format="json")
    table = [list(r) for r in _workbook(version)["Performance"].iter_rows(values_only=True)]
    assert table[0][:4] == ["Collective", "Network", "Algorithm", "Routing"]
    assert table[0][-1] == "busbw (Gb/s)"
    dp = next(r for r in table if r[0] == "DP gradient Reduce-Scatter")
    assert dp[1] == "scale-out" and dp[3] == "ECMP" and dp[-1] > 0
    assert any(r[0] == "Training step" for r in table)
    assert any(r[0] == "one spine down" for r in table)


def _workbook(version):
    import io

    from openpyxl import load_workbook

    from apps.exports.excel import version_workbook_write

    stream = io.BytesIO()
    version_workbook_write(version=version, path_or_stream=stream)
    stream.seek(0)
    return load_workbook(stream)


def test_dualpipe_with_an_odd_pipeline_is_a_field_error_on_the_page(browser_client, version):
    html = browser_client.get(page_url(version)).content.decode()
    assert 'name="ep_node_limit"' in html and 'value="dualpipe"' in html
    response = browser_client.post(page_url(version), {"model": "deepseek-v3", "routing": "ecmp", "precision": "fp8",
                                                       "zero": "zero1", "tp": "1", "pp": "3",
                                                       "pp_schedule": "dualpipe"})
    html = response.content.decode()
    assert 'data-field="pp_schedule"' in html and "even number of pipeline stages" in html
    assert not PerformanceRun.objects.exists()


def test_api_node_limit_below_zero_is_400_on_its_field(member_client, version):
    url = reverse("api-version-performance", kwargs={"pk": version.pk})
    response = member_client.post(url, {"workload": {"model": "deepseek-v3", "tp": 1, "ep_node_limit": -1}},
                                  format="json")
    assert response.status_code == 400 and "ep_node_limit" in response.json()
    assert not PerformanceRun.objects.exists()
