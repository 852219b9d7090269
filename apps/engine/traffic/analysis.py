"""Traffic analysis of a planned fabric: collectives routed by ECMP and by hash-aware source ports.

Load model: every NIC offers its line rate, split equally over the flows it sources; a link
direction's load is the sum of its flows' demands and its utilisation is load / capacity.
A flow on a link above 100 % gets its fair share there, so it runs at 1 / (utilisation of
the most loaded link on its path). A collective ends with its slowest flow, so the
effective bandwidth (fraction of NIC line rate) is 1 / max(1, most loaded link on any
path); the mean flow bandwidth averages 1 / max(1, bottleneck) over flows.
Fabric statistics (histogram, mean, p99, worst/mean) are over the switch-to-switch link
directions that carry traffic; per-hop statistics also cover the NIC links.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from ..model import Plan
from .fabric import HOP_DOWN, HOP_TIER, HOPS, STRATEGIES, Fabric, Routes
from .patterns import FlowSet, all_to_all, ring_all_reduce
from .reference import collision_share

PATTERNS = ("all-reduce", "all-to-all")
DEFAULT_MAX_FLOWS = 1_000_000
MIN_MAX_FLOWS = 1_000
DEFAULT_MESSAGE_BYTES = 1 << 30
HISTOGRAM_BINS = 20
OVER = 1.0 + 1e-9

ASSUMPTIONS = (
    "Every NIC offers its line rate, shared equally by the flows it sources; a flow on an overloaded link gets "
    "its fair share there, and a collective ends with its slowest flow.",
    "ECMP: every switch hashes the RoCE v2 5-tuple (source IP, destination IP, UDP, random source port "
    "49152-65535, 4791) with CRC-32 and a per-switch seed, modulo its equal-cost next hops.",
    "Hash-aware: the sender picks source ports whose hashes place its flows round-robin over each switch's "
    "next hops, in an order rotated by destination (ideal topology-aware collective library).",
    "GPU i of a server uses NIC port i x ports / GPUs; All-to-All sends to other rails through the NVLink peer "
    "on the destination rail (PXN), so network flows stay on one rail; traffic inside a server stays on NVLink.",
    "Ring All-Reduce: one ring per rail over the servers in plan order; each connection uses "
    "qps_per_connection queue pairs, each its own flow.",
)


@dataclass(frozen=True, slots=True)
class HopStats:
    """Load on one hop of the up-down path (e.g. "leaf-spine up": leaf uplinks)."""

    hop: str
    tier: int
    direction: str  # "up" or "down"
    links: int  # link directions of this kind in the fabric
    used: int
    flows: int  # flows crossing this hop
    mean_util: float  # over used link directions, load / capacity
    p99_util: float
    max_util: float
    worst_over_mean: float
    collision_share: float  # flows sharing their link direction with another flow
    expected_collision_share: float | None  # random-ECMP closed form for this hop's choices (ECMP only)


@dataclass(frozen=True, slots=True)
class StrategyResult:
    strategy: str  # "ecmp" or "hash-aware"
    histogram: tuple[int, ...]  # used fabric link directions per utilisation bin (PatternReport.bin_edges)
    links_used: int
    mean_util: float
    p99_util: float
    max_util: float
    worst_over_mean: float
    collision_share: float  # flows sharing a switch-to-switch link direction with another flow
    oversubscribed_share: float  # flows crossing a link direction loaded above its capacity
    effective_bandwidth: float  # fraction of line rate the collective runs at (its slowest flow)
    mean_flow_bandwidth: float
    estimated_ms: float  # time for PatternReport.message_bytes at effective_bandwidth
    hops: tuple[HopStats, ...]


@dataclass(frozen=True, slots=True)
class PatternReport:
    pattern: str  # "all-reduce" or "all-to-all"
    description: str
    flows_total: int  # flows of the whole collective
    flows: int  # flows analysed
    sampled: bool
    sample_method: str  # how the sample was drawn, "" when not sampled
    flow_gbps: float  # demand of one flow
    message_bytes: int
    nic_bytes: float  # bytes each NIC sends for the message
    unroutable: int
    bin_edges: tuple[float, ...]
    strategies: dict[str, StrategyResult]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrafficReport:
    gpus: int
    servers: int
    rails: int  # backend NIC ports per server
    tiers: int
    line_gbps: float
    seed: int
    max_flows: int
    qps_per_connection: int
    seconds: float
    patterns: dict[str, PatternReport]
    assumptions: tuple[str, ...] = ASSUMPTIONS

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (tuples become lists); `TrafficReport.from_dict` reverses it."""
        return asdict(self)

    def summary_rows(self) -> list[dict[str, Any]]:
        """One row per collective and strategy, keys in sheet column order (workbook, tables)."""
        rows = []
        for p in self.patterns.values():
            for r in p.strategies.values():
                rows.append({
                    "pattern": p.pattern, "strategy": r.strategy, "flows": p.flows, "flows_total": p.flows_total,
                    "sampled": p.sampled, "effective_bandwidth": r.effective_bandwidth,
                    "mean_flow_bandwidth": r.mean_flow_bandwidth, "worst_over_mean": r.worst_over_mean,
                    "mean_util": r.mean_util, "p99_util": r.p99_util, "max_util": r.max_util,
                    "oversubscribed_share": r.oversubscribed_share, "collision_share": r.collision_share,
                    "links_used": r.links_used, "estimated_ms": r.estimated_ms,
                })
        return rows

    def hop_rows(self) -> list[dict[str, Any]]:
        """One row per collective, strategy and hop of the up-down path."""
        return [{"pattern": p.pattern, "strategy": r.strategy, **asdict(h)}
                for p in self.patterns.values() for r in p.strategies.values() for h in r.hops]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TrafficReport":
        patterns = {}
        for name, p in data["patterns"].items():
            strategies = {}
            for sname, s in p["strategies"].items():
                hops = tuple(HopStats(**h) for h in s["hops"])
                strategies[sname] = StrategyResult(**{**s, "histogram": tuple(s["histogram"]), "hops": hops})
            patterns[name] = PatternReport(**{**p, "bin_edges": tuple(p["bin_edges"]), "strategies": strategies,
                                              "notes": tuple(p.get("notes", ()))})
        return cls(**{**data, "patterns": patterns, "assumptions": tuple(data.get("assumptions", ASSUMPTIONS))})


