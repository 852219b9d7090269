"""The project's audit trail: who generated, exported, commented on, submitted and approved what.

Rules:
- Review and comment services record their own events in the transaction that makes the change.
- Background work is recorded from its job row: a succeeded "generate" job is a "generated"
  event, a succeeded "export" job an "exported" one, by the user who asked for it, at the time the
  job finished. `audit_job_record` is idempotent (AuditEvent.job_ref is unique), so every path
  that may see a finished job can call it: the `job_finished` receiver (apps.reviews.receivers),
  sent by the designs app once a job's finishing transaction commits, and `audit_jobs_record`,
  which catches up on a whole project before its trail or review panels are shown.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from apps.designs.models import DesignVersion, Job
from apps.exports.models import ExportFile
from apps.projects.models import Project

from ..models import AuditAction, AuditEvent

JOB_ACTIONS = {Job.Kind.GENERATE: AuditAction.GENERATED, Job.Kind.EXPORT: AuditAction.EXPORTED}


def version_label(version: DesignVersion) -> str:
    return f"{version.design.name} v{version.number}"


def user_label(user: Any) -> str:
    return user.get_username() if user is not None and getattr(user, "pk", None) else ""


def audit_record(
    *, project: Project, actor: Any, action: str, version: DesignVersion | None = None, target: str = "",
    data: dict[str, Any] | None = None, at: datetime | None = None,
) -> AuditEvent:
    """Add one event to the project's trail (call it inside the transaction of the change)."""
    return AuditEvent.objects.create(
        project=project,
        actor=actor if user_label(actor) else None,
        actor_name=user_label(actor),
        action=action,
        design_id=version.design_id if version is not None else None,
        version=version,
        target=target or (version_label(version) if version is not None else ""),
        data=data or {},
        at=at or timezone.now(),
    )


def _job_event(job: Job) -> AuditEvent | None:
    if job.status != Job.Status.SUCCEEDED or job.kind not in JOB_ACTIONS:
        return None
    version = job.version
    data: dict[str, Any] = {"job": job.pk}
    if version is not None and job.kind == Job.Kind.GENERATE:
        data.update(gpus=version.gpus, currency=version.currency,
                    total_cost=str(version.total_cost) if version.total_cost is not None else None)
    if job.kind == Job.Kind.EXPORT:
        export = ExportFile.objects.filter(job_id=job.pk).only("kind", "size", "language").first()
        if export is not None:
            data.update(kind=export.kind, size=export.size)
            if export.language:
                data["language"] = export.language
    actor = job.created_by
    return AuditEvent(
        project_id=job.project_id,
        actor=actor,
        actor_name=user_label(actor),
        action=JOB_ACTIONS[job.kind],
        design_id=version.design_id if version is not None else None,
        version=version,
        target=version_label(version) if version is not None else "",
        data=data,
        job_ref=job.pk,
        at=job.finished_at or timezone.now(),
    )


def _jobs_record(jobs: QuerySet[Job]) -> int:
    events = [event for event in map(_job_event, jobs) if event is not None]
    # ON CONFLICT DO NOTHING on the unique job_ref: racing recorders write one event per job.
    AuditEvent.objects.bulk_create(events, ignore_conflicts=True)
    return len(events)


def _succeeded_jobs() -> QuerySet[Job]:
    return Job.objects.filter(status=Job.Status.SUCCEEDED, kind__in=list(JOB_ACTIONS)).select_related(
        "version__design", "created_by"
    )


def audit_job_record(*, job_id: int) -> None:
    """Record a succeeded generate or export job (nothing for other jobs, nothing twice)."""
    _jobs_record(_succeeded_jobs().filter(pk=job_id))


def audit_jobs_record(*, project: Project) -> int:
    """Record every succeeded job of the project that is not in its trail yet; returns how many."""
    recorded = AuditEvent.objects.filter(project=project, job_ref__isnull=False).values("job_ref")
    return _jobs_record(_succeeded_jobs().filter(project=project).exclude(pk__in=recorded))
