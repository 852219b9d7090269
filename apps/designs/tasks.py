"""Celery tasks for designs: thin wrappers that fetch by id, call a service and record the outcome.

Delivery rules (settings: acks late, reject on worker lost, prefetch 1, time limits):
- The message is acknowledged only when the task returns, so a worker killed mid-job leaves
  the message to be delivered again. A redelivered job finds its row "running": it is marked
  "retrying" (visible to pollers) and restarted from scratch, since nothing of the first
  run was saved. After MAX_ATTEMPTS starts it is failed instead.
- While it runs, a thread refreshes the job's heartbeat (services.job.job_heartbeat). If the
  whole worker dies, Redis would hold the unacknowledged message for the visibility timeout
  (the hard time limit plus a margin); before that, `designs_jobs_sweep_task` (celery beat, every
  FABRICWEB_SWEEP_SECONDS) finds the job without a heartbeat and sends it again under a new task
  id, so the old message, when Redis redelivers it, is recognised as stale and does nothing.
- The soft time limit fails the job with a message naming the limit; the hard limit kills the
  worker process and leaves the job to the rules above.
"""
from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError
from django.utils.translation import gettext as _

from .models import Job
from .services.design import design_version_generate
from .services.job import (MAX_ATTEMPTS, job_heartbeat, job_mark_failed, job_mark_retrying, job_message_is_current,
                           job_task_register, jobs_sweep)

logger = logging.getLogger(__name__)

SOFT_TIME_LIMIT = int(settings.CELERY_TASK_SOFT_TIME_LIMIT)
TIME_LIMIT = int(settings.CELERY_TASK_TIME_LIMIT)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=SOFT_TIME_LIMIT,
    time_limit=TIME_LIMIT,
    max_retries=2,
)
def design_generate_task(self, job_id: int) -> dict:
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        logger.warning("generate job %s no longer exists", job_id)
        return {"job": job_id, "status": "missing"}
    if not job_message_is_current(job=job, task_id=self.request.id):
        logger.info("generate job %s: message %s superseded by %s", job_id, self.request.id, job.celery_task_id)
        return {"job": job_id, "status": "superseded"}
    if job.status == Job.Status.RUNNING:
        # Delivered again after the worker running it died: nothing was saved, start over.
        if job.attempts >= MAX_ATTEMPTS:
            job_mark_failed(
                job_id=job.pk,
                error=_("The worker running this job was lost %(n)d times; giving up.") % {"n": job.attempts},
            )
            return {"job": job_id, "status": Job.Status.FAILED}
        job_mark_retrying(job=job, reason=_("The worker running this job was lost; starting again."))
    try:
        if self.request.is_eager:
            job = design_version_generate(job_id=job.pk, celery_task_id=self.request.id or "")
        else:
            with job_heartbeat(job_id=job.pk):
                job = design_version_generate(job_id=job.pk, celery_task_id=self.request.id or "")
    except SoftTimeLimitExceeded:
        job_mark_failed(
            job_id=job_id,
            error=_("Generation took longer than %(seconds)d s and was stopped; nothing was saved.")
            % {"seconds": SOFT_TIME_LIMIT},
        )
        return {"job": job_id, "status": Job.Status.FAILED}
    except OperationalError as exc:
        # The database went away for a moment: try again while retries last.
        if self.request.retries < self.max_retries:
            job = Job.objects.get(pk=job_id)
            job_mark_retrying(job=job, reason=_("Database unavailable (%(error)s); retrying.") % {"error": exc})
            raise self.retry(exc=exc, countdown=5) from exc
        job_mark_failed(job_id=job_id, error=_("Generation failed: the database is unavailable (%(error)s).")
                        % {"error": exc})
        raise
    except Exception as exc:
        logger.exception("generate job %s failed", job_id)
        reason = str(exc) or type(exc).__name__
        job_mark_failed(job_id=job_id, error=_("Generation failed: %(error)s") % {"error": reason})
        raise
    return {"job": job.pk, "status": job.status}


job_task_register(kind=Job.Kind.GENERATE, task=design_generate_task)


@shared_task
def designs_jobs_sweep_task() -> dict[str, int]:
    """Send again or fail the jobs a dead broker or worker left (celery beat runs it, see settings)."""
    return jobs_sweep()
