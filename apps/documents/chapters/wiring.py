"""Wiring proof: the worst leaf pair's capacity against the stated oversubscription (engine.wiring)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.engine_text import wiring_verdict

from ..formatting import count
from ..model import Chapter, KeyValues, Paragraph
from ..source import DocumentSource

KEY = "wiring"
TITLE = gettext_lazy("Wiring proof")


def build(source: DocumentSource) -> Chapter:
    verdict = wiring_verdict(source.summary)
    wiring = source.summary.get("wiring") or {}
    blocks: list = [Paragraph(_("Every plan carries a proof that its wiring delivers the oversubscription asked for: "
                                "for every pair of leaves of a plane, the max-flow between them over the built links, "
                                "routed as a fat-tree routes (up, through the spines and cores, down again), is "
                                "compared with a leaf's downlinks. The worst pair decides."))]
    if not verdict["computed"]:
        blocks.append(Paragraph(verdict["detail"], style="warning"))
        return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
    pair = wiring.get("worst_pair") or []
    blocks.append(KeyValues([
        (_("Verdict"), _("as stated") if verdict["as_stated"] else _("blocking")),
        (_("Worst leaf pair: share of a leaf's downlinks"), verdict["text"]),
        (_("Detail"), verdict["detail"]),
        (_("Leaf pairs checked"), count(wiring.get("leaf_pairs"))),
        (_("Worst pair"), " – ".join(str(name) for name in pair) if pair else "–"),
        (_("Worst pair's max-flow (links)"), count(wiring.get("worst_pair_links"))),
        (_("Leaf uplinks / downlinks"), f"{count(wiring.get('leaf_uplinks'))} / {count(wiring.get('leaf_downlinks'))}"),
    ]))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
