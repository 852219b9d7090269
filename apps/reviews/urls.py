"""Review pages (namespace "reviews", included at /reviews/). Every route is under a project.

reviews:version-review   projects/<project_pk>/versions/<version_pk>/                the review of a version
reviews:review-action    projects/<project_pk>/versions/<version_pk>/action/         POST submit/approve/reject/reopen
reviews:comment-create   projects/<project_pk>/versions/<version_pk>/comments/       POST a comment
reviews:comment-edit     projects/<project_pk>/versions/<version_pk>/comments/<comment_pk>/edit/
reviews:comment-delete   projects/<project_pk>/versions/<version_pk>/comments/<comment_pk>/delete/  POST
reviews:diff             projects/<project_pk>/diff/?a=<version id>&b=<version id>   side by side
reviews:diff-workbook    projects/<project_pk>/diff/workbook/?a=&b=                  the diff as .xlsx
reviews:audit            projects/<project_pk>/audit/?action=&actor=&since=&until=   the audit trail
"""
from django.urls import path

from . import views

app_name = "reviews"
urlpatterns = [
    path("projects/<int:project_pk>/versions/<int:version_pk>/", views.VersionReviewView.as_view(),
         name="version-review"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/action/", views.ReviewActionView.as_view(),
         name="review-action"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/comments/", views.CommentCreateView.as_view(),
         name="comment-create"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/comments/<int:comment_pk>/edit/",
         views.CommentEditView.as_view(), name="comment-edit"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/comments/<int:comment_pk>/delete/",
         views.CommentDeleteView.as_view(), name="comment-delete"),
    path("projects/<int:project_pk>/diff/", views.DiffView.as_view(), name="diff"),
    path("projects/<int:project_pk>/diff/workbook/", views.DiffWorkbookView.as_view(), name="diff-workbook"),
    path("projects/<int:project_pk>/audit/", views.AuditView.as_view(), name="audit"),
]
