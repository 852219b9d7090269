"""Traffic analysis of a planned fabric: collectives routed by ECMP and by hash-aware source ports.

Load model: every NIC offers its line rate, split equally over the flows it sources; a link
direction's load is the sum of its flows' demands and its utilisation is load / capacity.
A flow on a link above 100 % gets its fair share there, so it runs at 1 / (utilisation of
the most loaded link on its path). A collective ends with its slowest flow, so the
effective bandwidth (fraction of NIC line rate) is 1 / max(1, most loaded link on any
path); the mean flow bandwidth averages 1 / max(1, bottleneck) over flows.
Fabric statistics (histogram, mean, p99, worst/mean) are over the switch-to-switch link
directions that carry traffic; per-hop statistics also cover the NIC links.

What the summary leads with: the worst link over the mean of its hop and the p99 link load.
The share of flows sharing a link ("collision share") only means something where a hop has
no more flows than link directions; where flows outnumber links it is 1.0 by pigeonhole and
is reported as None in the rows (`StrategyResult.shown_collision_share`).

Placement: Ring All-Reduce is analysed twice, with the servers in plan order and in a
scheduler's order (the job's servers in a seeded random order, seed = the analysis seed,
stored as `PatternReport.placement_seed`). The headline (`PatternReport.strategies`) is the
scheduler placement, `PatternReport.placement` says so, and the plan-order run is kept in
`other_placements`. All-to-All sends every server to every other, so placement does not
change it: it is analysed once, in plan order.

Time: the bandwidth term (`estimated_ms`, the message at effective bandwidth) plus the
latency term (`latency_ms`, NCCL's sum of a base, NVLink steps and network steps, the performance
model's figure; latency.py states the rule and its
sources) gives `total_ms`. Reports stored before these fields existed read them as None.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from ..model import Plan
from ..roce.host import QPS_PER_CONNECTION
from .fabric import HOP_DOWN, HOP_TIER, HOPS, STRATEGIES, Fabric, Routes
from .maxmin import phase_time
from .latency import (MAX_LATENCY_NS, NCCL_RING_STEP_US, PathLatency, collective_latency_us, nccl_note, path_latency,
                      ring_steps)
from .patterns import FlowSet, all_to_all, ring_all_reduce, scheduler_order, servers_per_domain
from .reference import collision_share

PATTERNS = ("all-reduce", "all-to-all")
PLACEMENTS = ("plan", "scheduler")
HEADLINE_PLACEMENT = "scheduler"  # a job's ranks rarely sit in plan order
DEFAULT_MAX_FLOWS = 1_000_000
MIN_MAX_FLOWS = 1_000
DEFAULT_MESSAGE_BYTES = 1 << 30
HISTOGRAM_BINS = 20
OVER = 1.0 + 1e-9

ASSUMPTIONS = (
    "Every NIC offers its line rate; flows share links max-min fairly, as in the performance model; a ring channel "
    "moves at the rate of its slowest queue pair's link, and a collective ends with its slowest flow.",
    "ECMP: every switch hashes the RoCE v2 5-tuple (source IP, destination IP, UDP, random source port "
    "49152-65535, 4791) with CRC-32 and a per-switch seed, modulo its equal-cost next hops.",
    "Hash-aware: the sender picks source ports whose hashes place its flows round-robin over each switch's "
    "next hops, in an order rotated by destination (ideal topology-aware collective library).",
    "GPU i of a server uses NIC port i x ports / GPUs; All-to-All sends to other rails through the NVLink peer "
    "on the destination rail (PXN), so network flows stay on one rail; traffic inside a server stays on NVLink.",
    "Ring All-Reduce: rings in rank order, one per rail, over the job's servers in a seeded random order as a "
    "scheduler would place them (the headline) and in plan order; each hop on NCCL's 2 channels per NIC x "
    "qps_per_connection queue pairs (the design's NCCL_IB_QPS_PER_CONNECTION unless entered), each its own flow.",
    "Time = message bytes per NIC / effective bandwidth + NCCL's latency term, as the performance model sums it "
    "(NCCL 2.30.7's tuning model: a base, NVLink steps and network steps; 2 (N - 1) network steps for a ring over "
    "N servers, one for All-to-All); NCCL may pick Tree, NVLS or CollNet instead of a ring.",
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

    @property
    def flows_outnumber_links(self) -> bool:
        """More flows than link directions: some flows must share, the collision share says nothing."""
        return self.flows > self.links


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
    estimated_ms: float  # bandwidth term: PatternReport.message_bytes at effective_bandwidth
    hops: tuple[HopStats, ...]
    placement: str = "plan"  # "plan" or "scheduler": the server order of the ring
    # latency term (latency.py); None in reports stored before it existed
    latency_steps: int | None = None
    step_latency_us: float | None = None
    step_switches: int | None = None  # switches on the longest path of a step
    step_metres: float | None = None  # cable on that path
    latency_basis: str = ""  # "hops" (switch and NIC latencies given) or "nccl-model"; "" not computed
    latency_ms: float | None = None
    total_ms: float | None = None  # estimated_ms + latency_ms

    @property
    def flows_outnumber_links(self) -> bool:
        """Some switch-to-switch hop carries more flows than it has link directions."""
        return any(h.tier >= 1 and h.flows_outnumber_links for h in self.hops)

    @property
    def shown_collision_share(self) -> float | None:
        """The collision share where it tells something (flows do not outnumber links), else None."""
        return None if self.flows_outnumber_links else self.collision_share


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
    strategies: dict[str, StrategyResult]  # the headline placement
    notes: tuple[str, ...] = ()
    placement: str = "plan"  # placement of `strategies`; reports stored before placements were added: "plan"
    placement_seed: int | None = None  # seed of the scheduler order (None: not computed)
    other_placements: dict[str, dict[str, StrategyResult]] = field(default_factory=dict)

    def runs(self) -> list[tuple[str, dict[str, StrategyResult]]]:
        """(placement, strategies) with the headline first."""
        return [(self.placement, self.strategies), *self.other_placements.items()]


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
    switch_latency_ns: float | None = None  # analysis parameters of the latency term (None: not given)
    nic_latency_ns: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (tuples become lists); `TrafficReport.from_dict` reverses it."""
        return asdict(self)

    def summary_rows(self) -> list[dict[str, Any]]:
        """One row per collective, placement and strategy (headline placement first), keys in sheet column
        order: link-load spread first; collision_share None where flows outnumber links."""
        rows = []
        for p in self.patterns.values():
            for placement, strategies in p.runs():
                for r in strategies.values():
                    rows.append({
                        "pattern": p.pattern, "placement": placement, "headline": placement == p.placement,
                        "strategy": r.strategy, "flows": p.flows, "flows_total": p.flows_total,
                        "sampled": p.sampled, "worst_over_mean": r.worst_over_mean, "p99_util": r.p99_util,
                        "max_util": r.max_util, "mean_util": r.mean_util,
                        "effective_bandwidth": r.effective_bandwidth, "mean_flow_bandwidth": r.mean_flow_bandwidth,
                        "oversubscribed_share": r.oversubscribed_share,
                        "flows_outnumber_links": r.flows_outnumber_links, "collision_share": r.shown_collision_share,
                        "links_used": r.links_used, "estimated_ms": r.estimated_ms, "latency_steps": r.latency_steps,
                        "step_latency_us": r.step_latency_us, "latency_ms": r.latency_ms, "total_ms": r.total_ms,
                    })
        return rows

    def hop_rows(self) -> list[dict[str, Any]]:
        """One row per collective, placement, strategy and hop of the up-down path; collision shares None
        where the hop's flows outnumber its links."""
        rows = []
        for p in self.patterns.values():
            for placement, strategies in p.runs():
                for r in strategies.values():
                    for h in r.hops:
                        row = {"pattern": p.pattern, "placement": placement, "strategy": r.strategy, **asdict(h),
                               "flows_outnumber_links": h.flows_outnumber_links}
                        if h.flows_outnumber_links:
                            row["collision_share"] = row["expected_collision_share"] = None
                        rows.append(row)
        return rows

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TrafficReport":
        def results(stored: dict[str, Any]) -> dict[str, StrategyResult]:
            return {sname: StrategyResult(**{**s, "histogram": tuple(s["histogram"]),
                                             "hops": tuple(HopStats(**h) for h in s["hops"])})
                    for sname, s in stored.items()}

        patterns = {}
        for name, p in data["patterns"].items():
            others = {k: results(v) for k, v in (p.get("other_placements") or {}).items()}
            patterns[name] = PatternReport(**{**p, "bin_edges": tuple(p["bin_edges"]),
                                              "strategies": results(p["strategies"]),
                                              "notes": tuple(p.get("notes", ())), "other_placements": others})
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
            message_bytes: int = DEFAULT_MESSAGE_BYTES, qps_per_connection: int | None = None,
            switch_latency_ns: float | None = None, nic_latency_ns: float | None = None,
            progress: Callable[[str, int], None] | None = None) -> TrafficReport:
    """Route the collectives over the plan's fabric with both strategies and summarise link loads.

    pattern: "all-reduce", "all-to-all" or "both". Flows above `max_flows` are sampled (said so
    in the result). `qps_per_connection` queue pairs (flows) per GPU-to-GPU connection
    (NCCL_IB_QPS_PER_CONNECTION; None: the design's own setting, roce/host.py). `switch_latency_ns` (port to port) and `nic_latency_ns` (one
    NIC end) give the per-step latency from the hops of the paths; without both, NCCL's own
    per-step figure is used (latency.py). `progress(stage, percent)` is called after each
    routing. Deterministic for a given seed.
    """
    started = time.perf_counter()
    names = PATTERNS if pattern == "both" else (pattern,)
    if any(n not in PATTERNS for n in names):
        raise ValueError(f"pattern must be one of {PATTERNS + ('both',)}")
    if int(max_flows) < MIN_MAX_FLOWS:
        raise ValueError(f"max_flows must be at least {MIN_MAX_FLOWS}")
    if int(message_bytes) <= 0:
        raise ValueError("message_bytes must be positive")
    if qps_per_connection is None:  # the design's own NCCL setting (roce/host.py); NCCL's default 1 on InfiniBand
        qps_per_connection = 1 if plan.spec.infiniband else QPS_PER_CONNECTION
    if not 1 <= int(qps_per_connection) <= 64:
        raise ValueError("qps_per_connection must be between 1 and 64")
    for label, value in (("switch_latency_ns", switch_latency_ns), ("nic_latency_ns", nic_latency_ns)):
        if value is not None and not 0 <= float(value) <= MAX_LATENCY_NS:
            raise ValueError(f"{label} must be between 0 and {MAX_LATENCY_NS}")
    switch_ns = None if switch_latency_ns is None else float(switch_latency_ns)
    nic_ns = None if nic_latency_ns is None else float(nic_latency_ns)
    fabric = Fabric(plan)
    length_m = np.asarray(plan.links.length_m, dtype=np.float64)
    runs = {name: (HEADLINE_PLACEMENT, "plan") if name == "all-reduce" else ("plan",) for name in names}
    steps = sum(len(r) for r in runs.values()) * len(STRATEGIES)
    done = 0
    reports = {}
    for name in names:
        placements: dict[str, tuple[FlowSet, dict[str, tuple[LinkLoads, _FlowSummary]]]] = {}
        for placement in runs[name]:
            rng = np.random.default_rng([seed, PATTERNS.index(name)])
            if name == "all-reduce":
                order = (scheduler_order(fabric.servers, seed, servers_per_domain(fabric)) if placement == "scheduler"
                         else None)
                flowset = ring_all_reduce(fabric, max_flows=int(max_flows), rng=rng, qps=int(qps_per_connection),
                                          order=order)
            else:
                flowset = all_to_all(fabric, max_flows=int(max_flows), rng=rng, qps=int(qps_per_connection))
            demand = fabric.nic_gbps / flowset.flows_per_nic if flowset.flows_per_nic else 0.0
            results: dict[str, tuple[LinkLoads, _FlowSummary]] = {}
            for strategy in STRATEGIES:
                routes = fabric.route(flowset.src, flowset.dst, strategy=strategy, seed=seed)
                loads = link_loads(fabric, routes, demand)
                # summarise the per-flow paths now so only one strategy's paths are held at a time
                summary = _flow_summary(routes, loads, length_m, switch_ns, nic_ns)
                if flowset.flow_of is not None and len(flowset.src):
                    summary.effective_bandwidth = coupled_effective_bandwidth(fabric, routes, flowset.flow_of,
                                                                              flowset.share)
                results[strategy] = (loads, summary)
                del routes
                done += 1
                if progress:
                    progress(f"traffic {name} {placement} {strategy}", int(100 * done / steps))
            placements[placement] = (flowset, results)
        reports[name] = _pattern_report(fabric, name, placements, int(message_bytes), seed, switch_ns, nic_ns,
                                        plan.gpus)
    return TrafficReport(gpus=plan.gpus, servers=fabric.servers, rails=fabric.nic_ports, tiers=plan.tiers,
                         line_gbps=fabric.nic_gbps, seed=seed, max_flows=int(max_flows),
                         qps_per_connection=int(qps_per_connection),
                         seconds=round(time.perf_counter() - started, 3), patterns=reports,
                         switch_latency_ns=switch_ns, nic_latency_ns=nic_ns)


