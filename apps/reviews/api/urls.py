"""Review API routes (included at /api/).

By version (visible through the user's projects): api-version-comment-list (GET, POST),
api-version-comment-detail (GET, PATCH, DELETE), api-version-review (GET, POST an action).
Project-nested: api-project-audit (GET, filters action/actor/since/until/version),
api-project-approved-versions (GET), api-project-diff (GET ?a=&b=), api-project-diff-workbook (GET ?a=&b=).
"""
from django.urls import path

from . import views

urlpatterns = [
    path("versions/<int:pk>/comments/", views.VersionCommentListView.as_view(), name="api-version-comment-list"),
    path("versions/<int:pk>/comments/<int:comment_pk>/", views.VersionCommentDetailView.as_view(),
         name="api-version-comment-detail"),
    path("versions/<int:pk>/review/", views.VersionReviewView.as_view(), name="api-version-review"),
    path("projects/<int:project_pk>/audit/", views.ProjectAuditListView.as_view(), name="api-project-audit"),
    path("projects/<int:project_pk>/approved-versions/", views.ProjectApprovedVersionListView.as_view(),
         name="api-project-approved-versions"),
    path("projects/<int:project_pk>/diff/", views.ProjectDiffView.as_view(), name="api-project-diff"),
    path("projects/<int:project_pk>/diff/workbook/", views.ProjectDiffWorkbookView.as_view(),
         name="api-project-diff-workbook"),
]
