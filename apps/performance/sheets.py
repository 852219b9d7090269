"""The "Performance" sheet of the workbook (registered with apps.designs.sheets, order 75).

The version's newest successful performance run: one row per collective (parallelism, network,
algorithm, routing, bytes, ranks, calls per step, time per call and per step, algbw, busbw), then
the step (communication, exposed, compute, step time, communication share), the failure
scenarios side by side, and the assumptions. A version without a successful run has no
Performance sheet (the writer returns False), so workbooks of versions never modelled are as before.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.sheets import SheetContext, workbook_sheet_register
from apps.designs.workbook import Column, Sheet, Styled

from .selectors import performance_run_latest
from .text import (ALGORITHM_LABELS, ASSUMPTIONS, FAILURE_LABELS, NETWORK_LABELS, ROUTING_LABELS, collective_label,
                   label, result_notes)

PERFORMANCE_SHEET = gettext_lazy("Performance")


def performance_sheet_write(ctx: SheetContext, sheet: Sheet) -> bool | None:
    run = performance_run_latest(version=ctx.version, succeeded=True)
    if run is None:
        return False  # no run of the model on this version: the workbook has no Performance sheet
    sheet.columns([
        Column(_("Collective"), 28), Column(_("Network"), 10), Column(_("Algorithm"), 12), Column(_("Routing"), 22),
        Column(_("Bytes per call"), 16, "int"), Column(_("Ranks"), 9, "int"), Column(_("Groups"), 9, "int"),
        Column(_("Calls per step"), 10, "int"), Column(_("Time per call (ms)"), 14, "decimal"),
        Column(_("Time per step (ms)"), 14, "decimal"), Column(_("algbw (Gb/s)"), 12, "decimal"),
        Column(_("busbw (Gb/s)"), 12, "decimal"),
    ])
    result = run.result
    for row in result["collectives"]:
        sheet.append([collective_label(row), label(NETWORK_LABELS, row["network"]),
                      label(ALGORITHM_LABELS, row["algorithm"]), label(ROUTING_LABELS, row["routing"]),
                      row["bytes"], row["ranks"], row["groups"], row["calls"], row["time_s"] * 1e3,
                      row["step_s"] * 1e3, row["algbw_gbps"], row["busbw_gbps"]])
    sheet.end_table()
    step = result.get("step")
    if step:
        sheet.append([])
        sheet.append([Styled(_("Training step"), "section")])
        for title, value in ((_("Communication (ms)"), step["comm_s"] * 1e3),
                             (_("Exposed communication (ms)"), step["exposed_s"] * 1e3),
                             (_("Compute (ms)"), None if step["compute_s"] is None else step["compute_s"] * 1e3),
                             (_("Step (ms)"), None if step["step_s"] is None else step["step_s"] * 1e3),
                             (_("Communication share"), step["comm_share"])):
            sheet.append([title, Styled(_("not computed"), "note") if value is None else value])
    scenarios = result.get("scenarios") or []
    if scenarios:
        sheet.append([])
        sheet.append([Styled(_("Failure scenarios"), "section")])
        for s in scenarios:
            value = (s["step"]["exposed_s"] if s.get("step") else s["collectives"][0]["time_s"]) * 1e3
            sheet.append([label(FAILURE_LABELS, s["failure"]), s["device"], value])
    sheet.append([])
    for note in result_notes(result):
        sheet.append([Styled(note, "note")])
    for text in ASSUMPTIONS:
        sheet.append([Styled(str(text), "note")])
    return None


def performance_sheet_register() -> None:
    workbook_sheet_register(PERFORMANCE_SHEET, performance_sheet_write, order=75)
