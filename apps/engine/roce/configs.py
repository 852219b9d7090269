"""Per-device RoCE configuration files, streamed one device at a time.

Switches get a SONiC config_db.json that loads as it is on a freshly installed switch (`config reload
<file>`; it passes sonic-buildimage's YANG models, see tests/engine/test_sonic_configs.py), built
from the switch model's SONiC platform facts (engine.roce.platform) and these rules:
- DEVICE_METADATA: hostname, bgp_asn, type, frr_mgmt_framework_config (frrcfgd reads the BGP tables),
  platform and hwsku (the HWSKU whose ports run the design's breakout, else the platform's default).
  No `mac`: every switch has its own base MAC and the YANG model does not require one; the apply
  procedure (analysis.configs, APPLY.txt) carries the switch's own over before `config reload`.
- BREAKOUT_CFG: every cage's parent port with the platform's own name of the design's mode (SN5600
  "2x400G[200G,100G,50G,40G,25G,10G]", Dell Z9864F "2x400G(8)", Arista 7060X6 "2x400G").
- PORT: every port of every cage in the design's breakout, with lanes, alias and index from the
  platform, speed, fec rs (IEEE 802.3 RS-FEC, mandatory for the 100G-per-lane and 50G PAM4 rates),
  the class MTU; cabled ports admin up and described by their peer, the others admin down.
- A switch model without platform data gets "<name>.config_db.missing-platform.txt" saying why, or,
  when RoceSettings.sonic_fragment is on, "<name>.config_db.fragment.json": cabled ports only, no
  lanes, no platform or HWSKU, to merge over a running switch with `config load`.
- DSCP_TO_TC_MAP: RoCE DSCP -> the lossless priority, CNP DSCP -> the CNP priority, the rest -> 0;
  TC = priority = queue (TC_TO_QUEUE_MAP, MAP_PFC_PRIORITY_TO_QUEUE identity); lossless TCs keep
  their own priority group, the others share PG 0 (TC_TO_PRIORITY_GROUP_MAP), and a PFC frame
  for a lossless priority pauses that group (PFC_PRIORITY_TO_PRIORITY_GROUP_MAP).
- PORT_QOS_MAP: the maps, PFC on the lossless priorities, PFC watchdog on the same ones.
- Buffers: a lossless PG profile per link class (speed, longest cable; see roce.headroom) with
  xon / xoff / size, lossy PG 0, egress lossless and lossy queue profiles; pools from the switch
  model's own packet buffer B (SwitchHw.buffer_mb, or the user's roce.buffer.switch_buffer_mb):
  R = sum over link classes of (most cabled ports of the class on one switch) x (lossless priorities)
  x (xon + xoff); ingress_lossless_pool = egress_lossy_pool = B - R (dynamic), egress_lossless_pool =
  B (static) (BufferPlan; APPLY.txt writes the figures out, config_db.json has no comments). B unknown:
  no BUFFER_* rows, the platform's own buffer configuration stays.
- WRED_PROFILE per port speed with ECN marking (Kmin/Kmax/Pmax), bound to the lossless queue.
- SCHEDULER/QUEUE: DWRR for data queues, STRICT for the CNP queue.
- PFC_WD on every port of a class with the watchdog on; CABLE_LENGTH per port.
- Routing (engine.roce.routing, the frrcfgd tables of sonic-buildimage's sonic-bgp-global,
  sonic-bgp-neighbor and sonic-device_metadata YANG models): DEVICE_METADATA (hostname, bgp_asn,
  type, frr_mgmt_framework_config so frrcfgd reads the BGP tables), LOOPBACK_INTERFACE (Loopback0
  /32), INTERFACE (every cabled port and its /31), BGP_GLOBALS "default" (local_asn, router_id,
  load_balance_mp_relax), BGP_GLOBALS_AF "default|ipv4_unicast" (max_ebgp_paths),
  ROUTE_REDISTRIBUTE "default|connected|bgp|ipv4", BGP_NEIGHBOR "default|<peer>" (asn, name,
  local_addr, admin_status up) and BGP_NEIGHBOR_AF "default|<peer>|ipv4_unicast" (admin_status
  up: the model's up/down enum) for each switch-to-switch link.
The second NOS (NVUE or EOS) and the server scripts are engine.roce.nos and engine.roce.host.
`roce_configs` is a generator: it holds one device's text at a time, so the largest designs
stream straight into a zip file.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from ..model import Plan
from ..names import port_name_table
from ..safe_text import comment_text
from .headroom import PortHeadroom, link_classes, port_headroom
from .host import host_file_name, host_supported, not_supported_text, server_script
from .nos import nos_for_vendor
from .platform import SonicPlatform, sonic_platform
from .routing import SwitchRouting, switch_routing
from .settings import ClassSettings, RoceSettings

MAP_NAME = "ROCE"
CABLE_KEY = "AZURE"  # SONiC's buffer manager reads the CABLE_LENGTH table under this key
ROLE_CODE = {"server": 0, "leaf": 1, "spine": 2, "core": 3}
# sonic-device_metadata.yang DEVICE_METADATA.type: SONiC calls the server-facing switch a ToR (T0),
# the tier above a LeafRouter (T1) and the one above that a SpineRouter (T2).
SONIC_DEVICE_TYPE = {"leaf": "ToRRouter", "spine": "LeafRouter", "core": "SpineRouter"}
SCHEDULER_DATA = "scheduler.data"
SCHEDULER_ROCE = "scheduler.roce"
SCHEDULER_CNP = "scheduler.cnp"


def roce_configs(plan: Plan, settings: RoceSettings) -> Iterator[tuple[str, str]]:
    """Yield (file name, text), device by device.

    Switches: "<role>/<name>.config_db.json" (SONiC), then the same intent for the switch vendor's own
    NOS when it has a renderer (engine.roce.nos: "<name>.nvue.sh" for NVIDIA, "<name>.eos.cfg" for
    Arista). Servers: "server/<name>.roce.sh", or "server/<name>.not-supported.txt" for a NIC without
    a renderer (engine.roce.host).
    """
    ctx = _Context(plan, settings)
    nic = plan.spec.nic_hw
    supported = host_supported(nic)
    second_nos = {role: nos_for_vendor(plan.spec.switch_hw(role).vendor) for role in ("leaf", "spine", "core")}
    for device in plan.devices:
        if device.role == "server":
            name = host_file_name(device.name, nic)
            yield name, server_script(ctx, device.index) if supported else not_supported_text(ctx, device.index)
        else:
            if ctx.platform[device.role] is not None:
                yield f"{device.role}/{device.name}.config_db.json", ctx.switch_config(device.index)
            elif settings.sonic_fragment:
                yield f"{device.role}/{device.name}.config_db.fragment.json", ctx.switch_config(device.index)
            else:
                yield f"{device.role}/{device.name}.config_db.missing-platform.txt", ctx.missing_platform(device.index)
            nos = second_nos[device.role]
            if nos is not None:
                yield f"{device.role}/{device.name}{nos.suffix}", nos.render(ctx, device.index)


@dataclass(frozen=True, slots=True)
class SonicRole:
    """What the SONiC files of one switch role rest on, for the configs' apply procedure."""

    role: str
    switch: str
    platform: str | None  # None: no platform data (a note, or a fragment when asked)
    platform_source: str
    hwsku: str | None
    breakout: str | None  # the platform's own mode name written to BREAKOUT_CFG
    buffers: "BufferPlan"


