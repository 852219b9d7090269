"""Links to the explorer: a card on the project page, a link in the design page's navigation."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from apps.designs.panels import DesignPanel, design_panel_register
from apps.projects.panels import ProjectPanel, project_panel_register


def explorer_panels_register() -> None:
    project_panel_register(ProjectPanel(key="explorer", template_name="explorer/_project_link.html", order=20))
    design_panel_register(DesignPanel(key="explorer", title=_("Explore fabrics"), slot="nav",
                                      template_name="explorer/_design_link.html", order=90, ready_only=False))
