"""Day-2 starter pack of an Ethernet (RoCE) design: Prometheus targets, alert rules and a Grafana dashboard.

What is watched, and from which exporter (the metric names are those exporters' own):
- Switches: Prometheus snmp_exporter, IF-MIB (`ifOperStatus`, `ifInErrors`, labelled `ifName`) and
  ENTITY-SENSOR-MIB (RFC 3433: `entPhySensorValue`, `entPhySensorPrecision`, with the generator's
  lookup adding `entPhySensorType`: "celsius" for module temperature, "dBm" for optical power).
  SONiC's SNMP agent serves transceiver DOM readings through ENTITY-SENSOR-MIB.
- Servers: rdma_exporter (github.com/yuuki/rdma_exporter: sysfs counters and hw_counters as
  `rdma_<counter>_total`, mlx5 PFC ethtool counters as `rdma_roce_pfc_pause_duration_total`
  {direction, priority} in microseconds) and node_exporter (`node_network_carrier_changes_total`,
  `node_network_receive_errs_total`).
- Every target carries the design's labels (file_sd targets below): fabric (the design's slug),
  fabric_role (server / leaf / spine / core: the tier), fabric_plane, fabric_rail (leaves of one rail; not
  a rack-scale leaf shared by tray slot, which carries every rail of its plane), fabric_su.
  Rules and dashboard select `fabric="<slug>"`, so several designs share one Prometheus.

Alert rules (thresholds from the design where it has them, else a stated starting point):
- PFC pause storm: a host port paused (rx) on the design's lossless priority for more than half of
  the time over 1 minute, for the PFC watchdog's detection time rounded up to a minute (critical);
  a host pausing its leaf (tx) the same way (warning: the host cannot drain).
- ECN marking rate: more than ECN_MARKED_SHARE of received RoCE packets carry CE for 10 minutes
  (warning), and, when the design runs ECN, PFC pausing for 5 minutes without a single ECN mark
  (warning: ECN is not marking where the design expects it).
- Link flaps: a switch port changing state more than twice in 10 minutes, a host port's carrier
  changing more than 4 times (2 flaps) in 10 minutes.
- CRC / input errors: any growth of ifInErrors on a switch port or receive errors on a host
  port, sustained 5 minutes (warning).
- Optics temperature: above OPTICS_WARN_C (warning) / OPTICS_MAX_C (critical), the top of the
  commercial case-temperature range (0-70 C) that QSFP / OSFP modules' datasheets state (e.g.
  NVIDIA LinkX transceivers); optics power: received power OPTICS_POWER_DROP_DB below its own
  best of the last day (a halving of the light: a dirty or bent fibre, a failing laser).
The rules are checked with `promtool check rules` in the tests.

Dashboard: variables plane, tier and rail (from the target labels); a row per tier (repeated over
the tier variable, the design's tiers selected), its panels repeated per plane, leaves narrowed by
rail; a servers row for PFC pause time, ECN marks / CNPs and carrier changes.
"""
from __future__ import annotations

import json
import math
import re

import yaml

from .model import Plan
from .roce.settings import RoceSettings
from .safe_text import comment_text

ECN_MARKED_SHARE = 0.05
OPTICS_WARN_C = 65
OPTICS_MAX_C = 70
OPTICS_POWER_DROP_DB = 3
PAUSE_STORM_SHARE = 0.5
SWITCH_TIERS = ("leaf", "spine", "core")


def fabric_slug(plan: Plan) -> str:
    """The design's label value: lower-case letters, digits and dashes only (never user text as is)."""
    slug = re.sub(r"[^a-z0-9]+", "-", (plan.spec.name or "").lower()).strip("-")
    return slug[:60] or "fabric"


def prometheus_targets(plan: Plan) -> list[dict]:
    """file_sd target groups: one per device, named by the design (relabel to its management address)."""
    slug = fabric_slug(plan)
    groups = []
    for d in plan.devices:
        labels = {"fabric": slug, "fabric_role": d.role}
        if d.role != "server":
            labels["fabric_plane"] = str(d.plane)
        if d.role == "leaf":
            if d.rail >= 0:  # a rack-scale leaf shared by tray slot carries every rail of its plane
                labels["fabric_rail"] = str(d.rail)
            labels["fabric_su"] = str(d.su)
        groups.append({"targets": [d.name], "labels": labels})
    return groups


