"""REST building blocks for routes nested under a project: /api/projects/{project_pk}/...

Use them for every project-scoped endpoint (designs, reviews, exports):

    class DesignViewSet(ProjectScopedMixin, viewsets.ModelViewSet):
        queryset = Design.objects.all()
        serializer_class = DesignSerializer
        project_field = "project"                    # the FK to Project on the model
        permission_classes = [IsAuthenticated, IsProjectManagerOrReadOnly]  # optional

The project is resolved in ``initial()``, before the handler is chosen, so a non-member gets 404
on every method of every nested URL (even methods the view does not allow), never 403 or 405:
the project's existence does not leak.
"""
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from ..models import Project
from ..selectors import project_get_for_user, project_user_can_manage


class ProjectScopedMixin:
    """DRF view mixin: ``get_project()`` from ``self.kwargs[project_url_kwarg]``; 404 for non-members.

    If the view sets ``queryset`` and ``project_field``, get_queryset() keeps only the rows of
    that project. Schema generation (drf-spectacular) gets an empty queryset.
    """

    project_url_kwarg = "project_pk"
    project_field: str | None = None

    def get_project(self) -> Project:
        if not hasattr(self, "_project"):
            self._project = project_get_for_user(user=self.request.user, pk=self.kwargs[self.project_url_kwarg])
        return self._project

    def initial(self, request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        # After authentication and permission checks: anonymous users still get 401/403.
        if not getattr(self, "swagger_fake_view", False):
            self.get_project()

    def get_queryset(self) -> QuerySet:
        queryset = super().get_queryset()
        if getattr(self, "swagger_fake_view", False):
            return queryset.none()
        if self.project_field:
            queryset = queryset.filter(**{self.project_field: self.get_project()})
        return queryset

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if not getattr(self, "swagger_fake_view", False) and self.project_url_kwarg in self.kwargs:
            context["project"] = self.get_project()
        return context


class IsProjectManager(BasePermission):
    """Owner or staff of the view's project (views with ``get_project()``), for every method."""

    message = _("Only the project owner or staff can do this.")

    def has_permission(self, request, view) -> bool:
        if getattr(view, "swagger_fake_view", False):
            return True
        # get_project() raises Http404 for non-members before any 403 is decided.
        return project_user_can_manage(user=request.user, project=view.get_project())


class IsProjectManagerOrReadOnly(IsProjectManager):
    """Members read; only the owner or staff write."""

    def has_permission(self, request, view) -> bool:
        if getattr(view, "swagger_fake_view", False):
            return True
        project = view.get_project()
        if request.method in SAFE_METHODS:
            return True
        return project_user_can_manage(user=request.user, project=project)
