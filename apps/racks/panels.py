"""The version's "Racks" tab (nav slot, no query) and the topology inspector's link to a device's rack."""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from apps.designs.panels import DesignPanel, design_panel_register, device_link_register


def racks_url(version) -> str:
    return reverse("racks:hall", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


def _nav_context(request, version):
    return {"racks_url": racks_url(version)}


def _device_rack_url(version) -> str:
    # The page resolves the device's rack and goes to its elevation; {device} is filled in by the script.
    return reverse("racks:device-rack", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk,
                                                "device": "__device__"})


def racks_panels_register() -> None:
    design_panel_register(DesignPanel(key="racks-nav", template_name="racks/_nav.html", slot="nav",
                                      get_context=_nav_context, order=30))
    device_link_register(key="rack", label=_("Its rack"), url=_device_rack_url)
