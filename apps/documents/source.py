"""Everything a design document reads about a version, read once and only when a chapter asks.

Rules:
- Numbers are the version's stored numbers: the summary the engine reported, the BOM rows and the
  totals the API shows (apps.designs.selectors.version_bom_totals), the stored RoCE review and
  traffic report (apps.analysis), the latest succeeded performance run (apps.performance), the
  review state, history and comments (apps.reviews). Nothing is recomputed here.
- Link and device figures are GROUP BY queries (media by tier, a length histogram, address ranges
  per role), never a row per link: a 65,536-GPU version has ~200,000 links.
- Reading never writes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from django.db.models import Count, Max, Min
from django.utils import timezone

from apps.designs.models import BomLineRecord, DesignVersion, DeviceRecord, LinkRecord, record_id_range
from apps.designs.selectors import version_bom_totals


@dataclass
class DocumentSource:
    version: DesignVersion
    language: str
    made_at: datetime = field(default_factory=timezone.now)

    @classmethod
    def for_version(cls, *, version: DesignVersion, language: str) -> DocumentSource:
        version = (DesignVersion.objects
                   .select_related("design__project__customer", "design__project__owner", "server__manufacturer",
                                   "nic__manufacturer", "leaf_switch__manufacturer", "spine_switch__manufacturer",
                                   "core_switch__manufacturer", "created_by")
                   .get(pk=version.pk))
        return cls(version=version, language=language)

    # The version and where it belongs ------------------------------------------------------------

    @property
    def design(self):
        return self.version.design

    @property
    def project(self):
        return self.version.design.project

    @property
    def customer(self):
        return self.version.design.project.customer

    @property
    def summary(self) -> dict[str, Any]:
        return self.version.summary or {}

    @property
    def currency(self) -> str:
        return self.version.currency

    @property
    def networks(self) -> dict[str, Any]:
        return self.summary.get("networks") or {}

    # Bill of materials ---------------------------------------------------------------------------

    @cached_property
    def bom_lines(self) -> list[BomLineRecord]:
        return list(BomLineRecord.objects.filter(version=self.version).order_by("index"))

    @cached_property
    def bom_totals(self) -> dict[str, Any]:
        return version_bom_totals(version=self.version)

    # Links and devices (grouped) ----------------------------------------------------------------

    def _links(self, network: str = "backend"):
        first, last = record_id_range(self.version.pk, network)
        return LinkRecord.objects.filter(version=self.version, pk__gte=first, pk__lte=last)

    @cached_property
    def media_by_tier(self) -> list[dict[str, Any]]:
        """Backend links per tier, medium kind and fibre: [{"tier", "medium_kind", "fiber", "links", "metres"}]."""
        rows = (self._links().values("tier", "medium_kind", "fiber")
                .annotate(links=Count("pk")).order_by("tier", "medium_kind", "fiber"))
        return list(rows)

    @cached_property
    def example_links(self) -> list[dict[str, Any]]:
        """The first backend link of each tier: {"tier", "a_port", "b_port", "label_a"} (one row per tier)."""
        out = []
        for tier in self._links().values_list("tier", flat=True).distinct().order_by("tier"):
            row = self._links().filter(tier=tier).order_by("pk").values("tier", "a_port", "b_port", "label_a").first()
            if row:
                out.append(row)
        return out

    @cached_property
    def length_counts(self) -> list[tuple[float, int]]:
        """(length in metres, links) of the backend, shortest first."""
        rows = self._links().values("length_m").annotate(links=Count("pk")).order_by("length_m")
        return [(float(row["length_m"]), int(row["links"])) for row in rows]

    @cached_property
    def other_network_links(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for network in self.networks:
            if network == "backend":
                continue
            out[network] = list(self._links(network).values("medium_kind").annotate(links=Count("pk"))
                                .order_by("medium_kind"))
        return out

    @cached_property
    def address_ranges(self) -> list[dict[str, Any]]:
        """Per network and role: devices, first and last loopback, first and last ASN."""
        rows = (DeviceRecord.objects.filter(version=self.version).values("network", "role")
                .annotate(devices=Count("pk"), loopback_first=Min("loopback"), loopback_last=Max("loopback"),
                          asn_first=Min("asn"), asn_last=Max("asn"))
                .order_by("network", "role"))
        return list(rows)

    # Analyses, performance, review ---------------------------------------------------------------

    @cached_property
    def roce_review(self):
        from apps.analysis.selectors import roce_review_get

        return roce_review_get(version=self.version)

    @cached_property
    def traffic_analysis(self):
        from apps.analysis.selectors import traffic_analysis_default

        return traffic_analysis_default(version=self.version)

    @cached_property
    def performance_run(self):
        from apps.performance.selectors import performance_run_latest

        return performance_run_latest(version=self.version, succeeded=True)

    @cached_property
    def review(self):
        from apps.reviews.selectors import review_for_version

        return review_for_version(version=self.version)

    @cached_property
    def review_events(self) -> list:
        from apps.reviews.selectors import review_event_list_for_version

        return list(review_event_list_for_version(version=self.version).select_related("actor"))

    @cached_property
    def comments(self) -> list:
        from apps.reviews.selectors import comment_list_for_version

        return list(comment_list_for_version(version=self.version))
