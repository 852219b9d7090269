"""The training-job performance model: closed forms it must reproduce, and its input checks."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from apps.engine.plan import plan
from apps.engine.simulation import FabricModel, scale_up_domain, simulate
from apps.engine.nccl import latency_s
from apps.engine.spec import SpecError
from tests.engine.builders import server, switch
from tests.engine.builders import spec as make_spec

NIC_GBPS = 400


def _spec(gpus=512, *, ports=64, oversubscription=1.0, planes=1, tiers="auto"):
    return make_spec(gpus, server=server(), leaf=switch(ports), oversubscription=oversubscription, planes=planes,
                     tiers=tiers)


@pytest.fixture(scope="module")
def fabric_512():
    return plan(_spec(512))


def test_ring_all_reduce_with_spraying_reaches_the_server_nic_bandwidth_minus_latency(fabric_512):
    size = 1 << 34
    r = simulate(fabric_512, {"collective": "all-reduce", "bytes": size, "ranks": "all", "routing": "spray",
                              "algorithm": "ring"})
    c = r.collectives[0]
    n, servers = 512, 64
    bandwidth_term = 2 * (n - 1) / n * size * 8 / (8 * NIC_GBPS * 1e9)
    latency = latency_s("all-reduce", "ring", ranks=n, servers=servers)
    assert c.bandwidth_s == pytest.approx(bandwidth_term, rel=1e-6)
    assert c.busbw_gbps == pytest.approx(8 * NIC_GBPS * bandwidth_term / (bandwidth_term + latency), rel=1e-6)
    assert c.busbw_gbps < 8 * NIC_GBPS


def test_routing_modes_are_ordered_ecmp_hash_aware_spray(fabric_512):
    times = {}
    for routing in ("ecmp", "hash-aware", "spray"):
        r = simulate(fabric_512, {"collective": "all-to-all", "bytes": 1 << 30, "ranks": "all", "routing": routing,
                                  "placement": "scheduler"})
        times[routing] = r.collectives[0].time_s
    assert times["ecmp"] >= times["hash-aware"] * (1 - 1e-6)
    assert times["hash-aware"] >= times["spray"] * (1 - 1e-6)
    pp = simulate(fabric_512, {"model": "llama3-70b", "routing": "ecmp", "placement": "scheduler"})
    pp_spray = simulate(fabric_512, {"model": "llama3-70b", "routing": "spray", "placement": "scheduler"})
    assert pp.step.exposed_s >= pp_spray.step.exposed_s


def test_all_to_all_on_3_to_1_leaves_slows_by_the_cross_leaf_share():
    size = 1 << 30
    work = {"collective": "all-to-all", "bytes": size, "ranks": "all", "routing": "spray"}
    flat = simulate(plan(_spec(1024)), work).collectives[0]
    over = plan(_spec(1024, oversubscription=3.0))
    slow = simulate(over, work).collectives[0]
    servers, per_leaf = over.servers, over.su_servers
    cross = (servers - per_leaf) / (servers - 1)  # share of a NIC's destinations on other leaves
    assert slow.bandwidth_s / flat.bandwidth_s == pytest.approx(3 * cross, rel=0.02)


def test_a_failed_spine_costs_one_nth_of_cross_leaf_capacity(fabric_512):
    healthy = FabricModel(fabric_512)
    failed = FabricModel(fabric_512, "spine")
    f = healthy.fabric
    # every NIC sends to the NIC of the same rail half the cluster away: all traffic crosses leaves
    servers, ports = f.servers, f.nic_ports
    src = np.arange(servers * ports)
    dst = ((src // ports + servers // 2) % servers) * ports + src % ports
    size = np.full(len(src), 1e9)
    t0 = healthy.phase(src, dst, size, routing="spray").seconds
    t1 = failed.phase(src, dst, size, routing="spray").seconds
    leaf = f.nic_leaf[0]
    uplinks = f.up1_links[f.up1_start[leaf]:f.up1_start[leaf] + f.up1_count[leaf]]
    n = len(np.unique(f.b_dev[uplinks]))  # the spines of the leaf's plane, each with as many links
    assert n > 1
    assert t0 / t1 == pytest.approx((n - 1) / n, rel=0.02)


def test_failures_name_the_device_and_route_everything(fabric_512):
    r = simulate(fabric_512, {"model": "llama3-8b", "failures": ["link", "leaf", "spine"]})
    assert [s.failure for s in r.scenarios] == ["link", "leaf", "spine"]
    assert all(s.device for s in r.scenarios)
    assert all(s.unroutable == 0 for s in r.scenarios)
    leaf = r.scenarios[1]
    assert leaf.step.exposed_s >= r.step.exposed_s * (1 - 1e-9)


def test_training_step_reports_collectives_and_exposed_time(fabric_512):
    r = simulate(fabric_512, {"model": "deepseek-v3", "tp": 1, "pp": 8, "ep": 64, "gpu_tflops": 989,
                              "global_batch": 512, "ep_node_limit": 0})
    keys = [c.key for c in r.collectives]
    assert keys == ["ep-dispatch", "ep-combine", "pp-send-recv", "dp-reduce-scatter", "dp-all-gather"]
    step = r.step
    assert step.compute_s > 0 and step.step_s == pytest.approx(step.compute_s + step.exposed_s + step.bubble_s)
    # 1F1B with PP 8 and 512 / (DP 64) = 8 micro-batches: a bubble of (PP - 1) / m of the stage's time
    assert step.micro_batches == 8 and step.bubble_share == pytest.approx(7 / 8)
    assert step.mfu == pytest.approx(step.flops / (512 * 989e12 * step.step_s))
    assert 0 < step.comm_share < 1
    critical = sum(c.step_s for c in r.collectives if not c.key.startswith("dp-"))
    assert step.exposed_s >= critical * (1 - 1e-9)
    assert r.links["top"] and r.links["top"][0]["utilisation"] > 0
    # the step's dispatch bytes follow the documented formula: b s / (CP TP) k h e
    dispatch = r.collectives[0]
    assert dispatch.bytes == 1 * 8192 * 8 * 7168 * 2


@pytest.mark.parametrize(("work", "field"), [
    ({"model": "llama3-70b", "tp": 16}, "tp"),
    ({"model": "llama3-70b", "tp": 8, "pp": 4, "dp": 3, "gpus": 512}, "dp"),
    ({"model": "llama3-70b", "ep": 8}, "ep"),
    ({"model": "gpt-5"}, "model"),
    ({"collective": "all-reduce"}, "bytes"),
    ({"collective": "broadcast", "bytes": 10}, "collective"),
    ({"collective": "all-reduce", "bytes": 10, "routing": "magic"}, "routing"),
    ({"collective": "all-reduce", "bytes": 10, "ranks": 12}, "ranks"),
    ({"collective": "all-reduce", "bytes": 10, "failures": ["rack"]}, "failures"),
])
def test_bad_workloads_are_field_errors(fabric_512, work, field):
    with pytest.raises(SpecError) as exc:
        simulate(fabric_512, work)
    assert field in exc.value.errors


def test_inline_server_scale_up_is_said_not_limiting(fabric_512):
    domain = scale_up_domain(fabric_512.spec)
    assert domain.gpus == 8 and not domain.limiting
    r = simulate(fabric_512, {"collective": "all-gather", "bytes": 1 << 28, "ranks": 8})
    assert r.collectives[0].network == "scale-up"
    assert any("does not limit" in note for note in r.notes)
    nvlink = replace(fabric_512.spec, server=replace(fabric_512.spec.server, scale_up="NVLink 4"))
    h100 = scale_up_domain(nvlink)
    # line rate 450 GB/s one way (NVIDIA NVLink page); NCCL reaches 18 links x 20.6 GB/s (nccl src/graph/topo.h)
    assert h100.line_gbps_per_gpu == 450 * 8
    assert h100.gbps_per_gpu == pytest.approx(18 * 20.6 * 8)
    assert h100.nvls_heads == 8


def test_nccl_choice_moves_from_tree_to_ring_with_size(fabric_512):
    r = simulate(fabric_512, {"collective": "all-reduce", "bytes": 1 << 34, "ranks": "all",
                              "sizes": [1 << 20, 1 << 34]})
    rows = r.tables["all-reduce"]
    assert rows[0].algorithm == "tree" and rows[-1].algorithm == "ring"
    assert rows[-1].busbw_gbps > rows[0].busbw_gbps


def test_cli_simulate_prints_the_issue_fields(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"gpus": 256, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
                                "leaf": {"ports": 64, "gbps": 400}}))
    work = tmp_path / "work.json"
    work.write_text(json.dumps({"collective": "all-reduce", "bytes": 34359738368, "ranks": "all",
                                "routing": "spray", "algorithm": "ring"}))
    out = subprocess.run([sys.executable, "-m", "apps.engine", "simulate", str(spec), str(work)],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    row = data["collectives"][0]
    for key in ("collective", "bytes", "ranks", "algorithm", "routing", "time_s", "algbw_gbps", "busbw_gbps"):
        assert key in row
    assert row["ranks"] == 256 and data["step"] is None
    assert any("does not limit" in n for n in data["notes"])
    work.write_text(json.dumps({"model": "llama3-8b", "tp": 3}))
    bad = subprocess.run([sys.executable, "-m", "apps.engine", "simulate", str(spec), str(work)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == "" and "tp:" in bad.stderr
    work.write_text(json.dumps({"model": "llama3-8b", "gpu_tflops": 989}))
    step = json.loads(subprocess.run([sys.executable, "-m", "apps.engine", "simulate", str(spec), str(work)],
                                     capture_output=True, text=True, check=True).stdout)["step"]
    assert {"comm_s", "exposed_s", "compute_s", "step_s", "comm_share"} <= set(step)


def test_hop_latencies_replace_nccl_network_step(fabric_512):
    work = {"collective": "all-reduce", "bytes": 1 << 30, "ranks": "all", "routing": "spray", "algorithm": "ring"}
    nccl_model = simulate(fabric_512, work).collectives[0]
    hops = simulate(fabric_512, {**work, "switch_latency_ns": 600, "nic_latency_ns": 1000}).collectives[0]
    assert nccl_model.net_step_us is None and hops.net_step_us is not None
    lengths = fabric_512.links.length_m
    tiers = fabric_512.links.tier
    metres = 2 * float(lengths[tiers == 0].max()) + 2 * float(lengths[tiers == 1].max())
    assert hops.net_step_us == pytest.approx((2 * 1000 + 3 * 600 + 5 * metres) / 1e3)
    assert hops.latency_s == pytest.approx(latency_s("all-reduce", "ring", ranks=512, servers=64,
                                                     net_step_us=hops.net_step_us))
    assert hops.bandwidth_s == pytest.approx(nccl_model.bandwidth_s)
    with pytest.raises(SpecError) as exc:
        simulate(fabric_512, {**work, "switch_latency_ns": 600})
    assert "nic_latency_ns" in exc.value.errors


def test_core_failure_on_three_tiers_reroutes_every_flow():
    three = plan(_spec(1024, tiers=3))
    assert three.tiers == 3
    work = {"collective": "all-reduce", "bytes": 1 << 28, "ranks": "all", "routing": "spray", "algorithm": "ring",
            "placement": "scheduler", "failures": ["core", "spine"]}
    r = simulate(three, work)
    healthy = r.collectives[0].time_s
    assert [s.failure for s in r.scenarios] == ["core", "spine"]
    for scenario in r.scenarios:
        assert scenario.unroutable == 0 and scenario.device
        assert scenario.collectives[0].time_s >= healthy * (1 - 1e-9)
    ecmp = simulate(three, {**work, "routing": "ecmp"})
    assert all(s.unroutable == 0 for s in ecmp.scenarios)


def _gb200_plan(gpus=1152):
    from apps.engine.specio import spec_from_dict
    return plan(spec_from_dict({"gpus": gpus, "server": "DGX-GB200-NVL72-TRAY", "leaf": {"sku": "MQM9700-NS2F"}}))


def test_a_rack_scale_domain_is_the_nvl72_rack_with_its_published_nvlink_bandwidth():
    domain = scale_up_domain(_gb200_plan().spec)
    # 72 GPUs in 18 compute trays, 1.8 TB/s per GPU both directions (DGX SuperPOD GB200 RA)
    assert (domain.gpus, domain.servers) == (72, 18)
    assert domain.line_gbps_per_gpu == pytest.approx(1800 / 2 * 8)
    assert domain.gbps_per_gpu == pytest.approx(18 * 40.1 * 8)  # what NCCL reaches (src/graph/topo.h)
    assert domain.nvls_heads == 0  # NVLS across the trays of a rack is not offered


def test_tensor_parallelism_across_the_trays_of_an_nvl72_rack_stays_on_nvlink():
    r = simulate(_gb200_plan(), {"model": "llama3-70b", "tp": 72, "pp": 1, "routing": "spray"})
    tp = [c for c in r.collectives if c.key.startswith("tp")]
    assert tp and all(c.network == "scale-up" for c in tp)


def test_all_to_all_inside_one_nvl72_rack_never_reaches_the_fabric():
    one_rack = simulate(_gb200_plan(), {"collective": "all-to-all", "bytes": 1 << 30, "ranks": 72,
                                        "routing": "spray"})
    assert one_rack.collectives[0].network == "scale-up"
    two_racks = simulate(_gb200_plan(), {"collective": "all-to-all", "bytes": 1 << 30, "ranks": 144,
                                         "routing": "spray"})
    assert two_racks.collectives[0].network == "scale-out"


def test_ring_all_reduce_on_a_2_tier_roce_fabric_orders_ecmp_below_hash_aware_below_spray():
    """Rings follow the scheduler's rank order, each hop as NCCL channels x queue pairs: ECMP collisions slow
    the ring, hash-aware ports less so, spraying not at all (Meta, SIGCOMM 2024: up to 40 % from E-ECMP with
    QP scaling over 1-QP ECMP)."""
    fabric = plan(_spec(2048))
    assert fabric.tiers == 2
    time = {}
    for routing in ("ecmp", "hash-aware", "spray"):
        for qps in (1, 4):
            r = simulate(fabric, {"collective": "all-reduce", "bytes": 1 << 34, "ranks": "all", "routing": routing,
                                  "algorithm": "ring", "placement": "scheduler", "qps_per_connection": qps})
            time[routing, qps] = r.collectives[0].bandwidth_s
    ideal = 2 * (2047 / 2048) * (1 << 34) * 8 / (8 * NIC_GBPS * 1e9)
    assert time["spray", 4] == pytest.approx(ideal, rel=0.02)
    assert time["ecmp", 4] > time["hash-aware", 4] * 1.1 and time["hash-aware", 4] > time["spray", 4] * 1.05
    # more queue pairs per connection: more hash entropy, a faster ECMP ring, still slower than spraying
    assert 1.2 < time["ecmp", 1] / time["ecmp", 4] < 2.5
    assert 1.2 < time["ecmp", 4] / time["spray", 4] < 3.0


def test_rings_follow_rank_order_so_the_scheduler_placement_changes_the_ring():
    from apps.engine.traffic.rings import ring_hops

    # 4 servers of 2 GPUs, ranks placed on servers 2, 0, 3, 1 in rank order
    rank_server = np.array([2, 2, 0, 0, 3, 3, 1, 1])
    hops = ring_hops(np.arange(8)[None, :], rank_server)
    assert hops.per_server == 2 and hops.rings == 2
    visited = rank_server[hops.src_rank[hops.ring == 0]].tolist()
    assert visited == [2, 0, 3, 1]  # rank order, not server order
    assert rank_server[hops.dst_rank[hops.ring == 0]].tolist() == [0, 3, 1, 2]


def test_the_traffic_analysis_and_the_performance_model_tell_one_ring_story():
    """The design document's traffic chapter and its performance chapter use one ring model: the traffic
    analysis' effective bandwidth of Ring All-Reduce is the performance model's ring bandwidth over line rate."""
    from apps.engine.traffic import analyze

    fabric = plan(_spec(2048))
    report = analyze(fabric, pattern="all-reduce", seed=0).patterns["all-reduce"]
    assert report.placement == "scheduler"
    size = 1 << 34
    ideal = 2 * (2047 / 2048) * size * 8 / (8 * NIC_GBPS * 1e9)
    for routing in ("ecmp", "hash-aware"):
        r = simulate(fabric, {"collective": "all-reduce", "bytes": size, "ranks": "all", "routing": routing,
                              "algorithm": "ring", "seed": 0})
        assert ideal / r.collectives[0].bandwidth_s == pytest.approx(
            report.strategies[routing].effective_bandwidth, rel=0.01)
    assert report.strategies["ecmp"].effective_bandwidth < report.strategies["hash-aware"].effective_bandwidth < 1


def test_a_sampled_all_to_all_stays_close_to_the_whole_collective_and_states_its_error():
    over = plan(_spec(1024, oversubscription=3.0))
    work = {"collective": "all-to-all", "bytes": 1 << 30, "ranks": "all", "routing": "ecmp"}
    whole = simulate(over, work, max_flows=10_000_000).collectives[0]
    sample = simulate(over, work, max_flows=20_000).collectives[0]
    assert not whole.sampled and "pairwise-exchange steps" in sample.sampled and "upper bound" in sample.sampled
    assert sample.bandwidth_s == pytest.approx(whole.bandwidth_s, rel=0.1)


def test_a_run_past_its_time_limit_stops():
    from apps.engine.simulation import SimulationTimeLimit

    with pytest.raises(SimulationTimeLimit):
        simulate(plan(_spec(512)), {"model": "llama3-70b", "failures": ["spine"]}, time_limit_s=0.0)


def _dgx(gpus: int, tiers="auto"):
    from apps.engine.specio import spec_from_dict

    return plan(spec_from_dict({"gpus": gpus, "server": {"sku": "DGXH-G640F+P2EDI36"}, "tiers": tiers,
                                "leaf": {"sku": "DCS-7060DX5-64S", "breakout": "1x400G"}}))


@pytest.mark.parametrize(("work", "field", "words"), [
    ({"model": "llama3-405b", "tp": 1, "pp": 1}, "tp", "more than the GPU's 80 GB"),  # 1.6 TB of model state
    ({"model": "llama3-70b", "micro_batch": 1024}, "micro_batch", "activations per layer"),
    ({"model": "llama3-70b", "seq_len": 1 << 20}, "seq_len", "raise CP"),
])
def test_jobs_that_cannot_fit_a_gpu_are_refused_on_their_field(work, field, words):
    with pytest.raises(SpecError) as exc:
        simulate(_dgx(1024), work)
    assert words in exc.value.errors[field][0]


def test_published_llama3_405b_parallelism_fits_an_h100():
    r = simulate(_dgx(1024), {"model": "llama3-405b", "tp": 8, "pp": 16, "global_batch": 128})
    assert r.step is not None


def test_a_2_tier_fabric_offers_no_core_failure():
    fabric = plan(_spec(512))
    assert fabric.tiers == 2
    with pytest.raises(SpecError) as exc:
        simulate(fabric, {"model": "llama3-8b", "failures": ["core"]})
    assert "no core switch" in exc.value.errors["failures"][0]


@pytest.mark.parametrize(("gpus", "low_us", "high_us"), [(16, 20, 35), (1024, 70, 100)])
def test_small_all_reduce_latency_follows_nccl_2_30_tuning_model(gpus, low_us, high_us):
    """NCCL's own model charges an 8-byte All-Reduce about 30 us on 2 servers and 87 us on 128 (LL protocol,
    Tree); the Simple-only model of NCCL 2.8 gave 123 and 1,092 us."""
    r = simulate(plan(_spec(gpus)), {"collective": "all-reduce", "bytes": 8, "ranks": "all", "routing": "spray",
                                     "sizes": [8]})
    row = r.tables["all-reduce"][0]
    assert low_us < row.time_s * 1e6 < high_us
    assert r.collectives[0].protocol == "ll"


def test_interleaving_and_expert_overlap_shorten_the_step(fabric_512):
    base = {"model": "deepseek-v3", "tp": 1, "pp": 8, "ep": 64, "gpu_tflops": 989, "global_batch": 1024}
    plain = simulate(fabric_512, base).step
    interleaved = simulate(fabric_512, {**base, "pp_schedule": "interleaved", "virtual_stages": 2}).step
    hidden = simulate(fabric_512, {**base, "ep_overlap": 1.0}).step
    assert interleaved.bubble_share == pytest.approx(plain.bubble_share / 2)
    assert interleaved.step_s < plain.step_s and hidden.exposed_s < plain.exposed_s


def test_a_global_batch_that_cannot_fill_the_pipeline_is_refused(fabric_512):
    with pytest.raises(SpecError) as exc:
        simulate(fabric_512, {"model": "llama3-70b", "tp": 8, "pp": 4, "global_batch": 32})
    assert "cannot fill 4 pipeline stages" in exc.value.errors["global_batch"][0]


def test_nccl_picks_nvlstree_on_two_nvswitch_servers_and_ring_on_many():
    """NCCL 2.30.7's tuning model (src/graph/tuning.cc): NVLSTree's bus bandwidth doubles its network share on two
    servers (462 GB/s on 8 H100 + 8 x 400G) and falls to one NIC's speed step per head beyond (320 GB/s), below a
    rail ring (about 390 GB/s): so NVLSTree on 2 servers, Ring on 16, as measured (NVIDIA/nccl issue 1221)."""
    from apps.engine.specio import spec_from_dict

    def run(gpus):
        fabric = plan(spec_from_dict({"gpus": gpus, "server": {"sku": "DGXH-G640F+P2EDI36"},
                                      "leaf": {"sku": "DCS-7060DX5-64S", "breakout": "1x400G"}}))
        return simulate(fabric, {"collective": "all-reduce", "bytes": 8 << 30, "ranks": "all",
                                 "routing": "spray", "sizes": [1 << 20, 8 << 30]})
    two, many = run(16), run(128)
    assert two.collectives[0].algorithm == "nvlstree"
    assert two.collectives[0].busbw_gbps / 8 == pytest.approx(461.6, rel=0.01)
    assert many.collectives[0].algorithm == "ring"
    assert many.collectives[0].nvls_s is not None and many.collectives[0].nvls_s > many.collectives[0].bandwidth_s


def test_expert_gradients_are_reduced_over_dp_over_ep_ranks_holding_the_same_experts():
    """Dense gradients over the DP group, expert gradients over the DP / EP ranks that hold the same experts
    (Megatron-LM's expert-data-parallel group), not over the whole DP group."""
    from apps.engine.simulation.collectives import step_collectives
    from apps.engine.simulation.presets import PRESETS
    from apps.engine.simulation.workload import workload_from_dict
    job = workload_from_dict({"model": "deepseek-v3", "tp": 1, "pp": 8, "ep": 8, "global_batch": 512},
                             design_gpus=512, domain=scale_up_domain(plan(make_spec(512, server=server(),
                                                                                    leaf=switch(64))).spec))
    steps = {c.key: c for c in step_collectives(job)}
    model = PRESETS["deepseek-v3"]
    dense = model.params_b * 1e9 - model.expert_params
    assert steps["dp-reduce-scatter"].groups.shape == (8, 64)
    assert steps["dp-reduce-scatter"].bytes == int(2 * dense / 8)
    edp = steps["edp-reduce-scatter"]
    assert edp.groups.shape == (64, 8)  # DP 64 / EP 8 ranks per group, 8 stages x 8 places in an EP group
    assert edp.bytes == int(2 * model.expert_params / (8 * 8))
    ep_groups = steps["ep-dispatch"].groups
    for group in edp.groups[:8]:
        # one rank of each EP group, all at the same place of it
        where = [np.argwhere(ep_groups == r)[0] for r in group]
        assert len({int(w[0]) for w in where}) == 8 and len({int(w[1]) for w in where}) == 1
    assert steps["edp-all-gather"].overlappable and steps["edp-all-gather"].parallelism == "dp"


def _deepseek_ep64(**extra):
    from apps.engine.specio import spec_from_dict
    fabric = plan(spec_from_dict({"gpus": 64, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400,
                                                         "name": "H800 server", "scale_up": "NVLink 4",
                                                         "scale_up_gb_s": 400}, "leaf": {"sku": "MQM9700-NS2F"}}))
    r = simulate(fabric, {"model": "deepseek-v3", "tp": 1, "pp": 1, "ep": 64, "dp": 64, "seq_len": 4096,
                          "global_batch": 64, "precision": "fp8", "routing": "spray", "placement": "plan", **extra})
    return {c.key: c for c in r.collectives}


