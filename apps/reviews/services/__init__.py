"""Review services: comments, review transitions, the audit trail and version diffs (one module each)."""
from .audit import audit_job_record, audit_jobs_record, audit_record
from .comments import comment_create, comment_delete, comment_update
from .diff import VersionDiff, diff_versions_clean, version_diff
from .review import review_actions_allowed, version_review_act

__all__ = [
    "VersionDiff",
    "audit_job_record",
    "audit_jobs_record",
    "audit_record",
    "comment_create",
    "comment_delete",
    "comment_update",
    "diff_versions_clean",
    "review_actions_allowed",
    "version_diff",
    "version_review_act",
]
