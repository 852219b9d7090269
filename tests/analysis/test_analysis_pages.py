"""The RoCE and Traffic sections of the design page, and the "Change RoCE settings" form, as a user sees them."""
from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from apps.analysis.models import RoceReview, TrafficAnalysis
from apps.designs.models import DesignVersion, Job
from tests.analysis.test_analysis import generated

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser_client(member):
    client = Client()
    client.force_login(member)
    return client


@pytest.fixture
def version(member_client, project, seed, django_capture_on_commit_callbacks):
    return generated(member_client, project, seed, django_capture_on_commit_callbacks)


def page(client, version, **params):
    url = reverse("designs:version-detail", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})
    response = client.get(url, params)
    assert response.status_code == 200
    return response.content.decode()


def settings_url(version):
    return reverse("design-analysis:roce-settings",
                   kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


def test_design_page_shows_the_roce_and_traffic_sections_with_their_chart_canvases(browser_client, version):
    html = page(browser_client, version)
    assert 'id="panel-roce"' in html and 'id="panel-traffic"' in html
    for canvas in ("traffic-hist-all-reduce", "traffic-hist-all-to-all", "traffic-effective", "traffic-worst-mean"):
        assert f'<canvas id="{canvas}"' in html
    assert 'id="roce-checklist"' in html and 'id="roce-headroom-table"' in html
    assert reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk}) in html
    assert "Download configs (zip)" in html
    # the 7060DX5-64S (Tomahawk 4) publishes no packet buffer: its leaves' and spines' pools are not sized
    assert 'id="roce-verdict"' in html and "RoCE: 2 warnings" in html
    assert "js/analysis.js" in html
    data = json.loads(re.search(r'<script id="traffic-data" type="application/json">(.*?)</script>', html, re.S)[1])
    assert [p["key"] for p in data["patterns"]] == ["all-reduce", "all-to-all"]
    assert {s["label"] for s in data["patterns"][0]["strategies"]} == {"ECMP, random source ports",
                                                                        "Hash-aware source ports"}
    assert len(data["patterns"][1]["bins"]) == len(data["patterns"][1]["strategies"][0]["histogram"]) == 20


def test_traffic_tables_show_closed_form_beside_simulated_collisions(browser_client, version):
    html = page(browser_client, version)
    assert 'id="traffic-summary"' in html and 'id="traffic-hops"' in html
    hops = html[html.index('id="traffic-hops"'):]
    assert 'data-strategy="ecmp" data-hop="leaf-spine up"' in hops
    ecmp_row = hops[hops.index('data-strategy="ecmp" data-hop="leaf-spine up"'):]
    assert re.search(r'class="num closed-form">\d\.\d{3}<', ecmp_row)
    assert "Assumptions" in html
    assert "balls into bins" in html


def test_the_checklist_shows_an_inconsistent_nic_with_its_class_and_fix(
    browser_client, member_client, project, seed, django_capture_on_commit_callbacks
):
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks,
                        roce={"overrides": {"nic": {"pfc_priorities": [4]}}})
    html = page(browser_client, version)
    row = re.search(r'<tr class="finding error" data-code="pfc_lossless" data-severity="error" data-class="nic">'
                    r'(.*?)</tr>', html, re.S)
    assert row, "no pfc_lossless error row for the NIC"
    assert '<td class="device-class">NIC</td>' in row[1]
    assert "PFC is not enabled for priority 3 on NIC ports" in row[1]
    assert "mlnx_qos -i &lt;if&gt; --pfc 0,0,0,1,0,0,0,0 on every backend NIC" in row[1]
    assert "RoCE: 1 error" in html
    settings_table = html[html.index('id="roce-settings-table"'):]
    assert 'data-setting="overrides.nic" class="changed"' in settings_table


def test_the_page_is_translated(browser_client, version):
    with translation.override("zh-hans"):
        browser_client.cookies["django_language"] = "zh-hans"
        html = page(browser_client, version)
    assert 'id="panel-roce"' in html and 'id="traffic-hist-all-to-all"' in html


def test_older_versions_show_a_computed_review_and_offer_a_traffic_run(browser_client, version):
    RoceReview.objects.filter(version=version).delete()
    TrafficAnalysis.objects.filter(version=version).delete()
    html = page(browser_client, version)
    assert "Computed now" in html
    assert 'id="traffic-none"' in html and 'id="traffic-run-form"' in html
    assert "<canvas" not in html[html.index('id="panel-traffic"'):]


