"""RoCE and traffic API routes (included at /api/), by version id, visible through the user's projects.

api-version-roce                GET   versions/<pk>/roce/                          settings, checklist, headroom
api-version-roce-configs-zip    GET   versions/<pk>/roce/configs.zip               every device's config, streamed
api-version-roce-device-config  GET   versions/<pk>/roce/configs/<device_name>/    one device's config file
api-version-traffic             GET   versions/<pk>/traffic/                       stored report (+ list); POST: run
api-version-traffic-detail      GET   versions/<pk>/traffic/<analysis_pk>/         one analysis (poll)
"""
from django.urls import path

from . import views

urlpatterns = [
    path("versions/<int:pk>/roce/", views.VersionRoceView.as_view(), name="api-version-roce"),
    path("versions/<int:pk>/roce/configs.zip", views.VersionRoceConfigsZipView.as_view(),
         name="api-version-roce-configs-zip"),
    path("versions/<int:pk>/roce/configs/<str:device_name>/", views.VersionRoceDeviceConfigView.as_view(),
         name="api-version-roce-device-config"),
    path("versions/<int:pk>/traffic/", views.VersionTrafficView.as_view(), name="api-version-traffic"),
    path("versions/<int:pk>/traffic/<int:analysis_pk>/", views.VersionTrafficDetailView.as_view(),
         name="api-version-traffic-detail"),
]
