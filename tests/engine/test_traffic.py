"""Traffic analysis: collectives routed over planned fabrics with random ECMP and hash-aware source ports."""
from __future__ import annotations

import json
import struct
import zlib

import numpy as np
import pytest

from apps.engine.plan import plan
from apps.engine.roce.host import QPS_PER_CONNECTION
from apps.engine.spec import CableAssembly, DesignSpec, FiberCord, Optic, ServerHw, SwitchHw
from apps.engine.traffic import Fabric, TrafficReport, analyze, balls_into_bins, collision_share, link_loads
from apps.engine.traffic.hashing import crc32_5tuple
from apps.engine.traffic.rings import CHANNELS_PER_NIC

OPTICS = (Optic("SR-400", "OSFP", 400, 400, 1, "SR", "MMF", 50),
          Optic("DR-400", "OSFP", 400, 400, 1, "DR", "SMF", 500))
CABLES = tuple(CableAssembly(f"DAC-400-{m}M", "DAC", "OSFP", "OSFP", 400, 400, 1, m) for m in (1, 2, 3))
FIBERS = (tuple(FiberCord(f"MMF-{m}M", "MMF", m) for m in (3, 5, 10, 20, 30, 50))
          + tuple(FiberCord(f"SMF-{m}M", "SMF", m) for m in (3, 5, 10, 20, 30, 50, 100, 200, 300, 500)))


def make_plan(gpus: int, *, ports: int = 64, **kwargs):
    return plan(DesignSpec(gpus=gpus, server=ServerHw(gpus=8, nic_ports=8, nic_gbps=400),
                           leaf=SwitchHw(ports=ports, gbps=400), optics=OPTICS, cables=CABLES, fibers=FIBERS,
                           **kwargs))


@pytest.fixture(scope="module")
def four_su():
    """1,024 GPUs on 64x400G: 2 tiers, 4 scale units of 32 servers, 16 spines with 2 links to every leaf."""
    return make_plan(1024)


@pytest.fixture(scope="module")
def gpus_5000():
    """5,000 GPUs on 64x400G: 3 tiers, 5 pods."""
    return make_plan(5000)


@pytest.fixture(scope="module")
def report_5000(gpus_5000):
    return analyze(gpus_5000)


def connected(fabric: Fabric, hops: np.ndarray) -> np.ndarray:
    """Per flow: every hop starts where the previous one ended (direction-aware)."""
    ok = np.ones(hops.shape[1], dtype=bool)
    prev_end = np.full(hops.shape[1], -1)
    for h in hops:
        present = h >= 0
        link, down = h // 2, h % 2 == 1
        start = np.where(down, fabric.b_dev[link], fabric.a_dev[link])
        end = np.where(down, fabric.a_dev[link], fabric.b_dev[link])
        ok &= ~present | (prev_end < 0) | (start == prev_end)
        prev_end = np.where(present, end, prev_end)
    return ok


# --- hashing and the closed form ------------------------------------------------------------

def test_five_tuple_hash_is_crc32_of_the_packet_fields():
    rng = np.random.default_rng(7)
    src, dst = rng.integers(0, 2**32, 50, dtype=np.uint32), rng.integers(0, 2**32, 50, dtype=np.uint32)
    sport = rng.integers(49152, 65536, 50, dtype=np.uint32)
    got = crc32_5tuple(src, dst, sport)
    for i in range(50):
        packed = struct.pack(">IIBHH", int(src[i]), int(dst[i]), 17, int(sport[i]), 4791)
        assert int(got[i]) == zlib.crc32(packed)


def test_closed_form_collision_share_matches_uniform_hashing():
    rng = np.random.default_rng(0)
    for n, k in ((8, 32), (32, 32), (64, 16)):
        bins = rng.integers(0, k, size=(4000, n))
        counts = np.apply_along_axis(np.bincount, 1, bins, minlength=k)
        shared = np.take_along_axis(counts, bins, axis=1) > 1
        assert shared.mean() == pytest.approx(1 - (1 - 1 / k) ** (n - 1), abs=0.01)
        assert counts.max(axis=1).mean() == pytest.approx(balls_into_bins(n, k).expected_max, rel=0.05)


