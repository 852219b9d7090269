"""The engine's checklist findings and traffic notes in the user's language.

The engine writes English sentences and gives each finding a `code` (its rule), a severity and
the numbers of the sentence in `params`. Here every sentence the engine can write has a gettext
message whose English text is exactly the engine's, chosen by (code, severity, params) and, where
one rule words several problems with the same numbers, by the wording itself ("variant"). A
sentence this module does not know (a newer engine) is shown as the engine wrote it.
Commands inside fixes (mlnx_qos, sysfs, ip link) are never translated.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from apps.engine.roce import RoceSettings

NIC_SUFFIX = " on every backend NIC"
ROCE_IP_OVERHEAD = 60  # engine.roce.checklist: IPv4 + UDP + BTH + RETH + ICRC around an RDMA payload

RULE_TITLES = {
    "pfc_lossless": gettext_lazy("PFC lossless end to end"),
    "trust_mode": gettext_lazy("Trust mode (DSCP)"),
    "roce_dscp_mapping": gettext_lazy("RoCE DSCP to priority"),
    "ecn_thresholds": gettext_lazy("ECN thresholds"),
    "dcqcn": gettext_lazy("DCQCN on the NICs"),
    "headroom": gettext_lazy("PFC headroom"),
    "mtu": gettext_lazy("MTU"),
    "cnp_priority": gettext_lazy("CNP priority"),
    "pfc_watchdog": gettext_lazy("PFC watchdog"),
}
SEVERITY_LABELS = {
    "error": gettext_lazy("error"),
    "warning": gettext_lazy("warning"),
    "ok": gettext_lazy("ok"),
}
CLASS_LABELS = {
    "nic": gettext_lazy("NIC"),
    "leaf": gettext_lazy("leaf"),
    "spine": gettext_lazy("spine"),
    "core": gettext_lazy("core"),
    "fabric": gettext_lazy("fabric"),
}
LINK_CLASS_LABELS = {
    "server-leaf": gettext_lazy("server-leaf"),
    "leaf-spine": gettext_lazy("leaf-spine"),
    "spine-core": gettext_lazy("spine-core"),
}


def class_label(device_class: str) -> str:
    return str(CLASS_LABELS.get(device_class, device_class))


def link_class_label(name: str) -> str:
    return str(LINK_CLASS_LABELS.get(name, name))


@dataclass
class ReviewContext:
    """What the ok lines and some fixes need besides a finding's params."""

    settings: RoceSettings
    classes: list[str] = field(default_factory=list)  # device classes present, NIC first
    link_classes: list[dict[str, Any]] = field(default_factory=list)  # name, tier, gbps, longest_m

    @property
    def switches(self) -> list[str]:
        return [c for c in self.classes if c != "nic"]


@dataclass(frozen=True)
class FindingText:
    variant: str  # "<code>.<which>", or "" when the engine's own words are shown
    message: str
    fix: str


def _plist(values) -> str:
    return ", ".join(str(v) for v in values) or _("none")


def _names(ctx: ReviewContext) -> str:
    return ", ".join(class_label(c) for c in ctx.classes)


def _nic_command(fix: str) -> str | None:
    """The command of a NIC fix "<command> on every backend NIC", else None."""
    return fix[: -len(NIC_SUFFIX)] if fix.endswith(NIC_SUFFIX) else None


def _on_every_nic(fix: str) -> str:
    command = _nic_command(fix)
    if command is None:
        return fix
    return _("%(command)s on every backend NIC") % {"command": command}


def _speeds(ctx: ReviewContext) -> list[dict[str, Any]]:
    seen, out = set(), []
    for lc in ctx.link_classes:
        if lc["gbps"] not in seen:
            seen.add(lc["gbps"])
            out.append(lc)
    return out


