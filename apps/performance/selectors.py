"""Reading a version's performance runs (visibility is the version's: callers pass a version the user sees)."""
from __future__ import annotations

from django.db.models import QuerySet

from apps.designs.models import DesignVersion, Job

from .models import PerformanceRun


def performance_run_list(*, version: DesignVersion) -> QuerySet[PerformanceRun]:
    return PerformanceRun.objects.filter(version=version).select_related("job").order_by("-created_at", "-id")


def performance_run_get(*, version: DesignVersion, pk: int) -> PerformanceRun | None:
    return performance_run_list(version=version).filter(pk=pk).first()


def performance_run_latest(*, version: DesignVersion, succeeded: bool = False) -> PerformanceRun | None:
    runs = performance_run_list(version=version)
    if succeeded:
        runs = runs.filter(job__status=Job.Status.SUCCEEDED)
    return runs.first()
