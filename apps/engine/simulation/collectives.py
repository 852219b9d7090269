"""A training step's collectives with their byte counts, and the NIC-to-NIC flows of a collective.

Ranks and placement (Megatron-LM's order): rank = tp + TP (cp + CP (dp + DP pp)), so a TP group
is TP consecutive GPUs of one server (inside the scale-up domain), CP and DP groups stride over
servers, an EP group is EP consecutive DP indices of one (tp, cp, pp), and PP stages are the
outermost blocks. Rank r runs on the r-th GPU of the job: the job's servers in plan order
("plan", as a topology-aware scheduler hands them out) or in a seeded random order
("scheduler"), GPUs of a server in order. GPU i of a server uses backend NIC i x ports // GPUs.

Bytes per call, nccl-tests' size convention (the buffer of one rank; for All-Gather the gathered
output, for Reduce-Scatter the input), with b = micro-batch, s = sequence length, h = hidden size,
kv = key/value heads x head size, k = experts per token, e = bytes per activation element (2 for
BF16; an FP8 job dispatches its MoE tokens in FP8, e = 1, and combines in BF16, as DeepSeek-V3
reports), m = micro-batches per step = global batch / (DP x b), L = layers, L_moe = MoE layers:
- TP All-Reduce (Megatron-LM, Shoeybi et al. 2019, section 3: two in the forward pass and two
  in the backward pass of every layer): b (s / CP) h x 2 bytes; 4 x (L / PP) x m calls.
- CP (ring attention, keys and values of the whole sequence gathered, their gradients
  reduce-scattered): All-Gather and Reduce-Scatter of 2 b s kv x 2 bytes; (L / PP) x m calls each.
- EP All-to-All (dispatch and combine, forward and backward): b (s / (CP TP)) k h x e bytes;
  dispatch and combine each 2 x (L_moe / PP) x m calls.
- PP send/receive at every stage boundary, activations forward and their gradients backward:
  b (s / (CP TP)) h x 2 bytes; 2 m calls.
- DP, gradients in BF16 (2 bytes per parameter): the dense parameters a rank holds,
  P = dense parameters / (TP PP), over its DP x CP ranks; the expert parameters it holds,
  P_e = expert parameters / (EP TP PP), over the DP x CP / EP ranks that hold the same experts
  (the expert-data-parallel group: one rank at the same place of every EP group of its (pp, tp);
  Megatron-LM's expert_data_parallel group, DeepSpeed-MoE's expert-data-parallel group), none
  when EP = DP x CP. zero1: Reduce-Scatter of gradients and All-Gather of parameters, 2P bytes
  each, once per step; fsdp: Reduce-Scatter once, All-Gather twice (forward and backward); none:
  All-Reduce of 2P bytes; the same for P_e ("edp-" collectives).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..traffic.rings import CHANNELS_PER_NIC, ring_channel_flows, ring_hops
from .workload import TrainingJob


@dataclass(slots=True)
class StepCollective:
    key: str  # e.g. "dp-reduce-scatter"
    parallelism: str  # tp, cp, ep, pp, dp
    collective: str  # all-reduce, all-gather, reduce-scatter, all-to-all, send-recv
    bytes: int
    calls: int
    groups: np.ndarray  # (groups, group size) ranks
    overlappable: bool  # may hide behind compute (DP)
    label: str = ""
    # node-limited expert dispatch (experts.py): (tokens, bytes per token, experts, top-k, node limit); None: a
    # plain All-to-All of top-k copies
    dispatch: tuple[int, int, int, int, int] | None = None


def rank_grid(p) -> np.ndarray:
    """ranks as an array indexed [pp, dp, cp, tp]."""
    return np.arange(p.gpus, dtype=np.int64).reshape(p.pp, p.dp, p.cp, p.tp)


def step_collectives(job: TrainingJob) -> list[StepCollective]:
    m_ = job.model
    p = job.parallelism
    b, s, h = job.micro_batch, job.seq_len, m_.hidden
    m = max(1, job.global_batch // (p.dp * b))
    grid = rank_grid(p)
    out: list[StepCollective] = []
    act = 2
    if p.tp > 1:
        groups = grid.reshape(-1, p.tp)
        out.append(StepCollective("tp-all-reduce", "tp", "all-reduce", b * (s // p.cp) * h * act,
                                  4 * -(-m_.layers // p.pp) * m, groups, False))
    if p.cp > 1:
        groups = grid.transpose(0, 1, 3, 2).reshape(-1, p.cp)
        kv = m_.kv_heads * m_.head_dim
        size = 2 * b * s * kv * act
        calls = -(-m_.layers // p.pp) * m
        out.append(StepCollective("cp-all-gather", "cp", "all-gather", size, calls, groups, False))
        out.append(StepCollective("cp-reduce-scatter", "cp", "reduce-scatter", size, calls, groups, False))
    if p.ep > 1 and m_.moe:
        # EP groups: EP consecutive indices of the flattened (dp, cp) ranks of one (pp, tp)
        flat = grid.transpose(0, 3, 1, 2).reshape(p.pp * p.tp, p.dp * p.cp)
        groups = flat.reshape(-1, p.ep)
        tokens = b * s // (p.cp * p.tp)
        calls = 2 * -(-m_.moe_layers // p.pp) * m
        dispatch_e = 1 if job.precision == "fp8" else 2
        limit = job.ep_node_limit
        for key, e in (("ep-dispatch", dispatch_e), ("ep-combine", 2)):
            shape = (tokens, h * e, m_.experts, m_.top_k, limit) if limit else None
            out.append(StepCollective(key, "ep", "all-to-all", tokens * m_.top_k * h * e, calls, groups, False,
                                      dispatch=shape))
    if p.pp > 1:
        pairs = np.stack([grid[:-1].ravel(), grid[1:].ravel()], axis=1)
        out.append(StepCollective("pp-send-recv", "pp", "send-recv", b * (s // (p.cp * p.tp)) * h * act, 2 * m,
                                  pairs, False))
    dp_ranks = p.dp * p.cp
    flat = grid.transpose(0, 3, 1, 2).reshape(p.pp * p.tp, dp_ranks)
    dense = m_.params_b * 1e9 - m_.expert_params
    ep = p.ep if m_.moe and m_.expert_params else 1
    expert_dp = dp_ranks // ep
    if ep == 1:  # dense model, or experts not split: every parameter over the whole DP group
        dense = m_.params_b * 1e9
    if dp_ranks > 1 and dense > 0:
        _dp_collectives(out, "dp", flat, int(2 * dense / (p.tp * p.pp)), job.zero)
    if ep > 1 and expert_dp > 1:
        # one rank at the same place of every EP group of a (pp, tp): the ranks holding the same experts
        groups = flat.reshape(p.pp * p.tp, expert_dp, ep).transpose(0, 2, 1).reshape(-1, expert_dp)
        _dp_collectives(out, "edp", groups, int(2 * m_.expert_params / (ep * p.tp * p.pp)), job.zero)
    return out


def _dp_collectives(out: list[StepCollective], prefix: str, groups: np.ndarray, size: int, zero: str) -> None:
    if zero == "none":
        out.append(StepCollective(f"{prefix}-all-reduce", "dp", "all-reduce", size, 1, groups, True))
    else:
        out.append(StepCollective(f"{prefix}-reduce-scatter", "dp", "reduce-scatter", size, 1, groups, True))
        out.append(StepCollective(f"{prefix}-all-gather", "dp", "all-gather", size, 2 if zero == "fsdp" else 1,
                                  groups, True))


# --- flows --------------------------------------------------------------------------------------------

@dataclass(slots=True)
class Flows:
    src: np.ndarray  # NIC index per flow (per queue-pair sub-flow for rings)
    dst: np.ndarray
    bytes: np.ndarray  # per flow (per coupled flow when flow_of is set)
    total: int  # flows of the whole collective
    sampled: str = ""  # how they were sampled, "" when not
    flow_of: np.ndarray | None = None  # coupled flow (ring channel) of each sub-flow, rings.py
    share: np.ndarray | None = None  # share of its coupled flow's rate a sub-flow carries


def _sort_members(groups: np.ndarray, rank_server: np.ndarray):
    ng, n = groups.shape
    grp = np.repeat(np.arange(ng, dtype=np.int64), n)
    ranks = groups.ravel()
    server = rank_server[ranks]
    order = np.lexsort((ranks, server, grp))
    return grp[order], ranks[order], server[order]


def ring_flows(groups: np.ndarray, rank_server: np.ndarray, rank_nic: np.ndarray, per_rank_bytes: float, *,
               channels: int = CHANNELS_PER_NIC, qps: int = 1) -> Flows:
    """The rings of the groups in rank order, each hop as channels x qps queue-pair sub-flows coupled per
    ring channel (traffic/rings.py, shared with the traffic analysis). `per_rank_bytes` is what one ring
    member sends in the whole collective (2 (n-1)/n S for All-Reduce, (n-1)/n S for All-Gather and
    Reduce-Scatter)."""
    hops = ring_hops(groups, rank_server)
    if not len(hops.src_rank):
        return Flows(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), 0)
    cf = ring_channel_flows(hops, rank_nic, per_rank_bytes, channels=channels, qps=qps)
    return Flows(cf.src, cf.dst, cf.flow_bytes, cf.total, "", cf.flow, cf.share)


def all_to_all_flows(groups: np.ndarray, rank_server: np.ndarray, rank_nic: np.ndarray, size: float, *,
                     nic_ports: int, max_flows: int, rng: np.random.Generator,
                     rank_domain: np.ndarray | None = None) -> Flows:
    """Every rank sends size / n to every other rank of its group; a send to another server leaves through
    the sender server's NIC on the destination's rail (PXN), so one flow per (source server, destination
    rank) carries the g ranks' shares: g x size / n. Above max_flows, whole pairwise-exchange steps are
    sampled (source server i to the group's server i + e), evenly spaced from a random start, and each
    sampled flow carries the bytes of the (ns - 1) / m steps it stands for: every NIC still sends its whole
    share, exact under spraying; under ECMP fewer, larger flows per link make the sample pessimistic
    (simulate.run_collective states the spraying time beside it as the bound)."""
    ng, n = groups.shape
    grp, ranks, server = _sort_members(groups, rank_server)
    servers = server.reshape(ng, n)  # uniform groups: each server holds g ranks of the group
    per = int((servers[0] == servers[0, 0]).sum())
    ns = n // per
    srv = servers[:, ::per]  # (ng, ns)
    dst_rank = ranks.reshape(ng, ns, per)
    total = ng * ns * (ns - 1) * per
    steps = np.arange(1, ns, dtype=np.int64)
    sampled = ""
    if total > max_flows and ns > 1:
        m = max(1, max_flows // (ng * ns * per))
        if m < ns - 1:
            steps = 1 + np.floor((rng.random() + np.arange(m)) * (ns - 1) / m).astype(np.int64)
            sampled = (f"{m} of {ns - 1} pairwise-exchange steps per group, evenly spaced from a random start: "
                       f"{ng * ns * m * per:,} of {total:,} flows")
    if ns < 2:
        return Flows(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), 0)
    i = np.arange(ns, dtype=np.int64)
    j = (i[None, :] + steps[:, None]) % ns  # (steps, ns)
    d = dst_rank[:, j, :]  # (ng, steps, ns, per)
    s_srv = np.broadcast_to(srv[:, None, :, None], d.shape)
    dst = rank_nic[d.ravel()]
    src = s_srv.ravel() * nic_ports + dst % nic_ports
    if rank_domain is not None:
        # rack-scale: a send to a tray of the sender's own domain crosses NVLink, not the fabric
        server_domain = np.zeros(int(rank_server.max()) + 1, dtype=np.int64)
        server_domain[rank_server] = rank_domain
        keep = server_domain[s_srv.ravel()] != rank_domain[d.ravel()]
        src, dst = src[keep], dst[keep]
    # the sampled steps stand for all of them: each sampled flow carries the bytes of (ns - 1) / m steps
    scale = (ns - 1) / len(steps)
    return Flows(src, dst, np.full(len(src), per * size / n * scale), total, sampled)


def node_dispatch_flows(groups: np.ndarray, rank_domain: np.ndarray, rank_nic: np.ndarray, per_node_bytes: float,
                        *, max_flows: int, rng: np.random.Generator) -> Flows:
    """Node-limited expert dispatch (experts.py): every rank sends `per_node_bytes` to every other node of its
    group, once per node, to the group's GPU with its own in-node index there (its rail), which forwards over
    NVLink. Above max_flows whole node-shift steps are sampled as in all_to_all_flows."""
    ng, n = groups.shape
    grp, ranks, dom = _sort_members(groups, rank_domain)
    per = int((dom.reshape(ng, n)[0] == dom[0]).sum())
    nodes = n // per
    if nodes < 2:
        return Flows(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), 0)
    members = ranks.reshape(ng, nodes, per)  # [group, node, in-node index]
    total = ng * nodes * (nodes - 1) * per
    steps = np.arange(1, nodes, dtype=np.int64)
    sampled = ""
    if total > max_flows:
        m = max(1, max_flows // (ng * nodes * per))
        if m < nodes - 1:
            steps = 1 + np.floor((rng.random() + np.arange(m)) * (nodes - 1) / m).astype(np.int64)
            sampled = (f"{m} of {nodes - 1} node-shift steps per group, evenly spaced from a random start: "
                       f"{ng * nodes * m * per:,} of {total:,} flows")
    i = np.arange(nodes, dtype=np.int64)
    j = (i[None, :] + steps[:, None]) % nodes  # (steps, nodes)
    src = np.broadcast_to(members[:, None, :, :], (ng, len(steps), nodes, per))
    dst = members[:, j, :]
    scale = (nodes - 1) / len(steps)
    return Flows(rank_nic[src.ravel()], rank_nic[dst.ravel()], np.full(src.size, per_node_bytes * scale), total,
                 sampled)


def pair_flows(pairs: np.ndarray, rank_server: np.ndarray, rank_nic: np.ndarray, size: float) -> Flows:
    a, b = pairs[:, 0], pairs[:, 1]
    cross = rank_server[a] != rank_server[b]
    src, dst = rank_nic[a[cross]], rank_nic[b[cross]]
    return Flows(src, dst, np.full(len(src), float(size)), len(src))