def test_a_rerun_is_shown_when_chosen(browser_client, member_client, version):
    response = member_client.post(reverse("api-version-traffic", kwargs={"pk": version.pk}),
                                  {"pattern": "all-to-all", "seed": 5, "max_flows": 2000}, format="json")
    rerun = response.json()["id"]
    html = page(browser_client, version, traffic=rerun)
    assert 'id="traffic-hist-all-to-all"' in html and 'id="traffic-hist-all-reduce"' not in html
    assert "Seed 5," in html
    assert 'id="traffic-analyses"' in html


def test_settings_form_with_a_bad_value_shows_the_error_on_its_input_and_creates_nothing(browser_client, version):
    url = settings_url(version)
    form = browser_client.get(url)
    assert form.status_code == 200
    assert 'name="roce.ecn.400.kmin" id="id_roce-ecn-400-kmin" value="400"' in form.content.decode()
    response = browser_client.post(url, {"roce.pfc_priority": "3", "roce.ecn.400.kmin": "lots",
                                         "roce.overrides.nic.pfc_priorities": "3, 9"})
    assert response.status_code == 200
    html = response.content.decode()
    kmin = html[html.index('data-field="roce.ecn.400.kmin"'):]
    assert re.match(r'data-field="roce.ecn.400.kmin">.*?<p class="field-error">Enter a whole number.</p>', kmin, re.S)
    assert 'value="lots"' in kmin
    prios = html[html.index('data-field="roce.overrides.nic.pfc_priorities"'):]
    assert re.match(r'.*?<p class="field-error">Must be between 0 and 7.</p>', prios, re.S)
    assert DesignVersion.objects.filter(design=version.design).count() == 1


def test_settings_form_creates_a_new_version_with_the_changed_settings(browser_client, version, seed):
    form = browser_client.get(settings_url(version)).content.decode()
    posted = dict(re.findall(r'<input type="text" name="(roce\.[^"]+)" id="[^"]+" value="([^"]*)"', form))
    for name, value in re.findall(r'<select name="(roce\.[^"]+)"[^>]*>(.*?)</select>', form, re.S):
        selected = re.search(r'<option value="([^"]*)" selected>', value)
        posted[name] = selected[1] if selected else ""
    assert posted["roce.pfc_priority"] == "3" and posted["roce.trust"] == "dscp"
    posted["roce.overrides.nic.pfc_priorities"] = "4"
    posted["roce.ecn.400.kmax"] = "2000"

    response = browser_client.post(settings_url(version), posted)
    assert response.status_code == 302
    new = DesignVersion.objects.get(design=version.design, number=2)
    job = Job.objects.get(version=new)
    assert response["Location"] == reverse("designs:job-detail",
                                           kwargs={"project_pk": version.design.project_id, "job_pk": job.pk})
    assert new.roce == {"ecn": {"400": {"kmax": 2000}}, "overrides": {"nic": {"pfc_priorities": [4]}}}
    assert (new.gpus, new.leaf_switch_id, new.leaf_breakout) == (version.gpus, version.leaf_switch_id, "1x400G")
    version.refresh_from_db()
    assert version.roce == {}


def test_settings_form_unchanged_says_so_and_creates_nothing(browser_client, version):
    response = browser_client.post(settings_url(version), {"roce.pfc_priority": "3", "roce.ecn.400.kmin": "400"})
    assert response.status_code == 200
    assert "These are the settings of v1 already" in response.content.decode()
    assert DesignVersion.objects.filter(design=version.design).count() == 1


def test_settings_page_is_404_for_non_members(version):
    from tests.factories import UserFactory

    client = Client()
    client.force_login(UserFactory())
    assert client.get(settings_url(version)).status_code == 404
    assert client.post(settings_url(version), {"roce.pfc_priority": "4"}).status_code == 404
    assert DesignVersion.objects.filter(design=version.design).count() == 1


def summary_row(html, pattern, placement, strategy):
    summary = html[html.index('id="traffic-summary"'):html.index("</table>", html.index('id="traffic-summary"'))]
    match = re.search(rf'<tr data-pattern="{pattern}" data-placement="{placement}" data-strategy="{strategy}"'
                      r'([^>]*)>(.*?)</tr>', summary, re.S)
    assert match, (pattern, placement, strategy)
    return match[1], match[2]


def test_traffic_summary_leads_with_link_spread_and_withholds_a_meaningless_collision_share(browser_client, version):
    html = page(browser_client, version)
    head = html[html.index('id="traffic-summary"'):html.index("</thead>", html.index('id="traffic-summary"'))]
    assert head.index("Worst / mean link") < head.index("p99 link load") < head.index("Flows sharing a link")
    _, a2a = summary_row(html, "all-to-all", "plan", "ecmp")
    assert "flows outnumber links" in a2a and re.search(r'class="num p99">\d+ %<', a2a)
    _, ring_plan = summary_row(html, "all-reduce", "plan", "ecmp")
    assert re.search(r'class="num collision">\d\.\d{3}<', ring_plan)


