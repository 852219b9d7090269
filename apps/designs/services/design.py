"""Creating designs and versions, generating them, and estimating as the user types.

Rules:
- Bad input raises ValidationError (field -> messages) before anything is written: not a
  design, not a version, not a job. The engine's sizing and pool check run first, so an
  infeasible spec is refused with the engine's own message on the input to change: the backend is
  checked by the fast path (engine.explore: counts, cabling, racks and hall without a link table,
  refused word for word as a plan refuses it); a cluster with other networks up to
  REQUEST_CLUSTER_CHECK_MAX_LINKS backend links is sized whole (engine.networks.size_cluster), a larger
  one has its networks' inputs checked (engine.networks.validate_networks) and what only planning its
  networks can find is the job's to report, on the same fields (issue 33: sizing a 1,000,000-GPU
  cluster whole took the request 20 s).
- Alternatives (the generated summary's and the live check's) are priced by the fast path
  (engine.explore.alternatives), the same figures as planning each structure in full.
- Creating a design creates version 1 and a queued "generate" job; the broker is checked first
  (services.queue: unreachable -> QueueUnavailable, nothing written) and the Celery task is
  enqueued only once that transaction commits. A new version copies the latest version's
  inputs and applies the changes given; earlier versions never change.
- Generation (design_version_generate) runs the engine outside any transaction while it
  reports progress, then writes every row, the summary and the status flips in ONE
  transaction: a failure at any point leaves no rows, and the job records why.
"""
from __future__ import annotations

import logging
import time
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.engine.addressing import check_pools
from apps.engine.explore import alternatives as fast_alternatives
from apps.engine.model import Alternative, Plan
from apps.engine.networks.cluster import cluster_totals, plan_cluster, size_cluster
from apps.engine.networks.spec import has_networks, validate_networks
from apps.engine.report import alternative_dict, report, sizing_dict
from apps.engine.spec import DesignSpec, SpecError
from apps.engine.specio import spec_from_dict, spec_to_dict
from apps.projects.models import Project
from fabricweb.validators import DESCRIPTION_MAX_LENGTH, validate_single_line_name

from ..engine_text import alternative_label, alternative_notes, alternative_reason
from ..generation import generation_step_list, generation_step_spans
from ..models import Design, DesignVersion, Job
from ..persistence import version_records_write
from ..persistence_networks import network_records_write
from ..topology_groups import topology_groups_save
from .inputs import (DesignInputs, design_inputs_clean, design_inputs_from_version, spec_error_field_details,
                     spec_error_fields)
from ..signals import job_finished_send
from .job import JobNotActive, JobProgress, job_enqueue, job_mark_failed, job_mark_running, job_progress
from .queue import queue_check

logger = logging.getLogger(__name__)

NAME_MAX_LENGTH = Design._meta.get_field("name").max_length
# Above this many backend links the request sizes the other networks by their inputs only (module rules).
REQUEST_CLUSTER_CHECK_MAX_LINKS = 500_000


def spec_check(spec: DesignSpec) -> None:
    """Raise what generating `spec` would refuse it for, cheaply (module rules): SpecError naming the fields."""
    sizing = fast_alternatives.size(spec)
    if has_networks(spec):
        if sum(sizing.links_by_tier.values()) <= REQUEST_CLUSTER_CHECK_MAX_LINKS:
            sizing = size_cluster(spec)  # the other networks planned too, so their refusals land on their fields
        else:
            validate_networks(spec)
    check_pools(spec, sizing)


def _spec_check(*, inputs: DesignInputs, name: str = "") -> DesignSpec:
    """The engine spec for these inputs; ValidationError (on input names) when the engine refuses it."""
    try:
        spec = inputs.spec(name=name)
        spec_check(spec)
    except SpecError as exc:
        raise ValidationError(spec_error_fields(exc)) from None
    return spec


def design_spec_build(*, project: Project, data: dict[str, Any]) -> DesignSpec:
    """Validate user inputs and return the engine spec; ValidationError with field-level messages."""
    inputs = design_inputs_clean(project=project, data=data)
    return _spec_check(inputs=inputs)


