"""The RoCE and Traffic sections of the design page (apps.designs.panels), and a checklist badge.

- header "roce-badge": the checklist verdict beside the version title (errors / warnings / ok).
- nav "roce-settings": a link to the "Change RoCE settings" page.
- section "roce": settings in force (changes from the defaults marked), PFC headroom per link
  class, the checklist with severity badges, the device class and the fix of every finding,
  the configs zip download and a per-device preview, and the settings form (a new version).
- section "traffic": Chart.js plots of the stored report (per-link load histogram ECMP vs
  hash-aware per collective, effective bandwidth and worst/mean link per collective and
  strategy, all of the headline placement), the summary (one row per collective, placement and
  strategy, the headline placement marked: worst/mean and p99 link load first, the collision
  share only where flows do not outnumber links, then bandwidth term + latency term = time)
  and per-hop tables (simulated vs closed-form ECMP collisions), the notes (placement, latency
  basis, which algorithm NCCL would likely pick) and the assumptions, and a form to run the
  analysis again (another seed, sample size, collective, switch and NIC latency) through the API.
  Figures an older stored report lacks (scheduler placement, latency term) read "not computed".
- On an InfiniBand design the badge and the nav link are left out and both sections say in one
  sentence why they don't apply (credit-based flow control; subnet-manager routing).
"""
from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.fabric_text import roce_not_applicable, traffic_not_applicable
from apps.designs.panels import DesignPanel, design_panel_register
from apps.engine.roce import config_formats
from apps.engine.spec import SpecError
from apps.engine.specio import spec_from_dict
from apps.engine.traffic import MAX_LATENCY_NS

from .forms import roce_form_build
from .models import TrafficAnalysis
from .selectors import roce_review_get, traffic_analysis_default, traffic_analysis_list, version_config_samples
from .services import MAX_MAX_FLOWS, MIN_MAX_FLOWS, SYNC_MAX_GPUS
from .text import (
    RULE_TITLES,
    SEVERITY_LABELS,
    class_label,
    finding_text,
    hop_label,
    link_class_label,
    pattern_description,
    latency_basis_label,
    pattern_label,
    placement_label,
    strategy_label,
    traffic_assumptions,
    traffic_note,
)

CHART_JS = "vendor/chartjs/chart-4.6.1.umd.min.js"


def _review(request, version):
    """One review per request: the header, nav and section panels all need it."""
    cache = getattr(request, "_roce_reviews", None)
    if cache is None:
        cache = request._roce_reviews = {}
    if version.pk not in cache:
        cache[version.pk] = roce_review_get(version=version)
    return cache[version.pk]


def _onoff(value: bool) -> str:
    return _("on") if value else _("off")