def _ok(code: str, ctx: ReviewContext) -> tuple[str, str] | None:
    s = ctx.settings
    names = _names(ctx)
    if code == "pfc_lossless":
        return _("Priority %(priority)s is lossless (PFC) on every hop: %(classes)s.") % {
            "priority": s.pfc_priority, "classes": names}, ""
    if code == "trust_mode":
        return _("Every device classifies by DSCP (%(classes)s).") % {"classes": names}, ""
    if code == "roce_dscp_mapping":
        return _("RoCE DSCP %(dscp)s maps to priority %(priority)s on %(classes)s.") % {
            "dscp": s.roce_dscp, "priority": s.pfc_priority, "classes": names}, ""
    if code == "ecn_thresholds":
        speeds = ", ".join(
            f"{lc['gbps']}G {s.ecn_for(lc['gbps']).kmin}/{s.ecn_for(lc['gbps']).kmax} KB {s.ecn_for(lc['gbps']).pmax}%"
            for lc in _speeds(ctx))
        return _("ECN thresholds are consistent for every port speed in use (%(speeds)s).") % {"speeds": speeds}, ""
    if code == "dcqcn":
        return _("DCQCN reaction and notification points are enabled on the NICs."), ""
    if code == "headroom":
        cables = ", ".join(f"{link_class_label(lc['name'])} {lc['longest_m']:g} m" for lc in ctx.link_classes)
        return _("PFC headroom covers the longest cable of every link class (%(cables)s).") % {"cables": cables}, ""
    if code == "mtu":
        return _("MTU %(mtu)s on every switch tier carries NIC MTU %(nic_mtu)s and RoCE MTU %(roce_mtu)s.") % {
            "mtu": s.mtu, "nic_mtu": s.nic_mtu, "roce_mtu": s.roce_mtu}, ""
    if code == "cnp_priority":
        return _("CNPs (DSCP %(dscp)s) have their own strict priority %(priority)s.") % {
            "dscp": s.cnp_dscp, "priority": s.cnp_priority}, ""
    if code == "pfc_watchdog":
        return _("PFC watchdog on every switch tier (detect %(detect)s ms, restore %(restore)s ms).") % {
            "detect": s.pfc_watchdog.detection_ms, "restore": s.pfc_watchdog.restoration_ms}, ""
    return None


