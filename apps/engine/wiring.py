"""Wiring proof: from the links a plan built, the worst leaf pair's capacity against what the plan states.

For two leaves a and b of one plane the capacity is the max-flow from a to b over the built links,
routed valley-free as a fat-tree routes (up to spines, through cores in 3 tiers, down again; never
through a third leaf); every link carries one unit. The worst pair fraction is the lowest such
max-flow over all leaf pairs of every plane, divided by a leaf's downlinks, capped at 1. The fabric
delivers its stated oversubscription (`as_stated`) when that fraction is at least
min(1, uplinks / downlinks) - 1e-9: 1.0 for a 1:1 fabric, 0.333 for 3:1.

How it is computed, without a generic max-flow per pair:

- c[leaf, spine] counts the tier-1 links of every leaf to every spine of its pod (np.bincount; in
  2 tiers a plane is one pod). Two leaves of one pod can only meet on the pod's spines, so their
  max-flow is sum over spines s of min(c_a[s], c_b[s]). Leaves with the same row are alike:
  the pairs of distinct rows (and a row with itself when two leaves share it) cover every pair.
- 3 tiers, leaves in different pods A and B: flow goes leaf a -> spines of A -> cores -> spines of
  B -> leaf b, with capacities c_a, the spine-core link counts m[s, k], m[t, k] and c_b. That
  layered graph is small; cores with the same column of counts towards A and B merge into one node
  of summed capacity (split any flow evenly between them), and an exact max-flow (Dinic) solves it.
  Pods whose spine-core links and leaf rows are equal up to a rotation of the core numbers (the
  plan wires uplink slot j to core j mod C, engine.topology) are of one kind; a pair of pods is then
  fixed by the two kinds and the difference of their rotations, so one max-flow serves every pair of
  that key. Before any max-flow, a certificate: if each spine spreads its share evenly over its
  uplinks and that balances at every core, the pair gets all its uplinks (65,536 GPUs: no max-flow).
- Planes are treated one by one from their own links; equal keys across planes are solved once.
"""
from __future__ import annotations

from collections import deque

import numpy as np

from .model import LinkTable, Sizing, Wiring
from .topology import leaf_downlinks, leaves_per_su


def pod_width(sz: Sizing) -> int:
    """Columns of the leaf-spine count matrix: the most spines a pod has (a plane's spines in 2 tiers)."""
    three = sz.tiers == 3
    per_pod = sz.spines_per_pod if three else sz.spines_per_plane
    return max(per_pod, sz.spines_last_pod if three else 0, 1)


