"""Reading what exports need: a version's rows as plain tuples, and export files through the user's projects.

Rules:
- Rows are read as tuples (`values_list`) in primary-key order through a server-side cursor
  (`iterator(chunk_size=...)`), never as model instances: a 65,536-GPU version has ~200,000
  links. Device names and racks come from one dict per version instead of a join per link.
- An export file is visible when its version's project is (apps.designs.selectors); anything
  else is Http404.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404
from django.utils.text import slugify
from django.utils.translation import gettext as _

from apps.catalog.kinds import ITEM_KINDS
from apps.designs.models import (BomLineRecord, DesignVersion, DeviceRecord, LinkRecord, PortRecord,
                                 record_id_range)
from apps.designs.selectors import version_list_for_user

from .kinds import export_kind_get
from .models import ExportFile

CHUNK_ROWS = 10_000
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ZIP_CONTENT_TYPE = "application/zip"


def _in_version(queryset: QuerySet, version: DesignVersion) -> QuerySet:
    first, last = record_id_range(version.pk)
    return queryset.filter(version=version, pk__gte=first, pk__lte=last)


def version_link_count(*, version: DesignVersion) -> int:
    total = (version.summary or {}).get("total_links")
    if isinstance(total, int):
        return total
    return _in_version(LinkRecord.objects.all(), version).count()


def version_link_rows(*, version: DesignVersion, fields: Sequence[str]) -> Iterator[tuple]:
    """The version's links as tuples of `fields`, in link order."""
    return (
        _in_version(LinkRecord.objects.all(), version)
        .order_by("pk")
        .values_list(*fields)
        .iterator(chunk_size=CHUNK_ROWS)
    )


def version_device_rows(*, version: DesignVersion, fields: Sequence[str], switches_only: bool = False) -> list[tuple]:
    """The version's devices as tuples of `fields`, in device order (tens of thousands at most)."""
    devices = _in_version(DeviceRecord.objects.all(), version)
    if switches_only:
        devices = devices.exclude(role="server")
    return list(devices.order_by("pk").values_list(*fields).iterator(chunk_size=CHUNK_ROWS))


@dataclass(frozen=True, slots=True)
class DeviceRef:
    name: str
    rack: str


def version_device_map(*, version: DesignVersion) -> dict[int, DeviceRef]:
    """Device id -> name and rack, for resolving link ends without a join."""
    return {pk: DeviceRef(name, rack) for pk, name, rack in version_device_rows(
        version=version, fields=("pk", "name", "rack"))}


def version_network_link_rows(*, version: DesignVersion, network: str, fields: Sequence[str]) -> Iterator[tuple]:
    """One of the other networks' links (frontend, storage, oob) as tuples of `fields`, in link order."""
    first, last = record_id_range(version.pk, network)
    return (LinkRecord.objects.filter(version=version, pk__gte=first, pk__lte=last).order_by("pk")
            .values_list(*fields).iterator(chunk_size=CHUNK_ROWS))


def version_network_link_count(*, version: DesignVersion, network: str) -> int:
    first, last = record_id_range(version.pk, network)
    return LinkRecord.objects.filter(version=version, pk__gte=first, pk__lte=last).count()


def version_network_port_count(*, version: DesignVersion, network: str) -> int:
    """The ports stored under one of the other networks (every used port of that network)."""
    first, last = record_id_range(version.pk, network)
    return PortRecord.objects.filter(version=version, pk__gte=first, pk__lte=last).count()


def version_network_device_rows(*, version: DesignVersion, network: str, fields: Sequence[str]) -> list[tuple]:
    """One of the other networks' own devices (switches; storage nodes), in device order."""
    first, last = record_id_range(version.pk, network)
    return list(DeviceRecord.objects.filter(version=version, pk__gte=first, pk__lte=last).order_by("pk")
                .values_list(*fields).iterator(chunk_size=CHUNK_ROWS))


def version_cluster_device_map(*, version: DesignVersion) -> dict[int, DeviceRef]:
    """Device id -> name and rack for every network's devices (a link of another network ends on a server)."""
    return {pk: DeviceRef(name, rack) for pk, name, rack in DeviceRecord.objects.filter(version=version)
            .values_list("pk", "name", "rack").iterator(chunk_size=CHUNK_ROWS)}


def version_bom_lines(*, version: DesignVersion) -> list[BomLineRecord]:
    return list(BomLineRecord.objects.filter(version=version).order_by("index"))


def catalog_example_price_skus(*, skus: Sequence[str]) -> set[str]:
    """Those of `skus` whose catalog price is marked as an example (not a quote)."""
    found: set[str] = set()
    for kind in ITEM_KINDS:
        found.update(kind.model.objects.filter(sku__in=list(skus), price_is_example=True).values_list("sku", flat=True))
    return found


# Export files -------------------------------------------------------------------------------------


def export_list_for_version(*, version: DesignVersion) -> QuerySet[ExportFile]:
    return (
        ExportFile.objects.filter(version=version)
        .select_related("job__created_by", "version__design__project")
        .order_by("-created", "-id")
    )


def export_get_for_user(*, user: Any, pk: Any) -> ExportFile:
    """The export file if the user sees its project; Http404 otherwise."""
    exports = ExportFile.objects.filter(version__in=version_list_for_user(user=user).values("pk")).select_related(
        "job__created_by", "version__design__project__customer"
    )
    try:
        return exports.get(pk=pk)
    except (ExportFile.DoesNotExist, ValueError, TypeError):
        raise Http404(_("No such export.")) from None


def export_download_name(*, export: ExportFile) -> str:
    """"<project>-<design>-v<n>.xlsx" ("-netbox.zip", "-design-zh-hans.pdf": the kind's suffix), from the names
    as they are now."""
    version = export.version
    design = version.design
    project = slugify(design.project.name, allow_unicode=True) or "project"
    name = slugify(design.name, allow_unicode=True) or "design"
    kind = export_kind_get(export.kind)
    if kind is None:
        return f"{project}-{name}-v{version.number}-{export.kind}"
    suffix = kind.name_suffix + (f"-{export.language}" if kind.by_language and export.language else "")
    return f"{project}-{name}-v{version.number}{suffix}.{kind.extension}"


def export_content_type(*, export: ExportFile) -> str:
    kind = export_kind_get(export.kind)
    return kind.content_type if kind is not None else "application/octet-stream"


def export_absolute_path(*, export: ExportFile) -> Path | None:
    """Where the file lies, or None while it is not written (or was removed from disk)."""
    if not export.is_ready:
        return None
    path = Path(settings.MEDIA_ROOT) / export.path
    return path if path.is_file() else None
