"""Design template API routes (included at /api/): api-design-template-list, api-design-template-detail,
api-design-from-template."""
from django.urls import path

from . import views

urlpatterns = [
    path("design-templates/", views.DesignTemplateListView.as_view(), name="api-design-template-list"),
    path("design-templates/<slug:slug>/", views.DesignTemplateDetailView.as_view(),
         name="api-design-template-detail"),
    path("projects/<int:project_pk>/designs/from-template/", views.DesignFromTemplateView.as_view(),
         name="api-design-from-template"),
]
