"""The designed fabric as the flow model sees it: routing modes, failures, and one phase's time.

Routing (apps.engine.traffic.fabric routes every flow on the design's own links):
- "ecmp": every switch hashes the flow's 5-tuple with a seeded random source port (as the
  traffic analysis does);
- "hash-aware": the sender picks source ports so each switch's flows go round-robin over its
  next hops (the traffic analysis' hash-aware strategy);
- "spray": adaptive routing / packet spraying, ideal per-packet balance. A flow is split into K
  equal sub-flows, K = the most uplinks any leaf has, routed hash-aware: the K copies of one
  flow take consecutive turns at each switch, so they leave on K different uplinks and every
  switch spreads them evenly; each carries 1/K of the flow (coef 1/K in the max-min model).

Failures (one at a time; the first device of the role in plane 0, named in the result):
- "link": one leaf-spine link down (the first leaf's first uplink);
- "leaf": one leaf down: its uplinks are gone and the NICs cabled to it are dark; their GPUs
  send through the NIC of the next rail of the same server (over NVLink, as PXN does);
- "spine" / "core": every link of that switch down.
Routing then re-spreads over what is left: the fabric's equal-cost sets are rebuilt without the
failed links (as BGP withdraws them). A flow whose hashed path would still need a withdrawn
link (a spine that lost its only link to the destination leaf) is re-hashed on the remaining
choices, up to REHASH_TRIES times; flows still without a path are counted as unroutable.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..model import LinkTable, Plan
from ..traffic import Fabric
from .maxmin import PhaseTime, phase_time

ROUTINGS = ("ecmp", "hash-aware", "spray")
FAILURES = ("link", "leaf", "spine", "core")
REHASH_TRIES = 8


@dataclass(frozen=True, slots=True)
class Failure:
    kind: str
    device: str  # the failed device (or the link's "a - b" ends)


def _subset(links: LinkTable, keep: np.ndarray) -> LinkTable:
    return LinkTable(**{name: getattr(links, name)[keep] for name in LinkTable.__slots__})


class FabricModel:
    """A Fabric (healthy or with one failure) plus the NIC remapping a failed leaf causes."""

    def __init__(self, plan: Plan, failure: str | None = None) -> None:
        self.failure: Failure | None = None
        if failure is not None:
            plan, self.failure, failed_leaf = _fail(plan, failure)
        else:
            failed_leaf = None
        self.plan = plan
        self.fabric = Fabric(plan)
        f = self.fabric
        self.capacity = f.capacity_dir
        self.nic_map = np.arange(f.servers * f.nic_ports, dtype=np.int64)
        if failed_leaf is not None:
            nic_dark = f.nic_leaf == failed_leaf
            ports = f.nic_ports
            for _ in range(1, ports):  # the next rail of the same server whose NIC is not dark
                moved = nic_dark[self.nic_map]
                if not moved.any():
                    break
                base = self.nic_map[moved] // ports * ports
                self.nic_map[moved] = base + (self.nic_map[moved] - base + 1) % ports
        self.max_uplinks = int(f.up1_count.max()) if len(f.up1_count) else 1

    def phase(self, src_nic: np.ndarray, dst_nic: np.ndarray, flow_bytes: np.ndarray, *, routing: str,
              seed: int = 0) -> "Phase":
        """Route the flows with `routing` and time them with max-min fair sharing."""
        if routing not in ROUTINGS:
            raise ValueError(f"routing must be one of {ROUTINGS}")
        src = self.nic_map[np.asarray(src_nic, dtype=np.int64)]
        dst = self.nic_map[np.asarray(dst_nic, dtype=np.int64)]
        keep = src != dst  # two GPUs remapped onto one NIC talk over NVLink
        src, dst, fbytes = src[keep], dst[keep], np.asarray(flow_bytes, dtype=np.float64)[keep]
        n = len(src)
        copies = self.max_uplinks if routing == "spray" else 1
        if copies > 1:
            src_r, dst_r = np.repeat(src, copies), np.repeat(dst, copies)
        else:
            src_r, dst_r = src, dst
        strategy = "ecmp" if routing == "ecmp" else "hash-aware"
        routes = self.fabric.route(src_r, dst_r, strategy=strategy, seed=seed)
        hops, routed = routes.hops, routes.routed
        if not routed.all():
            hops, routed = self._rehash(src_r, dst_r, hops, routed, seed)
        owner = np.repeat(np.arange(n, dtype=np.int64), copies) if copies > 1 else np.arange(n, dtype=np.int64)
        valid = (hops >= 0) & routed[None, :]
        flow = np.broadcast_to(owner[None, :], hops.shape)[valid]
        link = hops[valid].astype(np.int64)
        coef = np.full(len(flow), 1.0 / copies)
        ok = np.zeros(n, dtype=bool)
        np.logical_or.at(ok, owner, routed)
        timed = phase_time(flow, link, coef, self.capacity, np.where(ok, fbytes, 0.0))
        link_gbits = np.bincount(link, weights=coef * fbytes[flow] * 8 / 1e9,
                                 minlength=len(self.capacity))
        return Phase(timed=timed, flows=n, unroutable=int((~ok).sum()), link_gbits=link_gbits,
                     src=src, dst=dst)

    def _rehash(self, src, dst, hops, routed, seed):
        hops = hops.copy()
        routed = routed.copy()
        for attempt in range(1, REHASH_TRIES + 1):
            bad = np.flatnonzero(~routed)
            if not len(bad):
                break
            again = self.fabric.route(src[bad], dst[bad], strategy="ecmp", seed=seed + 7919 * attempt)
            fixed = again.routed
            hops[:, bad[fixed]] = again.hops[:, fixed]
            routed[bad[fixed]] = True
        return hops, routed


@dataclass(slots=True)
class Phase:
    timed: PhaseTime
    flows: int
    unroutable: int
    link_gbits: np.ndarray  # per link direction, gigabits carried in the phase
    src: np.ndarray
    dst: np.ndarray

    @property
    def seconds(self) -> float:
        return self.timed.seconds


def _fail(plan: Plan, kind: str) -> tuple[Plan, Failure, int | None]:
    if kind not in FAILURES:
        raise ValueError(f"failure must be one of {FAILURES}")
    links = plan.links
    roles = np.array([d.role for d in plan.devices])
    planes = np.array([d.plane for d in plan.devices])
    keep = np.ones(len(links), dtype=bool)
    failed_leaf = None
    if kind == "link":
        t1 = np.flatnonzero(links.tier == 1)
        if not len(t1):
            raise ValueError("the design has no leaf-spine link to fail")
        first = t1[np.lexsort((links.a_port[t1], links.a_dev[t1]))][0]
        keep[first] = False
        name = f"{plan.devices[int(links.a_dev[first])].name} - {plan.devices[int(links.b_dev[first])].name}"
    else:
        candidates = np.flatnonzero((roles == kind) & (planes <= 0))
        if not len(candidates):
            candidates = np.flatnonzero(roles == kind)
        if not len(candidates):
            raise ValueError(f"the design has no {kind} to fail")
        dev = int(candidates[0])
        name = plan.devices[dev].name
        touches = (links.a_dev == dev) | (links.b_dev == dev)
        if kind == "leaf":
            keep &= ~(touches & (links.tier >= 1))  # its NIC links stay cabled but dark (see nic_map)
            failed_leaf = dev
        else:
            keep &= ~touches
    return replace(plan, links=_subset(links, keep)), Failure(kind=kind, device=name), failed_leaf
