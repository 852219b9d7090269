"""Max-min fair rates of flows over capacitated link directions (progressive filling), and the
flow-level time of a phase in which every flow carries its bytes.

Progressive filling (Bertsekas and Gallager, Data Networks, section 6.5.2): all unfrozen flows
grow at the same rate; a link direction saturates when the sum of coef x rate of its flows
reaches its capacity; every flow crossing a saturated link direction freezes at its rate; repeat
until every flow is frozen. `coef` is the share of a flow that crosses a link direction: 1 for a
flow routed on one path (ECMP, hash-aware), 1/K on each of the K sub-paths of a sprayed flow.
Link directions that saturate within REL_TOL (1 %) of the least fair share freeze together
(one round), so the rounds are the distinct bottleneck levels and a rate is at most 1 % low.

Phase time (flow level, not packet level): rates are recomputed whenever a wave of flows has
finished (flows finishing within REL_TOL of the first are one wave), so flows that finish early
hand their bandwidth to the rest. After MAX_WAVES waves the remaining flows keep their last
rates; the result counts the waves so a reader can see when that cap was reached.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

REL_TOL = 1e-2
MAX_WAVES = 8
MAX_ROUNDS = 10_000


def max_min_rates(flow: np.ndarray, link: np.ndarray, coef: np.ndarray, capacity: np.ndarray, n_flows: int
                  ) -> np.ndarray:
    """Rate per flow (capacity units). Entry i says flow[i] puts coef[i] of its rate on link[i].

    Works on the link directions in use only (renumbered densely), and keeps the common level of the
    unfrozen flows as one number, so a round costs O(entries still active)."""
    rate = np.full(n_flows, np.inf)  # a flow on no capacitated link (none in practice): unlimited
    if not len(flow):
        return rate
    used_links, link = np.unique(link, return_inverse=True)
    link = link.reshape(-1)
    residual = capacity[used_links].astype(np.float64)
    n_links = len(used_links)
    level_total = 0.0
    for _ in range(MAX_ROUNDS):
        if not len(flow):
            break
        load = np.bincount(link, weights=coef, minlength=n_links)
        share = np.full(n_links, np.inf)
        np.divide(np.maximum(residual, 0.0), load, out=share, where=load > 0)
        level = float(share.min())
        level_total += level
        residual -= load * level
        saturated = share <= level * (1 + REL_TOL) + 1e-12
        done = flow[saturated[link]]
        rate[done] = level_total
        keep = np.isinf(rate[flow])
        flow, link, coef = flow[keep], link[keep], coef[keep]
    if len(flow):
        rate[flow] = level_total
    return rate


@dataclass(slots=True)
class PhaseTime:
    seconds: float  # until the last flow has its bytes
    waves: int  # rate recomputations
    capped: bool  # MAX_WAVES reached: the rest kept their last rates
    first_rates: np.ndarray  # Gb/s per flow in the first wave (everything running)


def phase_time(flow: np.ndarray, link: np.ndarray, coef: np.ndarray, capacity_gbps: np.ndarray,
               flow_bytes: np.ndarray) -> PhaseTime:
    """Time for every flow to carry flow_bytes[f] when rates are max-min fair among the running flows."""
    n = len(flow_bytes)
    remaining = np.asarray(flow_bytes, dtype=np.float64) * 8 / 1e9  # gigabits
    alive = remaining > 0
    elapsed, waves, first = 0.0, 0, None
    capped = False
    while alive.any():
        keep = alive[flow]
        rate = max_min_rates(flow[keep], link[keep], coef[keep], capacity_gbps, n)
        if first is None:
            first = rate.copy()
        rate = np.where(alive, rate, np.inf)
        finish = np.where(alive, remaining / np.maximum(rate, 1e-30), np.inf)
        waves += 1
        if waves >= MAX_WAVES:
            elapsed += float(finish[alive].max())
            capped = bool((finish[alive] > finish[alive].min() * (1 + REL_TOL)).any())
            break
        step = float(finish[alive].min())
        done = alive & (finish <= step * (1 + REL_TOL))
        elapsed += step
        remaining = np.where(alive, remaining - rate * step, 0.0)
        alive &= ~done
    return PhaseTime(seconds=elapsed, waves=waves, capped=capped,
                     first_rates=first if first is not None else np.zeros(n))
