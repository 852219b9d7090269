"""The install kit of a version: cabling work orders per rack, label sheets, and the P2P link sheet.

- Work orders: one row per cable with an end in the rack (a cable between two racks is in both
  racks' orders): cable number (link index + 1), the label at each end, from rack / U / device /
  port to rack / U / device / port, medium, length and SKUs (module or cable assembly at each end,
  fibre cord). As CSV (cells as text, safe_text.csv_text) for one rack or all, and as a print page.
- Label sheets: the label of every cable end in the rack ("near-device:port > far-device:port").
- P2P sheet: the Excel file NVIDIA's UFM Cable Validation Tool takes as a topology (its "P2P File"
  page, docs.nvidia.com/networking/display/cablevalidationtool150/p2p+file): one sheet with the
  columns A-Node Name, A-Type (Host or Switch), A-Port, Z-Node Name, Z-Type, Z-Port, one row per
  cable. Ports are the plan's interface names on Ethernet; on InfiniBand the tool takes port numbers:
  switch port n is logical port n - 1 (as ibnetdiscover numbers them), host port n is HCA mlx5_{n-1}
  (the tool's default HCA mapping). The published page gives the columns in text and shows its
  example sheets only as pictures; the rack and U columns of those pictures are not written.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord, PortRecord
from apps.designs.models.records import record_id_range
from apps.engine.safe_text import csv_text

KIT_FIELDS = ("index", "label_a", "label_b", "a_device__name", "a_device__rack", "a_device__rack_unit", "a_port",
              "b_device__name", "b_device__rack", "b_device__rack_unit", "b_port", "medium", "length_m", "a_sku",
              "b_sku", "cable_sku", "a_device__role", "b_device__role")


def version_racks(*, version: DesignVersion) -> list[str]:
    first, last = record_id_range(version.pk)
    return sorted(set(DeviceRecord.objects.filter(pk__range=(first, last)).exclude(rack="")
                      .values_list("rack", flat=True).order_by()))


def kit_links(*, version: DesignVersion, rack: str | None = None) -> QuerySet:
    first, last = record_id_range(version.pk)
    links = LinkRecord.objects.filter(pk__range=(first, last))
    if rack:
        links = links.filter(Q(a_device__rack=rack) | Q(b_device__rack=rack))
    return links.order_by("id").values(*KIT_FIELDS)


def work_order_header() -> list[str]:
    return [_("Cable"), _("Label (A end)"), _("Label (B end)"), _("From rack"), _("From U"), _("From device"),
            _("From port"), _("To rack"), _("To U"), _("To device"), _("To port"), _("Medium"), _("Length (m)"),
            _("A-end module or cable"), _("B-end module"), _("Cable or fibre cord")]


def work_order_cells(row: dict[str, Any]) -> list[Any]:
    return [row["index"] + 1, row["label_a"], row["label_b"], row["a_device__rack"], row["a_device__rack_unit"],
            row["a_device__name"], row["a_port"], row["b_device__rack"], row["b_device__rack_unit"],
            row["b_device__name"], row["b_port"], row["medium"], f"{row['length_m']:g}", row["a_sku"], row["b_sku"],
            row["cable_sku"]]


def work_orders_csv(*, version: DesignVersion, rack: str | None = None) -> Iterator[str]:
    """The work orders as CSV text, chunk by chunk (a 197,000-cable fabric streams)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(work_order_header())
    for n, row in enumerate(kit_links(version=version, rack=rack).iterator(chunk_size=5000), start=1):
        writer.writerow([csv_text(v) for v in work_order_cells(row)])
        if n % 2000 == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def label_rows(*, version: DesignVersion, rack: str) -> list[dict[str, Any]]:
    """Every cable end in the rack with its label, by U then port."""
    labels = []
    for row in kit_links(version=version, rack=rack):
        if row["a_device__rack"] == rack:
            labels.append({"label": row["label_a"], "u": row["a_device__rack_unit"], "device": row["a_device__name"],
                           "port": row["a_port"], "cable": row["index"] + 1, "medium": row["medium"]})
        if row["b_device__rack"] == rack:
            labels.append({"label": row["label_b"], "u": row["b_device__rack_unit"], "device": row["b_device__name"],
                           "port": row["b_port"], "cable": row["index"] + 1, "medium": row["medium"]})
    labels.sort(key=lambda x: (-x["u"], x["device"], x["cable"]))
    return labels


P2P_COLUMNS = ("A-Node Name", "A-Type", "A-Port", "Z-Node Name", "Z-Type", "Z-Port")


def p2p_workbook(*, version: DesignVersion) -> bytes:
    from openpyxl import Workbook

    numbers: dict[tuple[int, str], int] = {}
    if version.is_infiniband:
        first, last = record_id_range(version.pk)
        numbers = {(d, name): n for d, name, n in PortRecord.objects.filter(pk__range=(first, last))
                   .values_list("device_id", "name", "number").order_by().iterator(chunk_size=20_000)}
    book = Workbook(write_only=True)
    sheet = book.create_sheet("P2P")
    sheet.append(list(P2P_COLUMNS))
    first, last = record_id_range(version.pk)
    rows = (LinkRecord.objects.filter(pk__range=(first, last)).order_by("id")
            .values_list("a_device_id", "a_device__name", "a_device__role", "a_port", "b_device_id", "b_device__name",
                         "b_device__role", "b_port"))
    for a_id, a_name, a_role, a_port, b_id, b_name, b_role, b_port in rows.iterator(chunk_size=5000):
        if numbers:
            a_port = numbers.get((a_id, a_port), -1) + 1
            b_port = numbers.get((b_id, b_port), -1) + 1
        sheet.append([csv_text(a_name), "Host" if a_role == "server" else "Switch", csv_text(a_port),
                      csv_text(b_name), "Host" if b_role == "server" else "Switch", csv_text(b_port)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def rack_devices(*, version: DesignVersion, rack: str) -> QuerySet[DeviceRecord]:
    first, last = record_id_range(version.pk)
    return DeviceRecord.objects.filter(pk__range=(first, last), rack=rack).order_by("-rack_unit", "name")
