"""The explorer's fast path: a fabric's counts, wiring proof and price without building its link table.

plan() builds every link port to port, then cables, prices and proves them. The explorer prices hundreds
of fabrics, so this module computes the same figures from the structure itself, by the same rules
(engine.topology, engine.racks, engine.cabling, engine.bom, engine.wiring), never materialising a
LinkTable, device objects, names or addresses. tests/engine/test_explore.py checks it equal to plan()
(total, power, rack units, switch and link counts, growth, hops, worst-pair fraction, `as_stated`).

- Positions: engine.racks places every device (one row per device, not per link); a run's length is
  engine.racks.raw_lengths between two devices (server-leaf runs per link: each rail's leaf has its own
  rack unit).
- Cabling prices cage groups (engine.cabling: cages joined by links get one way of building, chosen from
  the group's longest run; each fibre cord by its own run), counted per kind of group:
  - server-leaf: a server's links all run to its SU's leaf rack, so one run length per server. A group is
    the servers sharing a leaf cage (consecutive leaf ports) x the rails sharing a server cage; every
    rail block of a server block is alike, so each is priced once and counted rails / ports-per-cage times.
  - leaf-spine, spine groups wired evenly (q links from every leaf to every spine of its pod): with q a
    multiple of both cages' ports, a group is lcm(ports per cage) links of one leaf-spine pair; with
    q = 1, a group is the leaves sharing a spine cage x the spines sharing a leaf cage. Priced per pair.
  - other groupings (odd q on twin-port cages, the blocking fewest-spines wiring) and spine-core: cages
    are grouped per link over the tier's (device, cage) keys, as engine.cabling groups them: the one
    tier is counted link by link (its endpoints and cages only, no link table of the fabric).
- The wiring proof (engine.wiring.prove_counts) gets its leaf-spine counts from engine.topology's spread
  and its spine-core links from the uplink slot rule, both without a link table.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import lcm

import numpy as np

from ..bom import bill
from ..cabling import (EPS, Cabling, Candidates, TierCabling, candidates, cord_families, fabric_ok, group_cord_m,
                       groups, tier_ends, usable_reach)
from ..messages import message
from ..model import TIER_NAMES
from ..plan import interconnects
from ..hall.grid import HallGrid
from ..hall.rules import check_rack_rules
from ..racks import Placement, place, raw_lengths
from ..spec import DesignSpec, InfeasibleSpec
from ..topology import (Layout, core_slots, device_layout, group_counts, leaf_downlinks, leaves_per_su,
                        server_leaf_ends, size_fabric)
from ..wiring import pod_width, prove_counts
from .model import Quote


@dataclass(slots=True)
class Groups:
    """Cage groups of one tier by kind: per kind, the longest run, the cages at each end and how many such groups;
    per link class, its run, its kind and how many links of that run one group of the kind has."""

    lmax: np.ndarray
    n_a: np.ndarray
    n_b: np.ndarray
    weight: np.ndarray
    link_len: np.ndarray
    link_group: np.ndarray
    link_count: np.ndarray


def _concat(parts: list[Groups]) -> Groups:
    if len(parts) == 1:
        return parts[0]
    offset, link_group = 0, []
    for part in parts:
        link_group.append(part.link_group + offset)
        offset += part.lmax.shape[0]
    cat = np.concatenate
    return Groups(cat([p.lmax for p in parts]), cat([p.n_a for p in parts]), cat([p.n_b for p in parts]),
                  cat([p.weight for p in parts]), cat([p.link_len for p in parts]), cat(link_group),
                  cat([p.link_count for p in parts]))


def _lengths(spec: DesignSpec, placement: Placement, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return raw_lengths(spec, placement, a, b).astype(np.float64)


def _server_leaf(spec: DesignSpec, sz, lay: Layout, placement: Placement, ppc_s: int, ppc_l: int) -> Groups:
    """Every server-leaf link grouped by cages as engine.cabling groups them: a link's run depends on its rail
    (each rail's leaf has its own rack unit, or its own rack with leaves in the server racks)."""
    rails, d = sz.rails, leaf_downlinks(sz)
    s = np.repeat(np.arange(sz.servers, dtype=np.int64), rails)
    i = np.tile(np.arange(rails, dtype=np.int64), sz.servers)
    leaf, leaf_port = server_leaf_ends(sz, lay, s, i)
    run = _lengths(spec, placement, s, leaf)
    # Logical port i of a split port is part i div P of physical port i mod P, in that port's cage (engine.cabling).
    physical, per_cage = spec.server.nic_ports, spec.server.ports_per_cage
    a_key = s * (-(-physical // per_cage)) + (i % physical) // per_cage
    b_key = leaf * (-(-d // ppc_l)) + leaf_port // ppc_l
    return _by_cages(run, a_key, b_key, ppc_s, ppc_l)


def _spine_groups(sz) -> list[tuple[int, int, int, int, int]]:
    """Spine groups of a plane alike in shape: (first leaf, leaves per group, first spine, spines per group,
    groups), plane-local indexes; the full pods of 3 tiers are one entry, the last pod another."""
    if sz.tiers == 2:
        return [(0, sz.leaves_per_plane, 0, sz.spines_per_plane, 1)]
    per_pod_leaves = sz.sus_per_pod * leaves_per_su(sz)
    last = sz.pods - 1
    out = [(0, per_pod_leaves, 0, sz.spines_per_pod, last)] if last else []
    out.append((last * per_pod_leaves, sz.leaves_per_plane - last * per_pod_leaves, last * sz.spines_per_pod,
                sz.spines_last_pod, 1))
    return out


def _leaf_spine_counts(sz) -> np.ndarray:
    """c[plane, leaf, spine in pod]: the leaf-spine link counts the wiring proof rests on (engine.topology.spread)."""
    c = np.zeros((sz.planes, sz.leaves_per_plane, pod_width(sz)), np.int64)
    for first_leaf, leaves, _, spines, alike in _spine_groups(sz):
        for k in range(alike):
            count = group_counts(sz, first_leaf + k * leaves, leaves, spines)
            c[:, first_leaf + k * leaves:first_leaf + (k + 1) * leaves, :spines] = count
    return c


def _leaf_spine(spec: DesignSpec, sz, lay: Layout, placement: Placement, ppc_l: int, ppc_s: int) -> Groups:
    """Tier-1 groups of every plane (module rules)."""
    planes, lpp, spp, u = sz.planes, sz.leaves_per_plane, sz.spines_per_plane, sz.leaf_uplinks
    plane = np.arange(planes, dtype=np.int64)[:, None, None, None]
    parts = []
    for first_leaf, leaves, first_spine, spines, alike in _spine_groups(sz):
        count = group_counts(sz, first_leaf, leaves, spines)
        pod = np.arange(alike, dtype=np.int64)[None, :, None, None]
        q, rem = divmod(u, spines)
        if count.shape[0] and (count.sum(axis=1) != u).any():  # the last SU's shared leaves cable fewer: link by link
            rem = 1
        leaf_dev = lay.leaf_base + plane * lpp + first_leaf + pod * leaves + np.arange(leaves)[None, None, :, None]
        spine_dev = lay.spine_base + plane * spp + first_spine + pod * spines + np.arange(spines)[None, None, None, :]
        if rem == 0 and q % ppc_l == 0 and q % ppc_s == 0:
            size = lcm(ppc_l, ppc_s)
            a, b = np.broadcast_arrays(leaf_dev, spine_dev)
            run = _lengths(spec, placement, a.ravel(), b.ravel())
            m = run.shape[0]
            parts.append(_alike(Groups(run, np.full(m, size // ppc_l, np.int64), np.full(m, size // ppc_s, np.int64),
                                       np.full(m, q // size, np.int64), run, np.arange(m),
                                       np.full(m, size, np.int64))))
        elif rem == 0 and q == 1:
            a, b = np.broadcast_arrays(leaf_dev, spine_dev)
            run = _lengths(spec, placement, a.ravel(), b.ravel()).reshape(planes * alike, leaves, spines)
            if ppc_l == 1 and ppc_s == 1:
                m = run.size
                parts.append(_alike(Groups(run.ravel(), np.ones(m, np.int64), np.ones(m, np.int64),
                                           np.ones(m, np.int64), run.ravel(), np.arange(m), np.ones(m, np.int64))))
                continue
            leaf_starts = np.arange(0, leaves, ppc_s)
            spine_starts = np.arange(0, spines, ppc_l)
            lmax = np.maximum.reduceat(np.maximum.reduceat(run, leaf_starts, axis=1), spine_starts, axis=2)
            leaf_block = np.diff(np.append(leaf_starts, leaves))
            spine_block = np.diff(np.append(spine_starts, spines))
            n_a = np.broadcast_to(leaf_block[None, :, None], lmax.shape).ravel()
            n_b = np.broadcast_to(spine_block[None, None, :], lmax.shape).ravel()
            block = np.arange(planes * alike)[:, None, None]
            group = ((block * leaf_starts.shape[0] + (np.arange(leaves) // ppc_s)[None, :, None])
                     * spine_starts.shape[0] + (np.arange(spines) // ppc_l)[None, None, :])
            m = lmax.size
            parts.append(Groups(lmax.ravel(), n_a.astype(np.int64), n_b.astype(np.int64), np.ones(m, np.int64),
                                run.ravel(), np.broadcast_to(group, run.shape).ravel(), np.ones(run.size, np.int64)))
        else:
            for k in range(alike):
                parts.append(_linkwise_leaf_spine(spec, sz, lay, placement, ppc_l, ppc_s, count,
                                                  first_leaf + k * leaves, first_spine + k * spines))
    return _concat(parts)


def _alike(g: Groups) -> Groups:
    """Groups of one link each with the same cages and counts merged by run length (they cost the same)."""
    if not (g.n_a.size and (g.n_a == g.n_a[0]).all() and (g.n_b == g.n_b[0]).all()
            and (g.link_count == g.link_count[0]).all()):
        return g
    runs, inverse = np.unique(g.lmax, return_inverse=True)
    weight = np.bincount(inverse.reshape(-1), weights=g.weight, minlength=runs.shape[0]).astype(np.int64)
    m = runs.shape[0]
    return Groups(runs, np.full(m, g.n_a[0]), np.full(m, g.n_b[0]), weight, runs, np.arange(m),
                  np.full(m, g.link_count[0]))


def _by_cages(run: np.ndarray, a_key: np.ndarray, b_key: np.ndarray, ppc_a: int, ppc_b: int) -> Groups:
    """Groups of links given one by one (run, cage key at each end), as engine.cabling groups them."""
    a_key, a_span = _dense(a_key)
    b_key, b_span = _dense(b_key)
    comp, m = groups(a_key, a_span, b_key, b_span, ppc_a, ppc_b)
    lmax = np.zeros(m, np.float64)
    np.maximum.at(lmax, comp, run)
    n_a = _cages(a_key, a_span, comp, m)
    n_b = _cages(b_key, b_span, comp, m)
    n = run.shape[0]
    g = Groups(lmax, n_a, n_b, np.ones(m, np.int64), run, comp, np.ones(n, np.int64))
    return _alike(g) if ppc_a == 1 and ppc_b == 1 else g


def _dense(key: np.ndarray) -> tuple[np.ndarray, int]:
    """Keys numbered 0..n-1 in key order (a presence table over their span, no sort)."""
    if key.size == 0:
        return key.astype(np.int64), 0
    key = key - key.min()
    present = np.zeros(int(key.max()) + 1, bool)
    present[key] = True
    rank = np.cumsum(present) - 1
    return rank[key].astype(np.int64), int(rank[-1]) + 1


def _cages(key: np.ndarray, span: int, comp: np.ndarray, m: int) -> np.ndarray:
    owner = np.full(span, -1, np.int64)
    owner[key] = comp
    return np.bincount(owner, minlength=m)


def _linkwise_leaf_spine(spec, sz, lay, placement, ppc_l, ppc_s, count, first_leaf, first_spine) -> Groups:
    """One spine group's links counted one by one (cages from engine.topology.spread's port rule), all planes."""
    leaves, spines = count.shape
    flat = count.ravel()
    leaf_start = np.cumsum(count, axis=1) - count
    spine_start = np.cumsum(count, axis=0) - count
    pair_first = np.cumsum(flat) - flat
    t = np.arange(int(flat.sum()), dtype=np.int64) - np.repeat(pair_first, flat)
    leaf = np.repeat(np.repeat(np.arange(leaves), spines), flat)
    spine = np.repeat(np.tile(np.arange(spines), leaves), flat)
    leaf_cage = (np.repeat(leaf_start.ravel(), flat) + t) // ppc_l  # uplinks start at d, a whole cage
    spine_cage = (np.repeat(spine_start.ravel(), flat) + t) // ppc_s
    parts = []
    for p in range(sz.planes):
        leaf_dev = lay.leaf_base + p * sz.leaves_per_plane + first_leaf + leaf
        spine_dev = lay.spine_base + p * sz.spines_per_plane + first_spine + spine
        run = _lengths(spec, placement, leaf_dev, spine_dev)
        parts.append(_by_cages(run, leaf_dev * (sz.leaf_uplinks + 1) + leaf_cage,
                               spine_dev * (spec.spine_hw.ports + 1) + spine_cage, ppc_l, ppc_s))
    return _concat(parts)


def _spine_core(spec: DesignSpec, sz, lay: Layout, placement: Placement, ppc_s: int, ppc_c: int
                ) -> tuple[Groups, tuple[np.ndarray, np.ndarray]]:
    """Tier-2 groups from the uplink slot rule (engine.topology), and every (spine, core) link for the proof."""
    cores, spp = sz.cores_per_plane, sz.spines_per_plane
    spine, k, core, core_port = core_slots(sz)
    plane = np.arange(sz.planes, dtype=np.int64)[:, None]
    spine_dev = (lay.spine_base + plane * spp + spine[None, :]).ravel()
    core_dev = (lay.core_base + plane * cores + core[None, :]).ravel()
    run = _lengths(spec, placement, spine_dev, core_dev)
    spine_key = spine_dev * (spec.spine_hw.ports + 1) + np.tile(k // ppc_s, sz.planes)
    core_key = core_dev * (spec.core_hw.ports + 1) + np.tile(core_port // ppc_c, sz.planes)
    return _by_cages(run, spine_key, core_key, ppc_s, ppc_c), (spine_dev, core_dev)


def _unique_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of `table` and each row's index among them (np.unique(axis=0), by lexsort: faster)."""
    order = np.lexsort(table.T[::-1])
    ordered = table[order]
    new = np.ones(ordered.shape[0], bool)
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    inverse = np.empty(ordered.shape[0], np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def _merged(g: Groups) -> Groups:
    """Groups that cost the same merged into one kind: equal longest run, cages at both ends and runs of their
    links (with their counts). Groups are compared size by size (links per group); the result is exact."""
    m = g.lmax.shape[0]
    if m < 64:
        return g
    if np.array_equal(g.link_len, g.lmax[g.link_group]):  # every link of a group runs its longest run
        links = np.bincount(g.link_group, weights=g.link_count, minlength=m)
        kinds, inverse = _unique_rows(np.stack([g.lmax, g.n_a, g.n_b, links], axis=1).astype(np.float64))
        n = kinds.shape[0]
        return Groups(kinds[:, 0], kinds[:, 1].astype(np.int64), kinds[:, 2].astype(np.int64),
                      np.bincount(inverse, weights=g.weight, minlength=n).astype(np.int64), kinds[:, 0],
                      np.arange(n), kinds[:, 3].astype(np.int64))
    order = np.lexsort((g.link_len, g.link_group))
    link_len, link_group, link_count = g.link_len[order], g.link_group[order], g.link_count[order]
    size = np.bincount(link_group, minlength=m)
    first = np.cumsum(size) - size
    parts = []
    for k in np.unique(size).tolist():
        chosen = np.flatnonzero(size == k)
        rows = (first[chosen][:, None] + np.arange(k)[None, :]).ravel()
        table = np.concatenate([g.lmax[chosen, None], g.n_a[chosen, None].astype(np.float64),
                                g.n_b[chosen, None].astype(np.float64), link_len[rows].reshape(-1, k),
                                link_count[rows].reshape(-1, k).astype(np.float64)], axis=1)
        kinds, inverse = _unique_rows(table)
        n = kinds.shape[0]
        parts.append(Groups(kinds[:, 0], kinds[:, 1].astype(np.int64), kinds[:, 2].astype(np.int64),
                            np.bincount(inverse, weights=g.weight[chosen], minlength=n).astype(np.int64),
                            kinds[:, 3:3 + k].ravel(), np.repeat(np.arange(n), k),
                            kinds[:, 3 + k:].ravel().astype(np.int64)))
    return _concat(parts)


def _price(tier: int, a, b, cands: Candidates, g: Groups, items: dict) -> TierCabling:
    """engine.cabling's choice for every group (the cheapest way of enough reach, cable assemblies first on a
    tie) and the parts it takes, each kind of group counted `weight` times."""
    name = TIER_NAMES[tier]
    g = _merged(g)
    if not cands:
        raise InfeasibleSpec({f"cabling.{name}": [message("cabling.no_way", a=a.description(), b=b.description())]})
    costs, choice = [], []
    for fam in cands.cables:
        i = np.searchsorted(fam.lengths, g.lmax - EPS)
        ok = i < len(fam.cables)
        if fam.kind == "straight":
            ok &= (g.n_a == 1) & (g.n_b == 1)
        elif fam.kind == "split-a":
            ok &= g.n_a == 1
        else:
            ok &= g.n_b == 1
        safe = np.minimum(i, len(fam.cables) - 1)
        costs.append(np.where(ok, fam.prices[safe], np.inf))
        choice.append(safe)
    link_cord, per_family = [], {}
    loose = list(costs)
    m = g.lmax.shape[0]
    for pair in cands.optics:
        cached = per_family.get(id(pair.cords))
        if cached is None:
            ci = np.searchsorted(pair.cords.lengths, g.link_len - EPS)
            safe = np.minimum(ci, len(pair.cords.cords) - 1)
            price = np.where(ci < len(pair.cords.cords), pair.cords.prices[safe], np.inf)
            cached = per_family[id(pair.cords)] = (safe, np.bincount(g.link_group, weights=price * g.link_count,
                                                                     minlength=m))
        safe, cord_sum = cached
        cost = g.n_a * pair.a.price + g.n_b * pair.b.price + cord_sum
        costs.append(np.where(group_cord_m(pair.cords.lengths, g.lmax) <= usable_reach(pair.reach_m) + EPS, cost,
                              np.inf))
        loose.append(np.where(g.lmax <= pair.reach_m + EPS, cost, np.inf))
        link_cord.append(safe)
    cost = np.vstack(costs)
    inside = ~np.isfinite(cost.min(axis=0))  # engine.cabling: no class reaches with the margin
    if inside.any():
        cost[:, inside] = np.vstack(loose)[:, inside]
    best = np.argmin(cost, axis=0)
    if not np.isfinite(cost[best, np.arange(m)]).all():
        worst = float(g.lmax[~np.isfinite(cost[best, np.arange(m)])].max())
        raise InfeasibleSpec({f"cabling.{name}": [message(
            "cabling.too_long", tier=name, longest_m=worst, a=a.description(), b=b.description(),
            reach_m=float(max([p.reach_m for p in cands.optics] + [float(f.lengths[-1]) for f in cands.cables])))]})
    result = TierCabling(tier, np.empty(0, np.int16), np.empty(0, np.float32))
    n_cable = len(cands.cables)
    link_weight = g.link_count * g.weight[g.link_group]
    for c in np.unique(best).tolist():
        sel = best == c
        if c < n_cable:
            fam = cands.cables[c]
            counts = np.bincount(choice[c][sel], weights=g.weight[sel], minlength=len(fam.cables))
            for idx in np.flatnonzero(counts).tolist():
                cable = fam.cables[idx]
                result.cables[cable.sku] = result.cables.get(cable.sku, 0) + int(round(counts[idx]))
                items[cable.sku] = cable
            continue
        pair = cands.optics[c - n_cable]
        for optic, count in ((pair.a, int((g.n_a[sel] * g.weight[sel]).sum())),
                             (pair.b, int((g.n_b[sel] * g.weight[sel]).sum()))):
            result.transceivers[optic.sku] = result.transceivers.get(optic.sku, 0) + count
            items[optic.sku] = optic
        if a.role == "server":
            count = int((g.n_a[sel] * g.weight[sel]).sum())
            result.server_transceivers[pair.a.sku] = result.server_transceivers.get(pair.a.sku, 0) + count
        links = sel[g.link_group]
        counts = np.bincount(link_cord[c - n_cable][links], weights=link_weight[links],
                             minlength=len(pair.cords.cords))
        for idx in np.flatnonzero(counts).tolist():
            cord = pair.cords.cords[idx]
            result.fibers[cord.sku] = result.fibers.get(cord.sku, 0) + int(round(counts[idx]))
            items[cord.sku] = cord
    return result


def quote(spec: DesignSpec, *, even: bool = True, cache: dict | None = None, checked: bool = False,
          grid: HallGrid | None = None) -> Quote:
    """What plan(spec) would count, total and prove, without its link table (module rules).

    Raises SpecError / InfeasibleSpec where plan() does. `cache` keeps, across the calls of one exploration
    (the same interconnect tuples), each pair of link ends' catalog candidates and the tiers priced. `grid`: the
    hall grid the devices are placed on (a fresh one by default), for a caller that checks the hall's size after.
    """
    if not checked:  # the explorer checks the request once and picks switches of its fabric and speed
        spec.validate()
    check_rack_rules(spec)  # the racks' rules read each candidate's switches
    sz = size_fabric(spec, even=even)
    optics, cables, fibers = interconnects(spec)
    cache = cache if cache is not None else {}
    cords_key = ("cords", spec.fabric, id(fibers))
    cords = cache.get(cords_key)
    if cords is None:
        cords = cache[cords_key] = cord_families(tuple(f for f in fibers if fabric_ok(f, spec.fabric)))
    ends = []
    for tier in range(3 if sz.tiers == 3 else 2):
        a, b = tier_ends(spec, tier)
        key = (a, b, id(optics), id(cables), id(fibers))
        cands = cache.get(key)
        if cands is None:
            cands = cache[key] = candidates(a, b, optics, cables, fibers, cords)
        if not cands:
            raise InfeasibleSpec({f"cabling.{TIER_NAMES[tier]}": [
                message("cabling.no_way", a=a.description(), b=b.description())]})
        ends.append((a, b, cands))
    lay = device_layout(sz)
    placement = place(spec, sz, lay, grid)
    # A tier's cabling depends only on its ends, the catalog, the layout and where its devices stand; the hall's
    # shape follows from every block's racks (engine.hall.geometry: a near-square hall, rows in aisle pairs), so
    # the placement itself is part of the key: structures placed alike (another spine or core model of the same
    # height and power) share it.
    def where(first: int, stop: int) -> int:
        """Where devices first..stop stand, up to a shift by whole row pairs (which changes no run)."""
        rows = placement.row[first:stop].astype(np.int64)
        rows = rows - 2 * (int(rows.min()) // 2) if rows.shape[0] else rows
        return hash((rows.tobytes(), placement.col[first:stop].tobytes(), placement.rack_unit[first:stop].tobytes()))

    base = (id(optics), id(cables), id(fibers), spec.layout, sz.servers, sz.su_servers, sz.rails, sz.tiers,
            sz.sus_per_pod, sz.leaf_slots, sz.leaf_uplinks_last_su)
    tiers, items = [], {}

    def priced(tier: int, key: tuple | None, grouped) -> None:
        a, b, cands = ends[tier]
        hit = cache.get(key) if key is not None else None
        if hit is None:
            found: dict = {}
            hit = (_price(tier, a, b, cands, grouped(a, b), found), found)
            if key is not None:
                cache[key] = hit
        tiers.append(hit[0])
        items.update(hit[1])

    priced(0, ("server-leaf", ends[0][0], ends[0][1], where(0, lay.spine_base)) + base,
           lambda a, b: _server_leaf(spec, sz, lay, placement, a.ports_per_cage, b.ports_per_cage))
    priced(1, ("leaf-spine", ends[1][0], ends[1][1], sz.planes, sz.spines_per_plane, sz.spines_per_pod,
               sz.spines_last_pod, sz.leaf_uplinks, where(lay.leaf_base, lay.core_base)) + base,
           lambda a, b: _leaf_spine(spec, sz, lay, placement, a.ports_per_cage, b.ports_per_cage))
    uplinks = None
    if sz.tiers == 3:
        grouped, uplinks = _spine_core(spec, sz, lay, placement, ends[2][0].ports_per_cage, ends[2][1].ports_per_cage)
        priced(2, None, lambda a, b: grouped)
    c = _leaf_spine_counts(sz)
    wiring = prove_counts(sz, lay, c, uplinks if sz.tiers == 3 and sz.pods > 1 else None)
    b_ = bill(spec, sz, Cabling([], tiers, items))
    sz.estimated_cost = b_.total_cost
    return Quote(sizing=sz, wiring=wiring, total_cost=b_.total_cost, subtotal=b_.subtotal,
                 power_typical_w=b_.power_typical_w, power_max_w=b_.power_max_w, rack_units=b_.rack_units,
                 currency=spec.currency, racks=_racks(placement))


def _racks(placement: Placement) -> int:
    """Distinct (row, position) the devices stand in: the racks engine.hall.build.place_hall makes of them."""
    key = placement.row.astype(np.int64) * (1 << 20) + placement.col.astype(np.int64)
    return int(np.unique(key).shape[0])
