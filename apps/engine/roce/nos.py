"""The switch's intent (routing + RoCE lossless) for its vendor's own network operating system.

Which NOS: the switch model's vendor (SwitchHw.vendor): NVIDIA -> Cumulus Linux NVUE commands
("<name>.nvue.sh"), Arista -> EOS configuration ("<name>.eos.cfg"); any other vendor gets the
SONiC config_db only (nos_for_vendor returns None).

Same intent as the SONiC file (engine.roce.routing): hostname, Loopback0 /32, a /31 per cabled
port, one eBGP session per switch-to-switch link with the plan's ASNs (RFC 7938), multipath relax
and maximum paths, connected routes redistributed; MTU per class, PFC on the lossless priority,
DSCP trust and ECN.

Port names are the NOS's own, from the logical port (cage = port // ports_per_cage, lane =
port % ports_per_cage): Cumulus "swp<cage+1>" (split: "swp<cage+1>s<lane>"), EOS
"Ethernet<cage+1>/<lane * lanes_per_port + 1>"; each port's description names the SONiC name so
cable labels (which use SONiC names) map onto it.

Syntax sources:
- NVUE: NVIDIA Cumulus Linux NVUE command reference (docs.nvidia.com/networking-ethernet-software/
  nvue-reference): `nv set system hostname`, `nv set interface <if> ip address`, `... link mtu`,
  `... link breakout 2x400G`, `nv set router bgp autonomous-system / router-id`, `nv set vrf default
  router bgp neighbor <ip> remote-as <asn>`, `... path-selection multipath aspath-ignore on`,
  `... address-family ipv4-unicast multipaths ebgp <n>`, `... redistribute connected`,
  `nv set qos roce mode lossless` (Cumulus Linux "RDMA over Converged Ethernet - RoCE": trust DSCP,
  PFC and ECN on switch priority 3, CNP on 6), `nv config apply`.
- EOS: Arista EOS User Manual (router bgp: `maximum-paths <n> ecmp <n>`, `bgp bestpath as-path
  multipath-relax`, `neighbor <ip> remote-as`, `redistribute connected`; QoS: `qos map dscp <d> to
  traffic-class <tc>`, `qos trust dscp`, `priority-flow-control on`, `priority-flow-control
  priority <p> no-drop`, `tx-queue <q>` / `random-detect ecn minimum-threshold ... kbytes
  maximum-threshold ... kbytes max-mark-probability <p>`).
Every design value in the NVUE script is one shell-quoted word; every comment goes through comment_text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..safe_text import comment_text, shell_quote


@dataclass(frozen=True, slots=True)
class Nos:
    key: str  # "nvue", "eos"
    label: str
    suffix: str
    render: Callable  # (ctx, device index) -> text


def nos_for_vendor(vendor: str) -> Nos | None:
    v = (vendor or "").strip().lower()
    if v in ("nvidia", "mellanox"):
        return NVUE
    if v == "arista":
        return EOS
    return None


def _split(ctx, device: int, port: int) -> tuple[int, int, int]:
    d = ctx.plan.devices[device]
    ppc = max(d.ports_per_cage, 1)
    cage, lane = divmod(port, ppc)
    return cage, lane, ppc


def cumulus_port(ctx, device: int, port: int) -> str:
    cage, lane, ppc = _split(ctx, device, port)
    return f"swp{cage + 1}" + (f"s{lane}" if ppc > 1 else "")


def eos_port(ctx, device: int, port: int) -> str:
    cage, lane, _ppc = _split(ctx, device, port)
    step = max(ctx.plan.devices[device].lanes_per_port, 1)
    return f"Ethernet{cage + 1}/{lane * step + 1}"


def render_nvue(ctx, device: int) -> str:
    d = ctx.plan.devices[device]
    r = ctx.routing(device)
    cs = ctx.cls[d.role]
    s = ctx.s
    q = shell_quote
    lines = [
        "#!/usr/bin/env bash",
        f"# NVIDIA Cumulus Linux (NVUE) configuration of {comment_text(d.name)}: routing (eBGP, RFC 7938) and "
        "RoCE lossless, the intent of its SONiC config_db.json.",
        "# Run on the switch as a user allowed to use nv; it stages every setting, then applies them at once.",
        "set -euo pipefail",
        "",
        f"nv set system hostname {q(d.name)}",
    ]
    ppc = max(d.ports_per_cage, 1)
    if ppc > 1:
        hw = ctx.plan.spec.switch_hw(d.role)
        mode = f"{ppc}x{hw.gbps}G"
        cages = sorted({p.port // ppc for p in r.ports})
        lines += [f"nv set interface swp{cage + 1} link breakout {q(mode)}" for cage in cages]
    lines.append(f"nv set interface lo ip address {q(r.loopback + '/32')}")
    for p in r.ports:
        name = cumulus_port(ctx, device, p.port)
        lines += [
            f"nv set interface {q(name)} description {q(f'{p.name} to {p.peer_device}:{p.peer_port}')}",
            f"nv set interface {q(name)} link mtu {q(cs.mtu)}",
            f"nv set interface {q(name)} ip address {q(p.address + '/31')}",
        ]
    lines += [
        f"nv set router bgp autonomous-system {q(r.asn)}",
        f"nv set router bgp router-id {q(r.loopback)}",
        "nv set vrf default router bgp path-selection multipath aspath-ignore on",
        f"nv set vrf default router bgp address-family ipv4-unicast multipaths ebgp {q(r.max_paths)}",
        "nv set vrf default router bgp address-family ipv4-unicast redistribute connected",
    ]
    for p in r.neighbors:
        lines += [
            f"nv set vrf default router bgp neighbor {q(p.peer_address)} remote-as {q(p.peer_asn)}",
            f"nv set vrf default router bgp neighbor {q(p.peer_address)} description {q(p.peer_device)}",
        ]
    lines += [
        "# RoCE: lossless mode (trust DSCP, PFC and ECN on the RoCE priority, CNP strict priority).",
        "nv set qos roce mode lossless",
    ]
    if (s.roce_dscp, cs.roce_priority, s.cnp_dscp, cs.cnp_priority) != (26, 3, 48, 6):
        lines.append(f"# The design maps RoCE DSCP {s.roce_dscp} -> priority {cs.roce_priority} and CNP DSCP "
                     f"{s.cnp_dscp} -> {cs.cnp_priority}; Cumulus's RoCE mode uses 26 -> 3 and 48 -> 6: "
                     "set the same on the hosts or adjust the switch's QoS maps.")
    lines += ["nv config apply -y", ""]
    return "\n".join(lines)


def render_eos(ctx, device: int) -> str:
    d = ctx.plan.devices[device]
    r = ctx.routing(device)
    cs = ctx.cls[d.role]
    s = ctx.s
    lossless = list(cs.pfc_priorities)
    out = [
        f"! Arista EOS configuration of {comment_text(d.name)}: routing (eBGP, RFC 7938) and RoCE lossless,",
        "! the intent of its SONiC config_db.json. Paste into `configure session`, review, `commit`.",
        f"hostname {comment_text(d.name)}",
        "service routing protocols model multi-agent",
        "ip routing",
        "!",
        f"qos map dscp {s.roce_dscp} to traffic-class {cs.roce_priority}",
        f"qos map dscp {s.cnp_dscp} to traffic-class {cs.cnp_priority}",
        "!",
        "interface Loopback0",
        f"   ip address {r.loopback}/32",
        "!",
    ]
    ppc = max(d.ports_per_cage, 1)
    for p in r.ports:
        out += [
            f"interface {eos_port(ctx, device, p.port)}",
            f"   description {comment_text(f'{p.name} to {p.peer_device}:{p.peer_port}')}",
        ]
        if ppc > 1:
            out.append(f"   speed {p.gbps}g-{max(d.lanes_per_port, 1)}")  # e.g. 400g-4: 2x400G on an 8-lane cage
        out += [
            f"   mtu {cs.mtu}",
            "   no switchport",
            f"   ip address {p.address}/31",
            f"   qos trust {'dscp' if cs.trust == 'dscp' else 'cos'}",
        ]
        if lossless:
            out.append("   priority-flow-control on")
            out += [f"   priority-flow-control priority {prio} no-drop" for prio in lossless]
        if cs.ecn_enabled:
            t = s.ecn_for(p.gbps)
            for prio in lossless:
                out += [f"   tx-queue {prio}",
                        f"      random-detect ecn minimum-threshold {t.kmin} kbytes maximum-threshold {t.kmax} "
                        f"kbytes max-mark-probability {max(1, min(100, int(t.pmax)))}"]
        out.append("!")
    out += [
        f"router bgp {r.asn}",
        f"   router-id {r.loopback}",
        "   bgp bestpath as-path multipath-relax",
        f"   maximum-paths {r.max_paths} ecmp {r.max_paths}",
    ]
    for p in r.neighbors:
        out += [f"   neighbor {p.peer_address} remote-as {p.peer_asn}",
                f"   neighbor {p.peer_address} description {comment_text(p.peer_device)}"]
    out += ["   redistribute connected", "!", "end", ""]
    return "\n".join(out)


NVUE = Nos("nvue", "NVIDIA Cumulus Linux (NVUE)", ".nvue.sh", render_nvue)
EOS = Nos("eos", "Arista EOS", ".eos.cfg", render_eos)