@dataclass(slots=True)
class LinkLoads:
    """Per link direction: demand (Gbps), flow count and utilisation."""

    load: np.ndarray
    flows: np.ndarray
    util: np.ndarray = field(default_factory=lambda: np.zeros(0))


def link_loads(fabric: Fabric, routes: Routes, demand: float | np.ndarray) -> LinkLoads:
    size = 2 * fabric.n_links
    hops = routes.hops
    valid = hops >= 0
    ids = hops[valid]
    if np.ndim(demand):
        weights = np.broadcast_to(np.asarray(demand, dtype=np.float64)[None, :], hops.shape)[valid]
    else:
        weights = None
    flows = np.bincount(ids, minlength=size)
    load = np.bincount(ids, weights=weights, minlength=size) if weights is not None else flows * float(demand)
    return LinkLoads(load=load, flows=flows, util=load / fabric.capacity_dir)


def analyze(plan: Plan, *, pattern: str = "both", max_flows: int = DEFAULT_MAX_FLOWS, seed: int = 0,
            message_bytes: int = DEFAULT_MESSAGE_BYTES, qps_per_connection: int = 1,
            progress: Callable[[str, int], None] | None = None) -> TrafficReport:
    """Route the collectives over the plan's fabric with both strategies and summarise link loads.

    pattern: "all-reduce", "all-to-all" or "both". Flows above `max_flows` are sampled (said so
    in the result). `qps_per_connection` queue pairs (flows) per GPU-to-GPU connection
    (NCCL_IB_QPS_PER_CONNECTION). `progress(stage, percent)` is called after each routing.
    Deterministic for a given seed.
    """
    started = time.perf_counter()
    names = PATTERNS if pattern == "both" else (pattern,)
    if any(n not in PATTERNS for n in names):
        raise ValueError(f"pattern must be one of {PATTERNS + ('both',)}")
    if int(max_flows) < MIN_MAX_FLOWS:
        raise ValueError(f"max_flows must be at least {MIN_MAX_FLOWS}")
    if int(message_bytes) <= 0:
        raise ValueError("message_bytes must be positive")
    if not 1 <= int(qps_per_connection) <= 64:
        raise ValueError("qps_per_connection must be between 1 and 64")
    fabric = Fabric(plan)
    reports = {}
    steps = len(names) * len(STRATEGIES)
    done = 0
    for name in names:
        rng = np.random.default_rng([seed, PATTERNS.index(name)])
        make = ring_all_reduce if name == "all-reduce" else all_to_all
        flowset = make(fabric, max_flows=int(max_flows), rng=rng, qps=int(qps_per_connection))
        results: dict[str, tuple[LinkLoads, _FlowSummary]] = {}
        demand = fabric.nic_gbps / flowset.flows_per_nic if flowset.flows_per_nic else 0.0
        for strategy in STRATEGIES:
            routes = fabric.route(flowset.src, flowset.dst, strategy=strategy, seed=seed)
            loads = link_loads(fabric, routes, demand)
            # summarise the per-flow paths now so only one strategy's paths are held at a time
            results[strategy] = (loads, _flow_summary(routes, loads))
            del routes
            done += 1
            if progress:
                progress(f"traffic {name} {strategy}", int(100 * done / steps))
        reports[name] = _pattern_report(fabric, flowset, results, demand, int(message_bytes))
    return TrafficReport(gpus=plan.gpus, servers=fabric.servers, rails=fabric.nic_ports, tiers=plan.tiers,
                         line_gbps=fabric.nic_gbps, seed=seed, max_flows=int(max_flows),
                         qps_per_connection=int(qps_per_connection),
                         seconds=round(time.perf_counter() - started, 3), patterns=reports)


