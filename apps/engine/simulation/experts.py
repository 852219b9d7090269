"""Where a token's routed experts sit: the nodes and GPUs one token reaches under node-limited routing.

DeepSeek-V3 (Technical Report, arXiv 2412.19437) limits each token to M nodes (section 2.1.2, "Node-Limited
Routing": the M nodes whose experts have the highest sum of the top K_r / M affinity scores, then the top K_r
experts on them; M = 4 with K_r = 8 routed experts of 256, section 4.2). Its dispatch kernels (section 3.2.2)
send a token "via IB to the GPUs with the same in-node index on its target nodes", once per node, and forward it
over NVLink to the GPUs that host its experts; the combine runs the same path back. So:
- fabric bytes per token = (nodes reached that are not the sender's) x token bytes: one copy per node, not one per
  expert (an All-to-All of top-k copies, as NCCL's dispatcher runs it, sends up to K_r / M = 2 times more);
- NVLink bytes per GPU = tokens x (GPUs reached) x (g - 1) / g x token bytes, g = the group's GPUs per node (a
  token forwarded to, or sent from, the GPU on the path's own index does not cross NVLink);
- the two run at once (the report: "communications via IB and NVLink are fully overlapped"), so a dispatch takes
  the longer of the two.

Nodes and GPUs reached, expected over tokens with independent, identically distributed affinities (a balanced
router, which the report's load balancing aims for): without a limit, or with M at least the group's nodes, k
experts drawn from E spread evenly over N nodes reach N (1 - C(E - E/N, k) / C(E, k)) nodes (hypergeometric);
with M < N the report's gate is applied to 4,096 tokens of random affinities (DeepEP's benchmark batch, seed
fixed), so the figure does not move between runs: its standard error is below 0.5 %. The same for GPUs.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

GATE_TOKENS = 4096  # tokens of random affinities the node-limited gate is applied to (DeepEP's benchmark batch)


@dataclass(frozen=True, slots=True)
class ExpertReach:
    nodes: float  # expected nodes a token reaches, its own included
    ranks: float  # expected GPUs (EP ranks) a token reaches, its own included
    group_nodes: int  # N: nodes the EP group spans
    group_ranks: int  # n: GPUs of the EP group

    @property
    def remote_nodes(self) -> float:
        """Nodes reached other than the sender's: every node is reached with the same chance nodes / N."""
        return self.nodes * (1 - 1 / self.group_nodes)

    @property
    def ranks_per_node(self) -> int:
        return self.group_ranks // self.group_nodes


def _spread(experts: int, k: int, bins: int) -> float:
    """Expected distinct bins that k of `experts` experts (spread evenly over `bins`) fall in, drawn without
    replacement."""
    per = experts // bins
    return bins * (1 - comb(experts - per, k) / comb(experts, k))


@lru_cache(maxsize=256)
def expert_reach(*, experts: int, top_k: int, group_nodes: int, group_ranks: int, node_limit: int) -> ExpertReach:
    """Nodes and GPUs a token reaches (module docstring). `node_limit` 0: no limit."""
    if experts < 1 or top_k < 1 or group_nodes < 1 or group_ranks < group_nodes or experts % group_ranks:
        raise ValueError("experts must spread evenly over the group's GPUs and nodes")
    k = min(top_k, experts)
    if node_limit <= 0 or node_limit >= group_nodes:
        return ExpertReach(_spread(experts, k, group_nodes), _spread(experts, k, group_ranks), group_nodes,
                           group_ranks)
    rng = np.random.default_rng(0xD5E3)
    per_node = experts // group_nodes
    scores = rng.random((GATE_TOKENS, group_nodes, per_node))
    # the node's score: the sum of its top K_r / M affinities (section 2.1.2)
    top = max(1, k // node_limit)
    node_score = np.sort(scores, axis=2)[:, :, -top:].sum(axis=2)
    chosen = np.argsort(-node_score, axis=1, kind="stable")[:, :node_limit]
    masked = np.full(scores.shape, -1.0)
    rows = np.arange(GATE_TOKENS)[:, None]
    masked[rows, chosen] = scores[rows, chosen]
    picked = np.argsort(-masked.reshape(GATE_TOKENS, experts), axis=1, kind="stable")[:, :k]
    per_rank = experts // group_ranks
    nodes = _distinct(picked // per_node, group_nodes)
    ranks = _distinct(picked // per_rank, group_ranks)
    return ExpertReach(float(nodes), float(ranks), group_nodes, group_ranks)


def _distinct(bins: np.ndarray, count: int) -> float:
    hit = np.zeros((bins.shape[0], count), dtype=bool)
    hit[np.arange(bins.shape[0])[:, None], bins] = True
    return float(hit.sum(axis=1).mean())
