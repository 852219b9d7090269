"""Closed-form references for random ECMP: n flows hashed uniformly onto k equal links.

This is the balls-into-bins model. For one flow, each of the other n-1 flows lands on its
link with probability 1/k, so the expected share of flows that share their link is

    1 - (1 - 1/k) ** (n - 1).

The expected share of links carrying two or more flows is 1 - P0 - P1 with
P0 = (1 - 1/k) ** n and P1 = n/k * (1 - 1/k) ** (n - 1); the expected most loaded link
uses the Poisson approximation P(max <= m) ~ P(Poisson(n/k) <= m) ** k.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def collision_share(n, k):
    """Expected share of flows that share their link with another flow (array-friendly)."""
    n = np.asarray(n, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 1.0 - np.power(1.0 - 1.0 / np.maximum(k, 1.0), np.maximum(n - 1.0, 0.0))
    out = np.where(k <= 1, np.where(n > 1, 1.0, 0.0), out)
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True, slots=True)
class BallsIntoBins:
    flows: int
    links: int
    collision_share: float  # flows sharing their link
    colliding_links_share: float  # links with >= 2 flows
    empty_links_share: float
    expected_max: float  # flows on the most loaded link
    expected_max_over_mean: float


def balls_into_bins(n: int, k: int) -> BallsIntoBins:
    """Expected outcome of hashing n flows onto k links uniformly at random."""
    if n <= 0 or k <= 0:
        return BallsIntoBins(max(n, 0), max(k, 0), 0.0, 0.0, 1.0 if k else 0.0, 0.0, 1.0)
    q = 1.0 - 1.0 / k
    p0 = q ** n
    p1 = n / k * q ** (n - 1)
    exp_max = _expected_max(n, k)
    return BallsIntoBins(n, k, float(collision_share(n, k)), max(0.0, 1.0 - p0 - p1), p0, exp_max,
                         exp_max / (n / k))


def _expected_max(n: int, k: int) -> float:
    if k == 1:
        return float(n)
    lam = n / k
    # E[max] = sum_{m>=0} P(max > m), with P(max <= m) ~ F_poisson(m) ** k
    total, cdf, term, m = 0.0, 0.0, math.exp(-lam), 0
    while m <= n:
        cdf += term
        p_le = min(1.0, cdf) ** k
        if 1.0 - p_le < 1e-12 and m >= lam:
            break
        total += 1.0 - p_le
        m += 1
        term *= lam / m
    return max(total, float(math.ceil(n / k)))
