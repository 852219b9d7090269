"""The explorer's words in the user's language: candidate labels, the bar's names, what a candidate misses."""
from __future__ import annotations

from typing import Any, Mapping

from django.utils.formats import number_format
from django.utils.translation import gettext as _, ngettext


def bar_label(name: str) -> str:
    return {
        "max_oversubscription": _("Oversubscription at most"),
        "max_hops": _("Switch hops at most"),
        "min_growth_gpus": _("Growth to at least (GPUs)"),
        "budget": _("Budget"),
        "max_power_w": _("Network power at most (W)"),
    }.get(name, name)


def _switch(ref: Mapping[str, Any] | None) -> str:
    if not ref:
        return ""
    # The switch by its model ("Arista 7060DX5-64S"), as the catalog and the design form name it; the SKU only
    # for a part without a model name.
    return f"{ref.get('name') or ref.get('sku', '')} {ref.get('breakout', '')}".strip()


def candidate_label(item: Mapping[str, Any]) -> str:
    """e.g. "2 tiers, 4 planes, 1:1 — leaf Arista 7060DX5-64S 1x400G, spine Dell Z9864F-ON 2x400G"."""
    tiers, planes = item["tiers"], item["planes"]
    parts = [ngettext("%(n)s tier", "%(n)s tiers", tiers) % {"n": tiers}]
    if planes > 1:
        parts.append(ngettext("%(n)s plane", "%(n)s planes", planes) % {"n": planes})
    parts.append(f"{item['oversubscription']:g}:1")
    hw = [_("leaf %(switch)s") % {"switch": _switch(item["leaf"])}]
    if item["spine"] and _switch(item["spine"]) != _switch(item["leaf"]):
        hw.append(_("spine %(switch)s") % {"switch": _switch(item["spine"])})
    if item.get("core") and _switch(item["core"]) != _switch(item["spine"]):
        hw.append(_("core %(switch)s") % {"switch": _switch(item["core"])})
    text = ", ".join(parts) + " — " + ", ".join(hw)
    if item.get("blocking"):
        text += " " + _("(blocking: fewest spines, uneven uplinks)")
    return text


def miss_text(miss: Mapping[str, Any], *, currency: str = "") -> str:
    """e.g. "Budget: 1,200,000.00 USD, over 1,000,000.00 USD"."""
    bar, limit, value = miss["bar"], miss["limit"], miss["value"]
    if bar == "budget":
        return _("Budget: %(value)s %(currency)s, over %(limit)s %(currency)s") % {
            "value": number_format(value, 2, force_grouping=True), "limit": number_format(limit, 2, force_grouping=True),
            "currency": currency}
    if bar == "max_power_w":
        return _("Network power: %(value)s W, over %(limit)s W") % {
            "value": number_format(value, 0, force_grouping=True), "limit": number_format(limit, 0, force_grouping=True)}
    if bar == "min_growth_gpus":
        return _("Growth: up to %(value)s GPUs, under %(limit)s") % {
            "value": number_format(int(value), 0, force_grouping=True),
            "limit": number_format(int(limit), 0, force_grouping=True)}
    if bar == "max_hops":
        return _("Switch hops: %(value)s, over %(limit)s") % {"value": int(value), "limit": int(limit)}
    return _("Oversubscription: %(value)s:1, over %(limit)s:1") % {"value": f"{value:g}", "limit": f"{limit:g}"}
