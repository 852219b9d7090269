"""Traffic analysis: collectives routed over a planned fabric with ECMP and hash-aware source ports.

Entry point: `analyze(plan, *, pattern, max_flows, seed, message_bytes) -> TrafficReport`.
`Fabric(plan).route(...)` and `link_loads(...)` are the building blocks; `reference` holds the
closed-form balls-into-bins expectations of random ECMP; `latency` the latency term of a
collective's time, its sources, and the note on the algorithm NCCL would pick.
"""
from .analysis import (
    DEFAULT_MAX_FLOWS,
    DEFAULT_MESSAGE_BYTES,
    HEADLINE_PLACEMENT,
    PATTERNS,
    PLACEMENTS,
    HopStats,
    LinkLoads,
    PatternReport,
    StrategyResult,
    TrafficReport,
    analyze,
    link_loads,
)
from .fabric import HOPS, STRATEGIES, Fabric, Routes
from .latency import MAX_LATENCY_NS
from .reference import BallsIntoBins, balls_into_bins, collision_share

__all__ = [
    "DEFAULT_MAX_FLOWS", "DEFAULT_MESSAGE_BYTES", "HEADLINE_PLACEMENT", "HOPS", "MAX_LATENCY_NS", "PATTERNS",
    "PLACEMENTS", "STRATEGIES", "BallsIntoBins", "Fabric", "HopStats", "LinkLoads", "PatternReport", "Routes",
    "StrategyResult", "TrafficReport", "analyze", "balls_into_bins", "collision_share", "link_loads",
]