def test_traffic_summary_shows_the_scheduler_placement_as_headline_beside_plan_order(browser_client, version):
    html = page(browser_client, version)
    attrs, scheduler = summary_row(html, "all-reduce", "scheduler", "ecmp")
    assert 'class="headline"' in attrs and "scheduler order (random)" in scheduler and "headline" in scheduler
    attrs, plan = summary_row(html, "all-reduce", "plan", "ecmp")
    assert 'class="headline"' not in attrs and "plan order" in plan
    stored = TrafficAnalysis.objects.get(version=version).report["patterns"]["all-reduce"]
    assert stored["placement"] == "scheduler" and stored["placement_seed"] == 0
    notes = html[html.index('data-pattern="all-reduce"'):]
    assert "Headline: the scheduler placement, the job&#x27;s 64 servers in a random order (seed 0)" in notes


def test_traffic_time_adds_the_latency_term_and_says_what_nccl_would_pick(browser_client, version):
    html = page(browser_client, version)
    _, ring = summary_row(html, "all-reduce", "scheduler", "ecmp")
    assert re.search(r'class="num steps">126<', ring)  # 2 (64 - 1) ring steps
    assert re.search(r'class="num step-latency"[^>]*>14\.00<', ring)  # NCCL 2.30.7's network step
    r = TrafficAnalysis.objects.get(version=version).report["patterns"]["all-reduce"]["strategies"]["ecmp"]
    assert f'<strong>{r["total_ms"]:.1f}</strong>' in ring
    assert "the figure the performance model uses (14 µs per network step" in html
    assert "NCCL usually picks Tree" in html or "NCCL still chooses Ring, Tree, NVLS or CollNet" in html
    assert 'name="switch_latency_ns"' in html and 'name="nic_latency_ns"' in html


def test_a_report_stored_before_placements_and_latency_says_not_computed(browser_client, member_client, version):
    analysis = TrafficAnalysis.objects.get(version=version)
    report = analysis.report
    report.pop("switch_latency_ns"), report.pop("nic_latency_ns")
    for p in report["patterns"].values():
        for key in ("placement", "placement_seed", "other_placements"):
            p.pop(key)
        for r in p["strategies"].values():
            for key in ("placement", "latency_steps", "step_latency_us", "step_switches", "step_metres",
                        "latency_basis", "latency_ms", "total_ms"):
                r.pop(key)
    TrafficAnalysis.objects.filter(pk=analysis.pk).update(report=report)
    html = page(browser_client, version)
    assert "Latency term: not computed" in html
    _, ring = summary_row(html, "all-reduce", "plan", "ecmp")
    assert "not computed" in ring
    assert 'data-placement="scheduler" class="not-computed"' in html
    body = member_client.get(reverse("api-version-traffic", kwargs={"pk": version.pk})).json()
    rows = body["analysis"]["summary_rows"]
    assert {r["placement"] for r in rows} == {"plan"} and all(r["total_ms"] is None for r in rows)
    with translation.override("zh-hans"):
        browser_client.cookies["django_language"] = "zh-hans"
        assert "未计算" in page(browser_client, version)


def test_the_honest_summary_is_translated(browser_client, version):
    browser_client.cookies["django_language"] = "zh-hans"
    html = page(browser_client, version)
    _, a2a = summary_row(html, "all-to-all", "plan", "ecmp")
    assert "flows outnumber links" not in a2a and "流数多于链路数" in a2a
    assert "调度器顺序（随机）" in html and "NCCL_ALGO" in html


def test_roce_section_names_the_second_nos_and_says_when_the_nic_has_no_host_script(browser_client, version):
    html = page(browser_client, version)
    assert 'id="roce-formats"' in html and "Arista EOS" in html  # the Arista switch of this version
    assert 'id="roce-preview-format"' in html and "roce-nic-unsupported" not in html
    spec = dict(version.spec)
    spec["nic"] = {**spec["nic"], "vendor": "Broadcom", "name": "Broadcom Thor2 400G", "sku": "BCM957608"}
    type(version).objects.filter(pk=version.pk).update(spec=spec)
    html = page(browser_client, version)
    assert 'id="roce-nic-unsupported"' in html
    assert "Host scripts are not supported for this NIC (Broadcom Thor2 400G)" in html


def test_the_roce_settings_page_keeps_the_designs_header_and_tab_bar(browser_client, version):
    html = browser_client.get(settings_url(version)).content.decode()

    assert 'class="tabs"' in html and 'id="tab-overview"' in html and 'id="tab-topology"' in html
    assert 'id="tab-roce-settings"' in html and 'id="version-switch"' in html
