"""REST endpoints for customers, projects and members. Thin: selectors read, services write.

Non-members get 404 on every project URL and every method (the project is resolved in
``initial()`` before the handler is chosen); a member who may not manage gets 403 on writes.
"""
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.response import Response

from ..filtersets import CustomerFilterSet, ProjectFilterSet
from ..models import ProjectMembership
from ..selectors import (
    customer_list_for_user,
    customer_user_can_manage,
    project_list_for_user,
    project_user_can_manage,
)
from ..services import (
    customer_create,
    customer_update,
    project_create,
    project_create_with_customer_name,
    project_delete,
    project_member_add,
    project_member_remove,
    project_update,
)
from .mixins import IsProjectManagerOrReadOnly, ProjectScopedMixin
from .serializers import CustomerSerializer, ProjectMemberAddSerializer, ProjectMemberSerializer, ProjectSerializer


class CanManageObjectOrReadOnly(BasePermission):
    """Anyone who sees the object reads it; writes need project owner/staff or customer creator/staff."""

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return view.can_manage(user=request.user, obj=obj)


class CachedObjectMixin:
    """Look the detail object up once, in initial(), so every method on a detail URL of an object
    the user cannot see answers 404, even methods the route does not allow."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if self.kwargs.get(self.lookup_url_kwarg or self.lookup_field) is not None:
            self.get_object()

    def get_object(self):
        if not hasattr(self, "_object"):
            self._object = super().get_object()
        return self._object


@extend_schema_view(
    list=extend_schema(summary="Customers you created or that hold a project you see"),
    create=extend_schema(summary="Create a customer"),
    retrieve=extend_schema(summary="One customer (404 unless you see it)"),
    update=extend_schema(summary="Edit a customer (creator or staff)"),
    partial_update=extend_schema(summary="Edit some fields of a customer (creator or staff)"),
)
@extend_schema(tags=["customers"])
class CustomerViewSet(
    CachedObjectMixin,
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = CustomerSerializer
    permission_classes = [IsAuthenticated, CanManageObjectOrReadOnly]
    filterset_class = CustomerFilterSet
    search_fields = ["name", "description", "country"]
    ordering_fields = ["name", "country", "created_at", "updated_at"]

    def get_queryset(self):
        return customer_list_for_user(user=self.request.user)

    def can_manage(self, *, user, obj) -> bool:
        return customer_user_can_manage(user=user, customer=obj)

    def perform_create(self, serializer):
        serializer.instance = customer_create(created_by=self.request.user, **serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = customer_update(
            customer=serializer.instance, user=self.request.user, data=dict(serializer.validated_data)
        )


@extend_schema_view(
    list=extend_schema(summary="Projects you own or are a member of"),
    create=extend_schema(summary="Create a project (you become its owner)"),
    retrieve=extend_schema(summary="One project (404 unless you are a member)"),
    update=extend_schema(summary="Edit a project (owner or staff)"),
    partial_update=extend_schema(summary="Edit some fields of a project (owner or staff)"),
    destroy=extend_schema(summary="Delete a project (owner or staff)"),
)
@extend_schema(tags=["projects"])
class ProjectViewSet(CachedObjectMixin, viewsets.ModelViewSet):
    serializer_class = ProjectSerializer
    permission_classes = [IsAuthenticated, CanManageObjectOrReadOnly]
    filterset_class = ProjectFilterSet
    search_fields = ["name", "customer__name"]
    ordering_fields = ["name", "customer__name", "created_at", "updated_at"]

    def get_queryset(self):
        return project_list_for_user(user=self.request.user)

    def can_manage(self, *, user, obj) -> bool:
        return project_user_can_manage(user=user, project=obj)

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        customer_name = data.pop("new_customer_name", "")
        if customer_name:
            serializer.instance = project_create_with_customer_name(
                customer_name=customer_name, owner=self.request.user, **data
            )
        else:
            serializer.instance = project_create(owner=self.request.user, **data)

    def perform_update(self, serializer):
        serializer.instance = project_update(
            project=serializer.instance, user=self.request.user, data=dict(serializer.validated_data)
        )

    def perform_destroy(self, instance):
        project_delete(project=instance, user=self.request.user)


PROJECT_PK = OpenApiParameter("project_pk", OpenApiTypes.INT, OpenApiParameter.PATH, description="Project id")
USER_ID = OpenApiParameter("user_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="Member's user id")


@extend_schema_view(
    list=extend_schema(summary="Members of a project", parameters=[PROJECT_PK]),
    retrieve=extend_schema(summary="One member of a project", parameters=[PROJECT_PK, USER_ID]),
    create=extend_schema(
        summary="Add a member by username (owner or staff)",
        parameters=[PROJECT_PK],
        request=ProjectMemberAddSerializer,
        responses={201: ProjectMemberSerializer},
    ),
    destroy=extend_schema(
        summary="Remove a member (owner or staff; the owner cannot be removed)", parameters=[PROJECT_PK, USER_ID]
    ),
)
@extend_schema(tags=["projects"])
class ProjectMemberViewSet(
    ProjectScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    queryset = ProjectMembership.objects.select_related("user", "added_by", "project").order_by("user__username")
    project_field = "project"
    serializer_class = ProjectMemberSerializer
    permission_classes = [IsAuthenticated, IsProjectManagerOrReadOnly]
    lookup_field = "user_id"
    filterset_class = None
    search_fields = ["user__username"]
    ordering_fields = ["user__username", "added_at"]

    def create(self, request, *args, **kwargs):
        form = ProjectMemberAddSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            membership = project_member_add(
                project=self.get_project(), user=form.validated_data["username"], added_by=request.user
            )
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"username": exc.messages}) from None
        data = self.get_serializer(membership).data
        return Response(data, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance):
        project_member_remove(project=self.get_project(), user=instance.user, removed_by=self.request.user)
