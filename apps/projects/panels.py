"""Sections other apps add to the project detail page (the designs app lists design versions).

The projects app does not know about designs; an app registers a panel in its AppConfig.ready():

    from apps.projects.panels import ProjectPanel, project_panel_register

    def _design_panel_context(request, project):
        return {"designs": design_list_for_project(project=project)}

    project_panel_register(ProjectPanel(
        key="designs", template_name="designs/_project_designs.html",
        get_context=_design_panel_context, order=10,
    ))

Each panel's template is rendered with ``project``, ``can_manage``, ``request`` and whatever
get_context returns, inside ``{% block project_designs %}`` of projects/project_detail.html.
Panels are rendered only for members: the page itself is 404 for everyone else.
"""
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from .models import Project
from .selectors import project_user_can_manage


@dataclass(frozen=True)
class ProjectPanel:
    key: str
    template_name: str
    get_context: Callable[[HttpRequest, Project], dict[str, Any]] | None = None
    order: int = 100


_PANELS: dict[str, ProjectPanel] = {}


def project_panel_register(panel: ProjectPanel) -> None:
    """Add or replace (same key) a panel; registering twice is harmless (ready() may run twice)."""
    _PANELS[panel.key] = panel


def project_panel_unregister(*, key: str) -> None:
    _PANELS.pop(key, None)


def project_panel_list() -> list[ProjectPanel]:
    return sorted(_PANELS.values(), key=lambda panel: (panel.order, panel.key))


def project_panels_render(*, request: HttpRequest, project: Project) -> list[SafeString]:
    rendered = []
    can_manage = project_user_can_manage(user=request.user, project=project)
    for panel in project_panel_list():
        context = {"project": project, "can_manage": can_manage}
        if panel.get_context is not None:
            context.update(panel.get_context(request, project))
        rendered.append(render_to_string(panel.template_name, context, request=request))
    return rendered
