"""Cabling: a medium and a length for every link, from the rack placement and the catalog.

Rules:
- A link's run length comes from engine.racks (Manhattan distance between its racks plus slack).
- A cage's module or cable is shared by the logical ports of the cage (a twin-port 800G cage in
  2x400G carries two 400G links), and both ends of a link must be built the same way (the same
  optic media and fibre, or the two ends of one cable assembly). So cages joined by links form a
  group that gets ONE way of building it, chosen from the group's longest link: a lone cage and
  its far ends (server-leaf: a leaf cage and its NIC ports), a pair of cages joined straight, or
  a wider chain of twin-port cages on switch-to-switch tiers.
- Ways of building a group, the cheapest of enough reach wins (ties: cable assemblies first):
  - a straight cable assembly (DAC, ACC, AEC, AOC; legs = 1) between exactly one cage at each end,
    cable speed = both cages' native speed, form factors matching the two ends: one per group;
  - a 1:N splitter (legs = N) from one N-port cage (A end: cage form factor and native speed) to N
    single-port cages at the leg speed (B ends): one assembly per group, counted once;
  - optics at both ends plus one fibre cord per link: modules match their cage (form factor,
    native speed as `gbps`, logical ports per cage as `ports`, link speed as `port_gbps`), both
    ends have the same media (SR, DR, FR) and fibre (MMF with MMF, SMF with SMF, never mixed), and
    the cords have that fibre and the optics' per-port connector. One module per cage used (a
    twin-port module counts once for its two links), one cord per link. Flat-top modules go only
    into server cages; a server's twin-port cage takes only flat-top ones. Reach = the shorter of the
    two modules' reach_m.
- Reach margin: a pair of optics takes a link only when the fibre cord it gets (the shortest sold of at
  least the run: the optical length, slack coiled in it) stays a margin below its reach, the larger of
  3 m and 5 % of the reach (SR 50 m: cords up to 47 m, so the 30 m cord with 50 m and 70 m sold;
  DR 500 m: 475 m; FR 2 km: 1,900 m). Why: the planned run is an estimate from rack positions and the
  installed one grows by what the plan cannot see (tray detours, service loops, patch cords at a
  structured panel), while every mated connector pair spends optical budget the vendor's reach figure
  assumes unspent. A link inside the margin takes the next reach class (DR instead of SR); only when no
  qualified class reaches it with the margin does it keep the part rated for it, and the plan says how
  many links run that close to the limit (warning.reach_margin).
  Assembly length >= the group's longest run; each fibre cord is the shortest sold for its own
  link's run (at least the run). The link's length_m is that catalog length.
- Only qualified items are offered (issue 12): every optic, cable assembly and fibre cord must list
  the design's fabric in its `fabrics`; an optic in a switch cage, and a cable assembly touching a
  switch, must also be made by that switch's vendor or list it in `compatible_vendors`, unless the
  design allows third-party optics (`third_party_optics`). NIC-side optics and fibre cords are
  qualified by fabric only: the vendor rule binds the switch's cages. A switch of unknown vendor ("")
  takes any vendor's parts.
- If no catalog item can build a link class, or none reaches its longest run, InfeasibleSpec
  names the tier ("cabling.leaf-spine"); when qualification left items out, the message says
  which fabric and vendors were required and the reach nothing qualified has, and a second
  message gives the reach of other vendors' parts that third-party optics would allow.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .messages import Message, message
from .model import TIER_NAMES, LinkTable, Medium
from .spec import FABRIC_NAMES, CableAssembly, DesignSpec, FiberCord, InfeasibleSpec, Optic, _per_port_connector

EPS = 1e-6
REACH_MARGIN_M = 3.0  # metres kept free below an optic's rated reach, at least...
REACH_MARGIN_FRACTION = 0.05  # ...and this share of it (see the module rules)


def reach_margin(reach_m: float) -> float:
    """The margin a run keeps below a part's rated reach: max(3 m, 5 % of the reach)."""
    return max(REACH_MARGIN_M, REACH_MARGIN_FRACTION * float(reach_m))


def usable_reach(reach_m: float) -> float:
    """The longest fibre a part of `reach_m` is planned for."""
    return float(reach_m) - reach_margin(reach_m)


