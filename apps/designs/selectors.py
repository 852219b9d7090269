"""Reading designs, versions, their rows and jobs. Visibility always goes through the user's projects.

Rules:
- A design, version or job is visible when its project is (apps.projects.selectors); anything
  else is Http404, so ids of other projects' designs do not leak.
- Reading never writes: jobs a dead worker or broker left are repaired by the periodic sweep
  (services.job.jobs_sweep, run by celery beat), not by whoever happens to poll.
- A version's device, port and link rows are read by primary-key range (ids are composed from
  the version id, see models.records), which the primary key index answers directly.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.http import Http404
from django.utils.translation import gettext as _

from apps.projects.models import Project
from apps.projects.selectors import project_list_for_user

from .models import BomLineRecord, Design, DesignVersion, DeviceRecord, Job, LinkRecord, PortRecord, record_id_range

_CENTS = Decimal("0.01")


def _visible_projects(user: Any) -> QuerySet[Project]:
    return project_list_for_user(user=user).values("pk")


def _get(queryset: QuerySet, pk: Any, message: str):
    try:
        return queryset.get(pk=pk)
    except (queryset.model.DoesNotExist, ValueError, TypeError):
        raise Http404(message) from None


def design_list_for_project(*, project: Project) -> QuerySet[Design]:
    """A project's designs with their version count and latest version number."""
    latest = DesignVersion.objects.filter(design=OuterRef("pk")).order_by("-number")
    return (
        Design.objects.filter(project=project)
        .select_related("project", "created_by")
        .annotate(
            version_count=Count("versions"),
            latest_number=Max("versions__number"),
            latest_version_id=Subquery(latest.values("pk")[:1]),
            latest_status=Subquery(latest.values("status")[:1]),
        )
        .order_by("name")
    )


def design_list_for_user(*, user: Any) -> QuerySet[Design]:
    return Design.objects.filter(project__in=_visible_projects(user)).select_related("project", "created_by")


def design_get_for_user(*, user: Any, pk: Any) -> Design:
    return _get(design_list_for_user(user=user), pk, _("No such design."))


def version_list_for_user(*, user: Any) -> QuerySet[DesignVersion]:
    return DesignVersion.objects.filter(design__project__in=_visible_projects(user)).select_related(
        "design__project", "created_by", "server", "nic", "leaf_switch", "spine_switch", "core_switch"
    )


def version_list_for_project(*, project: Project) -> QuerySet[DesignVersion]:
    """Every version of every design of the project, newest design-versions last per design."""
    return (
        DesignVersion.objects.filter(design__project=project)
        .select_related("design__project", "created_by", "server", "nic", "leaf_switch", "spine_switch", "core_switch")
        .order_by("design__name", "number")
    )


def version_list_for_design(*, design: Design) -> QuerySet[DesignVersion]:
    return version_list_for_project(project=design.project).filter(design=design)


def version_get_for_user(*, user: Any, pk: Any) -> DesignVersion:
    return _get(version_list_for_user(user=user), pk, _("No such design version."))


def job_list_for_project(*, project: Project) -> QuerySet[Job]:
    return Job.objects.filter(project=project).select_related("version__design", "created_by")


def job_get_for_user(*, user: Any, pk: Any) -> Job:
    """The job if its project is visible."""
    jobs = Job.objects.filter(project__in=_visible_projects(user)).select_related("version__design", "project")
    return _get(jobs, pk, _("No such job."))


def version_latest_job(*, version: DesignVersion) -> Job | None:
    return version.jobs.order_by("-created_at", "-pk").first()


def _in_version(queryset: QuerySet, version: DesignVersion, network: str = "backend") -> QuerySet:
    """One network's rows of the version (the backend's by default): a primary-key range."""
    first, last = record_id_range(version.pk, network)
    return queryset.filter(version=version, pk__gte=first, pk__lte=last)


def version_device_list(*, version: DesignVersion, network: str = "backend") -> QuerySet[DeviceRecord]:
    return _in_version(DeviceRecord.objects.all(), version, network).order_by("pk")


