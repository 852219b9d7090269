"""Design template API. Thin: selectors read, services write.

GET  /api/design-templates/                        every template (any signed-in user)
POST /api/design-templates/                        staff: save a design version as a template (201)
GET  /api/design-templates/{slug}/                 one template
POST /api/projects/{project_pk}/designs/from-template/   a new design from a template (202 with its job)

Bad input answers 400 with field-level messages and creates nothing; a version or project the user
is not a member of is 404; a non-staff user saving a template gets 403.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.response import Response

from apps.designs.api.serializers import JobAcceptedSerializer
from apps.designs.selectors import version_get_for_user
from apps.projects.api.mixins import ProjectScopedMixin

from ..selectors import design_template_find, design_template_get, design_template_list
from ..services import design_create_from_template, design_template_save
from .serializers import DesignFromTemplateSerializer, DesignTemplateCreateSerializer, DesignTemplateSerializer


@extend_schema_view(
    get=extend_schema(summary="Design templates: reference architectures and designs staff saved",
                      tags=["design templates"]),
    post=extend_schema(summary="Staff: save a design version as a template", request=DesignTemplateCreateSerializer,
                       responses={201: DesignTemplateSerializer}, tags=["design templates"]),
)
class DesignTemplateListView(generics.ListCreateAPIView):
    serializer_class = DesignTemplateSerializer
    pagination_class = None

    def get_queryset(self):
        return design_template_list()

    def create(self, request, *args, **kwargs):
        if not request.user.is_staff:
            raise PermissionDenied(_("Only staff can save design templates."))
        serializer = DesignTemplateCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        version = version_get_for_user(user=request.user, pk=data.pop("version"))
        template = design_template_save(user=request.user, version=version, **data)
        return Response(DesignTemplateSerializer(template).data, status=status.HTTP_201_CREATED)


@extend_schema(summary="One design template", tags=["design templates"])
class DesignTemplateDetailView(generics.RetrieveAPIView):
    serializer_class = DesignTemplateSerializer

    def get_object(self):
        return design_template_get(slug=self.kwargs["slug"])


@extend_schema(
    summary="Create a design from a template: version 1 is queued for generation",
    description="The template's inputs, with `changes` on top; 400 with field-level messages "
                "(template, name, or the input names) and nothing created.",
    request=DesignFromTemplateSerializer, responses={202: JobAcceptedSerializer}, tags=["design templates"],
)
class DesignFromTemplateView(ProjectScopedMixin, generics.GenericAPIView):
    serializer_class = DesignFromTemplateSerializer

    def post(self, request, *args, **kwargs):
        serializer = DesignFromTemplateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        job = design_create_from_template(
            project=self.get_project(), user=request.user, template=design_template_find(slug=data["template"]),
            name=data["name"], description=data.get("description", ""), changes=data.get("changes") or {},
        )
        job.refresh_from_db()
        version = job.version
        return Response(JobAcceptedSerializer({"job": job, "version": version, "design": version.design}).data,
                        status=status.HTTP_202_ACCEPTED)
