"""Asking for and running the performance model of a version.

Rules:
- `performance_run_request` checks the workload against the version's frozen spec (the engine's
  field messages, nothing created on bad input), then creates a designs Job of kind
  "performance" and its PerformanceRun in one transaction and queues the job after commit.
- `performance_run_execute` (the task's service) rebuilds the Plan from the frozen spec, runs
  the workload with the job's progress bar (stage "simulating", then "alternatives" when asked),
  and stores the result; any failure finishes the job as failed with the reason.
"""
from __future__ import annotations

import logging
import time
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion, Job
from apps.designs.services.job import (JobNotActive, JobProgress, job_enqueue, job_mark_failed, job_mark_running,
                                       job_mark_succeeded)
from apps.designs.services.queue import queue_check
from apps.engine import plan as engine_plan
from apps.engine.simulation import (SimulationTimeLimit, scale_up_domain, simulate, simulate_alternatives,
                                    workload_from_dict)
from apps.engine.simulation.presets import gpu_memory_gb
from apps.engine.spec import SpecError
from apps.engine.specio import spec_from_dict

from .models import PerformanceRun

# a web run stops here even where Celery's soft limit does not reach (in-process jobs)
RUN_TIME_LIMIT_S = 120.0

logger = logging.getLogger(__name__)


def workload_clean(*, version: DesignVersion, workload: Any) -> dict[str, Any]:
    """The workload if the engine accepts it for this version, else ValidationError by field."""
    spec = spec_from_dict(version.spec)
    try:
        tiers = (version.summary or {}).get("tiers")
        workload_from_dict(workload, design_gpus=spec.servers * spec.server.gpus, domain=scale_up_domain(spec),
                           tiers=tiers if isinstance(tiers, int) else None,
                           gpu_memory_gb=gpu_memory_gb(f"{spec.server.name} {spec.server.sku}"))
    except SpecError as exc:
        raise ValidationError(exc.errors) from None
    return dict(workload)


def performance_run_request(*, version: DesignVersion, user: Any, workload: Any,
                            alternatives: bool = False) -> PerformanceRun:
    if not version.is_ready:
        raise ValidationError({"non_field_errors": [_("The version is not generated yet.")]})
    clean = workload_clean(version=version, workload=workload)
    queue_check()
    with transaction.atomic():
        job = Job.objects.create(project=version.design.project, version=version, kind=Job.Kind.PERFORMANCE,
                                 created_by=user if getattr(user, "pk", None) else None)
        run = PerformanceRun.objects.create(version=version, job=job, workload=clean,
                                            with_alternatives=bool(alternatives),
                                            created_by=user if getattr(user, "pk", None) else None)
        from .tasks import performance_run_task

        job_enqueue(job=job, task=performance_run_task)
    return run


def performance_run_execute(*, job_id: int, celery_task_id: str = "") -> Job:
    job = Job.objects.get(pk=job_id)
    if job.is_finished:
        return job
    run = PerformanceRun.objects.select_related("version").filter(job=job).first()
    if run is None:
        job_mark_failed(job_id=job.pk, error=_("This job has no performance run."))
        job.refresh_from_db()
        return job
    job_mark_running(job=job, celery_task_id=celery_task_id)
    started = time.perf_counter()
    try:
        spec = spec_from_dict(run.version.spec)
        progress = JobProgress(job.pk, span=(2, 70 if run.with_alternatives else 98))
        progress("loading", 0)
        result = simulate(engine_plan.plan(spec), run.workload, progress=progress, time_limit_s=RUN_TIME_LIMIT_S)
        alternatives = []
        if run.with_alternatives:
            alternatives = simulate_alternatives(spec, run.workload, progress=JobProgress(job.pk, span=(70, 98)))
        PerformanceRun.objects.filter(pk=run.pk).update(result=result.to_dict(), alternatives=alternatives,
                                                        seconds=round(time.perf_counter() - started, 3))
        job_mark_succeeded(job_id=job.pk)
    except JobNotActive:
        pass
    except SpecError as exc:
        job_mark_failed(job_id=job.pk, error=str(exc), error_fields=exc.errors)
    except (SoftTimeLimitExceeded, SimulationTimeLimit):
        job_mark_failed(job_id=job.pk, error=_("The performance model took too long and was stopped."))
    except Exception as exc:  # the page shows why; nothing half-written (one UPDATE above)
        logger.exception("performance run of job %s failed", job_id)
        job_mark_failed(job_id=job.pk, error=str(exc) or type(exc).__name__)
    job.refresh_from_db()
    return job
