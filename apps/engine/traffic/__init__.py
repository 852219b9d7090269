"""Traffic analysis: collectives routed over a planned fabric with ECMP and hash-aware source ports.

Entry point: `analyze(plan, *, pattern, max_flows, seed, message_bytes) -> TrafficReport`.
`Fabric(plan).route(...)` and `link_loads(...)` are the building blocks; `reference` holds the
closed-form balls-into-bins expectations of random ECMP.
"""
from .analysis import (
    DEFAULT_MAX_FLOWS,
    DEFAULT_MESSAGE_BYTES,
    PATTERNS,
    HopStats,
    LinkLoads,
    PatternReport,
    StrategyResult,
    TrafficReport,
    analyze,
    link_loads,
)
from .fabric import HOPS, STRATEGIES, Fabric, Routes
from .reference import BallsIntoBins, balls_into_bins, collision_share

__all__ = [
    "DEFAULT_MAX_FLOWS", "DEFAULT_MESSAGE_BYTES", "HOPS", "PATTERNS", "STRATEGIES", "BallsIntoBins", "Fabric",
    "HopStats", "LinkLoads", "PatternReport", "Routes", "StrategyResult", "TrafficReport", "analyze",
    "balls_into_bins", "collision_share", "link_loads",
]
