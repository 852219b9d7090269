"""Background jobs: the row pollers read for status, stage, percent and why a job failed.

A job is the source of truth for work done by a Celery task. `stage` is a stable key
(apps.designs.job_text turns it into words when shown). Its life:
queued -> running -> succeeded | failed; a task redelivered after its worker died goes
running -> retrying -> running; the periodic sweep (services.job.jobs_sweep) sends again a
queued job whose message the broker lost, and re-queues ("retrying") a running job without a
heartbeat for FABRICWEB_JOB_STALE_SECONDS; past the bounded tries it is "failed" or "lost".
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .design import DesignVersion


class Job(models.Model):
    class Kind(models.TextChoices):
        GENERATE = "generate", _("generate design")
        EXPORT = "export", _("export")
        PERFORMANCE = "performance", _("performance model")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        SUCCEEDED = "succeeded", _("succeeded")
        FAILED = "failed", _("failed")
        RETRYING = "retrying", _("retrying")
        LOST = "lost", _("lost")

    ACTIVE = (Status.QUEUED, Status.RUNNING, Status.RETRYING)
    FINISHED = (Status.SUCCEEDED, Status.FAILED, Status.LOST)

    project = models.ForeignKey("projects.Project", on_delete=models.CASCADE, related_name="design_jobs")
    version = models.ForeignKey(DesignVersion, on_delete=models.CASCADE, related_name="jobs", null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.GENERATE)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(_("stage"), max_length=64, blank=True)
    percent = models.PositiveSmallIntegerField(_("percent"), default=0)
    error = models.TextField(_("error"), blank=True)
    error_fields = models.JSONField(_("field errors"), default=dict, blank=True)
    # An engine refusal's messages by input name, [{code, params, text}], to show them in the reader's language.
    error_details = models.JSONField(_("field error codes"), default=dict, blank=True)
    # The id of the message the job expects to run it: a message with another id is a stale duplicate.
    celery_task_id = models.CharField(_("Celery task id"), max_length=64, blank=True)
    # When the message was last handed to the broker (empty: never, or the publish failed) and how often.
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    sends = models.PositiveSmallIntegerField(_("sends"), default=0)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    heartbeat_at = models.DateTimeField(_("heartbeat at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="designs_job_status_heartbeat")]
        constraints = [
            models.CheckConstraint(condition=models.Q(percent__lte=100), name="designs_job_percent_max_100"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED
