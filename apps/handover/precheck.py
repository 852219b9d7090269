"""Host pre-checks of a version: the generated script, uploads of its reports, and the hosts that differ.

Rules: the script is engine.precheck's, with the design's NIC speed, backend ports and (on RoCE
designs) its trust mode, PFC priority and ECN; reports are uploaded as files or one zip (the as-built
upload limits apply), one JSON report per host; a bad file is refused naming file and line and nothing
is saved; a host's new report replaces its old one. The inventory page lists the hosts that differ
from the majority or from the design (engine.precheck.precheck_compare).
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any, Iterable

from django.core.exceptions import ValidationError
from django.db import transaction

from apps.designs.models import DesignVersion
from apps.designs.services.roce_input import roce_settings_from_stored
from apps.engine.precheck import (
    Deviation,
    HostReport,
    PortReport,
    PrecheckDesign,
    PrecheckError,
    parse_precheck,
    precheck_compare,
)
from apps.engine.spec import SpecError

from .models import HostPrecheck
from .services import asbuilt_files_read
from .text import dump_error_text


def precheck_design(*, version: DesignVersion) -> PrecheckDesign:
    spec = version.spec or {}
    server = spec.get("server") or {}
    roce = not version.is_infiniband
    settings = None
    if roce:
        try:
            settings = roce_settings_from_stored(version.roce)
        except SpecError:
            settings = None
    return PrecheckDesign(
        name=version.design.name, version=version.number, backend_ports=int(server.get("nic_ports") or 0),
        speed_gbps=int(server.get("nic_gbps") or 0), roce=roce and settings is not None,
        pfc_priority=settings.pfc_priority if settings else None, trust=settings.trust if settings else None,
        ecn=settings.ecn_enabled if settings else None)


def precheck_upload(*, version: DesignVersion, uploads: Iterable[Any]) -> int:
    files, _archive = asbuilt_files_read(uploads=uploads)
    reports: list[HostReport] = []
    errors = []
    for name, data in files:
        try:
            reports.append(parse_precheck(data.decode("utf-8"), name))
        except UnicodeDecodeError:
            errors.append(dump_error_text(name, 0, "not UTF-8 text"))
        except PrecheckError as exc:
            errors.append(dump_error_text(exc.source, exc.line, exc.message))
    if errors:
        raise ValidationError({"files": errors[:50]})
    with transaction.atomic():
        for report in reports:
            HostPrecheck.objects.update_or_create(version=version, host=report.host,
                                                  defaults={"report": asdict(report)})
    return len(reports)


def _report(stored: dict) -> HostReport:
    return HostReport(stored.get("host", ""), [PortReport(**p) for p in stored.get("ports", [])])


def precheck_deviations(*, version: DesignVersion) -> tuple[int, list[Deviation]]:
    """(hosts reported, deviations) of the version's stored reports."""
    reports = [_report(r) for r in HostPrecheck.objects.filter(version=version).values_list("report", flat=True)]
    return len(reports), precheck_compare(reports, precheck_design(version=version))
