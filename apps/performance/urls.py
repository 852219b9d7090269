"""Performance pages (namespace "performance", included at /designs/performance/).

performance:version   projects/<project_pk>/versions/<version_pk>/   GET page, POST run the model
"""
from django.urls import path

from . import views

app_name = "performance"
urlpatterns = [
    path("projects/<int:project_pk>/versions/<int:version_pk>/", views.PerformanceView.as_view(), name="version"),
]
