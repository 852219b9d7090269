"""As-built API routes (included at /api/), by version id; see views.py."""
from django.urls import path

from . import views

urlpatterns = [
    path("versions/<int:pk>/asbuilt/", views.VersionAsBuiltListView.as_view(), name="api-version-asbuilt"),
    path("versions/<int:pk>/asbuilt/link-states/", views.VersionAsBuiltLinkStatesView.as_view(),
         name="api-version-asbuilt-link-states"),
    path("versions/<int:pk>/asbuilt/<int:check_pk>/", views.VersionAsBuiltDetailView.as_view(),
         name="api-version-asbuilt-detail"),
]