def _pattern_report(fabric: Fabric, name: str,
                    placements: dict[str, tuple[FlowSet, dict[str, tuple[LinkLoads, "_FlowSummary"]]]],
                    message_bytes: int, seed: int, switch_ns: float | None, nic_ns: float | None,
                    gpus: int) -> PatternReport:
    fabric_dirs = np.repeat(fabric.tier >= 1, 2)
    top = 1.0
    for _, results in placements.values():
        for loads, _ in results.values():
            used = fabric_dirs & (loads.flows > 0)
            if used.any():
                top = max(top, float(loads.util[used].max()))
    top = float(np.ceil(top * 10 - 1e-9) / 10)
    edges = np.linspace(0.0, top, HISTOGRAM_BINS + 1)
    headline = next(iter(placements))
    flowset = placements[headline][0]
    nic_bytes = flowset.nic_bytes_per_message * message_bytes
    steps = ring_steps(name, fabric.servers) if len(flowset.src) else 0
    runs: dict[str, dict[str, StrategyResult]] = {}
    unroutable = 0
    for placement, (placed, results) in placements.items():
        runs[placement] = {}
        for strategy, (loads, flows) in results.items():
            latency_us = collective_latency_us(name, gpus=gpus, servers=fabric.servers,
                                               step_us=flows.path.step_us if flows.path.basis == "hops" else None)
            runs[placement][strategy] = _strategy_result(fabric, strategy, placement, loads, flows, edges, nic_bytes,
                                                         steps, latency_us if steps else 0.0)
            unroutable = max(unroutable, flows.unroutable)
    notes = []
    if flowset.sampled:
        notes.append(f"Sampled: {flowset.sample_method}.")
        if flowset.pattern == "all-to-all":
            notes.append("With fewer flows per link than the full collective, random ECMP looks less even than it "
                         "would with every flow: the ECMP spread shown is pessimistic.")
    if not len(flowset.src):
        notes.append("No network traffic: the collective stays inside one server." if servers_per_domain(fabric) == 1
                     else "No network traffic: the collective stays inside one scale-up domain (NVLink).")
    if unroutable:
        notes.append(f"{unroutable} flows found no path through the fabric.")
    if not fabric.full_mesh:
        notes.append("Some spines do not reach every leaf of their pod; routing assumed they do.")
    if "scheduler" in placements:
        notes.append(f"Headline: the scheduler placement, the job's {fabric.servers} servers in a random order "
                     f"(seed {seed}); plan order is shown beside it.")
    aware = runs.get("scheduler", {}).get("hash-aware")
    if aware is not None and aware.effective_bandwidth < 1.0 and aware.oversubscribed_share > 0:
        notes.append("Hash-aware ports are modelled per switch (round robin by destination); for a random placement "
                     "that still shares some links, so a library that assigns ports for the whole ring could do "
                     "better than shown.")
    if steps:
        if switch_ns is not None and nic_ns is not None:
            notes.append(f"Per-step latency = 2 x {nic_ns:g} ns (NIC send and receive) + switches x {switch_ns:g} ns "
                         "+ 5 ns per metre of cable, on the longest path of a step.")
        else:
            notes.append(f"Per-step latency {NCCL_RING_STEP_US:g} us: what NCCL 2.30.7's tuning model charges a "
                         "network step (Ring, Simple protocol); no switch or NIC latency was entered (the vendors' "
                         "data sheets checked publish none).")
        notes.append("Latency term as NCCL's tuning model sums it, the performance model's figure: 8.4 us + NVLink "
                     "steps x 3.4 us + network steps x the per-step latency for a ring (Simple protocol); 8.4 us + one "
                     "network step for All-to-All.")
    headline_ecmp = runs[headline].get("ecmp")
    if headline_ecmp is not None and headline_ecmp.latency_ms is not None and headline_ecmp.total_ms:
        note = nccl_note(name, fabric.servers, headline_ecmp.latency_ms, headline_ecmp.total_ms)
        if note:
            notes.append(note)
    return PatternReport(pattern=flowset.pattern, description=flowset.description, flows_total=flowset.flows_total,
                         flows=int(len(flowset.src)), sampled=flowset.sampled, sample_method=flowset.sample_method,
                         flow_gbps=float(fabric.nic_gbps / flowset.flows_per_nic if flowset.flows_per_nic else 0.0),
                         message_bytes=message_bytes, nic_bytes=float(nic_bytes), unroutable=unroutable,
                         bin_edges=tuple(float(e) for e in edges), strategies=runs[headline], notes=tuple(notes),
                         placement=headline, placement_seed=seed if "scheduler" in placements else None,
                         other_placements={k: v for k, v in runs.items() if k != headline})


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
    path: PathLatency


