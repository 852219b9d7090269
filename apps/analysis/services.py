"""Computing and storing the RoCE review and the traffic analysis of a design version.

Rules:
- Generation (apps.designs.services.design.design_version_generate) runs ANALYSIS_GENERATION_STEP,
  registered from AnalysisConfig.ready(): `version_analysis_compute` with the Plan it has in
  memory, after the plan and before its transaction, reporting progress as the stages "traffic"
  (both collectives, default sampling) and "roce" (checklist and headroom); inside its
  transaction `version_analysis_save`, so the results appear with the rows.
- An analysis that raises is stored with its error instead of failing the design: the fabric is
  valid without it and the page says what went wrong. Time limits and a job declared lost
  still stop the generation.
- On-demand traffic analyses (`traffic_analysis_request`) rebuild the Plan from the version's
  frozen spec. The switch and NIC latencies of the latency term are optional parameters (the
  vendors' data sheets checked give none for the catalog's switches and NICs); generation leaves them empty.
  Designs up to SYNC_MAX_GPUS GPUs with at most DEFAULT_MAX_FLOWS flows run in the
  request (a second or two); larger ones are queued for a worker and answered 202 with the
  analysis to poll.
- A "Change RoCE settings" request is a new version of the design from the viewed version's
  inputs with the new settings (versions are immutable), through design_version_create.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from celery.exceptions import SoftTimeLimitExceeded
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.designs.fabric_text import traffic_not_applicable
from apps.designs.generation import GenerationStep
from apps.designs.models import DesignVersion, Job
from apps.designs.services.job import JobNotActive
from apps.designs.services.roce_input import roce_error_fields, roce_settings_from_stored
from apps.engine.model import Plan
from apps.engine.roce import RoceSettings
from apps.engine.roce.host import QPS_PER_CONNECTION
from apps.engine.spec import SpecError
from apps.engine.traffic import DEFAULT_MAX_FLOWS, DEFAULT_MESSAGE_BYTES, MAX_LATENCY_NS, analyze

from apps.designs.services.queue import queue_check, queue_new_task_id, queue_send_on_commit, queue_waiting_task_ids
from .models import RoceReview, TrafficAnalysis
from .review import RoceResult, roce_review_compute
from .selectors import version_plan

logger = logging.getLogger(__name__)

Progress = Callable[[str, int], None]

SYNC_MAX_GPUS = 16_384
# Generation analyses traffic up to this size. The traffic fabric's reachability tables grow with
# spines x cores x pods: at 200,000 GPUs (600,384 links) the analysis took 27 s and 2.8 GB, at
# 1,000,000 GPUs (3.0 M links) 648 s and 19 GB (bench/bench_designs.py, issue 33), far beyond the
# job's time and the worker's memory. Larger designs are ready without it; the user runs it on demand.
GENERATION_TRAFFIC_MAX_GPUS = 131_072
MIN_MAX_FLOWS = 1_000
MAX_MAX_FLOWS = 4_000_000
MAX_SEED = 2**32 - 1
MAX_MESSAGE_BYTES = 1 << 40
PATTERNS = tuple(TrafficAnalysis.Pattern.values)

# Errors that must stop the generation, not be stored as an analysis failure.
_STOP = (JobNotActive, SoftTimeLimitExceeded)


@dataclass
class TrafficResult:
    report: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    seconds: float = 0.0
    max_flows: int = DEFAULT_MAX_FLOWS
    seed: int = 0
    message_bytes: int = DEFAULT_MESSAGE_BYTES
    qps_per_connection: int = QPS_PER_CONNECTION  # the design's own NCCL setting; the report's value once run
    pattern: str = "both"
    switch_latency_ns: int | None = None
    nic_latency_ns: int | None = None


@dataclass
class VersionAnalysis:
    roce: RoceResult | None  # None for an InfiniBand design: no RoCE settings, no ECMP to analyse
    traffic: TrafficResult | None


def _roce_stored_settings(stored: dict[str, Any] | None) -> RoceSettings:
    try:
        return roce_settings_from_stored(stored)
    except SpecError as exc:
        fields = roce_error_fields(exc)
        raise ValueError("; ".join(f"{name}: {' '.join(messages)}" for name, messages in fields.items())) from None


def traffic_deferred_text(limit: int) -> str:
    return _("Not analysed during generation: designs above %(limit)s GPUs are ready without the traffic "
             "analysis; run it from this page (it is queued for a worker).") % {"limit": f"{limit:,}"}


def _traffic_compute(plan: Plan, traffic: TrafficResult, report: Progress) -> None:
    """Both collectives at the default sampling into `traffic` (its report, or its error)."""
    try:
        report("traffic", 0)
        result = analyze(plan, pattern="both", max_flows=DEFAULT_MAX_FLOWS, seed=0,
                         progress=lambda stage, percent: report("traffic", percent * 90 // 100))
        traffic.report = result.to_dict()
        traffic.qps_per_connection = result.qps_per_connection  # store the value the analysis used
    except _STOP:
        raise
    except Exception as exc:  # the design stands without its analysis; say why on the page
        logger.exception("traffic analysis failed")
        traffic.error = str(exc) or type(exc).__name__


def version_analysis_compute(*, plan: Plan, roce: dict[str, Any] | None, progress: Progress | None = None
                             ) -> VersionAnalysis:
    """The traffic analysis (both collectives, default sampling) and the RoCE review of a planned version.

    progress(stage, percent) gets the stages "traffic" then "roce", percent 0-100 over both.
    An InfiniBand plan gets neither (credit-based flow control, subnet-manager routing).
    """
    report = progress or (lambda stage, percent: None)
    if plan.spec.infiniband:
        report("roce", 100)
        return VersionAnalysis(roce=None, traffic=None)
    traffic = TrafficResult()
    started = time.perf_counter()
    if plan.gpus > GENERATION_TRAFFIC_MAX_GPUS:
        traffic.error = traffic_deferred_text(GENERATION_TRAFFIC_MAX_GPUS)
    else:
        _traffic_compute(plan, traffic, report)
    traffic.seconds = round(time.perf_counter() - started, 3)

    report("roce", 92)
    started = time.perf_counter()
    try:
        roce_result = roce_review_compute(plan=plan, settings=_roce_stored_settings(roce))
    except _STOP:
        raise
    except Exception as exc:
        logger.exception("RoCE review failed")
        roce_result = RoceResult(error=str(exc) or type(exc).__name__)
    roce_result.seconds = round(time.perf_counter() - started, 4)
    report("roce", 100)
    return VersionAnalysis(roce=roce_result, traffic=traffic)


def version_analysis_save(*, version: DesignVersion, analysis: VersionAnalysis) -> None:
    """Store the results with the version; call inside the generation's transaction."""
    if analysis.roce is None or analysis.traffic is None:
        return
    r = analysis.roce
    RoceReview.objects.update_or_create(version=version, defaults={
        "settings": r.settings, "findings": r.findings, "headroom": r.headroom,
        "errors": r.errors, "warnings": r.warnings, "error": r.error, "seconds": r.seconds,
        "context": {"classes": r.classes, "link_classes": r.link_classes},
    })
    t = analysis.traffic
    # A redelivered generation writes again: one generation analysis per version.
    TrafficAnalysis.objects.filter(version=version, source=TrafficAnalysis.Source.GENERATION).delete()
    TrafficAnalysis.objects.create(
        version=version, source=TrafficAnalysis.Source.GENERATION,
        status=TrafficAnalysis.Status.FAILED if t.error else TrafficAnalysis.Status.SUCCEEDED,
        pattern=t.pattern, max_flows=t.max_flows, seed=t.seed, qps_per_connection=t.qps_per_connection,
        message_bytes=t.message_bytes, switch_latency_ns=t.switch_latency_ns, nic_latency_ns=t.nic_latency_ns,
        report=t.report, error=t.error, seconds=t.seconds,
        created_by=version.created_by, finished_at=timezone.now(),
    )