def test_closed_form_edge_cases():
    assert collision_share(1, 32) == 0.0
    assert collision_share(5, 1) == 1.0
    assert balls_into_bins(1, 32).expected_max == 1.0
    assert balls_into_bins(320, 32).expected_max_over_mean > 1.0


def leaf_pair_flows(fabric: Fabric, servers_per_su: int, rails: int):
    """Every server of SU 0 sends one flow to the server at the same position in SU 1, on every rail:
    32 flows leave each SU-0 leaf over its 32 uplinks."""
    s = np.arange(servers_per_su)
    q = np.arange(rails)
    src = (s[:, None] * rails + q[None, :]).ravel()
    dst = ((s + servers_per_su)[:, None] * rails + q[None, :]).ravel()
    return src, dst


def test_random_ecmp_collides_on_leaf_uplinks_as_the_closed_form_predicts(four_su):
    fabric = Fabric(four_su)
    src, dst = leaf_pair_flows(fabric, four_su.su_servers, four_su.rails)
    n, k = four_su.su_servers, int(fabric.up1_count[fabric.nic_leaf[0]])
    assert (n, k) == (32, 32)
    shares, maxima = [], []
    for seed in range(40):
        routes = fabric.route(src, dst, strategy="ecmp", seed=seed)
        loads = link_loads(fabric, routes, 1.0)
        up = routes.hops[1]
        shares.append(float((loads.flows[up] > 1).mean()))
        per_leaf = loads.flows[up].reshape(n, -1)  # flows on each flow's uplink, by rail (= leaf)
        maxima.append(per_leaf.max(axis=0).mean())
    expected = 1 - (1 - 1 / k) ** (n - 1)
    assert expected == pytest.approx(0.6263, abs=1e-4)
    assert np.mean(shares) == pytest.approx(expected, abs=0.03)
    assert np.mean(maxima) == pytest.approx(balls_into_bins(n, k).expected_max, rel=0.1)


def test_hash_aware_gives_every_flow_of_a_leaf_its_own_uplink(four_su):
    fabric = Fabric(four_su)
    src, dst = leaf_pair_flows(fabric, four_su.su_servers, four_su.rails)
    routes = fabric.route(src, dst, strategy="hash-aware")
    loads = link_loads(fabric, routes, 1.0)
    assert loads.flows[routes.hops[1]].max() == 1
    assert loads.flows[routes.hops[4]].max() == 1  # and no two meet on a spine downlink


def test_report_states_the_closed_form_next_to_the_simulated_ecmp_collisions(gpus_5000):
    report = analyze(gpus_5000, pattern="all-reduce", qps_per_connection=4)
    ecmp = report.patterns["all-reduce"].other_placements["plan"]["ecmp"]
    up = next(h for h in ecmp.hops if h.hop == "leaf-spine up")
    # NCCL's 2 channels x 4 queue pairs leave each boundary leaf over 32 uplinks
    assert up.expected_collision_share == pytest.approx(1 - (31 / 32) ** 7, abs=1e-9)
    assert 0.0 <= up.collision_share <= 1.0
    assert all(h.expected_collision_share is None for h in report.patterns["all-reduce"].strategies["hash-aware"].hops)


# --- routing ----------------------------------------------------------------------------------

def test_every_flow_follows_a_connected_up_down_path(report_5000, gpus_5000):
    fabric = Fabric(gpus_5000)
    rng = np.random.default_rng(3)
    nics = len(fabric.nic_link)
    src = rng.integers(0, nics, 20_000)
    dst = (src + 8 * rng.integers(1, fabric.servers, 20_000)) % nics  # same rail, other server
    for strategy in ("ecmp", "hash-aware"):
        routes = fabric.route(src, dst, strategy=strategy, seed=1)
        assert routes.routed.all()
        assert connected(fabric, routes.hops).all()
        same_leaf = fabric.nic_leaf[src] == fabric.nic_leaf[dst]
        same_pod = fabric.component[fabric.nic_leaf[src]] == fabric.component[fabric.nic_leaf[dst]]
        assert (routes.hops[1:5, same_leaf] < 0).all()
        assert (routes.hops[2:4, same_pod] < 0).all()
        assert (routes.hops[1:5, ~same_pod] >= 0).all()


