"""Consistency checklist of a design's RoCE settings, for the design review.

Each rule looks at every device class present in the plan (NIC, leaf, spine, core) and
reports a Finding per problem, naming the class and the fix; a rule with no problem reports
one "ok" finding, so a clean design shows a full list of ticks. Rules:

- pfc_lossless: the RoCE priority has PFC on every hop (NIC and every switch tier); PFC on
  priorities that carry nothing only reserves headroom (warning).
- trust_mode: every class classifies by DSCP; PCP needs a VLAN tag that routed /31 links
  do not carry, so a class trusting PCP puts RoCE into priority 0.
- roce_dscp_mapping: the RoCE DSCP maps to the PFC priority on every class.
- ecn_thresholds: per port speed in use, 0 < Kmin < Kmax and 1 <= Pmax <= 100; ECN marking
  on every switch class; a speed without its own thresholds is scaled (warning).
- dcqcn: NICs react to CNPs (reaction point) and send them (notification point).
- headroom: the configured PG headroom covers the longest cable of each link class;
  headroom reserved on a switch stays under half of its buffer (warning).
- mtu: every switch tier has the same MTU, at least the NIC MTU and the RoCE MTU plus
  headers; the NIC MTU carries the RoCE MTU.
- cnp_priority: CNPs ride their own priority (not the data priority, not best effort 0),
  scheduled strict priority, and are not themselves paused by PFC (warning).
- pfc_watchdog: every switch class runs the PFC storm watchdog (warning).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..model import Plan
from .headroom import link_classes, port_headroom
from .settings import RoceSettings

SEVERITIES = ("error", "warning", "ok")
RULES = ("pfc_lossless", "trust_mode", "roce_dscp_mapping", "ecn_thresholds", "dcqcn", "headroom", "mtu",
         "cnp_priority", "pfc_watchdog")
ROCE_IP_OVERHEAD = 60  # IPv4 20 + UDP 8 + BTH 12 + RETH 16 + ICRC 4 around an RDMA payload
DEFAULT_SWITCH_MTU = 9100
DEFAULT_NIC_MTU = 9000
CLASS_LABEL = {"nic": "NIC", "leaf": "leaf", "spine": "spine", "core": "core"}


@dataclass(frozen=True, slots=True)
class Finding:
    """One checklist line. `params` carries the numbers of `message` so a UI can translate by `code`."""

    severity: str  # "error", "warning" or "ok"
    code: str  # one of RULES
    device_class: str  # "nic", "leaf", "spine", "core", or "fabric" for an ok line
    message: str
    fix: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)


def present_classes(plan: Plan) -> tuple[str, ...]:
    """Device classes the plan has, NIC first then by tier."""
    out = ["nic"] if plan.servers else []
    out += [role for role in ("leaf", "spine", "core") if plan.switches.get(role, 0)]
    return tuple(out)


def roce_checklist(plan: Plan, settings: RoceSettings) -> list[Finding]:
    """Every rule's findings, problems first (errors, then warnings), then the ok lines."""
    ctx = _Context(plan, settings)
    findings: list[Finding] = []
    for rule in RULES:
        problems = getattr(ctx, rule)()
        findings += problems or [ctx.ok(rule)]
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(findings, key=lambda f: order[f.severity])


def _pfc_vector(priorities) -> str:
    return ",".join("1" if p in priorities else "0" for p in range(8))


