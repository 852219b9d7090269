"""Running a workload on a planned fabric: per-collective times, the step, the nccl-tests table,
link utilisation, failure scenarios and the design's alternatives.

Rules:
- A collective whose groups each sit inside one server runs on the scale-up network: its time is
  the bytes a GPU sends (ring: 2 (n-1)/n S for All-Reduce, (n-1)/n S otherwise) over the GPU's
  scale-up bandwidth as NCCL reaches it (scaleup.py) plus NCCL's NVLink latency, or NVLS where the
  server offers it and NCCL's model prefers it (nccl.py); without a known bandwidth only the
  latency is counted and the result says so.
- Any other collective runs on the scale-out fabric: its flows (collectives.py) are routed on
  the design's links and timed by max-min fair sharing (maxmin.py); every group of the
  collective runs at the same time (all DP groups reduce together), as in a real step.
- Bandwidth scales linearly with size in a flow model, so a collective is routed once and its
  nccl-tests table (time, algbw, busbw per size) scales the bandwidth term and adds the latency
  of the algorithm NCCL would choose at that size (nccl.py).
- Step (training job): comm = the sum over collectives of calls x time per call; compute =
  model FLOPs / (GPUs x peak x MFU), FLOPs = 6 N_active T + 12 L h s T for T tokens (PaLM,
  arXiv 2204.02311, appendix B); exposed = TP + CP + EP + PP time (on the critical path) +
  max(0, DP time - overlap x compute) (the DP collectives overlap with the backward pass and the
  next forward, as ZeRO / FSDP buckets do); step = compute + exposed; communication share =
  exposed / step; pipeline bubbles and the achieved MFU as _step states. Compute-communication
  contention is not modelled.
- Sampling: only All-to-All flows are sampled, above `max_flows` (150,000) per collective (whole
  pairwise-exchange steps carrying the bytes of the steps they stand for, collectives.py); under
  ECMP the whole collective's imbalance is estimated from its real flow count (_sampled_estimate)
  and the sample's hashed time is stated as an upper bound; the result names every sampled collective.
- Work is bounded: rings are a few coupled flows, max-min filling widens its band after 24 levels,
  waves end at a quarter of the flows, identical collectives of a step share one phase, and
  `time_limit_s` stops a run between collectives (web runs: 120 s).
- Link utilisation is of the collective that takes the most time per step on the scale-out
  fabric: bytes each link direction carries / (capacity x that collective's bandwidth time).
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable

import numpy as np

from ..model import Plan
from ..roce.host import QPS_PER_CONNECTION
from ..spec import DesignSpec, InfeasibleSpec, SpecError
from .. import nccl
from ..traffic.reference import balls_into_bins
from .collectives import (StepCollective, all_to_all_flows, node_dispatch_flows, pair_flows, ring_flows,
                          step_collectives)
from .experts import expert_reach
from .network import FabricModel
from .presets import gpu_memory_gb, gpu_peak_tflops
from .scaleup import ScaleUpDomain, scale_up_domain
from .workload import CollectiveJob, TrainingJob, workload_from_dict

Progress = Callable[[str, int], None]
DEFAULT_MAX_FLOWS = 150_000
TOP_LINKS = 2000  # busiest link directions kept with a result (the topology overlay reads them)

ASSUMPTIONS = (
    "Flow-level model: every flow gets its max-min fair share of the links on its path, recomputed as waves "
    "of flows finish; packets, queues and congestion control are not modelled.",
    "ECMP hashes the RoCE 5-tuple with a random source port at every switch; hash-aware source ports place "
    "flows round-robin over each switch's next hops; spraying splits every flow evenly over the leaf's uplinks.",
    "Ranks follow Megatron-LM's order (TP innermost, then CP, DP, PP) on the job's servers in a scheduler's "
    "(seeded random) order unless plan order is chosen; GPU i of a server uses NIC i x ports / GPUs; All-to-All "
    "crosses NVLink to the NIC on the destination's rail (PXN).",
    "Rings follow rank order, one rail-aligned ring per GPU of a server, each hop on NCCL's 2 channels per NIC x "
    "NCCL_IB_QPS_PER_CONNECTION queue pairs, each queue pair its own ECMP flow; a ring channel moves at the rate "
    "of its slowest link (the traffic analysis uses the same rings).",
    "Latency and the algorithm and protocol NCCL would choose (Ring / Tree / PAT / NVLS / NVLSTree, LL / LL128 / "
    "Simple) follow NCCL 2.30.7's tuning model (src/graph/tuning.cc); NVLS and NVLSTree on NVSwitch servers of "
    "H100 and later; NVLink at the bandwidth NCCL reaches (src/graph/topo.h: 370.8 GB/s per H100), not its line "
    "rate; CollNet in-network reduction in the switches is not offered.",
    "Step time = compute (at the stated compute efficiency) + exposed communication + pipeline bubble ((PP - 1) / "
    "(v m) for 1F1B or interleaved, (PP/2 - 1)(F&B + B - 3W) for DualPipe); data-parallel collectives hide behind "
    "compute up to the stated overlap, expert All-to-All (and PP under DualPipe) up to the stated expert overlap; "
    "the achieved MFU is reported.",
    "Node-limited expert routing (DeepSeek-V3): a token crosses the fabric once per node it reaches, to the GPU on "
    "its own rail, and NVLink forwards it to its experts' GPUs at the same time; without a node limit every "
    "routed expert gets its own copy (an All-to-All of top-k copies).",
)


@dataclass(slots=True)
class CollectiveResult:
    key: str
    collective: str
    parallelism: str  # tp, cp, ep, pp, dp; "" for a single collective
    network: str  # scale-up or scale-out
    bytes: int
    ranks: int  # ranks of one group
    groups: int
    calls: int  # per step (1 for a single collective)
    algorithm: str
    routing: str
    time_s: float  # one call
    step_s: float  # calls x time_s
    bandwidth_s: float  # the bandwidth term of one call
    latency_s: float
    algbw_gbps: float
    busbw_gbps: float
    net_step_us: float | None = None  # a network step from the path's hops; None: NCCL's figure
    protocol: str = "simple"  # NCCL protocol: ll, ll128 or simple
    ring_s: float = 0.0  # bandwidth term of a Simple ring at this size (the base every algorithm scales)
    nvls_s: float | None = None  # bandwidth term of NVLS / NVLSTree at this size; None: not offered
    flows: int = 0
    flows_total: int = 0
    sampled: str = ""
    unroutable: int = 0
    waves: int = 0


@dataclass(slots=True)
class SizeRow:
    bytes: int
    algorithm: str
    time_s: float
    algbw_gbps: float
    busbw_gbps: float


@dataclass(slots=True)
class StepResult:
    comm_s: float
    exposed_s: float
    compute_s: float | None
    step_s: float | None
    comm_share: float | None
    scale_up_s: float
    scale_out_s: float
    overlappable_s: float
    overlap: float
    flops: float
    tokens: int
    bubble_s: float = 0.0  # pipeline bubble
    bubble_share: float = 0.0  # (PP - 1) / (v m)
    mfu: float | None = None  # achieved model FLOPs utilisation of the whole step
    micro_batches: int = 1


@dataclass(slots=True)
class Scenario:
    failure: str  # "" healthy, else link / leaf / spine / core
    device: str
    collectives: list[CollectiveResult]
    step: StepResult | None
    unroutable: int = 0


@dataclass(slots=True)
class SimulationResult:
    kind: str  # "collective" or "training"
    workload: dict[str, Any]
    gpus: int  # GPUs taking part
    servers: int
    routing: str
    scale_up: dict[str, Any]
    collectives: list[CollectiveResult]
    step: StepResult | None
    tables: dict[str, list[SizeRow]]  # collective key -> nccl-tests rows
    links: dict[str, Any]
    scenarios: list[Scenario] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    assumptions: tuple[str, ...] = ASSUMPTIONS
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# --- placement -----------------------------------------------------------------------------------

@dataclass(slots=True)
class Placement:
    rank_server: np.ndarray
    rank_nic: np.ndarray
    servers: int
    # scale-up domain of each rank: its server unless rack-scale (servers_per_domain trays share one);
    # traffic between ranks of one domain stays on NVLink
    rank_domain: np.ndarray | None = None

    @property
    def domain(self) -> np.ndarray:
        return self.rank_server if self.rank_domain is None else self.rank_domain


def place(model: FabricModel, ranks: int, gpus_per_server: int, order: str, seed: int,
          servers_per_domain: int = 1) -> Placement:
    """Ranks on servers in the plan's order, or as a scheduler hands them out (whole scale-up domains,
    their trays in order, when rack-scale)."""
    f = model.fabric
    k = max(1, servers_per_domain)
    used = -(-ranks // gpus_per_server)
    servers = np.arange(f.servers, dtype=np.int64)
    if order == "scheduler":
        rng = np.random.default_rng([seed, 0x5C4ED])
        if k > 1 and f.servers % k == 0:
            domains = rng.permutation(f.servers // k).astype(np.int64)
            servers = (domains[:, None] * k + np.arange(k, dtype=np.int64)[None, :]).ravel()
        else:
            servers = rng.permutation(f.servers).astype(np.int64)
    r = np.arange(ranks, dtype=np.int64)
    server = servers[:used][r // gpus_per_server]
    local = r % gpus_per_server
    nic = server * f.nic_ports + local * f.nic_ports // gpus_per_server
    return Placement(server, nic, used, server // k if k > 1 else None)


# --- one collective --------------------------------------------------------------------------------

def _scale_up_time(collective: str, size: float, n: int, domain: ScaleUpDomain) -> tuple[float, float]:
    """(bandwidth, latency) seconds of a collective inside one scale-up domain."""
    sent = nccl.traffic_factor(collective, n) * size if collective != "send-recv" else size
    bw = sent * 8 / (domain.gbps_per_gpu * 1e9) if domain.gbps_per_gpu else 0.0
    algo = "ring" if collective in ("all-reduce", "all-gather", "reduce-scatter") else "pairwise"
    return bw, nccl.latency_s(collective, algo, ranks=n, servers=1)


def _nvls_seconds(collective: str, size: float, heads: int, servers: int, domain: ScaleUpDomain,
                  nic_gbytes: float | None) -> float | None:
    """Bandwidth time of NVLS (one server) / NVLSTree (across servers) for an All-Reduce, None where not offered:
    the bus bandwidth of NCCL's model (nccl.nvls_busbw_gbytes) with the NIC rate the flow model reached."""
    if collective != "all-reduce" or not domain.nvls_heads or heads < 2 or not domain.gbps_per_gpu:
        return None
    busbw = nccl.nvls_busbw_gbytes(heads=heads, servers=servers, nvlink_gbytes=domain.gbps_per_gpu / 8,
                                   nic_gbytes=nic_gbytes, compute_capability=domain.compute_capability)
    return nccl.busbw_factor(collective, heads * servers) * size / (busbw * 1e9) if busbw else None