def test_partly_filled_last_pod_is_reached_only_through_cores_that_reach_it():
    # 33 scale units on 32-port switches: 17 pods, the last with one SU whose 8 spines reach
    # 128 of the 132 cores; the others must not be used towards it.
    p = make_plan(4224, ports=32, tiers=3)
    fabric = Fabric(p)
    assert not fabric.cores_reach_all
    report = analyze(p, pattern="all-to-all", max_flows=100_000)
    assert report.patterns["all-to-all"].unroutable == 0
    last_pod_leaf = fabric.nic_leaf[-1]
    to_last = np.flatnonzero(fabric.nic_leaf == last_pod_leaf)
    src = np.arange(0, 8 * 64, 8) % len(fabric.nic_link)
    dst = np.resize(to_last, len(src))
    for strategy in ("ecmp", "hash-aware"):
        routes = fabric.route(src, dst, strategy=strategy, seed=5)
        assert routes.routed.all() and connected(fabric, routes.hops).all()


def test_all_to_all_network_flows_stay_on_one_rail(four_su):
    fabric = Fabric(four_su)
    report = analyze(four_su, pattern="all-to-all", max_flows=20_000)
    assert report.patterns["all-to-all"].flows > 0
    rails = four_su.links.rail
    t0 = fabric.nic_link
    assert (rails[t0] == np.tile(np.arange(8), fabric.servers)).all()


# --- patterns and results ------------------------------------------------------------------

def test_ring_all_reduce_in_one_scale_unit_never_leaves_the_leaf():
    p = make_plan(256)
    assert p.scale_units == 1
    report = analyze(p, pattern="all-reduce")
    pattern = report.patterns["all-reduce"]
    assert report.qps_per_connection == QPS_PER_CONNECTION  # the design's own NCCL setting
    assert pattern.flows == 32 * 8 * CHANNELS_PER_NIC * QPS_PER_CONNECTION
    for result in pattern.strategies.values():
        assert result.links_used == 0
        assert all(h.flows == 0 for h in result.hops if h.tier >= 1)
        assert result.effective_bandwidth == 1.0


def test_ring_all_reduce_in_plan_order_crosses_spines_only_at_scale_unit_boundaries(four_su):
    pattern = analyze(four_su, pattern="all-reduce", qps_per_connection=1).patterns["all-reduce"]
    for result in pattern.other_placements["plan"].values():
        assert result.placement == "plan"
        up = next(h for h in result.hops if h.hop == "leaf-spine up")
        # one ring hop per SU boundary and rail, on each of NCCL's channels
        assert up.flows == four_su.scale_units * four_su.rails * CHANNELS_PER_NIC
        assert result.effective_bandwidth == 1.0


def test_all_to_all_is_complete_below_the_flow_limit():
    p = make_plan(512)
    pattern = analyze(p, pattern="all-to-all", max_flows=1_000_000, qps_per_connection=1).patterns["all-to-all"]
    servers = 64
    assert not pattern.sampled and pattern.sample_method == ""
    assert pattern.flows == pattern.flows_total == servers * (servers - 1) * 8 * 8
    assert pattern.flow_gbps == pytest.approx(400 / ((servers - 1) * 8))


def test_all_to_all_is_sampled_above_the_flow_limit_and_says_so(four_su):
    pattern = analyze(four_su, pattern="all-to-all", max_flows=10_000, qps_per_connection=1).patterns["all-to-all"]
    assert pattern.sampled
    assert pattern.flows <= 10_000 < pattern.flows_total
    assert "pairwise-exchange steps" in pattern.sample_method
    assert any(note.startswith("Sampled") for note in pattern.notes)


