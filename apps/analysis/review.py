"""The RoCE review of a plan (checklist findings and PFC headroom) as JSON-ready rows, no database.

Generation stores it (services.version_analysis_save); for a version generated before reviews were
stored, the selectors compute it from the frozen spec on the fly (not saved).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from apps.engine.model import Plan
from apps.engine.roce import RoceSettings, present_classes, roce_checklist, roce_headroom
from apps.engine.roce.headroom import link_classes


@dataclass
class RoceResult:
    settings: dict[str, Any] = field(default_factory=dict)
    findings: list[dict[str, Any]] = field(default_factory=list)
    headroom: list[dict[str, Any]] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    link_classes: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0

    @property
    def errors(self) -> int:
        return sum(f["severity"] == "error" for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f["severity"] == "warning" for f in self.findings)


def _finding_dict(f) -> dict[str, Any]:
    return {"severity": f.severity, "code": f.code, "device_class": f.device_class, "message": f.message,
            "fix": f.fix, "params": {k: list(v) if isinstance(v, tuple) else v for k, v in dict(f.params).items()}}


def _headroom_dict(h) -> dict[str, Any]:
    lc = h.link_class
    return {"device_class": h.device_class, "link_class": lc.name, "tier": lc.tier, "gbps": lc.gbps,
            "links": lc.links, "longest_m": lc.longest_m, "cable_m": lc.cable_m, "needed": h.needed,
            "configured": h.configured, "xon": h.xon, "xoff": h.xoff, "size": h.size, "overridden": h.overridden,
            "profile": h.profile, "ok": h.configured >= h.needed}


def roce_review_compute(*, plan: Plan, settings: RoceSettings) -> RoceResult:
    """Checklist and headroom of `settings` on `plan`, as JSON-ready rows."""
    started = time.perf_counter()
    findings = [_finding_dict(f) for f in roce_checklist(plan, settings)]
    headroom = [_headroom_dict(h) for h in roce_headroom(plan, settings)]
    classes = [{"name": lc.name, "tier": lc.tier, "gbps": lc.gbps, "links": lc.links, "longest_m": lc.longest_m,
                "cable_m": lc.cable_m} for lc in link_classes(plan)]
    return RoceResult(settings=settings.to_dict(), findings=findings, headroom=headroom,
                      classes=list(present_classes(plan)), link_classes=classes,
                      seconds=round(time.perf_counter() - started, 4))
