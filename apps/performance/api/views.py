"""REST endpoints of a version's performance runs. Thin: selectors read, services write.

Visibility is the version's: a non-member gets 404 (the version is resolved before the handler).
POST runs the model as a background job: 202 with the run; poll GET .../performance/<run>/ until
job.status is succeeded or failed. Bad workloads answer 400 with the engine's field messages.
GET .../performance/<run>/links/ gives the per-link utilisation of the run's busiest scale-out
collective (per tier and the busiest link directions by device name) for a topology overlay.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.response import Response

from apps.designs.api.views import VersionScopedMixin
from apps.designs.models import DesignVersion
from apps.performance.selectors import performance_run_get, performance_run_list
from apps.performance.services import performance_run_request

from .serializers import PerformanceRequestSerializer, PerformanceRunListSerializer, PerformanceRunSerializer

# The request serializer is not a model's: the schema is told what the path's pk is.
VERSION_PK = OpenApiParameter("pk", OpenApiTypes.INT, OpenApiParameter.PATH, description="Design version id")


@extend_schema_view(
    get=extend_schema(summary="A version's performance runs", tags=["performance"], parameters=[VERSION_PK],
                      responses=PerformanceRunListSerializer(many=True)),
    post=extend_schema(summary="Run the training-job performance model (background job)", tags=["performance"],
                       parameters=[VERSION_PK], request=PerformanceRequestSerializer,
                       responses={202: PerformanceRunSerializer}),
)
class VersionPerformanceView(VersionScopedMixin, generics.GenericAPIView):
    serializer_class = PerformanceRequestSerializer
    queryset = DesignVersion.objects.none()  # for the schema only: the path's pk is a version's

    def get(self, request, *args, **kwargs):
        runs = performance_run_list(version=self.version)
        return Response(PerformanceRunListSerializer(runs, many=True).data)

    def post(self, request, *args, **kwargs):
        serializer = PerformanceRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            run = performance_run_request(version=self.version, user=request.user,
                                          workload=serializer.validated_data["workload"],
                                          alternatives=serializer.validated_data["alternatives"])
        except ValidationError as exc:
            errors = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
            return Response(errors, status=status.HTTP_400_BAD_REQUEST)
        run.refresh_from_db()
        return Response(PerformanceRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)


class _RunMixin(VersionScopedMixin):
    def run(self):
        run = performance_run_get(version=self.version, pk=self.kwargs["run_pk"])
        if run is None:
            raise Http404
        return run


@extend_schema(summary="One performance run (poll its job)", tags=["performance"],
               responses=PerformanceRunSerializer)
class VersionPerformanceDetailView(_RunMixin, generics.GenericAPIView):
    serializer_class = PerformanceRunSerializer

    def get(self, request, *args, **kwargs):
        return Response(PerformanceRunSerializer(self.run()).data)


@extend_schema(summary="Per-link utilisation of a run, for a topology overlay", tags=["performance"],
               responses={200: dict})
class VersionPerformanceLinksView(_RunMixin, generics.GenericAPIView):
    serializer_class = PerformanceRunSerializer

    def get(self, request, *args, **kwargs):
        run = self.run()
        return Response({"run": run.pk, "status": run.job.status, **(run.result or {}).get("links", {})})
