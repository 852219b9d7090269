from django.urls import path

from . import views

app_name = "catalog"
urlpatterns = [
    path("", views.catalog_index, name="index"),
    path("export.xlsx", views.catalog_export, name="export"),
    path("import/", views.catalog_import_excel, name="import-excel"),
    path("import-netbox/", views.catalog_import_netbox, name="import-netbox"),
    path("import-netbox/confirm/", views.catalog_import_netbox_confirm, name="import-netbox-confirm"),
    path("switches/<int:pk>/netbox.yaml", views.switch_netbox_yaml, name="switch-netbox"),
]
