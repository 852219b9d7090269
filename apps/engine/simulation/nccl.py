"""NCCL's algorithms and protocols, their latency, and which NCCL would choose; nccl-tests' bandwidths.

Constants from NCCL 2.30.7's tuning model (NVIDIA/nccl src/graph/tuning.cc at commit
5067397c2676d5aed50042fc39e5c8ee96eb0027, `ncclTunerConstantsDefaults`), in microseconds, per
algorithm and protocol (LL / LL128 / Simple):
- base latency: Tree 6.8 / 14.0 / 8.4, Ring 6.6 / 14.0 / 8.4, PAT 8.0;
- per step over NVLink: Tree 0.6 / 1.25 / 4.0, Ring 0.6 / 1.9 / 3.4, PAT 4.0;
- per step over the network: Tree 5.0 / 8.5 / 14, Ring 2.7 / 4.0 / 14.0, PAT 14. With one GPU per
  server NCCL charges the network steps at Tree's figure (ppn = 1: "latencies are fully exposed").
Latency as tuning.cc sums it:
- Ring: base + (steps - network steps) x NVLink step + network steps x network step, with steps
  2 (n - 1) for All-Reduce and n - 1 for All-Gather / Reduce-Scatter over n ranks and network
  steps 2 (N - 1) / N - 1 over N servers.
- Tree (All-Reduce only): base + 2 ((ranks per server - 1) x NVLink step + log2(N) x network step).
- PAT (All-Gather / Reduce-Scatter, one GPU per server only): base + log2(N) x network step / 3.5
  + 2.8 x n.
- Pairwise All-to-All and send/receive (grouped point-to-point): Simple base + one step.
- Inside one server every step is an NVLink step.
Bandwidth per protocol, from the same file's refinements of the bus bandwidth: Simple runs at the
flow model's rate (Tree at 0.9 of it, "busBw * .9"); LL128 at 0.92 of it on a ring (0.915 on a
tree); LL at 1/4 on a ring across servers (1/3 inside one) and at 0.9 / 3.8 on a tree.
- Per hop and per NIC instead: when the workload gives the switch port-to-port and the NIC
  latency (no data sheet of the catalog's switches and NICs publishes them, so they are inputs,
  as in the traffic analysis), a network step costs 2 x NIC + switches x switch + metres x 5 ns
  over the collective's longest path (network.FabricModel.step_us), for every protocol.

NCCL's choice ("auto"): the algorithm and protocol with the least latency + bandwidth time, as
NCCL's tuner compares them per call (NCCL_ALGO / NCCL_PROTO pin them). NVLS, NVLSTree and CollNet
(in-network reduction) need NVLink-switch or network-switch support the design does not state, so
they are not offered; NCCL picks them on NVSwitch systems for mid-size All-Reduce, so the model is
conservative there.

nccl-tests (doc/PERFORMANCE.md): algbw = size / time; busbw = algbw x 2 (n - 1) / n for
All-Reduce, x (n - 1) / n for All-Gather, Reduce-Scatter and All-to-All, x 1 for send/receive.
"""
from __future__ import annotations

import math

NCCL_VERSION = "2.30.7"
NCCL_SOURCE = ("NVIDIA/nccl 2.30.7 src/graph/tuning.cc (commit 5067397c2676d5aed50042fc39e5c8ee96eb0027), "
               "ncclTunerConstantsDefaults")
PROTOCOLS = ("ll", "ll128", "simple")
BASE_US = {"tree": (6.8, 14.0, 8.4), "ring": (6.6, 14.0, 8.4), "pat": (8.0, 8.0, 8.0)}
NVLINK_US = {"tree": (0.6, 1.25, 4.0), "ring": (0.6, 1.9, 3.4), "pat": (0.0, 0.0, 4.0)}
NET_US = {"tree": (5.0, 8.5, 14.0), "ring": (2.7, 4.0, 14.0), "pat": (0.0, 0.0, 14.0)}
# bus-bandwidth share of each protocol (tuning.cc's refinements), as a multiple of the flow model's rate
EFFICIENCY = {"ring": (0.25, 0.92, 1.0), "tree": (0.9 / 3.8, 0.9 * 0.915, 0.9), "pat": (0.0, 0.0, 1.0)}
TREE_DERATE = 0.9
NET_STEP_US = NET_US["ring"][2]  # a Simple network step, the traffic analysis' per-step figure
NVLINK_STEP_US = NVLINK_US["ring"][2]


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


