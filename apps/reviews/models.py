"""Review of design versions: comments, the review state with its history, and the project's audit trail.

Rules (the services in apps/reviews/services enforce them; see their docstrings):
- A version's review state is a VersionReview row; a version without one is a draft. Every
  change of state is a ReviewEvent (who, when, from, to, note), so the history is complete.
- At most one version per design is approved (a partial unique index); it is the design's
  quoted version. A newer approval supersedes it explicitly (state "superseded").
- A Comment belongs to one version and may point at one of its devices, pods or BOM lines
  (anchor_type / anchor_ref); its mentions are project members.
- An AuditEvent records who did what to which version of a project: generated, exported,
  commented, submitted, approved, ... It keeps the actor's name and the target's label so it
  still reads right after the user or the version is gone. Events that record a background
  job carry its id (job_ref, unique) so recording one twice is impossible.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ReviewState(models.TextChoices):
    DRAFT = "draft", _("draft")
    IN_REVIEW = "in_review", _("in review")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")
    SUPERSEDED = "superseded", _("superseded")


class ReviewAction(models.TextChoices):
    SUBMIT = "submit", _("submit for review")
    APPROVE = "approve", _("approve")
    REJECT = "reject", _("reject")
    REOPEN = "reopen", _("reopen as draft")
    # Recorded on the previously approved version when another version of its design is approved.
    SUPERSEDE = "supersede", _("superseded")


class ReviewRequestAction(models.TextChoices):
    """What a user may ask for (supersede only ever follows an approval)."""

    SUBMIT = "submit", _("submit for review")
    APPROVE = "approve", _("approve")
    REJECT = "reject", _("reject")
    REOPEN = "reopen", _("reopen as draft")


USER_ACTIONS = tuple(ReviewAction(value) for value in ReviewRequestAction.values)
# States in which a version and its comments no longer change.
LOCKED_STATES = (ReviewState.APPROVED, ReviewState.SUPERSEDED)


class VersionReview(models.Model):
    version = models.OneToOneField(
        "designs.DesignVersion", verbose_name=_("design version"), on_delete=models.CASCADE, related_name="review"
    )
    # Denormalised from the version so the database can allow one approved version per design.
    design = models.ForeignKey("designs.Design", verbose_name=_("design"), on_delete=models.CASCADE,
                               related_name="+")
    state = models.CharField(_("state"), max_length=12, choices=ReviewState.choices, default=ReviewState.DRAFT)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("changed by"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    changed_at = models.DateTimeField(_("changed at"), null=True, blank=True)
    # Who last submitted the version for review (kept after approval: the record shows both people).
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("submitted by"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("version review")
        verbose_name_plural = _("version reviews")
        constraints = [
            models.UniqueConstraint(
                fields=["design"], condition=models.Q(state="approved"), name="reviews_one_approved_version_per_design"
            ),
        ]
        indexes = [models.Index(fields=["design", "state"], name="reviews_review_design_state")]

    def __str__(self) -> str:
        return f"{self.version} ({self.state})"

    @property
    def is_locked(self) -> bool:
        return self.state in LOCKED_STATES


class ReviewEvent(models.Model):
    version = models.ForeignKey(
        "designs.DesignVersion", verbose_name=_("design version"), on_delete=models.CASCADE,
        related_name="review_events",
    )
    action = models.CharField(_("action"), max_length=12, choices=ReviewAction.choices)
    from_state = models.CharField(_("from"), max_length=12, choices=ReviewState.choices)
    to_state = models.CharField(_("to"), max_length=12, choices=ReviewState.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    note = models.TextField(_("note"), blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("review event")
        verbose_name_plural = _("review events")

    def __str__(self) -> str:
        return f"{self.version}: {self.from_state} -> {self.to_state}"


class AnchorType(models.TextChoices):
    NONE = "none", _("the whole version")
    DEVICE = "device", _("device")
    POD = "pod", _("pod")
    BOM_LINE = "bom_line", _("BOM line")


class Comment(models.Model):
    version = models.ForeignKey(
        "designs.DesignVersion", verbose_name=_("design version"), on_delete=models.CASCADE, related_name="comments"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("author"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="design_comments",
    )
    body = models.TextField(_("comment"))
    anchor_type = models.CharField(_("about"), max_length=10, choices=AnchorType.choices, default=AnchorType.NONE)
    anchor_ref = models.CharField(
        _("anchor"), max_length=100, blank=True,
        help_text=_("A device name, a pod as plane:pod (e.g. 0:1) or a BOM line's SKU."),
    )
    mentions = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("mentions"), blank=True, related_name="design_comment_mentions"
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    edited_at = models.DateTimeField(_("edited at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("comment")
        verbose_name_plural = _("comments")
        indexes = [models.Index(fields=["version", "created_at"], name="reviews_comment_version_at")]

    def __str__(self) -> str:
        return f"{self.author} on {self.version}: {self.body[:40]}"


class AuditAction(models.TextChoices):
    GENERATED = "generated", _("generated")
    EXPORTED = "exported", _("exported")
    COMMENTED = "commented", _("commented")
    COMMENT_EDITED = "comment_edited", _("edited a comment")
    COMMENT_DELETED = "comment_deleted", _("deleted a comment")
    SUBMITTED = "submitted", _("submitted for review")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")
    REOPENED = "reopened", _("reopened as draft")
    SUPERSEDED = "superseded", _("superseded")


class AuditEvent(models.Model):
    project = models.ForeignKey(
        "projects.Project", verbose_name=_("project"), on_delete=models.CASCADE, related_name="audit_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("who"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    actor_name = models.CharField(_("who (name)"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=16, choices=AuditAction.choices)
    design = models.ForeignKey(
        "designs.Design", verbose_name=_("design"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    version = models.ForeignKey(
        "designs.DesignVersion", verbose_name=_("design version"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    target = models.CharField(_("what"), max_length=300, blank=True)
    data = models.JSONField(_("details"), default=dict, blank=True)
    job_ref = models.PositiveBigIntegerField(_("job"), null=True, blank=True, editable=False)
    at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        indexes = [models.Index(fields=["project", "-at"], name="reviews_audit_project_at")]
        constraints = [
            models.UniqueConstraint(
                fields=["job_ref"], condition=models.Q(job_ref__isnull=False), name="reviews_audit_one_event_per_job"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.actor_name} {self.action} {self.target}"
