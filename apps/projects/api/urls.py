"""API routes (included at /api/). Names: api-customer-list/-detail, api-project-list/-detail,
api-project-member-list/-detail. Nested project routes use the ``project_pk`` kwarg."""
from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import CustomerViewSet, ProjectMemberViewSet, ProjectViewSet

router = SimpleRouter()
router.register("customers", CustomerViewSet, basename="api-customer")
router.register("projects", ProjectViewSet, basename="api-project")

urlpatterns = [
    *router.urls,
    path(
        "projects/<int:project_pk>/members/",
        ProjectMemberViewSet.as_view({"get": "list", "post": "create"}),
        name="api-project-member-list",
    ),
    path(
        "projects/<int:project_pk>/members/<int:user_id>/",
        ProjectMemberViewSet.as_view({"get": "retrieve", "delete": "destroy"}),
        name="api-project-member-detail",
    ),
]
