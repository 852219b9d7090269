"""The `roce` input of a design version: checked by the engine, stored as the changes from the defaults.

Rules:
- Validation is the engine's RoceSettings.from_dict: every field on its own (type, range).
  Its errors come back on dotted names under "roce" ("roce.pfc_priority", "roce.ecn.400.kmin"),
  in the user's language.
- Cross-field consistency (Kmin above Kmax, a NIC on another PFC priority, ...) is not refused:
  the version generates and the checklist names the device class and the fix, because a
  review of a customer's existing settings must be able to show what is wrong with them.
- The version stores the difference between the parsed settings and the defaults, values
  normalised ("4" -> 4), so a form that submits every field stores only what was changed and
  `RoceSettings.from_dict(stored)` gives the same settings back. A speed removed from the ECN
  table is stored as null (the engine's "remove" marker).
"""
from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from apps.engine.roce import RoceSettings
from apps.engine.spec import SpecError

FIELD = "roce"


def _changes(default: Any, actual: Any) -> Any:
    """What `actual` changes against `default` (recursively for objects; null for a removed key)."""
    if not (isinstance(default, dict) and isinstance(actual, dict)):
        return actual
    out: dict[str, Any] = {}
    for key, value in actual.items():
        if key not in default:
            out[key] = value
        elif value != default[key]:
            out[key] = _changes(default[key], value)
    for key in default:
        if key not in actual:
            out[key] = None
    return out


def roce_defaults() -> dict[str, Any]:
    """The default settings as JSON (what a version without changes runs)."""
    return RoceSettings().to_dict()


def roce_changes(settings: RoceSettings) -> dict[str, Any]:
    """The minimal JSON that `RoceSettings.from_dict` turns back into `settings`."""
    return _changes(roce_defaults(), settings.to_dict())


# The engine's field messages -> the same message through gettext (so it reads in the user's language).
_MESSAGES: list[tuple[re.Pattern, Any]] = [
    (re.compile(r"^Enter a whole number\.$"), lambda m: _("Enter a whole number.")),
    (re.compile(r"^Enter a number\.$"), lambda m: _("Enter a number.")),
    (re.compile(r"^Must be between (\S+) and (\S+)\.$"),
     lambda m: _("Must be between %(low)s and %(high)s.") % {"low": m[1], "high": m[2]}),
    (re.compile(r"^Must be true or false\.$"), lambda m: _("Must be true or false.")),
    (re.compile(r"^Must be one of (.+)\.$"), lambda m: _("Must be one of %(choices)s.") % {"choices": m[1]}),
    (re.compile(r"^Must be an object\.$"), lambda m: _("Give the RoCE settings as an object.")),
    (re.compile(r"^Unknown setting\.$"), lambda m: _("Unknown setting.")),
    (re.compile(r"^Required for a new port speed\.$"), lambda m: _("Required for a new port speed.")),
    (re.compile(r"^Must be a list of priorities 0-7\.$"), lambda m: _("Must be a list of priorities 0-7.")),
    (re.compile(r"^Unknown device class; use one of (.+)\.$"),
     lambda m: _("Unknown device class; use one of %(classes)s.") % {"classes": m[1]}),
    (re.compile(r"^Applies to switches only\.$"), lambda m: _("Applies to switches only.")),
]


def _translated(message: str) -> str:
    for pattern, translate in _MESSAGES:
        match = pattern.match(message)
        if match:
            return str(translate(match))
    return message


def roce_error_fields(exc: SpecError) -> dict[str, list[str]]:
    """The engine's errors on "roce.<dotted>" names, in the user's language."""
    fields: dict[str, list[str]] = {}
    for path, messages in exc.errors.items():
        name = path if path == FIELD or path.startswith(f"{FIELD}.") else f"{FIELD}.{path}"
        fields.setdefault(name, []).extend(_translated(str(m)) for m in messages)
    return fields


def roce_input_clean(value: Any) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """(changes to store, field errors) for a user's `roce` input (None or {} = the defaults)."""
    if value in (None, ""):
        return {}, {}
    if not isinstance(value, dict):
        return {}, {FIELD: [_("Give the RoCE settings as an object.")]}
    try:
        settings = RoceSettings.from_dict(value)
    except SpecError as exc:
        return {}, roce_error_fields(exc)
    return roce_changes(settings), {}


def roce_settings_from_stored(stored: dict[str, Any] | None) -> RoceSettings:
    """The settings a version runs from what it stores (SpecError if the engine no longer accepts them)."""
    return RoceSettings.from_dict(stored or {})
