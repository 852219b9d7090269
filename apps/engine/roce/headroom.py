"""PFC headroom: the buffer a lossless ingress queue needs above its XOFF point.

When a queue crosses XOFF the switch sends a PFC pause, but data keeps arriving until the
pause has reached the peer and the peer has stopped. The bytes in flight are (IEEE 802.1Qbb
Annex N, as switch vendors apply it):

    headroom = rate * (2 * L * t_prop + 2 * t_interface + t_response)
             + MTU_local + MTU_peer + PFC frame

- 2 * L * t_prop: the pause travels the cable (L metres, ~5 ns/m) and the last data sent
  before it arrived travels back;
- 2 * t_interface: PHY/MAC/FEC latency of both link ends, once each way;
- t_response: the peer parsing the pause and stopping its transmit queue;
- MTU_local: the pause waits for the frame this port is sending to finish;
  MTU_peer: the peer finishes the frame it had started. Both are whole Ethernet frames: the
  configured MTUs are IP MTUs (SONiC's PORT mtu, like a Linux netdev's; orchagent programs
  mtu + header + FCS into the ASIC), so a frame is MTU + 18 bytes (ETH_OVERHEAD) on either end;
- the PFC frame itself (64 bytes).

`rate` is the port line rate in bytes per ns (Gbps / 8). The result is rounded up to whole
buffer cells. XON (resume point) is set two frames below XOFF, SONiC's usual hysteresis.
Each tier of links is one class; its profile is sized for the longest cable of the tier, so
every port of the class has enough.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..model import TIER_NAMES, Plan
from ..spec import DesignSpec
from .settings import BufferSettings, RoceSettings

ETH_OVERHEAD = 18  # Ethernet header + FCS around an IP MTU: frame length = MTU + 18, switches and NICs alike


def tier_gbps(spec: DesignSpec, tier: int) -> int:
    """Line rate of a link of `tier`: the slower of its two ends."""
    leaf = spec.leaf
    spine = spec.spine or leaf
    core = spec.core or spine
    if tier == 0:
        return min(spec.port_gbps, leaf.gbps)
    if tier == 1:
        return min(leaf.gbps, spine.gbps)
    return min(spine.gbps, core.gbps)


def cells(nbytes: float, cell_bytes: int) -> int:
    """Round up to whole buffer cells, in bytes."""
    return int(math.ceil(nbytes / cell_bytes)) * cell_bytes


def headroom_bytes(*, length_m: float, gbps: float, mtu_local: int, mtu_peer: int | None = None,
                   buffer: BufferSettings | None = None) -> int:
    """Headroom (bytes, whole cells) a lossless queue needs on a port of `gbps` with a `length_m` cable.

    `mtu_local` / `mtu_peer` are the largest frames (bytes on the wire) each end sends: IP MTU + ETH_OVERHEAD.
    """
    buffer = buffer or BufferSettings()
    mtu_peer = mtu_local if mtu_peer is None else mtu_peer
    delay_ns = 2 * length_m * buffer.propagation_ns_per_m + 2 * buffer.interface_delay_ns + buffer.pfc_response_ns
    in_flight = gbps / 8 * delay_ns
    return cells(in_flight + mtu_local + mtu_peer + buffer.pfc_frame_bytes, buffer.cell_bytes)


@dataclass(frozen=True, slots=True)
class LinkClass:
    """One tier of links as the buffer configuration sees it."""

    tier: int
    name: str  # "server-leaf", "leaf-spine", "spine-core"
    gbps: int
    links: int
    longest_m: float
    cable_m: int  # longest_m rounded up to whole metres, the CABLE_LENGTH value

    @property
    def profile(self) -> str:
        """SONiC lossless PG profile name: pg_lossless_<speed Mbps>_<cable>m_profile."""
        return f"pg_lossless_{self.gbps * 1000}_{self.cable_m}m_profile"


def link_classes(plan: Plan) -> list[LinkClass]:
    """Link classes present in the plan, lower tier first."""
    out = []
    tiers = plan.links.tier
    for tier in range(len(TIER_NAMES)):
        mask = tiers == tier
        count = int(np.count_nonzero(mask))
        if not count:
            continue
        longest = float(plan.links.length_m[mask].max())
        out.append(LinkClass(tier=tier, name=TIER_NAMES[tier], gbps=tier_gbps(plan.spec, tier), links=count,
                             longest_m=longest, cable_m=max(1, int(math.ceil(longest - 1e-6)))))
    return out


# Which link classes a switch class terminates: (tier, this class is the a end?)
CLASS_PORTS: dict[str, tuple[tuple[int, bool], ...]] = {
    "leaf": ((0, False), (1, True)),
    "spine": ((1, False), (2, True)),
    "core": ((2, False),),
}


@dataclass(frozen=True, slots=True)
class PortHeadroom:
    """Headroom of the lossless PG on one switch class's ports of one link class."""

    device_class: str
    link_class: LinkClass
    needed: int  # bytes, for the longest cable of the class
    configured: int  # bytes: the override, or `needed` when computed
    xon: int
    overridden: bool

    @property
    def xoff(self) -> int:
        return self.configured

    @property
    def size(self) -> int:
        return self.xon + self.configured

    @property
    def profile(self) -> str:
        if self.overridden:
            return f"pg_lossless_{self.link_class.gbps * 1000}_{self.link_class.cable_m}m_{self.device_class}_profile"
        return self.link_class.profile


def port_headroom(plan: Plan, settings: RoceSettings, device_class: str,
                  classes: list[LinkClass] | None = None) -> list[PortHeadroom]:
    """Headroom per link class on the ports of one switch class."""
    classes = link_classes(plan) if classes is None else classes
    by_tier = {c.tier: c for c in classes}
    own = settings.for_class(device_class)
    out = []
    for tier, is_a_end in CLASS_PORTS[device_class]:
        lc = by_tier.get(tier)
        if lc is None:
            continue
        peer_class = _peer_class(device_class, tier, is_a_end)
        peer = settings.for_class(peer_class)
        # Largest frames on the wire; never below the design's switch MTU (a conservative floor).
        frame_local = max(own.mtu, settings.mtu) + ETH_OVERHEAD
        frame_peer = max(peer.mtu, settings.mtu) + ETH_OVERHEAD
        needed = headroom_bytes(length_m=lc.longest_m, gbps=lc.gbps, mtu_local=frame_local, mtu_peer=frame_peer,
                                buffer=settings.buffer)
        overridden = own.headroom_kb is not None
        configured = own.headroom_kb * 1024 if overridden else needed
        xon = cells(2 * frame_local, settings.buffer.cell_bytes)
        out.append(PortHeadroom(device_class=device_class, link_class=lc, needed=needed, configured=configured,
                                xon=xon, overridden=overridden))
    return out


def _peer_class(device_class: str, tier: int, is_a_end: bool) -> str:
    roles = ("nic", "leaf", "spine", "core")
    return roles[tier] if not is_a_end else roles[tier + 1]
