"""RoCE and traffic pages (namespace "design-analysis", included at /designs/analysis/).

design-analysis:roce-settings   projects/<project_pk>/versions/<version_pk>/roce/   GET form, POST new version
Importing this module registers the design-page panels (see panels.py).
"""
from django.urls import path

from . import panels  # noqa: F401  (registers the RoCE and Traffic panels)
from . import views

app_name = "design-analysis"
urlpatterns = [
    path("projects/<int:project_pk>/versions/<int:version_pk>/roce/", views.RoceSettingsView.as_view(),
         name="roce-settings"),
]
