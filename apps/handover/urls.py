"""As-built pages (namespace "handover", included at /handover/); see views.py for each route."""
from django.urls import path

from . import inventory_views, views

app_name = "handover"
_base = "projects/<int:project_pk>/versions/<int:version_pk>/asbuilt/"
urlpatterns = [
    path(_base, views.AsBuiltView.as_view(), name="asbuilt"),
    path(_base + "<int:check_pk>/work-orders/", views.AsBuiltWorkOrdersView.as_view(), name="asbuilt-fixes"),
    path(_base + "<int:check_pk>/work-orders.csv", views.AsBuiltWorkOrdersCsvView.as_view(),
         name="asbuilt-fixes-csv"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/inventory/", inventory_views.InventoryView.as_view(),
         name="inventory"),
    path(_base + "<int:check_pk>/upload.zip", views.AsBuiltUploadDownloadView.as_view(), name="asbuilt-upload"),
]