def _problem(f: dict[str, Any], ctx: ReviewContext) -> tuple[str, str, str] | None:
    """(variant, message, fix) of an error or warning, or None for a sentence this module does not know."""
    code, severity, c = f["code"], f["severity"], f["device_class"]
    p = f.get("params") or {}
    message, fix = f.get("message", ""), f.get("fix", "")
    s = ctx.settings
    cl = class_label(c)
    nic = c == "nic"
    if code == "pfc_lossless":
        if "extra" in p:
            return ("pfc_lossless.extra",
                    _("PFC is also enabled on priority %(extra)s on %(class)s ports, which carries no RoCE traffic; "
                      "it reserves headroom and can spread pauses.") % {"extra": _plist(p["extra"]), "class": cl},
                    _("Enable PFC on priority %(priority)s only on %(class)s ports.") % {
                        "priority": p["priority"], "class": cl})
        text = _("PFC is not enabled for priority %(priority)s on %(class)s ports (PFC on: %(configured)s); RoCE "
                 "frames are dropped when this hop congests.") % {
            "priority": p["priority"], "class": cl, "configured": _plist(p["configured"])}
        if nic:
            return "pfc_lossless.off", text, _on_every_nic(fix)
        return "pfc_lossless.off", text, _(
            'Set PORT_QOS_MAP pfc_enable "%(priority)s" on every %(class)s port (config_db.json, then config qos '
            'reload)') % {"priority": p["priority"], "class": cl}
    if code == "trust_mode":
        text = _("%(class)s trusts %(trust)s but the routed fabric carries no VLAN tag between hops; RoCE lands in "
                 "priority 0 and is not lossless.") % {"class": cl, "trust": str(p["trust"]).upper()}
        if nic:
            return "trust_mode.pcp", text, _on_every_nic(fix)
        return "trust_mode.pcp", text, _(
            "Bind DSCP_TO_TC_MAP to every %(class)s port (PORT_QOS_MAP dscp_to_tc_map) instead of the 802.1p "
            "map") % {"class": cl}
    if code == "roce_dscp_mapping":
        text = _("RoCE DSCP %(dscp)s maps to priority %(mapped)s on %(class)s, not to the lossless priority "
                 "%(priority)s.") % {"dscp": p["dscp"], "mapped": p["mapped"], "class": cl, "priority": p["priority"]}
        if nic:
            return "roce_dscp_mapping.other", text, fix  # a command
        return "roce_dscp_mapping.other", text, _("Map DSCP %(dscp)s to TC %(priority)s in DSCP_TO_TC_MAP on "
                                                  "%(class)s switches") % {
            "dscp": p["dscp"], "priority": p["priority"], "class": cl}
    if code == "ecn_thresholds":
        if not p:
            return ("ecn_thresholds.off",
                    _("ECN marking is off on %(class)s switches: DCQCN gets no signal and congestion is handled by "
                      "PFC pauses alone.") % {"class": cl},
                    _("Enable the WRED/ECN profile (ecn ecn_all) on queue %(priority)s of %(class)s ports.") % {
                        "priority": s.pfc_priority, "class": cl})
        g = {"gbps": p["gbps"], "kmin": p["kmin"], "kmax": p["kmax"], "pmax": p["pmax"]}
        if severity == "warning":
            return ("ecn_thresholds.scaled",
                    _("No ECN thresholds for %(gbps)sG ports; scaled from the nearest speed to Kmin %(kmin)s KB, "
                      "Kmax %(kmax)s KB.") % g,
                    _("Enter ECN thresholds (Kmin, Kmax, Pmax) for %(gbps)sG ports in the RoCE settings.") % g)
        if "is not below" in message:
            return ("ecn_thresholds.kmin_above_kmax",
                    _("ECN Kmin %(kmin)s KB is not below Kmax %(kmax)s KB on %(gbps)sG ports: marking jumps from "
                      "none to all packets.") % g,
                    _("Lower the ECN Kmin of %(gbps)sG ports below Kmax in the RoCE settings, for example to "
                      "%(kmin)s KB.") % {
                        "gbps": p["gbps"], "kmin": max(1, int(p["kmax"]) // 4)})
        if "Kmin is 0" in message:
            return ("ecn_thresholds.kmin_zero",
                    _("ECN Kmin is 0 on %(gbps)sG ports: every queued packet is marked.") % g,
                    _("Raise the ECN Kmin of %(gbps)sG ports to about %(gbps)s KB in the RoCE settings.") % g)
        if "Pmax" in message:
            return ("ecn_thresholds.pmax",
                    _("ECN Pmax %(pmax)s%% on %(gbps)sG ports is outside 1-100%%.") % g,
                    _("Set the ECN Pmax of %(gbps)sG ports between 1 and 100 %% in the RoCE settings (20 %% is "
                      "typical).") % g)
        return None
    if code == "dcqcn":
        if "reaction point" in message:
            return ("dcqcn.rp_off",
                    _("DCQCN reaction point is off on the NICs: senders ignore CNPs and congestion spreads as PFC "
                      "pauses."), _on_every_nic(fix))
        if "notification point" in message:
            return ("dcqcn.np_off",
                    _("DCQCN notification point is off on the NICs: ECN-marked packets produce no CNP."),
                    _on_every_nic(fix))
        return None
    if code == "headroom":
        if "needed" in p:
            needed_kb = -(-int(p["needed"]) // 1024)
            return ("headroom.short",
                    _("%(class)s headroom %(configured)s KB on %(link_class)s ports is below the %(needed)s KB a "
                      "%(gbps)sG link of %(length)s m needs; frames are dropped before the pause takes effect.") % {
                        "class": capfirst(cl), "configured": int(p["configured"]) // 1024,
                        "link_class": link_class_label(p["link_class"]), "needed": needed_kb, "gbps": p["gbps"],
                        "length": f"{float(p['length_m']):g}"},
                    _("Raise roce.overrides.%(class)s.headroom_kb to at least %(needed)s, or clear it to use the "
                      "computed value.") % {"class": c, "needed": needed_kb})
        if p.get("buffer_unknown"):
            return ("headroom.buffer_unknown",
                    _("The packet buffer of %(switch)s is not published: the %(class)s switches' SONiC buffer pools "
                      "are not sized and the headroom reserve is not checked against it.") % {
                        "switch": p["switch"], "class": cl},
                    _("Set roce.buffer.switch_buffer_mb to the switch's buffer (MiB), or keep the platform's own "
                      "buffer pools."))
        if "reserved" in p:
            return ("headroom.reserved",
                    _("Lossless headroom reserves %(reserved)s MB of the %(buffer)s MB buffer of a %(class)s "
                      "switch.") % {"reserved": f"{int(p['reserved']) / 2**20:.1f}",
                                    "buffer": f"{float(p['buffer']) / 2**20:g}", "class": cl},
                    _("Use a shared headroom pool, fewer lossless priorities or shorter cables."))
        return None
    if code == "mtu":
        if "expected" in p:
            tiers = ", ".join(f"{class_label(x)} {s.for_class(x).mtu}" for x in ctx.switches)
            return ("mtu.below_tiers",
                    _("%(class)s MTU %(mtu)s is below the other tiers (%(tiers)s); larger frames are dropped at this "
                      "hop.") % {"class": capfirst(cl), "mtu": p["mtu"], "tiers": tiers},
                    _("Set MTU %(mtu)s on every %(class)s port (PORT mtu).") % {"mtu": p["expected"], "class": cl})
        if "fallback" in p:
            return ("mtu.nic_roce",
                    _("NIC MTU %(mtu)s cannot carry RoCE MTU %(roce_mtu)s; RDMA falls back to %(fallback)s-byte "
                      "packets.") % {"mtu": p["mtu"], "roce_mtu": p["roce_mtu"], "fallback": p["fallback"]},
                    _on_every_nic(fix))
        if "nic_mtu" in p:
            return ("mtu.below_nic",
                    _("%(class)s MTU %(mtu)s is below the NIC MTU %(nic_mtu)s; full-size packets from the servers are "
                      "dropped.") % {"class": capfirst(cl), "mtu": p["mtu"], "nic_mtu": p["nic_mtu"]},
                    _("Set MTU %(mtu)s on %(class)s ports.") % {"mtu": max(9100, int(p["nic_mtu"])), "class": cl})
        if "roce_mtu" in p:
            return ("mtu.roce",
                    _("%(class)s MTU %(mtu)s cannot carry RoCE MTU %(roce_mtu)s plus %(overhead)s bytes of "
                      "headers.") % {"class": capfirst(cl), "mtu": p["mtu"], "roce_mtu": p["roce_mtu"],
                                     "overhead": ROCE_IP_OVERHEAD},
                    _("Set MTU %(mtu)s on %(class)s ports.") % {"mtu": 9100, "class": cl})
        return None
    if code == "cnp_priority":
        q = {"dscp": p.get("dscp"), "priority": p.get("priority"), "class": cl}
        switch_fix = _("Map DSCP %(dscp)s to TC %(priority)s (DSCP_TO_TC_MAP) with a STRICT scheduler on %(class)s "
                       "ports") % {"dscp": s.cnp_dscp, "priority": s.cnp_priority, "class": cl}
        if "share priority" in message:
            return ("cnp_priority.shared",
                    _("CNPs (DSCP %(dscp)s) share priority %(priority)s with RoCE data on %(class)s: they queue "
                      "behind the congestion they report.") % q, fix if nic else switch_fix)
        if "best-effort" in message:
            return ("cnp_priority.best_effort",
                    _("CNPs (DSCP %(dscp)s) fall into best-effort priority 0 on %(class)s: they wait behind bulk "
                      "traffic and DCQCN reacts late.") % q, fix if nic else switch_fix)
        if "is lossless" in message:
            return ("cnp_priority.lossless",
                    _("CNP priority %(priority)s is lossless on %(class)s: a PFC pause can hold back the CNPs that "
                      "would end it.") % q,
                    _("Disable PFC on priority %(priority)s on %(class)s.") % q)
        if "by weight" in message:
            return ("cnp_priority.weighted",
                    _("CNP queue %(priority)s on %(class)s switches is scheduled by weight, not strict "
                      "priority.") % q,
                    _("Bind a STRICT scheduler to queue %(priority)s of %(class)s ports.") % q)
        return None
    if code == "pfc_watchdog":
        return ("pfc_watchdog.off",
                _("PFC watchdog is off on %(class)s switches: a stuck receiver can pause the fabric indefinitely "
                  "(PFC storm, deadlock).") % {"class": cl},
                _("Enable PFC_WD on %(class)s ports (action %(action)s, detection %(detect)s ms).") % {
                    "class": cl, "action": watchdog_action_label(s.pfc_watchdog.action),
                    "detect": s.pfc_watchdog.detection_ms})
    return None


def finding_text(finding: dict[str, Any], ctx: ReviewContext) -> FindingText:
    """A finding's message and fix in the active language (the engine's words if the sentence is unknown)."""
    try:
        if finding["severity"] == "ok":
            known = _ok(finding["code"], ctx)
            if known is not None:
                return FindingText(f"{finding['code']}.ok", *known)
        else:
            known = _problem(finding, ctx)
            if known is not None:
                return FindingText(*known)
    except (KeyError, TypeError, ValueError):
        pass  # params not as expected: show the engine's own words
    return FindingText("", finding.get("message", ""), finding.get("fix", ""))


# --- traffic -------------------------------------------------------------------------------------

PATTERN_LABELS = {
    "all-reduce": gettext_lazy("Ring All-Reduce"),
    "all-to-all": gettext_lazy("All-to-All"),
}
STRATEGY_LABELS = {
    "ecmp": gettext_lazy("ECMP, random source ports"),
    "hash-aware": gettext_lazy("Hash-aware source ports"),
}
PLACEMENT_LABELS = {
    "plan": gettext_lazy("plan order"),
    "scheduler": gettext_lazy("scheduler order (random)"),
}
LATENCY_BASIS_LABELS = {
    "hops": gettext_lazy("from the path: NICs, switches and cable"),
    "nccl-model": gettext_lazy("NCCL's model of a network step"),
}
HOP_LABELS = {
    "server-leaf up": gettext_lazy("server-leaf up (NIC to leaf)"),
    "leaf-spine up": gettext_lazy("leaf-spine up (leaf uplinks)"),
    "spine-core up": gettext_lazy("spine-core up (spine uplinks)"),
    "spine-core down": gettext_lazy("spine-core down (core to spine)"),
    "leaf-spine down": gettext_lazy("leaf-spine down (spine to leaf)"),
    "server-leaf down": gettext_lazy("server-leaf down (leaf to NIC)"),
}


def pattern_label(name: str) -> str:
    return str(PATTERN_LABELS.get(name, name))


def strategy_label(name: str) -> str:
    return str(STRATEGY_LABELS.get(name, name))


def hop_label(name: str) -> str:
    return str(HOP_LABELS.get(name, name))


def placement_label(name: str) -> str:
    return str(PLACEMENT_LABELS.get(name, name))


def latency_basis_label(name: str) -> str:
    return str(LATENCY_BASIS_LABELS.get(name, name))


def _int(text: str) -> int:
    return int(text.replace(",", ""))


_DESCRIPTIONS: list[tuple[re.Pattern, Any]] = [
    (re.compile(r"^Ring All-Reduce within each of (\d+) rails over (\d+) servers$"),
     lambda m: _("Ring All-Reduce within each of %(rails)s rails over %(servers)s servers") % {
         "rails": m[1], "servers": f"{int(m[2]):,}"}),
    (re.compile(r"^Ring All-Reduce over (\d+) scale-up domains of (\d+) servers \(inside a domain over NVLink\), "
                r"one ring per rail and tray position$"),
     lambda m: _("Ring All-Reduce over %(domains)s scale-up domains of %(servers)s servers (inside a domain over "
                 "NVLink), one ring per rail and tray position") % {"domains": f"{int(m[1]):,}", "servers": m[2]}),
    (re.compile(r"^All-to-All across (\d+) GPUs \((\d+) servers\), PXN over the destination's rail; inside each "
                r"of the (\d+) scale-up domains of (\d+) GPUs over NVLink$"),
     lambda m: _("All-to-All across %(gpus)s GPUs (%(servers)s servers), PXN over the destination's rail; inside "
                 "each of the %(domains)s scale-up domains of %(domain_gpus)s GPUs over NVLink") % {
         "gpus": f"{int(m[1]):,}", "servers": f"{int(m[2]):,}", "domains": f"{int(m[3]):,}", "domain_gpus": m[4]}),
    (re.compile(r"^All-to-All across (\d+) GPUs \((\d+) servers\), PXN over the destination's rail$"),
     lambda m: _("All-to-All across %(gpus)s GPUs (%(servers)s servers), PXN over the destination's rail") % {
         "gpus": f"{int(m[1]):,}", "servers": f"{int(m[2]):,}"}),
]
_NOTES: list[tuple[re.Pattern, Any]] = [
    (re.compile(r"^Sampled: ([\d,]+) of ([\d,]+) ring flows chosen uniformly at random\.$"),
     lambda m: _("Sampled: %(flows)s of %(total)s ring flows chosen uniformly at random.") % {
         "flows": f"{_int(m[1]):,}", "total": f"{_int(m[2]):,}"}),
    (re.compile(r"^Sampled: (\d+) of (\d+) pairwise-exchange steps \(server s to s \+ e\), evenly spaced from a "
                r"random start: ([\d,]+) of ([\d,]+) flows; every NIC sends and receives the same number\.$"),
     lambda m: _("Sampled: %(steps)s of %(all_steps)s pairwise-exchange steps (server s to s + e), evenly spaced "
                 "from a random start: %(flows)s of %(total)s flows; every NIC sends and receives the same "
                 "number.") % {"steps": m[1], "all_steps": m[2], "flows": f"{_int(m[3]):,}",
                               "total": f"{_int(m[4]):,}"}),
    (re.compile(r"^With fewer flows per link than the full collective, random ECMP looks less even than it would "
                r"with every flow: the ECMP spread shown is pessimistic\.$"),
     lambda m: _("With fewer flows per link than the full collective, random ECMP looks less even than it would "
                 "with every flow: the ECMP spread shown is pessimistic.")),
    (re.compile(r"^No network traffic: the collective stays inside one server\.$"),
     lambda m: _("No network traffic: the collective stays inside one server.")),
    (re.compile(r"^No network traffic: the collective stays inside one scale-up domain \(NVLink\)\.$"),
     lambda m: _("No network traffic: the collective stays inside one scale-up domain (NVLink).")),
    (re.compile(r"^(\d+) flows found no path through the fabric\.$"),
     lambda m: _("%(flows)s flows found no path through the fabric.") % {"flows": f"{int(m[1]):,}"}),
    (re.compile(r"^Some spines do not reach every leaf of their pod; routing assumed they do\.$"),
     lambda m: _("Some spines do not reach every leaf of their pod; routing assumed they do.")),
    (re.compile(r"^Headline: the scheduler placement, the job's (\d+) servers in a random order \(seed (\d+)\); "
                r"plan order is shown beside it\.$"),
     lambda m: _("Headline: the scheduler placement, the job's %(servers)s servers in a random order (seed "
                 "%(seed)s); plan order is shown beside it.") % {"servers": f"{int(m[1]):,}", "seed": m[2]}),
    (re.compile(r"^Hash-aware ports are modelled per switch \(round robin by destination\); for a random placement "
                r"that still shares some links, so a library that assigns ports for the whole ring could do better "
                r"than shown\.$"),
     lambda m: _("Hash-aware ports are modelled per switch (round robin by destination); for a random placement that "
                 "still shares some links, so a library that assigns ports for the whole ring could do better than "
                 "shown.")),
    (re.compile(r"^Per-step latency = 2 x ([\d.e+]+) ns \(NIC send and receive\) \+ switches x ([\d.e+]+) ns \+ 5 ns "
                r"per metre of cable, on the longest path of a step\.$"),
     lambda m: _("Per-step latency = 2 x %(nic)s ns (NIC send and receive) + switches x %(switch)s ns + 5 ns per "
                 "metre of cable, on the longest path of a step.") % {"nic": m[1], "switch": m[2]}),
    (re.compile(r"^Per-step latency 9\.6 us: what NCCL's own tuning model charges a network step \(Ring, Simple "
                r"protocol\); no switch or NIC latency was entered \(the vendors' data sheets checked publish "
                r"none\)\.$"),
     lambda m: _("Per-step latency 9.6 us: what NCCL's own tuning model charges a network step (Ring, Simple "
                 "protocol); no switch or NIC latency was entered (the vendors' data sheets checked publish none).")),
    (re.compile(r"^Per-step latency ([\d.]+) us: what NCCL 2\.30\.7's tuning model charges a network step \(Ring, "
                r"Simple protocol\); no switch or NIC latency was entered \(the vendors' data sheets checked publish "
                r"none\)\.$"),
     lambda m: _("Per-step latency %(step)s us: what NCCL 2.30.7's tuning model charges a network step (Ring, Simple "
                 "protocol); no switch or NIC latency was entered (the vendors' data sheets checked publish none).")
     % {"step": m[1]}),
    (re.compile(r"^Latency term as NCCL's tuning model sums it, the performance model's figure: 8\.4 us \+ NVLink "
                r"steps x 3\.4 us \+ network steps x the per-step latency for a ring \(Simple protocol\); 8\.4 us "
                r"\+ one network step for All-to-All\.$"),
     lambda m: _("Latency term as NCCL's tuning model sums it, the performance model's figure: 8.4 us + NVLink steps "
                 "x 3.4 us + network steps x the per-step latency for a ring (Simple protocol); 8.4 us + one network "
                 "step for All-to-All.")),
    (re.compile(r"^The ring's latency term is (\d+)% of its time over (\d+) servers: at this size NCCL usually picks "
                r"Tree \(about (\d+) network steps instead of (\d+)\) or NVLS / CollNet where the switches reduce in "
                r"the network; NCCL_ALGO=Ring forces the ring modelled here\.$"),
     lambda m: _("The ring's latency term is %(share)s%% of its time over %(servers)s servers: at this size NCCL "
                 "usually picks Tree (about %(tree)s network steps instead of %(ring)s) or NVLS / CollNet where the "
                 "switches reduce in the network; NCCL_ALGO=Ring forces the ring modelled here.") % {
         "share": m[1], "servers": f"{int(m[2]):,}", "tree": m[3], "ring": f"{int(m[4]):,}"}),
    (re.compile(r"^The ring's latency term is (\d+)% of its time over (\d+) servers; NCCL still chooses Ring, Tree, "
                r"NVLS or CollNet per call from size and topology \(NCCL_ALGO pins one\)\.$"),
     lambda m: _("The ring's latency term is %(share)s%% of its time over %(servers)s servers; NCCL still chooses "
                 "Ring, Tree, NVLS or CollNet per call from size and topology (NCCL_ALGO pins one).") % {
         "share": m[1], "servers": f"{int(m[2]):,}"}),
]


def _translate(text: str, table: list[tuple[re.Pattern, Any]]) -> str:
    for pattern, render in table:
        match = pattern.match(text)
        if match:
            return str(render(match))
    return text


def pattern_description(text: str) -> str:
    return _translate(text, _DESCRIPTIONS)


def traffic_note(text: str) -> str:
    return _translate(text, _NOTES)


def _assumptions() -> dict[str, str]:
    """Engine assumption (English) -> the same in the active language."""
    english = (
        "Every NIC offers its line rate, shared equally by the flows it sources; a flow on an overloaded link gets "
        "its fair share there, and a collective ends with its slowest flow.",
        "ECMP: every switch hashes the RoCE v2 5-tuple (source IP, destination IP, UDP, random source port "
        "49152-65535, 4791) with CRC-32 and a per-switch seed, modulo its equal-cost next hops.",
        "Hash-aware: the sender picks source ports whose hashes place its flows round-robin over each switch's "
        "next hops, in an order rotated by destination (ideal topology-aware collective library).",
        "GPU i of a server uses NIC port i x ports / GPUs; All-to-All sends to other rails through the NVLink peer "
        "on the destination rail (PXN), so network flows stay on one rail; traffic inside a server stays on NVLink.",
        "Ring All-Reduce: one ring per rail over the servers in plan order; each connection uses "
        "qps_per_connection queue pairs, each its own flow.",
        "Ring All-Reduce: one ring per rail, over the job's servers in a seeded random order as a scheduler would "
        "place them (the headline) and in plan order; each connection uses qps_per_connection queue pairs, each its "
        "own flow.",
        "Time = message bytes per NIC / effective bandwidth + network steps x per-step latency (2 (N - 1) steps for a "
        "ring over N servers, one for All-to-All); NCCL may pick Tree, NVLS or CollNet instead of a ring.",
        "Every NIC offers its line rate; flows share links max-min fairly, as in the performance model; a ring "
        "channel moves at the rate of its slowest queue pair's link, and a collective ends with its slowest flow.",
        "Ring All-Reduce: rings in rank order, one per rail, over the job's servers in a seeded random order as a "
        "scheduler would place them (the headline) and in plan order; each hop on NCCL's 2 channels per NIC x "
        "qps_per_connection queue pairs (the design's NCCL_IB_QPS_PER_CONNECTION unless entered), each its own flow.",
        "Time = message bytes per NIC / effective bandwidth + NCCL's latency term, as the performance model sums it "
        "(NCCL 2.30.7's tuning model: a base, NVLink steps and network steps; 2 (N - 1) network steps for a ring over "
        "N servers, one for All-to-All); NCCL may pick Tree, NVLS or CollNet instead of a ring.",
    )
    translated = (
        _("Every NIC offers its line rate, shared equally by the flows it sources; a flow on an overloaded link "
          "gets its fair share there, and a collective ends with its slowest flow."),
        _("ECMP: every switch hashes the RoCE v2 5-tuple (source IP, destination IP, UDP, random source port "
          "49152-65535, 4791) with CRC-32 and a per-switch seed, modulo its equal-cost next hops."),
        _("Hash-aware: the sender picks source ports whose hashes place its flows round-robin over each switch's "
          "next hops, in an order rotated by destination (ideal topology-aware collective library)."),
        _("GPU i of a server uses NIC port i x ports / GPUs; All-to-All sends to other rails through the NVLink "
          "peer on the destination rail (PXN), so network flows stay on one rail; traffic inside a server stays on "
          "NVLink."),
        _("Ring All-Reduce: one ring per rail over the servers in plan order; each connection uses "
          "qps_per_connection queue pairs, each its own flow."),
        _("Ring All-Reduce: one ring per rail, over the job's servers in a seeded random order as a scheduler "
          "would place them (the headline) and in plan order; each connection uses qps_per_connection queue pairs, "
          "each its own flow."),
        _("Time = message bytes per NIC / effective bandwidth + network steps x per-step latency (2 (N - 1) steps "
          "for a ring over N servers, one for All-to-All); NCCL may pick Tree, NVLS or CollNet instead of a ring."),
        _("Every NIC offers its line rate; flows share links max-min fairly, as in the performance model; a ring "
          "channel moves at the rate of its slowest queue pair's link, and a collective ends with its slowest flow."),
        _("Ring All-Reduce: rings in rank order, one per rail, over the job's servers in a seeded random order as a "
          "scheduler would place them (the headline) and in plan order; each hop on NCCL's 2 channels per NIC x "
          "qps_per_connection queue pairs (the design's NCCL_IB_QPS_PER_CONNECTION unless entered), each its own "
          "flow."),
        _("Time = message bytes per NIC / effective bandwidth + NCCL's latency term, as the performance model sums "
          "it (NCCL 2.30.7's tuning model: a base, NVLink steps and network steps; 2 (N - 1) network steps for a "
          "ring over N servers, one for All-to-All); NCCL may pick Tree, NVLS or CollNet instead of a ring."),
    )
    return dict(zip(english, translated))


def traffic_assumptions(assumptions) -> list[str]:
    table = _assumptions()
    return [table.get(text, text) for text in assumptions]


def watchdog_action_label(action: str) -> str:
    """What the PFC watchdog does with a stormed queue, in the active language (the engine's word if unknown)."""
    labels = {
        "drop": pgettext("PFC watchdog action", "drop"),
        "forward": pgettext("PFC watchdog action", "forward"),
        "alert": pgettext("PFC watchdog action", "alert"),
    }
    return str(labels.get(action, action))
