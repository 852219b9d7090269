"""Export pages (included at /designs/exports/, namespace "design-exports"): version-exports
(GET the list, POST kind=xlsx|netbox) and export-download. (The design page's "Exports" panel is
registered by ExportsConfig.ready().)"""
from django.urls import path

from . import views

app_name = "design-exports"
urlpatterns = [
    path("versions/<int:version_pk>/", views.VersionExportsView.as_view(), name="version-exports"),
    path("<int:pk>/download/", views.ExportDownloadView.as_view(), name="export-download"),
]
