"""Rings as NCCL builds them, one model for the traffic analysis and the performance model.

Rules:
- A ring follows rank order, as a scheduler places the ranks: it visits the group's servers (or
  rack-scale scale-up domains) in the order their first rank appears in the group, never
  re-sorted by server index. With g members of a group per server, NCCL runs g rail-aligned
  rings, ring k through the k-th member (in rank order) of every server, so the hop out of a
  server leaves on the NIC of that member and enters the next server's k-th member's NIC.
- Channels: NCCL doubles the channels its topology search finds, so each NIC carries
  CHANNELS_PER_NIC = 2 ring channels (NVIDIA/nccl issue 524, "we double the number of channels
  during ncclTopoPostset"; issue 438, "two channels per NIC makes the NIC utilization closer to
  peak"). Each channel is its own ring over the same ranks and carries 1 / channels of the data.
- Queue pairs: every channel's connection uses NCCL_IB_QPS_PER_CONNECTION queue pairs, each its
  own RoCE flow (its own UDP source port, so its own ECMP hash), carrying 1 / qps of the channel.
- Coupling: a ring channel is a pipeline (NCCL keeps a few chunk slots per connection), so all its
  hops, and all the queue pairs of a hop, move at the channel's one rate. The flow model therefore
  treats one ring channel as one flow that puts 1 / qps of its rate on the path of each of its
  queue pairs (maxmin.py: `coef`), and its slowest link sets the channel's rate.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CHANNELS_PER_NIC = 2
NCCL_CHANNELS_SOURCE = ("NVIDIA/nccl issue 524 (channels doubled in ncclTopoPostset) and issue 438 "
                        "(two channels per NIC)")


@dataclass(slots=True)
class RingHops:
    """Server-crossing hops of the rings of a collective, before channels and queue pairs."""

    src_rank: np.ndarray
    dst_rank: np.ndarray
    ring: np.ndarray  # ring id of each hop (group x position within server)
    rings: int  # number of rings
    per_server: int  # g: members of a group per server (each ring carries 1 / g of the buffer)


def ring_hops(groups: np.ndarray, rank_server: np.ndarray) -> RingHops:
    """The rings of `groups` (rows of ranks in rank order) in rank order; see the module rules."""
    groups = np.asarray(groups, dtype=np.int64)
    ng, n = groups.shape
    empty = np.zeros(0, np.int64)
    if not ng or n < 2:
        return RingHops(empty, empty, empty, 0, 1)
    grp = np.repeat(np.arange(ng, dtype=np.int64), n)
    pos = np.tile(np.arange(n, dtype=np.int64), ng)
    ranks = groups.ravel()
    server = rank_server[ranks]
    order = np.lexsort((pos, server, grp))
    grp, pos, ranks, server = grp[order], pos[order], ranks[order], server[order]
    key = grp * np.int64(int(rank_server.max()) + 1) + server
    starts = np.ones(len(key), dtype=bool)
    starts[1:] = key[1:] != key[:-1]
    idx = np.arange(len(key))
    run_start = np.maximum.accumulate(np.where(starts, idx, 0))
    k = idx - run_start  # position (in rank order) within its server
    first = pos[run_start]  # where the server first appears in the group's rank order
    g = int(k.max()) + 1
    order = np.lexsort((first, k, grp))
    grp, ranks, server, k = grp[order], ranks[order], server[order], k[order]
    ring = grp * g + k
    head = np.ones(len(ring), dtype=bool)
    head[1:] = ring[1:] != ring[:-1]
    start = np.maximum.accumulate(np.where(head, idx, 0))
    last = np.r_[head[1:], True]
    nxt = np.where(last, start, idx + 1)
    cross = server != server[nxt]
    return RingHops(ranks[cross], ranks[nxt[cross]], ring[cross], ng * g, g)


@dataclass(slots=True)
class CoupledFlows:
    """Sub-flows (one per queue pair) and the coupled flow (ring channel) each belongs to."""

    src: np.ndarray  # NIC per sub-flow
    dst: np.ndarray
    flow: np.ndarray  # coupled flow id per sub-flow
    share: np.ndarray  # share of the coupled flow's rate this sub-flow carries
    flow_bytes: np.ndarray  # bytes per coupled flow
    total: int  # sub-flows of the whole collective


def ring_channel_flows(hops: RingHops, rank_nic: np.ndarray, per_rank_bytes: float, *, channels: int,
                       qps: int) -> CoupledFlows:
    """Every ring hop as channels x qps sub-flows; ring channel c of ring r is coupled flow r x channels + c.
    `per_rank_bytes` is what one member sends in the whole collective; each ring carries 1 / g of it and
    each channel 1 / channels of that."""
    channels, qps = max(1, int(channels)), max(1, int(qps))
    reps = channels * qps
    src = np.repeat(rank_nic[hops.src_rank], reps)
    dst = np.repeat(rank_nic[hops.dst_rank], reps)
    c = np.tile(np.repeat(np.arange(channels, dtype=np.int64), qps), len(hops.src_rank))
    flow = np.repeat(hops.ring, reps) * channels + c
    n_flows = hops.rings * channels
    used, flow = np.unique(flow, return_inverse=True)
    flow = flow.reshape(-1)
    flow_bytes = np.full(len(used), per_rank_bytes / hops.per_server / channels)
    return CoupledFlows(src, dst, flow, np.full(len(src), 1.0 / qps), flow_bytes, len(src) if n_flows else 0)
