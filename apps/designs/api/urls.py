"""Design API routes (included at /api/).

Project-nested (``project_pk``): api-design-list (GET, POST 202), api-design-estimate (POST),
api-project-version-list, api-project-job-list. By id, visible through the user's projects:
api-design-detail, api-design-version-list (GET, POST 202), api-version-detail,
api-version-device-list, api-version-link-list, api-version-port-list, api-version-bom, api-job-detail.
"""
from django.urls import path

from . import views

urlpatterns = [
    path("projects/<int:project_pk>/designs/", views.ProjectDesignListView.as_view(), name="api-design-list"),
    path(
        "projects/<int:project_pk>/designs/estimate/", views.DesignEstimateView.as_view(), name="api-design-estimate"
    ),
    path(
        "projects/<int:project_pk>/versions/", views.ProjectVersionListView.as_view(), name="api-project-version-list"
    ),
    path("projects/<int:project_pk>/jobs/", views.ProjectJobListView.as_view(), name="api-project-job-list"),
    path("designs/<int:pk>/", views.DesignDetailView.as_view(), name="api-design-detail"),
    path("designs/<int:pk>/versions/", views.DesignVersionListView.as_view(), name="api-design-version-list"),
    path("versions/<int:pk>/", views.VersionDetailView.as_view(), name="api-version-detail"),
    path("versions/<int:pk>/devices/", views.VersionDeviceListView.as_view(), name="api-version-device-list"),
    path("versions/<int:pk>/links/", views.VersionLinkListView.as_view(), name="api-version-link-list"),
    path("versions/<int:pk>/ports/", views.VersionPortListView.as_view(), name="api-version-port-list"),
    path("versions/<int:pk>/bom/", views.VersionBomView.as_view(), name="api-version-bom"),
    path("jobs/<int:pk>/", views.JobDetailView.as_view(), name="api-job-detail"),
]