def group_cord_m(lengths: np.ndarray, lmax: np.ndarray) -> np.ndarray:
    """The cord each group's longest run takes (the shortest sold of at least the run): the optical length the
    reach margin is held against; inf where no cord is long enough."""
    i = np.searchsorted(lengths, lmax - EPS)
    return np.where(i < len(lengths), lengths[np.minimum(i, len(lengths) - 1)], np.inf)


@dataclass(frozen=True, slots=True)
class End:
    """One end of a link class: the cage the module or cable plugs into."""

    role: str
    form_factor: str
    native_gbps: int  # cage speed
    ports_per_cage: int
    link_gbps: int
    # Which optics fit by their top: True = flat-top only (a server's twin-port cage, riding heat sink),
    # False = finned only (switch cages), None = either (a single-port NIC cage).
    flat_top: bool | None = False
    fabric: str = ""  # the design's fabric: items must be qualified for it ("" = no check)
    vendor: str = ""  # the switch vendor whose qualification this end requires ("" = any vendor)

    def describe(self) -> str:
        return self.description().text

    def description(self) -> Message:
        if self.ports_per_cage > 1:
            return message("cabling.end_cages", role=self.role, form_factor=self.form_factor,
                           native_gbps=self.native_gbps, ports_per_cage=self.ports_per_cage, link_gbps=self.link_gbps)
        return message("cabling.end_ports", role=self.role, form_factor=self.form_factor, link_gbps=self.link_gbps)


def tier_ends(spec: DesignSpec, tier: int) -> tuple[End, End]:
    """(a end, b end) of a tier's links; the a end is the lower tier (the NIC for server-leaf)."""
    gbps = spec.port_gbps
    fabric = spec.fabric

    def switch_end(role: str, *, up: bool = False) -> End:
        hw = spec.switch_hw(role)
        vendor = "" if spec.third_party_optics else hw.vendor
        if up and role == "leaf" and hw.uplinks:  # a front-end / management leaf's uplink group
            return End(role, hw.uplink_form_factor or hw.form_factor, hw.uplink_gbps, 1, hw.uplink_gbps,
                       fabric=fabric, vendor=vendor)
        return End(role, hw.form_factor, hw.native_gbps, hw.ports_per_cage, hw.gbps, fabric=fabric, vendor=vendor)

    if tier == 0:
        nic = spec.nic_hw
        ppc = spec.server_ports_per_cage
        return (End("server", nic.form_factor, nic.gbps * spec.server.ports_per_cage, ppc, gbps, True if ppc > 1 else None, fabric=fabric),
                switch_end("leaf"))
    if tier == 1:
        return switch_end("leaf", up=True), switch_end("spine")
    return switch_end("spine"), switch_end("core")


@dataclass(slots=True)
class CableFamily:
    """Cable assemblies of one make differing only in length; `side` is where the A end plugs."""

    kind: str  # "straight", "split-a" (A end at the a side), "split-b"
    cables: list[CableAssembly]  # by length, then price
    lengths: np.ndarray
    prices: np.ndarray


@dataclass(slots=True)
class CordFamily:
    fiber: str
    connector: str  # "" = any connector of the fibre
    cords: list[FiberCord]  # by length, cheapest per length
    lengths: np.ndarray
    prices: np.ndarray


@dataclass(slots=True)
class OpticPair:
    a: Optic
    b: Optic
    cords: CordFamily
    reach_m: float


@dataclass(slots=True)
class Candidates:
    cables: list[CableFamily]
    optics: list[OpticPair]
    # Ways that fit the cages but were left out as unqualified: whether any, and the longest reach among
    # those qualified for the fabric but not the switch vendor (what third-party optics would add).
    excluded: bool = False
    other_vendors_reach_m: float = 0.0

    def __bool__(self) -> bool:
        return bool(self.cables or self.optics)


def _ff(text: str) -> str:
    return (text or "").strip().upper()


def fabric_ok(item: Optic | CableAssembly | FiberCord, fabric: str) -> bool:
    return not fabric or fabric in item.fabrics


def vendor_ok(item: Optic | CableAssembly, vendor: str) -> bool:
    """Made by `vendor` or declared compatible with it (names compare case-insensitively); "" = any."""
    if not vendor:
        return True
    wanted = vendor.strip().casefold()
    return item.vendor.strip().casefold() == wanted or any(
        v.strip().casefold() == wanted for v in item.compatible_vendors)


