"""Signal receivers that put background work in the audit trail.

The designs app finishes jobs with UPDATE statements (no post_save), so generation and export
jobs are recorded when their Celery task returns (task_postrun, sent by a worker and by eager
runs alike). Exports written during the request never pass through Celery; those are caught up
by services.audit.audit_jobs_record before a project's trail or review panels are shown.
Recording is idempotent, so a job seen by both paths is recorded once.
"""
from __future__ import annotations

import logging

from celery.signals import task_postrun

from .services.audit import audit_job_record

logger = logging.getLogger(__name__)

# Celery task names whose first argument is a job id (apps.designs.tasks, apps.designs.exports.tasks).
JOB_TASKS = frozenset({
    "apps.designs.tasks.design_generate_task",
    "apps.designs.exports.tasks.version_export_task",
})


@task_postrun.connect(dispatch_uid="reviews_audit_job_task_postrun")
def audit_job_task_finished(sender=None, task_id=None, task=None, args=None, kwargs=None, retval=None, state=None,
                            **extra) -> None:
    name = getattr(task or sender, "name", "")
    if name not in JOB_TASKS:
        return
    job_id = (args or [None])[0] if args else (kwargs or {}).get("job_id")
    if job_id is None:
        return
    try:
        audit_job_record(job_id=int(job_id))
    except Exception:
        # The trail is caught up on the next read; a failure here must not fail the task.
        logger.exception("could not record job %s in the audit trail", job_id)
