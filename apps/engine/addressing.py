"""IPv4 addresses and the eBGP ASN plan, from the spec's pools.

- host pool: one /31 per NIC port (server-leaf link), in link order; the leaf holds the even
  address, the NIC the odd one (LinkTable.subnet + 1).
- p2p pool: one /31 per switch-to-switch link (leaf-spine, then spine-core), in link order; the
  lower-tier (a) end holds the even address, the upper end the odd one.
- loopback pool: one /32 per switch in device order (leaves, spines, cores).
- ASNs (RFC 7938 style), from asn_base, plane by plane: 2 tiers [spines of the plane, then one
  per leaf]; 3 tiers [cores of the plane, one per pod's spine group, then one per leaf]. So a
  leaf's ASN is unique, the spines of a group share one, the cores of a plane share one.
- The ASN range may hold no reserved ASN (RESERVED_ASNS: AS_TRANS 23456, the documentation blocks
  64496-64511 and 65536-65551, 65535 and the IANA-reserved 65552-131071), so a range started in the
  2-byte private block 64512-65534 must end inside it; otherwise InfeasibleSpec on pools.asn_base
  names the first reserved ASN and suggests the private 4-byte range (RFC 6996) at 4,200,000,000.
- InfiniBand (spec.fabric == "infiniband"): the subnet manager (OpenSM or UFM) assigns LIDs and
  routes, so no p2p /31s, loopbacks or ASNs are planned (switches keep loopback 0 and asn 0, links
  above tier 0 keep subnet 0) and only the host pool is checked. What a user still needs from the
  plan is each host port's IPoIB address (NCCL bootstrap, storage, ssh over the backend): every
  NIC port gets one address, host pool first address + 1 + link index, and LinkTable.subnet of a
  server-leaf link holds that address itself (not a /31). The host pool is one IPoIB subnet, so
  its network address (the first) and broadcast address (the last) are never a host's: the pool
  must hold ports + 2 addresses (a /31 or /32 pool has neither, RFC 3021, and holds ports).
- Every other pool hands out /31s (both addresses usable, RFC 3021) and /32 loopbacks, so no
  address is ever a network or broadcast address of its subnet.
- Pools may not overlap (DesignSpec.validate); a pool too small is InfeasibleSpec on that pool
  with what is needed and what it holds. Addresses are uint32 arithmetic, no per-link objects.
"""
from __future__ import annotations

import ipaddress
import math

import numpy as np

from .messages import Message, message
from .model import TIER_NAMES, Device, LinkTable, Sizing
from .spec import MAX_ASN, DesignSpec, InfeasibleSpec, parse_cidr
from .topology import Layout


# ASNs no BGP speaker may be given (RFC 6793, RFC 5398, RFC 7300, IANA), as inclusive ranges.
RESERVED_ASNS = ((0, 0), (23_456, 23_456), (64_496, 64_511), (65_535, 131_071), (4_294_967_295, 4_294_967_295))
PRIVATE_4_BYTE_ASN = 4_200_000_000


def first_reserved_asn(first: int, last: int) -> int | None:
    """The lowest reserved ASN in first..last, or None."""
    hits = [max(first, lo) for lo, hi in RESERVED_ASNS if lo <= last and first <= hi]
    return min(hits) if hits else None


def _dotted(value: int) -> str:
    return str(ipaddress.IPv4Address(int(value)))


def _prefix_for(addresses: int) -> int:
    return 32 - max(0, math.ceil(math.log2(max(1, addresses))))


def pool_needs(sz: Sizing, spec: DesignSpec) -> dict[str, int]:
    """Addresses each pool must hold for this fabric (only the host pool on InfiniBand)."""
    t0, t1, t2 = (sz.links_by_tier[name] for name in TIER_NAMES)
    if spec.infiniband:
        return {"host": t0 + ipoib_reserved(spec.pools.host)}
    return {"host": 2 * t0, "p2p": 2 * (t1 + t2), "loopback": sum(sz.switches.values())}


def ipoib_reserved(cidr: str) -> int:
    """Addresses of an IPoIB host subnet no host may take: network and broadcast (none in a /31 or /32)."""
    try:
        _first, size = parse_cidr(cidr)
    except ValueError:  # an invalid pool is reported by DesignSpec.validate
        return 2
    return 0 if size <= 2 else 2


def ipoib_first_host(cidr: str) -> int:
    first, size = parse_cidr(cidr)
    return first if size <= 2 else first + 1