def _name_clean(*, project: Project, name: Any, exclude_pk: int | None = None) -> str:
    name = str(name or "").strip()
    if not name:
        raise ValidationError({"name": [_("Give the design a name.")]})
    if len(name) > NAME_MAX_LENGTH:
        raise ValidationError({"name": [_("At most %(max)s characters.") % {"max": NAME_MAX_LENGTH}]})
    try:
        validate_single_line_name(name)
    except ValidationError as exc:
        raise ValidationError({"name": exc.messages}) from None
    if Design.objects.filter(project=project, name__iexact=name).exclude(pk=exclude_pk).exists():
        raise ValidationError({"name": [_("This project already has a design named “%(name)s”.") % {"name": name}]})
    return name


def _spec_json(spec: DesignSpec) -> dict[str, Any]:
    return spec_to_dict(spec)


def _version_create(*, design: Design, inputs: DesignInputs, spec: DesignSpec, user: Any, number: int) -> Job:
    version = DesignVersion.objects.create(
        design=design, number=number, spec=_spec_json(spec), created_by=user,
        exchange_rates=inputs.exchange_rates, **inputs.version_fields()
    )
    job = Job.objects.create(project=design.project, version=version, kind=Job.Kind.GENERATE, created_by=user)
    _enqueue_generate(job)
    return job


def _enqueue_generate(job: Job) -> None:
    from ..tasks import design_generate_task

    job_enqueue(job=job, task=design_generate_task)


def design_create(
    *, project: Project, user: Any, name: str, data: dict[str, Any], description: str = ""
) -> Job:
    """A new design with version 1 from `data`, and its queued generation job."""
    errors: dict[str, list[str]] = {}
    try:
        name = _name_clean(project=project, name=name)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    description = str(description or "")
    if len(description) > DESCRIPTION_MAX_LENGTH:
        errors["description"] = [_("At most %(max)s characters.") % {"max": DESCRIPTION_MAX_LENGTH}]
    try:
        inputs = design_inputs_clean(project=project, data=data)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    if errors:
        raise ValidationError(errors)
    spec = _spec_check(inputs=inputs, name=name)
    queue_check()
    try:
        with transaction.atomic():
            design = Design.objects.create(
                project=project, name=name, description=description, created_by=user
            )
            return _version_create(design=design, inputs=inputs, spec=spec, user=user, number=1)
    except IntegrityError:
        # A concurrent request took the name between the check and the insert.
        raise ValidationError(
            {"name": [_("This project already has a design named “%(name)s”.") % {"name": name}]}
        ) from None


def _inputs_carried_over(latest: DesignVersion, data: dict[str, Any]) -> dict[str, Any]:
    """The latest version's inputs, minus those that only followed an input `data` changes.

    A new server brings its default NIC, a new switch its default breakout, and a spine (core)
    that was the same part as the leaf (spine) keeps following it; anything given explicitly wins.
    """
    carried = design_inputs_from_version(version=latest)
    if "server" in data and "nic" not in data:
        carried.pop("nic")
    for tier in ("leaf", "spine", "core"):
        if f"{tier}_switch" in data and f"{tier}_breakout" not in data:
            carried.pop(f"{tier}_breakout")
    for lower, upper in (("leaf", "spine"), ("spine", "core")):
        followed = (getattr(latest, f"{upper}_switch_id"), getattr(latest, f"{upper}_breakout")) == (
            getattr(latest, f"{lower}_switch_id"), getattr(latest, f"{lower}_breakout"))
        # The lower tier changes when the user changes it, or when it was itself let go to follow.
        lower_changed = bool({f"{lower}_switch", f"{lower}_breakout"} & set(data)) or f"{lower}_switch" not in carried
        if followed and lower_changed and f"{upper}_switch" not in data and f"{upper}_breakout" not in data:
            carried.pop(f"{upper}_switch")
            carried.pop(f"{upper}_breakout", None)
    return carried


