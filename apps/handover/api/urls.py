"""As-built API routes (included at /api/), by version id; see views.py."""
from django.urls import path

from . import inventory, views

urlpatterns = [
    path("versions/<int:pk>/asbuilt/", views.VersionAsBuiltListView.as_view(), name="api-version-asbuilt"),
    path("versions/<int:pk>/asbuilt/link-states/", views.VersionAsBuiltLinkStatesView.as_view(),
         name="api-version-asbuilt-link-states"),
    path("versions/<int:pk>/asbuilt/<int:check_pk>/", views.VersionAsBuiltDetailView.as_view(),
         name="api-version-asbuilt-detail"),
    path("versions/<int:pk>/inventory/", inventory.VersionInventoryView.as_view(), name="api-version-inventory"),
    path("versions/<int:pk>/inventory/won/", inventory.VersionInventoryWonView.as_view(),
         name="api-version-inventory-won"),
    path("versions/<int:pk>/inventory/import/", inventory.VersionInventoryImportView.as_view(),
         name="api-version-inventory-import"),
    path("versions/<int:pk>/inventory/links/", inventory.VersionInventoryLinksView.as_view(),
         name="api-version-inventory-links"),
    path("versions/<int:pk>/precheck/", inventory.VersionPrecheckView.as_view(), name="api-version-precheck"),
]