def sonic_roles(plan: Plan, settings: RoceSettings) -> list[SonicRole]:
    """Per switch role of the plan: platform, HWSKU, breakout mode name and the buffer pool arithmetic."""
    ctx = _Context(plan, settings)
    out = []
    for role, platform in ctx.platform.items():
        hw = plan.spec.switch_hw(role)
        ppc = max(hw.ports_per_cage, 1)
        mode = hw.breakout or f"{ppc}x{hw.gbps}G"
        out.append(SonicRole(role=role, switch=hw.name or hw.sku or role,
                             platform=platform.platform if platform else None,
                             platform_source=platform.source if platform else "",
                             hwsku=platform.hwsku(mode) if platform else None,
                             breakout=platform.mode_name(mode) if platform else None, buffers=ctx.buffers[role]))
    return out


_ENCODER = json.JSONEncoder(separators=(", ", ": "))


def _j(value) -> str:
    """One JSON value on one line."""
    if isinstance(value, str):
        return _q(value)
    return _ENCODER.encode(value)


def _q(text: str) -> str:
    """A JSON string; engine names need no escaping, anything else goes through the encoder."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return _ENCODER.encode(text)


def _ranges(values: list[int]) -> list[str]:
    """[0, 1, 2, 4, 5, 7] -> ["0-2", "4-5", "7"]"""
    out, start = [], None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            out.append(str(start) if start == v else f"{start}-{v}")
            start = None
    return out


@dataclass(frozen=True, slots=True)
class QosIntent:
    """What every rendering of one switch role carries (SONiC tables, NVUE, EOS): DSCP -> traffic class
    (RoCE and CNP DSCPs to their priorities, every other DSCP to 0), traffic class = queue, PFC on the lossless
    priorities, ECN per port speed (Kmin / Kmax KB, Pmax %) on the lossless queues, the PFC watchdog
    (detection ms, restoration ms, polling ms, action; None = off), the CNP queue and the port MTU."""

    trust: str
    dscp_to_tc: tuple[int, ...]
    tc_to_queue: tuple[int, ...]
    pfc_priorities: tuple[int, ...]
    cnp_queue: int
    cnp_strict: bool
    ecn: dict
    watchdog: tuple[int, int, int, str] | None
    mtu: int


@dataclass(frozen=True, slots=True)
class BufferPlan:
    """The buffer pools of one switch role, and how they were sized.

    total   = the switch model's packet buffer in bytes (`source` "catalog"), or the user's figure
              ("settings"); None when neither is known: no BUFFER_POOL / BUFFER_PROFILE / BUFFER_PG /
              BUFFER_QUEUE rows are written and the platform's own buffer configuration stays in force.
    reserve = per link class (name, most cabled ports of the class on one switch of the role, lossless
              priorities, bytes of one lossless PG = xon + xoff); reserved = sum of ports x priorities x bytes.
    shared  = total - reserved (at least 0): the dynamic ingress lossless and egress lossy pools; the
              egress lossless pool is static at `total`.
    """

    switch: str
    total: int | None
    source: str
    reserve: tuple[tuple[str, int, int, int], ...]

    @property
    def reserved(self) -> int:
        return sum(ports * prios * size for _name, ports, prios, size in self.reserve)

    @property
    def shared(self) -> int | None:
        return None if self.total is None else max(self.total - self.reserved, 0)


class _Context:
    def __init__(self, plan: Plan, settings: RoceSettings) -> None:
        self.plan = plan
        self.s = settings
        links = plan.links
        n_links = len(links)
        # every link end, grouped by device
        dev = np.concatenate([links.a_dev, links.b_dev]).astype(np.int64)
        port = np.concatenate([links.a_port, links.b_port]).astype(np.int64)
        order = np.lexsort((port, dev))
        self.end_link = np.concatenate([np.arange(n_links), np.arange(n_links)])[order]
        self.end_side = np.concatenate([np.zeros(n_links, np.int8), np.ones(n_links, np.int8)])[order]
        self.end_port = port[order]
        counts = np.bincount(dev, minlength=len(plan.devices))
        self.end_start = np.zeros(len(plan.devices) + 1, dtype=np.int64)
        np.cumsum(counts, out=self.end_start[1:])
        self.port_names = port_name_table(plan)
        self.classes = link_classes(plan)
        self.by_tier = {lc.tier: lc for lc in self.classes}
        self.cls = {c: settings.for_class(c) for c in ("nic", "leaf", "spine", "core")}
        self.headroom: dict[str, dict[int, PortHeadroom]] = {}
        for role in ("leaf", "spine", "core"):
            if plan.switches.get(role, 0):
                self.headroom[role] = {h.link_class.tier: h for h in port_headroom(plan, settings, role, self.classes)}
        self._switch_static: dict[str, dict] = {}
        self._breakouts: dict[str, list[tuple[str, str]]] = {}
        roles = [r for r in ("leaf", "spine", "core") if plan.switches.get(r, 0)]
        self.platform: dict[str, SonicPlatform | None] = {r: sonic_platform(plan.spec.switch_hw(r)) for r in roles}
        self.buffers: dict[str, BufferPlan] = {r: self._buffer_plan(r) for r in roles}

    # --- helpers -------------------------------------------------------------------------

    def ends(self, device: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lo, hi = self.end_start[device], self.end_start[device + 1]
        return self.end_port[lo:hi], self.end_link[lo:hi], self.end_side[lo:hi]

    def peer(self, link: int, side: int) -> tuple[str, str]:
        links = self.plan.links
        dev = int(links.b_dev[link] if side == 0 else links.a_dev[link])
        port = int(links.b_port[link] if side == 0 else links.a_port[link])
        d = self.plan.devices[dev]
        return d.name, self.port_names[ROLE_CODE[d.role], port]

    # --- switches ------------------------------------------------------------------------

    def _static(self, role: str) -> dict:
        """Table text shared by every switch of a role (maps, schedulers, WRED, profiles)."""
        if role in self._switch_static:
            return self._switch_static[role]
        s, cs = self.s, self.cls[role]
        lossless = list(cs.pfc_priorities)
        dscp_map = {str(d): "0" for d in range(64)}
        dscp_map[str(s.cnp_dscp)] = str(cs.cnp_priority)
        dscp_map[str(s.roce_dscp)] = str(cs.roce_priority)
        identity = {str(p): str(p) for p in range(8)}
        tables: dict[str, list[tuple[str, str]]] = {}
        tables["DSCP_TO_TC_MAP"] = [(MAP_NAME, _j(dscp_map))]
        if cs.trust == "pcp":
            tables["DOT1P_TO_TC_MAP"] = [(MAP_NAME, _j(identity))]
        tables["TC_TO_QUEUE_MAP"] = [(MAP_NAME, _j(identity))]
        tables["TC_TO_PRIORITY_GROUP_MAP"] = [(MAP_NAME, _j({str(t): str(t) if t in lossless else "0"
                                                             for t in range(8)}))]
        tables["MAP_PFC_PRIORITY_TO_QUEUE"] = [(MAP_NAME, _j(identity))]
        tables["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"] = [(MAP_NAME, _j({str(t): str(t) for t in lossless}))]
        tables["SCHEDULER"] = [(SCHEDULER_DATA, _j({"type": "DWRR", "weight": "40"})),
                               (SCHEDULER_ROCE, _j({"type": "DWRR", "weight": "60"})),
                               (SCHEDULER_CNP, _j({"type": "STRICT"} if cs.cnp_strict_priority
                                                  else {"type": "DWRR", "weight": "40"}))]
        rows = self.headroom[role].values()
        speeds = sorted({h.link_class.gbps for h in rows})
        if cs.ecn_enabled:
            wred = []
            for gbps in speeds:
                t = s.ecn_for(gbps)
                lo, hi, p = str(t.kmin * 1024), str(t.kmax * 1024), str(t.pmax)
                wred.append((f"ROCE_LOSSLESS_{gbps}G", _j({
                    "wred_green_enable": "true", "wred_yellow_enable": "true", "wred_red_enable": "true",
                    "ecn": "ecn_all",
                    "green_min_threshold": lo, "green_max_threshold": hi, "green_drop_probability": p,
                    "yellow_min_threshold": lo, "yellow_max_threshold": hi, "yellow_drop_probability": p,
                    "red_min_threshold": lo, "red_max_threshold": hi, "red_drop_probability": p})))
            tables["WRED_PROFILE"] = wred
        buffers = self.buffers[role]
        if buffers.total is not None:
            total, shared = buffers.total, buffers.shared
            tables["BUFFER_POOL"] = [
                ("ingress_lossless_pool", _j({"type": "ingress", "mode": "dynamic", "size": str(shared)})),
                ("egress_lossless_pool", _j({"type": "egress", "mode": "static", "size": str(total)})),
                ("egress_lossy_pool", _j({"type": "egress", "mode": "dynamic", "size": str(shared)})),
            ]
            tables["BUFFER_PROFILE"] = self._buffer_profiles(role, total)
        lossy_queues = [q for q in range(8) if q not in lossless]
        per_port = {
            "qos": _j({**({"dot1p_to_tc_map": MAP_NAME} if cs.trust == "pcp" else {"dscp_to_tc_map": MAP_NAME}),
                       "tc_to_queue_map": MAP_NAME, "tc_to_pg_map": MAP_NAME, "pfc_to_queue_map": MAP_NAME,
                       "pfc_to_pg_map": MAP_NAME,
                       "pfc_enable": ",".join(map(str, lossless)),
                       **({"pfcwd_sw_enable": ",".join(map(str, lossless))} if cs.pfc_watchdog else {})}),
            "lossless_queues": lossless,
            "lossy_queue_ranges": _ranges(lossy_queues),
            "pfc_wd": _j({"action": s.pfc_watchdog.action, "detection_time": str(s.pfc_watchdog.detection_ms),
                          "restoration_time": str(s.pfc_watchdog.restoration_ms)}),
        }
        self._switch_static[role] = {"tables": tables, "per_port": per_port}
        return self._switch_static[role]

    def qos_intent(self, role: str) -> "QosIntent":
        """The lossless intent of a switch role, the same for every NOS that renders it."""
        s, cs = self.s, self.cls[role]
        dscp = [0] * 64
        dscp[s.cnp_dscp] = cs.cnp_priority
        dscp[s.roce_dscp] = cs.roce_priority
        speeds = sorted({h.link_class.gbps for h in self.headroom[role].values()})
        wd = s.pfc_watchdog
        return QosIntent(trust=cs.trust, dscp_to_tc=tuple(dscp), tc_to_queue=tuple(range(8)),
                         pfc_priorities=tuple(cs.pfc_priorities), cnp_queue=cs.cnp_priority,
                         cnp_strict=cs.cnp_strict_priority,
                         ecn={g: s.ecn_for(g) for g in speeds} if cs.ecn_enabled else {},
                         watchdog=(wd.detection_ms, wd.restoration_ms, wd.poll_ms, wd.action) if cs.pfc_watchdog
                         else None, mtu=cs.mtu)

    def _buffer_profiles(self, role: str, total: int) -> list[tuple[str, str]]:
        profiles = [
            ("ingress_lossy_profile", _j({"pool": "ingress_lossless_pool", "size": "0", "dynamic_th": "3"})),
            ("egress_lossless_profile", _j({"pool": "egress_lossless_pool", "size": "0", "static_th": str(total)})),
            ("egress_lossy_profile", _j({"pool": "egress_lossy_pool", "size": "1518", "dynamic_th": "3"})),
        ]
        seen = set()
        for h in self.headroom[role].values():
            if h.profile in seen:
                continue
            seen.add(h.profile)
            profiles.append((h.profile, _j({"pool": "ingress_lossless_pool", "xon": str(h.xon), "xoff": str(h.xoff),
                                            "size": str(h.size), "dynamic_th": "0"})))
        return profiles

    def _buffer_plan(self, role: str) -> "BufferPlan":
        """The pool arithmetic of a switch role (see BufferPlan)."""
        hw = self.plan.spec.switch_hw(role)
        lossless = max(len(self.cls[role].pfc_priorities), 1)
        ports_by_tier = self._ports_per_tier(role)
        reserve = tuple((self.headroom[role][t].link_class.name, ports_by_tier.get(t, 0), lossless,
                         self.headroom[role][t].size) for t in sorted(self.headroom[role]))
        total = self.s.buffer_bytes(hw)
        source = "settings" if self.s.buffer.switch_buffer_mb is not None else ("catalog" if total is not None else "")
        return BufferPlan(switch=hw.name or hw.sku or role, total=total, source=source, reserve=reserve)

    def _ports_per_tier(self, role: str) -> dict[int, int]:
        """Most cabled ports per link tier on one switch of the role (for the headroom reserve)."""
        out = {}
        for tier in self.headroom[role]:
            mask = self.plan.links.tier == tier
            devs = (self.plan.links.b_dev if (role, tier) in (("leaf", 0), ("spine", 1), ("core", 2))
                    else self.plan.links.a_dev)[mask]
            if len(devs):
                out[tier] = int(np.bincount(devs).max())
        return out

    def _queue_value(self, role: str, q: int, gbps: int) -> str:
        cs = self.cls[role]
        if q in cs.pfc_priorities:
            value = {"scheduler": SCHEDULER_ROCE}
            if cs.ecn_enabled:
                value["wred_profile"] = f"ROCE_LOSSLESS_{gbps}G"
            return _j(value)
        if q == cs.cnp_priority:
            return _j({"scheduler": SCHEDULER_CNP})
        return _j({"scheduler": SCHEDULER_DATA})

    def _breakout_rows(self, role: str, ppc: int) -> list[tuple[str, str]]:
        """BREAKOUT_CFG rows: every cage's parent port and its mode, by the platform's own mode name (without
        platform data, the design's "NxSG" on split cages only)."""
        if role not in self._breakouts:
            hw = self.plan.spec.switch_hw(role)
            platform = self.platform[role]
            names = self.port_names[ROLE_CODE[role]]
            design_mode = hw.breakout or f"{ppc}x{hw.gbps}G"
            mode = platform.mode_name(design_mode) if platform is not None else (design_mode if ppc > 1 else None)
            rows = []
            if mode is not None:
                value = _j({"brkout_mode": mode})
                rows = [(names[cage * ppc], value) for cage in range(hw.ports // ppc)]
            self._breakouts[role] = rows
        return self._breakouts[role]

    def _port_rows(self, role: str, cabled: dict[int, tuple[str, int]], mtu: int) -> list[tuple[str, str]]:
        """PORT rows: with platform data every port of every cage (lanes, alias, index from the platform;
        uncabled ports admin down), else the cabled ports only (a fragment: lanes stay the switch's)."""
        names = self.port_names[ROLE_CODE[role]]
        hw = self.plan.spec.switch_hw(role)
        platform = self.platform[role]
        ppc = max(hw.ports_per_cage, 1)
        rows = []
        if platform is None:
            for port, (peer, gbps) in cabled.items():
                cage, lane = divmod(port, ppc)
                alias = f"etp{cage + 1}" + ("abcdefgh"[lane] if ppc > 1 else "")
                rows.append((names[port], f'{{"alias": {_q(alias)}, "speed": "{gbps * 1000}", "mtu": "{mtu}", '
                                          f'"fec": "rs", "admin_status": "up", "description": {_q(peer)}}}'))
            return rows
        mode = hw.breakout or f"{ppc}x{hw.gbps}G"
        for cage in range(hw.physical_cages):
            for k, sub in enumerate(platform.sub_ports(cage, mode)):
                port = cage * ppc + k
                peer, gbps = cabled.get(port, (None, hw.gbps))
                text = (f'{{"alias": {_q(sub.alias)}, "lanes": "{",".join(map(str, sub.lanes))}", '
                        f'"index": "{sub.index}", "speed": "{gbps * 1000}", "fec": "rs", "mtu": "{mtu}", '
                        f'"admin_status": "{"up" if peer is not None else "down"}"')
                rows.append((names[port], text + (f', "description": {_q(peer)}}}' if peer is not None else "}")))
        return rows

    def missing_platform(self, device: int) -> str:
        """The note a switch without SONiC platform data gets instead of a config_db that would not load."""
        d = self.plan.devices[device]
        hw = self.plan.spec.switch_hw(d.role)
        return "\n".join([
            f"# {comment_text(d.name)}: no SONiC config_db generated.",
            f"# The catalog has no SONiC platform data for {comment_text(hw.name or hw.sku or 'this switch model')}: "
            "its port lanes, HWSKU and breakout mode names",
            "# (sonic-buildimage device/<vendor>/<platform>/platform.json, port_config.ini) are unknown, so a",
            "# config_db.json for it would not load on a freshly installed switch.",
            "# To get a fragment to merge over the switch's running configuration (`config load`), set the RoCE",
            "# setting sonic_fragment to true (Analysis > RoCE > Change RoCE settings > SONiC config_db).",
            "",
        ])

    def switch_config(self, device: int) -> str:
        d = self.plan.devices[device]
        role = d.role
        cs: ClassSettings = self.cls[role]
        static = self._static(role)
        per_port = static["per_port"]
        ports, links, sides = self.ends(device)
        tiers = self.plan.links.tier[links]
        names = self.port_names[ROLE_CODE[role]]
        ppc = max(d.ports_per_cage, 1)
        cable_rows, qos_rows, queue_rows, pg_rows, bq_rows, wd_rows = [], [], [], [], [], []
        cabled: dict[int, tuple[str, int]] = {}
        queue_cache: dict[tuple[int, int], str] = {}
        for port, link, side, tier in zip(ports.tolist(), links.tolist(), sides.tolist(), tiers.tolist()):
            name = names[port]
            h = self.headroom[role][tier]
            gbps = h.link_class.gbps
            peer_dev, peer_port = self.peer(link, side)
            cabled[port] = (f"{peer_dev}:{peer_port}", gbps)
            cable_rows.append((name, f"{h.link_class.cable_m}m"))
            qos_rows.append((name, per_port["qos"]))
            for q in range(8):
                key = (q, gbps)
                if key not in queue_cache:
                    queue_cache[key] = self._queue_value(role, q, gbps)
                queue_rows.append((f"{name}|{q}", queue_cache[key]))
            pg_rows.append((f"{name}|0", '{"profile": "ingress_lossy_profile"}'))
            for q in per_port["lossless_queues"]:
                pg_rows.append((f"{name}|{q}", f'{{"profile": {_q(h.profile)}}}'))
                bq_rows.append((f"{name}|{q}", '{"profile": "egress_lossless_profile"}'))
            for r in per_port["lossy_queue_ranges"]:
                bq_rows.append((f"{name}|{r}", '{"profile": "egress_lossy_profile"}'))
            if cs.pfc_watchdog:
                wd_rows.append((name, per_port["pfc_wd"]))
        platform = self.platform[role]
        metadata = {"hostname": d.name, "bgp_asn": str(d.asn), "type": SONIC_DEVICE_TYPE[role],
                    "frr_mgmt_framework_config": "true"}
        if platform is not None:
            hw = self.plan.spec.switch_hw(role)
            metadata.update(hwsku=platform.hwsku(hw.breakout or f"{ppc}x{hw.gbps}G"), platform=platform.platform)
        tables: list[tuple[str, list[tuple[str, str]]]] = [("DEVICE_METADATA", [("localhost", _j(metadata))])]
        breakouts = self._breakout_rows(role, ppc)
        if breakouts:
            tables.append(("BREAKOUT_CFG", breakouts))
        tables += [("PORT", self._port_rows(role, cabled, cs.mtu)), ("CABLE_LENGTH", [])]
        tables += self._routing_tables(device)
        tables += list(static["tables"].items())
        tables += [("PORT_QOS_MAP", qos_rows), ("QUEUE", queue_rows)]
        if self.buffers[role].total is not None:  # unsized pools: the platform's own buffer tables stay in force
            tables += [("BUFFER_PG", pg_rows), ("BUFFER_QUEUE", bq_rows)]
        if cs.pfc_watchdog:
            wd_rows.insert(0, ("GLOBAL", _j({"POLL_INTERVAL": str(self.s.pfc_watchdog.poll_ms)})))
            tables.append(("PFC_WD", wd_rows))
        out = ["{"]
        for t, (table, rows) in enumerate(tables):
            if table == "CABLE_LENGTH":
                body = ",\n".join(f"            {_q(k)}: {_q(v)}" for k, v in cable_rows)
                out.append(f'    "CABLE_LENGTH": {{\n        "{CABLE_KEY}": {{\n{body}\n        }}\n    }}')
            else:
                body = ",\n".join(f"        {_q(k)}: {v}" for k, v in rows)
                out.append(f"    {_j(table)}: {{\n{body}\n    }}" if rows else f"    {_j(table)}: {{}}")
            if t + 1 < len(tables):
                out[-1] += ","
        out.append("}")
        return "\n".join(out) + "\n"

    def routing(self, device: int) -> SwitchRouting:
        """The switch's routing intent; the last one is kept, as its second NOS file follows its config_db."""
        cached = getattr(self, "_routing_last", None)
        if cached is not None and cached[0] == device:
            return cached[1]
        gbps = {lc.tier: lc.gbps for lc in self.classes}
        routing = switch_routing(self.plan, device, self.ends(device), self.port_names, gbps)
        self._routing_last = (device, routing)
        return routing

    def _routing_tables(self, device: int) -> list[tuple[str, list[tuple[str, str]]]]:
        """Loopback, routed ports and eBGP (frrcfgd's tables, sonic-bgp-global / -neighbor YANG)."""
        r = self.routing(device)
        interface_rows: list[tuple[str, str]] = []
        for p in r.ports:
            interface_rows += [(p.name, "{}"), (f"{p.name}|{p.address}/31", "{}")]
        neighbor_rows = [(f"default|{p.peer_address}", _j({
            "asn": str(p.peer_asn), "name": p.peer_device, "local_addr": p.address, "admin_status": "up"}))
            for p in r.neighbors]
        neighbor_af_rows = [(f"default|{p.peer_address}|ipv4_unicast", '{"admin_status": "up"}')
                            for p in r.neighbors]
        return [
            ("LOOPBACK_INTERFACE", [("Loopback0", "{}"), (f"Loopback0|{r.loopback}/32", "{}")]),
            ("INTERFACE", interface_rows),
            ("BGP_GLOBALS", [("default", _j({"local_asn": str(r.asn), "router_id": r.loopback,
                                             "load_balance_mp_relax": "true"}))]),
            ("BGP_GLOBALS_AF", [("default|ipv4_unicast", _j({"max_ebgp_paths": str(r.max_paths)}))]),
            ("ROUTE_REDISTRIBUTE", [("default|connected|bgp|ipv4", "{}")]),
            ("BGP_NEIGHBOR", neighbor_rows),
            ("BGP_NEIGHBOR_AF", neighbor_af_rows),
        ]
