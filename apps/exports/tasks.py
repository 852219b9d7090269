"""Celery task for export jobs: fetch by id, call the service, report the outcome.

Delivery follows apps.designs.tasks: acknowledged late, so a worker killed mid-export leaves the
message to be delivered again; the redelivered job (found "running") is marked "retrying" and
written again from scratch (a half-written file is never renamed into place), up to
MAX_ATTEMPTS starts. The service records every failure, the soft time limit included. A heartbeat
and the periodic sweep cover a worker that died (see apps.designs.tasks).
"""
from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.utils.translation import gettext as _

from apps.designs.models import Job
from apps.designs.services.job import (MAX_ATTEMPTS, job_heartbeat, job_mark_failed, job_mark_retrying,
                                       job_message_is_current, job_task_register)

from .services import version_export_run

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=int(settings.CELERY_TASK_SOFT_TIME_LIMIT),
    time_limit=int(settings.CELERY_TASK_TIME_LIMIT),
)
def version_export_task(self, job_id: int) -> dict:
    job = Job.objects.filter(pk=job_id, kind=Job.Kind.EXPORT).first()
    if job is None:
        logger.warning("export job %s no longer exists", job_id)
        return {"job": job_id, "status": "missing"}
    if not job_message_is_current(job=job, task_id=self.request.id):
        return {"job": job_id, "status": "superseded"}
    if job.status == Job.Status.RUNNING:
        if job.attempts >= MAX_ATTEMPTS:
            job_mark_failed(
                job_id=job.pk,
                error=_("The worker running this export was lost %(n)d times; giving up.") % {"n": job.attempts},
            )
            return {"job": job_id, "status": Job.Status.FAILED}
        job_mark_retrying(job=job, reason=_("The worker running this export was lost; starting again."))
    if self.request.is_eager:
        job = version_export_run(job_id=job.pk, celery_task_id=self.request.id or "")
    else:
        with job_heartbeat(job_id=job.pk):
            job = version_export_run(job_id=job.pk, celery_task_id=self.request.id or "")
    return {"job": job.pk, "status": job.status}


job_task_register(kind=Job.Kind.EXPORT, task=version_export_task)
