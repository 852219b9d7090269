"""The switch's intent (routing + RoCE lossless) for its vendor's own network operating system.

Which NOS: the switch model's vendor (SwitchHw.vendor): NVIDIA -> Cumulus Linux NVUE commands
("<name>.nvue.sh"), Arista -> EOS configuration ("<name>.eos.cfg"); any other vendor gets the
SONiC config_db only (nos_for_vendor returns None).

Same intent as the SONiC file (engine.roce.routing and configs.QosIntent): hostname, Loopback0 /32, a /31
per cabled port, one eBGP session per switch-to-switch link with the plan's ASNs (RFC 7938), multipath
relax and maximum paths, connected routes redistributed; MTU per class, the full DSCP -> traffic class map
(every other DSCP to 0), traffic class = queue, PFC on the lossless priorities, ECN Kmin / Kmax / Pmax per
port speed on the lossless queues, the PFC watchdog (Cumulus: detection = polling interval x robustness;
it restores by its own polling, so only SONiC and EOS carry a restoration time).

Port names are the NOS's own, from the logical port (cage = port // ports_per_cage, lane =
port % ports_per_cage): Cumulus "swp<cage+1>" (split: "swp<cage+1>s<lane>"), EOS
"Ethernet<cage+1>/<lane * lanes_per_port + 1>"; each port's description names the SONiC name so
cable labels (which use SONiC names) map onto it.

Syntax sources:
- NVUE: NVIDIA Cumulus Linux NVUE command reference (docs.nvidia.com/networking-ethernet-software/
  nvue-reference): `nv set system hostname`, `nv set interface <if> ip address`, `... link mtu`,
  `... link breakout 2x400G`, `nv set router bgp autonomous-system / router-id`, `nv set vrf default
  router bgp neighbor <ip> remote-as <asn>`, `... path-selection multipath aspath-ignore on`,
  `... address-family ipv4-unicast multipaths ebgp <n>`, `... redistribute connected`; QoS (Cumulus Linux 5
  "Quality of Service"): `nv set qos mapping default-global trust l3 | dscp <list> switch-priority <p>`,
  `nv set qos egress-queue-mapping default-global switch-priority <p> traffic-class <q>`, `nv set qos pfc
  default-global switch-priority <p>`, `nv set qos congestion-control <profile> traffic-class <q> ecn enable |
  min-threshold <bytes> | max-threshold <bytes> | probability <%>` bound per interface (`nv set interface <if> qos
  congestion-control profile <profile>`), `nv set qos pfc-watchdog polling-interval <ms> | robustness <n>` and
  `nv set interface <if> qos pfc-watchdog`; `nv config apply`. The QoS is written out (not `nv set qos roce`,
  whose built-in maps and thresholds would differ from the design's).
- EOS: Arista EOS User Manual (router bgp: `maximum-paths <n> ecmp <n>`, `bgp bestpath as-path
  multipath-relax`, `neighbor <ip> remote-as`, `redistribute connected`; QoS: `qos map dscp <d> to
  traffic-class <tc>`, `qos trust dscp`, `priority-flow-control on`, `priority-flow-control
  priority <p> no-drop`, `tx-queue <q>` / `random-detect ecn minimum-threshold ... kbytes
  maximum-threshold ... kbytes max-mark-probability <p>`, `qos map traffic-class <tc> to tx-queue <q>`,
  `priority-flow-control pause watchdog default timeout | recovery-time | polling-interval <s>` and `... action`).
Every design value in the NVUE script is one shell-quoted word; every comment goes through comment_text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..names import eos_port_name
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
    d = ctx.plan.devices[device]
    return eos_port_name(port, d.ports_per_cage, d.lanes_per_port)


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
    lines += _nvue_qos(ctx, device, r)
    lines += ["nv config apply -y", ""]
    return "\n".join(lines)


def render_eos(ctx, device: int) -> str:
    d = ctx.plan.devices[device]
    r = ctx.routing(device)
    cs = ctx.cls[d.role]
    s = ctx.s
    lossless = list(cs.pfc_priorities)
    intent = ctx.qos_intent(d.role)
    out = [
        f"! Arista EOS configuration of {comment_text(d.name)}: routing (eBGP, RFC 7938) and RoCE lossless,",
        "! the intent of its SONiC config_db.json. Paste into `configure session`, review, `commit`.",
        f"hostname {comment_text(d.name)}",
        "service routing protocols model multi-agent",
        "ip routing",
        "!",
        *_eos_qos_global(ctx.qos_intent(d.role)),
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
            if intent.watchdog is not None:
                out.append("   priority-flow-control pause watchdog")
        if intent.ecn:
            t = intent.ecn[p.gbps]
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


def _ranges(values: list[int]) -> list[str]:
    """[0, 1, 2, 4] -> ["0-2", "4"]"""
    out, start = [], None
    for i, v in enumerate(values):
        start = v if start is None else start
        if i + 1 == len(values) or values[i + 1] != v + 1:
            out.append(str(start) if start == v else f"{start}-{v}")
            start = None
    return out


def _by_value(mapping: tuple[int, ...]) -> dict[int, list[int]]:
    """(0, 0, 3, 0) -> {0: [0, 1, 3], 3: [2]}"""
    out: dict[int, list[int]] = {}
    for key, value in enumerate(mapping):
        out.setdefault(value, []).append(key)
    return out


def _nvue_qos(ctx, device: int, routing) -> list[str]:
    """Cumulus Linux 5 QoS with NVUE: the same maps, PFC, ECN and watchdog as the SONiC tables."""
    i = ctx.qos_intent(ctx.plan.devices[device].role)
    q = shell_quote
    lines = ["# QoS: the design's own maps (no `nv set qos roce`, whose defaults would differ from the SONiC file)."]
    if i.trust == "dscp":
        lines.append("nv set qos mapping default-global trust l3")
        for tc, dscps in sorted(_by_value(i.dscp_to_tc).items()):
            lines += [f"nv set qos mapping default-global dscp {','.join(_ranges(dscps))} switch-priority {tc}"]
    else:
        lines += ["nv set qos mapping default-global trust l2"]
        lines += [f"nv set qos mapping default-global pcp {p} switch-priority {p}" for p in range(8)]
    lines += [f"nv set qos egress-queue-mapping default-global switch-priority {tc} traffic-class {queue}"
              for tc, queue in enumerate(i.tc_to_queue)]
    for prio in i.pfc_priorities:
        lines.append(f"nv set qos pfc default-global switch-priority {prio}")
    if i.pfc_priorities:
        lines += ["nv set qos pfc default-global tx enable", "nv set qos pfc default-global rx enable"]
    if i.cnp_strict:
        lines.append(f"nv set qos egress-scheduler default-global traffic-class {i.cnp_queue} mode strict")
    for gbps, t in sorted(i.ecn.items()):
        profile = f"roce-{gbps}g"
        for prio in i.pfc_priorities:
            lines += [f"nv set qos congestion-control {profile} traffic-class {prio} ecn enable",
                      f"nv set qos congestion-control {profile} traffic-class {prio} min-threshold {t.kmin * 1024}",
                      f"nv set qos congestion-control {profile} traffic-class {prio} max-threshold {t.kmax * 1024}",
                      f"nv set qos congestion-control {profile} traffic-class {prio} probability {t.pmax}"]
    for p in routing.ports:
        name = q(cumulus_port(ctx, device, p.port))
        if i.ecn:
            lines.append(f"nv set interface {name} qos congestion-control profile roce-{p.gbps}g")
        if i.watchdog is not None:
            lines.append(f"nv set interface {name} qos pfc-watchdog")
    if i.watchdog is not None:
        detection, restoration, poll, action = i.watchdog
        lines += [f"nv set qos pfc-watchdog polling-interval {poll}",
                  f"nv set qos pfc-watchdog robustness {max(1, -(-detection // poll))}",
                  f"# PFC watchdog: detection {detection} ms (polling interval x robustness), restoration "
                  f"{restoration} ms, action {action}: Cumulus turns a stormed lossless queue lossy (drop) and",
                  "# restores it by the same polling; see the SONiC file's PFC_WD table for the exact values."]
    return lines


# SONiC PFC_WD action -> EOS: drop the stormed queue's packets, or only report (EOS has no "forward").
EOS_WATCHDOG_ACTION = {"drop": "drop", "alert": "notify-only", "forward": "notify-only"}


def _eos_qos_global(i) -> list[str]:
    """EOS global QoS: the full DSCP map, traffic class = tx-queue, and the PFC watchdog."""
    out = []
    if i.trust == "dscp":
        for tc, dscps in sorted(_by_value(i.dscp_to_tc).items()):
            out.append(f"qos map dscp {' '.join(map(str, dscps))} to traffic-class {tc}")
    out += [f"qos map traffic-class {tc} to tx-queue {queue}" for tc, queue in enumerate(i.tc_to_queue)]
    if i.watchdog is not None:
        detection, restoration, poll, action = i.watchdog
        out += [f"priority-flow-control pause watchdog default timeout {detection / 1000:g}",
                f"priority-flow-control pause watchdog default recovery-time {restoration / 1000:g}",
                f"priority-flow-control pause watchdog default polling-interval {poll / 1000:g}",
                f"priority-flow-control pause watchdog action {EOS_WATCHDOG_ACTION[action]}"]
    return out


NVUE = Nos("nvue", "NVIDIA Cumulus Linux (NVUE)", ".nvue.sh", render_nvue)
EOS = Nos("eos", "Arista EOS", ".eos.cfg", render_eos)
