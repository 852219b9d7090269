"""The "Change RoCE settings" form: every setting as an input named by its API path ("roce.ecn.400.kmin").

Rules:
- Inputs are named exactly like the service's field errors, so an error lands on its input; an
  error on a deeper path ("roce.overrides.nic.pfc_priorities.0") lands on the nearest input, and
  one on no input (an inactive catalog part, say) above the form.
- The form is prefilled with the viewed version's settings in force. A blank input means the
  default (design-wide settings) or, for a device class, "as the design" (no override).
- Values go to the service as typed; the engine checks them (one set of messages for the API and
  the form). Booleans are selects ("true"/"false"), so an unchanged form posts every value.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from apps.engine.roce import DEVICE_CLASSES, RoceSettings
from apps.engine.roce.settings import DCQCN_RANGES, PFC_WD_ACTIONS, ROCE_MTUS, TRUST_MODES

from .text import class_label, watchdog_action_label

PREFIX = "roce"


@dataclass
class FormField:
    name: str  # full input name, e.g. "roce.ecn.400.kmin"
    label: Any
    kind: str = "int"  # int, number, bool, choice, priorities
    value: str = ""
    choices: list[tuple[str, Any]] = field(default_factory=list)
    help: Any = ""
    errors: list[str] = field(default_factory=list)
    blank_label: Any = ""  # for selects that may stay blank (overrides)

    @property
    def input_id(self) -> str:
        return "id_" + self.name.replace(".", "-")


@dataclass
class FormSection:
    key: str
    title: Any
    fields: list[FormField]
    help: Any = ""


@dataclass
class RoceForm:
    sections: list[FormSection]
    ecn_rows: list[tuple[int, list[FormField]]]  # per port speed: kmin, kmax, pmax
    override_rows: list[tuple[str, Any, list[FormField | None]]]  # per device class
    override_columns: list[Any]
    errors: list[str] = field(default_factory=list)  # errors on no input

    def all_fields(self) -> list[FormField]:
        out = [f for section in self.sections for f in section.fields]
        out += [f for _, row in self.ecn_rows for f in row]
        out += [f for _, _, row in self.override_rows for f in row if f is not None]
        return out

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(f.errors for f in self.all_fields())


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


BOOL_CHOICES = [("true", _("on")), ("false", _("off"))]
DCQCN_LABELS = {
    "rp_enable": _("Reaction point (sender slows down on CNPs)"),
    "np_enable": _("Notification point (receiver sends CNPs)"),
    "clamp_tgt_rate": _("Clamp target rate"),
    "clamp_tgt_rate_after_time_inc": _("Clamp target rate after time increase"),
    "min_time_between_cnps": _("Min time between CNPs (µs)"),
    "rate_reduce_monitor_period": _("Rate reduce monitor period (µs)"),
    "initial_alpha_value": _("Initial alpha"),
    "dce_tcp_g": _("DCE TCP g"),
    "dce_tcp_rtt": _("DCE TCP RTT (µs)"),
    "rpg_time_reset": _("Rate increase timer (µs)"),
    "rpg_byte_reset": _("Rate increase byte counter"),
    "rpg_threshold": _("Rate increase threshold"),
    "rpg_ai_rate": _("Additive increase rate (Mb/s)"),
    "rpg_hai_rate": _("Hyper increase rate (Mb/s)"),
    "rpg_gd": _("Rate decrease factor (gd)"),
    "rpg_min_dec_fac": _("Min decrease factor (%)"),
    "rpg_min_rate": _("Min rate (Mb/s)"),
    "rpg_max_rate": _("Max rate (Mb/s, 0 = line rate)"),
    "rate_to_set_on_first_cnp": _("Rate on first CNP (Mb/s, 0 = none)"),
}
BUFFER_LABELS = {
    "cell_bytes": (_("Buffer cell (bytes)"), "int"),
    "switch_buffer_mb": (_("Switch packet buffer (MiB; empty: each switch model's own)"), "number"),
    "propagation_ns_per_m": (_("Propagation delay (ns per m)"), "number"),
    "interface_delay_ns": (_("PHY/MAC/FEC delay per link end (ns)"), "int"),
    "pfc_response_ns": (_("PFC response time of the peer (ns)"), "int"),
    "pfc_frame_bytes": (_("PFC frame (bytes)"), "int"),
}
ECN_LABELS = {
    "kmin": _("Kmin at %(gbps)sG (KB)"),
    "kmax": _("Kmax at %(gbps)sG (KB)"),
    "pmax": _("Pmax at %(gbps)sG (%%)"),
}
OVERRIDE_COLUMNS = (
    ("trust", _("Trust"), "choice"),
    ("pfc_priorities", _("PFC priorities"), "priorities"),
    ("roce_priority", _("RoCE priority"), "int"),
    ("cnp_priority", _("CNP priority"), "int"),
    ("cnp_strict_priority", _("CNP strict"), "bool"),
    ("mtu", _("MTU"), "int"),
    ("ecn_enabled", _("ECN"), "bool"),
    ("pfc_watchdog", _("PFC watchdog"), "bool"),
    ("headroom_kb", _("Headroom (KB)"), "int"),
)
SWITCH_ONLY = ("pfc_watchdog", "headroom_kb")


def roce_form_build(*, settings: RoceSettings, data: dict[str, Any] | None = None,
                    errors: dict[str, list[str]] | None = None) -> RoceForm:
    """The form prefilled from `settings`, or with posted `data` and the service's `errors`."""
    s = settings.to_dict()

    def f(path: str, label: Any, kind: str = "int", value: Any = None, **extra) -> FormField:
        name = f"{PREFIX}.{path}"
        shown = data.get(name, "") if data is not None else _text(value)
        return FormField(name=name, label=label, kind=kind, value=str(shown), **extra)

    sections = [
        FormSection("priorities", _("Priorities and DSCP"), [
            f("pfc_priority", _("PFC (lossless) priority"), value=s["pfc_priority"], help=_("0-7; RoCE data rides it")),
            f("roce_dscp", _("RoCE DSCP"), value=s["roce_dscp"], help=_("0-63")),
            f("cnp_dscp", _("CNP DSCP"), value=s["cnp_dscp"], help=_("0-63")),
            f("cnp_priority", _("CNP priority"), value=s["cnp_priority"], help=_("0-7; not the PFC priority")),
            f("cnp_strict_priority", _("CNP queue strict priority"), "bool", s["cnp_strict_priority"],
              choices=BOOL_CHOICES),
            f("trust", _("Trust mode"), "choice", s["trust"], choices=[(m, m.upper()) for m in TRUST_MODES]),
        ]),
        FormSection("mtu", _("MTU"), [
            f("mtu", _("Switch port MTU"), value=s["mtu"], help=_("576-9216")),
            f("nic_mtu", _("NIC MTU (netdev)"), value=s["nic_mtu"], help=_("576-9216")),
            f("roce_mtu", _("RoCE path MTU"), "choice", s["roce_mtu"], choices=[(str(m), str(m)) for m in ROCE_MTUS]),
        ]),
        FormSection("ecn", _("ECN marking"), [
            f("ecn_enabled", _("ECN marking on switches, DCQCN on NICs"), "bool", s["ecn_enabled"],
              choices=BOOL_CHOICES),
        ], help=_("Per port speed: no marks below Kmin KB of queue, a linear ramp to Pmax % at Kmax KB.")),
        FormSection("dcqcn", _("DCQCN on the NICs"), [
            f(f"dcqcn.{name}", label, "bool" if isinstance(s["dcqcn"][name], bool) else "int", s["dcqcn"][name],
              choices=BOOL_CHOICES if isinstance(s["dcqcn"][name], bool) else [],
              help="" if isinstance(s["dcqcn"][name], bool) else "%s-%s" % DCQCN_RANGES.get(name, ("", "")))
            for name, label in DCQCN_LABELS.items() if name in s["dcqcn"]
        ]),
        FormSection("pfc_watchdog", _("PFC watchdog"), [
            f("pfc_watchdog.enabled", _("PFC watchdog"), "bool", s["pfc_watchdog"]["enabled"], choices=BOOL_CHOICES),
            f("pfc_watchdog.detection_ms", _("Detection time (ms)"), value=s["pfc_watchdog"]["detection_ms"],
              help=_("100-5000")),
            f("pfc_watchdog.restoration_ms", _("Restoration time (ms)"), value=s["pfc_watchdog"]["restoration_ms"],
              help=_("100-60000")),
            f("pfc_watchdog.poll_ms", _("Polling interval (ms)"), value=s["pfc_watchdog"]["poll_ms"],
              help=_("10-1000")),
            f("pfc_watchdog.action", _("Action on a storm"), "choice", s["pfc_watchdog"]["action"],
              choices=[(a, watchdog_action_label(a)) for a in PFC_WD_ACTIONS]),
        ]),
        FormSection("buffer", _("Buffers and headroom inputs"), [
            f(f"buffer.{name}", label, kind, s["buffer"][name]) for name, (label, kind) in BUFFER_LABELS.items()
        ]),
        FormSection("sonic", _("SONiC config_db"), [
            f("sonic_fragment", _("Fragment for switches without SONiC platform data"), "bool", s["sonic_fragment"],
              choices=BOOL_CHOICES),
        ], help=_("Without the platform's port lanes, HWSKU and breakout names a config_db cannot load on its own: "
                  "on, such switches get a fragment to merge over their running configuration; off, a note.")),
    ]
    ecn_rows = []
    for gbps, t in s["ecn"].items():
        ecn_rows.append((int(gbps), [f(f"ecn.{gbps}.{part}", label % {"gbps": gbps}, "int", t[part])
                                     for part, label in ECN_LABELS.items()]))
    override_rows = []
    for cls in DEVICE_CLASSES:
        current = s["overrides"].get(cls, {})
        row: list[FormField | None] = []
        for key, label, kind in OVERRIDE_COLUMNS:
            if cls == "nic" and key in SWITCH_ONLY:
                row.append(None)
                continue
            choices = []
            if kind == "choice":
                choices = [(m, m.upper()) for m in TRUST_MODES]
            elif kind == "bool":
                choices = BOOL_CHOICES
            row.append(f(f"overrides.{cls}.{key}", label, kind, current.get(key), choices=choices,
                         blank_label=_("as the design")))
        override_rows.append((cls, class_label(cls), row))
    form = RoceForm(sections=sections, ecn_rows=ecn_rows, override_rows=override_rows,
                    override_columns=[label for _, label, _ in OVERRIDE_COLUMNS])
    if errors:
        _attach(form, errors)
    return form


