"""The design-space explorer: enumeration, the fast path against plan(), the frontier, the bar, the CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from apps.engine.cli import main
from apps.engine.explore import Bar, ExploreRequest, explore, quote
from apps.engine.explore.io import exploration_dict, request_from_dict
from apps.engine.explore.search import mark_pareto
from apps.engine.plan import _plan, plan
from apps.engine.report import report
from apps.engine.seedcatalog import seed_catalog
from apps.engine.spec import SpecError
from apps.engine.specio import spec_from_dict

ROOT = Path(__file__).resolve().parents[2]
DGX = "DGXH-G640F+P2EDI36"


def request(gpus: int = 1000, server: str = DGX, **extra) -> ExploreRequest:
    return request_from_dict({"gpus": gpus, "server": server, **extra})


@pytest.fixture(scope="module")
def thousand():
    return explore(request(1000))


def test_explorer_tries_every_switch_pairing_plane_and_tier(thousand):
    # 4 Ethernet switch modes at 400G: 4 leaves x 4 spines x (2 tiers + 3 tiers x 4 cores) x 4 plane counts.
    assert thousand.explored == 4 * 4 * (1 + 4) * 4
    assert thousand.bar_met and thousand.feasible == len(thousand.candidates)
    skus = {c.spec.leaf.sku for c in thousand.candidates} | {c.spec.spine_hw.sku for c in thousand.candidates}
    assert len(skus) >= 2
    assert any(c.spec.spine is not None for c in thousand.candidates)  # mixed tiers
    assert {c.sizing.tiers for c in thousand.candidates} == {2, 3}
    assert {c.sizing.planes for c in thousand.candidates} >= {1, 2, 4, 8}
    costs = [c.quote.total_cost for c in thousand.candidates]
    assert costs == sorted(costs)


def _same(q, full) -> None:
    assert q.total_cost == full.total_cost
    assert (q.power_typical_w, q.power_max_w, q.rack_units) == (full.power_typical_w, full.power_max_w,
                                                               full.rack_units)
    assert q.sizing.switches == full.switches and q.sizing.links_by_tier == full.links_by_tier
    assert (q.sizing.max_gpus, q.sizing.max_hops) == (full.max_gpus, full.max_hops)
    assert q.wiring.worst_pair_fraction == full.wiring.worst_pair_fraction
    assert q.wiring.as_stated == full.wiring.as_stated


def test_fast_path_equals_the_full_plan_on_a_sample(thousand):
    sample = thousand.candidates[::max(1, len(thousand.candidates) // 6)] + thousand.candidates[-1:]
    for c in sample:
        full = plan(c.spec)
        _same(quote(c.spec), full)
        _same(c.quote, full)


@pytest.mark.parametrize("gpus, server, extra", [
    # 1.5:1 leaves 13 links per leaf-spine pair on twin-port cages: cage groups chain across spines.
    (700, DGX, {"oversubscriptions": [1, 1.5, 3], "switches": ["DCS-7060DX5-64S", "920-9N42F-00RI-7C0"]}),
    (3000, "90SF02H1-M00030", {"switches": ["920-9N42F-00RI-7C0", "DCS-7060X6-64PE"]}),  # 800G, single-port cages
    (2000, DGX, {"fabric": "infiniband", "oversubscriptions": [1, 2]}),
])
def test_fast_path_equals_the_full_plan_on_every_candidate(gpus, server, extra):
    result = explore(request(gpus, server=server, blocking=True, **extra))
    assert result.candidates
    for c in result.candidates:
        full = _plan(c.spec, progress=None, address=False, even=not c.blocking)
        _same(c.quote, full)


def test_explorer_builds_no_link_table(monkeypatch):
    import apps.engine.topology as topology

    def refuse(*args, **kwargs):
        raise AssertionError("the explorer built a link table")

    monkeypatch.setattr(topology, "build_links", refuse)
    monkeypatch.setattr("apps.engine.plan.build_links", refuse)
    monkeypatch.setattr("apps.engine.plan.cable_links", refuse)
    result = explore(request(5000, blocking=True))
    assert result.candidates and result.feasible > 10


def test_blocking_candidates_only_when_asked_and_labelled():
    plain = explore(request(5000))
    assert not any(c.blocking for c in plain.candidates)
    asked = explore(request(5000, blocking=True))
    blocking = [c for c in asked.candidates if c.blocking]
    assert blocking and all(not c.pareto for c in blocking)
    for c in blocking:
        assert not c.quote.wiring.as_stated and c.quote.wiring.worst_pair_fraction < 1
        even = next(e for e in asked.candidates if not e.blocking and e.spec == c.spec)
        assert c.sizing.switches["spine"] < even.sizing.switches["spine"]
    assert "(blocking)" in exploration_dict(asked)["candidates"][
        [c.blocking for c in asked.candidates].index(True)]["label"]


def test_pareto_frontier_keeps_only_undominated_candidates(thousand):
    front = [c for c in thousand.candidates if c.pareto]
    assert front and thousand.candidates[0].pareto  # the cheapest is never dominated on cost
    for c in thousand.candidates:
        dominated = any(
            o.quote.total_cost <= c.quote.total_cost and o.sizing.max_gpus >= c.sizing.max_gpus
            and o.quote.power_typical_w <= c.quote.power_typical_w and o.sizing.max_hops <= c.sizing.max_hops
            and (o.quote.total_cost, -o.sizing.max_gpus, o.quote.power_typical_w, o.sizing.max_hops)
            != (c.quote.total_cost, -c.sizing.max_gpus, c.quote.power_typical_w, c.sizing.max_hops)
            for o in thousand.candidates)
        assert c.pareto == (not dominated)


def test_pareto_marks_nothing_blocking(thousand):
    cands = [replace(c) for c in thousand.candidates[:3]]
    cands[0].blocking = True
    mark_pareto(cands)
    assert not cands[0].pareto and cands[1].pareto


def test_bar_filters_candidates(thousand):
    cheapest_3_tier = min(c.quote.total_cost for c in thousand.candidates if c.sizing.tiers == 3)
    result = explore(replace(request(1000), bar=Bar(max_hops=3, min_growth_gpus=16_384)))
    assert result.bar_met and result.candidates
    assert all(c.sizing.max_hops <= 3 and c.sizing.max_gpus >= 16_384 for c in result.candidates)
    assert all(c.meets_bar for c in result.candidates)
    assert cheapest_3_tier > 0


def test_a_bar_nothing_meets_answers_with_the_nearest_and_what_each_misses():
    result = explore(replace(request(1000), bar=Bar(budget=1000.0, max_hops=3), nearest=3))
    assert not result.bar_met and len(result.candidates) == 3
    for c in result.candidates:
        bars = {m.bar for m in c.misses}
        assert "budget" in bars
        budget = next(m for m in c.misses if m.bar == "budget")
        assert budget.limit == 1000.0 and budget.value == c.quote.total_cost
    out = exploration_dict(result)
    assert out["bar_met"] is False and out["candidates"][0]["misses"][0]["bar"] == "budget"


def test_oversubscriptions_asked_for_are_explored():
    result = explore(request(1000, oversubscriptions=[1, "3:1"]))
    assert {c.oversubscription for c in result.candidates} == {1.0, 3.0}
    capped = explore(request(1000, oversubscriptions=[1, 3], bar={"max_oversubscription": "1:1"}))
    assert {c.oversubscription for c in capped.candidates} == {1.0}


def test_infiniband_explores_only_infiniband_switches():
    result = explore(request(1000, fabric="infiniband"))
    assert result.candidates
    assert {c.spec.leaf.fabric for c in result.candidates} == {"infiniband"}


@pytest.mark.parametrize("data, field", [
    ({"gpus": 0, "server": DGX}, "gpus"),
    ({"gpus": 1000, "server": DGX, "bar": {"max_hops": "x"}}, "bar.max_hops"),
    ({"gpus": 1000, "server": DGX, "bar": {"budget": -1}}, "bar.budget"),
    ({"gpus": 1000, "server": DGX, "bar": {"speed": 1}}, "bar.speed"),
    ({"gpus": 1000, "server": DGX, "switches": ["NOPE"]}, "switches[0]"),
    ({"gpus": 1000, "server": DGX, "oversubscriptions": [0.5]}, "oversubscriptions[0]"),
    ({"gpus": 1000, "server": DGX, "fabric": "token-ring"}, "fabric"),
    ({"gpus": 1000, "server": DGX, "blocking": "yes"}, "blocking"),
    ({"gpus": 1000, "server": "NOPE"}, "server.sku"),
])
def test_bad_requests_name_the_field(data, field):
    with pytest.raises(SpecError) as caught:
        request_from_dict(data)
    assert field in caught.value.errors


def test_cli_prints_candidates_whose_spec_plans_to_the_same_total(tmp_path, capsys):
    path = tmp_path / "explore.json"
    path.write_text(json.dumps({"gpus": 2000, "server": DGX, "switches": ["DCS-7060DX5-64S", "920-9N42F-00RI-7C0"],
                                "bar": {"max_hops": 5}}))
    assert main(["explore", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    candidates = out["candidates"]
    assert candidates and {"spec", "total_cost", "as_stated", "pareto"} <= set(candidates[0])
    assert any(c["pareto"] for c in candidates)
    for c in candidates[:: max(1, len(candidates) // 5)]:
        assert plan(spec_from_dict(c["spec"])).total_cost == c["total_cost"]


def test_cli_refuses_a_bad_request_with_field_lines(tmp_path):
    path = tmp_path / "explore.json"
    path.write_text(json.dumps({"gpus": 2000, "server": DGX, "bar": {"max_hops": 0}}))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "apps.engine", "explore", str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("bar.max_hops: ")


def test_catalog_switches_default_to_every_seed_switch():
    req = request(1000)
    modes = sum(len(m.breakouts) for m in seed_catalog().switches.values())
    assert len(req.switches) == modes


def test_split_nic_ports_explore_planes_in_multiples_of_the_split_at_the_part_speed():
    # GB300 NVL72 trays with ConnectX-8 split 2x400G (NVIDIA's two-plane B300 / GB300 SuperPOD): every
    # candidate puts each part on a plane of its own, and its spec plans to the same total.
    data = exploration_dict(explore(request_from_dict(
        {"gpus": 1152, "server": "ARS-121GL-NB3-LCC-R1", "nic_split": 2})))
    assert data["candidates"]
    for candidate in data["candidates"]:
        assert candidate["planes"] % 2 == 0
        assert candidate["spec"]["nic_split"] == 2
        planned = plan(spec_from_dict(candidate["spec"]))
        assert planned.spec.port_gbps == 400
        assert report_total(planned) == pytest.approx(candidate["total_cost"])


def report_total(planned) -> float:
    return report(planned)["total_cost"]


def test_rack_scale_candidates_plan_to_their_totals():
    data = exploration_dict(explore(request_from_dict(
        {"gpus": 1152, "server": "DGX-GB200-NVL72-TRAY", "fabric": "infiniband"})))
    assert data["candidates"]
    for candidate in data["candidates"]:
        assert report_total(plan(spec_from_dict(candidate["spec"]))) == pytest.approx(candidate["total_cost"])