def cord_families(fibers: tuple[FiberCord, ...]) -> dict[tuple[str, str], CordFamily]:
    """Cords by (fibre, connector), plus (fibre, "") = any connector; cheapest cord per length."""
    groups: dict[tuple[str, str], list[FiberCord]] = {}
    for cord in fibers:
        groups.setdefault((cord.fiber, _per_port_connector(cord.connector)), []).append(cord)
        groups.setdefault((cord.fiber, ""), []).append(cord)
    out = {}
    for key, cords in groups.items():
        best: dict[float, FiberCord] = {}
        for cord in sorted(cords, key=lambda c: (c.length_m, c.price, c.sku)):
            best.setdefault(float(cord.length_m), cord)
        chosen = [best[length] for length in sorted(best)]
        out[key] = CordFamily(key[0], key[1], chosen, np.array([c.length_m for c in chosen], dtype=np.float64),
                              np.array([c.price for c in chosen], dtype=np.float64))
    return out


def candidates(a: End, b: End, optics: tuple[Optic, ...], cables: tuple[CableAssembly, ...],
               fibers: tuple[FiberCord, ...], cords: dict | None = None) -> Candidates:
    """Every qualified catalog way to build links between ends a and b (see the module rules)."""
    gbps = a.link_gbps
    fabric = a.fabric or b.fabric
    excluded, other_reach = False, 0.0
    families: dict[tuple, list[CableAssembly]] = {}
    # A server's twin-port cage serves two rails, i.e. two leaves: each port needs its own fibre.
    copper_ok = not (a.role == "server" and a.ports_per_cage > 1)
    for cable in cables if copper_ok else ():
        fa, fb = _ff(cable.form_factor_a), _ff(cable.form_factor_b)
        kinds = []
        if cable.legs == 1:
            if cable.gbps == a.native_gbps == b.native_gbps and cable.leg_gbps == cable.gbps \
                    and {fa, fb} == {_ff(a.form_factor), _ff(b.form_factor)} and gbps <= cable.gbps:
                kinds.append("straight")
        else:
            for kind, x, y in (("split-a", a, b), ("split-b", b, a)):
                if (x.ports_per_cage == cable.legs and x.native_gbps == cable.gbps and fa == _ff(x.form_factor)
                        and y.ports_per_cage == 1 and y.native_gbps == cable.leg_gbps and fb == _ff(y.form_factor)
                        and cable.leg_gbps == gbps):
                    kinds.append(kind)
        if kinds and not (fabric_ok(cable, fabric) and vendor_ok(cable, a.vendor) and vendor_ok(cable, b.vendor)):
            excluded = True
            if fabric_ok(cable, fabric):
                other_reach = max(other_reach, float(cable.length_m))
            continue
        for kind in kinds[:1]:
            families.setdefault((kind, cable.media, fa, fb, cable.gbps, cable.leg_gbps, cable.legs), []).append(cable)
    cable_families = []
    for key, members in families.items():
        best: dict[float, CableAssembly] = {}
        for cable in sorted(members, key=lambda c: (c.length_m, c.price, c.sku)):
            best.setdefault(float(cable.length_m), cable)
        chosen = [best[length] for length in sorted(best)]
        cable_families.append(CableFamily(key[0], chosen, np.array([c.length_m for c in chosen], dtype=np.float64),
                                          np.array([c.price for c in chosen], dtype=np.float64)))

    def fits(optic: Optic, end: End) -> bool:
        return (_ff(optic.form_factor) == _ff(end.form_factor) and optic.gbps == end.native_gbps
                and optic.ports == end.ports_per_cage and optic.port_gbps == gbps
                and (end.flat_top is None or optic.flat_top == end.flat_top))

    cords = cord_families(tuple(f for f in fibers if fabric_ok(f, fabric))) if cords is None else cords
    side_a = [o for o in optics if fits(o, a) and fabric_ok(o, fabric)]
    side_b = [o for o in optics if fits(o, b) and fabric_ok(o, fabric)]
    excluded = excluded or any(fits(o, end) and not fabric_ok(o, fabric) for o in optics for end in (a, b))
    pairs = []
    for oa in side_a:
        for ob in side_b:
            if oa.media != ob.media or oa.fiber != ob.fiber:
                continue
            ca, cb = oa.port_connector, ob.port_connector
            if ca and cb and ca != cb:
                continue
            family = cords.get((oa.fiber, ca or cb))
            if family is None:
                continue
            reach = float(min(oa.reach_m, ob.reach_m))
            if not (vendor_ok(oa, a.vendor) and vendor_ok(ob, b.vendor)):
                excluded, other_reach = True, max(other_reach, reach)
                continue
            pairs.append(OpticPair(oa, ob, family, reach))
    return Candidates(cable_families, pairs, excluded, other_reach)


