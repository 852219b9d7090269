"""Install-kit pages of a version (namespace "handover"): see kit.py for what each holds.

handover:kit              .../kit/                      rack chooser and the downloads
handover:kit-orders       .../kit/work-orders/?rack=R   printable cabling work orders of rack R
handover:kit-csv          .../kit/work-orders.csv[?rack=R]  the same as CSV, one rack or all (streamed)
handover:kit-labels       .../kit/labels/?rack=R        printable label sheet of rack R
handover:kit-p2p          .../kit/p2p.xlsx              the P2P sheet for NVIDIA's cable validation tool
A rack not in the design answers 404.
"""
from __future__ import annotations

from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views import View

from .kit import (
    kit_links,
    label_rows,
    p2p_workbook,
    rack_devices,
    version_racks,
    work_order_cells,
    work_order_header,
    work_orders_csv,
)
from apps.designs.views.version import VersionPageMixin as DesignPageMixin

from .views import VersionPageMixin


def _file_stem(version) -> str:
    return f"{slugify(version.design.name) or 'design'}-v{version.number}"


class KitMixin(VersionPageMixin):
    def rack_of(self, version, *, required: bool) -> str:
        rack = self.request.GET.get("rack", "")
        if not rack and not required:
            return ""
        if rack not in version_racks(version=version):
            raise Http404(_("No such rack in this design."))
        return rack

    def base(self, version) -> dict:
        return {"project": self.project, "design": version.design, "version": version}


class KitView(KitMixin, DesignPageMixin, View):
    """The install kit under the design's own header and tab bar."""

    panel_slots = ("header", "nav")

    def get(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        return render(request, "handover/kit.html", {**self.version_context(version), "tab": "kit",
                                                     "racks": version_racks(version=version)})


class KitWorkOrdersView(KitMixin, View):
    def get(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        rack = self.rack_of(version, required=True)
        rows = [work_order_cells(r) for r in kit_links(version=version, rack=rack)]
        return render(request, "handover/kit_work_orders.html", {
            **self.base(version), "rack": rack, "header": work_order_header(), "rows": rows,
            "devices": rack_devices(version=version, rack=rack)})


class KitCsvView(KitMixin, View):
    def get(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        rack = self.rack_of(version, required=False)
        response = StreamingHttpResponse(work_orders_csv(version=version, rack=rack or None),
                                         content_type="text/csv; charset=utf-8")
        suffix = f"-{slugify(rack)}" if rack else ""
        response["Content-Disposition"] = f'attachment; filename="{_file_stem(version)}-work-orders{suffix}.csv"'
        return response


class KitLabelsView(KitMixin, View):
    def get(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        rack = self.rack_of(version, required=True)
        return render(request, "handover/kit_labels.html", {
            **self.base(version), "rack": rack, "labels": label_rows(version=version, rack=rack)})


class KitP2PView(KitMixin, View):
    def get(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        response = HttpResponse(p2p_workbook(version=version),
                                content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        response["Content-Disposition"] = f'attachment; filename="{_file_stem(version)}-p2p.xlsx"'
        return response
