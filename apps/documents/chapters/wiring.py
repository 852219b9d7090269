"""Wiring proof: the worst leaf pair's and pod pair's capacity against the stated oversubscription, and the links
per pair at every tier (engine.wiring)."""
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
    spread = wiring.get("spread") if isinstance(wiring.get("spread"), dict) else {}
    pods = wiring.get("worst_pod_pair")
    if pods or spread:
        blocks.append(Paragraph(_("Every tier is measured too: how many links join each leaf and spine of its pod, "
                                  "each spine and the cores it reaches, and each core and pod (equal counts mean "
                                  "an even spread), and in three tiers, for every pair of pods of a plane, the core "
                                  "links the two share (on each core the smaller of their links, summed) against "
                                  "the smaller pod's leaf uplinks. Cores are counted so that every core has the "
                                  "same number of links into every pod; a pod pair short of its uplinks makes the "
                                  "fabric blocking, whatever a single leaf pair gets.")))
        rows = []
        names = {"leaf-spine": _("leaf–spine"), "spine-core": _("spine–core"), "core-pod": _("core–pod")}
        for tier, label in names.items():
            pair = spread.get(tier)
            if isinstance(pair, list) and len(pair) == 2:
                rows.append((_("Links per %(tier)s pair (fewest / most)") % {"tier": label},
                             f"{count(pair[0])} / {count(pair[1])}"))
        if isinstance(pods, list) and len(pods) == 3:
            rows.append((_("Worst pod pair: core links shared / leaf uplinks of the smaller pod"),
                         f"{count(wiring.get('worst_pod_pair_links'))} / {count(wiring.get('pod_pair_uplinks'))}"))
            rows.append((_("Worst pod pair"), _("plane %(plane)s, pods %(a)s and %(b)s")
                         % {"plane": pods[0] + 1, "a": pods[1] + 1, "b": pods[2] + 1}))
        if rows:
            blocks.append(KeyValues(rows))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