def settings_rows(settings: dict[str, Any], changes: dict[str, Any]) -> list[dict[str, Any]]:
    """The settings table: (setting, value, changed from the default) in review order."""
    s = settings
    rows = []

    def row(key: str, label: Any, value: Any, *changed_keys: str) -> None:
        changed = any(_nested(changes, k) is not _MISSING for k in (changed_keys or (key,)))
        rows.append({"key": key, "label": str(label), "value": value, "changed": changed})

    row("pfc_priority", _("PFC (lossless) priority"), s["pfc_priority"], "pfc_priority")
    row("trust", _("Trust mode"), str(s["trust"]).upper(), "trust")
    row("dscp_map", _("DSCP to priority"),
        _("RoCE DSCP %(roce)s → priority %(prio)s; CNP DSCP %(cnp)s → priority %(cnp_prio)s (%(sched)s); "
          "other DSCP → 0") % {"roce": s["roce_dscp"], "prio": s["pfc_priority"], "cnp": s["cnp_dscp"],
                                "cnp_prio": s["cnp_priority"],
                                "sched": _("strict priority") if s["cnp_strict_priority"] else _("weighted")},
        "roce_dscp", "cnp_dscp", "cnp_priority", "cnp_strict_priority")
    row("ecn_enabled", _("ECN marking (switches) and DCQCN (NICs)"), _onoff(s["ecn_enabled"]), "ecn_enabled")
    for gbps, t in s["ecn"].items():
        row(f"ecn.{gbps}", _("ECN at %(gbps)sG") % {"gbps": gbps},
            _("Kmin %(kmin)s KB, Kmax %(kmax)s KB, Pmax %(pmax)s %%") % t, f"ecn.{gbps}")
    d = s["dcqcn"]
    row("dcqcn", _("DCQCN"),
        _("reaction point %(rp)s, notification point %(np)s; min time between CNPs %(cnp)s µs, rate decrease "
          "factor %(gd)s, additive increase %(ai)s Mb/s, hyper increase %(hai)s Mb/s, min rate %(min)s Mb/s")
        % {"rp": _onoff(d["rp_enable"]), "np": _onoff(d["np_enable"]), "cnp": d["min_time_between_cnps"],
           "gd": d["rpg_gd"], "ai": d["rpg_ai_rate"], "hai": d["rpg_hai_rate"], "min": d["rpg_min_rate"]},
        "dcqcn")
    row("mtu", _("MTU"), _("switch ports %(mtu)s, NIC %(nic)s, RoCE path %(roce)s") % {
        "mtu": s["mtu"], "nic": s["nic_mtu"], "roce": s["roce_mtu"]}, "mtu", "nic_mtu", "roce_mtu")
    w = s["pfc_watchdog"]
    row("pfc_watchdog", _("PFC watchdog"),
        (_("on: detection %(detect)s ms, restoration %(restore)s ms, polling %(poll)s ms, action %(action)s") % {
            "detect": w["detection_ms"], "restore": w["restoration_ms"], "poll": w["poll_ms"],
            "action": w["action"]}) if w["enabled"] else _("off"), "pfc_watchdog")
    b = s["buffer"]
    inputs = {"cell": b["cell_bytes"], "prop": f"{b['propagation_ns_per_m']:g}", "phy": b["interface_delay_ns"],
              "resp": b["pfc_response_ns"]}
    if b["switch_buffer_mb"] is None:
        text = _("each switch model's own buffer, %(cell)s-byte cells, %(prop)s ns/m, %(phy)s ns per link end, "
                 "%(resp)s ns PFC response") % inputs
    else:
        text = _("%(buffer)s MB buffer, %(cell)s-byte cells, %(prop)s ns/m, %(phy)s ns per link end, %(resp)s ns PFC "
                 "response") % {"buffer": f"{b['switch_buffer_mb']:g}", **inputs}
    row("buffer", _("Headroom inputs"), text, "buffer")
    if s["sonic_fragment"]:
        row("sonic_fragment", _("SONiC config_db"), _("fragments for switches without platform data"),
            "sonic_fragment")
    for cls, override in (s.get("overrides") or {}).items():
        text = ", ".join(f"{key} {','.join(map(str, value)) if isinstance(value, list) else value}"
                         for key, value in override.items())
        row(f"overrides.{cls}", _("Differs on %(class)s") % {"class": class_label(cls)}, text, f"overrides.{cls}")
    return rows


_MISSING = object()


def _nested(tree: dict[str, Any], dotted: str) -> Any:
    for key in dotted.split("."):
        if not isinstance(tree, dict) or key not in tree:
            return _MISSING
        tree = tree[key]
    return tree


def checklist_rows(review) -> list[dict[str, Any]]:
    ctx = review.review_context
    rows = []
    for finding in review.findings:
        text = finding_text(finding, ctx)
        rows.append({
            "severity": finding["severity"], "severity_label": str(SEVERITY_LABELS.get(finding["severity"], "")),
            "code": finding["code"], "rule": str(RULE_TITLES.get(finding["code"], finding["code"])),
            "device_class": finding["device_class"], "device_class_label": class_label(finding["device_class"]),
            "message": text.message, "fix": text.fix,
        })
    return rows


