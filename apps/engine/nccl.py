"""NCCL's algorithms and protocols, their latency, and which NCCL would choose; nccl-tests' bandwidths.

Shared by the performance model (simulation) and the traffic analysis (traffic.latency), so both charge a
collective the same latency.

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

NVLS and NVLSTree (NVLink SHARP, All-Reduce only, Simple protocol), offered where the server's
GPUs sit on NVSwitch with compute capability 9.0 or later (scaleup.py) and a group has two or more
GPUs in each server; NVLS inside one server, NVLSTree across servers. From the same file
(ncclTopoTuneModel) and the NVLS graph search (src/graph/search.cc):
- channels: one per GPU of the server (the NVLS heads); a channel's speed is the largest of NCCL's
  speed steps (sm90 / sm100 SpeedArrayIntra inside a server, ...Inter across servers) that fits the
  GPU's NVLink divided over heads + 1 paths (every head pulls from the switch, its own GPU twice) and,
  across servers, the rate each NIC reaches in the flow model;
- per channel: intra = speed x nvlsEfficiency (Hopper 0.85, Blackwell 0.74) x (heads - 1) / heads x 2
  ("AllReduce pipelines two operations"); inter = speed, x 2 on two servers ("2 node case of
  NVLSTree"); NVLSTree is capped at perChMaxNVLSTreeBws (Hopper 57.7 / 45.5, Blackwell 96 / 80 GB/s
  on 2 / more servers); bus bandwidth = heads x min(intra, inter[, cap]);
- latency (base 0): NVLS 25 µs (NVLink); NVLSTree 25 + 2 log2(servers) x 20.9 µs.
On 8 x H100 this gives 476 GB/s inside a server, 462 GB/s on two servers and 320 GB/s on more, as
measured: "On 8 GPUs, you should reach a peak busBw of ~480GB/s" (NVIDIA/nccl-tests issue 212, NCCL's
maintainer); 330 -> 430 GB/s with NVLS on 1-2 H100 servers, 320 GB/s on more (NVIDIA/nccl issue 1221).

NCCL's choice ("auto"): the algorithm and protocol with the least latency + bandwidth time, as
NCCL's tuner compares them per call (NCCL_ALGO / NCCL_PROTO pin them). CollNet (in-network
reduction in the switches) needs switch support the design does not state, so it is not offered.

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


NVLS_US = 25.0  # NVLS / NVLSTree Simple over NVLink
NVLSTREE_NET_US = 20.9  # NVLSTree Simple per network step
NVLS_EFFICIENCY = {90: 0.85, 100: 0.74}  # nvlsEfficiency, Hopper / Blackwell
NVLSTREE_CAP = {90: (57.7, 45.5), 100: (96.0, 80.0)}  # perChMaxNVLSTreeBws, 2 servers / more
SPEEDS_INTRA = {90: (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0),
                100: (90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0)}
SPEEDS_INTER = {90: (48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2),
                100: (96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0, 6.0,
                      3.0, 2.4, 1.2)}


def nvls_busbw_gbytes(*, heads: int, servers: int, nvlink_gbytes: float, nic_gbytes: float | None,
                      compute_capability: int) -> float:
    """Bus bandwidth (GB/s) NCCL's model gives NVLS (one server) or NVLSTree (more) for All-Reduce; 0 when
    not offered."""
    cc = 100 if compute_capability >= 100 else 90
    if compute_capability < 90 or heads < 2 or nvlink_gbytes <= 0:
        return 0.0
    path = nvlink_gbytes / (heads + 1)
    if servers > 1:
        path = min(path, nic_gbytes if nic_gbytes else 0.0)
    steps = SPEEDS_INTRA[cc] if servers <= 1 else SPEEDS_INTER[cc]
    speed = next((v for v in steps if v <= path), 0.0)
    intra = speed * NVLS_EFFICIENCY[cc] * (heads - 1) / heads * 2
    if servers <= 1:
        return heads * intra
    inter = speed * (2 if servers <= 2 else 1)
    cap = NVLSTREE_CAP[cc][0 if servers <= 2 else 1]
    return heads * min(intra, inter, cap)


def nvls_latency_s(servers: int) -> float:
    if servers <= 1:
        return NVLS_US / 1e6
    return (NVLS_US + 2 * math.floor(math.log2(servers)) * NVLSTREE_NET_US) / 1e6


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
                    net_step_us: float | None = None, nvls_seconds: float | None = None) -> tuple[str, str, float]:
    """(algorithm, protocol, time) NCCL would pick: the least latency + bandwidth time. nvls_seconds: the
    bandwidth time of NVLS / NVLSTree where the server offers it (All-Reduce)."""
    best = None
    if nvls_seconds is not None and collective == "all-reduce":
        best = ("nvls" if servers <= 1 else "nvlstree", "simple", nvls_latency_s(servers) + nvls_seconds)
    for algo in candidates(collective, gpus_per_server):
        for proto in protocols(algo, collective):
            t = latency_s(collective, algo, ranks=ranks, servers=servers, net_step_us=net_step_us,
                          protocol=proto) + bandwidth_s(algo, ring_seconds, proto, servers=servers)
            if best is None or t < best[2]:
                best = (algo, proto, t)
    return best


def choose(collective: str, *, ring_seconds: float, ranks: int, servers: int, gpus_per_server: int,
           net_step_us: float | None = None, nvls_seconds: float | None = None) -> tuple[str, float]:
    """(algorithm, time) NCCL would pick."""
    algo, _proto, t = choose_protocol(collective, ring_seconds=ring_seconds, ranks=ranks, servers=servers,
                                      gpus_per_server=gpus_per_server, net_step_us=net_step_us,
                                      nvls_seconds=nvls_seconds)
    return algo, t