def test_node_limited_routing_halves_the_fabric_bytes_of_the_expert_dispatch():
    """DeepSeek-V3 report 2.1.2 / 3.2.2: 8 routed experts, each token to at most 4 nodes, once per node over IB,
    then NVLink: the fabric carries about 3.5 remote copies per token on 8 nodes instead of 7 (8 x 7/8)."""
    from apps.engine.simulation.experts import expert_reach
    reach = expert_reach(experts=256, top_k=8, group_nodes=8, group_ranks=64, node_limit=4)
    assert 3.9 < reach.nodes <= 4.0
    assert 8 * 7 / 8 / reach.remote_nodes == pytest.approx(2.0, rel=0.03)
    limited, plain = _deepseek_ep64(), _deepseek_ep64(ep_node_limit=0)
    assert plain["ep-dispatch"].time_s / limited["ep-dispatch"].time_s == pytest.approx(2.0, rel=0.1)


def test_thirteen_experts_over_four_nodes_cost_what_eight_do():
    """DeepSeek-V3 report 3.2.2: with NVLink (160 GB/s) about 3.2 times IB (50 GB/s), a token "can scale up this
    number to a maximum of 13 experts (4 nodes x 3.2 experts/node) while preserving the same communication cost":
    the fabric bytes stay one copy per node and NVLink forwarding stays shorter than the fabric."""
    from apps.engine.simulation.experts import expert_reach
    eight = expert_reach(experts=256, top_k=8, group_nodes=8, group_ranks=64, node_limit=4)
    thirteen = expert_reach(experts=256, top_k=13, group_nodes=8, group_ranks=64, node_limit=4)
    assert thirteen.nodes == pytest.approx(eight.nodes, rel=0.02)
    fabric = thirteen.remote_nodes / 50.0
    nvlink = thirteen.ranks * 7 / 8 / 160.0
    assert nvlink < fabric


