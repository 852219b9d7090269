"""Topology routes (included at /api/): api-version-topology and api-version-topology-expand, by version id."""
from django.urls import path

from .topology import views as topology

urlpatterns = [
    path("versions/<int:pk>/topology/", topology.VersionTopologyView.as_view(), name="api-version-topology"),
    path(
        "versions/<int:pk>/topology/expand/",
        topology.VersionTopologyExpandView.as_view(),
        name="api-version-topology-expand",
    ),
]
