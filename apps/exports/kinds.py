"""The kinds of export a version can be asked for: a registry other apps fill in AppConfig.ready().

Rules:
- A kind is a code ("xlsx", "netbox", "pdf", ...), the label the exports list shows, the file's
  extension and content type, the suffix of the download name, and the writer that makes the file:
  `writer(version=, path_or_stream=, progress=, user=, **options)`, called with the export's
  language active (apps.exports.services).
- This app registers the workbook and the NetBox files (ExportsConfig.ready); apps above it
  register theirs the same way (apps.documents: the design document as PDF and Word). Exports
  never imports them.
- `KIND_CHOICES` is one list, filled in place as kinds register, so the API's choices and the
  schema's ExportKindEnum (settings.SPECTACULAR_SETTINGS) are the registered kinds, in order.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

Writer = Callable[..., Any]


@dataclass(frozen=True)
class ExportKind:
    code: str
    label: str | Promise
    extension: str
    content_type: str
    writer: Writer
    # Added to the download name before the extension ("-netbox").
    name_suffix: str = ""
    # A document in one language: the download name ends with it ("-zh-hans") and the list shows it.
    by_language: bool = False
    order: int = 100


_KINDS: dict[str, ExportKind] = {}
KIND_CHOICES: list[tuple[str, Any]] = []


def export_kind_register(kind: ExportKind) -> None:
    """Add (or replace, on a second ready()) a kind of export."""
    _KINDS[kind.code] = kind
    KIND_CHOICES[:] = [(k.code, k.label) for k in export_kinds()]


def export_kinds() -> list[ExportKind]:
    return sorted(_KINDS.values(), key=lambda kind: (kind.order, kind.code))


def export_kind_get(code: str) -> ExportKind | None:
    return _KINDS.get(code)


def export_kind_codes() -> list[str]:
    return [kind.code for kind in export_kinds()]


def export_kind_label(code: str) -> str:
    """The kind's label in the active language, or the code itself when no app registers it (any more)."""
    kind = _KINDS.get(code)
    return str(kind.label) if kind is not None else str(code)