def test_hash_aware_is_perfectly_even_on_a_non_blocking_fabric_in_plan_order():
    p = make_plan(512)
    report = analyze(p, max_flows=1_000_000)
    for name, pattern in report.patterns.items():
        aware = dict(pattern.runs())["plan"]["hash-aware"]
        assert aware.worst_over_mean == pytest.approx(1.0), name
        assert aware.effective_bandwidth == 1.0 and aware.oversubscribed_share == 0.0


def test_hash_aware_beats_random_ecmp_on_all_to_all(report_5000):
    pattern = report_5000.patterns["all-to-all"]
    ecmp, aware = pattern.strategies["ecmp"], pattern.strategies["hash-aware"]
    assert aware.worst_over_mean < ecmp.worst_over_mean
    assert aware.max_util < ecmp.max_util
    assert aware.effective_bandwidth >= ecmp.effective_bandwidth
    assert aware.oversubscribed_share <= ecmp.oversubscribed_share
    assert aware.mean_util == pytest.approx(ecmp.mean_util)  # same traffic, spread differently


def test_oversubscribed_leaves_cap_all_to_all_bandwidth():
    p = make_plan(1024, oversubscription=3.0)
    pattern = analyze(p, pattern="all-to-all", max_flows=200_000).patterns["all-to-all"]
    for result in pattern.strategies.values():
        assert result.effective_bandwidth < 0.7  # 3:1 leaves, about 60 % of the traffic leaves its leaf
        assert result.oversubscribed_share > 0.5


def test_5000_gpu_analysis_covers_both_collectives_and_strategies(report_5000):
    assert set(report_5000.patterns) == {"all-reduce", "all-to-all"}
    assert report_5000.gpus == 5000 and report_5000.tiers == 3 and report_5000.servers == 625
    assert report_5000.seconds > 0
    a2a = report_5000.patterns["all-to-all"]
    assert a2a.sampled and a2a.flows <= report_5000.max_flows
    for pattern in report_5000.patterns.values():
        assert set(pattern.strategies) == {"ecmp", "hash-aware"}
        assert pattern.unroutable == 0
        for result in pattern.strategies.values():
            assert sum(result.histogram) == result.links_used
            assert len(pattern.bin_edges) == len(result.histogram) + 1
            assert [h.hop for h in result.hops] == ["server-leaf up", "leaf-spine up", "spine-core up",
                                                    "spine-core down", "leaf-spine down", "server-leaf down"]
            assert 0 < result.effective_bandwidth <= 1 and result.estimated_ms > 0


def test_report_round_trips_through_json(report_5000):
    data = json.loads(json.dumps(report_5000.to_dict()))
    assert TrafficReport.from_dict(data) == report_5000


def test_analysis_is_deterministic_for_a_seed(four_su):
    first = analyze(four_su, pattern="all-to-all", max_flows=20_000, seed=11)
    again = analyze(four_su, pattern="all-to-all", max_flows=20_000, seed=11)
    other = analyze(four_su, pattern="all-to-all", max_flows=20_000, seed=12)
    strip = lambda r: {**r.to_dict(), "seconds": 0}  # noqa: E731
    assert strip(first) == strip(again)
    assert strip(first) != strip(other)


@pytest.mark.parametrize("kwargs", [{"pattern": "broadcast"}, {"max_flows": 10}, {"message_bytes": 0},
                                    {"qps_per_connection": 0}])
def test_analyze_rejects_bad_arguments(four_su, kwargs):
    with pytest.raises(ValueError):
        analyze(four_su, **kwargs)


def test_hash_aware_is_not_worse_than_ecmp_on_a_multi_plane_three_tier_fabric():
    p = make_plan(5000, planes=2)
    assert p.tiers == 3 and p.planes == 2
    report = analyze(p, max_flows=200_000)
    for pattern in report.patterns.values():
        ecmp, aware = pattern.strategies["ecmp"], pattern.strategies["hash-aware"]
        assert aware.effective_bandwidth >= ecmp.effective_bandwidth
        assert aware.worst_over_mean <= ecmp.worst_over_mean


