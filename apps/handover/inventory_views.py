"""The inventory page of a version (handover:inventory, /handover/projects/<p>/versions/<v>/inventory/).

GET: whether the version is won, its link statuses, and every planned device with its serial
number, asset tag and status (?page=, ?q= name contains). POST action=won marks an approved version
won; POST action=import takes a CSV or Excel file of serials and asset tags: a bad file re-renders the
page (400) with every bad row and column, and nothing is imported. POST action=precheck takes host
pre-check reports (files or one zip; apps.handover.precheck); the page lists the hosts that differ.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from apps.designs.models import DeviceRecord
from apps.designs.models.records import record_id_range

from .inventory import handover_get, handover_mark_won, inventory_import, link_status_counts
from .models import DeviceInventory, Status
from apps.engine.precheck import precheck_script

from .precheck import precheck_deviations, precheck_design, precheck_upload
from .text import deviation_rows
from .views import VersionPageMixin

DEVICES_PER_PAGE = 200
MAX_IMPORT_BYTES = 16 * 1024 * 1024


def device_rows(version, handover, *, query: str = ""):
    first, last = record_id_range(version.pk)
    devices = DeviceRecord.objects.filter(pk__range=(first, last)).only("id", "name", "role", "rack", "rack_unit")
    if query:
        devices = devices.filter(name__icontains=query)
    return devices.order_by("id"), handover


class InventoryView(VersionPageMixin, View):
    template_name = "handover/inventory.html"

    def get(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        return self._render(version, errors=[], status=200)

    def post(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        action = request.POST.get("action", "")
        try:
            if action == "won":
                handover_mark_won(version=version, user=request.user)
            elif action == "precheck":
                count = precheck_upload(version=version, uploads=request.FILES.getlist("files"))
                return redirect(f"{request.path}?prechecked={count}#precheck")
            elif action == "import":
                upload = request.FILES.get("file")
                if upload is None:
                    raise ValidationError({"file": [_("Choose a CSV or Excel file.")]})
                if upload.size > MAX_IMPORT_BYTES:
                    raise ValidationError({"file": [_("The file is larger than %(mb)s MB.") % {
                        "mb": MAX_IMPORT_BYTES // (1024 * 1024)}]})
                count = inventory_import(version=version, name=upload.name, data=upload.read())
                return redirect(f"{request.path}?imported={count}")
            else:
                raise ValidationError({"action": [_("Unknown action.")]})
        except ValidationError as exc:
            errors = [m for ms in exc.message_dict.values() for m in ms] if hasattr(exc, "error_dict") \
                else exc.messages
            return self._render(version, errors=errors, status=400)
        return redirect(request.path)

    def _render(self, version, *, errors, status):
        handover = handover_get(version=version)
        query = self.request.GET.get("q", "")[:100]
        page = None
        counts = {}
        if handover is not None:
            devices, _h = device_rows(version, handover, query=query)
            page = Paginator(devices, DEVICES_PER_PAGE).get_page(self.request.GET.get("page"))
            stored = {d.name: d for d in DeviceInventory.objects.filter(
                handover=handover, name__in=[d.name for d in page.object_list])}
            page.rows = [{"device": d, "inventory": stored.get(d.name),
                          "status": stored[d.name].get_status_display() if d.name in stored
                          else Status.PLANNED.label} for d in page.object_list]
            counts = link_status_counts(handover)
        hosts, deviations = precheck_deviations(version=version)
        return render(self.request, self.template_name, {
            "precheck_hosts": hosts, "deviations": deviation_rows(deviations),
            "prechecked": self.request.GET.get("prechecked", ""),
            "project": self.project, "design": version.design, "version": version, "handover": handover,
            "page": page, "errors": errors, "query": query, "link_counts": counts,
            "imported": self.request.GET.get("imported", ""),
            "status_labels": {s.value: s.label for s in Status},
        }, status=status)


class PrecheckScriptView(VersionPageMixin, View):
    """The host pre-check script of the version (bash, read-only), as a download."""

    def get(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        response = HttpResponse(precheck_script(precheck_design(version=version)), content_type="text/x-shellscript")
        response["Content-Disposition"] = f'attachment; filename="precheck-v{version.number}.sh"'
        return response
