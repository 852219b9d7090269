"""Executive summary: the request, the chosen architecture, headline figures, total cost, main risks."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from apps.designs.engine_text import summary_warnings, wiring_verdict
from apps.designs.missing import at_least, bom_missing
from apps.designs.views.version import cheaper_alternative_points, version_kpis

from ..formatting import count, decimal, money
from ..model import Bullets, Chapter, Heading, KeyValues, Paragraph
from ..source import DocumentSource

KEY = "summary"
TITLE = gettext_lazy("Executive summary")


def architecture_sentence(source: DocumentSource) -> str:
    s = source.summary
    switches = s.get("switches") or {}
    tiers = int(s.get("tiers") or 0)
    planes = int(s.get("planes") or 1)
    text = ngettext("A %(tiers)s-tier rail-optimized fat-tree", "A %(tiers)s-tier rail-optimized fat-tree",
                    tiers) % {"tiers": tiers}
    if planes > 1:
        text += " " + ngettext("in %(n)s plane", "in %(n)s planes", planes) % {"n": planes}
    text += ": " + _("%(leaf)s leaf, %(spine)s spine and %(core)s core switches, %(links)s links, "
                     "%(servers)s servers of %(per)s GPUs.") % {
        "leaf": count(switches.get("leaf")), "spine": count(switches.get("spine")),
        "core": count(switches.get("core") or 0), "links": count(s.get("total_links")),
        "servers": count(s.get("servers")), "per": count(s.get("gpus_per_server"))}
    return text


def _kpi_value(kpi: dict) -> str:
    text = _kpi_text(kpi)
    # A total that leaves out parts without a published figure reads as a lower bound naming them.
    return f"≥ {text} ({kpi['missing']})" if kpi.get("missing") else text


def _kpi_text(kpi: dict) -> str:
    value = kpi.get("value")
    if value is None:
        return "–"
    if kpi.get("format") == "money":
        return money(value, kpi.get("unit", ""))
    if kpi.get("format") == "power":
        return f"{decimal(value)} / {decimal(kpi.get('value_max'))}"
    if kpi.get("format") == "float":
        return decimal(value)
    if kpi.get("format") == "text":
        return str(value)
    return count(value)


def main_risks(source: DocumentSource) -> list[str]:
    risks = summary_warnings(source.summary) + cheaper_alternative_points(source.version)
    wiring = wiring_verdict(source.summary)
    if wiring["as_stated"] is False:
        risks.append(_("Wiring proof: %(detail)s") % {"detail": wiring["detail"]})
    if not source.version.is_infiniband:
        review = source.roce_review
        errors, warnings = review.count("error"), review.count("warning")
        if errors or warnings:
            risks.append(_("RoCE checklist: %(errors)s errors, %(warnings)s warnings (see the lossless design).")
                         % {"errors": errors, "warnings": warnings})
    return risks


def build(source: DocumentSource) -> Chapter:
    version = source.version
    server = version.server
    request = _("%(customer)s asked for the network of %(gpus)s GPUs in %(server)s servers on %(fabric)s, "
                "at %(ratio)s:1 oversubscription at the leaf.") % {
        "customer": source.customer.name, "gpus": count(version.gpus),
        "server": f"{server.manufacturer.name} {server.model}",
        "fabric": _("InfiniBand") if version.is_infiniband else _("Ethernet (RoCEv2)"),
        "ratio": f"{version.oversubscription:g}"}
    totals = source.bom_totals
    blocks = [
        Heading(_("The request")), Paragraph(request),
        Heading(_("The chosen architecture")), Paragraph(architecture_sentence(source)),
        Heading(_("Headline figures")),
        KeyValues([(str(kpi["label"]), _kpi_value(kpi)) for kpi in version_kpis(version)]),
        Heading(_("Total cost")),
        Paragraph(_("Bill of materials total: %(total)s (discount %(pct)s %% included%(spares)s).") % {
            "total": at_least(money(totals["total"], totals["currency"]), bom_missing(source.bom_lines)["price"]),
            "pct": f"{float(totals['discount_pct']):g}",
            "spares": _(", spares included") if totals["total_includes_spares"] else ""}, style="lead"),
        Heading(_("Main risks")),
    ]
    risks = main_risks(source)
    blocks.append(Bullets(risks) if risks else Paragraph(_("None raised by the design checks.")))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