def _minutes(ms: int) -> str:
    return f"{max(1, math.ceil(ms / 60_000))}m"


def alert_rules(plan: Plan, settings: RoceSettings) -> dict:
    """The Prometheus rule file (as a dict; `alert_rules_yaml` writes it)."""
    sel = f'fabric="{fabric_slug(plan)}"'
    nic = settings.for_class("nic")
    prio = nic.roce_priority
    detect = _minutes(settings.pfc_watchdog.detection_ms)
    pause = f'rdma_roce_pfc_pause_duration_total{{{sel}, priority="{prio}"'
    rules: list[dict] = [
        {"record": "fabric:optics_sensor:value",
         "expr": f"entPhySensorValue{{{sel}}} / on(instance, entPhysicalIndex) group_left() "
                 f"(10 ^ entPhySensorPrecision{{{sel}}})"},
        {"alert": "FabricPfcPauseStorm",
         "expr": f'rate({pause}, direction="rx"}}[1m]) / 1e6 > {PAUSE_STORM_SHARE}',
         "for": detect, "labels": {"severity": "critical"},
         "annotations": {"summary": "PFC pause storm on {{ $labels.instance }} {{ $labels.netdev }}",
                         "description": f"Paused on priority {prio} more than {PAUSE_STORM_SHARE:.0%} of the time: "
                                        "a stuck receiver or a PFC deadlock upstream."}},
        {"alert": "FabricHostPausingFabric",
         "expr": f'rate({pause}, direction="tx"}}[1m]) / 1e6 > {PAUSE_STORM_SHARE}',
         "for": detect, "labels": {"severity": "warning"},
         "annotations": {"summary": "{{ $labels.instance }} {{ $labels.netdev }} pauses its leaf",
                         "description": "The host cannot drain its receive buffers (PCIe, memory or a hung process)."}},
        {"alert": "FabricEcnMarkingHigh",
         "expr": f"rate(rdma_np_ecn_marked_roce_packets_total{{{sel}}}[5m]) / "
                 f"rate(rdma_port_rcv_packets_total{{{sel}}}[5m]) > {ECN_MARKED_SHARE}",
         "for": "10m", "labels": {"severity": "warning"},
         "annotations": {"summary": "ECN marks {{ $value | humanizePercentage }} of RoCE packets received on "
                                    "{{ $labels.instance }} {{ $labels.device }}",
                         "description": "Sustained congestion on the path to this host: check the traffic pattern, "
                                        "ECMP balance and the ECN thresholds."}},
    ]
    if nic.ecn_enabled:
        rules.append({
            "alert": "FabricPfcWithoutEcn",
            "expr": f'(sum by (instance) (rate({pause}, direction="rx"}}[5m])) > 0) and on(instance) '
                    f"(sum by (instance) (rate(rdma_np_ecn_marked_roce_packets_total{{{sel}}}[5m])) == 0)",
            "for": "5m", "labels": {"severity": "warning"},
            "annotations": {"summary": "PFC pauses without ECN marks at {{ $labels.instance }}",
                            "description": "The design runs ECN/DCQCN: switches should mark before they pause. "
                                           "Check the switches' WRED/ECN profile on the lossless queue."}})
    rules += [
        {"alert": "FabricSwitchLinkFlaps",
         "expr": f"changes(ifOperStatus{{{sel}}}[10m]) > 2",
         "labels": {"severity": "warning"},
         "annotations": {"summary": "{{ $labels.instance }} {{ $labels.ifName }} flaps",
                         "description": "More than two state changes in 10 minutes: reseat or replace the optic or "
                                        "cable, clean the fibre."}},
        {"alert": "FabricHostLinkFlaps",
         "expr": f"increase(node_network_carrier_changes_total{{{sel}}}[10m]) > 4",
         "labels": {"severity": "warning"},
         "annotations": {"summary": "{{ $labels.instance }} {{ $labels.device }} flaps",
                         "description": "More than two flaps in 10 minutes."}},
        {"alert": "FabricSwitchInputErrors",
         "expr": f"increase(ifInErrors{{{sel}}}[5m]) > 0",
         "for": "5m", "labels": {"severity": "warning"},
         "annotations": {"summary": "CRC / input errors on {{ $labels.instance }} {{ $labels.ifName }}",
                         "description": "Frames with bad FCS: a dirty connector, a marginal optic or cable."}},
        {"alert": "FabricHostReceiveErrors",
         "expr": f"increase(node_network_receive_errs_total{{{sel}}}[5m]) > 0",
         "for": "5m", "labels": {"severity": "warning"},
         "annotations": {"summary": "Receive errors on {{ $labels.instance }} {{ $labels.device }}",
                         "description": "CRC errors on the host port: check the optic or cable at both ends."}},
        {"alert": "FabricOpticsHot",
         "expr": f'fabric:optics_sensor:value{{entPhySensorType="celsius"}} > {OPTICS_WARN_C}',
         "for": "5m", "labels": {"severity": "warning"},
         "annotations": {"summary": "Optic at {{ $value }} C on {{ $labels.instance }}",
                         "description": f"Within {OPTICS_MAX_C - OPTICS_WARN_C} C of the {OPTICS_MAX_C} C case "
                                        "limit: check airflow and fan trays."}},
        {"alert": "FabricOpticsTooHot",
         "expr": f'fabric:optics_sensor:value{{entPhySensorType="celsius"}} > {OPTICS_MAX_C}',
         "for": "1m", "labels": {"severity": "critical"},
         "annotations": {"summary": f"Optic above its {OPTICS_MAX_C} C case limit on {{{{ $labels.instance }}}}",
                         "description": "The module runs outside its specified range: errors and failure follow."}},
        {"alert": "FabricOpticsPowerDrop",
         "expr": f'fabric:optics_sensor:value{{entPhySensorType="dBm"}} < '
                 f'max_over_time(fabric:optics_sensor:value{{entPhySensorType="dBm"}}[1d]) - {OPTICS_POWER_DROP_DB}',
         "for": "10m", "labels": {"severity": "warning"},
         "annotations": {"summary": f"Optical power down {OPTICS_POWER_DROP_DB} dB on {{{{ $labels.instance }}}}",
                         "description": "Half the light of the last day: clean or replace the fibre, check the far "
                                        "end's laser."}},
    ]
    return {"groups": [{"name": f"fabricweb-{fabric_slug(plan)}", "rules": rules}]}


