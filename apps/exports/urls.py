"""Export pages (included at /designs/exports/, namespace "design-exports"): version-exports
(GET the list, POST kind=xlsx|netbox) and export-download. Importing this module also registers
the design page's "Exports" panel."""
from django.urls import path

from .exports import panels  # noqa: F401  (registers the design page panel)
from .exports import views

app_name = "design-exports"
urlpatterns = [
    path("versions/<int:version_pk>/", views.VersionExportsView.as_view(), name="version-exports"),
    path("<int:pk>/download/", views.ExportDownloadView.as_view(), name="export-download"),
]
