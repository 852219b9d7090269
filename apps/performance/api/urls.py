"""Performance API routes (included at /api/), by version id, visible through the user's projects.

api-version-performance         GET list, POST run   versions/<pk>/performance/
api-version-performance-detail  GET (poll)           versions/<pk>/performance/<run_pk>/
api-version-performance-links   GET                  versions/<pk>/performance/<run_pk>/links/
"""
from django.urls import path

from . import views

urlpatterns = [
    path("versions/<int:pk>/performance/", views.VersionPerformanceView.as_view(), name="api-version-performance"),
    path("versions/<int:pk>/performance/<int:run_pk>/", views.VersionPerformanceDetailView.as_view(),
         name="api-version-performance-detail"),
    path("versions/<int:pk>/performance/<int:run_pk>/links/", views.VersionPerformanceLinksView.as_view(),
         name="api-version-performance-links"),
]
