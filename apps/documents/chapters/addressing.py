"""Addressing plan summary: the pools, the ranges per role and the ASN scheme (eBGP per RFC 7938).

An InfiniBand fabric has no /31 links, loopbacks or ASNs (the subnet manager routes it): the chapter
says so and shows the hosts' IPoIB pool.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.fabric_text import underlay_not_applicable
from apps.designs.views.version import network_labels

from ..formatting import count, text
from ..model import Chapter, Paragraph, Table
from ..source import DocumentSource

KEY = "addressing"
TITLE = gettext_lazy("Addressing plan")


def pool_labels() -> dict[str, str]:
    return {"p2p": _("Point-to-point links (/31)"), "host": _("Host addresses"), "loopback": _("Loopbacks"),
            "asn": _("ASNs")}


def role_labels() -> dict[str, str]:
    return {"server": _("servers"), "leaf": _("leaves"), "spine": _("spines"), "core": _("cores"),
            "storage": _("storage nodes")}


def build(source: DocumentSource) -> Chapter:
    blocks: list = []
    if source.version.is_infiniband:
        blocks.append(Paragraph(underlay_not_applicable()))
    pools = source.summary.get("pools") or {}
    labels = pool_labels()
    rows = []
    for key, pool in pools.items():
        if not isinstance(pool, dict):
            continue
        rows.append([labels.get(key, key), text(pool.get("cidr")),
                     f"{text(pool.get('first'))} – {text(pool.get('last'))}", count(pool.get("used")),
                     count(pool.get("size"))])
    if rows:
        blocks.append(Table(headers=[_("Pool"), _("Prefix"), _("Used range"), _("Used"), _("Size")], rows=rows,
                            numeric=(3, 4)))
    ranges = [row for row in source.address_ranges if row["loopback_first"] or row["asn_first"]]
    if ranges:
        networks, roles = network_labels(), role_labels()
        blocks.append(Paragraph(_("Ranges per role (first – last):")))
        blocks.append(Table(
            headers=[_("Network"), _("Role"), _("Devices"), _("Loopbacks"), _("ASNs")],
            rows=[[networks.get(row["network"], row["network"]), roles.get(row["role"], row["role"]),
                   count(row["devices"]),
                   f"{row['loopback_first']} – {row['loopback_last']}" if row["loopback_first"] else "–",
                   f"{row['asn_first']} – {row['asn_last']}" if row["asn_first"] else "–"] for row in ranges],
            numeric=(2,)))
    asn = pools.get("asn") if isinstance(pools.get("asn"), dict) else None
    if asn and not source.version.is_infiniband:
        blocks.append(Paragraph(_("ASN scheme: eBGP on every link as RFC 7938 describes, ASNs from %(first)s to "
                                  "%(last)s (%(used)s used), plane by plane: every leaf has its own ASN, the spines "
                                  "of a group share one, the cores of a plane share one.") % {
            "first": asn.get("first"), "last": asn.get("last"), "used": count(asn.get("used"))}))
    if not blocks:
        blocks.append(Paragraph(_("Not reported for this version.")))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
