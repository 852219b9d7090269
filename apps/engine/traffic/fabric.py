"""Routing index of a planned fabric and vectorised up-down routing of flows over it.

Rules (valley-free shortest paths of a rail-optimized Clos, as BGP/ECMP installs them):
- A NIC reaches its fabric through the tier-0 link of its port; a flow leaves on the source
  NIC's link and arrives on the destination NIC's link (hops 0 and 5).
- Both NICs on one leaf: the leaf switches the flow locally.
- Leaves in one leaf-spine component (a 2-tier fabric, or one pod of a 3-tier fabric; the
  components are found from the tier-1 links): the source leaf picks one of its uplinks
  (hop 1, an equal-cost choice), the spine picks one of its parallel links down to the
  destination leaf (hop 4).
- Leaves in different components: leaf uplink (hop 1), then the spine picks one of its core
  uplinks (hop 2), the core picks one of its links down into the destination component
  (hop 3, equal-cost among its spines there and their parallel links), and that spine
  goes down to the destination leaf (hop 4). When a partly filled pod is not reached by
  every core, the equal-cost sets towards it shrink to the spines and cores that do reach
  it, as BGP would install them.
Every equal-cost choice is made either by the ECMP hash (hashing.py) or, for "hash-aware"
routing, by an ideal source-port choice that places flows round-robin over the choices at
each switch (see _RoundRobinChooser for the order).

Link loads are kept per direction: index 2*link is a-to-b ("up"), 2*link+1 is b-to-a ("down").
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model import Plan
from ..roce.headroom import tier_gbps
from .hashing import crc32_5tuple, ecmp_pick, fmix32, random_source_ports, switch_seeds

STRATEGIES = ("ecmp", "hash-aware")
HOPS = ("server-leaf up", "leaf-spine up", "spine-core up", "spine-core down", "leaf-spine down",
        "server-leaf down")
HOP_TIER = (0, 1, 2, 2, 1, 0)
HOP_DOWN = (False, False, False, True, True, True)


class _PairIndex:
    """Links grouped by an (int, int) key, looked up for many flows at once.

    Dense (a table indexed by both keys) when that table is small, sorted keys otherwise.
    """

    DENSE_LIMIT = 1 << 22

    def __init__(self, first: np.ndarray, second: np.ndarray, rows: np.ndarray, first_size: int,
                 second_size: int) -> None:
        self.width = np.int64(max(second_size, 1))
        keys = first.astype(np.int64) * self.width + second.astype(np.int64)
        order = np.argsort(keys, kind="stable")
        self.keys = keys[order]
        self.rows = rows[order]
        size = int(max(first_size, 1)) * int(self.width)
        self.dense = size <= self.DENSE_LIMIT
        if self.dense:
            counts = np.bincount(self.keys, minlength=size)
            self.start = np.zeros(size, dtype=np.int64)
            np.cumsum(counts[:-1], out=self.start[1:])
            self.count = counts

    def lookup(self, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(start, count) into self.rows per query; count 0 where the pair has no link."""
        q = first.astype(np.int64) * self.width + second.astype(np.int64)
        if self.dense:
            return self.start[q], self.count[q]
        lo = np.searchsorted(self.keys, q, side="left")
        hi = np.searchsorted(self.keys, q, side="right")
        return lo, hi - lo


@dataclass(slots=True)
class Routes:
    """Per-flow paths: hops[h, f] is the link-direction index of hop h of flow f, -1 if unused."""

    hops: np.ndarray  # int32, shape (6, flows)
    routed: np.ndarray  # bool, flows that found a path


