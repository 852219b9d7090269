"""REST endpoints of a version's hall and racks. Thin: selectors read.

Visibility is the version's (apps.designs.api.views.VersionScopedMixin): a non-member gets 404 on
every URL, before anything is read. A version without a hall (generated before racks were placed,
or not generated yet) answers 404 on the hall and an empty rack list.
"""
from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.filters import OrderingFilter
from rest_framework.response import Response

from apps.designs.api.views import RecordPagination, VersionScopedMixin
from apps.racks.models import Rack
from apps.racks.selectors import hall_get, hall_rack_counts, rack_get, rack_list

from .serializers import HallSerializer, RackDetailSerializer, RackSerializer

VERSION_PK = OpenApiParameter("pk", OpenApiTypes.INT, OpenApiParameter.PATH, description="Design version id")
RACK_NAME = OpenApiParameter("name", OpenApiTypes.STR, OpenApiParameter.PATH, description='Rack name, e.g. "R001-09"')


def _basis(version) -> str:
    hall = hall_get(version=version)
    return hall.power_basis if hall else "typical"


@extend_schema(summary="A version's racks in hall order, paginated", tags=["racks"], parameters=[VERSION_PK])
class VersionRackListView(VersionScopedMixin, generics.ListAPIView):
    serializer_class = RackSerializer
    pagination_class = RecordPagination
    filter_backends = [OrderingFilter]
    ordering_fields = ["id", "name", "row", "position", "power_typical_w", "power_max_w", "used_u"]
    ordering = ["id"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Rack.objects.none()
        return rack_list(version=self.version)

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if not getattr(self, "swagger_fake_view", False):
            context["basis"] = _basis(self.version)
        return context


@extend_schema(summary="One rack: its place, power against the budget, and what it holds", tags=["racks"],
               parameters=[VERSION_PK, RACK_NAME])
class VersionRackDetailView(VersionScopedMixin, generics.GenericAPIView):
    serializer_class = RackDetailSerializer
    queryset = Rack.objects.none()  # for the schema only

    def get(self, request, *args, **kwargs):
        rack = rack_get(version=self.version, name=self.kwargs["name"])
        if rack is None:
            raise Http404(_("No such rack."))
        return Response(RackDetailSerializer(rack, context={"basis": _basis(self.version)}).data)


@extend_schema(summary="A version's data hall: grid, reserved cells, zones, rack rules and totals", tags=["racks"],
               parameters=[VERSION_PK])
class VersionHallView(VersionScopedMixin, generics.GenericAPIView):
    serializer_class = HallSerializer
    queryset = Rack.objects.none()  # for the schema only

    def get(self, request, *args, **kwargs):
        hall = hall_get(version=self.version)
        if hall is None:
            raise Http404(_("This version has no data hall."))
        by_kind, over = hall_rack_counts(version=self.version, basis=hall.power_basis)
        return Response(HallSerializer(hall, context={"racks_by_kind": by_kind, "racks_over_budget": over}).data)