def design_version_create(*, design: Design, user: Any, data: dict[str, Any],
                          source: DesignVersion | None = None) -> Job:
    """A new version of `design`: the inputs of `source` (default: the latest version) with `data`
    applied, queued for generation."""
    latest = source if source is not None else design.versions.order_by("-number").first()
    merged = _inputs_carried_over(latest, data) if latest is not None else {}
    merged.update(data)
    inputs = design_inputs_clean(project=design.project, data=merged)
    spec = _spec_check(inputs=inputs, name=design.name)
    queue_check()
    with transaction.atomic():
        # Serialise version numbering per design.
        Design.objects.select_for_update().filter(pk=design.pk).first()
        number = (design.versions.aggregate(n=Max("number"))["n"] or 0) + 1
        return _version_create(design=design, inputs=inputs, spec=spec, user=user, number=number)


def version_summary(*, plan: Plan, alternatives: list[Alternative] | None = None) -> dict[str, Any]:
    """The engine's JSON report of the plan (engine.report: tiers, counts, growth, hops, bandwidth,
    free ports, BOM, totals, media, pools, warnings, alternatives), plus device counts per role."""
    summary = report(plan, alternatives=alternatives if alternatives is not None else [])
    roles: dict[str, int] = {}
    for device in plan.devices:
        roles[device.role] = roles.get(device.role, 0) + 1
    summary["devices"] = roles
    return summary


def _money(value: float) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


def _alternatives(spec: DesignSpec) -> list[Alternative]:
    """Every structure for the same request, priced by the fast path (engine.explore.alternatives: the
    figures engine.plan.alternatives gives by planning each in full)."""
    try:
        return fast_alternatives.alternatives(spec)
    except SpecError:
        return []


def alternatives_estimate(spec: DesignSpec) -> list[dict[str, Any]]:
    """The engine's alternatives for the live check: the same structures, priced as generating prices
    them (engine.explore.alternatives), so the live check ranks them as the generated page does.

    Labels and reasons are in the active language; a blocking alternative says why in "notes_text".
    """
    out: list[dict[str, Any]] = []
    for alt in _alternatives(spec):
        item = alternative_dict(alt)
        item["label"] = alternative_label(alt.planes, alt.tiers, alt.label, blocking=alt.blocking)
        if alt.feasible:
            item["notes_text"] = alternative_notes(item)
        else:
            item["reason"] = alternative_reason(item)
        out.append(item)
    return out


def version_spec(*, version: DesignVersion) -> DesignSpec:
    """The engine spec frozen on the version when it was created (hardware and prices inline)."""
    return spec_from_dict(version.spec)


