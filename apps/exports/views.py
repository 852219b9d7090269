"""Pages for exports on the design page: ask for an export, watch it, download the file.

- GET  versions/<version_pk>/  the exports list of a version (the design page's "Exports" panel
  polls it while an export is being written);
- POST versions/<version_pk>/  kind=xlsx|netbox|pdf|docx (any registered kind), language=en|zh-hans
                               (optional): ask for an export, then back to `next`;
- GET  <pk>/download/          the file, named "<project>-<design>-v<n>.xlsx" (or "...-netbox.zip").
Signed-in members only: everyone else gets 404 on every method (the login page if signed out).
"""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View

from apps.designs.job_text import job_stage_label
from apps.designs.selectors import version_get_for_user

from .kinds import export_kinds
from .selectors import (
    export_absolute_path,
    export_content_type,
    export_download_name,
    export_get_for_user,
    export_list_for_version,
)
from .netbox_parts import PREFIX_MAX, prefix_default
from .services import version_export_create

PANEL_EXPORTS = 10


def exports_panel_context(*, version) -> dict:
    exports = list(export_list_for_version(version=version)[:PANEL_EXPORTS])
    for export in exports:
        export.stage_label = job_stage_label(export.job)  # the stage key in the reader's words
    return {
        "version": version,
        "exports": exports,
        "exports_active": any(not export.job.is_finished for export in exports),
        "export_kinds": [(kind.code, kind.label) for kind in export_kinds()],
        # Kinds written in a chosen language (the design document), asked for with a language field.
        "language_kinds": [kind for kind in export_kinds() if kind.by_language],
        "languages": settings.LANGUAGES,
        "netbox_prefix": prefix_default(version.design.name, version.design_id),
        "netbox_prefix_max": PREFIX_MAX,
    }


def _version_page_url(version) -> str:
    """The design page of the version, when the designs UI provides one."""
    try:
        return reverse("designs:version-detail",
                       kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})
    except NoReverseMatch:
        return ""


class _MemberView(View):
    """Resolves the object in dispatch, before the method is checked: non-members get 404 on every method."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.resolve(request, **kwargs)
        return super().dispatch(request, *args, **kwargs)

    def resolve(self, request, **kwargs) -> None:
        raise NotImplementedError


class VersionExportsView(_MemberView):
    """The list alone when the panel polls it (X-Requested-With: fetch), else a page of its own."""

    def resolve(self, request, **kwargs) -> None:
        self.version = version_get_for_user(user=request.user, pk=kwargs["version_pk"])

    def get(self, request, version_pk: int):
        context = exports_panel_context(version=self.version)
        if request.headers.get("X-Requested-With") == "fetch":
            return render(request, "designs/exports/_list.html", context)
        context["version_url"] = _version_page_url(self.version)
        return render(request, "designs/exports/exports_page.html", context)

    def post(self, request, version_pk: int):
        try:
            job = version_export_create(version=self.version, user=request.user, kind=request.POST.get("kind"),
                                        prefix=request.POST.get("prefix", "") if request.POST.get("kind") == "netbox"
                                        else "", language=request.POST.get("language", ""))
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            if job.status == job.Status.FAILED:
                messages.error(request, job.error)
            elif job.is_finished:
                messages.success(request, _("The export is ready to download."))
            else:
                messages.info(request, _("The export is being written; it appears below when it is ready."))
        target = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
            target = reverse("design-exports:version-exports", kwargs={"version_pk": self.version.pk})
        return redirect(target)


class ExportDownloadView(_MemberView):
    def resolve(self, request, **kwargs) -> None:
        self.export = export_get_for_user(user=request.user, pk=kwargs["pk"])

    def get(self, request, pk: int):
        path = export_absolute_path(export=self.export)
        if path is None:
            raise Http404(_("This export has no file (yet): it is being written, it failed, or it was removed."))
        return FileResponse(
            path.open("rb"), as_attachment=True, filename=export_download_name(export=self.export),
            content_type=export_content_type(export=self.export),
        )
