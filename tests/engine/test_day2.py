"""Day-2 starter pack: Prometheus targets and alert rules (checked by promtool) and the Grafana dashboard."""
from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess

import pytest
import yaml

from apps.engine.day2 import alert_rules, day2_files, fabric_slug, grafana_dashboard, prometheus_targets
from apps.engine.plan import plan
from apps.engine.roce import RoceSettings

from .test_roce import make_spec


@pytest.fixture(scope="module")
def three_tier():
    return plan(make_spec(5000, name="Customer A / hall 2"))


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool not installed (Debian's prometheus package)")
def test_alert_rules_pass_promtool(three_tier, tmp_path):
    for settings in (RoceSettings(), RoceSettings.from_dict({"ecn_enabled": False})):
        path = tmp_path / "fabric-alerts.yml"
        path.write_text(dict(day2_files(three_tier, settings))["monitoring/prometheus/fabric-alerts.yml"])
        result = subprocess.run(["promtool", "check", "rules", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "SUCCESS" in result.stdout


def test_rules_cover_pfc_ecn_flaps_crc_and_optics_with_the_designs_values(three_tier):
    settings = RoceSettings.from_dict({"pfc_priority": 4, "pfc_watchdog": {"detection_ms": 5000}})
    rules = {r.get("alert") or r["record"]: r for r in alert_rules(three_tier, settings)["groups"][0]["rules"]}
    assert {"FabricPfcPauseStorm", "FabricEcnMarkingHigh", "FabricPfcWithoutEcn", "FabricSwitchLinkFlaps",
            "FabricHostLinkFlaps", "FabricSwitchInputErrors", "FabricHostReceiveErrors", "FabricOpticsHot",
            "FabricOpticsTooHot", "FabricOpticsPowerDrop"} <= set(rules)
    storm = rules["FabricPfcPauseStorm"]
    assert 'priority="4"' in storm["expr"] and storm["for"] == "1m"  # the watchdog time, in whole minutes
    assert all('fabric="customer-a-hall-2"' in r["expr"] or "fabric:optics" in r["expr"] for r in rules.values())
    assert "> 70" in rules["FabricOpticsTooHot"]["expr"]
    no_ecn = alert_rules(three_tier, RoceSettings.from_dict({"ecn_enabled": False}))
    assert "FabricPfcWithoutEcn" not in {r.get("alert") for r in no_ecn["groups"][0]["rules"]}


def test_targets_label_every_device_with_tier_plane_and_rail(three_tier):
    groups = prometheus_targets(three_tier)
    assert len(groups) == len(three_tier.devices)
    by_name = {g["targets"][0]: g["labels"] for g in groups}
    leaf = next(d for d in three_tier.devices if d.role == "leaf")
    assert by_name[leaf.name] == {"fabric": "customer-a-hall-2", "fabric_role": "leaf", "fabric_plane": str(leaf.plane),
                                  "fabric_rail": str(leaf.rail), "fabric_su": str(leaf.su)}
    assert by_name[three_tier.devices[0].name] == {"fabric": "customer-a-hall-2", "fabric_role": "server"}


def test_dashboard_is_organised_by_tier_plane_and_rail(three_tier):
    dashboard = json.loads(json.dumps(grafana_dashboard(three_tier, RoceSettings())))
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert {"datasource", "plane", "tier", "rail"} <= set(variables)
    assert variables["tier"]["current"]["value"] == ["leaf", "spine", "core"]
    rows = [p for p in dashboard["panels"] if p["type"] == "row"]
    assert rows[0]["repeat"] == "tier" and rows[-1]["title"] == "Servers"
    switch_panels = [p for p in dashboard["panels"] if p.get("repeat") == "plane"]
    assert len(switch_panels) == 3
    assert all('fabric_rail=~"$rail"' in p["targets"][0]["expr"] for p in switch_panels)
    assert len({p["id"] for p in dashboard["panels"]}) == len(dashboard["panels"])


def test_a_hostile_design_name_stays_a_comment_and_a_plain_slug():
    p = plan(make_spec(64))
    named = dataclasses.replace(p, spec=dataclasses.replace(p.spec, name='x"}\nevil: $(reboot)'))
    assert fabric_slug(named) == "x-evil-reboot"
    text = dict(day2_files(named, RoceSettings()))["monitoring/prometheus/fabric-alerts.yml"]
    document = yaml.safe_load(text)
    assert set(document) == {"groups"}
    assert text.splitlines()[0].startswith("# Prometheus alert rules for the fabric of design x\"} evil")