def alert_rules_yaml(plan: Plan, settings: RoceSettings) -> str:
    header = (f"# Prometheus alert rules for the fabric of design {comment_text(plan.spec.name) or 'unnamed'} "
              "(generated by fabricweb).\n# Check with: promtool check rules <file>\n")
    return header + yaml.safe_dump(alert_rules(plan, settings), sort_keys=False, allow_unicode=True, width=200)


def _panel(panel_id: int, title: str, expr: str, legend: str, *, unit: str = "short", x: int = 0, y: int = 0,
           repeat: str | None = None) -> dict:
    panel = {
        "id": panel_id, "type": "timeseries", "title": title,
        "datasource": {"type": "prometheus", "uid": "${datasource}"},
        "gridPos": {"h": 8, "w": 8, "x": x, "y": y},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "targets": [{"refId": "A", "expr": expr, "legendFormat": legend}],
    }
    if repeat:
        panel.update(repeat=repeat, repeatDirection="h", maxPerRow=4)
    return panel


def grafana_dashboard(plan: Plan, settings: RoceSettings) -> dict:
    """A Grafana dashboard (JSON model) organised by tier, plane and rail."""
    slug = fabric_slug(plan)
    sel = f'fabric="{slug}"'
    prio = settings.for_class("nic").roce_priority
    tiers = [t for t in SWITCH_TIERS if plan.switches.get(t, 0)]
    panels: list[dict] = []
    next_id = 1
    y = 0

    def add(panel: dict) -> None:
        nonlocal next_id
        panels.append(panel)
        next_id += 1

    # One row per tier (repeated over the tier variable), its panels repeated per plane; the rail
    # filter narrows leaves to a rail (spines and cores carry no rail label, which ".*" matches).
    add({"id": next_id, "type": "row", "title": "Tier: $tier", "collapsed": False, "repeat": "tier",
         "gridPos": {"h": 1, "w": 24, "x": 0, "y": y}, "panels": []})
    y += 1
    where = f'{sel}, fabric_role=~"$tier", fabric_plane=~"$plane", fabric_rail=~"$rail"'
    add(_panel(next_id, "$tier: link state changes, plane $plane",
               f"sum by (instance) (changes(ifOperStatus{{{where}}}[5m]))", "{{instance}}", y=y, repeat="plane"))
    add(_panel(next_id, "$tier: input (CRC) errors / s, plane $plane",
               f"sum by (instance, ifName) (rate(ifInErrors{{{where}}}[5m]))", "{{instance}} {{ifName}}",
               x=8, y=y, repeat="plane"))
    add(_panel(next_id, "$tier: hottest optic, plane $plane",
               f'max by (instance) (fabric:optics_sensor:value{{{where}, entPhySensorType="celsius"}})',
               "{{instance}}", unit="celsius", x=16, y=y, repeat="plane"))
    y += 8
    add({"id": next_id, "type": "row", "title": "Servers", "collapsed": False,
         "gridPos": {"h": 1, "w": 24, "x": 0, "y": y}, "panels": []})
    y += 1
    host = f'{sel}, fabric_role="server"'
    add(_panel(next_id, f"PFC pause time on priority {prio} (rx: paused by the fabric)",
               f'rate(rdma_roce_pfc_pause_duration_total{{{host}, priority="{prio}"}}[1m]) / 1e6',
               "{{instance}} {{netdev}} {{direction}}", unit="percentunit", y=y))
    add(_panel(next_id, "ECN-marked RoCE packets / s and CNPs sent / s",
               f"sum by (instance) (rate(rdma_np_ecn_marked_roce_packets_total{{{host}}}[5m]))",
               "{{instance}} ECN", x=8, y=y))
    panels[-1]["targets"].append({"refId": "B", "expr": f"sum by (instance) (rate(rdma_np_cnp_sent_total{{{host}}}[5m]))",
                                  "legendFormat": "{{instance}} CNP"})
    add(_panel(next_id, "Carrier changes (10 min)",
               f"increase(node_network_carrier_changes_total{{{host}}}[10m])", "{{instance}} {{device}}", x=16, y=y))

    def variable(name: str, label: str, query: str) -> dict:
        return {"name": name, "label": label, "type": "query", "datasource": {"type": "prometheus", "uid": "${datasource}"},
                "query": query, "definition": query, "refresh": 2, "includeAll": True, "multi": True,
                "current": {"text": "All", "value": "$__all"}, "allValue": ".*", "sort": 3}

    return {
        "title": f"Fabric {plan.spec.name or slug}"[:100],
        "uid": f"fabricweb-{slug}"[:40],
        "tags": ["fabricweb", "roce", slug],
        "schemaVersion": 39,
        "time": {"from": "now-6h", "to": "now"},
        "refresh": "1m",
        "templating": {"list": [
            {"name": "datasource", "label": "Prometheus", "type": "datasource", "query": "prometheus",
             "current": {}},
            variable("plane", "Plane", f"label_values(ifOperStatus{{{sel}}}, fabric_plane)"),
            {**variable("tier", "Tier", f"label_values(ifOperStatus{{{sel}}}, fabric_role)"),
             "current": {"text": tiers, "value": tiers}, "options": [{"text": t, "value": t} for t in tiers]},
            variable("rail", "Rail", f'label_values(ifOperStatus{{{sel}, fabric_role="leaf"}}, fabric_rail)'),
        ]},
        "panels": panels,
    }


def day2_files(plan: Plan, settings: RoceSettings) -> list[tuple[str, str]]:
    """(path, text) of the starter pack: targets, rules, dashboard."""
    return [
        ("monitoring/prometheus/fabric-targets.json", json.dumps(prometheus_targets(plan), indent=1) + "\n"),
        ("monitoring/prometheus/fabric-alerts.yml", alert_rules_yaml(plan, settings)),
        ("monitoring/grafana/fabric-dashboard.json", json.dumps(grafana_dashboard(plan, settings), indent=1) + "\n"),
    ]
