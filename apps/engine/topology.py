"""Rail-optimized multi-plane fat-tree: how many of everything, and which port meets which.

Rules (r = backend NIC ports per server = rails, p = planes, r/p = rails per plane):

- Planes from a split NIC port: with nic_split s (the NIC's published breakout, ConnectX-8 800G as
  2x400G), each of the P physical ports is s logical ports at 1/s of its speed, r = P * s rails, and
  logical port L is part L div P of physical port L mod P. p must be a multiple of s, so the parts of
  one port land on s different planes, each plane a fabric of its own; the s parts share the port's
  cage (one twin-port optic, s fibres to s planes' leaves, engine.cabling). Worked example, NVIDIA
  DGX SuperPOD with DGX B300 on Spectrum-X ("twin-planar design ... Each GPU has 2x 400GbE
  connectivity through two different planes", RA Table 3): 8 x 800G per server split 2x400G, 2 planes,
  64 servers per SU on SN5610 in 128x400G at 1:1 -> 1 SU (512 GPUs): 16 leaves, 8 spines;
  2 SUs: 32 / 16; 4 SUs: 64 / 32; 8 SUs: 128 / 64; 16 SUs (8,192 GPUs): 256 leaves, 128 spines.
- Rack-scale systems (engine.scaleup): servers are compute trays of D per domain (18 for NVL72), and
  the fabric is sized two ways, taking the one with fewer switches (a leaf per rail on a tie):
  - a leaf per rail: the scale unit's downlinks d are rounded down to whole domains when a domain fits,
    so no domain straddles two scale units, and the leaf cables only the uplinks those d carry (below);
  - leaves shared by tray slot: an SU is K = floor(d / (r/p)) racks (domains; fewer if K x r/p would
    split a cage), with D leaves per plane; leaf t takes the plane's r/p NIC ports of tray t of each of the
    K racks, on leaf port (rack in the SU) x r/p + rail in the plane, K x r/p downlinks. Tray t of K racks
    is the cross-rack rail: GPU i of tray t sits at the same NVLink position in every rack, so the GPUs
    that talk across racks (the same rank of each domain) meet on one leaf, as GPU i of every node meets
    on its rail's leaf in an 8-GPU SuperPOD. NVIDIA builds GB200 SuperPOD SUs of "8 DGX GB200 systems"
    (576 GPUs, DGX SuperPOD GB200 RA, Abstract), K = 8 on a 64-port leaf at 1:1: 8 x 4 = 32 down.
    A partly filled last SU's leaves carry its racks' ports only and cable what those carry at o:1; the
    spine count of a group holding them must divide both kinds of leaves' uplinks, else this way is not
    taken. Worked examples, GB200 NVL72 on 64-port QM9700 at 1:1 (tests/engine/test_scaleup.py):
    1 SU, 8 racks: per rail 32 leaves (18 down, 18 up) + 9 spines = 41; shared 18 leaves (32 down, 32 up)
    + 16 spines = 34, taken (9 spines would be fewer, but 9 does not divide 32: 18 leaves x 32 uplinks
    meet 9 spines' 64 ports only with 3 or 4 links per pair, blocking). 6 racks: 24 + 9 = 33 against 18 +
    8 = 26. 57 racks (3 tiers): per rail 228 leaves + 129 spines + 72 cores = 429, kept; shared, a pod
    (32 spine ports down) holds one SU of 18 leaves x 32 uplinks, which needs 32 spines (the divisor of
    32 from 18), so 144 leaves + 7 x 32 + 4 spines + 72 cores = 444.

- servers = ceil(gpus / gpus per server). Every NIC port of every server is cabled.
- p divides r; plane j holds rails j*r/p .. (j+1)*r/p - 1. Each plane is an independent fabric
  with its own leaves, spines and cores; p = 1 is a single fabric.
- Leaf logical ports P_L run at NIC speed (after breakout). Oversubscription o:1 gives downlinks
  d = floor(P_L * o / (o + 1)), rounded down to whole cages on twin-port cages (a cage carries one
  link class), and down to whole rack-scale domains; uplinks u = min(P_L - d, ceil(d / o)): a leaf never
  cables more uplinks than its d downlinks carry at o:1 (GB200 NVL72 on 64-port leaves at 1:1 with a leaf per
  rail: one rail of one rack, 18 down and 18 up, not 32: 32 leaves and 9 spines an SU, not 16). Every leaf
  cables all u uplinks, also in a partly filled SU: NVIDIA builds the full SU's leaves and leaf-spine
  cables ("the fabric should be designed to support the full SU, including leaf switches and leaf-spine
  cables", DGX SuperPOD RAs, Network Fabrics), so the SU fills later without recabling.
- A scale unit (SU) is d servers with one leaf per rail: NIC port i of every server of the SU lands
  on the SU's leaf for rail i, on leaf port = the server's position in the SU (shared rack-scale leaves:
  above). Downlinks take the first d logical ports of a leaf, uplinks the ports after them.
- Spine count, 2 tiers (per plane): leaves L = SUs * r/p; feasible only if L <= P_S (a spine needs a
  port for every leaf of its plane). Spines n = the smallest n >= ceil(L * u / P_S) that divides u, so
  every leaf has exactly u/n links to every spine of its plane and a leaf pair can always use all of
  its u uplinks (NVIDIA DGX SuperPOD, 64-port switches: 1 SU -> 4 spines, 2 -> 8, 3 -> 16 not 12,
  4 -> 16; DGX B300 on 144-port Quantum-X800, RA-11339-001 Table 3: 4 SUs of 72 nodes -> 18 spines, not 16,
  8 -> 36). A count that does not divide u would leave each leaf with floor(u/n) or ceil(u/n) links
  per spine; two leaves then share only sum_s min(c_a[s], c_b[s]) < u links' worth of paths and the
  fabric is blocking (5,000 GPUs on 128x400G with 40 spines: 48 of 64 links for the worst pair).
  Such a count is never the plan; `spread` still builds it for the priced "uneven" alternative:
  leaf l's extra links go to spines (l * (u mod n) + k) mod n, k < u mod n. Since L <= P_S,
  ceil(L * u / P_S) <= u, so u itself bounds the search and every spine ends with L * u / n <= P_S
  leaf links.
- 3 tiers (per plane): a pod holds floor((P_S/2) / (r/p)) SUs; spines use P_S/2 ports down and up to
  P_S/2 up. Spines per pod follow the same rule with P_S/2 in place of P_S, counted from the pod's own
  leaves, so a partly filled last pod gets fewer spines (the quote buys what is cabled; filling the
  pod later adds spines and re-spreads its leaf uplinks). A spine cables as many uplinks h as it carries
  leaf links (1:1): h = leaves of its pod x u / n, P_S/2 in a full pod of full-radix leaves, fewer in a
  partly filled last pod or behind rack-scale leaves. Feasible only if pods <= P_C.
- Even spread at the top tier (engine.topology.core_count): a pod sends U = n x h links up; C = cores per
  plane = the smallest C >= ceil(all spine uplinks of the plane / P_C) that divides a full pod's U (one
  dividing the last pod's U too when there is one), so every core has U / C links into every full pod and
  the pods divide the cores' ports alike. The fewest cores, ceil(... / P_C), can leave pods uneven: 24,576
  GPUs on 128-port switches at 1:1 are 6 pods of 4,096 uplinks; 192 cores give each core 21 or 22 links into
  a pod and two pods meet on only 4,032 of 4,096 links (98.4 %), so the plan takes 256 cores (16 into every
  pod, 96 of 128 ports). 5,000 GPUs on 64x400G: 5 pods of 1,024 -> 128 cores, not 80.
  Uplink k of spine i of a pod with n spines is the pod's slot k * n + i, a pod's slots follow those of the
  pods before it, and slot j of the plane goes to core j mod C on core port j div C: with C dividing U, spine
  i reaches C / gcd(n, C) cores with h / (C / gcd(n, C)) links to each, and the spines of any two pods meet
  on the cores alike, so two leaves in different pods keep all u uplinks' worth of paths (slots taken spine
  by spine, k + i * h, gave some pod pairs less, e.g. 30 of 32 links at 20,000 GPUs in 2 planes of 64-port
  switches). A partly filled last pod of n' spines with h' uplinks whose U' = n' x h' the cores don't divide is
  wired in bundles (last_pod_bundles): each spine sends r bundles of h'/r links to r different cores, every core
  it reaches takes t bundles, and the g = gcd(n, C) classes of cores (core mod g: a full pod's spine i reaches
  exactly the cores of class i mod g) take equal shares, so every last-pod spine reaches its cores alike, every
  core it reaches gets the same t x h'/r links (at most U/C, what a full pod gives it, and within its free
  ports), and a leaf of the last pod spreads its flow over the classes as a full pod's leaf receives it: no
  pair loses paths. Bundle x (spine i's m-th, x = i x r + m) goes to class x mod g, to its class's core
  (x div g) mod K (K cores reached per class) on the core's port after the full pods' ones. Where no share
  alike per class exists (a prime h' such as 5 with 8 classes of 2 cores), the same bundles go to cores
  0 .. K-1 (as many of each class as can be; engine.wiring proves the pairs). core_count takes the first even C
  under which one of the two exists: more cores only where the smallest C allows neither (925 single-port
  servers on 32-port leaves and 16-port spines at 2:1: the last pod's 11 spines x 5 uplinks = 55 links meet
  44 cores at most 2 each, and 55 has no divisor from 28 to 44, so 88 cores, 1 link each to 55 of them).
  Where no C allows it the last pod takes its slots spine by spine, some cores one link more than
  others, and engine.wiring measures what that leaves. Worked example: 4,416 GPUs on 32x400G in 2 planes at
  1:1, 9 pods, 128 cores: the last pod's 16 spines have 12 uplinks each (192 links, 128 does not divide
  them); the stride gave 64 cores 2 links from it and 64 cores 1, bundles give 96 cores 2 links each, every
  spine 1 link to each of 12 cores.
  engine.wiring measures every tier on every plan: leaf pairs (max-flow), pod pairs (sum over cores of the
  smaller of the two pods' links) and the links per leaf-spine, spine-core and core-pod pair.
- tiers "auto" = 2 when it fits, else 3.
- Max GPUs the chosen structure can grow to: 2 tiers floor(P_S / (r/p)) SUs * d * gpus per server;
  3 tiers P_C pods * SUs per pod * d * gpus per server. Max switch hops 3 (2 tiers) or 5 (3 tiers).
- Oversubscription per tier: leaf d:u, spine (3 tiers) downlink ports : uplink ports = 1.
- Bisection bandwidth: half the capacity of the thinnest tier (servers' NIC links, leaf uplinks,
  spine uplinks): what crosses a cut that halves the servers with ECMP spreading evenly.

Worked examples (8-GPU servers with 8x400G, 1:1): 5,000 GPUs on 128x400G -> 2 tiers, 80 leaves,
64 spines, 5,000 server links, 5,120 leaf-spine links, grows to 8,192 GPUs. 3,000 GPUs on 128x400G
-> 48 leaves, 32 spines. On 64x400G -> 3 tiers, 160 leaves, 160 spines, 128 cores, grows to 65,536.
On 64x400G in 8 planes -> 2 tiers, 160 leaves, 128 spines (16 per plane), grows to 16,384.
On 64x400G (DGX SuperPOD): 1,016 GPUs -> 32 leaves, 16 spines (4 SUs); 760 GPUs -> 24 leaves,
16 spines (3 SUs). engine.wiring proves every plan delivers its stated oversubscription.

Device order (Device.index): servers, then leaves (plane, SU, rail; or tray slot when shared), spines (plane, pod, index),
cores (plane, index). Links: tier 0 server-major (server, NIC port), tier 1 by (plane, leaf, spine),
tier 2 by (plane, spine, uplink). Everything is built with numpy array arithmetic, never a Python
loop per link.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .model import TIER_NAMES, LinkTable, Sizing
from .messages import message
from .spec import DesignSpec, InfeasibleSpec


def leaf_split(ports: int, oversubscription: float, ports_per_cage: int = 1) -> tuple[int, int]:
    """(downlinks d, uplinks u) of a leaf with `ports` logical ports at o:1."""
    o = float(oversubscription)
    down = int(math.floor(ports * o / (o + 1) + 1e-9))
    if ports_per_cage > 1:
        down -= down % ports_per_cage
    return down, ports - down


def uplink_split(leaf, gbps: int, oversubscription: float) -> tuple[int, int]:
    """(downlinks d, uplinks u) of a leaf with an uplink group: every uplink, and as many access ports as
    keep d x gbps / (u x uplink_gbps) at most the stated o (a 48x25G + 8x100G leaf: 48 down at 1.5:1,
    32 down at 1:1)."""
    u = leaf.uplinks
    d = min(leaf.ports, int(math.floor(float(oversubscription) * u * leaf.uplink_gbps / gbps + 1e-9)))
    return d, u


def carried_uplinks(downlinks: int, oversubscription: float) -> int:
    """The uplinks `downlinks` need at o:1: ceil(downlinks / o). A leaf never cables more (engine.topology rules)."""
    return max(1, math.ceil(downlinks / float(oversubscription) - 1e-9))


def core_count(pod_uplinks: int, last_uplinks: int, pods: int, core_ports: int, *, even: bool = True,
               spines: tuple[int, int] = (0, 0)) -> int:
    """Cores of a plane whose pods each send `pod_uplinks` links up (the last pod `last_uplinks`).

    Even (the plan): the smallest C >= ceil(all uplinks / P_C) that divides a full pod's uplinks, so every
    core has the same number of links into every full pod (and no core more than P_C links); one that
    divides the last pod's uplinks too is preferred when there is one (then every core reaches every pod
    alike), else the first under which the last pod's bundles exist (last_pod_bundles, `spines` = (spines of a
    full pod, of the last pod)): the last pod then reaches its cores evenly too (core_slots). Where no candidate
    allows either, the smallest (engine.wiring measures what is uneven). A single pod is its own "full" pod.
    even=False: the fewest, ceil(all uplinks / P_C).
    """
    total = (pods - 1) * pod_uplinks + last_uplinks
    low = max(1, -(-total // core_ports))
    if not even:
        return low
    full = pod_uplinks if pods > 1 else last_uplinks

    def fits(c: int) -> bool:
        return full % c == 0 and (pods - 1) * (pod_uplinks // c) + -(-last_uplinks // c) <= core_ports

    candidates = [c for c in _divisors(full) if c >= low and fits(c)]  # full itself always fits (pods <= P_C)
    n_full, n_last = spines
    for c in candidates:
        if last_uplinks % c == 0:
            return c
        if pods > 1 and n_full and n_last and last_uplinks % n_last == 0 and any(last_pod_bundles(
                n_last, last_uplinks // n_last, c, classes, pod_uplinks // c,
                core_ports - (pods - 1) * (pod_uplinks // c)) for classes in (math.gcd(n_full, c), 1)):
            return c
    return candidates[0]


def _divisors(x: int) -> list[int]:
    """The divisors of x, ascending."""
    small = [c for c in range(1, math.isqrt(x) + 1) if x % c == 0]
    return sorted(set(small + [x // c for c in small]))


def last_pod_bundles(spines: int, uplinks: int, cores: int, classes: int, full_links: int, free_ports: int
                     ) -> tuple[int, int] | None:
    """(r, t): how a partly filled last pod's `spines` spines of `uplinks` uplinks each meet `cores` cores evenly
    when the cores don't divide the pod's uplinks (module rules, "Even spread at the top tier"), or None.

    Each spine sends r bundles of uplinks / r links to r different cores, and every core it reaches takes t bundles
    (t x uplinks / r links from the pod, at most `full_links`, what it has into a full pod, and at most its
    `free_ports`). The cores fall into `classes` = gcd(spines of a full pod, C) residue classes (core mod classes),
    class c being the cores that full-pod spines c, c + classes, ... reach; every class takes the same number of
    the last pod's bundles, so a leaf's flow spread evenly over its spines' bundles meets every full pod's spines
    alike. Of the choices the one reaching the most cores (then the most per spine) is taken.
    """
    best = None
    per_class = cores // classes
    cap = min(full_links, free_ports)
    for r in _divisors(uplinks):
        if (spines * r) % classes:
            continue
        size = uplinks // r
        bundles = spines * r // classes  # per class
        for t in _divisors(bundles):
            reached = bundles // t  # cores per class
            if reached > per_class or -(-r // classes) > reached or t * size > cap:
                continue
            if best is None or (reached, r) > best[0]:
                best = ((reached, r), (r, t))
    return best[1] if best else None


def fewest_spines(leaves: int, uplinks: int, spine_ports: int) -> int:
    """ceil(leaves * uplinks / spine_ports): the fewest spines with a port for every leaf uplink."""
    return max(1, -(-leaves * uplinks // spine_ports))


def spine_count(leaves: int, uplinks: int, spine_ports: int) -> int:
    """Spines for `leaves` leaves of `uplinks` uplinks each on spines with `spine_ports` downlink ports.

    The smallest n >= ceil(leaves * uplinks / spine_ports) that divides `uplinks`, so every leaf has
    the same number of links to every spine. Requires leaves <= spine_ports (then n <= uplinks).
    """
    n = fewest_spines(leaves, uplinks, spine_ports)
    while uplinks % n:
        n += 1
    return n


def spread_counts(leaves: int, uplinks: int, spines: int) -> np.ndarray:
    """Links of each leaf to each spine of one spine group, (leaves, spines): `spread`'s wiring, counted."""
    q, rem = divmod(uplinks, spines)
    count = np.full((leaves, spines), q, dtype=np.int64)
    if rem:
        s = np.arange(spines)
        count += ((s[None, :] - (np.arange(leaves)[:, None] * rem)) % spines) < rem
    return count


