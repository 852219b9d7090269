"""NCCL's algorithms, their latency, and which one NCCL would choose; nccl-tests' bandwidths.

Latency (NCCL's tuning model, NVIDIA/nccl src/graph/tuning.cc at commit
01afd20a77b5804e0ecf1042509dd9d20ebf9e93, Simple protocol, the one used for large messages):
- Ring: base 8.4 us + (steps - network steps) x 3.4 us (NVLink) + network steps x 9.6 us, with
  steps 2 (n - 1) for All-Reduce and n - 1 for All-Gather / Reduce-Scatter over n ranks and
  network steps 2 (N - 1) / N - 1 over N servers.
- Tree (All-Reduce only): 2 ((ranks per server - 1) x 28 us + log2(N) x 50 us).
- PAT (All-Gather / Reduce-Scatter, NCCL 2.23 and later): base 8.4 us + ceil(log2 N) x 9.6 us;
  NCCL runs it only with one GPU per server, so with more it keeps Ring.
- Pairwise All-to-All and send/receive (grouped point-to-point): base 8.4 us + one network
  step 9.6 us.
- Inside one server (scale-up only): base 8.4 us + steps x 3.4 us.
- Per hop and per NIC instead: when the workload gives the switch port-to-port and the NIC
  latency (no data sheet of the catalog's switches and NICs publishes them, so they are inputs,
  as in the traffic analysis), a network step costs 2 x NIC + switches x switch + metres x 5 ns
  over the collective's longest path (1 switch on one leaf, 3 through a spine, 5 through a core;
  network.FabricModel.step_us) in place of NCCL's 9.6 us.

Bandwidth term: the ring's and pairwise exchange's come from the flow model over the designed
fabric; Tree's and PAT's are taken as the ring's over the same fabric, Tree's derated by 0.9 as
NCCL's tuning model does (busBw x .9).

NCCL's choice ("auto"): the algorithm with the least latency + bandwidth time, as NCCL's tuner
compares them per call (NCCL_ALGO pins one). NVLS and CollNet (in-network reduction) need
switch support the design does not state, so they are not offered.

nccl-tests (doc/PERFORMANCE.md): algbw = size / time; busbw = algbw x 2 (n - 1) / n for
All-Reduce, x (n - 1) / n for All-Gather, Reduce-Scatter and All-to-All, x 1 for send/receive.
"""
from __future__ import annotations

import math

BASE_US = 8.4
NVLINK_STEP_US = 3.4
NET_STEP_US = 9.6
TREE_INTRA_US = 28.0
TREE_NET_US = 50.0
TREE_DERATE = 0.9
NCCL_SOURCE = "NVIDIA/nccl src/graph/tuning.cc (hwLat, baseLat; Simple protocol)"


def busbw_factor(collective: str, n: int) -> float:
    if n < 2:
        return 0.0
    if collective == "all-reduce":
        return 2 * (n - 1) / n
    if collective in ("all-gather", "reduce-scatter", "all-to-all"):
        return (n - 1) / n
    return 1.0


def traffic_factor(collective: str, n: int) -> float:
    """Bytes a ring member sends per byte of size: 2 (n-1)/n for All-Reduce, (n-1)/n for AG / RS."""
    return busbw_factor(collective, n) if collective != "send-recv" else 1.0


def latency_s(collective: str, algorithm: str, *, ranks: int, servers: int, net_step_us: float | None = None
              ) -> float:
    """net_step_us: a network step from the path's hops (network.FabricModel.step_us) instead of NCCL's 9.6 us."""
    per_server = max(1, ranks // max(servers, 1))
    net_us = NET_STEP_US if net_step_us is None else net_step_us
    if algorithm == "ring":
        steps = 2 * (ranks - 1) if collective == "all-reduce" else ranks - 1
        net = (2 * (servers - 1) if collective == "all-reduce" else servers - 1) if servers > 1 else 0
        return (BASE_US + (steps - net) * NVLINK_STEP_US + net * net_us) / 1e6
    if algorithm == "tree":
        return 2 * ((per_server - 1) * TREE_INTRA_US + _log2(servers) * TREE_NET_US) / 1e6
    if algorithm == "pat":
        return (BASE_US + _log2(servers) * net_us) / 1e6
    # pairwise All-to-All, send/receive
    return (BASE_US + (net_us if servers > 1 else NVLINK_STEP_US)) / 1e6


def _log2(n: int) -> int:
    return max(0, math.ceil(math.log2(n))) if n > 1 else 0


def candidates(collective: str, gpus_per_server: int) -> tuple[str, ...]:
    if collective == "all-reduce":
        return ("ring", "tree")
    if collective in ("all-gather", "reduce-scatter"):
        return ("ring", "pat") if gpus_per_server == 1 else ("ring",)
    return ("pairwise",)


def bandwidth_s(algorithm: str, ring_seconds: float) -> float:
    return ring_seconds / TREE_DERATE if algorithm == "tree" else ring_seconds


def choose(collective: str, *, ring_seconds: float, ranks: int, servers: int, gpus_per_server: int,
           net_step_us: float | None = None) -> tuple[str, float]:
    """(algorithm, time) NCCL would pick: the least latency + bandwidth time among its candidates."""
    best = None
    for algo in candidates(collective, gpus_per_server):
        t = latency_s(collective, algo, ranks=ranks, servers=servers, net_step_us=net_step_us) + bandwidth_s(algo, ring_seconds)
        if best is None or t < best[1]:
            best = (algo, t)
    return best
