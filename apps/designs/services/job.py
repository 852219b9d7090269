"""The job state machine: every status change of a background job goes through here.

Rules:
- Writes are single UPDATE statements on the job row, outside any long transaction, so a
  poller sees them at once (the generation's own rows are written in one transaction later).
- Progress is throttled: at most one write per PROGRESS_INTERVAL_S unless the stage changes,
  and every write refreshes `heartbeat_at`.
- Jobs are sent through `job_enqueue` (services.queue): the row records the message's task id,
  when it was sent and how often. A task whose message id is not the row's is a stale duplicate
  and does nothing (`job_message_is_current`).
- While a task runs, `job_heartbeat` refreshes `heartbeat_at` every FABRICWEB_JOB_HEARTBEAT_SECONDS
  from a thread, whatever the engine is doing (a long save included).
- `jobs_sweep` (celery beat, every FABRICWEB_SWEEP_SECONDS) repairs what a dead broker or worker
  left: a queued job whose message the broker no longer holds FABRICWEB_JOB_RESEND_SECONDS after
  it was sent is sent again, and failed with a message after MAX_SENDS sends; a running job whose
  heartbeat is older than FABRICWEB_JOB_STALE_SECONDS belongs to a worker that died: it is sent
  again as "retrying" (a fresh task id, so the dead worker's message, redelivered later, is
  ignored), or declared "lost" after MAX_ATTEMPTS starts; its version (never half-written, see
  persistence) is then marked failed.
- Finished jobs (succeeded, failed, lost) never change again.
- `stage` is a stable key ("starting", "topology", "saving", "done", ...), never words: the job
  is shown in the language of whoever looks (apps.designs.job_text), not of whoever ran it.
"""
from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, Iterator

from django.conf import settings
from django.db import connections, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import DesignVersion, Job
from ..signals import job_finished_send
from .queue import queue_new_task_id, queue_send, queue_send_on_commit, queue_waiting_task_ids

logger = logging.getLogger(__name__)

PROGRESS_INTERVAL_S = 0.5
# A redelivered task gives up after this many starts (the first run plus retries).
MAX_ATTEMPTS = 3
# A queued job whose message the broker lost is sent at most this many times in all.
MAX_SENDS = 3

# Job kind -> the Celery task that runs it; each task module registers itself (job_task_register).
_JOB_TASKS: dict[str, Any] = {}


def job_task_register(*, kind: str, task: Any) -> None:
    _JOB_TASKS[kind] = task


def job_enqueue(*, job: Job, task: Any) -> None:
    """Send `job` to `task` once the current transaction commits; the row records the message first."""
    job_task_register(kind=job.kind, task=task)
    task_id = queue_new_task_id()
    now = timezone.now()
    Job.objects.filter(pk=job.pk).update(celery_task_id=task_id, sent_at=now, sends=F("sends") + 1)
    job.celery_task_id, job.sent_at, job.sends = task_id, now, job.sends + 1
    queue_send_on_commit(task=task, args=[job.pk], task_id=task_id, on_failure=_unsent(job.pk, task_id))


def _unsent(job_id: int, task_id: str):
    def forget() -> None:
        Job.objects.filter(pk=job_id, celery_task_id=task_id).update(sent_at=None)
    return forget


def job_message_is_current(*, job: Job, task_id: str | None) -> bool:
    """False for a message the job no longer expects (sent again by the sweep since): it must do nothing."""
    return not (task_id and job.celery_task_id and job.celery_task_id != task_id)


