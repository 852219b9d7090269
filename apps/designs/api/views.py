"""REST endpoints for designs, versions, their rows and jobs. Thin: selectors read, services write.

Visibility: every object is reached through the user's projects. Nested routes resolve the
project (ProjectScopedMixin), the others resolve their design, version or job in initial(),
so a non-member gets 404 on every method of every URL, never 403 or 405.
Creating a design or a version answers 202 with the job to poll (GET /api/jobs/{id}/).
"""
from __future__ import annotations

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.filters import OrderingFilter
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response

from apps.projects.api.mixins import ProjectScopedMixin

from ..filtersets import DeviceFilterSet, LinkFilterSet, PortFilterSet
from ..missing import bom_missing
from ..models import NETWORK_CODES, DesignVersion
from ..selectors import (
    design_get_for_user,
    design_list_for_project,
    job_get_for_user,
    job_list_for_project,
    bom_lines_with_spares,
    version_bom_list,
    version_bom_totals,
    version_device_list,
    version_get_for_user,
    version_link_list,
    version_list_for_design,
    version_list_for_project,
    version_port_list,
)
from ..services.design import design_create, design_estimate, design_version_create
from .serializers import (
    BomSerializer,
    DesignCreateSerializer,
    DesignSerializer,
    DeviceSerializer,
    EstimateSerializer,
    JobAcceptedSerializer,
    JobSerializer,
    LinkSerializer,
    PortSerializer,
    VersionCreateSerializer,
    VersionListSerializer,
    VersionSerializer,
)

INPUT_KEYS = tuple(VersionCreateSerializer().fields)


class RecordPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


def _accepted(job) -> Response:
    """202 with the job as it is now (without a broker it has already run)."""
    job.refresh_from_db()
    version = job.version
    design = version.design
    return Response(
        JobAcceptedSerializer({"job": job, "version": version, "design": design}).data,
        status=status.HTTP_202_ACCEPTED,
    )


def _inputs(validated: dict) -> dict:
    return {key: validated[key] for key in INPUT_KEYS if key in validated}


@extend_schema_view(
    get=extend_schema(summary="A project's designs", tags=["designs"]),
    post=extend_schema(
        summary="Create a design: version 1 is queued for generation",
        request=DesignCreateSerializer,
        responses={202: JobAcceptedSerializer},
        tags=["designs"],
    ),
)
class ProjectDesignListView(ProjectScopedMixin, generics.ListCreateAPIView):
    serializer_class = DesignSerializer
    filter_backends = [OrderingFilter]
    ordering_fields = ["name", "created_at"]

    def get_queryset(self):
        # Every version of the listed designs in one query, so each design's latest costs none.
        newest_first = Prefetch("versions", queryset=DesignVersion.objects.order_by("-number"),
                                to_attr="versions_newest_first")
        return design_list_for_project(project=self.get_project()).prefetch_related(newest_first)

    def get_serializer_class(self):
        return DesignCreateSerializer if self.request.method == "POST" else DesignSerializer

    def create(self, request, *args, **kwargs):
        serializer = DesignCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        job = design_create(
            project=self.get_project(), user=request.user, name=data["name"],
            description=data.get("description", ""), data=_inputs(data),
        )
        return _accepted(job)


@extend_schema(
    summary="Check inputs as they are typed: feasibility, size, the quoted total, alternatives, field errors",
    description="Always 200: problems with the inputs come back in `errors` (field -> messages).",
    request=VersionCreateSerializer,
    responses={200: EstimateSerializer},
    tags=["designs"],
)
class DesignEstimateView(ProjectScopedMixin, generics.GenericAPIView):
    serializer_class = EstimateSerializer

    def post(self, request, *args, **kwargs):
        serializer = VersionCreateSerializer(data=request.data)
        if not serializer.is_valid():
            result = {"feasible": False, "errors": serializer.errors, "size": None, "alternatives": []}
        else:
            result = design_estimate(project=self.get_project(), data=_inputs(serializer.validated_data))
        return Response(EstimateSerializer(result).data)


@extend_schema(summary="Every version of every design of a project", tags=["designs"])
class ProjectVersionListView(ProjectScopedMixin, generics.ListAPIView):
    serializer_class = VersionListSerializer
    filter_backends = [OrderingFilter]
    ordering_fields = ["number", "created_at", "generated_at", "status"]

    def get_queryset(self):
        return version_list_for_project(project=self.get_project())


@extend_schema(summary="A project's background jobs, newest first", tags=["jobs"])
class ProjectJobListView(ProjectScopedMixin, generics.ListAPIView):
    serializer_class = JobSerializer
    filter_backends = []

    def get_queryset(self):
        return job_list_for_project(project=self.get_project())


class DesignScopedMixin:
    """Resolves self.design (404 unless the user sees its project) before any handler runs."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False):
            self.design = design_get_for_user(user=request.user, pk=self.kwargs["pk"])


class VersionScopedMixin:
    """Resolves self.version (404 unless the user sees its project) before any handler runs."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False):
            self.version = version_get_for_user(user=request.user, pk=self.kwargs["pk"])