def spread(leaves: int, uplinks: int, spines: int, first_port: int) -> tuple[np.ndarray, ...]:
    """Leaf-to-spine wiring of one spine group.

    Returns (leaf, leaf_port, spine, spine_port) arrays, one row per link, ordered by leaf then
    spine. Each leaf has uplinks // spines links to every spine plus one more to
    uplinks % spines spines chosen cyclically (see the module docstring); leaf ports start at
    `first_port` and go spine by spine; spine ports count up in leaf order from 0.
    """
    count = spread_counts(leaves, uplinks, spines)
    s = np.arange(spines)
    lf = np.arange(leaves)
    flat = count.ravel()
    leaf_start = np.cumsum(count, axis=1) - count  # within the leaf, by spine
    spine_start = np.cumsum(count, axis=0) - count  # within the spine, by leaf
    total = int(flat.sum())
    pair_first = np.cumsum(flat) - flat
    t = np.arange(total, dtype=np.int64) - np.repeat(pair_first, flat)
    leaf = np.repeat(np.repeat(lf, spines), flat)
    spine = np.repeat(np.tile(s, leaves), flat)
    leaf_port = first_port + np.repeat(leaf_start.ravel(), flat) + t
    spine_port = np.repeat(spine_start.ravel(), flat) + t
    return leaf, leaf_port, spine, spine_port


