"""Racks pages (namespace "racks", included at /designs/racks/).

racks:hall         projects/<project_pk>/versions/<version_pk>/                   floor plan and rack list
racks:rack         projects/<project_pk>/versions/<version_pk>/racks/<name>/      a rack's elevation
racks:device-rack  projects/<project_pk>/versions/<version_pk>/devices/<device>/  -> the rack holding it
"""
from django.urls import path

from . import views

app_name = "racks"
urlpatterns = [
    path("projects/<int:project_pk>/versions/<int:version_pk>/", views.HallView.as_view(), name="hall"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/racks/<str:name>/", views.RackView.as_view(),
         name="rack"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/devices/<str:device>/", views.DeviceRackView.as_view(),
         name="device-rack"),
]
