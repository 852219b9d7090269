"""Signal receivers that put background work in the audit trail.

The designs app sends `job_finished` (apps.designs.signals) after the transaction that finishes a
job commits, for generation and export jobs alike, whether they ran in a worker, eagerly or during
the request. Succeeded jobs are recorded; recording is idempotent (one event per job), and
services.audit.audit_jobs_record still catches up anything missed before a trail is shown.
"""
from __future__ import annotations

import logging

from django.dispatch import receiver

from apps.designs.signals import job_finished

from .services.audit import audit_job_record

logger = logging.getLogger(__name__)


@receiver(job_finished, dispatch_uid="reviews_audit_job_finished")
def audit_job_finished(sender=None, job_id=None, status=None, **extra) -> None:
    if job_id is None or status != "succeeded":
        return
    try:
        audit_job_record(job_id=int(job_id))
    except Exception:
        # The trail is caught up on the next read; a failure here must not fail the job.
        logger.exception("could not record job %s in the audit trail", job_id)
