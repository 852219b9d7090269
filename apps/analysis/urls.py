"""RoCE and traffic pages (namespace "design-analysis", included at /designs/analysis/).

design-analysis:roce-settings   projects/<project_pk>/versions/<version_pk>/roce/   GET form, POST new version
The design-page panels (panels.py) are registered by AnalysisConfig.ready().
"""
from django.urls import path

from . import views

app_name = "design-analysis"
urlpatterns = [
    path("projects/<int:project_pk>/versions/<int:version_pk>/roce/", views.RoceSettingsView.as_view(),
         name="roce-settings"),
]