def latency_s(collective: str, algorithm: str, *, ranks: int, servers: int, net_step_us: float | None = None,
              protocol: str = "simple") -> float:
    """net_step_us: a network step from the path's hops (network.FabricModel.step_us) instead of NCCL's."""
    p = PROTOCOLS.index(protocol)
    servers = max(servers, 1)
    per_server = max(1, ranks // servers)
    table = algorithm if algorithm in BASE_US else "ring"
    intra = NVLINK_US[table][p]
    inter = NET_US["tree" if per_server == 1 and table == "ring" else table][p]
    if net_step_us is not None:
        inter = net_step_us
    base = BASE_US[table][p]
    if servers == 1:
        inter = intra
    if algorithm == "ring":
        steps = 2 * (ranks - 1) if collective == "all-reduce" else ranks - 1
        net = (2 * (servers - 1) if collective == "all-reduce" else servers - 1) if servers > 1 else 0
        return (base + (steps - net) * intra + net * inter) / 1e6
    if algorithm == "tree":
        return (base + 2 * ((per_server - 1) * intra + _log2(servers) * inter)) / 1e6
    if algorithm == "pat":
        return (base + _log2(servers) * inter / 3.5 + 2.8 * ranks) / 1e6
    # pairwise All-to-All, send/receive
    step = NET_US["ring"][2] if servers > 1 else NVLINK_US["ring"][2]
    if net_step_us is not None and servers > 1:
        step = net_step_us
    return (BASE_US["ring"][2] + step) / 1e6


def _log2(n: int) -> int:
    return max(0, math.ceil(math.log2(n))) if n > 1 else 0


def candidates(collective: str, gpus_per_server: int) -> tuple[str, ...]:
    if collective == "all-reduce":
        return ("ring", "tree")
    if collective in ("all-gather", "reduce-scatter"):
        return ("ring", "pat") if gpus_per_server == 1 else ("ring",)
    return ("pairwise",)


def protocols(algorithm: str, collective: str) -> tuple[str, ...]:
    if algorithm in ("pairwise", "p2p", "pat"):
        return ("simple",)
    return PROTOCOLS


def bandwidth_s(algorithm: str, ring_seconds: float, protocol: str = "simple", *, servers: int = 2) -> float:
    if algorithm not in EFFICIENCY:
        return ring_seconds
    eff = EFFICIENCY[algorithm][PROTOCOLS.index(protocol)]
    if algorithm == "ring" and protocol == "ll" and servers <= 1:
        eff = 1 / 3
    return ring_seconds / eff if eff else math.inf


def choose_protocol(collective: str, *, ring_seconds: float, ranks: int, servers: int, gpus_per_server: int,
                    net_step_us: float | None = None) -> tuple[str, str, float]:
    """(algorithm, protocol, time) NCCL would pick: the least latency + bandwidth time."""
    best = None
    for algo in candidates(collective, gpus_per_server):
        for proto in protocols(algo, collective):
            t = latency_s(collective, algo, ranks=ranks, servers=servers, net_step_us=net_step_us,
                          protocol=proto) + bandwidth_s(algo, ring_seconds, proto, servers=servers)
            if best is None or t < best[2]:
                best = (algo, proto, t)
    return best


def choose(collective: str, *, ring_seconds: float, ranks: int, servers: int, gpus_per_server: int,
           net_step_us: float | None = None) -> tuple[str, float]:
    """(algorithm, time) NCCL would pick."""
    algo, _proto, t = choose_protocol(collective, ring_seconds=ring_seconds, ranks=ranks, servers=servers,
                                      gpus_per_server=gpus_per_server, net_step_us=net_step_us)
    return algo, t
