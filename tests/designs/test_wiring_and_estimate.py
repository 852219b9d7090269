"""Issue 12 on the web: the wiring proof on the design page, workbook and API, and a live estimate
that equals the generated quote for the same inputs."""
from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from apps.catalog.models import SwitchModel
from apps.exports.excel import version_workbook_write
from apps.designs.models import DesignVersion
from apps.designs.services.design import design_create, design_estimate
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db

QM9700 = "MQM9700-NS2F"


def generated(project, member, data, capture, name="Hall A") -> DesignVersion:
    with capture(execute=True):
        job = design_create(project=project, user=member, name=name, data=data)
    version = DesignVersion.objects.get(pk=job.version_id)
    assert version.is_ready, job.error
    return version


def version_url(name, project, version) -> str:
    return reverse(f"designs:{name}", kwargs={"project_pk": project.pk, "version_pk": version.pk})


CASES = {
    "2 tiers": dict(gpus=1_000),
    "DGX H100 on SN5600, 5,000 GPUs": dict(gpus=5_000),
    "3 tiers, 2 pods": dict(gpus=5_000, tiers=3),
    "8 planes": dict(gpus=2_000, planes=8),
    "InfiniBand QM9700": dict(gpus=2_000, qm9700=True),
}


@pytest.mark.parametrize("case", CASES)
def test_the_live_estimate_quotes_the_switches_and_total_the_generated_version_quotes(
        case, project, member, seed, django_capture_on_commit_callbacks):
    changes = dict(CASES[case])
    if changes.pop("qm9700", False):
        changes.update(leaf_switch=SwitchModel.objects.get(sku=QM9700).pk, leaf_breakout="2x400G")
    data = inputs(seed, **changes)
    estimate = design_estimate(project=project, data=data)
    assert estimate["feasible"], estimate["errors"]
    version = generated(project, member, data, django_capture_on_commit_callbacks)
    size = estimate["size"]
    assert size["switches"] == version.summary["switches"]
    assert size["links"] == version.summary["links"]
    assert size["estimated_cost"] == pytest.approx(float(version.total_cost), abs=0.005)
    # The alternatives come out in the same order, at the same prices, with the same one marked cheapest.
    live = [(a["planes"], a["tiers"], a["feasible"], a.get("blocking", False), a["cheapest"], a.get("total_cost"))
            for a in estimate["alternatives"]]
    stored = [(a["planes"], a["tiers"], a["feasible"], a.get("blocking", False), a["cheapest"], a.get("total_cost"))
              for a in version.summary["alternatives"]]
    assert live == stored
    assert version.summary["wiring"]["as_stated"] is True


def test_5000_dgx_h100_on_sn5600_is_64_spines_proven_non_blocking(project, member, seed,
                                                                   django_capture_on_commit_callbacks):
    version = generated(project, member, inputs(seed, gpus=5_000), django_capture_on_commit_callbacks)
    summary = version.summary
    assert summary["switches"] == {"leaf": 80, "spine": 64, "core": 0}
    assert summary["wiring"]["worst_pair_fraction"] == 1.0 and summary["wiring"]["as_stated"] is True
    # The 40-spine wiring is offered only as a blocking alternative, never as the cheapest.
    blocking = [a for a in summary["alternatives"] if a.get("blocking")]
    assert len(blocking) == 1 and not blocking[0]["cheapest"]
    assert blocking[0]["switches"]["spine"] == 40
    assert blocking[0]["wiring"]["worst_pair_fraction"] == 0.75 and blocking[0]["wiring"]["as_stated"] is False
    assert blocking[0]["total_cost"] < float(version.total_cost)


def test_the_design_page_shows_the_wiring_proof_among_the_headline_figures(client_for_member, project, member, seed,
                                                                           django_capture_on_commit_callbacks):
    version = generated(project, member, inputs(seed, gpus=5_000), django_capture_on_commit_callbacks)
    page = client_for_member.get(version_url("version-detail", project, version))
    kpi = next(k for k in page.context["kpis"] if k["key"] == "wiring")
    assert kpi["value"] == "100.0 %" and kpi["state"] == "ok"
    assert kpi["detail"].startswith("as stated")
    body = page.content.decode()
    assert 'data-kpi="wiring"' in body and "Wiring proof: worst leaf pair" in body
    # The blocking alternative is labelled so, with its worst pair.
    blocking = next(alt for alt in page.context["alternatives"] if alt.get("blocking"))
    assert blocking["label_text"] == "2 tiers, fewest spines (blocking)" and blocking["wiring_text"] == "75.0 %"
    assert not blocking["cheapest"]
    assert "2 tiers, fewest spines (blocking)" in body and "the fabric is blocking" in body


def test_a_version_generated_before_the_proof_shows_not_computed(client_for_member, member_client, project, member,
                                                                 seed, django_capture_on_commit_callbacks):
    version = generated(project, member, inputs(seed, gpus=256), django_capture_on_commit_callbacks)
    summary = dict(version.summary)
    summary.pop("wiring")
    DesignVersion.objects.filter(pk=version.pk).update(summary=summary)
    page = client_for_member.get(version_url("version-detail", project, version))
    assert page.status_code == 200
    kpi = next(k for k in page.context["kpis"] if k["key"] == "wiring")
    assert kpi["value"] == "not computed" and kpi["state"] == "unknown"
    api = member_client.get(f"/api/versions/{version.pk}/")
    assert api.status_code == 200 and api.json()["wiring"] is None
    version.refresh_from_db()
    out = io.BytesIO()
    version_workbook_write(version=version, path_or_stream=out)
    rows = {row[0]: row[1] for row in load_workbook(out, read_only=True)["Summary"].iter_rows(values_only=True)
            if len(row) > 1 and row[0]}
    assert rows["Wiring proof: worst leaf pair (share of a leaf's downlinks)"] == "not computed"


def test_the_api_and_workbook_carry_the_wiring_proof(member_client, project, member, seed,
                                                     django_capture_on_commit_callbacks):
    version = generated(project, member, inputs(seed, gpus=256, oversubscription=3), django_capture_on_commit_callbacks)
    wiring = member_client.get(f"/api/versions/{version.pk}/").json()["wiring"]
    assert wiring["as_stated"] is True and wiring["worst_pair_fraction"] == pytest.approx(0.333, abs=0.001)
    assert wiring["leaf_uplinks"] * 3 == wiring["leaf_downlinks"]
    out = io.BytesIO()
    version_workbook_write(version=version, path_or_stream=out)
    rows = {row[0]: row[1] for row in load_workbook(out, read_only=True)["Summary"].iter_rows(values_only=True)
            if len(row) > 1 and row[0]}
    assert rows["Wiring proof: worst leaf pair (share of a leaf's downlinks)"] == pytest.approx(0.3333, abs=1e-4)
    assert rows["Delivers the stated oversubscription"] == "yes"