def size_fabric(spec: DesignSpec, *, even: bool = True) -> Sizing:
    """Counts, growth limit, hops, oversubscription and bisection of the fabric `spec` asks for.

    Assumes spec.validate() passed; raises InfeasibleSpec naming the field to change. even=False
    takes the fewest spines instead (uneven, blocking wiring), only for the priced alternative.
    A rack-scale design is sized both ways, a leaf per rail of an SU and a leaf per tray slot shared by
    the SU's racks (module rules), and takes the one with fewer switches (per rail on a tie).
    """
    server, leaf = spec.server, spec.leaf
    rails, planes = spec.rails, spec.planes
    rpp = rails // planes
    gbps = spec.port_gbps
    if leaf.uplinks:  # an uplink group: access ports down, the group up (see uplink_split)
        d, u = uplink_split(leaf, gbps, spec.oversubscription)
    else:
        d, u = leaf_split(leaf.ports, spec.oversubscription, leaf.ports_per_cage)
    if d < 1:
        raise InfeasibleSpec({"oversubscription": [
            message("topology.no_downlinks", ports=leaf.ports, oversubscription=spec.oversubscription)]})
    if u < 1:
        raise InfeasibleSpec({"oversubscription": [
            message("topology.no_uplinks", ports=leaf.ports, oversubscription=spec.oversubscription)]})
    per_domain = spec.servers_per_domain
    per_rail_d, per_rail_u = d, u
    if 1 < per_domain <= d:  # a scale unit holds whole rack-scale domains (engine.scaleup)
        per_rail_d -= per_rail_d % per_domain
    if not leaf.uplinks:  # never more uplinks than the downlinks carry at o:1 (18 of 32 for an NVL72 rail)
        per_rail_u = min(u, carried_uplinks(per_rail_d, spec.oversubscription))
    try:
        best = _size(spec, even, per_rail_d, per_rail_u, 0)
    except InfeasibleSpec as refused:
        best, error = None, refused
    # Leaves shared by tray slot: K racks' rail ports of tray t on leaf t (K x r/p downlinks, whole cages).
    racks = d // rpp if per_domain > 1 and not leaf.uplinks else 0
    while racks > 1 and (racks * rpp) % leaf.ports_per_cage:
        racks -= 1
    if racks > 1:
        try:
            shared = _size(spec, even, racks * rpp, min(u, carried_uplinks(racks * rpp, spec.oversubscription)),
                           racks)
        except (InfeasibleSpec, NoEvenSpines):
            shared = None
        if shared is not None and (best is None or sum(shared.switches.values()) < sum(best.switches.values())):
            best = shared
    if best is None:
        raise error
    return best


