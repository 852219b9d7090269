"""As-built pages (namespace "handover", included at /handover/); see views.py for each route."""
from django.urls import path

from . import inventory_views, kit_views, views

app_name = "handover"
_base = "projects/<int:project_pk>/versions/<int:version_pk>/asbuilt/"
_kit = "projects/<int:project_pk>/versions/<int:version_pk>/kit/"
urlpatterns = [
    path(_base, views.AsBuiltView.as_view(), name="asbuilt"),
    path(_base + "<int:check_pk>/work-orders/", views.AsBuiltWorkOrdersView.as_view(), name="asbuilt-fixes"),
    path(_base + "<int:check_pk>/work-orders.csv", views.AsBuiltWorkOrdersCsvView.as_view(),
         name="asbuilt-fixes-csv"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/inventory/", inventory_views.InventoryView.as_view(),
         name="inventory"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/precheck.sh", inventory_views.PrecheckScriptView.as_view(),
         name="precheck-script"),
    path(_kit, kit_views.KitView.as_view(), name="kit"),
    path(_kit + "work-orders/", kit_views.KitWorkOrdersView.as_view(), name="kit-orders"),
    path(_kit + "work-orders.csv", kit_views.KitCsvView.as_view(), name="kit-csv"),
    path(_kit + "labels/", kit_views.KitLabelsView.as_view(), name="kit-labels"),
    path(_kit + "p2p.xlsx", kit_views.KitP2PView.as_view(), name="kit-p2p"),
    path(_base + "<int:check_pk>/upload.zip", views.AsBuiltUploadDownloadView.as_view(), name="asbuilt-upload"),
]
