"""What the Performance page shows of a run: labelled rows and the charts' data (JSON for Chart.js)."""
from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from .models import PerformanceRun
from .text import (ALGORITHM_LABELS, ASSUMPTIONS, FAILURE_LABELS, NETWORK_LABELS, ROUTING_LABELS, binary_bytes,
                   collective_label, label, model_name, result_notes)

def _rates(row: dict[str, Any]) -> dict[str, Any]:
    """algbw and busbw in GB/s (nccl-tests' unit) beside Gb/s (the network's)."""
    return {"bytes_label": binary_bytes(row["bytes"]), "algbw_gbytes": row["algbw_gbps"] / 8,
            "busbw_gbytes": row["busbw_gbps"] / 8}


TIER_LABELS = {"server-leaf": _("server-leaf"), "leaf-spine": _("leaf-spine"), "spine-core": _("spine-core")}


def _rows(collectives: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**c, "label": collective_label(c), "network_label": label(NETWORK_LABELS, c["network"]),
             "algorithm_label": label(ALGORITHM_LABELS, c["algorithm"]),
             "routing_label": label(ROUTING_LABELS, c["routing"]), **_rates(c),
             "time_ms": c["time_s"] * 1e3, "step_ms": c["step_s"] * 1e3} for c in collectives]


def run_context(run: PerformanceRun) -> dict[str, Any]:
    version = run.version
    api = reverse("api-version-performance-detail", kwargs={"pk": version.pk, "run_pk": run.pk})
    ctx: dict[str, Any] = {"run_api_url": api, "job": run.job, "assumptions": [str(a) for a in ASSUMPTIONS]}
    result = run.result or {}
    if not result:
        return ctx
    rows = _rows(result["collectives"])
    step = result.get("step")
    scenarios = [{"label": str(FAILURE_LABELS[""]), "device": "", "step": step,
                  "time_ms": (step["exposed_s"] if step else result["collectives"][0]["time_s"]) * 1e3}]
    for s in result.get("scenarios", []):
        scenarios.append({"label": label(FAILURE_LABELS, s["failure"]), "device": s["device"], "step": s.get("step"),
                          "unroutable": s.get("unroutable", 0),
                          "time_ms": (s["step"]["exposed_s"] if s.get("step") else s["collectives"][0]["time_s"])
                          * 1e3})
    tiers = [{**t, "label": f"{label(TIER_LABELS, t['tier'])} {_('up') if t['direction'] == 'up' else _('down')}"}
             for t in result.get("links", {}).get("tiers", [])]
    labels_by_key = {r["key"]: r["label"] for r in rows}
    tables = {labels_by_key.get(key, key): [{**r, **_rates(r), "time_ms": r["time_s"] * 1e3,
                                             "algorithm_label": label(ALGORITHM_LABELS, r["algorithm"])}
                                            for r in value] for key, value in result.get("tables", {}).items()}
    alternatives = []
    for a in run.alternatives or []:
        if not a.get("feasible"):
            alternatives.append({**a, "label": _("%(planes)s planes, %(tiers)s tiers") % a})
            continue
        time_s = a["step"]["exposed_s"] if a.get("step") else a["collectives"][0]["time_s"]
        alternatives.append({**a, "label": _("%(planes)s planes, %(tiers)s tiers") % a, "time_ms": time_s * 1e3})
    chart = {
        "collectives": [{"label": r["label"], "step_ms": r["step_ms"], "network": r["network"]} for r in rows],
        "curves": [{"label": collective_label(next(c for c in result["collectives"] if c["key"] == key)),
                    "points": [{"x": r["bytes"], "y": r["busbw_gbps"] / 8} for r in table]}
                   for key, table in result.get("tables", {}).items()],
        "tiers": [{"label": t["label"], "max": 100 * t["max"], "mean": 100 * t["mean"], "p99": 100 * t["p99"]}
                  for t in tiers],
        "scenarios": [{"label": s["label"], "time_ms": s["time_ms"]} for s in scenarios],
        "labels": {"step_ms": _("Time per step (ms)"), "busbw": _("busbw (GB/s)"), "bytes": _("Message size (bytes)"),
                   "max": _("max"), "mean": _("mean"), "p99": _("p99"), "utilisation": _("Link utilisation (%) while the busiest collective runs"),
                   "exposed_ms": _("Exposed communication (ms)") if step else _("Time (ms)")},
    }
    ctx.update(result=result, rows=rows, step=step, scenarios=scenarios, tiers=tiers, tables=tables,
               top_links=result.get("links", {}).get("top", [])[:20], alternatives_rows=alternatives,
               notes=result_notes(result), chart_data=chart, workload=result.get("workload", {}),
               model_name=model_name(result.get("workload", {})),
               busiest=labels_by_key.get(result.get("links", {}).get("collective", ""), ""))
    return ctx
