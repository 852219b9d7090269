from django.urls import path

from . import views

app_name = "design_templates"
urlpatterns = [
    path("", views.TemplateListView.as_view(), name="template-list"),
    path("save/projects/<int:project_pk>/versions/<int:version_pk>/", views.TemplateSaveView.as_view(),
         name="template-save"),
    path("<slug:slug>/", views.TemplateDetailView.as_view(), name="template-detail"),
    path("<slug:slug>/start/", views.TemplateStartView.as_view(), name="template-start"),
]