def leaves_per_su(sz: Sizing) -> int:
    """Leaves of one scale unit in one plane: one per rail of the plane, or one per tray slot when shared."""
    return sz.leaf_slots or sz.rails_per_plane


def su_leaves(sz: Sizing) -> int:
    """Leaves of one scale unit, all planes (the rails with a leaf per rail)."""
    return sz.planes * leaves_per_su(sz)


def leaf_downlinks(sz: Sizing) -> int:
    """Downlinks of a leaf of a full scale unit: its servers (one per rail), or K x r/p (shared by tray slot)."""
    return sz.leaf_downlinks or sz.su_servers


def last_su_leaf_links(sz: Sizing) -> tuple[int, int]:
    """(downlinks, uplinks) of a leaf of the last scale unit: fewer than a full one's only when shared leaves'
    last SU is partly filled (its leaves cable what they carry)."""
    return (sz.leaf_downlinks_last_su or leaf_downlinks(sz), sz.leaf_uplinks_last_su or sz.leaf_uplinks)


def group_spines(full: int, uplinks: int, last: int, last_carried: int, ports: int, *, even: bool = True
                 ) -> tuple[int, int]:
    """(spines, uplinks of a last-SU leaf) of one spine group holding `full` leaves of `uplinks` uplinks and `last`
    leaves of a partly filled last SU that carry `last_carried` (shared leaves; module rules).

    Even: the smallest n >= ceil(all uplinks / ports) that divides every leaf's uplinks, so every leaf reaches
    every spine alike and no leaf cables more than it carries; NoEvenSpines when none does (the design then
    takes a leaf per rail). even=False: the fewest.
    """
    if not last:
        n = spine_count(full, uplinks, ports) if even else fewest_spines(full, uplinks, ports)
        return n, 0
    low = max(1, -(-(full * uplinks + last * last_carried) // ports))
    if not even:
        return low, last_carried
    common = math.gcd(uplinks, last_carried) if full else last_carried
    n = next((n for n in range(low, common + 1) if common % n == 0), 0)
    if not n:
        raise NoEvenSpines
    return n, last_carried


class NoEvenSpines(Exception):
    """No spine count divides both a full SU's shared leaves' uplinks and the partly filled last SU's."""


def _size(spec: DesignSpec, even: bool, d: int, u: int, racks: int) -> Sizing:
    """The fabric with leaves of d downlinks and u uplinks: one per rail of an SU of d servers (racks = 0), or one
    per tray slot of an SU of `racks` rack-scale domains, d = racks x r/p (module rules)."""
    count = spine_count if even else fewest_spines
    server, leaf, spine, core = spec.server, spec.leaf, spec.spine_hw, spec.core_hw
    rails, planes = spec.rails, spec.planes
    rpp = rails // planes
    servers = spec.servers
    gbps = spec.port_gbps
    slots = spec.servers_per_domain if racks else 0
    su_servers = racks * slots if racks else d
    per_su = slots or rpp  # leaves of an SU in one plane
    sus = -(-servers // su_servers)
    leaves_pp = sus * per_su
    # A partly filled last SU of shared leaves: its leaves carry the racks it has (its domains are whole).
    last_servers = servers - (sus - 1) * su_servers
    d_last = u_last = 0
    partial = racks and last_servers < su_servers
    if partial:
        d_last = -(-last_servers // slots) * rpp
        u_last = min(u, carried_uplinks(d_last, spec.oversubscription))
    last_leaves = per_su if partial else 0
    p_s, p_c = spine.ports, core.ports
    max2 = (p_s // per_su) * su_servers * server.gpus
    fits2 = leaves_pp <= p_s
    if spec.tiers == 2 and not fits2:
        raise InfeasibleSpec({"tiers": [
            message("topology.two_tiers_limit", spine_ports=p_s, max_gpus=max2, scale_units=p_s // per_su,
                    su_servers=su_servers, gpus=spec.gpus, leaves=leaves_pp)]})
    tiers = 2 if (spec.tiers == 2 or (spec.tiers == "auto" and fits2)) else 3

    sus_per_pod = pods = n_full = n_last = cores_pp = 0
    spine_up = up_last = 0
    if tiers == 2:
        spines_pp, u_last = group_spines(leaves_pp - last_leaves, u, last_leaves, u_last, p_s, even=even)
        spine_down = p_s
        max_gpus = max2
        leaf_links = (leaves_pp - last_leaves) * u + last_leaves * u_last
        links = {TIER_NAMES[0]: servers * rails, TIER_NAMES[1]: planes * leaf_links, TIER_NAMES[2]: 0}
    else:
        if p_s % 2:
            raise InfeasibleSpec({_field(spec, "spine", "ports"): [
                message("topology.spine_ports_odd", ports=p_s)]})
        half = p_s // 2
        if spine.ports_per_cage > 1 and half % spine.ports_per_cage:
            raise InfeasibleSpec({_field(spec, "spine", "ports"): [
                message("topology.spine_cage_halves", cages=spine.physical_cages)]})
        sus_per_pod = half // per_su
        if sus_per_pod < 1:
            raise InfeasibleSpec({_field(spec, "spine", "ports"): [
                message("topology.spine_half_too_small", ports=p_s, leaves=per_su)]})
        pods = -(-sus // sus_per_pod)
        max_gpus = p_c * sus_per_pod * su_servers * server.gpus
        if pods > p_c:
            raise InfeasibleSpec({"gpus": [
                message("topology.three_tiers_limit", max_gpus=max_gpus, pods=p_c, sus_per_pod=sus_per_pod,
                        su_servers=su_servers, gpus=spec.gpus, needed_pods=pods)]})
        lpod = sus_per_pod * per_su
        pod_last_leaves = leaves_pp - (pods - 1) * lpod
        n_full = count(lpod, u, half)
        n_last, u_last = group_spines(pod_last_leaves - last_leaves, u, last_leaves, u_last, half, even=even)
        spines_pp = (pods - 1) * n_full + n_last
        spine_down = half
        # A spine cables as many uplinks as it carries leaf links (1:1): all h = P_S/2 in a full pod wired
        # evenly, fewer in a partly filled last pod (or when the uneven count leaves a spine short).
        last_pod_links = (pod_last_leaves - last_leaves) * u + last_leaves * u_last
        up_last = -(-last_pod_links // n_last)
        spine_up = -(-lpod * u // n_full) if pods > 1 else up_last
        pod_up, last_up = n_full * spine_up, n_last * up_last
        cores_pp = core_count(pod_up, last_up, pods, p_c, even=even, spines=(n_full, n_last))
        leaf_links = (pods - 1) * lpod * u + last_pod_links
        links = {TIER_NAMES[0]: servers * rails, TIER_NAMES[1]: planes * leaf_links,
                 TIER_NAMES[2]: planes * ((pods - 1) * pod_up + last_up)}
    switches = {"leaf": planes * leaves_pp, "spine": planes * spines_pp, "core": planes * cores_pp}
    t0, t1, t2 = (links[name] for name in TIER_NAMES)
    free = {
        "leaf": switches["leaf"] * (leaf.ports + leaf.uplinks) - t0 - t1,
        "spine": switches["spine"] * p_s - t1 - t2,
        "core": switches["core"] * p_c - t2,
    }
    up_gbps = leaf.uplink_gbps if leaf.uplinks else gbps
    over = {"leaf": round(d * gbps / (u * up_gbps), 3)}
    if tiers == 3:
        over["spine"] = round(spine_down / spine_up, 3)
    thinnest = min(t0, t1, t2) if tiers == 3 else min(t0, t1)
    return Sizing(
        tiers=tiers, planes=planes, rails=rails, rails_per_plane=rpp, servers=servers, gpus=spec.gpus,
        gpus_per_server=server.gpus, su_servers=su_servers, leaf_uplinks=u, scale_units=sus,
        leaves_per_plane=leaves_pp, spines_per_plane=spines_pp, cores_per_plane=cores_pp, sus_per_pod=sus_per_pod,
        pods=pods, spines_per_pod=n_full if tiers == 3 else 0, spines_last_pod=n_last, spine_downlinks=spine_down,
        spine_uplinks=spine_up, spine_uplinks_last_pod=up_last, switches=switches, links_by_tier=links,
        max_gpus=max_gpus, max_hops=3 if tiers == 2 else 5, oversubscription=over,
        bisection_gbps=(min(t0 * gbps, (t1 if tiers == 2 else min(t1, t2)) * up_gbps) if leaf.uplinks
                        else thinnest * gbps) / 2,
        free_ports=free, currency=spec.currency, leaf_uplink_port=leaf.ports if leaf.uplinks else 0,
        leaf_slots=slots, leaf_downlinks=d if racks else 0, leaf_downlinks_last_su=d_last,
        leaf_uplinks_last_su=u_last if partial else 0,
    )


def _field(spec: DesignSpec, role: str, attr: str) -> str:
    """The spec field a switch problem belongs to: the tier's own model, or the one it defaults to."""
    if role == "core" and spec.core is None:
        role = "spine"
    if role == "spine" and spec.spine is None:
        role = "leaf"
    return f"{role}.{attr}"


@dataclass(slots=True)
class Layout:
    """Where each role's devices start in the device list, and the per-device grouping arrays."""

    leaf_base: int
    spine_base: int
    core_base: int
    count: int
    # per device (int32, -1 where not applicable)
    plane: np.ndarray
    pod: np.ndarray
    su: np.ndarray
    rail: np.ndarray
    group: np.ndarray
    local: np.ndarray  # index within its role and plane (servers: server index)


def device_layout(sz: Sizing) -> Layout:
    """Grouping of every device: plane, pod, SU, rail, spine/core group, index within the plane."""
    planes, rpp = sz.planes, sz.rails_per_plane
    leaf_base = sz.servers
    spine_base = leaf_base + planes * sz.leaves_per_plane
    core_base = spine_base + planes * sz.spines_per_plane
    count = core_base + planes * sz.cores_per_plane
    plane = np.full(count, -1, dtype=np.int32)
    pod = np.full(count, -1, dtype=np.int32)
    su = np.full(count, -1, dtype=np.int32)
    rail = np.full(count, -1, dtype=np.int32)
    group = np.full(count, -1, dtype=np.int32)
    local = np.zeros(count, dtype=np.int32)
    d = sz.su_servers
    per_su = leaves_per_su(sz)
    local[:leaf_base] = np.arange(sz.servers)
    su[:leaf_base] = np.arange(sz.servers) // d
    # leaves: (plane, su, rail-in-plane), or (plane, su, tray slot) when shared
    k = np.arange(sz.leaves_per_plane)
    lsl = slice(leaf_base, spine_base)
    plane[lsl] = np.repeat(np.arange(planes), sz.leaves_per_plane)
    su[lsl] = np.tile(k // per_su, planes)
    if sz.leaf_slots:  # a shared leaf carries every rail of its plane: one rail only with one rail per plane
        rail[lsl] = plane[lsl] if rpp == 1 else -1
    else:
        rail[lsl] = plane[lsl] * rpp + np.tile(k % rpp, planes)
    local[lsl] = np.tile(k, planes)
    if sz.tiers == 3:
        pod[lsl] = su[lsl] // sz.sus_per_pod
        pod[:leaf_base] = su[:leaf_base] // sz.sus_per_pod
    # spines: (plane, pod, index)
    ssl = slice(spine_base, core_base)
    k = np.arange(sz.spines_per_plane)
    plane[ssl] = np.repeat(np.arange(planes), sz.spines_per_plane)
    local[ssl] = np.tile(k, planes)
    if sz.tiers == 3:
        spine_pod = np.minimum(k // sz.spines_per_pod, sz.pods - 1)
        pod[ssl] = np.tile(spine_pod, planes)
        group[ssl] = pod[ssl]
        csl = slice(core_base, count)
        k = np.arange(sz.cores_per_plane)
        plane[csl] = np.repeat(np.arange(planes), sz.cores_per_plane)
        local[csl] = np.tile(k, planes)
        group[csl] = 0
    else:
        group[ssl] = 0
    if rpp == 1:
        rail[ssl] = plane[ssl]
        rail[core_base:count] = plane[core_base:count]
    return Layout(leaf_base, spine_base, core_base, count, plane, pod, su, rail, group, local)


def build_links(sz: Sizing, lay: Layout) -> LinkTable:
    """Every link of the fabric, port to port, as a columnar LinkTable (length, medium, subnet zeroed)."""
    planes, rpp, rails = sz.planes, sz.rails_per_plane, sz.rails
    d, u = sz.su_servers, sz.leaf_uplinks
    lpp = sz.leaves_per_plane
    up0 = sz.leaf_uplink_port or leaf_downlinks(sz)  # the leaf's first uplink port

    # Tier 0: server-leaf links (server_leaf_ends), server-major.
    s = np.arange(sz.servers, dtype=np.int64)
    i = np.arange(rails, dtype=np.int64)
    t0_b_dev, t0_b_port = (x.ravel() for x in server_leaf_ends(sz, lay, s[:, None], i[None, :]))
    t0_a_dev = np.repeat(s, rails)
    t0_a_port = np.tile(i, sz.servers)
    t0_plane = np.tile(i // rpp, sz.servers)
    t0_rail = t0_a_port

    # Tier 1: one plane's wiring (a spread pattern per spine group), then the same for every plane.
    if sz.tiers == 2:
        leaf, leaf_port, spine, spine_port = leaf_spine_group(sz, 0, lpp, sz.spines_per_plane, up0)
    else:
        lpod = sz.sus_per_pod * leaves_per_su(sz)
        groups = []
        if sz.pods > 1:  # full pods share one pattern, offset pod by pod
            f_leaf, f_leaf_port, f_spine, f_spine_port = spread(lpod, u, sz.spines_per_pod, up0)
            pod = np.arange(sz.pods - 1, dtype=np.int64)[:, None]
            groups.append(((f_leaf + pod * lpod).ravel(), np.tile(f_leaf_port, sz.pods - 1),
                           (f_spine + pod * sz.spines_per_pod).ravel(), np.tile(f_spine_port, sz.pods - 1)))
        last = sz.pods - 1
        l_leaf, l_leaf_port, l_spine, l_spine_port = leaf_spine_group(sz, last * lpod, lpp - last * lpod,
                                                                      sz.spines_last_pod, up0)
        groups.append((l_leaf + last * lpod, l_leaf_port, l_spine + last * sz.spines_per_pod, l_spine_port))
        leaf, leaf_port, spine, spine_port = (np.concatenate(column) for column in zip(*groups))
    n = leaf.shape[0]
    plane_ix = np.arange(planes, dtype=np.int64)
    t1_a_dev = (lay.leaf_base + plane_ix[:, None] * lpp + leaf[None, :]).ravel()
    t1_b_dev = (lay.spine_base + plane_ix[:, None] * sz.spines_per_plane + spine[None, :]).ravel()
    t1_a_port = np.tile(leaf_port, planes)
    t1_b_port = np.tile(spine_port, planes)
    t1_plane = np.repeat(plane_ix, n)
    t1_rail = (t1_plane * rpp + np.tile(leaf % rpp, planes)) if not sz.leaf_slots else (
        t1_plane if rpp == 1 else np.full(t1_plane.shape[0], -1, np.int64))

    columns = [
        (t0_a_dev, t0_a_port, t0_b_dev, t0_b_port, np.zeros(t0_a_dev.shape[0], np.int8), t0_plane, t0_rail),
        (t1_a_dev, t1_a_port, t1_b_dev, t1_b_port, np.ones(t1_a_dev.shape[0], np.int8), t1_plane, t1_rail),
    ]

    # Tier 2: the uplink slot rule (core_slots).
    if sz.tiers == 3:
        c = sz.cores_per_plane
        spine_ix, k, core, core_port = core_slots(sz)
        plane_ix = np.arange(planes, dtype=np.int64)
        t2_a_dev = (lay.spine_base + plane_ix[:, None] * sz.spines_per_plane + spine_ix[None, :]).ravel()
        t2_a_port = np.tile(sz.spine_downlinks + k, planes)
        t2_b_dev = (lay.core_base + plane_ix[:, None] * c + core[None, :]).ravel()
        t2_b_port = np.tile(core_port, planes)
        t2_plane = np.repeat(plane_ix, spine_ix.shape[0])
        t2_rail = t2_plane if rpp == 1 else np.full(t2_plane.shape[0], -1, np.int64)
        columns.append((t2_a_dev, t2_a_port, t2_b_dev, t2_b_port, np.full(t2_a_dev.shape[0], 2, np.int8),
                        t2_plane, t2_rail))

    a_dev, a_port, b_dev, b_port, tier, plane, rail = (np.concatenate(col) for col in zip(*columns))
    n = a_dev.shape[0]
    return LinkTable(
        a_dev=a_dev.astype(np.int32), a_port=a_port.astype(np.int32), b_dev=b_dev.astype(np.int32),
        b_port=b_port.astype(np.int32), tier=tier.astype(np.int8), plane=plane.astype(np.int16),
        rail=rail.astype(np.int16), length_m=np.zeros(n, np.float32), medium=np.full(n, -1, np.int16),
        subnet=np.zeros(n, np.uint32),
    )


def server_leaf_ends(sz: Sizing, lay: Layout, s: np.ndarray, i: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(leaf device, leaf port) of NIC port i of server s (arrays broadcast).

    One leaf per rail: leaf (plane i // rpp, SU s // d, rail i), leaf port s mod d. Shared by tray slot: leaf
    (plane i // rpp, SU s // (K x D), slot s mod D), leaf port (rack of s in its SU) x r/p + i mod r/p.
    """
    rpp, d, lpp = sz.rails_per_plane, sz.su_servers, sz.leaves_per_plane
    if sz.leaf_slots:
        slots = sz.leaf_slots
        leaf = lay.leaf_base + (i // rpp) * lpp + (s // d) * slots + s % slots
        return leaf, ((s % d) // slots) * rpp + i % rpp
    leaf = lay.leaf_base + (s // d) * rpp + (i // rpp) * lpp + (i % rpp)
    return leaf, s % d + 0 * i


def leaf_spine_group(sz: Sizing, first: int, leaves: int, spines: int, first_port: int) -> tuple[np.ndarray, ...]:
    """`spread` over one spine group of `leaves` leaves from plane-local leaf `first`: the last SU's shared leaves
    (the group's last ones) with their own uplinks, their spine ports after the full leaves'."""
    u = sz.leaf_uplinks
    _, u_last = last_su_leaf_links(sz)
    last = leaves_per_su(sz) if (sz.leaf_uplinks_last_su and first + leaves == sz.leaves_per_plane) else 0
    full = leaves - last
    if not last or u_last == u:
        return spread(leaves, u, spines, first_port)
    parts = []
    if full:
        parts.append(spread(full, u, spines, first_port))
    leaf, leaf_port, spine, spine_port = spread(last, u_last, spines, first_port)
    offset = np.bincount(parts[0][2], minlength=spines) if full else np.zeros(spines, np.int64)
    parts.append((leaf + full, leaf_port, spine, spine_port + offset[spine]))
    return tuple(np.concatenate(column) for column in zip(*parts))


def group_counts(sz: Sizing, first: int, leaves: int, spines: int) -> np.ndarray:
    """Links of each leaf of a spine group to each of its spines, (leaves, spines): leaf_spine_group, counted."""
    _, u_last = last_su_leaf_links(sz)
    last = leaves_per_su(sz) if (sz.leaf_uplinks_last_su and first + leaves == sz.leaves_per_plane) else 0
    if not last:
        return spread_counts(leaves, sz.leaf_uplinks, spines)
    return np.concatenate([spread_counts(leaves - last, sz.leaf_uplinks, spines), spread_counts(last, u_last, spines)])


def core_slots(sz: Sizing) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One plane's spine-core links: (spine in the plane, its uplink k, core, core port), spine by spine.

    Uplink k of spine i of a pod that has n spines of h uplinks each is the pod's slot k * n + i; the pod's
    slots follow those of the pods before it, so slot j of the plane goes to core j mod C on core port j div C.
    With C dividing a full pod's uplinks (engine.topology.core_count) every core gets the same number of
    every full pod's slots, and spine i of a pod reaches C / gcd(n, C) cores with the same number of links each.
    A partly filled last pod whose uplinks the cores don't divide is wired in bundles (last_pod_bundles, module rules).
    """
    n_full, n_last = sz.spines_per_pod, sz.spines_last_pod
    h_full, h_last = sz.spine_uplinks, sz.spine_uplinks_last_pod or sz.spine_uplinks
    full_pods = sz.pods - 1
    spine_ix = np.arange(sz.spines_per_plane, dtype=np.int64)
    pod = np.minimum(spine_ix // max(1, n_full), full_pods) if full_pods else np.zeros_like(spine_ix)
    last = pod == full_pods
    h = np.where(last, h_last, h_full)
    n = np.where(last, n_last, n_full)
    spine = np.repeat(spine_ix, h)
    first_slot = np.cumsum(h) - h  # a spine's first uplink among all uplinks of the plane
    k = np.arange(spine.shape[0], dtype=np.int64) - np.repeat(first_slot, h)
    p = np.repeat(pod, h)
    i = spine - p * n_full
    c = sz.cores_per_plane
    j = p * n_full * h_full + k * np.repeat(n, h) + i
    partial = full_pods and (n_last, h_last) != (n_full, h_full)
    core_port = j // c
    j = j % c
    if partial and (n_last * h_last) % c and (n_full * h_full) % c == 0:
        # A last pod whose uplinks the cores don't divide: bundles (last_pod_bundles), so every spine reaches its
        # cores alike and every core it reaches takes the same number of links from the pod.
        q = n_full * h_full // c
        classes = math.gcd(n_full, c)
        free = core_ports(sz) - full_pods * q
        choice = last_pod_bundles(n_last, h_last, c, classes, q, free)
        if choice is None:  # no share alike per class: cores 0 .. K-1, as many of each class as can be
            classes = 1
            choice = last_pod_bundles(n_last, h_last, c, classes, q, free)
        last_slots = p == full_pods
        if choice is not None:
            r, t = choice
            size = h_last // r
            x = i * r + k // size  # the bundle, numbered spine by spine
            y = x // classes  # its place among its class's bundles
            reached = n_last * r // classes // t
            core = x % classes + classes * (y % reached)
            port = full_pods * q + (y // reached) * size + k % size
            j = np.where(last_slots, core, j)
            core_port = np.where(last_slots, port, core_port)
        elif h_last <= c or h_last % c == 0:
            # No even bundles with these cores (core_count found none): spine by spine, each spine still reaching
            # its cores alike, some cores one link more than others (engine.wiring measures it).
            slot = full_pods * n_full * h_full + i * h_last + k
            j = np.where(last_slots, slot % c, j)
            core_port = np.where(last_slots, slot // c, core_port)
    return spine, k, j, core_port


def core_ports(sz: Sizing) -> int:
    """A core's ports P_C, from the sizing's free core ports and spine-core links."""
    cores = sz.switches.get("core", 0)
    return (sz.free_ports["core"] + sz.links_by_tier[TIER_NAMES[2]]) // cores if cores else 0