def _generation_compute(plan: Plan, version: DesignVersion, progress: Progress) -> VersionAnalysis:
    return version_analysis_compute(plan=plan, roce=version.roce, progress=progress)


def _generation_save(version: DesignVersion, analysis: VersionAnalysis) -> dict[str, float]:
    version_analysis_save(version=version, analysis=analysis)
    return {"traffic": analysis.traffic.seconds if analysis.traffic else 0.0,
            "roce": analysis.roce.seconds if analysis.roce else 0.0}


# Registered with designs' generation (apps.designs.generation) by AnalysisConfig.ready(): stages "traffic"
# (ring All-Reduce, All-to-All) and "roce" (checklist, headroom), timings "traffic" and "roce".
ANALYSIS_GENERATION_STEP = GenerationStep(
    key="analysis", compute=_generation_compute, save=_generation_save, order=10
)


# --- on demand --------------------------------------------------------------------------------------


def _whole(errors: dict, data: dict, name: str, default: int, low: int, high: int) -> int | None:
    value = data.get(name, default)
    if value in (None, ""):
        return default
    if isinstance(value, bool):
        errors[name] = [_("Enter a whole number.")]
        return None
    try:
        number = float(str(value).strip())
        if number != int(number):
            raise ValueError(value)
        number = int(number)
    except (TypeError, ValueError, OverflowError):
        errors[name] = [_("Enter a whole number.")]
        return None
    if not low <= number <= high:
        errors[name] = [_("Must be between %(low)s and %(high)s.") % {"low": f"{low:,}", "high": f"{high:,}"}]
        return None
    return number


