"""What the handover app adds to other pages (registered from HandoverConfig.ready()).

- design page nav "asbuilt-nav": links to the version's as-built page, its inventory and install kit;
- design page section "asbuilt": the latest check's counts and % verified, with a link to its findings;
- design page header "asbuilt-overlay": on the topology page, a toggle that marks miswired and missing
  links on the drawing from GET /api/versions/<id>/asbuilt/link-states/ (static/js/asbuilt_overlay.js);
- project page "install-progress": every check of the project's versions over time (% verified).
"""
from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy

from apps.designs.panels import DesignPanel, design_panel_register
from apps.projects.panels import ProjectPanel, project_panel_register

from .selectors import asbuilt_check_latest, asbuilt_progress_for_project


def _page_url(version) -> str:
    return reverse("handover:asbuilt", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


def _nav_context(request, version) -> dict[str, Any]:
    return {"asbuilt_url": _page_url(version), "inventory_url": reverse(
        "handover:inventory", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk}),
        "kit_url": reverse("handover:kit", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})}


def _section_context(request, version) -> dict[str, Any]:
    return {"check": asbuilt_check_latest(version=version), "asbuilt_url": _page_url(version)}


def _overlay_context(request, version) -> dict[str, Any]:
    return {"states_url": reverse("api-version-asbuilt-link-states", kwargs={"pk": version.pk}),
            "on_topology": request.resolver_match is not None
            and request.resolver_match.url_name == "version-topology"}


def _progress_context(request, project) -> dict[str, Any]:
    rows: dict[int, dict[str, Any]] = {}
    for check in asbuilt_progress_for_project(project=project):
        version = check.version
        row = rows.setdefault(version.pk, {"version": version, "design": version.design, "checks": [],
                                           "url": _page_url(version)})
        row["checks"].append(check)
    for row in rows.values():
        row["latest"] = row["checks"][-1]
    return {"progress": list(rows.values())}


def handover_panels_register() -> None:
    design_panel_register(DesignPanel(
        key="asbuilt-nav", title=gettext_lazy("As-built check"), template_name="handover/_asbuilt_nav.html",
        slot="nav", get_context=_nav_context, order=60,
    ))
    design_panel_register(DesignPanel(
        key="asbuilt", title=gettext_lazy("As-built check"), template_name="handover/_asbuilt_section.html",
        slot="section", get_context=_section_context, order=60,
    ))
    design_panel_register(DesignPanel(
        key="asbuilt-overlay", title=gettext_lazy("As-built overlay"), template_name="handover/_asbuilt_overlay.html",
        slot="header", get_context=_overlay_context, order=60,
    ))
    project_panel_register(ProjectPanel(
        key="install-progress", template_name="handover/_project_progress.html", get_context=_progress_context,
        order=40,
    ))