def _dense(keys: np.ndarray, span: int) -> tuple[np.ndarray, int]:
    """Map keys in [0, span) to 0..m-1 in key order."""
    present = np.zeros(span, dtype=bool)
    present[keys] = True
    rank = np.cumsum(present) - 1
    return rank[keys], int(rank[-1] + 1) if span else 0


def groups(a_key: np.ndarray, a_span: int, b_key: np.ndarray, b_span: int, a_ppc: int, b_ppc: int
           ) -> tuple[np.ndarray, int]:
    """Connected groups of cages (component id per link, count) over a tier's links."""
    n = a_key.shape[0]
    if a_ppc == 1 and b_ppc == 1:
        return np.arange(n, dtype=np.int64), n
    if a_ppc == 1:
        return _dense(b_key, b_span)
    if b_ppc == 1:
        return _dense(a_key, a_span)
    # Union-find with hooking and pointer jumping, all vectorised.
    parent = np.arange(a_span + b_span, dtype=np.int64)
    ea, eb = a_key, b_key + a_span
    while True:
        pa, pb = parent[ea], parent[eb]
        differ = pa != pb
        if not differ.any():
            break
        lo, hi = np.minimum(pa[differ], pb[differ]), np.maximum(pa[differ], pb[differ])
        np.minimum.at(parent, hi, lo)
        while True:
            nxt = parent[parent]
            if np.array_equal(nxt, parent):
                break
            parent = nxt
    return _dense(parent[ea], a_span + b_span)


@dataclass(slots=True)
class TierCabling:
    tier: int
    medium: np.ndarray  # int16 per link of the tier, index into Cabling.media
    length_m: np.ndarray  # float32 per link
    # BOM counts: sku -> qty, and the catalog objects by sku
    transceivers: dict[str, int] = field(default_factory=dict)
    cables: dict[str, int] = field(default_factory=dict)
    fibers: dict[str, int] = field(default_factory=dict)
    # Of `transceivers`, the modules plugged into servers (the a end of server-leaf links): in-server power.
    server_transceivers: dict[str, int] = field(default_factory=dict)
    # Links whose run is inside the reach margin of the optics they got (no qualified class reaches further).
    within_margin: int = 0
    margin_reach_m: float = 0.0  # the rated reach of those optics (the longest, if several)


@dataclass(slots=True)
class Cabling:
    media: list[Medium]
    tiers: list[TierCabling]
    items: dict[str, object]  # sku -> Optic / CableAssembly / FiberCord

    @property
    def notes(self) -> list[Message]:
        """Review points: links planned inside an optic's reach margin, per tier."""
        return [message("warning.reach_margin", tier=TIER_NAMES[t.tier], links=t.within_margin,
                        reach_m=t.margin_reach_m, margin_m=reach_margin(t.margin_reach_m),
                        usable_m=usable_reach(t.margin_reach_m))
                for t in self.tiers if t.within_margin]


