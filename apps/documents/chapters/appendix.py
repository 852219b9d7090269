"""Appendix: the inputs the version was generated from, as the engine received them (the frozen spec)."""
from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..model import Chapter, Paragraph, Table
from ..source import DocumentSource

KEY = "appendix"
TITLE = gettext_lazy("Appendix: inputs")
VALUE_MAX = 1200


def flatten(value: Any, prefix: str = "") -> list[tuple[str, str]]:
    """("leaf.ports", "64") rows of a JSON tree; lists of scalars stay on one row."""
    if isinstance(value, dict):
        rows: list[tuple[str, str]] = []
        for key in sorted(value):
            rows += flatten(value[key], f"{prefix}.{key}" if prefix else str(key))
        return rows
    if isinstance(value, list) and any(isinstance(item, dict) and "sku" in item for item in value):
        # The catalog parts offered to the engine (optics, cables, fibre cords): their SKUs on one row.
        skus = [str(item.get("sku")) for item in value if isinstance(item, dict)]
        value = ngettext("%(n)s part: %(skus)s", "%(n)s parts: %(skus)s", len(skus)) % {
            "n": len(skus), "skus": ", ".join(skus)}
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    if len(text) > VALUE_MAX:
        text = text[: VALUE_MAX - 1] + "…"
    return [(prefix, text)]


def build(source: DocumentSource) -> Chapter:
    rows = flatten(source.version.spec or {})
    return Chapter(key=KEY, title=str(TITLE), blocks=[
        Paragraph(_("The engine specification frozen on version %(number)s: the inputs, with the catalog parts as "
                    "they were when it was generated. The same inputs generate the same design.") % {
            "number": source.version.number}),
        Table(headers=[_("Input"), _("Value")], rows=[[key, value] for key, value in rows], widths=(30, 70)),
    ])