LATENCY_FIELDS = ("switch_latency_ns", "nic_latency_ns")


def _optional_whole(errors: dict, data: dict, name: str, low: int, high: int) -> int | None:
    """A whole number, or None when the field is absent or empty (the parameter is not given)."""
    value = data.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return _whole(errors, data, name, 0, low, high)


def traffic_request_clean(*, data: dict[str, Any]) -> dict[str, Any]:
    """Validate an on-demand request (pattern, max_flows, seed, qps_per_connection, message_bytes and the
    optional switch_latency_ns, nic_latency_ns)."""
    errors: dict[str, list[str]] = {}
    known = {"pattern", "max_flows", "seed", "qps_per_connection", "message_bytes", *LATENCY_FIELDS}
    for name in sorted(set(data) - known):
        errors[name] = [_("Unknown setting.")]
    pattern = data.get("pattern") or "both"
    if pattern not in PATTERNS:
        errors["pattern"] = [_("Must be one of %(choices)s.") % {"choices": ", ".join(PATTERNS)}]
    values = {
        "pattern": pattern,
        "max_flows": _whole(errors, data, "max_flows", DEFAULT_MAX_FLOWS, MIN_MAX_FLOWS, MAX_MAX_FLOWS),
        "seed": _whole(errors, data, "seed", 0, 0, MAX_SEED),
        # default: the design's own NCCL_IB_QPS_PER_CONNECTION (engine.roce.host), as the generated analysis uses
        "qps_per_connection": _whole(errors, data, "qps_per_connection", QPS_PER_CONNECTION, 1, 64),
        "message_bytes": _whole(errors, data, "message_bytes", DEFAULT_MESSAGE_BYTES, 1, MAX_MESSAGE_BYTES),
        **{name: _optional_whole(errors, data, name, 0, MAX_LATENCY_NS) for name in LATENCY_FIELDS},
    }
    if errors:
        raise ValidationError(errors)
    return values


def traffic_runs_inline(*, version: DesignVersion, max_flows: int) -> bool:
    """Small enough to answer within the request (see the module rules)."""
    return version.gpus <= SYNC_MAX_GPUS and max_flows <= DEFAULT_MAX_FLOWS


def traffic_analysis_request(*, version: DesignVersion, user: Any, data: dict[str, Any]) -> TrafficAnalysis:
    """Run (small designs) or queue (large ones) a traffic analysis of a generated version."""
    if not version.is_ready:
        raise ValidationError({"non_field_errors": [_("The version is not generated yet.")]})
    if version.is_infiniband:
        raise ValidationError({"fabric": [traffic_not_applicable()]})
    values = traffic_request_clean(data=data)
    inline = traffic_runs_inline(version=version, max_flows=values["max_flows"])
    if not inline:
        queue_check()
    task_id = "" if inline else queue_new_task_id()
    analysis = TrafficAnalysis.objects.create(version=version, source=TrafficAnalysis.Source.ON_DEMAND,
                                              created_by=user if getattr(user, "pk", None) else None,
                                              celery_task_id=task_id, **values)
    if inline:
        return traffic_analysis_run(analysis_id=analysis.pk)
    from .tasks import traffic_analysis_task

    queue_send_on_commit(task=traffic_analysis_task, args=[analysis.pk], task_id=task_id)
    return analysis


