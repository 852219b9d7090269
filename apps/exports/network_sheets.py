"""Workbook sheets of the cluster's other networks: one cabling and addressing sheet per network.

"Front-end network", "Storage network" and "OOB network" (registered with designs' sheet registry,
after the built-in sheets): every link of that network with both ends (rack, device, port), medium,
kind, modules, length, subnet and both addresses. A version without that network leaves its sheet
out; the network's BOM lines are on the BOM sheet with the others (the workbook's total is the cluster's).
"""
from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.models import Tier
from apps.designs.sheets import workbook_sheet_register
from apps.designs.workbook import Column, Sheet

from .selectors import version_cluster_device_map, version_network_link_rows

FIELDS = ("index", "tier", "a_device_id", "a_port", "b_device_id", "b_port", "medium", "medium_kind", "a_sku",
          "b_sku", "cable_sku", "length_m", "subnet", "a_ip", "b_ip")
SHEETS = (("frontend", gettext_lazy("Front-end network"), 70), ("storage", gettext_lazy("Storage network"), 71),
          ("oob", gettext_lazy("OOB network"), 72))


def _writer(network: str):
    def write(ctx, sheet: Sheet) -> bool:
        summary = (ctx.version.summary or {}).get("networks") or {}
        total = int((summary.get(network) or {}).get("total_links") or 0)
        if network not in summary or not total:
            return False
        sheet.columns([
            Column(_("Link index"), 10, "id"), Column(_("Tier"), 12), Column(_("A rack"), 10),
            Column(_("A device"), 22), Column(_("A port"), 12), Column(_("B rack"), 10), Column(_("B device"), 22),
            Column(_("B port"), 12), Column(_("Medium"), 40), Column(_("Kind"), 7),
            Column(_("A-end module or cable"), 24), Column(_("B-end module"), 22), Column(_("Cable or fibre cord"), 24),
            Column(_("Length (m)"), 11, "metres"), Column(_("Subnet"), 18), Column(_("A address"), 15),
            Column(_("B address"), 15),
        ])
        version = ctx.version

        def rows() -> Iterator[tuple]:
            devices = version_cluster_device_map(version=version)
            tiers = {tier.value: str(tier.label) for tier in Tier}
            for (index, tier, a_id, a_port, b_id, b_port, medium, kind, a_sku, b_sku, cable_sku, length, subnet,
                 a_ip, b_ip) in version_network_link_rows(version=version, network=network, fields=FIELDS):
                a, b = devices[a_id], devices[b_id]
                yield (index, tiers[tier], a.rack, a.name, a_port, b.rack, b.name, b_port, medium, kind, a_sku,
                       b_sku, cable_sku, length, subnet, a_ip or "", b_ip or "")

        sheet.stream(rows(), count=total)
        return True

    return write


def network_sheets_register() -> None:
    for network, name, order in SHEETS:
        workbook_sheet_register(name, _writer(network), order=order)
