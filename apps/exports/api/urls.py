"""Export API routes (included at /api/): api-version-export-list (GET, POST), api-export-detail,
api-export-download. See apps.exports.api.views for the answers."""
from django.urls import path

from . import views as export_views

urlpatterns = [
    path("versions/<int:pk>/exports/", export_views.VersionExportListView.as_view(), name="api-version-export-list"),
    path("exports/<int:pk>/", export_views.ExportDetailView.as_view(), name="api-export-detail"),
    path("exports/<int:pk>/download/", export_views.ExportDownloadView.as_view(), name="api-export-download"),
]
