"""Bill of materials by category with subtotals, spares and the total, in the version's currency.

The figures are the stored BOM rows and the totals the API shows (version_bom_totals): the total
here equals the API's to the cent. Lines are summed per category as stored (each line's total is
already rounded to the cent). The full BOM, with live formulas, and the cabling plan are in the
version's Excel workbook.
"""
from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.missing import at_least, bom_missing, bom_missing_text, not_published
from apps.designs.views.version import CATEGORY_ORDER, category_labels, cost_breakdown, network_labels

from ..charts import horizontal_bars_svg
from ..formatting import count, money
from ..model import Chapter, Figure, Paragraph, Table
from ..source import DocumentSource

KEY = "bom"
TITLE = gettext_lazy("Bill of materials")


def bom_table(source: DocumentSource) -> Table:
    labels = category_labels()
    networks = network_labels()
    several_networks = len({line.network for line in source.bom_lines}) > 1
    lines = [line for line in source.bom_lines if not line.spare]
    spares = [line for line in source.bom_lines if line.spare]
    ordered: dict[tuple, int] = {}  # spares of each base line, by network, category and SKU
    for line in spares:
        key = (line.network, line.category, line.sku)
        ordered[key] = ordered.get(key, 0) + int(line.qty)
    order = {key: i for i, key in enumerate(CATEGORY_ORDER)}
    missing = bom_missing(source.bom_lines)

    def price(line, value) -> str:
        # A part without a list price is never a 0.00 that reads as a price.
        return money(value) if line.price_published else not_published()

    def total(value, lines_in) -> str:
        return at_least(money(value), [ln.sku for ln in lines_in if not ln.price_published])

    rows: list[list[str]] = []
    subtotal_rows: list[int] = []
    for category in sorted({line.category for line in lines}, key=lambda c: (order.get(c, 99), c)):
        in_category = [line for line in lines if line.category == category]
        for line in in_category:
            description = line.description
            if several_networks:
                description = f"{description} · {networks.get(line.network, line.network)}"
            spare_qty = ordered.get((line.network, line.category, line.sku), 0)
            rows.append([line.sku, description, count(line.qty), count(spare_qty) if spare_qty else "–",
                         price(line, line.unit_price), price(line, line.total)])
        subtotal_rows.append(len(rows))
        rows.append(["", _("Subtotal: %(category)s") % {"category": labels.get(category, category)}, "", "", "",
                     total(sum((line.total for line in in_category), Decimal("0")), in_category)])
    if spares:
        for line in spares:
            rows.append([line.sku, f"{line.description} · {_('spare')}", count(line.qty), "",
                         price(line, line.unit_price), price(line, line.total)])
        subtotal_rows.append(len(rows))
        rows.append(["", _("Spares subtotal"), "", "", "", total(sum((line.total for line in spares), Decimal("0")),
                                                                  spares)])
    totals = source.bom_totals
    rows.append(["", _("Subtotal, spares included") if totals["total_includes_spares"] else _("Subtotal"), "", "", "",
                 at_least(money(totals["subtotal"]), missing["price"])])
    rows.append(["", _("Discount (%(pct)s %%)") % {"pct": f"{float(totals['discount_pct']):g}"}, "", "", "",
                 ("−" if totals["discount"] else "") + money(totals["discount"])])
    rows.append(["", _("Total (%(currency)s)") % {"currency": totals["currency"]}, "", "", "",
                 at_least(money(totals["total"], totals["currency"]), missing["price"])])
    return Table(headers=[_("SKU"), _("Description"), _("Quantity"), _("Spares"), _("Unit price"), _("Total")],
                 rows=rows, numeric=(2, 3, 4, 5), total_rows=3, subtotal_rows=tuple(subtotal_rows),
                 widths=(16, 37, 9, 8, 14, 16))


def spares_policy_text(policy: dict | None) -> str:
    """The spares policy the version was quoted with, as a sentence (apps.engine.spec.SparesPolicy)."""
    if policy is None:
        return _("Spares were not computed for this version (generated before spares).")
    per_spare = int(policy.get("switches_per_spare") or 0)
    switches = (_("one cold spare of each switch model per %(count)s installed, rounded up") % {"count": per_spare}
                if per_spare else _("no spare switches by count"))
    if float(policy.get("switches") or 0):
        switches += _(" (or %(pct)s %% of them if that is more)") % {"pct": f"{float(policy['switches']):g}"}
    return _("Spares policy: %(switches)s; %(transceivers)s %% of transceivers, %(cables)s %% of cables and "
             "%(fibers)s %% of fibre cords, rounded up, at least one per part. The default ratios are ours, not a "
             "vendor's figure: the right number follows from each part's failure rate and the replacement time of "
             "the support contract.") % {
        "switches": switches, "transceivers": f"{float(policy.get('transceivers') or 0):g}",
        "cables": f"{float(policy.get('cables') or 0):g}", "fibers": f"{float(policy.get('fibers') or 0):g}"}


def build(source: DocumentSource) -> Chapter:
    totals = source.bom_totals
    breakdown = cost_breakdown(source.bom_lines)
    blocks: list = [
        Paragraph(_("Prices in %(currency)s; %(lines)s lines. The full bill of materials with live formulas and "
                    "the cabling plan, link by link, are in the Excel workbook of this version (Exports on the "
                    "design page).") % {"currency": totals["currency"], "lines": count(totals["lines"])}),
        bom_table(source),
        Paragraph(spares_policy_text(source.version.spares), style="note"),
    ]
    if breakdown:
        blocks.append(Figure(svg=horizontal_bars_svg(
            title=_("Cost by category (%(currency)s)") % {"currency": totals["currency"]},
            labels=[str(row["label"]) for row in breakdown], values=[row["total"] for row in breakdown]),
            caption=_("Where the money goes: the bill of materials by category, spares apart.")))
    missing = bom_missing(source.bom_lines)
    blocks.append(Paragraph(_("Network power %(typical)s W typical, %(max)s W maximum; %(units)s rack units.") % {
        "typical": at_least(count(round(totals["power_typical_w"] or 0)), missing["power"]),
        "max": at_least(count(round(totals["power_max_w"] or 0)), missing["power"]),
        "units": count(totals["rack_units"])}, style="note"))
    missing_text = bom_missing_text(missing)
    if missing_text:
        blocks.append(Paragraph(missing_text, style="warning"))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
