"""Checklist findings and traffic notes shown through gettext read exactly as the engine wrote them (in English).

Every sentence the engine can write must be known to apps.analysis.text, or the page would show
untranslatable English to Chinese-speaking users; these tests fail when the engine adds or rewords one.
"""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from apps.analysis.services import roce_review_compute
from apps.designs.services.roce_input import roce_changes, roce_input_clean
from apps.analysis.text import (
    _DESCRIPTIONS,
    _NOTES,
    FindingText,
    ReviewContext,
    finding_text,
    pattern_description,
    traffic_assumptions,
    traffic_note,
)
from apps.engine.plan import plan
from apps.engine.roce import RoceSettings
from apps.engine.specio import spec_from_dict
from apps.engine.traffic import analyze

# Settings that make every rule speak every sentence it has (on a 3-tier fabric: NIC, leaf, spine, core).
SETTINGS = [
    {},
    {"overrides": {"nic": {"pfc_priorities": [4]}, "leaf": {"pfc_priorities": [3, 5]}}},
    {"overrides": {"nic": {"trust": "pcp"}, "spine": {"trust": "pcp"}}},
    {"overrides": {"nic": {"roce_priority": 5}, "leaf": {"roce_priority": 5}}},
    {"overrides": {"leaf": {"ecn_enabled": False}, "nic": {"ecn_enabled": False}}},
    {"ecn": {"400": {"kmin": 2000, "kmax": 1000}}},
    {"ecn": {"400": {"kmin": 0, "kmax": 0, "pmax": 0}}},
    {"ecn": {"400": None}},
    {"dcqcn": {"rp_enable": False}},
    {"dcqcn": {"np_enable": False}},
    {"overrides": {"leaf": {"headroom_kb": 1}}, "buffer": {"switch_buffer_mb": 1}},
    {"overrides": {"spine": {"mtu": 1500}}},
    {"mtu": 4000},
    {"nic_mtu": 9216},
    {"nic_mtu": 1500},
    {"cnp_priority": 3},
    {"cnp_priority": 0},
    {"overrides": {"leaf": {"pfc_priorities": [3, 6]}}},
    {"cnp_strict_priority": False},
    {"pfc_watchdog": {"enabled": False}},
    {"buffer": {"switch_buffer_mb": 100}},  # the 7060DX5-64S publishes no buffer: stated, headroom is checked
]
VARIANTS = {
    "pfc_lossless.off", "pfc_lossless.extra", "trust_mode.pcp", "roce_dscp_mapping.other", "ecn_thresholds.off",
    "ecn_thresholds.scaled", "ecn_thresholds.kmin_above_kmax", "ecn_thresholds.kmin_zero", "ecn_thresholds.pmax",
    "dcqcn.rp_off", "dcqcn.np_off", "headroom.short", "headroom.reserved", "mtu.below_tiers", "mtu.roce",
    "mtu.below_nic", "mtu.nic_roce", "cnp_priority.shared", "cnp_priority.best_effort", "cnp_priority.lossless",
    "cnp_priority.weighted", "pfc_watchdog.off", "headroom.buffer_unknown",
} | {f"{rule}.ok" for rule in ("pfc_lossless", "trust_mode", "roce_dscp_mapping", "ecn_thresholds", "dcqcn",
                               "headroom", "mtu", "cnp_priority", "pfc_watchdog")}


@pytest.fixture(scope="module")
def three_tier_plan():
    spec = spec_from_dict({"name": "text", "gpus": 2048, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
                           "leaf": {"sku": "DCS-7060DX5-64S", "breakout": "1x400G"}, "tiers": 3})
    return plan(spec)


def test_every_checklist_sentence_reads_as_the_engine_wrote_it(three_tier_plan):
    seen = set()
    with translation.override("en"):
        for data in SETTINGS:
            settings = RoceSettings.from_dict(data)
            result = roce_review_compute(plan=three_tier_plan, settings=settings)
            assert result.classes == ["nic", "leaf", "spine", "core"]
            ctx = ReviewContext(settings=settings, classes=result.classes, link_classes=result.link_classes)
            for finding in result.findings:
                text = finding_text(finding, ctx)
                assert text.variant, finding
                assert (text.message, text.fix) == (finding["message"], finding["fix"]), (data, finding)
                seen.add(text.variant)
    assert seen == VARIANTS


def test_findings_render_in_chinese_without_losing_the_commands(three_tier_plan):
    settings = RoceSettings.from_dict({"overrides": {"nic": {"pfc_priorities": [4]}}})
    result = roce_review_compute(plan=three_tier_plan, settings=settings)
    ctx = ReviewContext(settings=settings, classes=result.classes, link_classes=result.link_classes)
    nic = next(f for f in result.findings if f["code"] == "pfc_lossless" and f["device_class"] == "nic")
    with translation.override("zh-hans"):
        text = finding_text(nic, ctx)
    assert "mlnx_qos -i <if> --pfc 0,0,0,1,0,0,0,0" in text.fix
    assert text.message


def test_an_unknown_sentence_is_shown_as_the_engine_wrote_it():
    ctx = ReviewContext(settings=RoceSettings())
    finding = {"severity": "error", "code": "new_rule", "device_class": "leaf", "message": "Something new.",
               "fix": "Do this.", "params": {}}
    assert finding_text(finding, ctx) == FindingText("", "Something new.", "Do this.")


def test_traffic_descriptions_notes_and_assumptions_read_as_the_engine_wrote_them(three_tier_plan):
    report = analyze(three_tier_plan, max_flows=20_000)
    notes = [n for p in report.patterns.values() for n in p.notes]
    assert any(n.startswith("Sampled: ") for n in notes)
    with translation.override("en"):
        for p in report.patterns.values():
            # the same sentence, with counts grouped by thousands as the rest of the page writes them
            assert re.sub(r"(?<=\d),(?=\d{3})", "", pattern_description(p.description)) == p.description
        for note in notes:
            assert traffic_note(note) == note
        assert traffic_assumptions(report.assumptions) == list(report.assumptions)
    # each is a sentence the module knows (in English a known and an unknown sentence read the same)
    for text in notes:
        assert any(pattern.match(text) for pattern, _ in _NOTES), text
    for p in report.patterns.values():
        assert any(pattern.match(p.description) for pattern, _ in _DESCRIPTIONS), p.description


@pytest.mark.parametrize("data", SETTINGS)
def test_stored_changes_give_back_the_same_settings(data):
    changes, errors = roce_input_clean(data)
    assert errors == {}
    settings = RoceSettings.from_dict(data)
    assert RoceSettings.from_dict(changes) == settings
    assert roce_changes(settings) == changes


def test_traffic_descriptions_group_gpu_and_server_counts_by_thousands():
    engine_text = "All-to-All across 5000 GPUs (625 servers), PXN over the destination's rail"
    with translation.override("en"):
        assert pattern_description(engine_text) == (
            "All-to-All across 5,000 GPUs (625 servers), PXN over the destination's rail")
    with translation.override("zh-hans"):
        assert "5,000 个 GPU" in pattern_description(engine_text)
    ring = "Ring All-Reduce within each of 8 rails over 1250 servers"
    with translation.override("en"):
        assert pattern_description(ring) == "Ring All-Reduce within each of 8 rails over 1,250 servers"
