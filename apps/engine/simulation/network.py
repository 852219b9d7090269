"""The designed fabric as the flow model sees it: routing modes, failures, and one phase's time.

Routing (apps.engine.traffic.fabric routes every flow on the design's own links):
- "ecmp": every switch hashes the flow's 5-tuple with a seeded random source port (as the
  traffic analysis does);
- "hash-aware": the sender picks source ports so each switch's flows go round-robin over its
  next hops (the traffic analysis' hash-aware strategy);
- "spray": adaptive routing / packet spraying, ideal per-packet balance. Every equal-cost choice
  is then balanced, so the links a flow may take at a hop act as one bundle with their summed
  capacity: the source leaf's uplinks, the destination leaf's downlinks from the spines, and
  across pods the source pod's spine-core links up and the destination pod's down. A flow
  crosses its NIC links and those bundles; a bundle's load is shown spread over its links in
  proportion to their capacity. (Exact for ideal spraying on a fabric whose spines all reach
  every leaf of their pod, which the planner builds.)

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
from ..traffic.latency import PROPAGATION_NS_PER_M
from ..traffic.maxmin import PhaseTime, phase_time

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

    def phase(self, src_nic: np.ndarray, dst_nic: np.ndarray, flow_bytes: np.ndarray, *, routing: str,
              seed: int = 0, flow_of: np.ndarray | None = None, share: np.ndarray | None = None,
              fabric_derate: float = 1.0) -> "Phase":
        """Route the flows with `routing` and time them with max-min fair sharing.

        Without `flow_of`, every (src, dst) pair is a flow carrying flow_bytes[i]. With it, the pairs are
        sub-flows (queue pairs of ring channels, rings.py): sub-flow i carries share[i] of the rate of
        coupled flow flow_of[i], whose bytes are flow_bytes[flow_of[i]]; each sub-flow is routed on its own.
        `fabric_derate` divides the switch-to-switch capacities (an expected hashing imbalance, simulate.py)."""
        if routing not in ROUTINGS:
            raise ValueError(f"routing must be one of {ROUTINGS}")
        src = self.nic_map[np.asarray(src_nic, dtype=np.int64)]
        dst = self.nic_map[np.asarray(dst_nic, dtype=np.int64)]
        fbytes = np.asarray(flow_bytes, dtype=np.float64)
        if flow_of is None:
            flow_of = np.arange(len(src), dtype=np.int64)
            share = np.ones(len(src))
        else:
            flow_of = np.asarray(flow_of, dtype=np.int64)
            share = np.ones(len(src)) if share is None else np.asarray(share, dtype=np.float64)
        keep = src != dst  # two GPUs remapped onto one NIC talk over NVLink
        src, dst, flow_of, share = src[keep], dst[keep], flow_of[keep], share[keep]
        n = len(src)
        if routing == "spray":
            sub, link, coef, ok = self._spray_entries(src, dst)
        else:
            routes = self.fabric.route(src, dst, strategy=routing, seed=seed)
            hops, routed = routes.hops, routes.routed
            if not routed.all():
                hops, routed = self._rehash(src, dst, hops, routed, seed)
            valid = (hops >= 0) & routed[None, :]
            sub = np.broadcast_to(np.arange(n, dtype=np.int64)[None, :], hops.shape)[valid]
            link = hops[valid].astype(np.int64)
            coef = np.ones(len(sub))
            ok = routed
        n_flows = len(fbytes)
        flow_ok = np.bincount(flow_of[~ok], minlength=n_flows) == 0
        flow, coef = flow_of[sub], coef * share[sub]
        capacity = self.capacity if routing != "spray" else self.spray_capacity
        if fabric_derate != 1.0:
            capacity = capacity.copy()
            n_dirs = len(self.capacity)
            switch_dirs = np.r_[np.repeat(self.fabric.tier >= 1, 2), np.ones(len(capacity) - n_dirs, dtype=bool)]
            capacity[switch_dirs] /= fabric_derate
        timed = phase_time(flow, link, coef, capacity, np.where(flow_ok, fbytes, 0.0))
        carried = np.bincount(link, weights=coef * fbytes[flow] * 8 / 1e9, minlength=len(capacity))
        if routing == "spray":  # a bundle's load spreads over its members in proportion to capacity
            real = carried[:len(self.capacity)].copy()
            part = carried[len(self.capacity):][self.bundle_of] * self.capacity[self.bundle_members] \
                / self.spray_capacity[len(self.capacity):][self.bundle_of]
            np.add.at(real, self.bundle_members, part)
            carried = real
        return Phase(timed=timed, flows=n, unroutable=int((~ok).sum()), link_gbits=carried, src=src, dst=dst)

    def _bundles(self) -> None:
        """Ideal spraying balances every equal-cost choice, so the links a flow may take at a hop act as
        one bundle: a leaf's uplinks, a leaf's downlinks from the spines, a component's (pod's) spine-core
        links up and down. Bundle b is capacity index n_dirs + b; bundle_members / bundle_of list the
        link directions of each bundle."""
        f = self.fabric
        n_dirs = len(self.capacity)
        t1 = np.flatnonzero(f.tier == 1)
        t2 = np.flatnonzero(f.tier == 2)
        n_dev, n_comp = f.n_devices, max(f.n_components, 1)
        # bundle keys: 0 leaf up (by leaf), 1 leaf down (by leaf), 2 comp up, 3 comp down
        keys = np.concatenate([f.a_dev[t1], n_dev + f.a_dev[t1],
                               2 * n_dev + f.component[f.a_dev[t2]], 2 * n_dev + n_comp + f.component[f.a_dev[t2]]])
        members = np.concatenate([2 * t1, 2 * t1 + 1, 2 * t2, 2 * t2 + 1])
        uniq, bundle = np.unique(keys, return_inverse=True)
        self.bundle_index = np.full(2 * n_dev + 2 * n_comp, -1, dtype=np.int64)
        self.bundle_index[uniq] = np.arange(len(uniq))
        self.bundle_members = members
        self.bundle_of = bundle.reshape(-1)
        bundle_cap = np.bincount(self.bundle_of, weights=self.capacity[members], minlength=len(uniq))
        self.spray_capacity = np.concatenate([self.capacity, bundle_cap])
        self._n_dirs, self._n_dev, self._n_comp = n_dirs, n_dev, n_comp

    def _spray_entries(self, src: np.ndarray, dst: np.ndarray):
        f = self.fabric
        if not hasattr(self, "spray_capacity"):
            self._bundles()
        n = len(src)
        idx = np.arange(n, dtype=np.int64)
        la, lb = f.nic_leaf[src], f.nic_leaf[dst]
        remote = la != lb
        far = remote & (f.component[la] != f.component[lb])
        nd, ndev, ncomp = self._n_dirs, self._n_dev, self._n_comp
        r, g = idx[remote], idx[far]
        bundle_flow = np.concatenate([r, r, g, g])
        bundle = np.concatenate([
            self.bundle_index[la[remote]], self.bundle_index[ndev + lb[remote]],
            self.bundle_index[2 * ndev + f.component[la[far]]],
            self.bundle_index[2 * ndev + ncomp + f.component[lb[far]]]])
        ok = np.ones(n, dtype=bool)
        ok[bundle_flow[bundle < 0]] = False  # a leaf or pod left without uplinks: no path
        keep = ok[bundle_flow]
        flow = np.concatenate([idx[ok], idx[ok], bundle_flow[keep]])
        link = np.concatenate([2 * f.nic_link[src[ok]], 2 * f.nic_link[dst[ok]] + 1, nd + bundle[keep]])
        return flow, link, np.ones(len(flow)), ok

    def step_us(self, src_nic: np.ndarray, dst_nic: np.ndarray, *, switch_ns: float, nic_ns: float) -> float:
        """One network step's latency over the longest path of these flows: 2 NIC ends, the switches on
        the path, and the longest cable of each tier it crosses (both ways) at 5 ns/m."""
        f = self.fabric
        src, dst = self.nic_map[np.asarray(src_nic, dtype=np.int64)], self.nic_map[np.asarray(dst_nic, dtype=np.int64)]
        if not len(src):
            return 0.0
        la, lb = f.nic_leaf[src], f.nic_leaf[dst]
        remote = la != lb
        far = remote & (f.component[la] != f.component[lb])
        switches = 5 if far.any() else 3 if remote.any() else 1
        lengths = np.asarray(self.plan.links.length_m, dtype=np.float64)
        longest = [float(lengths[f.tier == t].max()) if (f.tier == t).any() else 0.0 for t in range(3)]
        metres = 2 * longest[0] + (2 * longest[1] if switches >= 3 else 0.0) + (2 * longest[2] if switches == 5 else 0.0)
        return (2 * nic_ns + switches * switch_ns + metres * PROPAGATION_NS_PER_M) / 1e3

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