def _cage_keys(dev: np.ndarray, port: np.ndarray, ppc: int, ports: int) -> tuple[np.ndarray, int]:
    base = int(dev.min()) if dev.shape[0] else 0
    cages = -(-ports // ppc)
    key = (dev.astype(np.int64) - base) * cages + port.astype(np.int64) // ppc
    span = (int(dev.max()) - base + 1) * cages if dev.shape[0] else 0
    return key, span


def _fmt_len(length: float) -> str:
    return f"{length:g} m"


def cable_links(spec: DesignSpec, links: LinkTable, raw: np.ndarray, optics: tuple[Optic, ...],
                cables: tuple[CableAssembly, ...], fibers: tuple[FiberCord, ...]) -> Cabling:
    """Choose the medium of every link (filling links.medium and links.length_m) and count the parts."""
    media: list[Medium] = []
    items: dict[str, object] = {}
    tier_results = []
    cords = cord_families(tuple(f for f in fibers if fabric_ok(f, spec.fabric)))
    tier_col = links.tier
    bounds = np.searchsorted(tier_col, np.arange(4))  # links are ordered by tier
    for tier in range(3):
        lo, hi = int(bounds[tier]), int(bounds[tier + 1])
        if hi == lo:
            continue
        a, b = tier_ends(spec, tier)
        b_ports = spec.switch_hw(b.role).ports
        if a.ports_per_cage == 1 and b.ports_per_cage == 1:
            a_key = b_key = None  # one link per cage at both ends: every link its own group, no keys needed
            a_span = b_span = 0
        elif tier == 0:
            # Logical NIC port L of a split port is part L div P of physical port L mod P (P physical ports,
            # engine.topology): all parts of a port share its cage, each going to its own plane's leaf.
            physical = spec.server.nic_ports
            a_key, a_span = _cage_keys(links.a_dev[lo:hi], links.a_port[lo:hi] % physical,
                                       spec.server.ports_per_cage, physical)
        else:
            a_key, a_span = _cage_keys(links.a_dev[lo:hi], links.a_port[lo:hi], a.ports_per_cage,
                                       spec.switch_hw(a.role).ports)
        if a_key is not None:
            b_key, b_span = _cage_keys(links.b_dev[lo:hi], links.b_port[lo:hi], b.ports_per_cage, b_ports)
        result = _cable_tier(tier, a, b, raw[lo:hi], a_key, a_span, b_key, b_span,
                             candidates(a, b, optics, cables, fibers, cords), media, items)
        links.medium[lo:hi] = result.medium
        links.length_m[lo:hi] = result.length_m
        tier_results.append(result)
    return Cabling(media, tier_results, items)


def _runs(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct runs in increasing order and, per link, the index of its run (np.unique's, by a sort of the
    values and a search of each in the few distinct ones)."""
    values = np.sort(raw)
    runs = values[np.concatenate(([True], values[1:] != values[:-1]))] if values.shape[0] else values
    return runs, np.searchsorted(runs, raw)


def _cable_tier(tier: int, a: End, b: End, raw: np.ndarray, a_key, a_span, b_key, b_span,
                cands: Candidates, media: list[Medium], items: dict) -> TierCabling:
    name = TIER_NAMES[tier]
    n = raw.shape[0]
    raw64 = raw.astype(np.float64)
    if not cands:
        raise InfeasibleSpec({f"cabling.{name}": _unqualified(name, cands, a, b, None, None) or [
            message("cabling.no_way", a=a.description(), b=b.description())]})
    if a_key is None:  # one link per cage at both ends (cable_links names no cages)
        comp, m = np.arange(n, dtype=np.int64), n
    else:
        comp, m = groups(a_key, a_span, b_key, b_span, a.ports_per_cage, b.ports_per_cage)
    identity = m == n and a.ports_per_cage == 1 and b.ports_per_cage == 1
    links_n, run_of = n, None
    if identity:
        # Every link its own group: a link's way depends on its run alone, so each distinct run is chosen for
        # once (a few hundred runs, not 10^5 links) and `k` counts the links of each.
        runs, run_of = _runs(raw)  # the float32 runs: half the bytes to sort, each exact in float64
        raw64 = runs.astype(np.float64)
        n = m = raw64.shape[0]
        lmax = raw64
        k = np.bincount(run_of, minlength=m)
        n_a = n_b = np.ones(m, dtype=np.int64)  # per link of the run
    else:
        lmax = np.zeros(m, dtype=np.float64)
        np.maximum.at(lmax, comp, raw64)
        k = np.bincount(comp, minlength=m)
        n_a = k if a.ports_per_cage == 1 else _cages_per_group(a_key, a_span, comp, m)
        n_b = k if b.ports_per_cage == 1 else _cages_per_group(b_key, b_span, comp, m)

    # Cost of every way of building every group (inf where it can't).
    costs = []
    choice_index = []  # per candidate: per-group catalog index (cable length / -1)
    lmax_eps = lmax - EPS
    for fam in cands.cables:
        i = np.searchsorted(fam.lengths, lmax_eps)
        ok = i < len(fam.cables)
        if fam.kind == "straight":
            ok &= (n_a == 1) & (n_b == 1)
        elif fam.kind == "split-a":
            ok &= n_a == 1
        else:
            ok &= n_b == 1
        safe = np.minimum(i, len(fam.cables) - 1)
        costs.append(np.where(ok, fam.prices[safe], np.inf))
        choice_index.append(safe)
    link_cord: list[np.ndarray] = []
    per_family: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    loose = list(costs)  # the same costs without the reach margin: the fallback when nothing reaches with it
    for pair in cands.optics:
        cached = per_family.get(id(pair.cords))
        if cached is None:
            ci = np.searchsorted(pair.cords.lengths, raw64 - EPS)
            cord_ok = ci < len(pair.cords.cords)
            safe = np.minimum(ci, len(pair.cords.cords) - 1)
            price = np.where(cord_ok, pair.cords.prices[safe], np.inf)
            cord_sum = price if identity else np.bincount(comp, weights=price, minlength=m)
            cached = per_family[id(pair.cords)] = (safe, cord_sum, group_cord_m(pair.cords.lengths, lmax))
        safe, cord_sum, cord_m = cached
        cost = n_a * pair.a.price + n_b * pair.b.price + cord_sum
        costs.append(np.where(cord_m <= usable_reach(pair.reach_m) + EPS, cost, np.inf))
        loose.append(np.where(lmax <= pair.reach_m + EPS, cost, np.inf))
        link_cord.append(safe)
    cost = np.vstack(costs)
    inside = ~np.isfinite(cost.min(axis=0))  # groups no class reaches with the margin
    if inside.any():
        cost[:, inside] = np.vstack(loose)[:, inside]
    best = np.argmin(cost, axis=0)
    best_cost = cost[best, np.arange(m)]
    if not np.isfinite(best_cost).all():
        worst = float(lmax[~np.isfinite(best_cost)].max())
        reach = float(max([p.reach_m for p in cands.optics] + [float(f.lengths[-1]) for f in cands.cables]))
        if worst <= reach + EPS:
            # Long enough, but only cable assemblies reach and they can't join these cages (a twin-port cage
            # whose two links go to two switches): no way builds them, whatever their length.
            raise InfeasibleSpec({f"cabling.{name}": _unqualified(name, cands, a, b, None, None) or [
                message("cabling.no_way", a=a.description(), b=b.description())]})
        raise InfeasibleSpec({f"cabling.{name}": _unqualified(name, cands, a, b, worst, reach) or [
            message("cabling.too_long", tier=name, longest_m=worst, a=a.description(), b=b.description(),
                    reach_m=reach)]})

    # Medium code per link: cables by (family, length index), optics by (pair, cord index).
    n_cable = len(cands.cables)
    link_best = best if identity else best[comp]
    code = np.empty(n, dtype=np.int64)
    length = np.empty(n, dtype=np.float32)
    max_len = max([len(f.cables) for f in cands.cables] + [len(p.cords.cords) for p in cands.optics] + [1])
    result = TierCabling(tier, np.empty(links_n, dtype=np.int16), length)
    ends_a = k if identity else n_a  # modules per way: one per link of a run, else one per cage of the group
    ends_b = k if identity else n_b
    margin_groups = inside & (best >= n_cable)
    if margin_groups.any():
        result.within_margin = int(k[margin_groups].sum())
        result.margin_reach_m = max(cands.optics[c - n_cable].reach_m
                                    for c in np.unique(best[margin_groups]).tolist())
    for c in range(n_cable + len(cands.optics)):
        sel_groups = best == c
        if not sel_groups.any():
            continue
        sel = link_best == c
        if c < n_cable:
            fam = cands.cables[c]
            idx_group = choice_index[c]
            idx = idx_group[comp[sel]] if not identity else idx_group[sel]
            code[sel] = c * max_len + idx
            length[sel] = fam.lengths[idx]
            counts = np.bincount(idx_group[sel_groups], weights=k[sel_groups] if identity else None,
                                 minlength=len(fam.cables))
            for j in np.flatnonzero(counts):
                cable = fam.cables[j]
                result.cables[cable.sku] = result.cables.get(cable.sku, 0) + int(counts[j])
                items[cable.sku] = cable
        else:
            pair = cands.optics[c - n_cable]
            idx = link_cord[c - n_cable][sel]
            code[sel] = c * max_len + idx
            length[sel] = pair.cords.lengths[idx]
            for optic, count in ((pair.a, int(ends_a[sel_groups].sum())), (pair.b, int(ends_b[sel_groups].sum()))):
                result.transceivers[optic.sku] = result.transceivers.get(optic.sku, 0) + count
                items[optic.sku] = optic
            if a.role == "server":
                count = int(ends_a[sel_groups].sum())
                result.server_transceivers[pair.a.sku] = result.server_transceivers.get(pair.a.sku, 0) + count
            counts = np.bincount(idx, weights=k[sel] if identity else None, minlength=len(pair.cords.cords))
            for j in np.flatnonzero(counts):
                cord = pair.cords.cords[j]
                result.fibers[cord.sku] = result.fibers.get(cord.sku, 0) + int(counts[j])
                items[cord.sku] = cord
    # The media codes used, in code order, and each link's rank among them (np.unique's, in linear time: the codes
    # are below (cable families + optic pairs) x max_len).
    present = np.zeros((n_cable + len(cands.optics)) * max_len, dtype=bool)
    present[code] = True
    codes = np.flatnonzero(present)
    inverse = (np.cumsum(present) - 1)[code]
    first = len(media)
    for value in codes.tolist():
        c, j = divmod(int(value), max_len)
        media.append(_medium(tier, a, b, cands, c, j))
    result.medium[:] = (first + inverse if run_of is None else (first + inverse)[run_of]).astype(np.int16)
    if run_of is not None:
        result.length_m = length[run_of]
    return result


def _unqualified(name: str, cands: Candidates, a: End, b: End, longest_m: float | None,
                 reach_m: float | None) -> list[Message]:
    """Why nothing qualified builds (or reaches) a tier, when qualification left items out; [] otherwise."""
    if not cands.excluded:
        return []
    fabric = FABRIC_NAMES.get(a.fabric or b.fabric, a.fabric or b.fabric)
    vendors = " / ".join(sorted({e.vendor for e in (a, b) if e.vendor}))
    ends = {"a": a.description(), "b": b.description(), "fabric": fabric}
    if vendors:
        ends["vendors"] = vendors
    if longest_m is None:
        out = [message("cabling.no_qualified_way" if vendors else "cabling.no_fabric_way", **ends)]
    else:
        out = [message("cabling.qualified_too_long" if vendors else "cabling.fabric_too_long", tier=name,
                       longest_m=longest_m, reach_m=reach_m, **ends)]
    if vendors and cands.other_vendors_reach_m > (reach_m or 0.0):
        out.append(message("cabling.third_party_reach", fabric=fabric, reach_m=cands.other_vendors_reach_m))
    return out


def _cages_per_group(key: np.ndarray, span: int, comp: np.ndarray, m: int) -> np.ndarray:
    cage_group = np.full(span, -1, dtype=np.int64)
    cage_group[key] = comp
    return np.bincount(cage_group[cage_group >= 0], minlength=m)


def _medium(tier: int, a: End, b: End, cands: Candidates, c: int, j: int) -> Medium:
    n_cable = len(cands.cables)
    if c < n_cable:
        fam = cands.cables[c]
        cable = fam.cables[j]
        if fam.kind == "straight":
            shape = f"{cable.gbps}G"
            legs = max(1, min(a.ports_per_cage, b.ports_per_cage))
        else:
            shape = f"1:{cable.legs} splitter {cable.gbps}G to {cable.legs}x{cable.leg_gbps}G"
            legs = cable.legs
        return Medium(key=f"{cable.media} {shape} {_fmt_len(cable.length_m)} ({cable.sku})", kind=cable.media,
                      fiber="", a_sku=cable.sku, b_sku="", cable_sku=cable.sku, length_m=float(cable.length_m),
                      tier=tier, legs=legs)
    pair = cands.optics[c - n_cable]
    cord = pair.cords.cords[j]
    return Medium(
        key=f"{pair.a.media} {pair.a.sku} + {pair.b.sku}, {pair.a.fiber} {_fmt_len(cord.length_m)} ({cord.sku})",
        kind=pair.a.media, fiber=pair.a.fiber, a_sku=pair.a.sku, b_sku=pair.b.sku, cable_sku=cord.sku,
        length_m=float(cord.length_m), tier=tier, legs=1,
    )