@contextmanager
def job_heartbeat(*, job_id: int, interval_s: float | None = None) -> Iterator[None]:
    """Refresh the job's heartbeat from a thread while the block runs, so the sweep sees the worker alive."""
    interval = float(interval_s if interval_s is not None else settings.FABRICWEB_JOB_HEARTBEAT_SECONDS)
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(interval):
                Job.objects.filter(pk=job_id, status=Job.Status.RUNNING).update(heartbeat_at=timezone.now())
        except Exception:
            logger.exception("heartbeat of job %s stopped", job_id)
        finally:
            connections.close_all()  # this thread's own connections

    thread = threading.Thread(target=beat, name=f"job-{job_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=interval + 5)


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


def _job_resend(*, job_id: int, status: str, error: str = "", stage: str = "") -> bool:
    """Send a job's message again under a new task id; False if its kind has no task or the broker refuses."""
    job = Job.objects.filter(pk=job_id).first()
    task = _JOB_TASKS.get(job.kind) if job else None
    if task is None:
        logger.warning("no task registered for job %s; left as it is", job_id)
        return False
    task_id = queue_new_task_id()
    fields: dict[str, Any] = {"celery_task_id": task_id, "sent_at": timezone.now(), "sends": F("sends") + 1,
                              "status": status}
    if status == Job.Status.RETRYING:
        fields.update(stage=stage or "retrying", error=error, heartbeat_at=timezone.now())
    if not _job_update(job_id=job_id, **fields):
        return False
    return queue_send(task=task, args=[job_id], task_id=task_id, on_failure=_unsent(job_id, task_id))


def jobs_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Repair jobs a dead broker or worker left behind (see the module rules); counts by outcome."""
    now = now or timezone.now()
    counts = {"resent": 0, "failed": 0, "requeued": 0, "lost": 0}
    resend_cutoff = now - timedelta(seconds=int(settings.FABRICWEB_JOB_RESEND_SECONDS))
    unsent = Job.objects.filter(status__in=[Job.Status.QUEUED, Job.Status.RETRYING]).filter(
        Q(sent_at__lt=resend_cutoff) | Q(sent_at__isnull=True, created_at__lt=resend_cutoff)
    )
    waiting = None
    for job in unsent.only("pk", "kind", "sends", "celery_task_id", "sent_at"):
        if waiting is None:
            waiting = queue_waiting_task_ids() or set()
        if job.sent_at is not None and job.celery_task_id in waiting:
            continue  # still in the queue behind other work, or held by a live worker
        if job.sends >= MAX_SENDS:
            counts["failed"] += job_mark_failed(job_id=job.pk, error=_(
                "No worker received this job after it was sent %(n)d times (the job queue lost it). "
                "Nothing was saved; try again."
            ) % {"n": job.sends})
        elif _job_resend(job_id=job.pk, status=Job.Status(job.status)):
            counts["resent"] += 1
    stale_seconds = int(settings.FABRICWEB_JOB_STALE_SECONDS)
    stale_cutoff = now - timedelta(seconds=stale_seconds)
    stale = Job.objects.filter(status=Job.Status.RUNNING).filter(
        Q(heartbeat_at__lt=stale_cutoff) | Q(heartbeat_at__isnull=True, started_at__lt=stale_cutoff)
    )
    for job in stale.only("pk", "attempts"):
        if job.attempts >= MAX_ATTEMPTS:
            counts["lost"] += job_mark_lost(job_ids=[job.pk], now=now)
        elif _job_resend(job_id=job.pk, status=Job.Status.RETRYING, error=_(
            "The worker running this job stopped reporting for more than %(seconds)d s (it was probably "
            "restarted or killed); nothing of that run was saved and the job was sent again."
        ) % {"seconds": stale_seconds}):
            counts["requeued"] += 1
    return counts


def job_mark_lost(*, job_ids: list[int], now: datetime | None = None) -> int:
    """Declare these running jobs lost (their worker died too often); returns how many."""
    now = now or timezone.now()
    message = _(
        "The worker running this job stopped reporting for more than %(seconds)d s (it was probably "
        "restarted or killed) %(n)d times. Nothing was saved; generate the design again."
    ) % {"seconds": int(settings.FABRICWEB_JOB_STALE_SECONDS), "n": MAX_ATTEMPTS}
    with transaction.atomic():
        # Locked, so a heartbeat arriving now waits and then finds the job no longer active.
        locked = list(
            Job.objects.filter(pk__in=job_ids, status=Job.Status.RUNNING)
            .select_for_update(skip_locked=True).values_list("pk", flat=True)
        )
        if not locked:
            return 0
        Job.objects.filter(pk__in=locked).update(
            status=Job.Status.LOST, stage="lost", error=message, error_fields={}, error_details={}, finished_at=now
        )
        _versions_fail(job_ids=locked)
        for job_id in locked:
            job_finished_send(job_id=job_id, status=Job.Status.LOST)
    return len(locked)
