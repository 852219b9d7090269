"""The routing intent of one switch, from the plan's address and ASN plan (engine.addressing).

One switch, whatever operating system renders it (SONiC config_db, NVIDIA Cumulus NVUE, Arista EOS):
- hostname = the device name; BGP ASN = Device.asn (RFC 7938 eBGP: every leaf its own ASN, the
  spines of a group one ASN, the cores of a plane one ASN); router id = its loopback.
- Loopback0 = the loopback /32; every cabled port is a routed port with its /31 of the link
  (LinkTable.subnet): the leaf end of a server link holds the even address (the NIC the odd one);
  on a switch-to-switch link the lower-tier (a) end holds the even address, the upper end the odd.
- One eBGP session per switch-to-switch link, to the far end's /31 address and ASN; servers run no
  BGP: the leaf advertises their /31s with its loopback by redistributing connected routes.
- Multipath: eBGP multipath with "as-path multipath-relax" (RFC 7938 section 6.1: the paths to a
  prefix come from different ASNs of the same tier), and maximum paths = the most BGP sessions
  that can offer the same prefix: the switch's uplinks (every higher-tier neighbour offers every
  remote prefix), or the links to one lower-tier ASN (a leaf, or a spine group) when that is more;
  at least 2 and at most 256 (SONiC BGP_GLOBALS_AF.max_ebgp_paths range 1..256).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model import Plan

MAX_PATHS_LIMIT = 256
ROLE_TIER = {"server": 0, "leaf": 1, "spine": 2, "core": 3}


def dotted(value: int) -> str:
    value = int(value)
    return f"{value >> 24 & 255}.{value >> 16 & 255}.{value >> 8 & 255}.{value & 255}"


@dataclass(frozen=True, slots=True)
class RoutedPort:
    port: int  # logical port index on the switch
    name: str  # SONiC port name (Ethernet<first lane>)
    address: str  # this end's address, dotted
    peer_address: str
    peer_device: str
    peer_port: str
    peer_role: str
    peer_asn: int  # 0 for a server (no BGP session)
    gbps: int


@dataclass(frozen=True, slots=True)
class SwitchRouting:
    name: str
    role: str
    asn: int
    loopback: str  # dotted, without prefix length
    ports: tuple[RoutedPort, ...]
    max_paths: int

    @property
    def neighbors(self) -> tuple[RoutedPort, ...]:
        """Ports with an eBGP session (switch-to-switch links)."""
        return tuple(p for p in self.ports if p.peer_asn)


def switch_routing(plan: Plan, device: int, ends: tuple[np.ndarray, np.ndarray, np.ndarray],
                   port_names: np.ndarray, gbps_of_tier: dict[int, int]) -> SwitchRouting:
    """The routing intent of switch `device`; `ends` = (ports, links, sides) of its link ends, port order."""
    d = plan.devices[device]
    links = plan.links
    role_code = ROLE_TIER[d.role]
    ports, link_ids, sides = ends
    routed: list[RoutedPort] = []
    uplinks = 0
    per_lower_asn: dict[int, int] = {}
    for port, link, side in zip(ports.tolist(), link_ids.tolist(), sides.tolist()):
        subnet = int(links.subnet[link])
        tier = int(links.tier[link])
        if side == 0:  # this switch is the lower (a) end of a switch-to-switch link
            local, far = subnet, subnet + 1
            peer = plan.devices[int(links.b_dev[link])]
            peer_port_index = int(links.b_port[link])
        else:
            peer = plan.devices[int(links.a_dev[link])]
            peer_port_index = int(links.a_port[link])
            if tier == 0:  # server link: the leaf holds the even address
                local, far = subnet, subnet + 1
            else:
                local, far = subnet + 1, subnet
        peer_asn = int(peer.asn) if peer.role != "server" else 0
        if peer_asn:
            if ROLE_TIER[peer.role] > role_code:
                uplinks += 1
            else:
                per_lower_asn[peer_asn] = per_lower_asn.get(peer_asn, 0) + 1
        routed.append(RoutedPort(
            port=port, name=str(port_names[role_code, port]), address=dotted(local), peer_address=dotted(far),
            peer_device=peer.name, peer_port=str(port_names[ROLE_TIER[peer.role], peer_port_index]),
            peer_role=peer.role, peer_asn=peer_asn, gbps=gbps_of_tier.get(tier, 0)))
    widest = max([uplinks, *per_lower_asn.values()], default=0)
    return SwitchRouting(name=d.name, role=d.role, asn=int(d.asn), loopback=dotted(d.loopback), ports=tuple(routed),
                         max_paths=min(MAX_PATHS_LIMIT, max(2, widest)))
