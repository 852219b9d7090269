"""Cabling summary: media by tier and a histogram of cable lengths (the stored summary's media rows).

Every link is in the workbook's cabling sheet; here the links are counted by tier, medium and
length. Lengths are the catalog lengths links were rounded up to, so the histogram has a bar per
length when there are few (at most MAX_BARS), else bars of equal width.
"""
from __future__ import annotations

import math
from collections import defaultdict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.fabric_text import reach_margin_rule
from apps.designs.views.version import network_labels, tier_labels

from ..charts import columns_svg
from ..formatting import count
from ..model import Chapter, Figure, Paragraph, Table
from ..source import DocumentSource

KEY = "cabling"
TITLE = gettext_lazy("Cabling summary")
MAX_BARS = 16


def length_histogram(media: list[dict]) -> tuple[list[str], list[float]]:
    per_length: dict[float, int] = defaultdict(int)
    for row in media:
        per_length[float(row.get("length_m") or 0)] += int(row.get("links") or 0)
    lengths = sorted(per_length)
    if not lengths:
        return [], []
    if len(lengths) <= MAX_BARS:
        return [f"{length:g} m" for length in lengths], [float(per_length[length]) for length in lengths]
    low, high = lengths[0], lengths[-1]
    width = max(1.0, math.ceil((high - low) / MAX_BARS))
    bins = [0.0] * MAX_BARS
    for length, links in per_length.items():
        bins[min(MAX_BARS - 1, int((length - low) // width))] += links
    labels = [f"{low + i * width:g}–{low + (i + 1) * width:g} m" for i in range(MAX_BARS)]
    return labels, bins


def infiniband_port_names(source: DocumentSource, tiers: dict) -> list:
    """How an InfiniBand design names its ports (engine.names), with the first link of each tier as it is labelled."""
    blocks: list = [Paragraph(_(
        "Ports carry the names the equipment itself shows: a host port is its HCA (mlx5_0, mlx5_1, …, as ibstat "
        "and ibnetdiscover print it); a Quantum-2 switch port is <ASIC>/<cage>/<port> as MLNX-OS names it (1/1/1 "
        "and 1/1/2 are the two ports of the twin-port cage 1; a split port adds /1 or /2); a Quantum-X800 port is "
        "sw<cage>p<port> as NVOS names it. Each cable end is labelled \"near device:port > far device:port\"."))]
    rows = [[str(tiers.get(row["tier"], row["tier"])), str(row["a_port"]), str(row["b_port"]), str(row["label_a"])]
            for row in source.example_links]
    if rows:
        blocks.append(Table(headers=[_("Tier"), _("A-end port"), _("B-end port"), _("Label (A end)")], rows=rows,
                            widths=(16, 14, 14, 56)))
    return blocks


def build(source: DocumentSource) -> Chapter:
    media = list(source.summary.get("media") or [])
    tiers = tier_labels()
    blocks: list = [Paragraph(_("Backend links by tier and medium; every link, with its ends, labels and length, is "
                                "in the cabling sheet of the Excel workbook.")),
                    Paragraph(reach_margin_rule(), style="note")]
    if source.version.is_infiniband:
        blocks += infiniband_port_names(source, tiers)
    if media:
        order = {key: i for i, key in enumerate(tiers)}
        media.sort(key=lambda row: (order.get(row.get("tier"), 9), float(row.get("length_m") or 0)))
        rows = [[str(tiers.get(row.get("tier"), row.get("tier"))), str(row.get("kind") or ""),
                 str(row.get("fiber") or "–"), str(row.get("key") or ""), f"{float(row.get('length_m') or 0):g}",
                 count(row.get("links"))] for row in media]
        rows.append([_("All tiers"), "", "", "", "", count(sum(int(row.get("links") or 0) for row in media))])
        blocks.append(Table(headers=[_("Tier"), _("Kind"), _("Fibre"), _("Medium"), _("Length (m)"), _("Links")],
                            rows=rows, numeric=(4, 5), total_rows=1, widths=(13, 8, 8, 49, 11, 11)))
        labels, values = length_histogram(media)
        blocks.append(Figure(svg=columns_svg(title=_("Cable lengths (backend)"), labels=labels,
                                             series=[(_("links"), values)], y_label=_("links")),
                             caption=_("How many backend links have each length.")))
    else:
        blocks.append(Paragraph(_("Not reported for this version.")))
    others = source.other_network_links
    if others:
        labels = network_labels()
        rows = [[labels.get(network, network), str(row["medium_kind"]), count(row["links"])]
                for network, found in others.items() for row in found]
        blocks.append(Paragraph(_("The other networks' links by medium:")))
        blocks.append(Table(headers=[_("Network"), _("Kind"), _("Links")], rows=rows, numeric=(2,)))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
