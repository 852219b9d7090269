"""As-built pages of a version (namespace "handover", included at /handover/).

handover:asbuilt          projects/<p>/versions/<v>/asbuilt/                       GET the upload form, the latest
                                                                                    (or ?check=<id>) check's counts,
                                                                                    findings table (?state= filter)
                                                                                    and every upload; POST an upload
handover:asbuilt-fixes    projects/<p>/versions/<v>/asbuilt/<check>/work-orders/    the fix list as printable work orders
handover:asbuilt-fixes-csv  .../work-orders.csv                                      the same as CSV (cells as text)
handover:asbuilt-upload   .../<check>/upload.zip                                     the files as uploaded
A rejected upload re-renders the page (400) with each error, naming file and line; nothing is saved.
"""
from __future__ import annotations

import csv
import io

from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from apps.designs.views.common import project_version
from apps.engine.safe_text import csv_text
from apps.projects.views import ProjectScopedViewMixin

from .selectors import asbuilt_check_get, asbuilt_check_list
from .services import asbuilt_check_create, upload_max_bytes
from .text import fix_text, kind_label, state_label

FINDINGS_PER_PAGE = 200
FINDING_STATES = ("miswired", "missing", "unexpected")


def finding_rows(findings: list[dict]) -> list[dict]:
    return [{**f, "fix_text": fix_text(f), "state_label": state_label(f["state"]), "kind_label": kind_label(f["kind"]),
             "number": n} for n, f in enumerate(findings, start=1)]


class VersionPageMixin(ProjectScopedViewMixin):
    def version_and_check(self, version_pk, check_pk=None):
        version = project_version(project=self.project, pk=version_pk)
        if not version.is_ready:
            raise Http404(_("The version is not generated yet."))
        check = None
        if check_pk is not None:
            check = asbuilt_check_get(version=version, pk=check_pk)
            if check is None:
                raise Http404(_("No such as-built check."))
        return version, check


class AsBuiltView(VersionPageMixin, View):
    template_name = "handover/asbuilt.html"

    def get(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        return self._render(version, errors=[], status=200)

    def post(self, request, project_pk, version_pk):
        version, _check = self.version_and_check(version_pk)
        try:
            check = asbuilt_check_create(version=version, user=request.user, uploads=request.FILES.getlist("files"))
        except ValidationError as exc:
            errors = exc.message_dict.get("files", exc.messages) if hasattr(exc, "error_dict") else exc.messages
            return self._render(version, errors=errors, status=400)
        return redirect(f"{request.path}?check={check.pk}")

    def _render(self, version, *, errors, status):
        checks = list(asbuilt_check_list(version=version)[:100])
        chosen = self.request.GET.get("check", "")
        check = None
        if chosen.isascii() and chosen.isdigit():
            check = asbuilt_check_get(version=version, pk=int(chosen))
        if check is None and checks:
            check = asbuilt_check_get(version=version, pk=checks[0].pk)
        state = self.request.GET.get("state", "")
        page = None
        notes = []
        if check is not None:
            findings = [f for f in check.findings if not state or f["state"] == state]
            page = Paginator(finding_rows(findings), FINDINGS_PER_PAGE).get_page(self.request.GET.get("page"))
            notes = [fix_text(n) for n in check.notes]
        return render(self.request, self.template_name, {
            "project": self.project, "design": version.design, "version": version, "can_manage": self.can_manage(),
            "checks": checks, "check": check, "page": page, "notes": notes, "errors": errors,
            "state": state, "state_choices": [(s, state_label(s)) for s in FINDING_STATES],
            "limit_mb": f"{upload_max_bytes() / (1024 * 1024):,.0f}",
        }, status=status)


WORK_ORDER_COLUMNS = ("number", "rack", "plane", "rail", "state", "kind", "a", "b", "fix")


def work_order_rows(check) -> list[dict]:
    return finding_rows(check.findings)


class AsBuiltWorkOrdersView(VersionPageMixin, View):
    """The fix list as printable work orders, one per finding, grouped by rack."""

    def get(self, request, project_pk, version_pk, check_pk):
        version, check = self.version_and_check(version_pk, check_pk)
        groups: dict[str, list[dict]] = {}
        for row in work_order_rows(check):
            groups.setdefault(row["rack"] or "", []).append(row)
        return render(request, "handover/work_orders.html", {
            "project": self.project, "design": version.design, "version": version, "check": check,
            "groups": sorted(groups.items()),
        })


class AsBuiltWorkOrdersCsvView(VersionPageMixin, View):
    def get(self, request, project_pk, version_pk, check_pk):
        version, check = self.version_and_check(version_pk, check_pk)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([_("Work order"), _("Rack"), _("Plane"), _("Rail"), _("State"), _("Finding"), _("A end"),
                         _("B end"), _("Fix")])
        for row in work_order_rows(check):
            writer.writerow([csv_text(v) for v in (
                row["number"], row["rack"], "" if row["plane"] < 0 else row["plane"],
                "" if row["rail"] < 0 else row["rail"], row["state_label"], row["kind_label"], row["a"], row["b"],
                row["fix_text"])])
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (f'attachment; filename="asbuilt-work-orders-v{version.number}-'
                                           f'{check.pk}.csv"')
        return response


class AsBuiltUploadDownloadView(VersionPageMixin, View):
    def get(self, request, project_pk, version_pk, check_pk):
        _version, check = self.version_and_check(version_pk, check_pk)
        response = HttpResponse(bytes(check.archive), content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="asbuilt-upload-{check.pk}.zip"'
        return response
