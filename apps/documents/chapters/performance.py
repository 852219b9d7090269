"""Traffic and performance analysis: the stored ECMP traffic report and the latest training-job model run.

The traffic report is the one the design page shows by default (apps.analysis.selectors); the
performance run is the version's latest succeeded one (apps.performance). Charts are the page's
pictures redrawn as SVG: effective bandwidth per strategy and collective, the link-load histogram
of the headline placement, and the time per step under each failure scenario.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.analysis.panels import traffic_chart_data, traffic_pattern_rows
from apps.analysis.text import traffic_assumptions
from apps.designs.fabric_text import traffic_not_applicable

from ..charts import columns_svg, horizontal_bars_svg
from ..formatting import count, decimal
from ..model import Bullets, Chapter, Figure, Heading, Paragraph, Table
from ..source import DocumentSource

KEY = "performance"
TITLE = gettext_lazy("Traffic and performance analysis")


def _percent(value) -> str:
    return "–" if value is None else f"{100 * float(value):.1f} %"


def traffic_blocks(source: DocumentSource) -> list:
    blocks: list = [Heading(_("Traffic analysis (ECMP and alternatives)"))]
    if source.version.is_infiniband:
        return blocks + [Paragraph(traffic_not_applicable())]
    analysis = source.traffic_analysis
    if analysis is None or not analysis.report:
        return blocks + [Paragraph(_("No traffic analysis is stored for this version."))]
    patterns = traffic_pattern_rows(analysis)
    rows = []
    for pattern in patterns:
        for strategy in pattern["strategies"]:
            rows.append([str(pattern["label"]), str(strategy["label"]), _percent(strategy.get("effective_bandwidth")),
                         decimal(strategy.get("worst_over_mean"), 2), _percent(strategy.get("max_util")),
                         decimal(strategy.get("total_ms"), 2) if strategy.get("total_ms") is not None else "–"])
    blocks.append(Table(headers=[_("Collective"), _("Strategy"), _("Effective bandwidth"), _("Worst link / mean"),
                                 _("Busiest link"), _("Time (ms)")], rows=rows, numeric=(2, 3, 4, 5)))
    chart = traffic_chart_data(analysis)
    names = [str(p["label"]) for p in chart["patterns"]]
    strategies = []
    for pattern in chart["patterns"]:
        for strategy in pattern["strategies"]:
            if strategy["label"] not in strategies:
                strategies.append(strategy["label"])
    series = []
    for label in strategies:
        values = []
        for pattern in chart["patterns"]:
            found = next((s for s in pattern["strategies"] if s["label"] == label), None)
            values.append(100 * float(found["effective_bandwidth"] or 0) if found else 0.0)
        series.append((str(label), values))
    if names and series:
        blocks.append(Figure(svg=columns_svg(title=str(chart["labels"]["effective"]), labels=names, series=series,
                                             y_label="%"),
                             caption=_("Effective bandwidth of each collective per load-balancing strategy.")))
    for pattern in chart["patterns"][:2]:
        series = [(str(s["label"]), [float(v) for v in s["histogram"]]) for s in pattern["strategies"]]
        if any(any(values) for _name, values in series):
            blocks.append(Figure(svg=columns_svg(
                title=_("%(collective)s: link load") % {"collective": pattern["label"]}, labels=pattern["bins"],
                series=series, y_label=str(chart["labels"]["links"])),
                caption=str(chart["labels"]["utilisation"])))
    notes = [note for pattern in patterns for note in pattern["notes"]]
    if notes:
        blocks.append(Bullets(notes))
    blocks.append(Paragraph(_("Ring All-Reduce above uses the same rings, NCCL channels and queue pairs, the same "
                              "max-min timing and the same NCCL latency as the training-job model below: a ring's "
                              "effective bandwidth here is the share of line rate its data-parallel collectives reach "
                              "there, under the same placement and routing, and its latency term is the one the model "
                              "charges a Ring with the Simple protocol (NCCL_ALGO=Ring).")))
    assumptions = traffic_assumptions(analysis.report.get("assumptions") or [])
    if assumptions:
        blocks.append(Paragraph(_("Assumptions"), style="lead"))
        blocks.append(Bullets(assumptions))
    return blocks


def performance_blocks(source: DocumentSource) -> list:
    from apps.performance.presentation import run_context
    from apps.performance.text import ROUTING_LABELS, label

    blocks: list = [Heading(_("Training-job model"))]
    run = source.performance_run
    if run is None or not run.result:
        return blocks + [Paragraph(_("No training-job model has been run on this version yet (Performance page)."))]
    context = run_context(run)
    rows = context.get("rows") or []
    step = context.get("step")
    workload = context.get("workload") or {}
    if step and step.get("step_s") is not None:
        blocks.append(Paragraph(_(
            "%(model)s on %(gpus)s GPUs (%(routing)s): a step of %(step)s s, of which compute %(compute)s s, exposed "
            "communication %(exposed)s s and pipeline bubble %(bubble)s s; achieved MFU %(mfu)s.") % {
            "model": context.get("model_name", ""), "gpus": count(workload.get("gpus") or 0),
            "routing": label(ROUTING_LABELS, workload.get("routing", "")),
            "step": decimal(step["step_s"], 2), "compute": decimal(step["compute_s"], 2),
            "exposed": decimal(step["exposed_s"], 2), "bubble": decimal(step.get("bubble_s") or 0.0, 2),
            "mfu": _percent(step.get("mfu"))}))
    blocks.extend(_parallelism_blocks(workload))
    blocks.append(Table(headers=[_("Collective"), _("Network"), _("Algorithm"), _("Size per call"),
                                 _("busbw (GB/s)"), _("Time per step (ms)")],
                        rows=[[str(r["label"]), str(r["network_label"]), str(r["algorithm_label"]),
                               str(r["bytes_label"]), decimal(r["busbw_gbytes"], 1), decimal(r["step_ms"], 2)]
                              for r in rows], numeric=(4, 5)))
    scenarios = context.get("scenarios") or []
    if scenarios:
        blocks.append(Figure(svg=horizontal_bars_svg(
            title=str(context["chart_data"]["labels"]["exposed_ms"]),
            labels=[str(s["label"]) + (f" ({s['device']})" if s.get("device") else "") for s in scenarios],
            values=[float(s["time_ms"]) for s in scenarios], unit="ms", highlight=0),
            caption=_("Time per training step without failures and under each failure scenario.")))
    notes = [str(note) for note in context.get("notes") or []]
    if notes:
        blocks.append(Bullets(notes))
    blocks.append(Paragraph(_("Run of %(when)s, %(collectives)s collectives.") % {
        "when": run.created_at.date().isoformat(), "collectives": count(len(rows))}, style="note"))
    return blocks


def build(source: DocumentSource) -> Chapter:
    return Chapter(key=KEY, title=str(TITLE), blocks=traffic_blocks(source) + performance_blocks(source))


SCHEDULES = {"1f1b": gettext_lazy("1F1B"), "interleaved": gettext_lazy("Interleaved 1F1B"),
             "dualpipe": gettext_lazy("DualPipe (DeepSeek-V3)")}


def _parallelism_blocks(workload: dict) -> list:
    """How the job is split and scheduled, and how expert tokens cross the fabric: the inputs that move the step."""
    if not workload.get("tp"):
        return []
    schedule = workload.get("pp_schedule") or "1f1b"
    schedule_text = str(SCHEDULES.get(schedule, schedule))
    if schedule == "interleaved" and workload.get("virtual_stages"):
        schedule_text = _("%(schedule)s, %(chunks)s model chunks per GPU") % {
            "schedule": schedule_text, "chunks": count(workload["virtual_stages"])}
    text = _("Parallelism: TP %(tp)s, PP %(pp)s, DP %(dp)s, EP %(ep)s; pipeline schedule: %(schedule)s.") % {
        "tp": count(workload["tp"]), "pp": count(workload.get("pp") or 1), "dp": count(workload.get("dp") or 1),
        "ep": count(workload.get("ep") or 1), "schedule": schedule_text}
    if (workload.get("ep") or 1) > 1:
        limit = workload.get("ep_node_limit")
        if limit:
            text += " " + _("Expert routing: each token reaches at most %(nodes)s nodes over the fabric, and NVLink "
                            "forwards it to its experts inside each node.") % {"nodes": count(limit)}
        else:
            text += " " + _("Expert routing: no node limit, every routed expert gets its own copy over the fabric.")
    return [Paragraph(text)]