def asn_layout(sz: Sizing) -> tuple[int, int]:
    """(ASNs per plane, leaf offset within the plane's block)."""
    groups = 1 if sz.tiers == 2 else 1 + sz.pods
    return groups + sz.leaves_per_plane, groups


def check_pools(spec: DesignSpec, sz: Sizing) -> dict[str, dict]:
    """Raise InfeasibleSpec for every pool too small; return the pool usage report."""
    errors: dict[str, list[Message]] = {}
    report: dict[str, dict] = {}
    for name, needed in pool_needs(sz, spec).items():
        cidr = getattr(spec.pools, name)
        first, size = parse_cidr(cidr)
        what = "ipoib_host" if spec.infiniband else name
        if needed > size:
            errors.setdefault(f"pools.{name}", []).append(message(
                "addressing.pool_too_small", needed=needed, what=message(f"addressing.what_{what}"), cidr=cidr,
                size=size, prefix=_prefix_for(needed)))
        if spec.infiniband:  # hosts only: the pool's network and broadcast addresses are not used
            hosts = needed - ipoib_reserved(cidr)
            start = ipoib_first_host(cidr)
            report[name] = {"cidr": cidr, "size": size, "used": hosts, "first": _dotted(start),
                            "last": _dotted(start + hosts - 1) if hosts else None}
            continue
        report[name] = {"cidr": cidr, "size": size, "used": needed, "first": _dotted(first),
                        "last": _dotted(first + needed - 1) if needed else None}
    if spec.infiniband:
        if errors:
            raise InfeasibleSpec(errors)
        return report
    per_plane, _ = asn_layout(sz)
    count = per_plane * sz.planes
    last = spec.pools.asn_base + count - 1
    if last > MAX_ASN:
        errors.setdefault("pools.asn_base", []).append(message(
            "addressing.asn_range", count=count, asn_base=spec.pools.asn_base, max_asn=MAX_ASN,
            start=MAX_ASN - count + 1))
    else:
        reserved = first_reserved_asn(spec.pools.asn_base, last)
        if reserved is not None:
            errors.setdefault("pools.asn_base", []).append(message(
                "addressing.asn_reserved", count=count, asn_base=spec.pools.asn_base, last=last, reserved=reserved,
                start=PRIVATE_4_BYTE_ASN))
    report["asn"] = {"first": spec.pools.asn_base, "last": last, "used": count}
    if errors:
        raise InfeasibleSpec(errors)
    return report


def assign(spec: DesignSpec, sz: Sizing, lay: Layout, links: LinkTable, devices: list[Device]) -> dict[str, dict]:
    """Fill links.subnet and each switch's asn and loopback; return the pool usage report."""
    report = check_pools(spec, sz)
    host, _ = parse_cidr(spec.pools.host)
    if spec.infiniband:
        n0 = sz.links_by_tier["server-leaf"]
        links.subnet[:] = 0
        links.subnet[:n0] = np.uint32(ipoib_first_host(spec.pools.host)) + np.arange(n0, dtype=np.uint32)
        return report
    p2p, _ = parse_cidr(spec.pools.p2p)
    loop, _ = parse_cidr(spec.pools.loopback)
    n0 = sz.links_by_tier["server-leaf"]
    n = len(links)
    links.subnet[:n0] = np.uint32(host) + np.arange(n0, dtype=np.uint32) * np.uint32(2)
    links.subnet[n0:] = np.uint32(p2p) + np.arange(n - n0, dtype=np.uint32) * np.uint32(2)

    per_plane, leaf_offset = asn_layout(sz)
    asn = np.zeros(lay.count, dtype=np.int64)
    plane_base = spec.pools.asn_base + lay.plane.astype(np.int64) * per_plane
    leaves = slice(lay.leaf_base, lay.spine_base)
    asn[leaves] = plane_base[leaves] + leaf_offset + lay.local[leaves]
    spines = slice(lay.spine_base, lay.core_base)
    if sz.tiers == 2:
        asn[spines] = plane_base[spines]
    else:
        asn[spines] = plane_base[spines] + 1 + lay.pod[spines]
        cores = slice(lay.core_base, lay.count)
        asn[cores] = plane_base[cores]
    loopback = np.zeros(lay.count, dtype=np.int64)
    loopback[lay.leaf_base:] = loop + np.arange(lay.count - lay.leaf_base)
    for device, a, lb in zip(devices[lay.leaf_base:], asn[lay.leaf_base:].tolist(),
                             loopback[lay.leaf_base:].tolist()):
        device.asn = a
        device.loopback = lb
    return report