class Fabric:
    """What routing needs from a Plan, as flat numpy arrays."""

    def __init__(self, plan: Plan) -> None:
        links = plan.links
        self.plan = plan
        self.n_links = len(links)
        self.n_devices = len(plan.devices)
        a_dev = links.a_dev.astype(np.int64)
        b_dev = links.b_dev.astype(np.int64)
        tier = links.tier.astype(np.int64)
        self.a_dev, self.b_dev, self.tier = a_dev, b_dev, tier
        self.tier_gbps = {t: float(tier_gbps(plan.spec, t)) for t in range(3)}
        self.capacity = np.array([self.tier_gbps[0], self.tier_gbps[1], self.tier_gbps[2]])[tier]
        self.capacity_dir = np.repeat(self.capacity, 2)
        roles = np.array([d.role for d in plan.devices])
        is_server = roles == "server"
        self.is_leaf = roles == "leaf"

        # NIC ports: one per tier-0 link, numbered by (server ordinal, rail, plane).
        server_rank = np.full(self.n_devices, -1, dtype=np.int64)
        server_rank[np.flatnonzero(is_server)] = np.arange(int(is_server.sum()))
        t0 = np.flatnonzero(tier == 0)
        srv = server_rank[a_dev[t0]]
        rail = links.rail[t0].astype(np.int64)
        plane = links.plane[t0].astype(np.int64)
        order = np.lexsort((plane, rail, srv))
        t0, srv, rail = t0[order], srv[order], rail[order]
        self.servers = int(is_server.sum())
        per_server = np.bincount(srv, minlength=self.servers) if len(srv) else np.zeros(self.servers, np.int64)
        self.nic_ports = int(per_server.max()) if self.servers and len(srv) else 0
        if self.servers and np.any(per_server != self.nic_ports):
            raise ValueError("every server must have the same number of backend links")
        # nic_link[s * nic_ports + k] = tier-0 link of the k-th backend port of server s
        self.nic_link = t0
        self.nic_leaf = b_dev[t0]
        self.nic_ip = (links.subnet[t0].astype(np.uint64) + 1).astype(np.uint32)
        self.nic_gbps = self.tier_gbps[0]

        # Leaf and spine ordinals (rotation order of the hash-aware round robin).
        self.ordinal = np.zeros(self.n_devices, dtype=np.int64)
        for role in ("leaf", "spine", "core"):
            members = np.flatnonzero(roles == role)
            self.ordinal[members] = np.arange(len(members))

        t1 = np.flatnonzero(tier == 1)
        t2 = np.flatnonzero(tier == 2)
        # uplinks grouped by lower device, in port order
        up1 = t1[np.lexsort((links.a_port[t1], a_dev[t1]))]
        self.up1_links, self.up1_start, self.up1_count = self._grouped(up1, a_dev[up1])
        up2 = t2[np.lexsort((links.a_port[t2], a_dev[t2]))]
        self.up2_links, self.up2_start, self.up2_count = self._grouped(up2, a_dev[up2])
        # leaf-spine components: a label per leaf and spine, connected through tier-1 links
        self.component = self._components(a_dev[t1], b_dev[t1])
        self.n_components = int(self.component.max()) + 1 if self.n_devices else 0
        # spine -> leaf parallel links, keyed by (spine ordinal, leaf ordinal)
        n_spines = int(np.count_nonzero(roles == "spine"))
        n_leaves = int(np.count_nonzero(self.is_leaf))
        n_cores = int(np.count_nonzero(roles == "core"))
        self.down1 = _PairIndex(self.ordinal[b_dev[t1]], self.ordinal[a_dev[t1]], t1, n_spines, n_leaves)
        # core -> any spine of a component, keyed by (core ordinal, component)
        self.down2 = _PairIndex(self.ordinal[b_dev[t2]], self.component[a_dev[t2]], t2, n_cores,
                                self.n_components)
        self.full_mesh = self._full_mesh(a_dev[t1], b_dev[t1])
        self.choice_groups = self._choice_groups(t1, t2)
        self._reachability(roles, t2, n_spines, n_cores)

    def _reachability(self, roles: np.ndarray, t2: np.ndarray, n_spines: int, n_cores: int) -> None:
        """Which cores, and which spines through their cores, reach each component.

        A partly filled last pod may have fewer spine uplinks than there are cores; cores it does
        not reach must not be used towards it (BGP would not install them), so routing then
        restricts the equal-cost sets per destination component.
        """
        n_comp = max(self.n_components, 1)
        self.core_reach = np.zeros((max(n_cores, 1), n_comp), dtype=bool)
        self.core_reach[self.ordinal[self.b_dev[t2]], self.component[self.a_dev[t2]]] = True
        spine_comps = np.unique(self.component[np.flatnonzero(roles == "spine")]) if n_spines else np.zeros(0, int)
        self.cores_reach_all = not len(t2) or bool(self.core_reach[:, spine_comps].all())
        if self.cores_reach_all:
            return
        # spine_reach[s, c]: some core that spine s links to reaches component c. As a product of the
        # spine-core incidence and core_reach (one matrix product instead of a row-by-row ufunc.at).
        incidence = np.zeros((n_spines, max(n_cores, 1)), dtype=np.float32)
        incidence[self.ordinal[self.a_dev[t2]], self.ordinal[self.b_dev[t2]]] = 1.0
        self.spine_reach = (incidence @ self.core_reach.astype(np.float32)) > 0
        self.up1_pad = self._padded(self.up1_links, self.a_dev[self.up1_links], roles == "leaf")
        self.up2_pad = self._padded(self.up2_links, self.a_dev[self.up2_links], roles == "spine")

    def _padded(self, rows: np.ndarray, owner: np.ndarray, members: np.ndarray) -> np.ndarray:
        """rows grouped by owner ordinal into a (owners, max per owner) table, -1 padded."""
        owner_ord = self.ordinal[owner]
        n_owner = int(members.sum())
        counts = np.bincount(owner_ord, minlength=n_owner)
        table = np.full((n_owner, int(counts.max()) if len(counts) else 0), -1, dtype=np.int64)
        starts = np.zeros(n_owner, dtype=np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        table[owner_ord, np.arange(len(rows)) - starts[owner_ord]] = rows
        return table

    def _restricted(self, pad: np.ndarray, switch: np.ndarray, comp_b: np.ndarray, reach: np.ndarray):
        """Equal-cost links of `switch` whose far end reaches `comp_b`: (pair per flow, count per flow,
        table[pair, k] = k-th such link). Evaluated once per distinct (switch, component)."""
        n_comp = np.int64(max(self.n_components, 1))
        key = self.ordinal[switch] * n_comp + comp_b
        uniq, pair = np.unique(key, return_inverse=True)
        cands = pad[uniq // n_comp]
        far_end = self.ordinal[self.b_dev[np.maximum(cands, 0)]]
        valid = (cands >= 0) & reach[far_end, (uniq % n_comp)[:, None]]
        order = np.argsort(~valid, axis=1, kind="stable")
        table = np.take_along_axis(np.where(valid, cands, -1), order, axis=1)
        pair = pair.reshape(-1)
        return pair, valid.sum(axis=1)[pair], table

    def _choice_groups(self, t1: np.ndarray, t2: np.ndarray) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per choice hop: (link directions, equal-cost group of each, size of each group).

        The flows of one group pick among the group's links, and only they use them, which is
        what the balls-into-bins reference needs.
        """
        a, b, comp = self.a_dev, self.b_dev, self.component
        keys = {
            1: (t1, 0, a[t1]),
            2: (t2, 0, a[t2]),
            3: (t2, 1, b[t2] * max(self.n_components, 1) + comp[a[t2]]),
            4: (t1, 1, b[t1] * self.n_devices + a[t1]),
        }
        out = {}
        for hop, (rows, direction, key) in keys.items():
            _, group, size = np.unique(key, return_inverse=True, return_counts=True)
            out[hop] = (2 * rows + direction, group.reshape(-1), size)
        return out

    def _grouped(self, rows: np.ndarray, owner: np.ndarray):
        counts = np.bincount(owner, minlength=self.n_devices) if len(rows) else np.zeros(self.n_devices, np.int64)
        starts = np.zeros(self.n_devices, dtype=np.int64)
        np.cumsum(counts[:-1], out=starts[1:])
        return rows, starts, counts

    def _components(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        label = np.arange(self.n_devices, dtype=np.int64)
        while len(a):
            low = np.minimum(label[a], label[b])
            new = label.copy()
            np.minimum.at(new, a, low)
            np.minimum.at(new, b, low)
            new = new[new]  # pointer jumping
            if np.array_equal(new, label):
                break
            label = new
        _, dense = np.unique(label, return_inverse=True)
        return dense.astype(np.int64)

    def _full_mesh(self, leaf: np.ndarray, spine: np.ndarray) -> bool:
        """True when every spine of a component links to every leaf of it (routing assumes so)."""
        if not len(leaf):
            return True
        pairs = np.unique(leaf * self.n_devices + spine)
        leaves = np.bincount(self.component[np.unique(leaf)], minlength=self.n_components)
        spines = np.bincount(self.component[np.unique(spine)], minlength=self.n_components)
        got = np.bincount(self.component[pairs // self.n_devices], minlength=self.n_components)
        return bool(np.all(got == leaves * spines))

    # --- routing ---------------------------------------------------------------------------

    def route(self, src_nic: np.ndarray, dst_nic: np.ndarray, *, strategy: str, seed: int = 0,
              sport: np.ndarray | None = None) -> Routes:
        """Paths of flows from NIC port src_nic[f] to dst_nic[f] (indexes into nic_link)."""
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {STRATEGIES}")
        src_nic = np.asarray(src_nic, dtype=np.int64)
        dst_nic = np.asarray(dst_nic, dtype=np.int64)
        n = len(src_nic)
        hops = np.full((6, n), -1, dtype=np.int32)
        routed = np.ones(n, dtype=bool)
        src_link = self.nic_link[src_nic]
        dst_link = self.nic_link[dst_nic]
        hops[0] = 2 * src_link
        hops[5] = 2 * dst_link + 1
        leaf_a = self.nic_leaf[src_nic]
        leaf_b = self.nic_leaf[dst_nic]
        if strategy == "ecmp":
            if sport is None:
                sport = random_source_ports(np.random.default_rng(seed), n)
            flow_hash = crc32_5tuple(self.nic_ip[src_nic], self.nic_ip[dst_nic], sport)
            seeds = switch_seeds(self.n_devices, seed)
            choose = _EcmpChooser(flow_hash, seeds)
        else:
            choose = _RoundRobinChooser(self.ordinal, self.component, leaf_a, leaf_b)

        remote = np.flatnonzero(leaf_a != leaf_b)
        if not len(remote):
            return Routes(hops, routed)
        la, lb = leaf_a[remote], leaf_b[remote]
        comp_b = self.component[lb]
        far_any = self.component[la] != comp_b
        # hop 1: leaf uplink; towards another component only to spines with a core that reaches it
        n1 = self.up1_count[la].copy()
        restricted1 = None
        if not self.cores_reach_all and far_any.any():
            rows = np.flatnonzero(far_any)
            restricted1 = (rows, *self._restricted(self.up1_pad, la[rows], comp_b[rows], self.spine_reach))
            n1[rows] = restricted1[2]
        k = choose.pick(remote, la, n1, hop=1)
        ok = n1 > 0
        up1 = self.up1_links[np.where(ok, self.up1_start[la] + np.minimum(k, np.maximum(n1 - 1, 0)), 0)]
        if restricted1 is not None:
            rows, pair, _, table = restricted1
            up1[rows] = table[pair, np.minimum(k[rows], table.shape[1] - 1)]
        spine_a = self.b_dev[up1]
        hops[1, remote] = np.where(ok, 2 * up1, -1)
        same = ok & ~far_any
        # hop 4 directly from spine_a when the destination leaf is in the same component
        far = ok & far_any
        spine_b = np.where(same, spine_a, -1)
        if np.any(far):
            f = remote[far]
            sa, cbf = spine_a[far], comp_b[far]
            n2 = self.up2_count[sa].copy()
            restricted2 = None
            if not self.cores_reach_all:
                restricted2 = self._restricted(self.up2_pad, sa, cbf, self.core_reach)
                n2 = restricted2[1]
            k2 = choose.pick(f, sa, n2, hop=2)
            ok2 = n2 > 0
            up2 = self.up2_links[np.where(ok2, self.up2_start[sa] + np.minimum(k2, np.maximum(n2 - 1, 0)), 0)]
            if restricted2 is not None:
                pair, _, table = restricted2
                up2 = np.where(ok2, table[pair, np.minimum(k2, table.shape[1] - 1)], 0)
            core = self.b_dev[up2]
            start, count = self.down2.lookup(self.ordinal[core], cbf)
            ok3 = ok2 & (count > 0)
            k3 = choose.pick(f, core, count, hop=3, group=core * np.int64(self.n_components) + cbf)
            down2 = self.down2.rows[np.where(ok3, start + k3, 0)]
            hops[2, f] = np.where(ok3, 2 * up2, -1)
            hops[3, f] = np.where(ok3, 2 * down2 + 1, -1)
            spine_b[far] = np.where(ok3, self.a_dev[down2], -1)
        has_spine = spine_b >= 0
        sb = np.where(has_spine, spine_b, 0)
        start, count = self.down1.lookup(self.ordinal[sb], self.ordinal[lb])
        ok4 = has_spine & (count > 0)
        k4 = choose.pick(remote, sb, count, hop=4, group=sb * np.int64(self.n_devices) + lb)
        down1 = self.down1.rows[np.where(ok4, start + k4, 0)]
        hops[4, remote] = np.where(ok4, 2 * down1 + 1, -1)
        routed[remote] = ok4
        hops[:, ~routed] = -1
        return Routes(hops, routed)


class _EcmpChooser:
    def __init__(self, flow_hash: np.ndarray, seeds: np.ndarray) -> None:
        self.flow_hash = flow_hash
        self.seeds = seeds

    def pick(self, flows: np.ndarray, switch: np.ndarray, n_choices: np.ndarray, *, hop: int,
             group: np.ndarray | None = None) -> np.ndarray:
        return ecmp_pick(self.flow_hash[flows], self.seeds[switch], n_choices)


class _RoundRobinChooser:
    """Hash-aware source ports: flows at one switch take its next hops in turn, in rotated order.

    Going up (hops 1-2) the flows of a switch are ordered by how far their destination is from
    their source, so with one flow per source/destination pair no two sources meet on a
    downlink (Latin square). Going down (hops 3-4) the choices are per (switch, destination)
    group; the flows of a core are ordered by destination leaf so the flows to one leaf take
    different spines, and each group starts its turn at a position of its own, so sparse
    groups do not all pile onto their first link.
    """

    def __init__(self, ordinal: np.ndarray, component: np.ndarray, leaf_a: np.ndarray, leaf_b: np.ndarray) -> None:
        n_leaf = np.int64(max(int(ordinal.max()) + 1, 1)) if len(ordinal) else np.int64(1)
        n_comp = np.int64(max(int(component.max()) + 1, 1)) if len(component) else np.int64(1)
        oa, ob = ordinal[leaf_a], ordinal[leaf_b]
        ca, cb = component[leaf_a], component[leaf_b]
        self.span = n_comp * n_leaf
        self.ordinal = ordinal
        self.leaf_b = ob
        # how far the destination is from the source: component first, then leaf
        self.rotation = ((cb - ca) % n_comp) * n_leaf + (ob - oa) % n_leaf
        self.reverse = ((ca - cb) % n_comp) * n_leaf + (oa - ob) % n_leaf

    def pick(self, flows: np.ndarray, switch: np.ndarray, n_choices: np.ndarray, *, hop: int,
             group: np.ndarray | None = None) -> np.ndarray:
        """Choice per flow; `group` (default: the switch) is the set of flows that share the choices."""
        n = np.maximum(n_choices, 1)
        if hop <= 2:
            return group_rank(switch if group is None else group, self.rotation[flows]) % n
        key = self.reverse[flows]
        if hop == 3:
            key = self.leaf_b[flows] * self.span + key
        group = switch if group is None else group
        if hop == 3:  # cores start at their own ordinal: flows to one leaf through different cores take different spines
            start = self.ordinal[switch] + self.leaf_b[flows]
        else:
            start = fmix32(group.astype(np.uint64).astype(np.uint32)).astype(np.int64)
        return (group_rank(group, key) + start) % n


def group_rank(group: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Position of each element within its group when the group is sorted by key (stable)."""
    n = len(group)
    if not n:
        return np.zeros(0, dtype=np.int64)
    key = key.astype(np.int64)
    span = np.int64(int(key.max()) + 1) if n else np.int64(1)
    composite = group.astype(np.int64) * span + key
    order = np.argsort(composite, kind="stable")
    sorted_group = group[order]
    starts = np.ones(n, dtype=bool)
    starts[1:] = sorted_group[1:] != sorted_group[:-1]
    run_start = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - run_start
    return rank
