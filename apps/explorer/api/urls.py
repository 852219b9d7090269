"""Explorer API routes (included at /api/).

api-project-explore   POST projects/<project_pk>/explore/   every feasible fabric for a request
"""
from django.urls import path

from . import views

urlpatterns = [
    path("projects/<int:project_pk>/explore/", views.ProjectExploreView.as_view(), name="api-project-explore"),
]
