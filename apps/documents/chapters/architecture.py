"""Architecture: the scale-up domains, the backend fabric with its schematic, the other networks when present
(their figures in a table, then a diagram per network: apps.documents.network_diagram).

The schematic is the topology page's own picture (apps.designs.api.topology: `schematic_document`),
the one its "SVG" button exports, drawn for the whole fabric.
"""
from __future__ import annotations

import logging

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.missing import at_least
from apps.designs.scaleup_text import scale_up_notes, scale_up_rows, split_rows
from apps.designs.views.version import network_labels, network_rows, structure_rows

from ..formatting import count, decimal, money
from ..model import Bullets, Chapter, Figure, Heading, KeyValues, Paragraph, Table
from ..network_diagram import network_svg
from ..source import DocumentSource
from .summary import architecture_sentence

logger = logging.getLogger(__name__)

KEY = "architecture"
TITLE = gettext_lazy("Architecture")


def schematic_svg(source: DocumentSource) -> str | None:
    """The schematic, from the topology page's cache when its SVG was drawn already (same key as the schematic
    view: version, generation time, plane and language); drawing it groups every link (about 15-30 s at 3 M links)."""
    from django.core.cache import cache

    from apps.designs.api.topology import Topology, TopologyError
    from apps.designs.api.topology.aggregation import first_view_cache_key
    from apps.designs.api.topology.views import schematic_document

    try:
        topology = Topology(source.version, level="auto")
        key = "fabricweb:schematic:v1:" + first_view_cache_key(source.version, "schematic", topology.plane)
        svg = cache.get(key)
        if svg is None:
            svg = schematic_document(topology)
            cache.set(key, svg, 24 * 3600)
        return svg
    except TopologyError:
        logger.warning("no schematic for version %s", source.version.pk, exc_info=True)
        return None


def network_figures(source: DocumentSource) -> list:
    """A diagram per other network (tiers, counts, link counts); a converged one says where it runs."""
    nets = (source.version.summary or {}).get("networks") or {}
    spec = source.version.spec or {}
    labels = network_labels()
    blocks: list = []
    for key in ("frontend", "storage", "oob"):
        net = nets.get(key)
        if not net:
            continue
        svg = network_svg(key=key, title=str(labels[key]), net=net, net_spec=spec.get(key) or {})
        if svg is None:
            blocks.append(Paragraph(_("%(network)s: converged onto the front-end network, no switches of its "
                                      "own.") % {"network": labels[key]}))
            continue
        blocks.append(Figure(svg=svg, width_mm=150, caption=_(
            "%(network)s: its switch tiers with their counts and models, the endpoints it connects and the "
            "number of links between each pair of tiers.") % {"network": labels[key]}))
    return blocks


def build(source: DocumentSource) -> Chapter:
    blocks: list = [Heading(_("Scale-up domains"))]
    rows = scale_up_rows(source.summary) + split_rows(source.summary)
    if rows:
        blocks.append(KeyValues([(str(row["label"]), str(row["value"])) for row in rows]))
        notes = scale_up_notes(source.summary)
        if notes:
            blocks.append(Bullets(notes))
    else:
        blocks.append(Paragraph(_("Not reported for this version (generated before scale-up domains).")))

    blocks += [Heading(_("Backend fabric")), Paragraph(architecture_sentence(source)),
               KeyValues([(str(label), str(value)) for label, value in structure_rows(source.version)])]
    svg = schematic_svg(source)
    if svg:
        blocks.append(Figure(svg=svg, caption=_("The backend fabric: one scale unit in full, then every plane with "
                                                "its pods or scale units, spines and cores, and the link counts.")))

    blocks.append(Heading(_("Other networks")))
    networks = network_rows(source.version)
    if networks:
        blocks.append(Table(
            headers=[_("Network"), _("Switches"), _("Links"), _("Total cost") + f" ({source.currency})",
                     _("Power, typical (kW)")],
            rows=[[str(row["label"]) + (" · " + _("converged onto the front-end") if row["converged"] else ""),
                   count(row["switches"]) + (f" ({row['switch_detail']})" if row["switch_detail"] else ""),
                   count(row["links"]), at_least(money(row["cost"]), row["cost_parts"]),
                   at_least(decimal(row["power_kw"]), row["power_parts"])] for row in networks],
            numeric=(1, 2, 3, 4), total_rows=1,
        ))
        blocks += network_figures(source)
    else:
        blocks.append(Paragraph(_("This design has the backend fabric only: no front-end, storage or out-of-band "
                                  "management network was asked for.")))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