def test_dualpipe_bubble_follows_the_deepseek_v3_table(fabric_512):
    """(PP/2 - 1)(F&B + B - 3W) against 1F1B's (PP - 1)(F + B), with B = 2F, W = F."""
    base = {"model": "deepseek-v3", "tp": 1, "pp": 8, "ep": 64, "gpu_tflops": 989, "global_batch": 1024}
    plain = simulate(fabric_512, base).step
    dual = simulate(fabric_512, {**base, "pp_schedule": "dualpipe"}).step
    assert dual.bubble_share == pytest.approx((8 / 2 - 1) * 2 / 3 / plain.micro_batches)
    assert plain.bubble_share == pytest.approx(7 / plain.micro_batches)
    assert dual.step_s < plain.step_s


@pytest.mark.parametrize(("extra", "field"), [
    ({"pp": 8, "pp_schedule": "dualpipe", "virtual_stages": 2}, "virtual_stages"),
    ({"pp": 8, "pp_schedule": "dualpipe", "global_batch": 64 * 9}, "global_batch"),
    ({"pp": 1, "pp_schedule": "dualpipe"}, "pp_schedule"),
    ({"pp": 8, "ep_node_limit": -1}, "ep_node_limit"),
    ({"pp": 8, "ep_node_limit": "four"}, "ep_node_limit"),
])
def test_bad_dualpipe_and_node_limit_inputs_are_field_errors(fabric_512, extra, field):
    with pytest.raises(SpecError) as exc:
        simulate(fabric_512, {"model": "deepseek-v3", "tp": 1, "ep": 64, **extra})
    assert field in exc.value.errors


def test_a_dense_model_takes_no_node_limit(fabric_512):
    with pytest.raises(SpecError) as exc:
        simulate(fabric_512, {"model": "llama3-8b", "ep_node_limit": 4})
    assert "mixture-of-experts" in exc.value.errors["ep_node_limit"][0]