def headroom_rows(review) -> list[dict[str, Any]]:
    return [{**row, "device_class_label": class_label(row["device_class"]),
             "link_class_label": link_class_label(row["link_class"]), "needed_kb": -(-row["needed"] // 1024),
             "configured_kb": -(-row["configured"] // 1024), "xon_kb": -(-row["xon"] // 1024),
             "size_kb": -(-row["size"] // 1024)} for row in review.headroom]


def _roce_context(request, version) -> dict[str, Any]:
    if version.is_infiniband:
        return {"not_applicable": roce_not_applicable()}
    review = _review(request, version)
    context: dict[str, Any] = {"review": review, "checklist": checklist_rows(review),
                               "counts": {s: review.count(s) for s in ("error", "warning", "ok")}}
    if review.settings:
        context["settings_rows"] = settings_rows(review.settings, review.changes)
        context["headroom"] = headroom_rows(review)
        context["form"] = roce_form_build(settings=review.roce_settings)
    context.update(
        zip_url=reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk}),
        device_url=reverse("api-version-roce-device-config", kwargs={"pk": version.pk, "device_name": "DEVICE"}
                           ).replace("DEVICE", "{device}"),
        settings_url=reverse("design-analysis:roce-settings",
                             kwargs={"project_pk": version.design.project_id, "version_pk": version.pk}),
        samples=[{"name": d.name, "role": d.role, "label": class_label("nic" if d.role == "server" else d.role)}
                 for d in version_config_samples(version=version)],
        formats=_config_formats(version),
    )
    return context


def _config_formats(version) -> dict[str, Any] | None:
    try:
        return config_formats(spec_from_dict(version.spec))
    except SpecError:
        return None


def _badge_context(request, version) -> dict[str, Any]:
    if version.is_infiniband:
        return {"not_applicable": roce_not_applicable()}
    review = _review(request, version)
    return {"counts": {s: review.count(s) for s in ("error", "warning", "ok")}, "review": review}


def _nav_context(request, version) -> dict[str, Any]:
    if version.is_infiniband:
        return {"not_applicable": roce_not_applicable()}
    return {"settings_url": reverse("design-analysis:roce-settings",
                                    kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})}


def traffic_chart_data(analysis: TrafficAnalysis) -> dict[str, Any]:
    """What static/js/analysis.js draws: the headline placement of each collective, labels translated."""
    report = analysis.report
    patterns = []
    for name, p in (report.get("patterns") or {}).items():
        edges = p["bin_edges"]
        strategies = []
        for sname, r in p["strategies"].items():
            strategies.append({
                "key": sname, "label": strategy_label(sname), "histogram": r["histogram"],
                "effective_bandwidth": r["effective_bandwidth"], "mean_flow_bandwidth": r["mean_flow_bandwidth"],
                "worst_over_mean": r["worst_over_mean"], "max_util": r["max_util"], "mean_util": r["mean_util"],
                "p99_util": r.get("p99_util"), "oversubscribed_share": r["oversubscribed_share"],
            })
        patterns.append({
            "key": name, "label": pattern_label(name),
            "placement": placement_label(p.get("placement", "plan")) if name == "all-reduce" else _("any (every pair)"),
            "bins": [f"{edges[i] * 100:.0f}–{edges[i + 1] * 100:.0f} %" for i in range(len(edges) - 1)],
            "strategies": strategies,
        })
    return {
        "patterns": patterns,
        "labels": {
            "links": _("fabric link directions"), "utilisation": _("utilisation of the link (load / capacity)"),
            # xgettext:no-python-format
            "effective": _("effective bandwidth (% of line rate)"), "worst_over_mean": _("worst link / mean"),
            "collective": _("collective"),
        },
    }


def _outnumbered(hop: dict[str, Any]) -> bool:
    return hop["flows"] > hop["links"]


def _strategy_row(sname: str, r: dict[str, Any]) -> dict[str, Any]:
    """A summary row: the stored figures, the collision share only where it tells something, None for figures an
    older report does not have."""
    hops = [{**h, "label": hop_label(h["hop"]), "outnumbered": _outnumbered(h)} for h in r["hops"] if h["flows"]]
    outnumbered = any(h["tier"] >= 1 and h["outnumbered"] for h in hops)
    return {
        **{k: v for k, v in r.items() if k != "hops"}, "key": sname, "label": strategy_label(sname), "hops": hops,
        "flows_outnumber_links": outnumbered, "shown_collision_share": None if outnumbered else r["collision_share"],
        "latency_ms": r.get("latency_ms"), "total_ms": r.get("total_ms"), "latency_steps": r.get("latency_steps"),
        "step_latency_us": r.get("step_latency_us"), "step_switches": r.get("step_switches"),
        "step_metres": r.get("step_metres"), "latency_basis": r.get("latency_basis") or "",
        "latency_basis_label": latency_basis_label(r["latency_basis"]) if r.get("latency_basis") else "",
    }


def traffic_pattern_rows(analysis: TrafficAnalysis) -> list[dict[str, Any]]:
    report = analysis.report
    out = []
    for name, p in (report.get("patterns") or {}).items():
        headline = p.get("placement", "plan")
        runs = [(headline, p["strategies"]), *(p.get("other_placements") or {}).items()]
        placements = [{"key": placement, "label": placement_label(placement), "headline": placement == headline,
                       "strategies": [_strategy_row(sname, r) for sname, r in strategies.items()]}
                      for placement, strategies in runs]
        out.append({
            "key": name, "label": pattern_label(name), "description": pattern_description(p["description"]),
            "flows": p["flows"], "flows_total": p["flows_total"], "sampled": p["sampled"],
            "flow_gbps": p["flow_gbps"], "message_bytes": p["message_bytes"], "unroutable": p["unroutable"],
            "notes": [traffic_note(n) for n in p.get("notes") or []], "placements": placements,
            "strategies": placements[0]["strategies"], "placement_seed": p.get("placement_seed"),
            # an All-Reduce stored before the scheduler placement existed
            "scheduler_not_computed": name == "all-reduce" and "placement" not in p,
        })
    return out


def _chosen_analysis(request, version) -> TrafficAnalysis | None:
    """?traffic=<id> shows that analysis of the version (a re-run); otherwise the default one."""
    chosen = request.GET.get("traffic", "")
    if chosen.isascii() and chosen.isdigit():  # not "²", a digit to isdigit() only
        analysis = traffic_analysis_list(version=version).filter(pk=int(chosen)).first()
        if analysis is not None:
            return analysis
    return traffic_analysis_default(version=version)


def _traffic_context(request, version) -> dict[str, Any]:
    if version.is_infiniband:
        return {"not_applicable": traffic_not_applicable()}
    analysis = _chosen_analysis(request, version)
    context: dict[str, Any] = {
        "analysis": analysis,
        "analyses": list(traffic_analysis_list(version=version)[:10]),
        "api_url": reverse("api-version-traffic", kwargs={"pk": version.pk}),
        "chart_js": CHART_JS,
        "limits": {"min_flows": MIN_MAX_FLOWS, "max_flows": MAX_MAX_FLOWS, "sync_gpus": SYNC_MAX_GPUS,
                   "max_latency_ns": MAX_LATENCY_NS},
        "pattern_choices": TrafficAnalysis.Pattern.choices,
    }
    if analysis is not None and analysis.report:
        report = analysis.report
        context.update(
            chart_data=traffic_chart_data(analysis),
            pattern_rows=traffic_pattern_rows(analysis),
            assumptions=traffic_assumptions(report.get("assumptions") or []),
            report_meta={"gpus": report.get("gpus"), "servers": report.get("servers"), "rails": report.get("rails"),
                         "line_gbps": report.get("line_gbps"), "seed": report.get("seed"),
                         "max_flows": report.get("max_flows"), "seconds": report.get("seconds"),
                         "message_bytes": analysis.message_bytes,
                         "qps": report.get("qps_per_connection"),
                         # keys absent from reports stored before the latency term existed
                         "latency_computed": "switch_latency_ns" in report,
                         "switch_latency_ns": report.get("switch_latency_ns"),
                         "nic_latency_ns": report.get("nic_latency_ns")},
        )
    return context


def analysis_panels_register() -> None:
    """Add the RoCE badge, nav link and sections and the Traffic section (from AnalysisConfig.ready())."""
    design_panel_register(DesignPanel(
        key="roce-badge", title=gettext_lazy("RoCE checklist"), template_name="designs/analysis/_roce_badge.html",
        slot="header", get_context=_badge_context, order=30,
    ))
    design_panel_register(DesignPanel(
        key="roce-settings", title=gettext_lazy("RoCE settings"), template_name="designs/analysis/_roce_nav.html",
        slot="nav", get_context=_nav_context, order=30,
    ))
    design_panel_register(DesignPanel(
        key="roce", title=gettext_lazy("RoCE lossless settings"), template_name="designs/analysis/roce_panel.html",
        slot="section", get_context=_roce_context, order=30,
    ))
    design_panel_register(DesignPanel(
        key="traffic", title=gettext_lazy("Traffic analysis"), template_name="designs/analysis/traffic_panel.html",
        slot="section", get_context=_traffic_context, order=35,
    ))
