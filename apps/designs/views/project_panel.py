"""The designs panel on the project page: every design with its versions, status, cost and links.

Registered when this module is imported (apps.designs.urls imports the views package, and the
URLconf is loaded before any page renders), so the designs app needs no AppConfig.ready().
"""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from apps.projects.models import Project
from apps.projects.panels import ProjectPanel, project_panel_register

from ..selectors import design_list_for_project, version_list_for_project


def designs_panel_context(request: HttpRequest, project: Project) -> dict[str, Any]:
    versions: dict[int, list] = {}
    for version in version_list_for_project(project=project).order_by("design__name", "-number"):
        versions.setdefault(version.design_id, []).append(version)
    designs = [
        {"design": design, "versions": versions.get(design.pk, [])}
        for design in design_list_for_project(project=project)
    ]
    return {"designs": designs}


project_panel_register(ProjectPanel(
    key="designs", template_name="designs/_project_designs.html", get_context=designs_panel_context, order=10,
))
