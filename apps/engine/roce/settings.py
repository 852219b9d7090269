"""RoCE lossless settings of one design: what the user may change, with sane defaults.

Rules implemented here:
- One PFC (lossless) priority carries RoCE (default 3); RoCE packets are marked DSCP 26 and
  mapped to it. CNPs (DCQCN congestion notifications) are DSCP 48 on priority 6, a separate,
  lossy, strict-priority queue so they overtake the data they throttle.
- ECN marking thresholds (WRED with ECN, Kmin/Kmax in KB, Pmax in %) are set per port speed,
  because the queue that represents "a few microseconds of congestion" grows with line rate.
- Per-device-class overrides ("nic", "leaf", "spine", "core") let a user express what a
  real network may have (a NIC trusting PCP, a spine at MTU 1500); the checklist flags them.
- `RoceSettings.from_dict` accepts partial user JSON over the defaults and checks every field
  on its own (type and absolute range), raising SpecError with dotted names such as
  "roce.ecn.400.kmin". Cross-field consistency (Kmin above Kmax, ...) is left to the checklist,
  which explains the fix instead of refusing the input.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from ..spec import SpecError

DEVICE_CLASSES = ("nic", "leaf", "spine", "core")
SWITCH_CLASSES = ("leaf", "spine", "core")
TRUST_MODES = ("dscp", "pcp")
ROCE_MTUS = (256, 512, 1024, 2048, 4096)
PFC_WD_ACTIONS = ("drop", "forward", "alert")
PREFIX = "roce"


@dataclass(frozen=True, slots=True)
class EcnThresholds:
    """WRED/ECN marking on the lossless queue: no marks below `kmin` KB of queue, a linear
    ramp to `pmax` % at `kmax` KB, every packet marked above it."""

    kmin: int
    kmax: int
    pmax: int


def _default_ecn() -> dict[int, EcnThresholds]:
    # Kmin = 1 KB per Gbps (about 8 us of queue at line rate), Kmax = 4 x Kmin, Pmax 20 %.
    return {gbps: EcnThresholds(kmin=gbps, kmax=4 * gbps, pmax=20) for gbps in (100, 200, 400, 800)}


@dataclass(frozen=True, slots=True)
class Dcqcn:
    """DCQCN on ConnectX NICs; names and units are those of the mlx5 sysfs knobs
    (/sys/class/net/<if>/ecn/roce_rp|roce_np/<name>): times in microseconds, rates in Mbps.
    Defaults are the ConnectX firmware defaults."""

    rp_enable: bool = True  # reaction point: the sender lowers its rate on CNPs
    np_enable: bool = True  # notification point: the receiver answers ECN marks with CNPs
    min_time_between_cnps: int = 4
    rate_reduce_monitor_period: int = 4
    initial_alpha_value: int = 1023
    dce_tcp_g: int = 1019
    dce_tcp_rtt: int = 1
    rpg_time_reset: int = 300
    rpg_byte_reset: int = 32767
    rpg_threshold: int = 1
    rpg_ai_rate: int = 5
    rpg_hai_rate: int = 50
    rpg_gd: int = 11
    rpg_min_dec_fac: int = 50
    rpg_min_rate: int = 1
    rpg_max_rate: int = 0  # 0 = line rate
    rate_to_set_on_first_cnp: int = 0
    clamp_tgt_rate: bool = False
    clamp_tgt_rate_after_time_inc: bool = True


# (min, max) per integer DCQCN knob, as the firmware accepts them.
DCQCN_RANGES: dict[str, tuple[int, int]] = {
    "min_time_between_cnps": (0, 4095),
    "rate_reduce_monitor_period": (1, 65535),
    "initial_alpha_value": (0, 1023),
    "dce_tcp_g": (0, 1023),
    "dce_tcp_rtt": (1, 65535),
    "rpg_time_reset": (1, 65535),
    "rpg_byte_reset": (0, 32767),
    "rpg_threshold": (1, 31),
    "rpg_ai_rate": (1, 100_000),
    "rpg_hai_rate": (1, 100_000),
    "rpg_gd": (1, 15),
    "rpg_min_dec_fac": (1, 100),
    "rpg_min_rate": (1, 800_000),
    "rpg_max_rate": (0, 800_000),
    "rate_to_set_on_first_cnp": (0, 800_000),
}


@dataclass(frozen=True, slots=True)
class PfcWatchdog:
    """PFC storm watchdog on switch ports (SONiC PFC_WD): a queue paused longer than
    `detection_ms` gets `action` until `restoration_ms` without pauses."""

    enabled: bool = True
    detection_ms: int = 200
    restoration_ms: int = 200
    poll_ms: int = 200
    action: str = "drop"


@dataclass(frozen=True, slots=True)
class BufferSettings:
    """Inputs of the PFC headroom formula (see roce.headroom) and of the buffer pools."""

    cell_bytes: int = 256  # ASIC buffer cell; headroom is rounded up to whole cells
    # Packet buffer per switch ASIC in MiB when the user states one; None (the default): each switch model's
    # own published figure (SwitchHw.buffer_mb), see buffer_bytes().
    switch_buffer_mb: float | None = None
    propagation_ns_per_m: float = 5.0  # light in fibre or copper, ~2/3 c
    interface_delay_ns: int = 250  # PHY + MAC + FEC, one traversal of one link end pair
    pfc_response_ns: int = 500  # peer: PFC frame received -> transmission stopped
    pfc_frame_bytes: int = 64


@dataclass(frozen=True, slots=True)
class ClassOverride:
    """What one device class does differently from the design-wide settings (None = inherit)."""

    trust: str | None = None
    pfc_priorities: tuple[int, ...] | None = None
    roce_priority: int | None = None  # priority the RoCE DSCP maps to on this class
    cnp_priority: int | None = None  # priority the CNP DSCP maps to on this class
    cnp_strict_priority: bool | None = None
    mtu: int | None = None  # switch port MTU, or the host netdev MTU for "nic"
    ecn_enabled: bool | None = None  # switches mark, NICs react (DCQCN) when enabled
    pfc_watchdog: bool | None = None  # switches only
    headroom_kb: int | None = None  # switches only: fixed PG headroom instead of the computed one


@dataclass(frozen=True, slots=True)
class ClassSettings:
    """Settings in force on one device class after overrides are applied."""

    device_class: str
    trust: str
    pfc_priorities: tuple[int, ...]
    roce_priority: int
    cnp_priority: int
    cnp_strict_priority: bool
    mtu: int
    ecn_enabled: bool
    pfc_watchdog: bool
    headroom_kb: int | None


@dataclass(frozen=True, slots=True)
class RoceSettings:
    """RoCE v2 lossless settings of a design. Defaults are a consistent, conservative set."""

    pfc_priority: int = 3
    roce_dscp: int = 26
    cnp_dscp: int = 48
    cnp_priority: int = 6
    cnp_strict_priority: bool = True
    trust: str = "dscp"
    mtu: int = 9100  # switch port IP MTU (SONiC PORT mtu; frames on the wire are 18 bytes longer)
    nic_mtu: int = 9000  # host netdev (IP) MTU
    roce_mtu: int = 4096  # RDMA path MTU (IB MTU enum)
    ecn_enabled: bool = True
    ecn: dict[int, EcnThresholds] = field(default_factory=_default_ecn)
    dcqcn: Dcqcn = field(default_factory=Dcqcn)
    pfc_watchdog: PfcWatchdog = field(default_factory=PfcWatchdog)
    buffer: BufferSettings = field(default_factory=BufferSettings)
    overrides: dict[str, ClassOverride] = field(default_factory=dict)
    # A switch model without SONiC platform data (engine.roce.platform) gets a config_db fragment only when
    # asked (true): a file to merge over a running switch's config, not one that loads on its own.
    sonic_fragment: bool = False

    @property
    def lossless_priorities(self) -> tuple[int, ...]:
        """Priorities that must be lossless on every hop: the RoCE data priority."""
        return (self.pfc_priority,)

    def for_class(self, device_class: str) -> ClassSettings:
        if device_class not in DEVICE_CLASSES:
            raise ValueError(f"unknown device class {device_class!r}")
        o = self.overrides.get(device_class) or ClassOverride()

        def pick(value, default):
            return default if value is None else value

        is_nic = device_class == "nic"
        return ClassSettings(
            device_class=device_class,
            trust=pick(o.trust, self.trust),
            pfc_priorities=tuple(sorted(set(pick(o.pfc_priorities, self.lossless_priorities)))),
            roce_priority=pick(o.roce_priority, self.pfc_priority),
            cnp_priority=pick(o.cnp_priority, self.cnp_priority),
            cnp_strict_priority=pick(o.cnp_strict_priority, self.cnp_strict_priority),
            mtu=pick(o.mtu, self.nic_mtu if is_nic else self.mtu),
            ecn_enabled=pick(o.ecn_enabled, self.ecn_enabled),
            pfc_watchdog=False if is_nic else pick(o.pfc_watchdog, self.pfc_watchdog.enabled),
            headroom_kb=None if is_nic else o.headroom_kb,
        )

    def buffer_bytes(self, hw) -> int | None:
        """The packet buffer of switch model `hw` in bytes: the user's figure, else the model's; None if neither."""
        mb = self.buffer.switch_buffer_mb
        if mb is None:
            mb = getattr(hw, "buffer_mb", None)
        return None if mb is None else int(round(mb * 1024 * 1024))

    def ecn_for(self, gbps: int) -> EcnThresholds:
        """Thresholds for a port speed; a speed without its own entry scales the nearest one."""
        if gbps in self.ecn:
            return self.ecn[gbps]
        if not self.ecn:
            return EcnThresholds(kmin=gbps, kmax=4 * gbps, pmax=20)
        near = min(self.ecn, key=lambda s: (abs(s - gbps), -s))
        t = self.ecn[near]
        k = gbps / near
        return EcnThresholds(kmin=max(1, round(t.kmin * k)), kmax=max(1, round(t.kmax * k)), pmax=t.pmax)

    # --- JSON round trip ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict; `from_dict(to_dict(s)) == s`."""
        return {
            "pfc_priority": self.pfc_priority,
            "roce_dscp": self.roce_dscp,
            "cnp_dscp": self.cnp_dscp,
            "cnp_priority": self.cnp_priority,
            "cnp_strict_priority": self.cnp_strict_priority,
            "trust": self.trust,
            "mtu": self.mtu,
            "nic_mtu": self.nic_mtu,
            "roce_mtu": self.roce_mtu,
            "ecn_enabled": self.ecn_enabled,
            "ecn": {
                str(gbps): {"kmin": t.kmin, "kmax": t.kmax, "pmax": t.pmax} for gbps, t in sorted(self.ecn.items())
            },
            "dcqcn": _plain(self.dcqcn),
            "pfc_watchdog": _plain(self.pfc_watchdog),
            "buffer": _plain(self.buffer),
            "sonic_fragment": self.sonic_fragment,
            "overrides": {
                cls: {k: (list(v) if isinstance(v, tuple) else v) for k, v in _plain(o).items() if v is not None}
                for cls, o in sorted(self.overrides.items())
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "RoceSettings":
        """Build settings from (partial) user JSON over the defaults; SpecError on bad fields."""
        return _Parser().parse(data)


_CLEARED = object()  # an optional field the user emptied: None, told apart from "invalid"


def _ascii(value: Any) -> bool:
    return not isinstance(value, str) or value.isascii()


def _plain(obj) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


class _Parser:
    """Field-by-field validation collecting every error before raising one SpecError."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def error(self, path: str, message: str) -> None:
        self.errors.setdefault(path, []).append(message)

    # primitive checks: each returns the value or None (after recording an error)
    def integer(self, path: str, value: Any, lo: int, hi: int) -> int | None:
        # ASCII digits only: float() also reads Arabic-Indic and full-width digits.
        if isinstance(value, bool) or not isinstance(value, (int, float, str)) or not _ascii(value):
            self.error(path, "Enter a whole number.")
            return None
        try:
            number = float(value)
        except (ValueError, OverflowError):  # OverflowError: an integer past the float range
            self.error(path, "Enter a whole number.")
            return None
        if not math.isfinite(number) or number != int(number):
            self.error(path, "Enter a whole number.")
            return None
        number = int(number)
        if not lo <= number <= hi:
            self.error(path, f"Must be between {lo} and {hi}.")
            return None
        return number

    def decimal(self, path: str, value: Any, lo: float, hi: float) -> float | None:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)) or not _ascii(value):
            self.error(path, "Enter a number.")
            return None
        try:
            number = float(value)
        except (ValueError, OverflowError):  # OverflowError: an integer past the float range
            self.error(path, "Enter a number.")
            return None
        if not math.isfinite(number) or not lo <= number <= hi:
            self.error(path, f"Must be between {lo:g} and {hi:g}.")
            return None
        return number

    def optional(self, path: str, value: Any, check) -> Any:
        """None or "" (cleared) stays None; anything else goes through `check`."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return _CLEARED
        return check(path, value)

    def boolean(self, path: str, value: Any) -> bool | None:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        self.error(path, "Must be true or false.")
        return None

    def choice(self, path: str, value: Any, choices: tuple) -> Any:
        if value in choices and not isinstance(value, bool):
            return value
        text = value.strip() if isinstance(value, str) else ""
        # ASCII digits only: "²" is a digit to str.isdigit() but not to int(); long strings exceed int()'s limit.
        if text.isascii() and text.isdigit() and len(text) <= 12 and int(text) in choices:
            return int(text)
        self.error(path, f"Must be one of {', '.join(str(c) for c in choices)}.")
        return None

    def mapping(self, path: str, value: Any) -> Mapping[str, Any] | None:
        if isinstance(value, Mapping):
            return value
        self.error(path, "Must be an object.")
        return None

    def unknown(self, path: str, data: Mapping[str, Any], known) -> None:
        for key in data:
            if key not in known:
                self.error(f"{path}.{key}", "Unknown setting.")

    # sections
    def parse(self, data: Mapping[str, Any] | None) -> RoceSettings:
        base = RoceSettings()
        if data is None:
            return base
        data = self.mapping(PREFIX, data)
        if data is None:
            raise SpecError(self.errors)
        simple = {
            "pfc_priority": lambda p, v: self.integer(p, v, 0, 7),
            "roce_dscp": lambda p, v: self.integer(p, v, 0, 63),
            "cnp_dscp": lambda p, v: self.integer(p, v, 0, 63),
            "cnp_priority": lambda p, v: self.integer(p, v, 0, 7),
            "cnp_strict_priority": self.boolean,
            "trust": lambda p, v: self.choice(p, v, TRUST_MODES),
            "mtu": lambda p, v: self.integer(p, v, 576, 9216),
            "nic_mtu": lambda p, v: self.integer(p, v, 576, 9216),
            "roce_mtu": lambda p, v: self.choice(p, v, ROCE_MTUS),
            "ecn_enabled": self.boolean,
            "sonic_fragment": self.boolean,
        }
        sections = {
            "ecn": self.ecn,
            "dcqcn": self.dcqcn,
            "pfc_watchdog": self.pfc_watchdog,
            "buffer": self.buffer,
            "overrides": self.overrides,
        }
        self.unknown(PREFIX, data, set(simple) | set(sections))
        values: dict[str, Any] = {}
        for name, check in simple.items():
            if name in data:
                values[name] = check(f"{PREFIX}.{name}", data[name])
        for name, parse in sections.items():
            if name in data:
                values[name] = parse(f"{PREFIX}.{name}", data[name], getattr(base, name))
        if self.errors:
            raise SpecError(self.errors)
        return replace(base, **values)

    def ecn(self, path: str, value: Any, current: dict[int, EcnThresholds]) -> dict[int, EcnThresholds] | None:
        value = self.mapping(path, value)
        if value is None:
            return None
        result = dict(current)
        for key, entry in value.items():
            speed_path = f"{path}.{key}"
            gbps = self.integer(speed_path, key, 1, 3200)
            if gbps is None:
                continue
            if entry is None:  # null removes the speed's own thresholds
                result.pop(gbps, None)
                continue
            entry = self.mapping(speed_path, entry)
            if entry is None:
                continue
            self.unknown(speed_path, entry, ("kmin", "kmax", "pmax"))
            old = result.get(gbps)
            parts = {}
            for part, hi in (("kmin", 1_000_000), ("kmax", 1_000_000), ("pmax", 100)):
                if part in entry:
                    parts[part] = self.integer(f"{speed_path}.{part}", entry[part], 0, hi)
                elif old is None:
                    self.error(f"{speed_path}.{part}", "Required for a new port speed.")
            if None in parts.values() or (old is None and len(parts) < 3):
                continue
            result[gbps] = replace(old, **parts) if old else EcnThresholds(**parts)
        return result

    def _section(self, path: str, value: Any, current, checks: dict) -> Any:
        value = self.mapping(path, value)
        if value is None:
            return None
        self.unknown(path, value, checks)
        parts = {}
        for name, check in checks.items():
            if name in value:
                parts[name] = check(f"{path}.{name}", value[name])
        if None in parts.values():
            return None
        return replace(current, **{k: (None if v is _CLEARED else v) for k, v in parts.items()})

    def dcqcn(self, path: str, value: Any, current: Dcqcn) -> Dcqcn | None:
        checks: dict[str, Any] = {name: self.boolean for name in ("rp_enable", "np_enable", "clamp_tgt_rate",
                                                                   "clamp_tgt_rate_after_time_inc")}
        for name, (lo, hi) in DCQCN_RANGES.items():
            checks[name] = lambda p, v, lo=lo, hi=hi: self.integer(p, v, lo, hi)
        return self._section(path, value, current, checks)

    def pfc_watchdog(self, path: str, value: Any, current: PfcWatchdog) -> PfcWatchdog | None:
        return self._section(path, value, current, {
            "enabled": self.boolean,
            "detection_ms": lambda p, v: self.integer(p, v, 100, 5000),
            "restoration_ms": lambda p, v: self.integer(p, v, 100, 60000),
            "poll_ms": lambda p, v: self.integer(p, v, 10, 1000),
            "action": lambda p, v: self.choice(p, v, PFC_WD_ACTIONS),
        })

    def buffer(self, path: str, value: Any, current: BufferSettings) -> BufferSettings | None:
        return self._section(path, value, current, {
            "cell_bytes": lambda p, v: self.integer(p, v, 1, 4096),
            "switch_buffer_mb": lambda p, v: self.optional(p, v, lambda p2, v2: self.decimal(p2, v2, 1, 4096)),
            "propagation_ns_per_m": lambda p, v: self.decimal(p, v, 3, 10),
            "interface_delay_ns": lambda p, v: self.integer(p, v, 0, 100_000),
            "pfc_response_ns": lambda p, v: self.integer(p, v, 0, 100_000),
            "pfc_frame_bytes": lambda p, v: self.integer(p, v, 64, 1522),
        })

    def priorities(self, path: str, value: Any) -> tuple[int, ...] | None:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            self.error(path, "Must be a list of priorities 0-7.")
            return None
        out = [self.integer(f"{path}.{i}", v, 0, 7) for i, v in enumerate(value)]
        if None in out:
            return None
        return tuple(sorted(set(out)))

    def overrides(self, path: str, value: Any, current: dict[str, ClassOverride]) -> dict[str, ClassOverride] | None:
        value = self.mapping(path, value)
        if value is None:
            return None
        result = dict(current)
        for cls_name, entry in value.items():
            cls_path = f"{path}.{cls_name}"
            if cls_name not in DEVICE_CLASSES:
                self.error(cls_path, f"Unknown device class; use one of {', '.join(DEVICE_CLASSES)}.")
                continue
            if entry is None:
                result.pop(cls_name, None)
                continue
            checks: dict[str, Any] = {
                "trust": lambda p, v: self.choice(p, v, TRUST_MODES),
                "pfc_priorities": self.priorities,
                "roce_priority": lambda p, v: self.integer(p, v, 0, 7),
                "cnp_priority": lambda p, v: self.integer(p, v, 0, 7),
                "cnp_strict_priority": self.boolean,
                "mtu": lambda p, v: self.integer(p, v, 576, 9216),
                "ecn_enabled": self.boolean,
                "pfc_watchdog": self.boolean,
                "headroom_kb": lambda p, v: self.integer(p, v, 0, 100_000),
            }
            entry = self.mapping(cls_path, entry)
            if entry is None:
                continue
            entry = dict(entry)
            if cls_name == "nic":
                for switch_only in ("pfc_watchdog", "headroom_kb"):
                    if switch_only in entry:
                        if entry.pop(switch_only) is not None:
                            self.error(f"{cls_path}.{switch_only}", "Applies to switches only.")
                        checks.pop(switch_only)
            base = result.get(cls_name) or ClassOverride()
            # an explicit null clears one override field
            cleared = {k: None for k, v in entry.items() if v is None and k in checks}
            parsed = self._section(cls_path, {k: v for k, v in entry.items() if k not in cleared}, base, checks)
            if parsed is not None:
                result[cls_name] = replace(parsed, **cleared)
        return result
