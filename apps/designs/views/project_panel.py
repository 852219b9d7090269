"""The designs panel on the project page: every design with its versions, status, cost and links.

Registered when this module is imported (apps.designs.urls imports the views package, and the
URLconf is loaded before any page renders), so the designs app needs no AppConfig.ready().
"""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from apps.projects.models import Project
from apps.projects.panels import ProjectPanel, project_panel_register

from ..panels import version_labels
from ..selectors import design_list_for_project, version_list_for_project

# Inputs compared between a version and the one before it (what changed, in a few words).
CHANGE_FIELDS = (
    ("gpus", _("GPUs")), ("planes", _("planes")), ("tiers", _("tiers")), ("oversubscription", _("oversubscription")),
    ("server", _("server")), ("leaf_switch", _("leaf switch")), ("leaf_breakout", _("leaf breakout")),
    ("spine_switch", _("spine switch")), ("core_switch", _("core switch")), ("discount_pct", _("discount (%)")),
    ("currency", _("currency")),
)


def _shown(version, name: str) -> str:
    value = getattr(version, name)
    if value is None:
        return "–"
    if hasattr(value, "sku"):
        return value.sku
    if name == "gpus":
        return f"{value:,}"
    return str(value.normalize() if hasattr(value, "normalize") else value)


def version_changes(previous, version) -> list[str]:
    """What changed in `version`'s inputs since `previous` ("GPUs 1,024 → 2,048"), in the active language."""
    if previous is None:
        return []
    out = []
    for name, label in CHANGE_FIELDS:
        before, after = _shown(previous, name), _shown(version, name)
        if before != after:
            out.append(f"{label} {before} → {after}")
    return out


def designs_panel_context(request: HttpRequest, project: Project) -> dict[str, Any]:
    versions: dict[int, list] = {}
    every = list(version_list_for_project(project=project).order_by("design__name", "-number"))
    for version in every:
        versions.setdefault(version.design_id, []).append(version)
    labels = version_labels(every)
    for listed in versions.values():
        for version, previous in zip(listed, [*listed[1:], None]):
            version.changes = version_changes(previous, version)
            version.has_previous = previous is not None
            version.labels = [column[version.pk] for column in labels.values() if version.pk in column]
    designs = [
        {"design": design, "versions": versions.get(design.pk, [])}
        for design in design_list_for_project(project=project)
    ]
    return {"designs": designs}


project_panel_register(ProjectPanel(
    key="designs", template_name="designs/_project_designs.html", get_context=designs_panel_context, order=10,
))
