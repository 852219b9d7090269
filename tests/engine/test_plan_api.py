"""plan(), size(), alternatives() and the report as the web app and the CLI use them."""
from __future__ import annotations

import json

from apps.engine.plan import alternatives, plan
from apps.engine.report import report as plan_report

from .builders import spec, switch


def test_progress_reports_each_stage_in_order_ending_at_100():
    calls = []
    plan(spec(1_000, leaf=switch(64)), progress=lambda stage, pct: calls.append((stage, pct)))
    stages = [stage for stage, _ in calls]
    assert [s for i, s in enumerate(stages) if s not in stages[:i]] == ["topology", "cabling", "bom", "addressing"]
    percents = [pct for _, pct in calls]
    assert percents == sorted(percents) and percents[0] == 0 and percents[-1] == 100


def test_alternatives_compare_structures_and_mark_the_cheapest_and_current():
    alts = alternatives(spec(5_000, leaf=switch(64)))
    by_label = {a.label: a for a in alts}
    assert not by_label["2 tiers"].feasible and by_label["2 tiers"].reason.startswith("tiers:")
    assert by_label["3 tiers"].feasible and by_label["3 tiers"].current
    assert by_label["8 planes, 2 tiers"].feasible
    assert by_label["8 planes, 2 tiers"].sizing.switches == {"leaf": 160, "spine": 128, "core": 0}
    feasible = [a for a in alts if a.feasible]
    assert sum(a.cheapest for a in alts) == 1
    assert next(a for a in alts if a.cheapest).total_cost == min(a.total_cost for a in feasible)
    # 8 planes need fewer spines (128 against 160) and no cores: cheaper than 3 tiers
    assert by_label["8 planes, 2 tiers"].total_cost < by_label["3 tiers"].total_cost


def test_report_is_plain_json_with_the_documented_keys():
    p = plan(spec(5_000, leaf=switch(128)))
    report = json.loads(json.dumps(plan_report(p, alternatives=alternatives(p.spec))))
    for key in ("tiers", "planes", "servers", "switches", "links", "max_gpus", "max_hops", "bom", "total_cost",
                "power_w", "oversubscription", "bisection_gbps", "free_ports", "scale_units", "pods", "media",
                "pools", "alternatives", "currency", "rack_units"):
        assert key in report
    assert sum(m["links"] for m in report["media"]) == report["total_links"] == 10_120
    assert not any("1 or 2 links" in w for w in report["warnings"])  # every leaf meets every spine evenly
    assert report["wiring"] == {
        "worst_pair_fraction": 1.0, "as_stated": True, "stated_fraction": 1.0, "worst_pair_links": 64,
        "leaf_uplinks": 64, "leaf_downlinks": 64, "worst_pair": ["p0-su00-leaf-r0", "p0-su00-leaf-r1"],
        "leaf_pairs": 80 * 79 // 2, "worst_pod_pair_fraction": 1.0, "worst_pod_pair_links": 0,
        "pod_pair_uplinks": 0, "worst_pod_pair": None, "spread": {"leaf-spine": [1, 1]},
    }
