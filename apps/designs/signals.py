"""Signals other apps listen to (the reviews app's audit trail).

Jobs finish with UPDATE statements (no post_save), so the services send `job_finished` once the
finishing transaction has committed: `sender` is Job, `job_id` and `status` are keyword arguments.
"""
from django.db import transaction
from django.dispatch import Signal

job_finished = Signal()


def job_finished_send(*, job_id: int, status: str) -> None:
    from .models import Job

    transaction.on_commit(lambda: job_finished.send_robust(sender=Job, job_id=job_id, status=status))
