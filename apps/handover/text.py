"""The user's language for as-built states, finding kinds and fixes (the engine stores codes and params)."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

STATE_LABELS = {
    "ok": gettext_lazy("ok"),
    "miswired": gettext_lazy("miswired"),
    "missing": gettext_lazy("missing"),
    "unverified": gettext_lazy("unverified"),
    "unexpected": gettext_lazy("unexpected"),
}

KIND_LABELS = {
    "connect": gettext_lazy("cable missing"),
    "move": gettext_lazy("wrong port"),
    "move_claimed": gettext_lazy("foreign cable"),
    "swap": gettext_lazy("swapped pair"),
    "one_sided": gettext_lazy("seen from one end only"),
    "remove": gettext_lazy("cable not in the plan"),
}

# apps.engine.asbuilt.check.TEMPLATES, translated; the params are device and port names.
FIX_TEMPLATES = {
    "asbuilt.connect": gettext_lazy("connect %(a)s to %(b)s: no cable seen"),
    "asbuilt.move": gettext_lazy("move the cable at %(near)s to %(far)s (it reaches %(found)s)"),
    "asbuilt.move_claimed": gettext_lazy("move the cable from %(found)s off %(near)s: %(near)s belongs to %(far)s"),
    "asbuilt.swap": gettext_lazy("swap the cables at %(first)s and %(second)s"),
    "asbuilt.one_sided": gettext_lazy("%(far)s sees %(near)s, but %(near)s reports no neighbour: check LLDP on "
                                      "%(device)s"),
    "asbuilt.remove": gettext_lazy("remove the cable between %(a)s and %(b)s: not in the plan"),
    "asbuilt.unknown_device": gettext_lazy("%(device)s (in %(file)s) is not a device of the plan"),
}


def fix_text(item: dict[str, Any]) -> str:
    """A stored finding's or note's sentence in the user's language (the English text if the code is unknown)."""
    template = FIX_TEMPLATES.get(item.get("code", ""))
    if template is None:
        return str(item.get("fix") or item.get("text") or "")
    try:
        return str(template) % item.get("params", {})
    except (KeyError, TypeError, ValueError):
        return str(item.get("fix") or item.get("text") or "")


def state_label(state: str) -> str:
    return str(STATE_LABELS.get(state, state))


def kind_label(kind: str) -> str:
    return str(KIND_LABELS.get(kind, kind))


def dump_error_text(file: str, line: int, message: str) -> str:
    if not file:
        return _("No dump files in the upload.")
    if line:
        return _("%(file)s, line %(line)s: %(message)s") % {"file": file, "line": line, "message": message}
    return _("%(file)s: %(message)s") % {"file": file, "message": message}


DEVIATION_FIELDS = {
    "driver_version": gettext_lazy("driver version"),
    "firmware": gettext_lazy("firmware"),
    "rate_gbps": gettext_lazy("link speed (Gb/s)"),
    "ports": gettext_lazy("RDMA ports"),
    "trust": gettext_lazy("trust mode"),
    "pfc": gettext_lazy("PFC priorities"),
    "ecn": gettext_lazy("ECN (notification point, reaction point)"),
}
AGAINST = {"majority": gettext_lazy("the majority"), "design": gettext_lazy("the design")}


def _value(value: Any) -> str:
    if value is None:
        return _("not reported")
    if isinstance(value, list):
        return ", ".join("–" if v is None else str(v) for v in value) or _("none")
    return f"{value:g}" if isinstance(value, float) else str(value)


def deviation_rows(deviations) -> list[dict[str, Any]]:
    return [{"host": d.host, "port": d.port, "field": str(DEVIATION_FIELDS.get(d.field, d.field)),
             "value": _value(d.value), "expected": _value(d.expected), "against": str(AGAINST.get(d.against, ""))}
            for d in deviations]
