"""The RoCE and Traffic sheets of the procurement workbook, as procurement opens them."""
from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from apps.analysis.models import RoceReview, TrafficAnalysis
from apps.analysis.sheets import ROCE_SHEET, TRAFFIC_SHEET, roce_sheet_write, traffic_sheet_write
from apps.exports.excel import version_workbook_write, workbook_sheet_register
from tests.analysis.test_analysis import generated

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _analysis_sheets_registered():
    # As Django registers them at start-up; another test module may have replaced a sheet of the same name.
    workbook_sheet_register(ROCE_SHEET, roce_sheet_write, order=60)
    workbook_sheet_register(TRAFFIC_SHEET, traffic_sheet_write, order=70)


def workbook(version):
    stream = io.BytesIO()
    version_workbook_write(version=version, path_or_stream=stream)
    stream.seek(0)
    return load_workbook(stream)


def rows(sheet):
    return [[cell for cell in row] for row in sheet.iter_rows(values_only=True)]


@pytest.fixture
def inconsistent(member_client, project, seed, django_capture_on_commit_callbacks):
    return generated(member_client, project, seed, django_capture_on_commit_callbacks,
                     roce={"overrides": {"nic": {"pfc_priorities": [4]}}})


def test_roce_sheet_lists_checklist_headroom_and_settings(inconsistent):
    book = workbook(inconsistent)
    assert book.sheetnames.index("RoCE") < book.sheetnames.index("Traffic")
    sheet = book["RoCE"]
    table = rows(sheet)
    assert table[0][:5] == ["Severity", "Rule", "Device class", "Finding", "Fix"]
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref.startswith("A1:")
    nic = next(r for r in table if r[2] == "NIC" and r[0] == "error")
    assert nic[1] == "PFC lossless end to end"
    assert nic[4] == "mlnx_qos -i <if> --pfc 0,0,0,1,0,0,0,0 on every backend NIC"
    review = RoceReview.objects.get(version=inconsistent)
    assert sum(1 for r in table[1:] if r[0] in ("error", "warning", "ok") and r[2]) == len(review.findings)

    headroom_at = next(i for i, r in enumerate(table) if r[0] == "PFC headroom per link class")
    assert table[headroom_at + 1][:3] == ["Switch", "Link class", "Speed (Gb/s)"]
    server_leaf = table[headroom_at + 2]
    assert server_leaf[:3] == ["leaf", "server-leaf", 400]
    assert server_leaf[5] == -(-review.headroom[0]["needed"] // 1024)

    settings = {r[0]: (r[1], r[2]) for r in table if isinstance(r[0], str) and r[0].startswith("roce.")}
    assert settings["roce.pfc_priority"] == (3, None)
    assert settings["roce.overrides.nic.pfc_priorities"] == ("4", "changed")
    assert settings["roce.ecn.400.kmin"] == (400, None)


def test_traffic_sheet_has_summary_rows_and_hop_rows(inconsistent):
    sheet = workbook(inconsistent)["Traffic"]
    table = rows(sheet)
    report = TrafficAnalysis.objects.get(version=inconsistent).report
    # link-load spread leads; collisions and time follow
    assert table[0][:4] == ["Collective", "Placement", "Headline", "Source ports"]
    assert table[0][7:10] == ["Worst / mean link", "p99 link load", "Max link load"]
    assert table[0][14] == "Flows sharing a link"
    assert table[0][16:21] == ["Bandwidth term (ms)", "Network steps", "Per-step latency (µs)", "Latency term (ms)",
                               "Time (ms)"]
    summary = [r for r in table[1:7]]
    assert [(r[0], r[1], r[2]) for r in summary] == [
        ("Ring All-Reduce", "scheduler order (random)", "yes"), ("Ring All-Reduce", "scheduler order (random)", "yes"),
        ("Ring All-Reduce", "plan order", "no"), ("Ring All-Reduce", "plan order", "no"),
        ("All-to-All", "any (every pair)", "yes"), ("All-to-All", "any (every pair)", "yes")]
    assert {r[3] for r in summary} == {"ECMP, random source ports", "Hash-aware source ports"}
    a2a_ecmp = next(r for r in summary if r[0] == "All-to-All" and r[3].startswith("ECMP"))
    expected = report["patterns"]["all-to-all"]["strategies"]["ecmp"]
    assert a2a_ecmp[11] == pytest.approx(expected["effective_bandwidth"])
    assert a2a_ecmp[7] == pytest.approx(expected["worst_over_mean"])
    assert a2a_ecmp[8] == pytest.approx(expected["p99_util"])
    assert a2a_ecmp[14] == "flows outnumber links"  # not a meaningless 1.0
    assert a2a_ecmp[20] == pytest.approx(expected["estimated_ms"] + expected["latency_ms"])
    ring = report["patterns"]["all-reduce"]["strategies"]["ecmp"]
    ring_row = summary[0]
    assert ring_row[17] == ring["latency_steps"] == 2 * (report["servers"] - 1)
    assert ring_row[18] == pytest.approx(14.0) and ring_row[20] == pytest.approx(ring["total_ms"])
    assert sheet.auto_filter.ref == "A1:U7"

    hops_at = next(i for i, r in enumerate(table) if r[0] == "Per hop: simulated vs closed-form ECMP collisions")
    header = table[hops_at + 1]
    assert header[11:13] == ["Collision share (simulated)", "Collision share (closed form)"]
    hop_rows = [r for r in table[hops_at + 2:] if r[0] in ("Ring All-Reduce", "All-to-All") and r[3]]
    assert len(hop_rows) == 3 * 2 * 6
    ecmp_uplinks = next(r for r in hop_rows if r[0] == "All-to-All" and r[2].startswith("ECMP")
                        and r[3].startswith("leaf-spine up"))
    flows, links = ecmp_uplinks[6], ecmp_uplinks[4]
    assert flows > links and ecmp_uplinks[11] == "flows outnumber links"
    ring_nic = next(r for r in hop_rows if r[1] == "plan order" and r[2].startswith("ECMP")
                    and r[3].startswith("server-leaf up"))
    # a NIC link carries every channel and queue pair of its ring connection: more flows than links
    assert ring_nic[11] == "flows outnumber links"
    labels = [r[0] for r in table if r]
    assert "Scheduler placement seed" in labels and "Switch port-to-port latency (ns)" in labels
    assert any(r and r[0] == "Assumptions" for r in table)


def test_sheets_are_computed_for_a_version_generated_before_analyses_were_stored(inconsistent):
    RoceReview.objects.filter(version=inconsistent).delete()
    TrafficAnalysis.objects.filter(version=inconsistent).delete()
    book = workbook(inconsistent)
    assert any(r[2] == "NIC" and r[0] == "error" for r in rows(book["RoCE"]))
    assert len([r for r in rows(book["Traffic"])[1:7] if r[0]]) == 6