def test_report_flattens_into_sheet_rows(report_5000):
    rows = report_5000.summary_rows()
    assert [(r["pattern"], r["placement"], r["strategy"]) for r in rows] == [
        ("all-reduce", "scheduler", "ecmp"), ("all-reduce", "scheduler", "hash-aware"), ("all-reduce", "plan", "ecmp"),
        ("all-reduce", "plan", "hash-aware"), ("all-to-all", "plan", "ecmp"), ("all-to-all", "plan", "hash-aware")]
    assert rows[4]["effective_bandwidth"] == report_5000.patterns["all-to-all"].strategies["ecmp"].effective_bandwidth
    hops = report_5000.hop_rows()
    assert len(hops) == 6 * 6
    assert {"pattern", "placement", "strategy", "hop", "max_util", "collision_share"} <= set(hops[0])


# --- an honest summary: placement, collision share, latency ----------------------------------

def test_ring_headline_is_a_seeded_scheduler_placement_beside_plan_order(four_su):
    report = analyze(four_su, pattern="all-reduce", seed=7, qps_per_connection=1)
    pattern = report.patterns["all-reduce"]
    assert pattern.placement == "scheduler" and pattern.placement_seed == 7
    assert set(pattern.other_placements) == {"plan"}
    assert [placement for placement, _ in pattern.runs()] == ["scheduler", "plan"]
    plan_up = next(h for h in pattern.other_placements["plan"]["ecmp"].hops if h.hop == "leaf-spine up")
    sched_up = next(h for h in pattern.strategies["ecmp"].hops if h.hop == "leaf-spine up")
    # same job (every server once, same flows), but most ring neighbours now sit on other leaves
    assert pattern.flows == four_su.gpus // 8 * 8 * CHANNELS_PER_NIC
    assert plan_up.flows == four_su.scale_units * four_su.rails * CHANNELS_PER_NIC
    assert sched_up.flows > 10 * plan_up.flows
    # ECMP risk shows: random hashing of a permutation collides where plan order never did
    assert pattern.strategies["ecmp"].effective_bandwidth < 1.0
    assert pattern.other_placements["plan"]["ecmp"].effective_bandwidth == 1.0
    rows = report.summary_rows()
    assert [(r["placement"], r["headline"], r["strategy"]) for r in rows] == [
        ("scheduler", True, "ecmp"), ("scheduler", True, "hash-aware"), ("plan", False, "ecmp"),
        ("plan", False, "hash-aware")]


def test_scheduler_placement_follows_the_seed(four_su):
    strip = lambda r: r.patterns["all-reduce"].strategies["ecmp"].hops  # noqa: E731
    first = analyze(four_su, pattern="all-reduce", seed=3)
    assert strip(first) == strip(analyze(four_su, pattern="all-reduce", seed=3))
    assert strip(first) != strip(analyze(four_su, pattern="all-reduce", seed=4))


def test_collision_share_is_withheld_where_flows_outnumber_links(report_5000):
    rows = {(r["pattern"], r["placement"], r["strategy"]): r for r in report_5000.summary_rows()}
    a2a = rows[("all-to-all", "plan", "ecmp")]
    result = report_5000.patterns["all-to-all"].strategies["ecmp"]
    assert result.collision_share > 0.85 and result.flows_outnumber_links  # near 1.0 by pigeonhole: says nothing
    assert a2a["flows_outnumber_links"] and a2a["collision_share"] is None
    # what the summary leads with instead
    assert list(a2a)[list(a2a).index("sampled") + 1:][:3] == ["worst_over_mean", "p99_util", "max_util"]
    assert a2a["worst_over_mean"] > 1.0 and 0 < a2a["p99_util"] <= a2a["max_util"]
    ring = rows[("all-reduce", "plan", "ecmp")]
    assert not ring["flows_outnumber_links"] and ring["collision_share"] < 0.05  # few boundary hops rarely meet
    hops = [h for h in report_5000.hop_rows() if h["pattern"] == "all-to-all" and h["hop"] == "leaf-spine up"]
    assert all(h["flows_outnumber_links"] and h["collision_share"] is None for h in hops)


