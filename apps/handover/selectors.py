"""Reads of the handover app: as-built checks of a version or a project, and a version's planned fabric."""
from __future__ import annotations

from django.db.models import QuerySet

from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord, PortRecord
from apps.designs.models.records import record_id_range
from apps.engine.asbuilt import PlannedFabric
from apps.projects.models import Project

from .models import AsBuiltCheck

# The heavy columns only the check page's download and the overlay need.
HEAVY = ("archive", "states")


def asbuilt_check_list(*, version: DesignVersion) -> QuerySet[AsBuiltCheck]:
    return AsBuiltCheck.objects.filter(version=version).defer(*HEAVY).order_by("-created_at", "-id")


def asbuilt_check_latest(*, version: DesignVersion) -> AsBuiltCheck | None:
    return asbuilt_check_list(version=version).first()


def asbuilt_check_get(*, version: DesignVersion, pk: int) -> AsBuiltCheck | None:
    return AsBuiltCheck.objects.filter(version=version, pk=pk).first()


def asbuilt_progress_for_project(*, project: Project) -> QuerySet[AsBuiltCheck]:
    """Every check of the project's versions, oldest first: the install progress over time."""
    return (AsBuiltCheck.objects.filter(version__design__project=project).defer(*HEAVY, "findings", "notes")
            .select_related("version__design").order_by("created_at", "id"))


def version_planned_fabric(*, version: DesignVersion, port_indexes: bool = False) -> PlannedFabric:
    """The version's links by name, in link index order; port_indexes also maps (device, port number)
    to the port's name (InfiniBand dumps number their ports)."""
    first, last = record_id_range(version.pk)
    devices = dict((pk, (name, rack)) for pk, name, rack in DeviceRecord.objects.filter(
        pk__range=(first, last)).values_list("id", "name", "rack").order_by())
    rows = LinkRecord.objects.filter(pk__range=(first, last)).order_by("id").values_list(
        "a_device_id", "a_port", "b_device_id", "b_port", "plane", "rail")
    a_dev, a_port, b_dev, b_port, plane, rail = [], [], [], [], [], []
    for a, ap, b, bp, pl, ra in rows.iterator(chunk_size=20_000):
        a_dev.append(devices[a][0])
        a_port.append(ap)
        b_dev.append(devices[b][0])
        b_port.append(bp)
        plane.append(-1 if pl is None else pl)
        rail.append(-1 if ra is None else ra)
    names: dict[tuple[str, int], str] = {}
    if port_indexes:
        for device, number, name in PortRecord.objects.filter(pk__range=(first, last)).values_list(
                "device_id", "number", "name").order_by().iterator(chunk_size=20_000):
            names[(devices[device][0], number)] = name
    return PlannedFabric(a_dev, a_port, b_dev, b_port, plane, rail, {n: r for n, r in devices.values()}, names)
