"""Project and customer pages (namespace "projects"). Project pages take ``project_pk``."""
from django.urls import path

from . import views

app_name = "projects"
urlpatterns = [
    path("", views.ProjectListView.as_view(), name="project-list"),
    path("<int:project_pk>/", views.ProjectDetailView.as_view(), name="project-detail"),
    path("<int:project_pk>/edit/", views.ProjectEditView.as_view(), name="project-edit"),
    path("<int:project_pk>/delete/", views.ProjectDeleteView.as_view(), name="project-delete"),
    path("<int:project_pk>/members/add/", views.ProjectMemberAddView.as_view(), name="project-member-add"),
    path(
        "<int:project_pk>/members/<int:user_id>/remove/",
        views.ProjectMemberRemoveView.as_view(),
        name="project-member-remove",
    ),
    path("customers/", views.CustomerListView.as_view(), name="customer-list"),
    path("customers/<int:customer_pk>/", views.CustomerDetailView.as_view(), name="customer-detail"),
    path("customers/<int:customer_pk>/edit/", views.CustomerEditView.as_view(), name="customer-edit"),
]
