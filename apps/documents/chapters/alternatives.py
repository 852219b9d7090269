"""Alternatives compared: the same request built other ways (table and cost chart), and why this one."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.engine_text import alternative_label, alternative_notes, alternative_reason, wiring_verdict
from apps.designs.views.version import cheaper_alternative_points

from ..charts import horizontal_bars_svg
from ..formatting import count, decimal, money
from ..model import Bullets, Chapter, Figure, Paragraph, Table
from ..source import DocumentSource

KEY = "alternatives"
TITLE = gettext_lazy("Alternatives compared")


def _label(alt: dict) -> str:
    return alternative_label(alt.get("planes"), alt.get("tiers"), str(alt.get("label") or ""),
                             blocking=bool(alt.get("blocking")))


def why(source: DocumentSource, alternatives: list[dict]) -> list[str]:
    current = next((a for a in alternatives if a.get("current")), None)
    if current is None:
        return [_("This version's own structure is not among the alternatives computed.")]
    reasons = []
    if current.get("cheapest"):
        reasons.append(_("It is the cheapest structure that meets the request with the stated oversubscription."))
    reasons += cheaper_alternative_points(source.version)
    if wiring_verdict(current).get("as_stated"):
        reasons.append(_("Its wiring delivers the stated oversubscription for every leaf pair (wiring proof)."))
    more = [a for a in alternatives if a.get("feasible") and int(a.get("max_gpus") or 0)
            > int(current.get("max_gpus") or 0)]
    if not more:
        reasons.append(_("No other structure grows further: up to %(gpus)s GPUs.") % {
            "gpus": count(current.get("max_gpus"))})
    return reasons


def build(source: DocumentSource) -> Chapter:
    alternatives = list(source.summary.get("alternatives") or [])
    if not alternatives:
        return Chapter(key=KEY, title=str(TITLE), blocks=[
            Paragraph(_("No alternatives were computed for this version."))])
    rows = []
    for alt in alternatives:
        label = _label(alt)
        if alt.get("current"):
            label += " · " + _("this design")
        if alt.get("cheapest"):
            label += " · " + _("cheapest")
        if not alt.get("feasible"):
            rows.append([label, count(alt.get("tiers")), count(alt.get("planes")),
                         _("Not feasible:") + " " + alternative_reason(alt), "", "", "", "", ""])
            continue
        switches = alt.get("switches") or {}
        rows.append([label, count(alt.get("tiers")), count(alt.get("planes")),
                     " / ".join(count(switches.get(role) or 0) for role in ("leaf", "spine", "core")),
                     count(sum((alt.get("links") or {}).values())), count(alt.get("max_gpus")),
                     wiring_verdict(alt)["text"], money(alt.get("total_cost")),
                     decimal((alt.get("power_w") or 0) / 1000)])
    feasible = [a for a in alternatives if a.get("feasible")]
    blocks: list = [
        Paragraph(_("The same request built other ways, each planned and priced in full. A blocking wiring (fewer "
                    "spines, uneven uplinks) does not deliver the stated oversubscription.")),
        Table(headers=[_("Structure"), _("Tiers"), _("Planes"), _("Leaf / spine / core"), _("Links"),
                       _("Max GPUs"), _("Worst leaf pair"), _("Total cost") + f" ({source.currency})",
                       _("Power (kW)")],
              rows=rows, numeric=(1, 2, 3, 4, 5, 6, 7, 8), widths=(22, 6, 7, 12, 9, 10, 9, 15, 10)),
    ]
    for alt in alternatives:
        for note in alternative_notes(alt) if alt.get("blocking") else []:
            blocks.append(Paragraph(f"{_label(alt)}: {note}", style="note"))
    if feasible:
        current = next((i for i, a in enumerate(feasible) if a.get("current")), None)
        blocks.append(Figure(svg=horizontal_bars_svg(
            title=_("Total cost per structure (%(currency)s)") % {"currency": source.currency},
            labels=[_label(a) for a in feasible], values=[float(a.get("total_cost") or 0) for a in feasible],
            highlight=current), caption=_("Total cost of each feasible structure; this design highlighted.")))
    blocks.append(Paragraph(_("Why this one"), style="lead"))
    blocks.append(Bullets(why(source, alternatives)))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
