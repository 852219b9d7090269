"""Celery task of performance jobs: fetch by id, call the service, report the outcome (as exports' task)."""
from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils.translation import gettext as _

from apps.designs.models import Job
from apps.designs.services.job import (MAX_ATTEMPTS, job_heartbeat, job_mark_failed, job_mark_retrying,
                                       job_message_is_current, job_task_register)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=int(settings.CELERY_TASK_SOFT_TIME_LIMIT), time_limit=int(settings.CELERY_TASK_TIME_LIMIT))
def performance_run_task(self, job_id: int) -> dict:
    from .services import performance_run_execute

    job = Job.objects.filter(pk=job_id, kind=Job.Kind.PERFORMANCE).first()
    if job is None:
        return {"job": job_id, "status": "missing"}
    if not job_message_is_current(job=job, task_id=self.request.id):
        return {"job": job_id, "status": "superseded"}
    if job.status == Job.Status.RUNNING:
        if job.attempts >= MAX_ATTEMPTS:
            job_mark_failed(job_id=job.pk, error=_("The worker running this job was lost %(n)d times; giving up.")
                            % {"n": job.attempts})
            return {"job": job_id, "status": Job.Status.FAILED}
        job_mark_retrying(job=job, reason=_("The worker running this job was lost; starting again."))
    if self.request.is_eager:
        job = performance_run_execute(job_id=job.pk, celery_task_id=self.request.id or "")
    else:
        with job_heartbeat(job_id=job.pk):
            job = performance_run_execute(job_id=job.pk, celery_task_id=self.request.id or "")
    return {"job": job.pk, "status": job.status}


job_task_register(kind=Job.Kind.PERFORMANCE, task=performance_run_task)
