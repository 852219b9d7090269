"""Admin: reviews, their history, comments and the audit trail, read-only (they are records)."""
from django.contrib import admin

from .models import AuditEvent, Comment, ReviewEvent, VersionReview


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(VersionReview)
class VersionReviewAdmin(ReadOnlyAdmin):
    list_display = ["version", "design", "state", "changed_by", "changed_at"]
    list_filter = ["state"]
    search_fields = ["design__name", "design__project__name"]
    list_select_related = ["version__design", "design", "changed_by"]


@admin.register(ReviewEvent)
class ReviewEventAdmin(ReadOnlyAdmin):
    list_display = ["version", "action", "from_state", "to_state", "actor", "at"]
    list_filter = ["action"]
    list_select_related = ["version__design", "actor"]


@admin.register(Comment)
class CommentAdmin(ReadOnlyAdmin):
    list_display = ["version", "author", "anchor_type", "anchor_ref", "created_at", "edited_at"]
    list_filter = ["anchor_type"]
    search_fields = ["body", "author__username"]
    list_select_related = ["version__design", "author"]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "project", "actor_name", "action", "target"]
    list_filter = ["action"]
    search_fields = ["actor_name", "target", "project__name"]
    list_select_related = ["project"]
    date_hierarchy = "at"