def _flow_summary(routes: Routes, loads: LinkLoads, length_m: np.ndarray, switch_ns: float | None,
                  nic_ns: float | None) -> _FlowSummary:
    """What the flows see of the loads: their bottleneck, whether they share a fabric link, the longest path."""
    hops = routes.hops
    routed = routes.routed
    unroutable = int((~routed).sum())
    path = path_latency(hops, routed, length_m, switch_ns=switch_ns, nic_ns=nic_ns)
    if not hops.shape[1] or not routed.any():
        return _FlowSummary(0.0, 0.0, 1.0, 1.0, unroutable, path)
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
        path=path,
    )


def coupled_effective_bandwidth(fabric: Fabric, routes: Routes, flow_of: np.ndarray, share: np.ndarray) -> float:
    """Ring channels (rings.py) timed by max-min fair sharing on the fabric (maxmin.py, the performance
    model's timing), over the same channels with only the NIC links limiting: the share of line rate the
    collective runs at. A ring channel moves at the rate of its slowest queue pair's link."""
    hops, routed = routes.hops, routes.routed
    n_flows = int(flow_of.max()) + 1
    ok = np.bincount(flow_of[~routed], minlength=n_flows) == 0
    valid = (hops >= 0) & routed[None, :]
    sub = np.broadcast_to(np.arange(hops.shape[1], dtype=np.int64)[None, :], hops.shape)[valid]
    link = hops[valid].astype(np.int64)
    flow, coef = flow_of[sub], share[sub]
    flow_bytes = np.where(ok, 1e9, 0.0)
    real = phase_time(flow, link, coef, fabric.capacity_dir, flow_bytes).seconds
    nic_only = np.where(np.repeat(fabric.tier == 0, 2), fabric.capacity_dir, np.inf)
    ideal = phase_time(flow, link, coef, nic_only, flow_bytes).seconds
    return float(min(1.0, ideal / real)) if real > 0 else 1.0


