"""Racks pages (namespace "racks", at /designs/racks/): the hall's floor plan and a rack's elevation.

Every page sits under a project (ProjectScopedViewMixin): non-members get 404, a version of
another project is 404 too. The drawings are SVG made on the server (apps.racks.svg); the floor
plan's zoom and pan come from static/js/racks.js (no inline script: the site's CSP refuses them).
"""
from __future__ import annotations

from urllib.parse import quote, urlencode

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views import View

from apps.designs.views.common import project_version
from apps.designs.views.version import VersionPageMixin

from .presentation import hall_facts, item_power, rack_facts, rack_table_rows, role_labels
from .selectors import hall_plan, rack_contents, rack_get, rack_of_device, rack_summaries, rack_summary
from .svg import basis_label, floorplan_svg, legend_entries, rack_elevation_svg

RACK_PLACEHOLDER = "__rack__"
RACK_TABLE_ROWS = 40  # the fullest racks listed under the plan; the API and the workbook list them all


def _rack_url(project_pk: int, version_pk: int, name: str) -> str:
    return reverse("racks:rack", kwargs={"project_pk": project_pk, "version_pk": version_pk, "name": name})


def _topology_url(project_pk: int, version_pk: int, *, device: str = "", network: str = "") -> str:
    url = reverse("designs:version-topology", kwargs={"project_pk": project_pk, "version_pk": version_pk})
    query = {key: value for key, value in (("network", network if network != "backend" else ""),
                                           ("device", device)) if value}
    return f"{url}?{urlencode(query)}#cabling" if query else url


class _RacksPage(VersionPageMixin, View):
    panel_slots = ("header", "nav")

    def _version(self, version_pk):
        version = project_version(project=self.project, pk=version_pk)
        if not version.is_ready:
            return None, redirect("designs:version-detail", project_pk=self.project.pk, version_pk=version.pk)
        return version, None


class HallView(_RacksPage):
    template_name = "racks/hall.html"

    def get(self, request, project_pk, version_pk):
        version, response = self._version(version_pk)
        if response:
            return response
        context = self.version_context(version)
        hall = hall_plan(version=version)
        context.update(hall=hall, tab="racks", topology_url=_topology_url(self.project.pk, version.pk))
        if hall is not None:
            racks = rack_summaries(version=version)
            # One reverse() for thousands of racks: the name goes into a URL made once.
            rack_url = _rack_url(self.project.pk, version.pk, RACK_PLACEHOLDER)
            context.update(
                floorplan=mark_safe(floorplan_svg(  # noqa: S308  (every text in it is escaped by svg.py)
                    hall, racks, legend=False,
                    rack_href=lambda name: rack_url.replace(RACK_PLACEHOLDER, quote(name, safe="")))),
                # Beside the plan, not in it: zooming and panning never put the legend over the racks.
                legend=[{"kind": kind, "paint": mark_safe(paint), "text": text}  # noqa: S308  (paint: svg.py's own)
                        for kind, paint, text in legend_entries(hall, racks)],
                legend_title=_("Power per rack (%(basis)s)") % {"basis": basis_label(hall.power_basis)},
                facts=hall_facts(hall, racks),
                rack_rows=rack_table_rows(hall, racks, limit=RACK_TABLE_ROWS),
                rack_count=len(racks),
            )
        return render(request, self.template_name, context)


class RackView(_RacksPage):
    template_name = "racks/rack.html"

    def get(self, request, project_pk, version_pk, name):
        version, response = self._version(version_pk)
        if response:
            return response
        rack = rack_get(version=version, name=name)
        if rack is None:
            raise Http404(_("No such rack."))
        hall = hall_plan(version=version)
        summary = rack_summary(rack)
        items = rack_contents(rack=rack)
        project_id = self.project.pk
        basis = hall.power_basis if hall else "typical"

        def device_href(item):
            if item.kind != "device":
                return None
            return _topology_url(project_id, version.pk, device=item.name, network=item.network)

        roles = role_labels()
        context = self.version_context(version)
        context.update(
            tab="racks", hall=hall, rack=summary,
            elevation=mark_safe(rack_elevation_svg(summary, items, basis=basis,  # noqa: S308  (escaped by svg.py)
                                                   device_href=device_href)),
            facts=rack_facts(summary, basis),
            items=[{"item": item, "role": roles.get(item.role, item.role), "topology_url": device_href(item),
                    "power_typical": item_power(item.power_typical_w, item.power_missing),
                    "power_max": item_power(item.power_max_w, item.power_missing)}
                   for item in reversed(items)],
            hall_url=reverse("racks:hall", kwargs={"project_pk": project_id, "version_pk": version.pk}),
            highlight=request.GET.get("device", ""),
        )
        return render(request, self.template_name, context)


class DeviceRackView(_RacksPage):
    """From a device (the topology inspector's "Its rack") to the elevation of the rack holding it."""

    def get(self, request, project_pk, version_pk, device):
        version, response = self._version(version_pk)
        if response:
            return response
        rack = rack_of_device(version=version, name=device)
        if rack is None:
            raise Http404(_("This device has no rack."))
        return redirect(_rack_url(self.project.pk, version.pk, rack) + "?" + urlencode({"device": device}))
