"""The "RoCE" and "Traffic" sheets of the procurement workbook (registered with apps.designs.sheets).

RoCE (order 60): the checklist as the sheet's table (severity, rule, device class, finding, fix;
frozen header, auto-filter), then the PFC headroom per switch class and link class, then every
setting in force with the ones changed from the defaults marked.
Traffic (order 70): one row per collective, placement and strategy (TrafficReport.summary_rows,
the headline placement first and marked) as the table: worst/mean, p99 and max link load lead,
the collision share only where flows do not outnumber links ("flows outnumber links" else),
then bandwidth term, network steps, per-step latency, latency term and time ("not computed"
for a report stored before them); then one row per hop (hop_rows) with the simulated and
closed-form ECMP collision shares, then the notes (placement, latency basis, NCCL's likely
algorithm), the latency parameters and the scheduler seed, and the assumptions.
Both read what generation stored; for a version generated before that, they are computed from
its frozen spec (not stored), except above GENERATION_TRAFFIC_MAX_GPUS, where the Traffic sheet says the analysis
was not run (generation leaves it to the user, an export must not run it either). Texts are in the exporting user's language. On an InfiniBand
design each holds one line saying why it does not apply (credit-based flow control; the subnet
manager routes, no ECMP hashing).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.fabric_text import roce_not_applicable, traffic_not_applicable
from apps.designs.services.roce_input import roce_changes
from apps.designs.sheets import SheetContext as WorkbookContext
from apps.designs.sheets import not_applicable_sheet, workbook_sheet_register
from apps.designs.workbook import Column, Sheet, Styled, flat_items
from apps.engine.traffic import TrafficReport, analyze

from .selectors import roce_review_get, traffic_analysis_default, version_plan
from .services import GENERATION_TRAFFIC_MAX_GPUS, traffic_deferred_text
from .text import (
    RULE_TITLES,
    SEVERITY_LABELS,
    class_label,
    finding_text,
    hop_label,
    link_class_label,
    pattern_description,
    pattern_label,
    placement_label,
    strategy_label,
    traffic_assumptions,
    traffic_note,
)

ROCE_SHEET = gettext_lazy("RoCE")
TRAFFIC_SHEET = gettext_lazy("Traffic")
SEVERITY_STYLES = {"error": "warning", "warning": "bold", "ok": "ok"}


def _header(sheet: Sheet, titles: list[str]) -> None:
    sheet.append([Styled(title, "header") for title in titles])


def _section(sheet: Sheet, title: str) -> None:
    sheet.append([])
    sheet.append([Styled(title, "section")])


def roce_sheet_write(ctx: WorkbookContext, sheet: Sheet) -> bool | None:
    if ctx.version.is_infiniband:
        not_applicable_sheet(sheet, roce_not_applicable())
        return None
    review = roce_review_get(version=ctx.version)
    sheet.columns([
        Column(_("Severity"), 10), Column(_("Rule"), 24), Column(_("Device class"), 12),
        Column(_("Finding"), 80, "wrap"), Column(_("Fix"), 70, "wrap"),
        Column("", 14), Column("", 14), Column("", 14), Column("", 34),
    ], auto_filter=True)
    findings = review.findings if review.settings else []
    rctx = review.review_context if review.settings else None
    for finding in findings:
        text = finding_text(finding, rctx)
        sheet.append([
            Styled(str(SEVERITY_LABELS.get(finding["severity"], finding["severity"])),
                   SEVERITY_STYLES.get(finding["severity"], "text")),
            str(RULE_TITLES.get(finding["code"], finding["code"])), class_label(finding["device_class"]),
            Styled(text.message, "wrap"), Styled(text.fix, "wrap"),
        ])
    sheet.end_table()
    if review.error:
        sheet.append([Styled(_("The RoCE review could not be made: %(error)s") % {"error": review.error}, "warning")])
    if not review.settings:
        return None

    _section(sheet, _("PFC headroom per link class"))
    _header(sheet, [_("Switch"), _("Link class"), _("Speed (Gb/s)"), _("Links"), _("Longest cable (m)"),
                    _("Needed (KB)"), _("Configured (KB)"), _("XON (KB)"), _("Buffer profile")])
    for row in review.headroom:
        sheet.append([
            class_label(row["device_class"]), link_class_label(row["link_class"]), Styled(row["gbps"], "int"),
            Styled(row["links"], "int"), Styled(row["longest_m"], "metres"),
            Styled(-(-row["needed"] // 1024), "int"),
            Styled(-(-row["configured"] // 1024), "int" if row["ok"] else "warning"),
            Styled(-(-row["xon"] // 1024), "int"), row["profile"],
        ])

    _section(sheet, _("Settings in force"))
    _header(sheet, [_("Setting"), _("Value"), _("Changed")])
    changes = dict(flat_items("", roce_changes(review.roce_settings)))
    for key, value in flat_items("", review.settings):
        shown = value if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        style = "decimal" if isinstance(shown, float) else ("int" if isinstance(shown, int) else "text")
        changed = key in changes or any(k.startswith(f"{key}.") for k in changes)
        sheet.append([f"roce.{key}", Styled(shown, style), Styled(_("changed") if changed else "", "bold")])
    return None


def _traffic_report(version) -> tuple[TrafficReport | None, str]:
    analysis = traffic_analysis_default(version=version)
    if analysis is not None and analysis.report:
        return TrafficReport.from_dict(analysis.report), ""
    if version.gpus > GENERATION_TRAFFIC_MAX_GPUS:
        # Not analysed by generation (too large: hundreds of seconds and many GB), and an export must not run it:
        # say why, as the version's page does, instead of computing it here.
        return None, (analysis.error if analysis is not None and analysis.error else
                      traffic_deferred_text(GENERATION_TRAFFIC_MAX_GPUS))
    try:
        return analyze(version_plan(version=version)), ""
    except Exception as exc:  # an old version the engine cannot plan: say so in the sheet
        return None, str(exc) or type(exc).__name__


def traffic_sheet_write(ctx: WorkbookContext, sheet: Sheet) -> bool | None:
    if ctx.version.is_infiniband:
        not_applicable_sheet(sheet, traffic_not_applicable())
        return None
    ctx.progress(_("analysing traffic"), 3)
    report, error = _traffic_report(ctx.version)
    sheet.columns([
        Column(_("Collective"), 16), Column(_("Placement"), 22), Column(_("Headline"), 9),
        Column(_("Source ports"), 26), Column(_("Flows analysed"), 14, "int"),
        Column(_("Flows in the collective"), 16, "int"), Column(_("Sampled"), 9),
        Column(_("Worst / mean link"), 12, "ratio"), Column(_("p99 link load"), 12, "ratio"),
        Column(_("Max link load"), 12, "ratio"), Column(_("Mean link load"), 12, "ratio"),
        Column(_("Effective bandwidth (fraction of line rate)"), 16, "ratio"),
        Column(_("Mean flow bandwidth"), 14, "ratio"), Column(_("Flows on an over-subscribed link"), 16, "ratio"),
        Column(_("Flows sharing a link"), 16, "ratio"), Column(_("Fabric link directions used"), 14, "int"),
        Column(_("Bandwidth term (ms)"), 14, "decimal"), Column(_("Network steps"), 10, "int"),
        Column(_("Per-step latency (µs)"), 12, "decimal"), Column(_("Latency term (ms)"), 12, "decimal"),
        Column(_("Time (ms)"), 12, "decimal"),
    ])
    if report is None:
        sheet.end_table()
        sheet.append([Styled(_("No traffic analysis: %(error)s") % {"error": error}, "warning")])
        return None
    not_computed = Styled(_("not computed"), "note")
    for row in report.summary_rows():
        placement = placement_label(row["placement"]) if row["pattern"] == "all-reduce" else _("any (every pair)")
        collisions = (Styled(_("flows outnumber links"), "note") if row["flows_outnumber_links"]
                      else row["collision_share"])
        latency = ([row["latency_steps"], row["step_latency_us"], row["latency_ms"], row["total_ms"]]
                   if row["total_ms"] is not None else [not_computed] * 4)
        sheet.append([
            pattern_label(row["pattern"]), placement, _("yes") if row["headline"] else _("no"),
            strategy_label(row["strategy"]), row["flows"], row["flows_total"], _("yes") if row["sampled"] else _("no"),
            row["worst_over_mean"], row["p99_util"], row["max_util"], row["mean_util"], row["effective_bandwidth"],
            row["mean_flow_bandwidth"], row["oversubscribed_share"], collisions, row["links_used"],
            row["estimated_ms"], *latency,
        ])
    for p in report.patterns.values():
        if p.pattern == "all-reduce" and not p.other_placements and p.placement == "plan":
            sheet.append([pattern_label(p.pattern), placement_label("scheduler"), "", "", "", "", "", not_computed])
    sheet.end_table()

    _section(sheet, _("Per hop: simulated vs closed-form ECMP collisions"))
    _header(sheet, [_("Collective"), _("Placement"), _("Source ports"), _("Hop"), _("Link directions"), _("Used"),
                    _("Flows"), _("Mean load"), _("p99 load"), _("Max load"), _("Worst / mean"),
                    _("Collision share (simulated)"), _("Collision share (closed form)")])
    for row in report.hop_rows():
        expected = row["expected_collision_share"]
        outnumbered = Styled(_("flows outnumber links"), "note")
        sheet.append([
            pattern_label(row["pattern"]),
            placement_label(row["placement"]) if row["pattern"] == "all-reduce" else _("any (every pair)"),
            strategy_label(row["strategy"]), hop_label(row["hop"]),
            Styled(row["links"], "int"), Styled(row["used"], "int"), Styled(row["flows"], "int"),
            Styled(row["mean_util"], "ratio"), Styled(row["p99_util"], "ratio"), Styled(row["max_util"], "ratio"),
            Styled(row["worst_over_mean"], "ratio"),
            outnumbered if row["flows_outnumber_links"] else Styled(row["collision_share"], "ratio"),
            "" if row["flows_outnumber_links"] or expected is None else Styled(expected, "ratio"),
        ])

    _section(sheet, _("Collectives and sampling"))
    for p in report.patterns.values():
        sheet.append([pattern_label(p.pattern), Styled(pattern_description(p.description), "note")])
        for note in p.notes:
            sheet.append(["", Styled(traffic_note(note), "note")])
    sheet.append([_("Seed"), Styled(report.seed, "id")])
    seeds = [p.placement_seed for p in report.patterns.values() if p.placement_seed is not None]
    sheet.append([_("Scheduler placement seed"), Styled(seeds[0], "id") if seeds else not_computed])
    computed = any(r.latency_basis for p in report.patterns.values() for r in p.strategies.values())
    for label, value in ((_("Switch port-to-port latency (ns)"), report.switch_latency_ns),
                         (_("NIC latency (ns)"), report.nic_latency_ns)):
        if not computed:
            sheet.append([label, not_computed])
        else:
            sheet.append([label, Styled(value, "decimal") if value is not None else
                          Styled(_("not entered: NCCL's per-step figure used"), "note")])
    sheet.append([_("Max flows per collective"), Styled(report.max_flows, "int")])
    sheet.append([_("Line rate (Gb/s)"), Styled(report.line_gbps, "decimal")])

    _section(sheet, _("Assumptions"))
    for text in traffic_assumptions(report.assumptions):
        sheet.append([Styled(text, "note")])
    return None


def analysis_sheets_register() -> None:
    """Add the RoCE and Traffic sheets to the procurement workbook (called from AnalysisConfig.ready())."""
    workbook_sheet_register(ROCE_SHEET, roce_sheet_write, order=60)
    workbook_sheet_register(TRAFFIC_SHEET, traffic_sheet_write, order=70)