def test_time_adds_the_ring_latency_term_from_hops_and_nics(four_su):
    report = analyze(four_su, pattern="all-reduce", switch_latency_ns=600, nic_latency_ns=1000)
    servers = four_su.gpus // 8
    for placement, strategies in report.patterns["all-reduce"].runs():
        for r in strategies.values():
            assert r.latency_steps == 2 * (servers - 1)
            assert r.latency_basis == "hops" and r.step_switches == 3  # the ring's longest step goes through a spine
            assert r.step_latency_us == pytest.approx((2 * 1000 + 3 * 600 + 5 * r.step_metres) / 1e3)
            # NCCL's sum: base + NVLink steps + network steps at the path's step (engine.nccl, as the performance model)
            nvlink = 2 * (four_su.gpus - 1) - r.latency_steps
            assert r.latency_ms == pytest.approx((8.4 + nvlink * 3.4 + r.latency_steps * r.step_latency_us) / 1e3)
            assert r.total_ms == pytest.approx(r.estimated_ms + r.latency_ms)
    assert report.switch_latency_ns == 600 and report.nic_latency_ns == 1000
    assert any(n.startswith("Per-step latency = 2 x 1000 ns") for n in report.patterns["all-reduce"].notes)


def test_without_latencies_a_step_costs_what_nccl_charges_and_the_report_says_nccl_may_not_ring(gpus_5000):
    pattern = analyze(gpus_5000, pattern="all-reduce").patterns["all-reduce"]
    ecmp = pattern.strategies["ecmp"]
    # NCCL 2.30.7 src/graph/tuning.cc: Ring Simple, base 8.4 us, NVLink step 3.4 us, network step 14 us
    assert ecmp.latency_basis == "nccl-model" and ecmp.step_latency_us == 14.0
    assert ecmp.latency_ms == pytest.approx((8.4 + (2 * 4999 - 2 * 624) * 3.4 + 2 * 624 * 14.0) / 1e3)
    nccl = [n for n in pattern.notes if "NCCL" in n and "ring's latency term" in n]
    assert len(nccl) == 1 and "Tree" in nccl[0] and "NVLS" in nccl[0]


def test_reports_stored_before_placements_and_latency_still_load(report_5000):
    data = json.loads(json.dumps(report_5000.to_dict()))
    data.pop("switch_latency_ns"), data.pop("nic_latency_ns")
    for p in data["patterns"].values():
        for key in ("placement", "placement_seed", "other_placements"):
            p.pop(key)
        for r in p["strategies"].values():
            for key in ("placement", "latency_steps", "step_latency_us", "step_switches", "step_metres",
                        "latency_basis", "latency_ms", "total_ms"):
                r.pop(key)
    old = TrafficReport.from_dict(data)
    rows = old.summary_rows()
    assert {r["placement"] for r in rows} == {"plan"} and all(r["total_ms"] is None for r in rows)
    assert old.patterns["all-reduce"].placement_seed is None


@pytest.mark.parametrize("kwargs", [{"switch_latency_ns": -1}, {"nic_latency_ns": 1e9}])
def test_analyze_rejects_bad_latencies(four_su, kwargs):
    with pytest.raises(ValueError):
        analyze(four_su, pattern="all-reduce", **kwargs)


@pytest.mark.parametrize("pattern", ["all-reduce", "all-to-all"])
def test_traffic_analysis_and_performance_model_charge_the_same_latency(four_su, pattern):
    """One story: the traffic analysis' latency term is the performance model's latency of the same collective
    (a Ring with the Simple protocol, NCCL_ALGO=Ring; grouped point-to-point for All-to-All)."""
    from apps.engine.simulation import simulate
    analysed = analyze(four_su, pattern=pattern).patterns[pattern].strategies["ecmp"]
    work = {"collective": pattern, "bytes": 1 << 30, "ranks": "all", "routing": "ecmp"}
    if pattern == "all-reduce":
        work["algorithm"] = "ring"
    modelled = simulate(four_su, work).collectives[0]
    assert modelled.protocol == "simple"
    assert analysed.latency_ms == pytest.approx(modelled.latency_s * 1e3)