def version_link_list(*, version: DesignVersion, network: str = "backend") -> QuerySet[LinkRecord]:
    return (
        _in_version(LinkRecord.objects.all(), version, network)
        .select_related("a_device", "b_device")
        .only(*[f.attname for f in LinkRecord._meta.concrete_fields], "a_device__name", "b_device__name")
        .order_by("pk")
    )


def version_port_list(*, version: DesignVersion, network: str = "backend") -> QuerySet[PortRecord]:
    return (
        _in_version(PortRecord.objects.all(), version, network)
        .select_related("device")
        .only(*[f.attname for f in PortRecord._meta.concrete_fields], "device__name", "device__role")
        .order_by("pk")
    )


def version_device_ids_named(*, version: DesignVersion, name: str) -> list[int]:
    """Ids of the version's devices with exactly this name, of any network (a filter for links and ports)."""
    return list(DeviceRecord.objects.filter(version=version, name=name).values_list("pk", flat=True)[:1000])


def version_bom_list(*, version: DesignVersion) -> QuerySet[BomLineRecord]:
    return BomLineRecord.objects.filter(version=version).order_by("index")


def bom_lines_with_spares(lines) -> list[BomLineRecord]:
    """The lines, each base line with `spares`: the spare quantity ordered of its SKU in its network and
    category (0 when none); a spare line has `spares` None (it is the spares)."""
    lines = list(lines)
    ordered: dict[tuple, int] = {}
    for line in lines:
        if line.spare:
            key = (line.network, line.category, line.sku)
            ordered[key] = ordered.get(key, 0) + int(line.qty)
    for line in lines:
        line.spares = None if line.spare else ordered.get((line.network, line.category, line.sku), 0)
    return lines


def version_exchange_rates(*, version: DesignVersion) -> list[dict[str, Any]]:
    """The rates the version's prices were converted with: [{"from": "USD", "to": "CNY", "rate": "7.1", ...}]."""
    return [
        {"from": source, "to": version.currency, "rate": str(used.get("rate")), "example": bool(used.get("example"))}
        for source, used in sorted((version.exchange_rates or {}).items()) if isinstance(used, dict)
    ]


def version_bom_totals(*, version: DesignVersion) -> dict[str, Any]:
    """Cost, power and rack-unit totals of a version's BOM, with the discount it was quoted at.

    Power is the network's, with the in-server part apart (None: generated before the split, when
    the power figures counted both); spares_subtotal is part of subtotal (None: before spares).
    """
    lines = version_bom_list(version=version).aggregate(
        subtotal=Sum("total"), power_typical_w=Sum("power_typical_w"), power_max_w=Sum("power_max_w"),
        rack_units=Sum("rack_units"), lines=Count("pk"), spares=Sum("total", filter=Q(spare=True)),
        spare_lines=Count("pk", filter=Q(spare=True)),
    )
    subtotal = (lines["subtotal"] or Decimal("0")).quantize(_CENTS)
    if version.total_cost is not None and version.subtotal is not None:
        discount, total = version.discount or Decimal("0"), version.total_cost
    else:
        # Half a cent up, as the engine and the workbook's ROUND() do.
        discount = (subtotal * version.discount_pct / 100).quantize(_CENTS, rounding=ROUND_HALF_UP)
        total = subtotal - discount
    return {
        "lines": lines["lines"],
        "subtotal": subtotal,
        "discount_pct": version.discount_pct,
        "discount": discount,
        "total": total,
        "currency": version.currency,
        "exchange_rates": version_exchange_rates(version=version),
        "power_typical_w": version.power_typical_w if version.power_typical_w is not None
        else lines["power_typical_w"] or 0.0,
        "power_max_w": version.power_max_w if version.power_max_w is not None else lines["power_max_w"] or 0.0,
        "rack_units": version.rack_units if version.rack_units is not None else lines["rack_units"] or 0,
        "in_server_typical_w": version.in_server_typical_w,
        "in_server_max_w": version.in_server_max_w,
        "spares_subtotal": version.spares_subtotal if version.spares_subtotal is not None
        else (lines["spares"] if lines["spare_lines"] else None),
        "spare_lines": lines["spare_lines"],
        "total_includes_spares": version.spares_subtotal is not None or bool(lines["spare_lines"]),
    }