def design_version_generate(*, job_id: int, celery_task_id: str = "") -> Job:
    """Do a generate job: plan the version with the engine, then save everything in one transaction.

    Engine refusals (SpecError) and invalid inputs finish the job as failed with the message
    and field errors a user reads. Other exceptions propagate (the task records them).
    """
    job = Job.objects.select_related("version__design__project").get(pk=job_id)
    if job.is_finished:
        return job
    version = job.version
    job_mark_running(job=job, celery_task_id=celery_task_id)
    DesignVersion.objects.filter(pk=version.pk, status=DesignVersion.Status.QUEUED).update(
        status=DesignVersion.Status.GENERATING
    )
    started = time.perf_counter()
    try:
        job_progress(job_id=job.pk, stage="loading", percent=2)
        spec = version_spec(version=version)
        plan = plan_cluster(spec, progress=JobProgress(job.pk, span=(5, 75)))
        job_progress(job_id=job.pk, stage="alternatives", percent=76)
        summary = version_summary(plan=plan, alternatives=_alternatives(spec))
        # Other apps' steps (apps.designs.generation: the traffic analysis and RoCE review), saved below.
        steps = generation_step_list()
        results = [step.compute(plan, version, JobProgress(job.pk, span=span))
                   for step, span in zip(steps, generation_step_spans(len(steps)))]
        job_progress(job_id=job.pk, stage="saving", percent=90)
        planned = time.perf_counter()
        with transaction.atomic():
            saved = version_records_write(version=version, plan=plan)
            networks_started = time.perf_counter()
            network_records_write(version_id=version.pk, plan=plan)
            groups_started = time.perf_counter()
            topology_groups_save(version_id=version.pk, plan=plan)  # the topology's first views read these
            totals = cluster_totals(plan)
            summary["timings_s"] = {"plan": round(planned - started, 3), "save": round(saved.seconds, 3),
                                    "topology_groups": round(time.perf_counter() - groups_started, 3)}
            if plan.networks:
                summary["timings_s"]["save_networks"] = round(groups_started - networks_started, 3)
            for step, result in zip(steps, results):
                summary["timings_s"].update(step.save(version, result) or {})
            now = timezone.now()
            # The job row is locked only now, at the end, so the heartbeat thread keeps writing during
            # the save. A job declared lost, or sent again to another worker, meanwhile must not gain
            # a design: then nothing matches and the whole transaction rolls back.
            mine = Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING)
            if celery_task_id:
                mine = mine.filter(celery_task_id=celery_task_id)
            if not mine.update(status=Job.Status.SUCCEEDED, stage="done", percent=100, error="", error_fields={},
                               error_details={}, finished_at=now, heartbeat_at=now):
                raise JobNotActive(job.pk)
            DesignVersion.objects.filter(pk=version.pk).update(
                status=DesignVersion.Status.READY,
                summary=summary,
                # The whole cluster's: the backend's plus every other network's (their BOM sections).
                subtotal=_money(totals["subtotal"]),
                discount=_money(totals["discount"]),
                total_cost=_money(totals["total_cost"]),
                power_typical_w=totals["power_typical_w"],
                power_max_w=totals["power_max_w"],
                in_server_typical_w=totals["in_server_typical_w"],
                in_server_max_w=totals["in_server_max_w"],
                spares_subtotal=_money(totals["spares_subtotal"]),
                rack_units=totals["rack_units"],
                generated_at=now,
            )
            job_finished_send(job_id=job.pk, status=Job.Status.SUCCEEDED)
    except JobNotActive:
        logger.warning("job %s was finished elsewhere while generating; nothing saved", job.pk)
    except SpecError as exc:
        job_mark_failed(job_id=job.pk, error=str(exc), error_fields=spec_error_fields(exc),
                        error_details=spec_error_field_details(exc))
    except ValidationError as exc:
        fields = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        message = "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in fields.items())
        job_mark_failed(job_id=job.pk, error=message, error_fields=fields)
    job.refresh_from_db()
    return job


def design_estimate(*, project: Project, data: dict[str, Any]) -> dict[str, Any]:
    """For as-you-type validation: feasibility, tiers, counts, max GPUs, the total a generated version
    quotes (engine.plan.size prices as plan() does), alternatives (engine.alternatives), errors.

    Never raises for bad input: errors come back in "errors" (field -> messages).
    """
    result: dict[str, Any] = {"feasible": False, "errors": {}, "size": None, "alternatives": []}
    try:
        inputs = design_inputs_clean(project=project, data=data)
        spec = inputs.spec()
    except ValidationError as exc:
        result["errors"] = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return result
    try:
        sizing = size_cluster(spec)
        check_pools(spec, sizing)
        result["size"] = sizing_dict(sizing)
        result["feasible"] = True
    except SpecError as exc:
        result["errors"] = spec_error_fields(exc)
    result["alternatives"] = alternatives_estimate(spec)
    return result


def version_alternative_use(*, version: DesignVersion, user: Any, planes: Any, tiers: Any) -> Job:
    """A new version with `version`'s inputs built as one of its feasible alternatives (planes, tiers).

    Only an alternative the version lists as feasible, not blocking and not its own structure can be
    used (a blocking wiring is not an input: it would not deliver the stated oversubscription).
    """
    def whole(value: Any) -> int | None:
        text = str(value if value is not None else "").strip()
        return int(text) if text.isascii() and text.isdigit() else None

    planes_n, tiers_n = whole(planes), whole(tiers)
    usable = [
        alt for alt in (version.summary or {}).get("alternatives") or []
        if alt.get("feasible") and not alt.get("blocking") and not alt.get("current")
        and (alt.get("planes"), alt.get("tiers")) == (planes_n, tiers_n)
    ]
    if not usable:
        raise ValidationError({"alternative": [
            _("Version %(number)s has no such alternative to use: choose one from its table of alternatives.")
            % {"number": version.number}
        ]})
    return design_version_create(design=version.design, user=user, source=version,
                                 data={"planes": planes_n, "tiers": tiers_n})
