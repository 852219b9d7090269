"""The "Exports" panel of the design page (apps.designs.panels): buttons to export, recent files.

Registered from ExportsConfig.ready(), so it is there before any design page is rendered.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from apps.designs.panels import DesignPanel, design_panel_register

from .views import exports_panel_context


def _exports_context(request, version) -> dict:
    return exports_panel_context(version=version)


def exports_panels_register() -> None:
    design_panel_register(DesignPanel(
        key="exports", title=_("Exports"), template_name="designs/exports/panel.html", slot="section",
        get_context=_exports_context, order=40,
    ))
