"""Reading a version's RoCE review and traffic analyses, and rebuilding its Plan when they need it.

Rules:
- Visibility is the version's (apps.designs.selectors.version_get_for_user); these functions
  take a version the caller may see.
- The RoCE review of a version is the stored one; a version generated before reviews were
  stored gets one computed from its frozen spec and RoCE input (not saved: selectors only read).
- The traffic report shown by default is the one generation stored; without it (older
  versions, or it failed) the newest successful on-demand analysis of both collectives.
- The Plan is rebuilt from `version.spec` by the engine (deterministic, 0.1-0.6 s): configs and
  on-demand analyses need ports and links that the database rows do not carry in engine form.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion, DeviceRecord, Role
from apps.designs.selectors import version_device_list
from apps.designs.services.roce_input import roce_changes, roce_settings_from_stored
from apps.engine import plan as engine_plan
from apps.engine.model import Plan
from apps.engine.roce import RoceSettings
from apps.engine.specio import spec_from_dict

from .models import RoceReview, TrafficAnalysis
from .review import RoceResult, roce_review_compute
from .text import ReviewContext


def version_plan(*, version: DesignVersion) -> Plan:
    """The engine Plan of a version, rebuilt from the spec frozen on it."""
    return engine_plan.plan(spec_from_dict(version.spec))


@dataclass
class RoceReviewData:
    """A version's RoCE review, stored or computed: settings in force, findings, headroom rows."""

    version: DesignVersion
    stored: bool
    settings: dict[str, Any]
    findings: list[dict[str, Any]]
    headroom: list[dict[str, Any]]
    context: dict[str, Any] = field(default_factory=dict)
    error: str = ""

    @property
    def roce_settings(self) -> RoceSettings:
        return RoceSettings.from_dict(self.settings)

    @property
    def changes(self) -> dict[str, Any]:
        """The settings that differ from the defaults."""
        return roce_changes(self.roce_settings) if self.settings else {}

    @property
    def review_context(self) -> ReviewContext:
        return ReviewContext(settings=self.roce_settings, classes=list(self.context.get("classes") or []),
                             link_classes=list(self.context.get("link_classes") or []))

    def count(self, severity: str) -> int:
        return sum(f["severity"] == severity for f in self.findings)


def roce_review_get(*, version: DesignVersion, plan: Plan | None = None) -> RoceReviewData:
    """The version's RoCE review (see the module rules); the version must be generated."""
    review = RoceReview.objects.filter(version=version).first()
    if review is not None:
        return RoceReviewData(version=version, stored=True, settings=review.settings, findings=review.findings,
                              headroom=review.headroom, context=review.context, error=review.error)

    try:
        settings = roce_settings_from_stored(version.roce)
        result = roce_review_compute(plan=plan or version_plan(version=version), settings=settings)
    except Exception as exc:  # an old version the engine can no longer plan or parse
        result = RoceResult(error=str(exc) or type(exc).__name__)
    return RoceReviewData(version=version, stored=False, settings=result.settings, findings=result.findings,
                          headroom=result.headroom,
                          context={"classes": result.classes, "link_classes": result.link_classes},
                          error=result.error)


def roce_settings_for_version(*, version: DesignVersion) -> RoceSettings:
    """The settings configs are generated from: frozen in the review, else the version's input."""
    review = RoceReview.objects.filter(version=version).only("settings", "error").first()
    if review is not None and review.settings and not review.error:
        return RoceSettings.from_dict(review.settings)
    return roce_settings_from_stored(version.roce)


def traffic_analysis_list(*, version: DesignVersion) -> QuerySet[TrafficAnalysis]:
    return TrafficAnalysis.objects.filter(version=version).order_by("-created_at", "-pk")


def traffic_analysis_default(*, version: DesignVersion) -> TrafficAnalysis | None:
    """The report shown by default (see the module rules), or None."""
    analyses = traffic_analysis_list(version=version)
    stored = analyses.filter(source=TrafficAnalysis.Source.GENERATION).first()
    if stored is not None and stored.status == TrafficAnalysis.Status.SUCCEEDED:
        return stored
    latest = analyses.filter(status=TrafficAnalysis.Status.SUCCEEDED, pattern=TrafficAnalysis.Pattern.BOTH).first()
    return latest or stored


def traffic_analysis_get(*, version: DesignVersion, pk: Any) -> TrafficAnalysis:
    try:
        return traffic_analysis_list(version=version).get(pk=pk)
    except (TrafficAnalysis.DoesNotExist, ValueError, TypeError):
        raise Http404(_("No such traffic analysis.")) from None


def version_config_samples(*, version: DesignVersion) -> list[DeviceRecord]:
    """The first device of each role (switches by tier, then a server), for config previews."""
    devices = version_device_list(version=version)
    samples = []
    for role in (Role.LEAF, Role.SPINE, Role.CORE, Role.SERVER):
        device = devices.filter(role=role).only("pk", "name", "role").first()
        if device is not None:
            samples.append(device)
    return samples
