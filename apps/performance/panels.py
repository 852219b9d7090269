"""The design page's link to the version's Performance page (nav slot; no query)."""
from __future__ import annotations

from django.urls import reverse

from apps.designs.panels import DesignPanel, design_panel_register


def _nav_context(request, version):
    match = getattr(request, "resolver_match", None)
    return {"performance_url": reverse("performance:version", kwargs={
        "project_pk": version.design.project_id, "version_pk": version.pk}),
        "active": bool(match and match.namespace == "performance")}


def performance_panels_register() -> None:
    design_panel_register(DesignPanel(key="performance-nav", template_name="performance/_nav.html", slot="nav",
                                      get_context=_nav_context, order=40))