@extend_schema(summary="One design", tags=["designs"])
class DesignDetailView(DesignScopedMixin, generics.GenericAPIView):
    serializer_class = DesignSerializer

    def get(self, request, *args, **kwargs):
        return Response(DesignSerializer(self.design).data)


@extend_schema_view(
    get=extend_schema(summary="A design's versions", tags=["designs"]),
    post=extend_schema(
        summary="Create a new version: the latest version's inputs with the changes given, queued for generation",
        request=VersionCreateSerializer,
        responses={202: JobAcceptedSerializer},
        tags=["designs"],
    ),
)
class DesignVersionListView(DesignScopedMixin, generics.ListCreateAPIView):
    serializer_class = VersionListSerializer
    filter_backends = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return DesignVersion.objects.none()
        return version_list_for_design(design=self.design)

    def get_serializer_class(self):
        return VersionCreateSerializer if self.request.method == "POST" else VersionListSerializer

    def create(self, request, *args, **kwargs):
        serializer = VersionCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        job = design_version_create(design=self.design, user=request.user, data=_inputs(serializer.validated_data))
        return _accepted(job)


@extend_schema(summary="A version: inputs, status, engine summary and totals", tags=["designs"])
class VersionDetailView(VersionScopedMixin, generics.GenericAPIView):
    serializer_class = VersionSerializer

    def get(self, request, *args, **kwargs):
        return Response(VersionSerializer(self.version).data)


class VersionFilterBackend(DjangoFilterBackend):
    """Gives the filterset the version, so device names resolve within it."""

    def get_filterset_kwargs(self, request, queryset, view):
        kwargs = super().get_filterset_kwargs(request, queryset, view)
        filterset_class = self.get_filterset_class(view, queryset)
        if filterset_class is not None and "version" in filterset_class.__init__.__code__.co_varnames:
            kwargs["version"] = getattr(view, "version", None)
        return kwargs


def network_param(request) -> str:
    """The `network` query parameter: backend (default), frontend, storage or oob; 400 otherwise."""
    value = (request.query_params.get("network") or "backend").strip()
    if value not in NETWORK_CODES:
        raise ApiValidationError({"network": [_("Choose one of %(networks)s.") % {
            "networks": ", ".join(NETWORK_CODES)}]})
    return value


NETWORK_PARAMETER = OpenApiParameter(
    "network", str, enum=list(("backend", "frontend", "storage", "oob")),
    description="Which of the cluster's networks: backend (default), frontend, storage or oob.")


class VersionRecordListView(VersionScopedMixin, generics.ListAPIView):
    pagination_class = RecordPagination
    filter_backends = [VersionFilterBackend, OrderingFilter]
    ordering = ["id"]
    selector = None

    def get_queryset(self):
        model = self.serializer_class.Meta.model
        if getattr(self, "swagger_fake_view", False):
            return model.objects.none()
        return type(self).selector(version=self.version, network=network_param(self.request))


@extend_schema(summary="A version's devices (servers and switches), paginated and filterable", tags=["designs"],
               parameters=[NETWORK_PARAMETER])
class VersionDeviceListView(VersionRecordListView):
    serializer_class = DeviceSerializer
    filterset_class = DeviceFilterSet
    ordering_fields = ["id", "name", "role", "pod", "su", "rail", "plane", "rack"]
    selector = staticmethod(version_device_list)


@extend_schema(summary="A version's links, port to port, with medium, length, labels and addresses", tags=["designs"],
               parameters=[NETWORK_PARAMETER])
class VersionLinkListView(VersionRecordListView):
    serializer_class = LinkSerializer
    filterset_class = LinkFilterSet
    ordering_fields = ["id", "tier", "plane", "rail", "pod", "length_m", "medium"]
    selector = staticmethod(version_link_list)


@extend_schema(summary="A version's used ports (two per link)", tags=["designs"],
               parameters=[NETWORK_PARAMETER])
class VersionPortListView(VersionRecordListView):
    serializer_class = PortSerializer
    filterset_class = PortFilterSet
    ordering_fields = ["id", "name", "speed_gbps"]
    selector = staticmethod(version_port_list)


@extend_schema(summary="A version's bill of materials and cost totals", tags=["designs"])
class VersionBomView(VersionScopedMixin, generics.GenericAPIView):
    serializer_class = BomSerializer

    def get(self, request, *args, **kwargs):
        version = self.version
        lines = bom_lines_with_spares(version_bom_list(version=version))
        totals = version_bom_totals(version=version)
        missing = bom_missing(lines)
        totals.update(price_missing=missing["price"], power_missing=missing["power"])
        data = {"version": version.pk, "status": version.status, "lines": lines, "totals": totals}
        return Response(BomSerializer(data).data)


@extend_schema(summary="A background job: status, stage, percent, and why it failed", tags=["jobs"])
class JobDetailView(generics.GenericAPIView):
    serializer_class = JobSerializer

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False):
            self.job = job_get_for_user(user=request.user, pk=self.kwargs["pk"])

    def get(self, request, *args, **kwargs):
        return Response(JobSerializer(self.job).data)