def run_collective(model: FabricModel, pl: Placement, *, key: str, collective: str, size: int, groups: np.ndarray,
                   calls: int, routing: str, algorithm: str, domain: ScaleUpDomain, gpus_per_server: int,
                   parallelism: str = "", seed: int = 0, max_flows: int = DEFAULT_MAX_FLOWS,
                   keep_phase: bool = False, hop_latency: tuple[float, float] | None = None, qps: int = 1,
                   cache: dict | None = None, dispatch: tuple[int, int, int, int, int] | None = None):
    n = int(groups.shape[1])
    srv = pl.rank_server[groups]
    dom = pl.domain[groups]
    inside = bool((dom == dom[:, :1]).all())
    reach = nvlink_s = None
    if dispatch is not None:
        # node-limited expert dispatch (experts.py): the size is what a rank sends, one copy per node reached
        # (DeepEP's "RDMA bytes"); NVLink forwards to the GPUs reached while the fabric carries the rest
        tokens, token_bytes, experts, top_k, limit = dispatch
        nodes = int(len(np.unique(dom[0])))
        reach = expert_reach(experts=experts, top_k=top_k, group_nodes=nodes, group_ranks=n, node_limit=limit)
        size = max(1, int(round(tokens * reach.nodes * token_bytes)))
        g = reach.ranks_per_node
        nvl_bytes = tokens * reach.ranks * (g - 1) / g * token_bytes
        nvlink_s = nvl_bytes * 8 / (domain.gbps_per_gpu * 1e9) if domain.gbps_per_gpu else 0.0
    servers = int(len(np.unique(srv[0])))
    factor = nccl.traffic_factor(collective, n)
    phase = None
    flows = None
    proto = "simple"
    net_us = None
    if inside and reach is not None:
        ring_bw, nvls_bw, algo, network = nvlink_s, None, "pairwise", "scale-up"
    elif inside:
        ring_bw, _ = _scale_up_time(collective, size, n, domain)
        nvls_bw = _nvls_seconds(collective, size, n, 1, domain, None)
        algo = "ring" if collective in ("all-reduce", "all-gather", "reduce-scatter") else "pairwise"
        if algorithm == "auto" and domain.gbps_per_gpu:
            algo, proto, _ = nccl.choose_protocol(collective, ring_seconds=ring_bw, ranks=n, servers=1,
                                                  gpus_per_server=n, nvls_seconds=nvls_bw)
        elif algorithm not in ("auto", "nvls", "nvlstree"):
            algo = algorithm
        if collective == "send-recv":
            algo = "p2p"
        network = "scale-up"
    else:
        if collective in ("all-reduce", "all-gather", "reduce-scatter"):
            flows = ring_flows(groups, pl.domain, pl.rank_nic, factor * size, qps=qps)
        elif reach is not None:
            flows = node_dispatch_flows(groups, pl.domain, pl.rank_nic, size / reach.group_nodes,
                                        max_flows=max_flows, rng=np.random.default_rng([seed, 0xA2A]))
        elif collective == "all-to-all":
            flows = all_to_all_flows(groups, pl.rank_server, pl.rank_nic, float(size),
                                     nic_ports=model.fabric.nic_ports, max_flows=max_flows,
                                     rng=np.random.default_rng([seed, 0xA2A]), rank_domain=pl.rank_domain)
        else:
            flows = pair_flows(groups, pl.domain, pl.rank_nic, float(size))
        key_ = (collective == "all-to-all", reach is not None, id(groups), len(flows.src), routing, qps)
        if cache is not None and key_ in cache:
            # same flows as a collective already timed: a flow-level phase scales with its bytes
            base, base_bytes, flows.sampled = cache[key_]
            phase = _scaled(base, float(flows.bytes.sum()) / base_bytes if base_bytes else 0.0)
        else:
            phase = model.phase(flows.src, flows.dst, flows.bytes, routing=routing, seed=seed,
                                flow_of=flows.flow_of, share=flows.share)
            if flows.sampled and routing != "spray":
                phase = _sampled_estimate(model, flows, phase, routing, seed)
            if cache is not None:
                cache[key_] = (phase, float(flows.bytes.sum()), flows.sampled)
        net_us = (model.step_us(flows.src, flows.dst, switch_ns=hop_latency[0], nic_ns=hop_latency[1])
                  if hop_latency else None)
        ring_bw = phase.seconds
        per_server = max(1, n // servers)
        nic_gbytes = factor * size / ring_bw / per_server / 1e9 if ring_bw > 0 else None
        nvls_bw = _nvls_seconds(collective, size, per_server, servers, domain, nic_gbytes)
        if nvlink_s is not None:  # NVLink forwarding runs at once with the fabric (DeepSeek-V3 report, 3.2.2)
            ring_bw = max(ring_bw, nvlink_s)
        elif domain.gbps_per_gpu:
            # the scale-up hops of the same rings, in parallel with the network
            ring_bw = max(ring_bw, factor * size / max(1, servers) * 8 / (domain.gbps_per_gpu * 1e9))
        if algorithm == "auto":
            algo, proto, _ = nccl.choose_protocol(collective, ring_seconds=ring_bw, ranks=n, servers=servers,
                                                  gpus_per_server=min(per_server, gpus_per_server),
                                                  net_step_us=net_us, nvls_seconds=nvls_bw)
        else:
            algo = algorithm
        if collective == "send-recv":
            algo, proto = "p2p", "simple"
        network = "scale-out"
    if algo in ("nvls", "nvlstree"):
        bw = nvls_bw if nvls_bw is not None else ring_bw
        lat = nccl.nvls_latency_s(1 if inside else servers)
    else:
        bw = nccl.bandwidth_s(algo, ring_bw, proto, servers=1 if inside else servers)
        lat = nccl.latency_s(collective, algo, ranks=n, servers=1 if inside else servers, net_step_us=net_us,
                             protocol=proto)
    t = bw + lat
    algbw = size * 8 / t / 1e9 if t > 0 else 0.0
    busbw = algbw * nccl.busbw_factor(collective, n) if collective != "send-recv" else algbw
    result = CollectiveResult(
        key=key, collective=collective, parallelism=parallelism, network=network, bytes=int(size), ranks=n,
        groups=int(groups.shape[0]), calls=int(calls), algorithm=algo, routing=routing if not inside else "nvlink",
        time_s=t, step_s=t * calls, bandwidth_s=bw, latency_s=lat, algbw_gbps=algbw, busbw_gbps=busbw,
        net_step_us=net_us if not inside else None, protocol=proto, ring_s=ring_bw, nvls_s=nvls_bw,
        flows=int(len(flows.src)) if flows is not None else 0, flows_total=flows.total if flows is not None else 0,
        sampled=flows.sampled if flows is not None else "", unroutable=phase.unroutable if phase else 0,
        waves=phase.timed.waves if phase else 0)
    return (result, phase) if keep_phase else result


def _scaled(phase, ratio: float):
    return replace(phase, timed=replace(phase.timed, seconds=phase.timed.seconds * ratio),
                    link_gbits=phase.link_gbits * ratio)


def _sampled_estimate(model: FabricModel, flows, phase, routing: str, seed: int):
    """A sampled All-to-All under ECMP or hash-aware routing. The sample has far fewer flows per link than
    the whole collective, so hashing it would overstate the imbalance. The whole collective is the
    spraying time of the sample (exact for ideal balance: every NIC sends its whole share) with the
    switch-to-switch links derated by the expected worst / mean link load of its flows hashed onto a
    leaf's uplinks: n = the collective's flows
    per source leaf, k = uplinks per leaf, worst / mean = 1 + sqrt(2 ln k / (n / k)) (the normal limit of
    balls into bins, reference.py) for ECMP, 1 for hash-aware round robin. The sample's own hashed time is
    stated beside it as an upper bound."""
    f = model.fabric
    leaves = np.unique(f.nic_leaf[flows.src])
    k = float(max(1.0, f.up1_count[leaves].mean())) if len(leaves) else 1.0
    n = flows.total / max(1, len(leaves))
    factor = 1.0
    if routing == "ecmp" and k > 1:
        mean = n / k
        factor = 1.0 + float(np.sqrt(2 * np.log(k) / mean)) if mean >= 50 else \
            balls_into_bins(int(round(n)), int(round(k))).expected_max_over_mean
    spray = model.phase(flows.src, flows.dst, flows.bytes, routing="spray", seed=seed, fabric_derate=factor)
    estimate = min(phase.seconds, spray.seconds)
    flows.sampled += (f"; {routing} from the whole collective's {n:,.0f} flows per leaf over {k:.0f} uplinks: "
                      f"spraying over switch links derated by {factor:.3f} (expected worst / mean link), {estimate:.4g} s; hashing the "
                      f"sample alone gives {phase.seconds:.4g} s, an upper bound")
    spray.timed.seconds = estimate
    spray.link_gbits = phase.link_gbits
    return spray


def size_table(result: CollectiveResult, sizes: tuple[int, ...], *, servers: int, gpus_per_server: int,
               algorithm: str) -> list[SizeRow]:
    """nccl-tests rows: the bandwidth term scales with size, the latency is the chosen algorithm's."""
    rows = []
    size = max(1, result.bytes)
    if result.network == "scale-up":
        servers, gpus_per_server = 1, result.ranks
        if not result.ring_s:  # scale-up bandwidth not known: latency only, as the collective itself
            for s in sizes:
                t = result.latency_s
                alg = s * 8 / t / 1e9 if t else 0.0
                rows.append(SizeRow(s, result.algorithm, t, alg,
                                    alg * nccl.busbw_factor(result.collective, result.ranks)))
            return rows
    ring_per_byte = result.ring_s / size
    nvls_per_byte = result.nvls_s / size if result.nvls_s is not None else None
    for s in sizes:
        nvls = nvls_per_byte * s if nvls_per_byte is not None else None
        if algorithm == "auto":
            algo, t = nccl.choose(result.collective, ring_seconds=ring_per_byte * s, ranks=result.ranks,
                                  servers=servers, gpus_per_server=gpus_per_server,
                                  net_step_us=result.net_step_us, nvls_seconds=nvls)
        else:
            algo = algorithm
            t = nccl.bandwidth_s(algo, ring_per_byte * s) + nccl.latency_s(
                result.collective, algo, ranks=result.ranks, servers=servers, net_step_us=result.net_step_us)
        alg = s * 8 / t / 1e9
        rows.append(SizeRow(s, algo, t, alg, alg * nccl.busbw_factor(result.collective, result.ranks)))
    return rows


def link_summary(model: FabricModel, phase, bandwidth_s: float, key: str) -> dict[str, Any]:
    """Per-link utilisation of one phase: per tier (max, mean, p99, histogram) and the busiest link directions (NIC links included)."""
    f = model.fabric
    if phase is None or bandwidth_s <= 0:
        return {"collective": key, "tiers": [], "top": []}
    util = phase.link_gbits / (model.capacity * bandwidth_s)
    tier_dir = np.repeat(f.tier, 2)
    devices = model.plan.devices
    tiers = []
    edges = np.linspace(0, 1, 11)
    for t, name in ((0, "server-leaf"), (1, "leaf-spine"), (2, "spine-core")):
        for d, direction in ((0, "up"), (1, "down")):
            sel = (tier_dir == t) & (np.arange(len(util)) % 2 == d)
            if not sel.any():
                continue
            u = util[sel]
            used = u[u > 0]
            hist, _ = np.histogram(np.minimum(u, 1.0), bins=edges)
            tiers.append({"tier": name, "direction": direction, "links": int(sel.sum()), "used": int(len(used)),
                          "max": float(used.max()) if len(used) else 0.0,
                          "mean": float(used.mean()) if len(used) else 0.0,
                          "p99": float(np.percentile(used, 99)) if len(used) else 0.0,
                          "histogram": [int(h) for h in hist]})
    order = np.argsort(-util, kind="stable")[:TOP_LINKS]
    top = []
    for ld in order:
        if util[ld] <= 0:
            break
        link = int(ld) // 2
        a, b = int(f.a_dev[link]), int(f.b_dev[link])
        up = ld % 2 == 0
        top.append({"from": devices[a if up else b].name, "to": devices[b if up else a].name,
                    "tier": int(f.tier[link]), "utilisation": float(util[ld])})
    return {"collective": key, "tiers": tiers, "top": top}


# --- workloads --------------------------------------------------------------------------------------

def _check_whole_servers(gpus: int, per_server: int, field_name: str) -> None:
    if gpus % per_server:
        raise SpecError({field_name: [f"{gpus:,} GPUs is not a whole number of {per_server}-GPU servers"]})


class SimulationTimeLimit(Exception):
    """The run went past its time limit (checked at every progress report, between collectives)."""


def simulate(plan: Plan, workload: Any, *, progress: Progress | None = None,
             max_flows: int = DEFAULT_MAX_FLOWS, time_limit_s: float | None = None) -> SimulationResult:
    """Run WORKLOAD (a dict, see workload.py) on the plan. SpecError (field messages) on bad input;
    SimulationTimeLimit once `time_limit_s` has passed (a web run never holds a worker longer)."""
    started = time.perf_counter()
    outer = progress or (lambda stage, percent: None)

    def report(stage: str, percent: int) -> None:
        if time_limit_s is not None and time.perf_counter() - started > time_limit_s:
            raise SimulationTimeLimit(f"the performance model took more than {time_limit_s:g} s")
        outer(stage, percent)

    spec = plan.spec
    domain = scale_up_domain(spec)
    gps = max(1, int(spec.server.gpus))
    job = workload_from_dict(workload, design_gpus=plan.servers * gps, domain=domain, tiers=plan.tiers,
                             gpu_memory_gb=gpu_memory_gb(f"{spec.server.name} {spec.server.sku}"))
    if job.qps is None:  # the design's own NCCL setting (roce/host.py); NCCL's default 1 on InfiniBand
        job = replace(job, qps=1 if spec.infiniband else QPS_PER_CONNECTION)
    notes: list[str] = []
    if not domain.limiting:
        notes.append(f"The server has no published scale-up bandwidth here: it is taken as a {domain.gpus}-GPU "
                     "NVLink server whose scale-up bandwidth does not limit the scale-out collectives "
                     "(scale-up collectives count their latency only).")
    if spec.infiniband:
        notes.append("InfiniBand: the subnet manager's routing is modelled as the chosen routing mode.")
    report("simulating", 2)
    healthy = FabricModel(plan)
    if isinstance(job, CollectiveJob):
        result = _simulate_collective(healthy, job, domain, gps, max_flows, report, notes)
    else:
        result = _simulate_training(healthy, job, domain, gps, max_flows, report, notes, spec)
    result.seconds = round(time.perf_counter() - started, 3)
    report("simulating", 100)
    return result


def _simulate_collective(model, job: CollectiveJob, domain, gps, max_flows, report, notes) -> SimulationResult:
    _check_whole_servers(job.ranks, gps, "ranks")
    pl = place(model, job.ranks, gps, job.placement, job.seed, domain.servers)
    groups = np.arange(job.ranks, dtype=np.int64)[None, :]

    def once(m: FabricModel, keep: bool = False):
        return run_collective(m, pl, key=job.collective, collective=job.collective, size=job.bytes, groups=groups,
                              calls=1, routing=job.routing, algorithm=job.algorithm, domain=domain,
                              gpus_per_server=gps, seed=job.seed, max_flows=max_flows, keep_phase=keep,
                              hop_latency=job.hop_latency, qps=job.qps)

    head, phase = once(model, True)
    report("simulating", 50)
    table = size_table(head, job.sizes, servers=pl.servers, gpus_per_server=gps, algorithm=job.algorithm)
    scenarios = []
    for i, failure in enumerate(job.failures):
        fm = FabricModel(model.plan, failure)
        r = once(fm)
        scenarios.append(Scenario(failure=failure, device=fm.failure.device, collectives=[r], step=None,
                                  unroutable=r.unroutable))
        report("simulating", 50 + 45 * (i + 1) // len(job.failures))
    if head.sampled:
        notes.append(f"{head.collective}: flows sampled ({head.sampled}).")
    workload = {"collective": job.collective, "bytes": job.bytes, "ranks": job.ranks, "routing": job.routing,
                "algorithm": job.algorithm, "placement": job.placement, "seed": job.seed,
                "failures": list(job.failures), "switch_latency_ns": job.switch_latency_ns,
                "nic_latency_ns": job.nic_latency_ns}
    return SimulationResult(kind="collective", workload=workload, gpus=job.ranks, servers=pl.servers,
                            routing=job.routing, scale_up=_domain_dict(domain), collectives=[head], step=None,
                            tables={head.key: table}, links=link_summary(model, phase, head.bandwidth_s, head.key),
                            scenarios=scenarios, notes=notes)


def _step(job: TrainingJob, collectives: list[CollectiveResult], overlappable: set[str], tflops: float | None
          ) -> StepResult:
    """compute = FLOPs / (GPUs x peak x compute efficiency): the efficiency while computing (`mfu` input), not a
    measured end-to-end MFU, which already includes communication and bubbles and would count them twice.
    Exposed = TP / CP / PP / EP time on the critical path (EP, and PP under DualPipe, less the `ep_overlap` share
    hidden behind compute, as DualPipe does) + the DP time beyond `overlap` x compute. Pipeline bubble
    (Megatron-LM, Narayanan et al. 2021): (PP - 1) / (v m) of the per-stage time (compute and critical
    communication) for 1F1B (v = 1) and the interleaved schedule with v virtual stages per GPU, m micro-batches;
    DualPipe: (PP/2 - 1) x 2/3 / m (DeepSeek-V3 report, Table 2, as the code states). The achieved MFU is FLOPs /
    (GPUs x peak x step)."""
    p = job.parallelism
    m = job.model
    tokens = job.global_batch * job.seq_len
    flops = 6 * m.active_params_b * 1e9 * tokens + 12 * m.layers * m.hidden * job.seq_len * tokens
    compute = flops / (p.gpus * tflops * 1e12 * job.mfu) if tflops else None
    comm = sum(c.step_s for c in collectives)
    hideable = sum(c.step_s for c in collectives if c.key in overlappable)
    # DualPipe hides "both all-to-all and PP communication" behind the paired chunk (DeepSeek-V3 report, 3.2.1)
    behind = ("ep", "pp") if job.pp_schedule == "dualpipe" else ("ep",)
    expert = sum(c.step_s for c in collectives if c.parallelism in behind)
    critical = comm - hideable
    if compute is not None:
        hidden_ep = min(job.ep_overlap * expert, compute)
        critical -= hidden_ep
    micro_batches = max(1, job.global_batch // (p.dp * job.micro_batch))
    if p.pp < 2:
        bubble_share = 0.0
    elif job.pp_schedule == "dualpipe":
        # (PP/2 - 1)(F&B + B - 3W) (DeepSeek-V3 report, Table 2) with a micro-batch's stage time F + B, B = 2F
        # and W = F (the weight half of the backward): F&B = F + B with the communication hidden, so the
        # bubble is (PP/2 - 1) x 2F = (PP/2 - 1) x 2/3 of a micro-batch's stage time
        bubble_share = (p.pp / 2 - 1) * (2 / 3) / micro_batches
    else:
        bubble_share = (p.pp - 1) / (job.virtual_stages * micro_batches)
    per_stage = (compute or 0.0) + critical
    bubble = per_stage * bubble_share
    exposed = critical + (max(0.0, hideable - job.overlap * compute) if compute is not None else hideable)
    step = compute + exposed + bubble if compute is not None else None
    achieved = flops / (p.gpus * tflops * 1e12 * step) if step and tflops else None
    return StepResult(
        comm_s=comm, exposed_s=exposed, compute_s=compute, step_s=step,
        comm_share=exposed / step if step else None,
        scale_up_s=sum(c.step_s for c in collectives if c.network == "scale-up"),
        scale_out_s=sum(c.step_s for c in collectives if c.network == "scale-out"),
        overlappable_s=hideable, overlap=job.overlap, flops=flops, tokens=tokens, bubble_s=bubble,
        bubble_share=bubble_share, mfu=achieved, micro_batches=micro_batches)


def _run_step(model, job, pl, domain, gps, max_flows, steps: list[StepCollective], keep: bool = False,
              report=None, span=(0, 100)):
    results, phases, cache = [], {}, {}
    for i, c in enumerate(steps):
        out = run_collective(model, pl, key=c.key, collective=c.collective, size=c.bytes, groups=c.groups,
                             calls=c.calls, routing=job.routing, algorithm="auto", domain=domain,
                             gpus_per_server=gps, parallelism=c.parallelism, seed=job.seed, max_flows=max_flows,
                             keep_phase=True, hop_latency=job.hop_latency, qps=job.qps, cache=cache,
                             dispatch=c.dispatch)
        results.append(out[0])
        phases[c.key] = out[1]
        if report is not None:
            report("simulating", span[0] + (span[1] - span[0]) * (i + 1) // len(steps))
    return (results, phases) if keep else results


def _simulate_training(model, job: TrainingJob, domain, gps, max_flows, report, notes, spec) -> SimulationResult:
    p = job.parallelism
    _check_whole_servers(p.gpus, gps, "dp")
    pl = place(model, p.gpus, gps, job.placement, job.seed, domain.servers)
    tflops = job.gpu_tflops or gpu_peak_tflops(f"{spec.server.name} {spec.server.sku}", job.precision)
    if tflops is None:
        notes.append("No published peak throughput for this server's GPU: enter gpu_tflops to get the compute "
                     "time, the step time and the communication share.")
    steps = step_collectives(job)
    overlappable = {c.key for c in steps if c.overlappable}
    span = (5, 60 if job.failures else 95)
    results, phases = _run_step(model, job, pl, domain, gps, max_flows, steps, keep=True, report=report, span=span)
    step = _step(job, results, overlappable, tflops)
    out_side = [r for r in results if r.network == "scale-out"]
    head = max(out_side, key=lambda r: r.step_s) if out_side else None
    links = link_summary(model, phases.get(head.key) if head else None, head.bandwidth_s if head else 0.0,
                         head.key if head else "")
    tables = {r.key: size_table(r, _sizes_around(r.bytes), servers=max(1, r.ranks // max(1, r.ranks // gps)),
                                gpus_per_server=gps, algorithm="auto") for r in results}
    for r in results:
        if r.sampled:
            notes.append(f"{r.key}: flows sampled ({r.sampled}).")
    scenarios = []
    for i, failure in enumerate(job.failures):
        fm = FabricModel(model.plan, failure)
        rs = _run_step(fm, job, pl, domain, gps, max_flows, steps, report=lambda stage, percent: report(stage, 60))
        scenarios.append(Scenario(failure=failure, device=fm.failure.device, collectives=rs,
                                  step=_step(job, rs, overlappable, tflops), unroutable=sum(r.unroutable for r in rs)))
        report("simulating", 60 + 35 * (i + 1) // len(job.failures))
    workload = {"model": job.model.key, "model_name": job.model.name, "model_source": job.model.source,
                "seq_len": job.seq_len, "global_batch": job.global_batch, "micro_batch": job.micro_batch,
                "precision": job.precision, "zero": job.zero, "routing": job.routing, "mfu": job.mfu,
                "gpu_tflops": tflops, "overlap": job.overlap, "placement": job.placement, "seed": job.seed,
                "failures": list(job.failures), "switch_latency_ns": job.switch_latency_ns,
                "nic_latency_ns": job.nic_latency_ns, "pp_schedule": job.pp_schedule,
                "virtual_stages": job.virtual_stages, "ep_overlap": job.ep_overlap, "qps_per_connection": job.qps,
                "ep_node_limit": job.ep_node_limit,
                "tp": p.tp, "pp": p.pp, "dp": p.dp, "cp": p.cp, "ep": p.ep,
                "gpus": p.gpus, "defaults": list(job.defaults)}
    return SimulationResult(kind="training", workload=workload, gpus=p.gpus, servers=pl.servers, routing=job.routing,
                            scale_up=_domain_dict(domain), collectives=results, step=step, tables=tables,
                            links=links, scenarios=scenarios, notes=notes)


def _sizes_around(size: int) -> tuple[int, ...]:
    """Powers of 4 from 1 MiB up to and including the collective's own size class."""
    top = max(20, int(np.ceil(np.log2(max(size, 1)))) + 2)
    return tuple(1 << k for k in range(20, top + 1, 2))


def _domain_dict(domain: ScaleUpDomain) -> dict[str, Any]:
    return {"gpus": domain.gpus, "gbps_per_gpu": domain.gbps_per_gpu, "interconnect": domain.interconnect,
            "limiting": domain.limiting}


# --- alternatives -----------------------------------------------------------------------------------

def simulate_alternatives(spec: DesignSpec, workload: Any, *, max_flows: int = DEFAULT_MAX_FLOWS,
                          progress: Progress | None = None) -> list[dict[str, Any]]:
    """The same workload (no failures) on the 2-tier, 3-tier and multi-plane structures of the request."""
    from ..plan import plan as plan_spec

    report = progress or (lambda stage, percent: None)
    rails = spec.server.nic_ports
    options = [(1, 2), (1, 3)] + [(p, "auto") for p in range(2, rails + 1) if rails % p == 0]
    work = dict(workload)
    work.pop("failures", None)
    rows, seen = [], set()
    for i, (planes, tiers) in enumerate(options):
        variant = replace(spec, planes=planes, tiers=tiers)
        try:
            p = plan_spec(variant)
        except InfeasibleSpec as exc:
            rows.append({"planes": planes, "tiers": tiers, "feasible": False, "reason": str(exc)})
            continue
        if (p.planes, p.tiers) in seen:
            continue
        seen.add((p.planes, p.tiers))
        r = simulate(p, work, max_flows=max_flows)
        rows.append({"planes": p.planes, "tiers": p.tiers, "feasible": True, "current":
                     p.planes == spec.planes and (spec.tiers in ("auto", p.tiers)),
                     "total_cost": p.total_cost, "currency": p.currency,
                     "step": asdict(r.step) if r.step else None,
                     "collectives": [asdict(c) for c in r.collectives]})
        report("alternatives", 100 * (i + 1) // len(options))
    return rows
