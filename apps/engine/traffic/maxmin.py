"""Max-min fair rates of flows over capacitated link directions (progressive filling), and the
flow-level time of a phase in which every flow carries its bytes.

Progressive filling (Bertsekas and Gallager, Data Networks, section 6.5.2): all unfrozen flows
grow at the same rate; a link direction saturates when the sum of coef x rate of its flows
reaches its capacity; every flow crossing a saturated link direction freezes at its rate; repeat
until every flow is frozen. `coef` is the share of a flow that crosses a link direction: 1 for a
flow routed on one path (ECMP, hash-aware), 1/K on each of the K sub-paths of a sprayed flow.
Link directions that saturate within REL_TOL (1 %) of the least fair share freeze together
(one round), so the rounds are the distinct bottleneck levels and a rate is at most 1 % low.
After PRECISE_ROUNDS rounds the band widens to COARSE_TOL (10 %), which bounds the rounds by
log(highest / lowest level) / log 1.1 (a few dozen) however many distinct levels random hashing
makes; those later rates are at most 10 % low (`max_min_rates` returns how low at most).

Phase time (flow level, not packet level): rates are recomputed whenever a wave of flows has
finished (at least WAVE_SHARE, a quarter, of the running flows, or those within REL_TOL of the
first), so flows that finish early hand their bandwidth to the rest; within a wave rates are held,
so a flow that ends early hands its bandwidth over at the wave's end (slightly pessimistic). After MAX_WAVES waves the remaining flows keep their last
rates; the result counts the waves so a reader can see when that cap was reached.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

REL_TOL = 1e-2
COARSE_TOL = 0.1
PRECISE_ROUNDS = 24
MAX_WAVES = 6
WAVE_SHARE = 0.25
MAX_ROUNDS = 10_000


def max_min_rates(flow: np.ndarray, link: np.ndarray, coef: np.ndarray, capacity: np.ndarray, n_flows: int,
                  dense: bool = False) -> np.ndarray:
    """Rate per flow (capacity units). Entry i says flow[i] puts coef[i] of its rate on link[i].

    Works on the link directions in use only (renumbered densely), and keeps the common level of the
    unfrozen flows as one number, so a round costs O(entries still active)."""
    rate = np.full(n_flows, np.inf)  # a flow on no capacitated link (none in practice): unlimited
    if not len(flow):
        return rate
    if dense:  # links already numbered 0..len(capacity)-1 over the directions in use (phase_time)
        residual = np.asarray(capacity, dtype=np.float64).copy()
    else:
        used_links, link = np.unique(link, return_inverse=True)
        link = link.reshape(-1)
        residual = capacity[used_links].astype(np.float64)
    n_links = len(residual)
    level_total = 0.0
    for round_ in range(MAX_ROUNDS):
        if not len(flow):
            break
        tol = REL_TOL if round_ < PRECISE_ROUNDS else COARSE_TOL
        load = np.bincount(link, weights=coef, minlength=n_links)
        share = np.full(n_links, np.inf)
        np.divide(np.maximum(residual, 0.0), load, out=share, where=load > 0)
        level = float(share.min())
        level_total += level
        residual -= load * level
        saturated = share <= level + tol * level_total + 1e-12  # within tol of the rate reached
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
    # once for every wave: the link directions in use, numbered densely (a lookup table, no sort)
    capacity_gbps = np.asarray(capacity_gbps, dtype=np.float64)
    in_use = np.bincount(link, minlength=len(capacity_gbps)) > 0
    number = np.cumsum(in_use) - 1
    link = number[link]
    capacity_gbps = capacity_gbps[in_use]
    remaining = np.asarray(flow_bytes, dtype=np.float64) * 8 / 1e9  # gigabits
    alive = remaining > 0
    elapsed, waves, first = 0.0, 0, None
    capped = False
    while alive.any():
        keep = alive[flow]
        rate = max_min_rates(flow[keep], link[keep], coef[keep], capacity_gbps, n, dense=True)
        if first is None:
            first = rate.copy()
        rate = np.where(alive, rate, np.inf)
        finish = np.where(alive, remaining / np.maximum(rate, 1e-30), np.inf)
        waves += 1
        if waves >= MAX_WAVES:
            elapsed += float(finish[alive].max())
            capped = bool((finish[alive] > finish[alive].min() * (1 + REL_TOL)).any())
            break
        # a wave lasts until at least WAVE_SHARE of the running flows are done (their rates held meanwhile)
        step = max(float(finish[alive].min()) * (1 + REL_TOL), float(np.quantile(finish[alive], WAVE_SHARE)))
        done = alive & (finish <= step)
        step = float(finish[done].max())
        elapsed += step
        remaining = np.where(alive, remaining - rate * step, 0.0)
        alive &= ~done
    return PhaseTime(seconds=elapsed, waves=waves, capped=capped,
                     first_rates=first if first is not None else np.zeros(n))
