"""A figure we lack is shown as missing, with the part named, wherever it would be summed.

The engine leaves a part without a published power figure or a list price out of every total and names it
(engine.bom, engine.hall); pages, workbook and document show such a total as a lower bound naming the parts,
"≥ 75.6 (missing: SN2201, NVLink switch tray)", and the part's own cell as "not published", never as a 0 that
reads as a value. One wording for every capability app (they depend on designs).

A note names at most NAMED parts and counts the rest ("A, B, ... and 232 more"): a whole-cluster design can
lack figures for hundreds of cut-to-length cords, and a note that lists them all fills pages of the document;
the BOM still names every part on its own line.
"""
from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

NAMED = 8


def parts_list(parts: Iterable[str] | str | None) -> list[str]:
    """The parts as a list, from a list or the ", "-joined text the rack rows store; once each, in order."""
    if not parts:
        return []
    items = parts.split(",") if isinstance(parts, str) else parts
    return list(dict.fromkeys(p.strip() for p in items if p and p.strip()))


def named(parts: Iterable[str] | str | None) -> str:
    """The parts joined for a note: all of them up to NAMED, else the first NAMED and how many more."""
    items = parts_list(parts)
    if len(items) <= NAMED:
        return ", ".join(items)
    more = len(items) - NAMED
    return ngettext("%(parts)s and %(count)s more", "%(parts)s and %(count)s more", more) % {
        "parts": ", ".join(items[:NAMED]), "count": f"{more:,}"}


def at_least(value: str, parts: Iterable[str] | str | None) -> str:
    """`value` as written, or "≥ value (missing: A, B)" when parts without a figure were left out of it."""
    missing = parts_list(parts)
    if not missing:
        return value
    return _("≥ %(value)s (missing: %(parts)s)") % {"value": value, "parts": named(missing)}


def missing_sentence(parts: Iterable[str] | str | None) -> str:
    """"Missing: A, B" for a cell or a note beside a total; "" when nothing is missing."""
    missing = parts_list(parts)
    return _("Missing: %(parts)s") % {"parts": named(missing)} if missing else ""


def not_published() -> str:
    """The cell of a part's own figure when its vendor publishes none."""
    return _("not published")


def bom_missing(lines) -> dict[str, list[str]]:
    """The SKUs of BOM lines (rows or engine lines) without a list price / a published power figure, once each."""
    return {"price": list(dict.fromkeys(line.sku for line in lines if not line.price_published)),
            "power": list(dict.fromkeys(line.sku for line in lines if not line.spare and not line.power_published))}


def bom_missing_text(missing: dict[str, list[str]], *, marked: bool = True) -> str:
    """The note naming the parts the BOM's totals leave out ("" when every figure is known); `marked`: the page
    marks those totals with "≥", a workbook's formulas cannot."""
    parts = []
    if missing["price"]:
        parts.append(_("no list price: %(parts)s") % {"parts": named(missing["price"])})
    if missing["power"]:
        parts.append(_("no published power: %(parts)s") % {"parts": named(missing["power"])})
    if not parts:
        return ""
    if marked:
        return _("Totals marked ≥ are lower bounds; they leave out %(parts)s.") % {"parts": "; ".join(parts)}
    return _("The cost and power totals are lower bounds; they leave out %(parts)s.") % {"parts": "; ".join(parts)}
