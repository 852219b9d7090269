"""POST /api/projects/{project_pk}/explore/: every feasible fabric for a request (apps.explorer.services).

A non-member gets 404 (the project is resolved first); bad input 400 by field; nothing is written.
"""
from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.response import Response

from apps.designs.selectors import design_list_for_project
from apps.projects.api.mixins import ProjectScopedMixin

from ..services import explorer_run
from .serializers import ExploreRequestSerializer, ExploreResultSerializer


@extend_schema(
    summary="Explore the catalog: every feasible fabric, the cost-growth frontier, the customer's bar",
    request=ExploreRequestSerializer, responses={200: ExploreResultSerializer}, tags=["explorer"],
)
class ProjectExploreView(ProjectScopedMixin, generics.GenericAPIView):
    serializer_class = ExploreRequestSerializer

    def post(self, request, *args, **kwargs):
        serializer = ExploreRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        design = None
        if data.get("design") is not None:
            design = design_list_for_project(project=self.get_project()).filter(pk=data["design"]).first()
            if design is None:
                raise Http404(_("No such design."))
        result = explorer_run(project=self.get_project(), data=data, design=design)
        return Response(ExploreResultSerializer(result).data)