class _Context:
    def __init__(self, plan: Plan, settings: RoceSettings) -> None:
        self.plan = plan
        self.s = settings
        self.classes = present_classes(plan)
        self.switches = tuple(c for c in self.classes if c != "nic")
        self.cs = {c: settings.for_class(c) for c in self.classes}
        self.link_classes = link_classes(plan)
        self.prio = settings.pfc_priority

    def ok(self, rule: str) -> Finding:
        s = self.s
        names = ", ".join(CLASS_LABEL[c] for c in self.classes)
        messages = {
            "pfc_lossless": f"Priority {s.pfc_priority} is lossless (PFC) on every hop: {names}.",
            "trust_mode": f"Every device classifies by DSCP ({names}).",
            "roce_dscp_mapping": f"RoCE DSCP {s.roce_dscp} maps to priority {s.pfc_priority} on {names}.",
            "ecn_thresholds": "ECN thresholds are consistent for every port speed in use ("
            + ", ".join(f"{lc.gbps}G {s.ecn_for(lc.gbps).kmin}/{s.ecn_for(lc.gbps).kmax} KB "
                        f"{s.ecn_for(lc.gbps).pmax}%" for lc in self._speeds()) + ").",
            "dcqcn": "DCQCN reaction and notification points are enabled on the NICs.",
            "headroom": "PFC headroom covers the longest cable of every link class ("
            + ", ".join(f"{lc.name} {lc.longest_m:g} m" for lc in self.link_classes) + ").",
            "mtu": f"MTU {s.mtu} on every switch tier carries NIC MTU {s.nic_mtu} and RoCE MTU {s.roce_mtu}.",
            "cnp_priority": f"CNPs (DSCP {s.cnp_dscp}) have their own strict priority {s.cnp_priority}.",
            "pfc_watchdog": f"PFC watchdog on every switch tier (detect {s.pfc_watchdog.detection_ms} ms, "
            f"restore {s.pfc_watchdog.restoration_ms} ms).",
        }
        return Finding("ok", rule, "fabric", messages[rule])

    def _speeds(self):
        seen, out = set(), []
        for lc in self.link_classes:
            if lc.gbps not in seen:
                seen.add(lc.gbps)
                out.append(lc)
        return out

    # --- rules ---------------------------------------------------------------------------

    def pfc_lossless(self) -> list[Finding]:
        out = []
        p = self.prio
        for c in self.classes:
            cs = self.cs[c]
            params = {"priority": p, "configured": list(cs.pfc_priorities)}
            if p not in cs.pfc_priorities:
                fix = (f"mlnx_qos -i <if> --pfc {_pfc_vector(self.s.lossless_priorities)} on every backend NIC"
                       if c == "nic" else
                       f'Set PORT_QOS_MAP pfc_enable "{p}" on every {c} port (config_db.json, then '
                       f"config qos reload)")
                out.append(Finding("error", "pfc_lossless", c,
                                   f"PFC is not enabled for priority {p} on {CLASS_LABEL[c]} ports "
                                   f"(PFC on: {_plist(cs.pfc_priorities)}); RoCE frames are dropped when "
                                   f"this hop congests.", fix, params))
            extra = [q for q in cs.pfc_priorities if q != p]
            if extra:
                out.append(Finding("warning", "pfc_lossless", c,
                                   f"PFC is also enabled on priority {_plist(extra)} on {CLASS_LABEL[c]} ports, "
                                   f"which carries no RoCE traffic; it reserves headroom and can spread pauses.",
                                   f"Enable PFC on priority {p} only on {CLASS_LABEL[c]} ports.",
                                   {**params, "extra": extra}))
        return out

    def trust_mode(self) -> list[Finding]:
        out = []
        for c in self.classes:
            cs = self.cs[c]
            if cs.trust != "dscp":
                fix = ("mlnx_qos -i <if> --trust dscp on every backend NIC" if c == "nic" else
                       f"Bind DSCP_TO_TC_MAP to every {c} port (PORT_QOS_MAP dscp_to_tc_map) instead of the "
                       f"802.1p map")
                out.append(Finding("error", "trust_mode", c,
                                   f"{CLASS_LABEL[c]} trusts {cs.trust.upper()} but the routed fabric carries no "
                                   f"VLAN tag between hops; RoCE lands in priority 0 and is not lossless.",
                                   fix, {"trust": cs.trust}))
        return out

    def roce_dscp_mapping(self) -> list[Finding]:
        out = []
        s = self.s
        for c in self.classes:
            cs = self.cs[c]
            if cs.roce_priority != self.prio:
                fix = (f"mlnx_qos -i <if> --dscp2prio set,{s.roce_dscp},{self.prio}" if c == "nic" else
                       f'Map DSCP {s.roce_dscp} to TC {self.prio} in DSCP_TO_TC_MAP on {c} switches')
                out.append(Finding("error", "roce_dscp_mapping", c,
                                   f"RoCE DSCP {s.roce_dscp} maps to priority {cs.roce_priority} on "
                                   f"{CLASS_LABEL[c]}, not to the lossless priority {self.prio}.", fix,
                                   {"dscp": s.roce_dscp, "mapped": cs.roce_priority, "priority": self.prio}))
        return out

    def ecn_thresholds(self) -> list[Finding]:
        out = []
        s = self.s
        for c in self.switches:
            if not self.cs[c].ecn_enabled:
                out.append(Finding("error", "ecn_thresholds", c,
                                   f"ECN marking is off on {c} switches: DCQCN gets no signal and congestion "
                                   f"is handled by PFC pauses alone.",
                                   f"Enable the WRED/ECN profile (ecn ecn_all) on queue {self.prio} of {c} ports.",
                                   {}))
        for lc in self._speeds():
            classes = [c for c in self.switches if self._class_has_speed(c, lc.gbps)]
            if not classes:
                continue
            t = s.ecn_for(lc.gbps)
            params = {"gbps": lc.gbps, "kmin": t.kmin, "kmax": t.kmax, "pmax": t.pmax}
            problems = []
            if lc.gbps not in s.ecn:
                problems.append(("warning", f"No ECN thresholds for {lc.gbps}G ports; scaled from the nearest "
                                 f"speed to Kmin {t.kmin} KB, Kmax {t.kmax} KB.",
                                 f"Enter ECN thresholds (Kmin, Kmax, Pmax) for {lc.gbps}G ports in the RoCE settings."))
            if t.kmin >= t.kmax:
                problems.append(("error", f"ECN Kmin {t.kmin} KB is not below Kmax {t.kmax} KB on {lc.gbps}G ports: "
                                 f"marking jumps from none to all packets.",
                                 f"Lower the ECN Kmin of {lc.gbps}G ports below Kmax in the RoCE settings, for example to "
                                 f"{max(1, t.kmax // 4)} KB."))
            if t.kmin <= 0:
                problems.append(("error", f"ECN Kmin is 0 on {lc.gbps}G ports: every queued packet is marked.",
                                 f"Raise the ECN Kmin of {lc.gbps}G ports to about {lc.gbps} KB in the RoCE settings."))
            if not 1 <= t.pmax <= 100:
                problems.append(("error", f"ECN Pmax {t.pmax}% on {lc.gbps}G ports is outside 1-100%.",
                                 f"Set the ECN Pmax of {lc.gbps}G ports between 1 and 100 % in the RoCE settings (20 % is "
                                 "typical)."))
            for severity, message, fix in problems:
                for c in classes:
                    out.append(Finding(severity, "ecn_thresholds", c, message, fix, params))
        return out

    def _class_has_speed(self, device_class: str, gbps: int) -> bool:
        tiers = {"leaf": (0, 1), "spine": (1, 2), "core": (2,)}[device_class]
        return any(lc.tier in tiers and lc.gbps == gbps for lc in self.link_classes)

    def dcqcn(self) -> list[Finding]:
        if "nic" not in self.classes:
            return []
        out = []
        d = self.s.dcqcn
        nic = self.cs["nic"]
        if not nic.ecn_enabled or not d.rp_enable:
            out.append(Finding("error", "dcqcn", "nic",
                               "DCQCN reaction point is off on the NICs: senders ignore CNPs and congestion "
                               "spreads as PFC pauses.",
                               f"echo 1 > /sys/class/net/<if>/ecn/roce_rp/enable/{self.prio} on every backend NIC",
                               {}))
        if not nic.ecn_enabled or not d.np_enable:
            out.append(Finding("error", "dcqcn", "nic",
                               "DCQCN notification point is off on the NICs: ECN-marked packets produce no CNP.",
                               f"echo 1 > /sys/class/net/<if>/ecn/roce_np/enable/{self.prio} on every backend NIC",
                               {}))
        return out

    def headroom(self) -> list[Finding]:
        out = []
        for c in self.switches:
            hw = self.plan.spec.switch_hw(c)
            budget = self.s.buffer_bytes(hw)
            rows = port_headroom(self.plan, self.s, c, self.link_classes)
            for h in rows:
                if h.configured < h.needed:
                    lc = h.link_class
                    out.append(Finding("error", "headroom", c,
                                       f"{c.capitalize()} headroom {h.configured // 1024} KB on {lc.name} ports is "
                                       f"below the {-(-h.needed // 1024)} KB a {lc.gbps}G link of {lc.longest_m:g} m "
                                       f"needs; frames are dropped before the pause takes effect.",
                                       f"Raise roce.overrides.{c}.headroom_kb to at least {-(-h.needed // 1024)}, "
                                       f"or clear it to use the computed value.",
                                       {"configured": h.configured, "needed": h.needed, "length_m": lc.longest_m,
                                        "gbps": lc.gbps, "link_class": lc.name}))
            reserved = self._reserved_headroom(c, rows)
            if budget is None:
                name = hw.name or hw.sku or c
                out.append(Finding("warning", "headroom", c,
                                   f"The packet buffer of {name} is not published: the {c} switches' SONiC buffer "
                                   "pools are not sized and the headroom reserve is not checked against it.",
                                   "Set roce.buffer.switch_buffer_mb to the switch's buffer (MiB), or keep the "
                                   "platform's own buffer pools.",
                                   {"switch": name, "buffer_unknown": True}))
            elif reserved > budget / 2:
                out.append(Finding("warning", "headroom", c,
                                   f"Lossless headroom reserves {reserved / 2**20:.1f} MB of the "
                                   f"{budget / 2**20:g} MB buffer of a {c} switch.",
                                   "Use a shared headroom pool, fewer lossless priorities or shorter cables.",
                                   {"reserved": reserved, "buffer": budget}))
        return out

    def _reserved_headroom(self, device_class: str, rows) -> int:
        ports = {"leaf": self.plan.spec.leaf, "spine": self.plan.spec.spine or self.plan.spec.leaf}
        hw = ports.get(device_class, self.plan.spec.core or self.plan.spec.spine or self.plan.spec.leaf)
        worst = max((h.size for h in rows), default=0)
        return worst * hw.ports * len(self.cs[device_class].pfc_priorities)

    def mtu(self) -> list[Finding]:
        out = []
        s = self.s
        if not self.switches:
            return out
        top = max(self.cs[c].mtu for c in self.switches)
        roce_frame = s.roce_mtu + ROCE_IP_OVERHEAD
        nic_mtu = self.cs["nic"].mtu if "nic" in self.classes else 0
        for c in self.switches:
            m = self.cs[c].mtu
            if m < top:
                tiers = ", ".join(f"{x} {self.cs[x].mtu}" for x in self.switches)
                out.append(Finding("error", "mtu", c,
                                   f"{c.capitalize()} MTU {m} is below the other tiers ({tiers}); larger frames are "
                                   f"dropped at this hop.", f"Set MTU {top} on every {c} port (PORT mtu).",
                                   {"mtu": m, "expected": top}))
            elif m < roce_frame:
                out.append(Finding("error", "mtu", c,
                                   f"{c.capitalize()} MTU {m} cannot carry RoCE MTU {s.roce_mtu} plus "
                                   f"{ROCE_IP_OVERHEAD} bytes of headers.",
                                   f"Set MTU {DEFAULT_SWITCH_MTU} on {c} ports.",
                                   {"mtu": m, "roce_mtu": s.roce_mtu}))
            elif nic_mtu > m:
                out.append(Finding("error", "mtu", c,
                                   f"{c.capitalize()} MTU {m} is below the NIC MTU {nic_mtu}; full-size packets from "
                                   f"the servers are dropped.",
                                   f"Set MTU {max(DEFAULT_SWITCH_MTU, nic_mtu)} on {c} ports.",
                                   {"mtu": m, "nic_mtu": nic_mtu}))
        if nic_mtu and nic_mtu < roce_frame:
            fallback = max((x for x in (256, 512, 1024, 2048, 4096) if x + ROCE_IP_OVERHEAD <= nic_mtu), default=256)
            advised = max(min(DEFAULT_NIC_MTU, top), roce_frame)
            out.append(Finding("warning", "mtu", "nic",
                               f"NIC MTU {nic_mtu} cannot carry RoCE MTU {s.roce_mtu}; RDMA falls back to "
                               f"{fallback}-byte packets.", f"ip link set dev <if> mtu {advised} on every backend NIC",
                               {"mtu": nic_mtu, "roce_mtu": s.roce_mtu, "fallback": fallback}))
        return out

    def cnp_priority(self) -> list[Finding]:
        out = []
        s = self.s
        for c in self.classes:
            cs = self.cs[c]
            params = {"dscp": s.cnp_dscp, "priority": cs.cnp_priority}
            nic = c == "nic"
            if cs.cnp_priority == cs.roce_priority or cs.cnp_priority == self.prio:
                out.append(Finding("error", "cnp_priority", c,
                                   f"CNPs (DSCP {s.cnp_dscp}) share priority {cs.cnp_priority} with RoCE data on "
                                   f"{CLASS_LABEL[c]}: they queue behind the congestion they report.",
                                   _cnp_fix(c, s.cnp_dscp, s.cnp_priority), params))
            elif cs.cnp_priority == 0:
                out.append(Finding("error", "cnp_priority", c,
                                   f"CNPs (DSCP {s.cnp_dscp}) fall into best-effort priority 0 on "
                                   f"{CLASS_LABEL[c]}: they wait behind bulk traffic and DCQCN reacts late.",
                                   _cnp_fix(c, s.cnp_dscp, s.cnp_priority), params))
            elif cs.cnp_priority in cs.pfc_priorities:
                out.append(Finding("warning", "cnp_priority", c,
                                   f"CNP priority {cs.cnp_priority} is lossless on {CLASS_LABEL[c]}: a PFC pause "
                                   f"can hold back the CNPs that would end it.",
                                   f"Disable PFC on priority {cs.cnp_priority} on {CLASS_LABEL[c]}.", params))
            if not nic and not cs.cnp_strict_priority:
                out.append(Finding("warning", "cnp_priority", c,
                                   f"CNP queue {cs.cnp_priority} on {c} switches is scheduled by weight, not "
                                   f"strict priority.",
                                   f"Bind a STRICT scheduler to queue {cs.cnp_priority} of {c} ports.", params))
        return out

    def pfc_watchdog(self) -> list[Finding]:
        out = []
        for c in self.switches:
            if not self.cs[c].pfc_watchdog:
                out.append(Finding("warning", "pfc_watchdog", c,
                                   f"PFC watchdog is off on {c} switches: a stuck receiver can pause the fabric "
                                   f"indefinitely (PFC storm, deadlock).",
                                   f"Enable PFC_WD on {c} ports (action {self.s.pfc_watchdog.action}, detection "
                                   f"{self.s.pfc_watchdog.detection_ms} ms).", {}))
        return out


def _plist(priorities) -> str:
    return ", ".join(str(p) for p in priorities) or "none"


def _cnp_fix(device_class: str, dscp: int, priority: int) -> str:
    if device_class == "nic":
        return (f"echo {dscp} > /sys/class/net/<if>/ecn/roce_np/cnp_dscp; mlnx_qos -i <if> --dscp2prio "
                f"set,{dscp},{priority}")
    return f"Map DSCP {dscp} to TC {priority} (DSCP_TO_TC_MAP) with a STRICT scheduler on {device_class} ports"
