"""REST endpoints for exports of a design version: ask for one, list them, poll one, download it.

- POST /api/versions/{id}/exports/ {"kind": "xlsx" | "netbox" | any registered kind (apps.exports.kinds;
  apps.documents adds "pdf" and "docx"), "language": "en" | "zh-hans"}: a version with at most
  FABRICWEB_EXPORT_SYNC_LINKS links (default 20,000) is written during the request and the answer
  is 200 with the finished export (status "succeeded" and its download_url, or "failed" and why);
  a bigger one answers 202 with the export to poll (GET /api/exports/{id}/ or /api/jobs/{job}/).
  A version that is not "ready" answers 400 {"version": [...]}; an unknown kind 400 {"kind": [...]}, an
  unknown language 400 {"language": [...]}.
- GET /api/versions/{id}/exports/: the version's exports, newest first.
- GET /api/exports/{id}/download/: the file ("<project>-<design>-v<n>.xlsx" or
  "...-netbox.zip"); 409 while it is being written or if it failed, 410 once removed from disk.
Everything is reached through the user's projects: 404 for non-members, on every method.
"""
from __future__ import annotations

from django.http import FileResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.response import Response

from apps.designs.api.views import VersionScopedMixin
from apps.exports.api.serializers import ExportCreateSerializer, ExportSerializer
from apps.exports.models import ExportFile
from apps.exports.selectors import (
    XLSX_CONTENT_TYPE,
    ZIP_CONTENT_TYPE,
    export_absolute_path,
    export_content_type,
    export_download_name,
    export_get_for_user,
    export_list_for_version,
)
from apps.exports.services import version_export_create


class ExportScopedMixin:
    """Resolves self.export (404 unless the user sees its project) before any handler runs."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False):
            self.export = export_get_for_user(user=request.user, pk=self.kwargs["pk"])


@extend_schema_view(
    get=extend_schema(summary="A version's exports (workbooks, NetBox files, design documents), newest first", tags=["exports"]),
    post=extend_schema(
        summary="Export a version: the Excel workbook (xlsx), NetBox import files (netbox), the design document "
                "(pdf, docx)",
        description=(
            "Small versions (at most FABRICWEB_EXPORT_SYNC_LINKS links, 20,000 by default) are written during "
            "the request: 200 with the finished export and its download_url. Bigger ones are written by a "
            "background job: 202 with the export to poll. 400 when the version is not ready."
        ),
        request=ExportCreateSerializer,
        responses={200: ExportSerializer, 202: ExportSerializer},
        tags=["exports"],
    ),
)
class VersionExportListView(VersionScopedMixin, generics.ListCreateAPIView):
    serializer_class = ExportSerializer
    filter_backends = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ExportFile.objects.none()
        return export_list_for_version(version=self.version)

    def get_serializer_class(self):
        return ExportCreateSerializer if self.request.method == "POST" else ExportSerializer

    def create(self, request, *args, **kwargs):
        serializer = ExportCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        job = version_export_create(version=self.version, user=request.user, kind=serializer.validated_data["kind"],
                                    prefix=serializer.validated_data.get("prefix", ""),
                                    language=serializer.validated_data.get("language", ""))
        export = export_get_for_user(user=request.user, pk=job.export_file.pk)
        answer = status.HTTP_200_OK if job.is_finished else status.HTTP_202_ACCEPTED
        return Response(ExportSerializer(export, context={"request": request}).data, status=answer)


@extend_schema(summary="One export: its job's status and, once written, the download URL", tags=["exports"])
class ExportDetailView(ExportScopedMixin, generics.GenericAPIView):
    serializer_class = ExportSerializer

    def get(self, request, *args, **kwargs):
        return Response(ExportSerializer(self.export, context={"request": request}).data)


@extend_schema(
    summary="Download an export's file",
    responses={
        (200, XLSX_CONTENT_TYPE): OpenApiTypes.BINARY,
        (200, ZIP_CONTENT_TYPE): OpenApiTypes.BINARY,
        (200, "application/pdf"): OpenApiTypes.BINARY,
        (200, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"): OpenApiTypes.BINARY,
        409: OpenApiResponse(description="Not written yet, or the export failed"),
        410: OpenApiResponse(description="The file was removed from the server"),
    },
    tags=["exports"],
)
class ExportDownloadView(ExportScopedMixin, generics.GenericAPIView):
    serializer_class = None

    def get(self, request, *args, **kwargs):
        export = self.export
        if not export.is_ready:
            return Response(
                {"detail": _("This export is %(status)s: there is no file to download yet.")
                 % {"status": export.job.get_status_display()}, "status": export.job.status},
                status=status.HTTP_409_CONFLICT,
            )
        path = export_absolute_path(export=export)
        if path is None:
            return Response({"detail": _("The file is no longer on the server; export the version again.")},
                            status=status.HTTP_410_GONE)
        return FileResponse(
            path.open("rb"), as_attachment=True, filename=export_download_name(export=export),
            content_type=export_content_type(export=export),
        )
