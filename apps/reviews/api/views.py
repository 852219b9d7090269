"""REST endpoints for reviews. Thin: selectors read, services write.

Visibility: version routes resolve the version through the user's projects, project routes the
project (ProjectScopedMixin), both in initial(), so a non-member gets 404 on every method of
every URL, never 403 or 405. A plain member who tries to approve or reject gets 403.
"""
from __future__ import annotations

import io

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.response import Response

from apps.designs.selectors import version_get_for_user
from apps.projects.api.mixins import ProjectScopedMixin

from ..filtersets import AuditEventFilterSet
from ..models import AuditAction, AuditEvent, Comment
from ..selectors import (
    approved_review_list_for_project,
    audit_event_list_for_project,
    comment_get_for_user,
    comment_list_for_version,
    review_overview,
)
from ..services.audit import audit_jobs_record, audit_record
from ..services.comments import comment_create, comment_delete, comment_update
from ..services.diff import diff_versions_clean, version_diff
from ..services.review import version_review_act
from ..workbooks import diff_workbook_filename, diff_workbook_write
from .serializers import (
    ApprovedVersionSerializer,
    AuditEventSerializer,
    CommentSerializer,
    CommentWriteSerializer,
    DiffQuerySerializer,
    ReviewActionSerializer,
    ReviewSerializer,
    VersionDiffSerializer,
)

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class VersionScopedMixin:
    """Resolves self.version (404 unless the user sees its project) before any handler runs."""

    version_url_kwarg = "pk"

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False):
            self.version = version_get_for_user(user=request.user, pk=self.kwargs[self.version_url_kwarg])


@extend_schema_view(
    get=extend_schema(summary="Comments on a version, oldest first", tags=["reviews"]),
    post=extend_schema(
        summary="Comment on a version (optionally about a device, pod or BOM line; @username mentions a member)",
        request=CommentWriteSerializer, responses={201: CommentSerializer}, tags=["reviews"],
    ),
)
class VersionCommentListView(VersionScopedMixin, generics.ListCreateAPIView):
    serializer_class = CommentSerializer
    filter_backends = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Comment.objects.none()
        return comment_list_for_version(version=self.version)

    def create(self, request, *args, **kwargs):
        serializer = CommentWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        comment = comment_create(version=self.version, author=request.user, **serializer.validated_data)
        return Response(CommentSerializer(comment).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    get=extend_schema(summary="One comment", tags=["reviews"]),
    patch=extend_schema(summary="Edit your comment (not once the version is approved)",
                        request=CommentWriteSerializer, tags=["reviews"]),
    delete=extend_schema(summary="Delete a comment (its author, the project owner or staff)", tags=["reviews"]),
)
class VersionCommentDetailView(VersionScopedMixin, generics.GenericAPIView):
    serializer_class = CommentSerializer
    http_method_names = ["get", "patch", "delete", "head", "options"]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False):
            self.comment = comment_get_for_user(user=request.user, pk=self.kwargs["comment_pk"])
            if self.comment.version_id != self.version.pk:
                raise Http404(_("No such comment."))

    def get(self, request, *args, **kwargs):
        return Response(CommentSerializer(self.comment).data)

    def patch(self, request, *args, **kwargs):
        serializer = CommentWriteSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        comment = comment_update(comment=self.comment, user=request.user, data=dict(serializer.validated_data))
        return Response(CommentSerializer(comment).data)

    def delete(self, request, *args, **kwargs):
        comment_delete(comment=self.comment, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    get=extend_schema(summary="A version's review state, who changed it and when, your actions, history",
                      responses=ReviewSerializer, tags=["reviews"]),
    post=extend_schema(
        summary="Submit, approve, reject or reopen a version",
        description="Members submit and reopen; only the project owner or staff approve or reject (403 "
                    "otherwise). Approved versions are locked. Rejecting needs a note.",
        request=ReviewActionSerializer, responses={200: ReviewSerializer}, tags=["reviews"],
    ),
)
class VersionReviewView(VersionScopedMixin, generics.GenericAPIView):
    serializer_class = ReviewSerializer

    def get(self, request, *args, **kwargs):
        return Response(ReviewSerializer(review_overview(version=self.version, user=request.user)).data)

    def post(self, request, *args, **kwargs):
        serializer = ReviewActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version_review_act(version=self.version, user=request.user, **serializer.validated_data)
        return Response(ReviewSerializer(review_overview(version=self.version, user=request.user)).data)


@extend_schema(
    summary="A project's audit trail, newest first: who generated, commented, approved, exported what",
    tags=["reviews"],
)
class ProjectAuditListView(ProjectScopedMixin, generics.ListAPIView):
    serializer_class = AuditEventSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = AuditEventFilterSet

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return AuditEvent.objects.none()
        project = self.get_project()
        audit_jobs_record(project=project)
        return audit_event_list_for_project(project=project)


@extend_schema(summary="The approved (quoted) version of each design of a project", tags=["reviews"])
class ProjectApprovedVersionListView(ProjectScopedMixin, generics.ListAPIView):
    serializer_class = ApprovedVersionSerializer
    filter_backends = []
    pagination_class = None

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return []
        return approved_review_list_for_project(project=self.get_project())


DIFF_PARAMETERS = [
    OpenApiParameter("a", OpenApiTypes.INT, required=True, description="Id of version A (the base)."),
    OpenApiParameter("b", OpenApiTypes.INT, required=True, description="Id of version B."),
]


def _diff_for(view, request):
    query = DiffQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    project = view.get_project()
    a, b = diff_versions_clean(project=project, a=query.validated_data["a"], b=query.validated_data["b"])
    return version_diff(a=a, b=b)


@extend_schema(
    summary="Compare two generated versions of a project: inputs, switches and links per tier, BOM, totals",
    description="Deltas are B - A. Amounts are exact decimal strings. 400 with errors on a / b when a "
                "version is missing, not generated, or of another project.",
    parameters=DIFF_PARAMETERS, responses={200: VersionDiffSerializer}, tags=["reviews"],
)
class ProjectDiffView(ProjectScopedMixin, generics.GenericAPIView):
    serializer_class = VersionDiffSerializer
    filter_backends = []

    def get(self, request, *args, **kwargs):
        return Response(VersionDiffSerializer(_diff_for(self, request)).data)


def diff_workbook_response(*, diff, user) -> HttpResponse:
    """The diff workbook as a download; the export is recorded in the project's audit trail."""
    buffer = io.BytesIO()
    diff_workbook_write(diff=diff, stream=buffer, user=user)
    audit_record(
        project=diff.a.design.project, actor=user, action=AuditAction.EXPORTED, version=diff.b,
        target=f"{diff.a_label} → {diff.b_label}", data={"kind": "diff_xlsx", "a": diff.a.pk, "b": diff.b.pk},
    )
    response = HttpResponse(buffer.getvalue(), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{diff_workbook_filename(diff)}"'
    return response


@extend_schema(
    summary="The diff of two versions as an Excel workbook (sheets Diff and BOM changes)",
    parameters=DIFF_PARAMETERS,
    responses={(200, XLSX): OpenApiResponse(OpenApiTypes.BINARY, description="The .xlsx file")},
    tags=["reviews"],
)
class ProjectDiffWorkbookView(ProjectScopedMixin, generics.GenericAPIView):
    filter_backends = []

    def get_serializer_class(self):
        return DiffQuerySerializer

    def get(self, request, *args, **kwargs):
        return diff_workbook_response(diff=_diff_for(self, request), user=request.user)