def _pattern_report(fabric: Fabric, flowset: FlowSet, results: dict[str, tuple[LinkLoads, "_FlowSummary"]],
                    demand: float, message_bytes: int) -> PatternReport:
    fabric_dirs = np.repeat(fabric.tier >= 1, 2)
    top = 1.0
    for loads, _ in results.values():
        used = fabric_dirs & (loads.flows > 0)
        if used.any():
            top = max(top, float(loads.util[used].max()))
    top = float(np.ceil(top * 10 - 1e-9) / 10)
    edges = np.linspace(0.0, top, HISTOGRAM_BINS + 1)
    nic_bytes = flowset.nic_bytes_per_message * message_bytes
    strategies = {}
    unroutable = 0
    for strategy, (loads, flows) in results.items():
        strategies[strategy] = _strategy_result(fabric, strategy, loads, flows, edges, nic_bytes)
        unroutable = max(unroutable, flows.unroutable)
    notes = []
    if flowset.sampled:
        notes.append(f"Sampled: {flowset.sample_method}.")
        if flowset.pattern == "all-to-all":
            notes.append("With fewer flows per link than the full collective, random ECMP looks less even than it "
                         "would with every flow: the ECMP spread shown is pessimistic.")
    if not len(flowset.src):
        notes.append("No network traffic: the collective stays inside one server.")
    if unroutable:
        notes.append(f"{unroutable} flows found no path through the fabric.")
    if not fabric.full_mesh:
        notes.append("Some spines do not reach every leaf of their pod; routing assumed they do.")
    return PatternReport(pattern=flowset.pattern, description=flowset.description, flows_total=flowset.flows_total,
                         flows=int(len(flowset.src)), sampled=flowset.sampled, sample_method=flowset.sample_method,
                         flow_gbps=float(demand), message_bytes=message_bytes, nic_bytes=float(nic_bytes),
                         unroutable=unroutable, bin_edges=tuple(float(e) for e in edges), strategies=strategies,
                         notes=tuple(notes))


def _summary(util: np.ndarray) -> tuple[float, float, float, float]:
    if not len(util):
        return 0.0, 0.0, 0.0, 1.0
    mean = float(util.mean())
    return mean, float(np.percentile(util, 99)), float(util.max()), float(util.max() / mean) if mean else 1.0