def _strategy_result(fabric: Fabric, strategy: str, placement: str, loads: LinkLoads, flows: _FlowSummary,
                     edges: np.ndarray, nic_bytes: float, steps: int, latency_us: float) -> StrategyResult:
    fabric_dirs = np.repeat(fabric.tier >= 1, 2)
    used = fabric_dirs & (loads.flows > 0)
    mean, p99, worst, _ = _summary(loads.util[used])
    histogram, _ = np.histogram(np.minimum(loads.util[used], edges[-1]), bins=edges)
    effective = flows.effective_bandwidth
    seconds = nic_bytes * 8 / (fabric.nic_gbps * 1e9 * effective) if fabric.nic_gbps else 0.0
    hop_stats = tuple(_hop_stats(fabric, strategy, h, loads) for h in range(len(HOPS)))
    # imbalance is judged within a hop: tiers carry different shares of the traffic by design
    worst_over_mean = max((hs.worst_over_mean for hs in hop_stats if hs.tier >= 1 and hs.used), default=1.0)
    path = flows.path
    latency_ms = latency_us / 1e3
    return StrategyResult(strategy=strategy, histogram=tuple(int(c) for c in histogram), links_used=int(used.sum()),
                          mean_util=mean, p99_util=p99, max_util=worst, worst_over_mean=worst_over_mean,
                          collision_share=flows.collision_share, oversubscribed_share=flows.oversubscribed_share,
                          effective_bandwidth=effective, mean_flow_bandwidth=flows.mean_flow_bandwidth,
                          estimated_ms=seconds * 1e3, hops=hop_stats, placement=placement, latency_steps=steps,
                          step_latency_us=path.step_us if steps else 0.0, step_switches=path.switches,
                          step_metres=path.metres, latency_basis=path.basis, latency_ms=latency_ms,
                          total_ms=seconds * 1e3 + latency_ms)


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
