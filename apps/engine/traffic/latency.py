"""The latency term of a collective's time, and what NCCL would do about it.

time = bandwidth term + latency term. The bandwidth term is the bytes a NIC sends over its
effective bandwidth (analysis.py). The latency term is NCCL's own, summed by the same function
the performance model uses (engine.nccl.latency_s, NCCL 2.30.7 src/graph/tuning.cc), so the
traffic analysis and the performance chapter charge a collective the same latency:
- Ring All-Reduce over n GPUs on N servers (Simple protocol, the one NCCL uses for large
  messages): base 8.4 us + (2 (n - 1) - 2 (N - 1)) NVLink steps x 3.4 us + 2 (N - 1) network
  steps x the network step. The network steps each wait for the slowest ring neighbour, so a
  step costs the latency of the ring's longest path.
- All-to-All posts its sends to every peer together (grouped ncclSend/ncclRecv, as nccl-tests
  does): base 8.4 us + one network step.

The network step, from the hops of the routed paths when both figures are given:

    step = NIC send + switches x switch latency + NIC receive + metres x 5 ns/m

where `switches` is 1 (same leaf), 3 (through a spine) or 5 (through a core) and `metres` the
cable along the path (5 ns/m: light in fibre or copper at about 2/3 c, as the RoCE headroom
rules use). The switch port-to-port latency and the NIC latency are analysis parameters
(`switch_latency_ns`, `nic_latency_ns`): no vendor data sheet in the references checked
(NVIDIA Spectrum-4 SN5600, Arista 7060X6 / 7060DX5, Dell Z9864F, NVIDIA ConnectX-7)
publishes a port-to-port or adapter latency figure for these products, so none is invented:
enter the figure your vendor quotes.

Without them, a network step costs what NCCL's tuning model charges a ring step over the network
with the Simple protocol: hwLatencies[NET][Ring][Simple] = 14 us (engine.nccl.NET_STEP_US). That
figure covers NCCL's chunking and proxy overheads as well as the wire, so it is larger than a
path's switch and NIC latency alone.

NCCL does not always run a ring: it picks Ring, Tree, PAT, NVLS / NVLSTree or CollNet per call
from message size, rank count and topology (its tuning model compares latency + bytes /
bandwidth; the NCCL_ALGO environment variable pins one). When the ring's latency term is a
visible share of its time, NCCL is likely to pick Tree (about 2 log2(N) network steps instead
of 2 (N - 1)), or NVLS / CollNet where the switches support in-network reduction; the report
says so.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import nccl

PROPAGATION_NS_PER_M = 5.0
NCCL_RING_STEP_US = nccl.NET_STEP_US
NCCL_SOURCE = nccl.NCCL_SOURCE
MAX_LATENCY_NS = 100_000
# the latency term's share of the ring's time above which the report says NCCL would likely not run a ring
NCCL_NOTE_SHARE = 0.05


@dataclass(frozen=True, slots=True)
class PathLatency:
    """The longest path of a collective's step: its switches, cable and latency."""

    switches: int
    metres: float
    step_us: float
    basis: str  # "hops": from the switch and NIC latencies; "nccl-model": NCCL's per-step figure


def path_latency(hops: np.ndarray, routed: np.ndarray, length_m: np.ndarray, *, switch_ns: float | None,
                 nic_ns: float | None) -> PathLatency:
    """Latency of the slowest routed path; hops[h, f] is the link-direction index (-1: unused).

    A path is up-down: hops 1 and 4 (through a spine) and 2 and 3 (through a core) come in pairs,
    so it crosses 1 + 2 x [hop 1 used] + 2 x [hop 2 used] switches. Computed row by row (a gather of
    one hop at a time), so a million flows cost a few gathers, not a 6 x flows temporary per step.
    """
    basis = "hops" if switch_ns is not None and nic_ns is not None else "nccl-model"
    if not hops.shape[1] or not routed.any():
        return PathLatency(0, 0.0, 0.0, basis)
    # index -1 (no hop) reads the appended 0 m
    lengths = np.append(np.asarray(length_m, dtype=np.float64), 0.0)
    metres = np.zeros(hops.shape[1])
    for row in hops:
        metres += np.take(lengths, row >> 1)  # link of a direction index; -1 stays -1
    switches = 1 + 2 * (hops[1] >= 0).astype(np.int64) + 2 * (hops[2] >= 0).astype(np.int64)
    if not routed.all():
        switches, metres = switches[routed], metres[routed]
    if basis == "nccl-model":
        worst = int(np.argmax(switches * 1e6 + metres))
        return PathLatency(int(switches[worst]), float(metres[worst]), NCCL_RING_STEP_US, basis)
    ns = 2 * nic_ns + switches * switch_ns + metres * PROPAGATION_NS_PER_M
    worst = int(np.argmax(ns))
    return PathLatency(int(switches[worst]), float(metres[worst]), float(ns[worst]) / 1e3, basis)


def collective_latency_us(pattern: str, *, gpus: int, servers: int, step_us: float | None) -> float:
    """The latency term of one call as NCCL's tuning model sums it (engine.nccl.latency_s), the performance
    model's figure for the same collective: Ring / Simple for All-Reduce, grouped point-to-point for All-to-All.
    step_us: the network step from the path's hops, None for NCCL's own."""
    if servers < 2:
        return 0.0
    if pattern == "all-reduce":
        return nccl.latency_s("all-reduce", "ring", ranks=gpus, servers=servers, net_step_us=step_us) * 1e6
    return nccl.latency_s("all-to-all", "pairwise", ranks=gpus, servers=servers, net_step_us=step_us) * 1e6


def ring_steps(pattern: str, servers: int) -> int:
    """Network steps of the collective: 2 (N - 1) for a ring All-Reduce, 1 for a grouped All-to-All."""
    if servers < 2:
        return 0
    return 2 * (servers - 1) if pattern == "all-reduce" else 1


def nccl_note(pattern: str, servers: int, latency_ms: float, total_ms: float) -> str:
    """What NCCL would likely do at this size, in one sentence (English; translated by the web app)."""
    if pattern != "all-reduce" or servers < 2 or total_ms <= 0:
        return ""
    share = latency_ms / total_ms
    if share >= NCCL_NOTE_SHARE:
        return (f"The ring's latency term is {share:.0%} of its time over {servers} servers: at this size NCCL "
                f"usually picks Tree (about {2 * max(1, int(np.ceil(np.log2(servers))))} network steps instead of "
                f"{2 * (servers - 1)}) or NVLS / CollNet where the switches reduce in the network; NCCL_ALGO=Ring "
                "forces the ring modelled here.")
    return (f"The ring's latency term is {share:.0%} of its time over {servers} servers; NCCL still chooses Ring, "
            "Tree, NVLS or CollNet per call from size and topology (NCCL_ALGO pins one).")
