"""The job state machine: every status change of a background job goes through here.

Rules:
- Writes are single UPDATE statements on the job row, outside any long transaction, so a
  poller sees them at once (the generation's own rows are written in one transaction later).
- Progress is throttled: at most one write per PROGRESS_INTERVAL_S unless the stage changes,
  and every write refreshes `heartbeat_at`.
- A job "running" or "retrying" whose heartbeat is older than FABRICWEB_JOB_STALE_SECONDS
  belongs to a worker that died: `job_mark_stale` declares it "lost" with a message that says
  so; its version (never half-written, see persistence) is marked failed.
- Finished jobs (succeeded, failed, lost) never change again.
- `stage` is a stable key ("starting", "topology", "saving", "done", ...), never words: the job
  is shown in the language of whoever looks (apps.designs.job_text), not of whoever ran it.
"""
from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import DesignVersion, Job
from ..signals import job_finished_send

PROGRESS_INTERVAL_S = 0.5
# A redelivered task gives up after this many starts (the first run plus retries).
MAX_ATTEMPTS = 3


def _job_update(*, job_id: int, only_active: bool = True, **fields: Any) -> int:
    jobs = Job.objects.filter(pk=job_id)
    if only_active:
        jobs = jobs.filter(status__in=Job.ACTIVE)
    return jobs.update(**fields)


def job_mark_running(*, job: Job, celery_task_id: str = "") -> Job:
    """Start (or restart) a job: status running, attempts + 1, fresh heartbeat."""
    now = timezone.now()
    job.status = Job.Status.RUNNING
    job.attempts += 1
    job.stage = "starting"
    job.percent = 0
    job.error = ""
    job.error_fields = {}
    job.error_details = {}
    job.started_at = job.started_at or now
    job.heartbeat_at = now
    if celery_task_id:
        job.celery_task_id = celery_task_id
    job.save(
        update_fields=[
            "status", "attempts", "stage", "percent", "error", "error_fields", "error_details", "started_at",
            "heartbeat_at", "celery_task_id",
        ]
    )
    return job


def job_mark_retrying(*, job: Job, reason: str) -> Job:
    """A run that was interrupted (worker lost) and is about to start again."""
    job.status = Job.Status.RETRYING
    job.stage = "retrying"
    job.error = reason
    job.heartbeat_at = timezone.now()
    job.save(update_fields=["status", "stage", "error", "heartbeat_at"])
    return job


class JobNotActive(Exception):
    """The job was finished elsewhere (declared lost, failed): the run must stop and save nothing."""


def job_progress(*, job_id: int, stage: str, percent: int) -> None:
    """Record a stage and percent now (use JobProgress for throttled engine callbacks).

    Raises JobNotActive when the job is no longer running, so a run declared lost stops.
    """
    updated = _job_update(
        job_id=job_id,
        stage=str(stage)[:64],
        percent=max(0, min(100, int(percent))),
        heartbeat_at=timezone.now(),
    )
    if not updated:
        raise JobNotActive(job_id)


class JobProgress:
    """Engine progress callback that writes to the job row at most every PROGRESS_INTERVAL_S.

    `span` maps the engine's 0-100 onto part of the job's bar (generation also loads and saves).
    """

    def __init__(self, job_id: int, *, span: tuple[int, int] = (0, 100), interval_s: float = PROGRESS_INTERVAL_S):
        self.job_id = job_id
        self.low, self.high = span
        self.interval_s = interval_s
        self._last_write = 0.0
        self._last_stage = None

    def __call__(self, stage: str, percent: int) -> None:
        now = time.monotonic()
        if stage == self._last_stage and now - self._last_write < self.interval_s:
            return
        self._last_write, self._last_stage = now, stage
        scaled = self.low + (self.high - self.low) * max(0, min(100, int(percent))) // 100
        job_progress(job_id=self.job_id, stage=stage, percent=scaled)


def job_mark_succeeded(*, job_id: int, version_id: int | None = None) -> int:
    fields: dict[str, Any] = {
        "status": Job.Status.SUCCEEDED,
        "stage": "done",
        "percent": 100,
        "error": "",
        "error_fields": {},
        "error_details": {},
        "finished_at": timezone.now(),
    }
    fields["heartbeat_at"] = fields["finished_at"]
    if version_id is not None:
        fields["version_id"] = version_id
    updated = _job_update(job_id=job_id, **fields)
    if updated:
        job_finished_send(job_id=job_id, status=Job.Status.SUCCEEDED)
    return updated


def job_mark_failed(
    *, job_id: int, error: str, error_fields: dict[str, list[str]] | None = None, status: str = Job.Status.FAILED,
    error_details: dict[str, list[dict[str, Any]]] | None = None,
) -> int:
    """Finish a job as failed (or lost) with the reason a user reads; its version fails with it.

    `error_details` keeps an engine refusal's codes ({input name: [{code, params, text}]}) so the
    reason is shown in the reader's language.
    """
    now = timezone.now()
    with transaction.atomic():
        updated = _job_update(
            job_id=job_id,
            status=status,
            stage="failed" if status == Job.Status.FAILED else "lost",
            error=error,
            error_fields=error_fields or {},
            error_details=error_details or {},
            finished_at=now,
            heartbeat_at=now,
        )
        if updated:
            _versions_fail(job_ids=[job_id])
            job_finished_send(job_id=job_id, status=status)
    return updated


def _versions_fail(*, job_ids: list[int]) -> None:
    """The versions these generate jobs were building will never be ready."""
    version_ids = Job.objects.filter(pk__in=job_ids, kind=Job.Kind.GENERATE).values("version_id")
    DesignVersion.objects.filter(
        pk__in=version_ids, status__in=[DesignVersion.Status.QUEUED, DesignVersion.Status.GENERATING]
    ).update(status=DesignVersion.Status.FAILED)


def job_mark_stale(*, now: datetime | None = None) -> int:
    """Declare jobs lost whose worker stopped reporting; returns how many.

    A job is stale when it is running or retrying and its last heartbeat (or its start, if it
    never reported) is older than FABRICWEB_JOB_STALE_SECONDS.
    """
    now = now or timezone.now()
    stale_seconds = int(settings.FABRICWEB_JOB_STALE_SECONDS)
    cutoff = now - timedelta(seconds=stale_seconds)
    stale = Job.objects.filter(status__in=[Job.Status.RUNNING, Job.Status.RETRYING]).filter(
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True, started_at__lt=cutoff)
    )
    message = _(
        "The worker running this job stopped reporting for more than %(seconds)d s (it was probably "
        "restarted or killed). Nothing was saved; generate the design again."
    ) % {"seconds": stale_seconds}
    with transaction.atomic():
        # Locked, so a heartbeat arriving now waits and then finds the job no longer active.
        job_ids = list(stale.select_for_update(skip_locked=True).values_list("pk", flat=True))
        if not job_ids:
            return 0
        Job.objects.filter(pk__in=job_ids).update(
            status=Job.Status.LOST, stage="lost", error=message, error_fields={}, error_details={}, finished_at=now
        )
        _versions_fail(job_ids=job_ids)
    return len(job_ids)
