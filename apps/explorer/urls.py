"""Explorer pages (namespace "explorer", included at /explore/).

explorer:explorer   projects/<project_pk>/            GET: the form; with inputs, the candidates (?design=<id>)
explorer:generate   projects/<project_pk>/generate/   POST: a version (or design) with a candidate's inputs
"""
from django.urls import path

from . import views

app_name = "explorer"
urlpatterns = [
    path("projects/<int:project_pk>/", views.ExplorerView.as_view(), name="explorer"),
    path("projects/<int:project_pk>/generate/", views.ExplorerGenerateView.as_view(), name="generate"),
]