@dataclass(slots=True)
class _FlowSummary:
    collision_share: float
    oversubscribed_share: float
    effective_bandwidth: float
    mean_flow_bandwidth: float
    unroutable: int


def _flow_summary(routes: Routes, loads: LinkLoads) -> _FlowSummary:
    """What the flows see of the loads: their bottleneck and whether they share a fabric link."""
    hops = routes.hops
    routed = routes.routed
    unroutable = int((~routed).sum())
    if not hops.shape[1] or not routed.any():
        return _FlowSummary(0.0, 0.0, 1.0, 1.0, unroutable)
    # index -1 (no hop) reads the appended zero
    bottleneck = np.append(loads.util, 0.0)[hops].max(axis=0)[routed]
    shared = (np.append(loads.flows, 0)[hops[1:5]] > 1).any(axis=0)[routed]
    counted = len(bottleneck)
    return _FlowSummary(
        collision_share=float(shared.sum() / counted),
        oversubscribed_share=float((bottleneck > OVER).sum() / counted),
        effective_bandwidth=float(1.0 / max(1.0, bottleneck.max())),
        mean_flow_bandwidth=float((1.0 / np.maximum(1.0, bottleneck)).mean()),
        unroutable=unroutable,
    )


def _strategy_result(fabric: Fabric, strategy: str, loads: LinkLoads, flows: _FlowSummary, edges: np.ndarray,
                     nic_bytes: float) -> StrategyResult:
    fabric_dirs = np.repeat(fabric.tier >= 1, 2)
    used = fabric_dirs & (loads.flows > 0)
    mean, p99, worst, _ = _summary(loads.util[used])
    histogram, _ = np.histogram(np.minimum(loads.util[used], edges[-1]), bins=edges)
    effective = flows.effective_bandwidth
    seconds = nic_bytes * 8 / (fabric.nic_gbps * 1e9 * effective) if fabric.nic_gbps else 0.0
    hop_stats = tuple(_hop_stats(fabric, strategy, h, loads) for h in range(len(HOPS)))
    # imbalance is judged within a hop: tiers carry different shares of the traffic by design
    worst_over_mean = max((hs.worst_over_mean for hs in hop_stats if hs.tier >= 1 and hs.used), default=1.0)
    return StrategyResult(strategy=strategy, histogram=tuple(int(c) for c in histogram), links_used=int(used.sum()),
                          mean_util=mean, p99_util=p99, max_util=worst, worst_over_mean=worst_over_mean,
                          collision_share=flows.collision_share, oversubscribed_share=flows.oversubscribed_share,
                          effective_bandwidth=effective, mean_flow_bandwidth=flows.mean_flow_bandwidth,
                          estimated_ms=seconds * 1e3, hops=hop_stats)


def _hop_stats(fabric: Fabric, strategy: str, h: int, loads: LinkLoads) -> HopStats:
    tier, down = HOP_TIER[h], HOP_DOWN[h]
    dirs = 2 * np.flatnonzero(fabric.tier == tier) + int(down)
    flows = loads.flows[dirs]
    used = flows > 0
    mean, p99, worst, wom = _summary(loads.util[dirs][used])
    total = int(flows.sum())
    share = float(flows[flows > 1].sum() / total) if total else 0.0
    expected = None
    if strategy == "ecmp" and h in fabric.choice_groups and total:
        expected = _expected_collisions(fabric, h, loads)
    return HopStats(hop=HOPS[h], tier=tier, direction="down" if down else "up", links=int(len(dirs)),
                    used=int(used.sum()), flows=total, mean_util=mean, p99_util=p99, max_util=worst,
                    worst_over_mean=wom, collision_share=share, expected_collision_share=expected)


def _expected_collisions(fabric: Fabric, h: int, loads: LinkLoads) -> float:
    """Closed-form ECMP collision share of one hop: n flows of a group over its k equal-cost links."""
    dirs, group, size = fabric.choice_groups[h]
    n = np.bincount(group, weights=loads.flows[dirs], minlength=len(size))
    total = n.sum()
    return float((n * collision_share(n, size)).sum() / total) if total else 0.0