def traffic_analyses_sweep(*, now: Any = None) -> int:
    """Fail, with a message, queued analyses whose message the broker no longer holds; returns how many.

    An analysis is cheap to ask for again, so it is failed visibly rather than sent again. One
    running on a worker that died is delivered again by Redis after the visibility timeout
    (acks late), and traffic_analysis_run starts it over.
    """
    from datetime import timedelta

    from django.conf import settings

    now = now or timezone.now()
    cutoff = now - timedelta(seconds=int(settings.FABRICWEB_JOB_RESEND_SECONDS))
    candidates = list(
        TrafficAnalysis.objects.filter(status=TrafficAnalysis.Status.QUEUED, created_at__lt=cutoff)
        .values_list("pk", "celery_task_id")
    )
    if not candidates:
        return 0
    waiting = queue_waiting_task_ids()
    if waiting is None:
        return 0  # cannot tell a lost message from one waiting in line
    lost = [pk for pk, task_id in candidates if task_id not in waiting]
    return TrafficAnalysis.objects.filter(pk__in=lost, status=TrafficAnalysis.Status.QUEUED).update(
        status=TrafficAnalysis.Status.FAILED, finished_at=now,
        error=_("No worker received this analysis (the job queue lost it). Ask for it again."),
    )


def traffic_analysis_run(*, analysis_id: int, celery_task_id: str = "") -> TrafficAnalysis:
    """Do one queued analysis: rebuild the Plan from the frozen spec, analyse, store report or error."""
    # "running" too: a task redelivered after its worker died starts the analysis again.
    claimed = TrafficAnalysis.objects.filter(
        pk=analysis_id, status__in=[TrafficAnalysis.Status.QUEUED, TrafficAnalysis.Status.RUNNING]
    ).update(status=TrafficAnalysis.Status.RUNNING, celery_task_id=celery_task_id)
    analysis = TrafficAnalysis.objects.select_related("version").get(pk=analysis_id)
    if not claimed:
        return analysis
    started = time.perf_counter()
    fields: dict[str, Any] = {}
    try:
        plan = version_plan(version=analysis.version)
        report = analyze(plan, pattern=analysis.pattern, max_flows=analysis.max_flows, seed=analysis.seed,
                         message_bytes=analysis.message_bytes, qps_per_connection=analysis.qps_per_connection,
                         switch_latency_ns=analysis.switch_latency_ns, nic_latency_ns=analysis.nic_latency_ns)
        fields.update(status=TrafficAnalysis.Status.SUCCEEDED, report=report.to_dict(), error="",
                      qps_per_connection=report.qps_per_connection)
    except SoftTimeLimitExceeded:
        fields.update(status=TrafficAnalysis.Status.FAILED, error=_("The analysis took too long and was stopped."))
    except Exception as exc:
        logger.exception("traffic analysis %s failed", analysis_id)
        fields.update(status=TrafficAnalysis.Status.FAILED, error=str(exc) or type(exc).__name__)
    fields.update(seconds=round(time.perf_counter() - started, 3), finished_at=timezone.now())
    TrafficAnalysis.objects.filter(pk=analysis_id).update(**fields)
    analysis.refresh_from_db()
    return analysis


def roce_settings_version_create(*, version: DesignVersion, user: Any, roce: dict[str, Any]) -> Job:
    """A new version of the design with the viewed version's inputs and these RoCE settings.

    ValidationError (field -> messages, RoCE fields as "roce.<dotted>") and nothing created on bad input.
    """
    from apps.designs.services.design import design_version_create
    from apps.designs.services.inputs import design_inputs_from_version

    data = design_inputs_from_version(version=version)
    data["roce"] = roce
    return design_version_create(design=version.design, user=user, data=data)
