"""Racks API routes (included at /api/), by version id, visible through the user's projects.

api-version-rack-list    GET (paginated)  versions/<pk>/racks/
api-version-rack-detail  GET              versions/<pk>/racks/<name>/
api-version-hall         GET              versions/<pk>/hall/
"""
from django.urls import path

from . import views

urlpatterns = [
    path("versions/<int:pk>/racks/", views.VersionRackListView.as_view(), name="api-version-rack-list"),
    path("versions/<int:pk>/racks/<str:name>/", views.VersionRackDetailView.as_view(), name="api-version-rack-detail"),
    path("versions/<int:pk>/hall/", views.VersionHallView.as_view(), name="api-version-hall"),
]
