"""Catalog API, mounted at /api/catalog/ (URL names are prefixed "catalog-")."""
from django.urls import path
from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("manufacturers", views.ManufacturerViewSet, basename="catalog-manufacturer")
router.register("switches", views.SwitchModelViewSet, basename="catalog-switch")
router.register("nics", views.NicModelViewSet, basename="catalog-nic")
router.register("servers", views.ServerModelViewSet, basename="catalog-server")
router.register("transceivers", views.TransceiverViewSet, basename="catalog-transceiver")
router.register("cables", views.CableViewSet, basename="catalog-cable")
router.register("fibers", views.FiberCordViewSet, basename="catalog-fiber")
router.register("patch-panels", views.PatchPanelViewSet, basename="catalog-patch-panel")
router.register("exchange-rates", views.ExchangeRateViewSet, basename="catalog-exchange-rate")

urlpatterns = [
    path("export.xlsx", views.CatalogExportView.as_view(), name="catalog-export"),
    path("import/", views.CatalogImportView.as_view(), name="catalog-import"),
    path("import-netbox/", views.NetboxImportView.as_view(), name="catalog-import-netbox"),
    path("switches/<int:pk>/netbox.yaml", views.SwitchNetboxExportView.as_view(), name="catalog-switch-netbox"),
    *router.urls,
]