def prove(sz: Sizing, lay, links: LinkTable) -> Wiring:
    """The wiring proof of the links built for `sz` (engine.topology.device_layout gives `lay`)."""
    planes, lpp, spp = sz.planes, sz.leaves_per_plane, sz.spines_per_plane
    three = sz.tiers == 3
    pods = sz.pods if three else 1
    per_pod = sz.spines_per_pod if three else spp
    width = pod_width(sz)
    # Per device, looked up once per link: a leaf's row (plane, leaf) and a spine's pod and place in it.
    spine_pod = np.minimum(lay.local // per_pod, pods - 1) if three else np.zeros(lay.count, np.int32)
    row_of = lay.plane * lpp + lay.local
    column_of = lay.local - spine_pod * per_pod
    t1 = links.tier == 1
    a1, b1 = links.a_dev[t1], links.b_dev[t1]
    if three and np.any(lay.pod[a1] != lay.pod[b1]):
        raise ValueError("a leaf is wired to a spine outside its pod")
    c = np.bincount(row_of[a1] * width + column_of[b1], minlength=planes * lpp * width)
    c = c.reshape(planes, lpp, width)
    uplinks = None
    if three and pods > 1:
        t2 = links.tier == 2
        a2, b2, a_port = links.a_dev[t2], links.b_dev[t2], links.a_port[t2]
        # Spines are numbered by (plane, spine): (device, uplink port) is the order engine.topology
        # builds; sort only if the links come otherwise.
        order_key = a2.astype(np.int64) * (int(a_port.max(initial=0)) + 1) + a_port
        if not np.all(order_key[1:] > order_key[:-1]):
            order = np.argsort(order_key, kind="stable")
            a2, b2 = a2[order], b2[order]
        uplinks = (a2, b2)
    return prove_counts(sz, lay, c, uplinks)


def prove_counts(sz: Sizing, lay, c: np.ndarray, uplinks: tuple[np.ndarray, np.ndarray] | None) -> Wiring:
    """The proof from the counts it rests on: c[plane, leaf, spine in pod] tier-1 links (leaves numbered in their
    plane, spines within their pod, pod_width(sz) columns), and in 3 tiers with several pods every spine-core link
    as (spine device, core device) ordered by spine device, then uplink port (None otherwise)."""
    d, u = leaf_downlinks(sz), sz.leaf_uplinks
    stated = min(1.0, u / d)
    planes, lpp = sz.planes, sz.leaves_per_plane
    three = sz.tiers == 3
    pods = sz.pods if three else 1
    width = pod_width(sz)
    leaf_pod_of_local = np.arange(lpp) // (sz.sus_per_pod * leaves_per_su(sz)) if three else np.zeros(lpp, np.int64)
    # Each leaf's downlinks: a pair is measured against the fewer of its two leaves' (the shared leaves of a partly
    # filled last SU carry fewer than a full SU's, engine.topology).
    down = np.full(lpp, d, np.int64)
    if sz.leaf_downlinks_last_su:
        down[lpp - leaves_per_su(sz):] = sz.leaf_downlinks_last_su
    pod_first_leaf = np.searchsorted(leaf_pod_of_local, np.arange(pods))
    pod_end_leaf = np.append(pod_first_leaf[1:], lpp)

    best = _Worst(down)
    # Rows per (plane, pod): the distinct link-count rows and two leaves holding each. Usually every
    # leaf of a pod is wired alike, which one vectorized comparison shows for all pods at once.
    leaf_pod = np.repeat(np.arange(pods), pod_end_leaf - pod_first_leaf)
    alike = (c == c[:, pod_first_leaf[leaf_pod]]).all(axis=2)  # (planes, leaves): row equals its pod's first
    pod_alike = np.logical_and.reduceat(alike, pod_first_leaf, axis=1) if lpp else alike
    patterns: dict[tuple[int, int], list[tuple[np.ndarray, int, int]]] = {}
    for plane in range(planes):
        for pod in range(pods):
            lo, hi = int(pod_first_leaf[pod]), int(pod_end_leaf[pod])
            if pod_alike[plane, pod]:
                rows = [(c[plane, lo], lo, lo + 1 if hi - lo > 1 else -1)]
            else:
                rows = _distinct_rows(c[plane, lo:hi], lo)
            patterns[(plane, pod)] = rows
            for i, (row_i, first_i, second_i) in enumerate(rows):
                if second_i >= 0:
                    best.offer(int(row_i.sum()), plane, first_i, second_i)
                for row_j, first_j, _ in rows[i + 1:]:
                    best.offer(int(np.minimum(row_i, row_j).sum()), plane, first_i, first_j)

    solved = 0
    spread = {"leaf-spine": _leaf_spine_spread(sz, c, pod_first_leaf, pod_end_leaf)}
    pod_pair = None
    if three and pods > 1:
        solved = _cross_pod(sz, lay, uplinks, patterns, best, width)
        pod_up = np.add.reduceat(c[0].sum(axis=1), pod_first_leaf)  # each pod's leaf uplinks
        pod_pair, spread["spine-core"], spread["core-pod"] = _pod_pairs(sz, lay, uplinks, pod_up)

    pairs = planes * lpp * (lpp - 1) // 2
    if best.flow is None:  # one leaf per plane: no pair crosses a spine
        fraction, pair, flow = stated, None, 0
    else:
        fraction, flow = min(1.0, best.ratio), best.flow
        plane, a, b = best.pair
        pair = (lay.leaf_base + plane * lpp + a, lay.leaf_base + plane * lpp + b)
    leaf_ok = fraction >= stated - 1e-9
    pod_fraction, pod_links, pod_needed, pod_names = 1.0, 0, 0, None
    if pod_pair is not None:
        pod_links, pod_needed, plane, pod_a, pod_b = pod_pair
        pod_fraction = min(1.0, pod_links / pod_needed) if pod_needed else 1.0
        pod_names = (plane, pod_a, pod_b)
    return Wiring(
        worst_pair_fraction=min(fraction, pod_fraction * stated) if pod_fraction < 1.0 else fraction,
        as_stated=leaf_ok and pod_fraction >= 1.0 - 1e-9, stated_fraction=stated,
        worst_pair_links=flow, leaf_uplinks=u, leaf_downlinks=d, worst_pair=pair, leaf_pairs=pairs,
        flows_solved=solved, worst_pod_pair_fraction=pod_fraction, worst_pod_pair_links=pod_links,
        pod_pair_uplinks=pod_needed, worst_pod_pair=pod_names, spread=spread,
    )


def _leaf_spine_spread(sz: Sizing, c: np.ndarray, pod_first_leaf: np.ndarray, pod_end_leaf: np.ndarray) -> list[int]:
    """[fewest, most] links between a leaf and a spine of its pod, over every such pair of every plane."""
    three = sz.tiers == 3
    low = high = None
    for pod, (lo, hi) in enumerate(zip(pod_first_leaf.tolist(), pod_end_leaf.tolist())):
        if hi <= lo:
            continue
        spines = (sz.spines_last_pod if pod == len(pod_first_leaf) - 1 else sz.spines_per_pod) if three \
            else sz.spines_per_plane
        block = c[:, lo:hi, :spines]
        a, b = int(block.min()), int(block.max())
        low, high = (a, b) if low is None else (min(low, a), max(high, b))
    return [low or 0, high or 0]


def _pod_pairs(sz: Sizing, lay, uplinks: tuple[np.ndarray, np.ndarray], pod_uplinks: np.ndarray
               ) -> tuple[tuple[int, int, int, int, int], list[int], list[int]]:
    """The top tier measured: the worst pod pair and the spread of spine-core and core-pod links.

    Two pods A and B of a plane meet only on the cores: with m[A, k] links between A's spines and core k, all of
    A's servers can send sum_k min(m[A, k], m[B, k]) links' worth to B's, which must be at least the smaller of
    the two pods' leaf uplinks (what their servers send up at the stated oversubscription). Returns
    ((links, needed, plane, pod a, pod b) of the lowest links / needed, [fewest, most] links of a spine to a core
    it reaches, [fewest, most] links of a core into a pod).
    """
    planes, pods, per_pod, cores = sz.planes, sz.pods, max(1, sz.spines_per_pod), sz.cores_per_plane
    a2, b2 = uplinks
    pod_of = np.minimum(lay.local[a2] // per_pod, pods - 1)
    m = np.bincount((lay.plane[a2].astype(np.int64) * pods + pod_of) * cores + lay.local[b2],
                    minlength=planes * pods * cores).reshape(planes, pods, cores)
    # Links per (spine, core) pair that has any: the runs of equal keys when the links come ordered by them (as
    # engine.topology builds them), else counted over the spines' span (from the lowest spine, not device 0).
    first_spine = int(a2.min()) if len(a2) else 0
    key = (a2.astype(np.int64) - first_spine) * cores + lay.local[b2]
    if len(key) and bool((key[1:] >= key[:-1]).all()):
        pair = np.diff(np.concatenate(([0], np.flatnonzero(key[1:] != key[:-1]) + 1, [len(key)])))
    else:
        pair = np.bincount(key)
        pair = pair[pair > 0]
    needed_of = pod_uplinks.astype(np.int64)
    worst = None
    # Counts of links, in the narrowest integers that hold them: fewer bytes to compare and add.
    narrow = m.astype(np.int16 if int(m.max(initial=0)) < 2**15 else np.int32)
    for plane in range(planes):
        for pod_a in range(pods - 1):
            shared = np.minimum(narrow[plane, pod_a][None, :], narrow[plane, pod_a + 1:]).sum(axis=1, dtype=np.int64)
            needed = np.minimum(needed_of[pod_a], needed_of[pod_a + 1:])
            ratio = shared / np.maximum(needed, 1)
            k = int(np.argmin(ratio))
            if worst is None or ratio[k] < worst[0]:
                worst = (float(ratio[k]), int(shared[k]), int(needed[k]), plane, pod_a, pod_a + 1 + k)
    return worst[1:], [int(pair.min()), int(pair.max())], [int(m.min()), int(m.max())]


class _Worst:
    """The lowest max-flow per downlink offered so far (against the fewer downlinks of the pair), its flow and the
    (plane, leaf, leaf) pair that has it; `down` holds each leaf's downlinks (plane-local leaf numbers)."""

    __slots__ = ("flow", "pair", "ratio", "down")

    def __init__(self, down: np.ndarray):
        self.flow: int | None = None
        self.pair: tuple[int, int, int] | None = None
        self.ratio = 0.0
        self.down = down

    def offer(self, flow: int, plane: int, a: int, b: int) -> None:
        ratio = flow / max(1, min(int(self.down[a]), int(self.down[b])))
        if self.flow is None or ratio < self.ratio:
            self.flow, self.pair, self.ratio = flow, (plane, a, b), ratio


def _distinct_rows(block: np.ndarray, first_leaf: int) -> list[tuple[np.ndarray, int, int]]:
    """(row, first leaf, second leaf or -1) for every distinct row of `block` (leaves numbered from first_leaf)."""
    _, index, inverse = np.unique(block, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    out = []
    for k, first in enumerate(index.tolist()):
        holders = np.flatnonzero(inverse == k)
        out.append((block[first], first_leaf + first, first_leaf + int(holders[1]) if holders.shape[0] > 1 else -1))
    return out


def _cross_pod(sz: Sizing, lay, uplinks: tuple[np.ndarray, np.ndarray], patterns, best: _Worst, width: int) -> int:
    """Offer the max-flow of every pair of leaves in different pods of a plane; returns flows solved."""
    planes, pods, per_pod = sz.planes, sz.pods, sz.spines_per_pod
    cores = sz.cores_per_plane
    a2, b2 = uplinks
    spine_local, core = lay.local[a2], lay.local[b2]
    group_of = lay.plane * pods + np.minimum(lay.local // per_pod, pods - 1)  # per spine device
    group = group_of[a2]
    groups = planes * pods
    start = np.searchsorted(group, np.arange(groups + 1))
    # Rotation of a (plane, pod): the core of its first spine's first uplink. A pod's kind is its
    # sequence of (spine in pod, rotated core) in link order plus its leaf rows: equal kinds are the
    # same wiring up to a renumbering of cores (the same multiset would do; equal sequences are enough).
    offset = core[np.minimum(start[:-1], core.shape[0] - 1)]
    sequence = (spine_local - (group % pods) * per_pod) * cores + (core - offset[group]) % cores
    kinds: dict[tuple, int] = {}
    kind = np.empty(groups, np.int64)
    representative: list[int] = []
    for g in range(groups):
        rows = patterns[(g // pods, g % pods)]
        key = (int(start[g + 1] - start[g]), b"".join(row.tobytes() for row, _, _ in rows))
        k = kinds.setdefault(key, len(representative))
        if k == len(representative):
            representative.append(g)
        else:
            r = representative[k]
            if not np.array_equal(sequence[start[g]:start[g + 1]], sequence[start[r]:start[r + 1]]):
                k = len(representative)  # wired differently: a kind of its own
                representative.append(g)
        kind[g] = k

    def entries(g: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = start[g], start[g + 1]
        return spine_local[lo:hi] - (g % pods) * per_pod, core[lo:hi]

    n_kinds = int(kind.max()) + 1
    solved: dict[int, int] = {}
    ga, gb = np.triu_indices(pods, 1)
    for plane in range(planes):
        g = plane * pods + np.arange(pods)
        pair_key = (kind[g][ga] * n_kinds + kind[g][gb]) * cores + (offset[g][gb] - offset[g][ga]) % cores
        keys, first_pair = np.unique(pair_key, return_index=True)
        for k, i in zip(keys.tolist(), first_pair.tolist()):
            if k in solved:
                continue
            pod_a, pod_b = int(ga[i]), int(gb[i])
            for flow, leaf_a, leaf_b in _pod_pair_flows(patterns[(plane, pod_a)], patterns[(plane, pod_b)],
                                                        entries(g[pod_a]), entries(g[pod_b]), width, cores):
                best.offer(flow, plane, leaf_a, leaf_b)
            solved[k] = 1
    return len(solved)


def _pod_pair_flows(rows_a, rows_b, entries_a, entries_b, width: int, cores: int) -> list[tuple[int, int, int]]:
    """(max-flow, leaf, leaf) of every distinct leaf row of pod A against every one of pod B."""
    m_a = np.bincount(entries_a[0] * cores + entries_a[1], minlength=width * cores).reshape(width, cores)
    m_b = np.bincount(entries_b[0] * cores + entries_b[1], minlength=width * cores).reshape(width, cores)
    up_a, up_b = m_a.sum(axis=1), m_b.sum(axis=1)
    columns = multiplicity = None
    flows = []
    for row_a, leaf_a, _ in rows_a:
        for row_b, leaf_b, _ in rows_b:
            flow = _proportional_flow(row_a, row_b, m_a, m_b, up_a, up_b)
            if flow is None:
                if columns is None:
                    both = np.flatnonzero(m_a.any(axis=0) & m_b.any(axis=0))
                    columns = np.ascontiguousarray(np.concatenate([m_a[:, both], m_b[:, both]]).T)
                    columns, multiplicity = _merge_alike(columns)  # a row per kind of core both pods reach
                flow = _layered_flow(row_a, row_b, columns, multiplicity, width)
            flows.append((flow, leaf_a, leaf_b))
    return flows


def _proportional_flow(row_a, row_b, m_a, m_b, up_a, up_b) -> int | None:
    """u when spreading each spine's flow evenly over its uplinks balances at every core, else None.

    Leaf a sends row_a[s] to spine s of A, which sends row_a[s] / h on each of its h uplinks; core k
    then receives sum_s row_a[s] * m_a[s, k] / h and must pass on what B's spines take the same way.
    If that balances at every core (and no link carries more than one unit), this is a flow of
    sum(row_a) = sum(row_b), the most the two leaves can exchange. Only for spines of equal uplinks.
    """
    used_a, used_b = row_a > 0, row_b > 0
    h = up_a[used_a]
    if h.size == 0 or np.any(h != h[0]) or np.any(up_b[used_b] != h[0]):
        return None
    total = int(row_a.sum())
    if total != int(row_b.sum()) or np.any(row_a > up_a) or np.any(row_b > up_b):
        return None
    if not np.array_equal(row_a @ m_a, row_b @ m_b):
        return None
    return total


def _merge_alike(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of `rows` and how many times each occurs (exact; hashed first because it is faster)."""
    if rows.shape[0] == 0:
        return rows, np.zeros(0, np.int64)
    weights = np.random.default_rng(12).integers(1, 2**61, rows.shape[1], dtype=np.int64)
    with np.errstate(over="ignore"):
        digest = rows @ weights
    order = np.argsort(digest, kind="stable")
    digest = digest[order]
    starts = np.flatnonzero(np.diff(digest, prepend=digest[0] - 1))
    first = order[starts]
    owner = np.repeat(first, np.diff(np.append(starts, order.shape[0])))
    if not np.array_equal(rows[order], rows[owner]):  # a hash collision: sort the rows themselves
        distinct, counts = np.unique(rows, axis=0, return_counts=True)
        return distinct, counts
    return rows[first], np.diff(np.append(starts, order.shape[0]))


def _layered_flow(row_a: np.ndarray, row_b: np.ndarray, columns: np.ndarray, multiplicity: np.ndarray,
                  width: int) -> int:
    """Max-flow source -> spines of A (row_a) -> merged cores -> spines of B (row_b) -> sink."""
    n_cores = columns.shape[0]
    source, sink = 0, 1
    spine_a = 2
    core0 = spine_a + width
    spine_b = core0 + n_cores
    graph = _Graph(spine_b + width)
    for s in np.flatnonzero(row_a).tolist():
        graph.add(source, spine_a + s, int(row_a[s]))
    for t in np.flatnonzero(row_b).tolist():
        graph.add(spine_b + t, sink, int(row_b[t]))
    scaled = columns * multiplicity[:, None]
    for j, s in zip(*np.nonzero(scaled[:, :width])):
        graph.add(spine_a + int(s), core0 + int(j), int(scaled[j, s]))
    for j, t in zip(*np.nonzero(scaled[:, width:])):
        graph.add(core0 + int(j), spine_b + int(t), int(scaled[j, width + t]))
    bound = min(int(row_a.sum()), int(row_b.sum()))
    return graph.max_flow(source, sink, bound)


class _Graph:
    """A small directed graph for Dinic's max-flow (adjacency lists of edge ids; edge e ^ 1 is its reverse)."""

    __slots__ = ("adjacent", "head", "capacity")

    def __init__(self, nodes: int):
        self.adjacent: list[list[int]] = [[] for _ in range(nodes)]
        self.head: list[int] = []
        self.capacity: list[int] = []

    def add(self, a: int, b: int, capacity: int) -> None:
        self.adjacent[a].append(len(self.head))
        self.head.append(b)
        self.capacity.append(capacity)
        self.adjacent[b].append(len(self.head))
        self.head.append(a)
        self.capacity.append(0)

    def max_flow(self, source: int, sink: int, bound: int) -> int:
        """The max-flow value, stopping early once it reaches `bound` (an upper bound known beforehand)."""
        head, capacity, adjacent = self.head, self.capacity, self.adjacent
        total = 0
        while total < bound:
            level = [-1] * len(adjacent)
            level[source] = 0
            queue = deque([source])
            while queue:
                v = queue.popleft()
                for e in adjacent[v]:
                    w = head[e]
                    if capacity[e] and level[w] < 0:
                        level[w] = level[v] + 1
                        queue.append(w)
            if level[sink] < 0:
                break
            cursor = [0] * len(adjacent)

            def push(v: int, limit: int) -> int:
                if v == sink:
                    return limit
                edges = adjacent[v]
                while cursor[v] < len(edges):
                    e = edges[cursor[v]]
                    w = head[e]
                    if capacity[e] and level[w] == level[v] + 1:
                        sent = push(w, min(limit, capacity[e]))
                        if sent:
                            capacity[e] -= sent
                            capacity[e ^ 1] += sent
                            return sent
                    cursor[v] += 1
                return 0

            while total < bound:
                sent = push(source, bound - total)
                if not sent:
                    break
                total += sent
        return total
