"""Requirements and assumptions: the inputs the version was generated from and what the figures assume."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.views.version import version_inputs
from apps.exports.selectors import catalog_example_price_skus

from ..model import Bullets, Chapter, Heading, KeyValues
from ..source import DocumentSource

KEY = "requirements"
TITLE = gettext_lazy("Requirements and assumptions")


def assumptions(source: DocumentSource) -> list[str]:
    items = []
    skus = [line.sku for line in source.bom_lines]
    examples = catalog_example_price_skus(skus=skus)
    if examples:
        items.append(_("%(n)s of the %(total)s priced parts carry example prices from the seed catalog, not "
                       "quotes.") % {"n": len(examples), "total": len(set(skus))})
    for rate in source.bom_totals["exchange_rates"]:
        text = _("Prices converted from %(source)s at 1 %(source)s = %(rate)s %(target)s.") % {
            "source": rate["from"], "rate": rate["rate"], "target": rate["to"]}
        if rate["example"]:
            text += " " + _("The rate is an example: set the day's rate in the catalog before quoting.")
        items.append(text)
    items += [
        _("Cable lengths follow the rack layout of the inputs, rounded up to the lengths the catalog sells; the "
          "medium of each link follows from its length and the parts qualified for the fabric."),
        _("Power is the network's (switches and switch-side optics); NICs and server-side optics draw inside "
          "the servers' own power budget."),
        _("Servers are not part of the bill of materials: it quotes the network."),
    ]
    return items


def build(source: DocumentSource) -> Chapter:
    return Chapter(key=KEY, title=str(TITLE), blocks=[
        Heading(_("Inputs")),
        KeyValues([(str(label), str(value)) for label, value in version_inputs(source.version)]),
        Heading(_("Assumptions")),
        Bullets(assumptions(source)),
    ])