def _attach(form: RoceForm, errors: dict[str, list[str]]) -> None:
    by_name = {f.name: f for f in form.all_fields()}
    for name, messages in errors.items():
        target, path = None, name
        while path:
            if path in by_name:
                target = by_name[path]
                break
            path = path.rpartition(".")[0]
        if target is not None:
            target.errors.extend(str(m) for m in messages)
        else:
            form.errors.extend(f"{name}: {m}" if name not in ("non_field_errors", PREFIX) else str(m)
                               for m in messages)


def _set(tree: dict[str, Any], path: list[str], value: Any) -> None:
    for key in path[:-1]:
        tree = tree.setdefault(key, {})
    tree[path[-1]] = value


def roce_form_data(post) -> dict[str, Any]:
    """The posted inputs named "roce.*", as typed (for re-rendering)."""
    return {key: post.get(key, "") for key in post if key.startswith(f"{PREFIX}.")}


def roce_form_settings(data: dict[str, Any]) -> dict[str, Any]:
    """The nested `roce` input for the service from posted values (blank inputs left out)."""
    out: dict[str, Any] = {}
    for name, raw in data.items():
        value = str(raw).strip()
        if not value:
            continue
        path = name.split(".")[1:]
        if not path:
            continue
        if path[0] == "overrides" and path[-1] == "pfc_priorities":
            _set(out, path, [v for v in re.split(r"[\s,;]+", value) if v])
        else:
            _set(out, path, value)
    return out
