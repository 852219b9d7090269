"""Topology routes (included at /api/): api-version-topology, api-version-topology-expand and
api-version-topology-schematic, by version id."""
from django.urls import path

from .topology import views as topology

urlpatterns = [
    path("versions/<int:pk>/topology/", topology.VersionTopologyView.as_view(), name="api-version-topology"),
    path(
        "versions/<int:pk>/topology/expand/",
        topology.VersionTopologyExpandView.as_view(),
        name="api-version-topology-expand",
    ),
    path(
        "versions/<int:pk>/topology/schematic/",
        topology.VersionTopologySchematicView.as_view(),
        name="api-version-topology-schematic",
    ),
]
