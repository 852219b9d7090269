"""Celery task of on-demand traffic analyses of large designs: thin, the service does the work.

Registered when Django loads the designs models (analysis/models.py imports this module), so a
worker knows it without autodiscovery. The analysis row is the source of truth for its state.
"""
from __future__ import annotations

from celery import shared_task
from django.conf import settings


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=int(settings.CELERY_TASK_SOFT_TIME_LIMIT), time_limit=int(settings.CELERY_TASK_TIME_LIMIT))
def traffic_analysis_task(self, analysis_id: int) -> dict:
    from .services import traffic_analysis_run

    analysis = traffic_analysis_run(analysis_id=analysis_id, celery_task_id=self.request.id or "")
    return {"analysis": analysis.pk, "status": analysis.status}


@shared_task
def traffic_analyses_sweep_task() -> int:
    """Fail visibly the queued analyses the broker lost (celery beat runs it, see settings)."""
    from .services import traffic_analyses_sweep

    return traffic_analyses_sweep()
