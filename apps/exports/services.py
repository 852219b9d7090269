"""Export jobs: a version's Excel workbook or NetBox import files, written now or by a Celery task.

Rules:
- Only a generated ("ready") version is exported; anything else is a ValidationError on
  "version". Kinds are the registered ones (apps.exports.kinds): "xlsx" (apps.exports.excel) and
  "netbox" (.netbox) from this app, others from the apps above it (apps.documents: "pdf", "docx").
- Every export is a Job of kind "export" with its ExportFile; the job row is what pollers read.
  Asking again while an export of the same kind of the same version is queued or running
  returns that job instead of starting a second one.
- A version with at most FABRICWEB_EXPORT_SYNC_LINKS links (default 20,000) is written during
  the request; a bigger one (or any, with background=True) is enqueued once the transaction
  commits and written by apps.exports.tasks.version_export_task.
- The file is written under a temporary name beside its final path and renamed when complete:
  MEDIA_ROOT/exports/<project id>/<version id>/<job id>.xlsx|.zip. A failed export leaves no
  file and its job says why; it never fails the version.
- The language asked for (one of settings.LANGUAGES; by default the one active when the export is
  asked for) is the language of the file: the writer runs with it active.
"""
from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion, Job
from apps.designs.services.job import (JobNotActive, JobProgress, job_enqueue, job_mark_failed, job_mark_running,
                                       job_mark_succeeded)
from apps.designs.services.queue import queue_check

from .kinds import export_kind_codes, export_kind_get
from .models import ExportFile
from .netbox_parts import PREFIX_MAX, prefix_error
from .selectors import version_link_count

logger = logging.getLogger(__name__)

DEFAULT_SYNC_LINKS = 20_000


def export_sync_link_limit() -> int:
    return int(getattr(settings, "FABRICWEB_EXPORT_SYNC_LINKS", DEFAULT_SYNC_LINKS))


def _kind_clean(kind: Any) -> str:
    if not isinstance(kind, str) or export_kind_get(kind) is None:
        raise ValidationError({"kind": [_("Choose one of: %(kinds)s.") % {"kinds": ", ".join(export_kind_codes())}]})
    return kind


def _language_clean(language: Any) -> str:
    """One of settings.LANGUAGES; empty means the language active now."""
    codes = [code for code, _name in settings.LANGUAGES]
    if language in (None, ""):
        active = translation.get_language() or settings.LANGUAGE_CODE
        return active if active in codes else settings.LANGUAGE_CODE
    if language not in codes:
        raise ValidationError({"language": [_("Choose one of: %(languages)s.") % {"languages": ", ".join(codes)}]})
    return str(language)


def _version_check(version: DesignVersion) -> None:
    if version.status != DesignVersion.Status.READY:
        raise ValidationError({"version": [
            _("Version %(number)s is %(status)s: only a generated (ready) version can be exported.")
            % {"number": version.number, "status": version.get_status_display()}
        ]})


def _prefix_clean(kind: str, prefix: Any) -> dict:
    """The NetBox name prefix as writer options; refused with a field message when it cannot be a name start."""
    if prefix in (None, ""):
        return {}
    if kind != ExportFile.Kind.NETBOX:
        raise ValidationError({"prefix": [_("A name prefix applies to NetBox files only.")]})
    prefix = str(prefix).strip()
    problem = prefix_error(prefix)
    if problem == "too_long":
        raise ValidationError({"prefix": [_("At most %(max)s characters.") % {"max": PREFIX_MAX}]})
    if problem:
        raise ValidationError({"prefix": [_("Use letters, digits, '-', '_' and '.', starting with a letter or "
                                            "digit.")]})
    return {"prefix": prefix}


def version_export_create(*, version: DesignVersion, user: Any, kind: str = "xlsx",
                          background: bool | None = None, prefix: str = "", language: str = "") -> Job:
    """Ask for an export of `version`; returns its job (already finished when written synchronously).

    `prefix` (NetBox files only): the name prefix of the design's devices, location and VRF; empty
    means the design's name (apps.exports.netbox_parts). `language`: "en" or "zh-hans" (empty: the
    active language).
    """
    errors: dict[str, list[str]] = {}
    cleaned: dict[str, Any] = {}
    for field, clean in (("kind", lambda: _kind_clean(kind)), ("language", lambda: _language_clean(language))):
        try:
            cleaned[field] = clean()
        except ValidationError as exc:
            errors.update(exc.message_dict)
    if errors:
        raise ValidationError(errors)
    kind, language = cleaned["kind"], cleaned["language"]
    options = _prefix_clean(kind, prefix)
    _version_check(version)
    if background is None:
        background = version_link_count(version=version) > export_sync_link_limit()
    if background:
        queue_check()
    with transaction.atomic():
        # Serialise requests for the same version so two clicks start one export.
        DesignVersion.objects.select_for_update().filter(pk=version.pk).first()
        active = (
            Job.objects.filter(kind=Job.Kind.EXPORT, version=version, status__in=Job.ACTIVE, export_file__kind=kind,
                               export_file__language=language)
            .order_by("-created_at").first()
        )
        if active is not None:
            return active
        job = Job.objects.create(
            project=version.design.project, version=version, kind=Job.Kind.EXPORT, created_by=user,
        )
        ExportFile.objects.create(job=job, version=version, kind=kind, language=language, options=options)
        if background:
            _enqueue(job)
    if not background:
        version_export_run(job_id=job.pk)
        job.refresh_from_db()
    return job


def _enqueue(job: Job) -> None:
    from .tasks import version_export_task

    job_enqueue(job=job, task=version_export_task)


def export_relative_path(*, export: ExportFile) -> str:
    version = export.version
    extension = export_kind_get(export.kind).extension
    return f"exports/{version.design.project_id}/{version.pk}/{export.job_id}.{extension}"


def version_export_run(*, job_id: int, celery_task_id: str = "") -> Job:
    """Do an export job: write the file, then record where it is. Failures finish the job as failed."""
    job = Job.objects.select_related("version__design__project", "created_by").get(pk=job_id)
    if job.is_finished:
        return job
    export = ExportFile.objects.select_related("version__design__project").filter(job=job).first()
    if export is None:
        job_mark_failed(job_id=job.pk, error=_("This export job has no export file record."))
        job.refresh_from_db()
        return job
    kind = export_kind_get(export.kind)
    if kind is None:
        job_mark_failed(job_id=job.pk, error=_("Exports of kind “%(kind)s” are no longer offered.") % {"kind": export.kind})
        job.refresh_from_db()
        return job
    job_mark_running(job=job, celery_task_id=celery_task_id)
    relative = export_relative_path(export=export)
    final = Path(settings.MEDIA_ROOT) / relative
    final.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=final.parent, prefix=f".{final.stem}-", suffix=".part")
    os.close(handle)
    try:
        with translation.override(export.language or settings.LANGUAGE_CODE):
            kind.writer(
                version=export.version, path_or_stream=temporary, progress=JobProgress(job.pk, span=(2, 98)),
                user=job.created_by, **(export.options or {}),
            )
        size = os.path.getsize(temporary)
        os.replace(temporary, final)
        with transaction.atomic():
            if not job_mark_succeeded(job_id=job.pk):
                raise JobNotActive(job.pk)
            ExportFile.objects.filter(pk=export.pk).update(path=relative, size=size)
    except JobNotActive:
        logger.warning("export job %s was finished elsewhere while writing; file discarded", job.pk)
        _remove(final)
    except SoftTimeLimitExceeded:
        job_mark_failed(job_id=job.pk, error=_("The export took longer than %(seconds)s s and was stopped.")
                        % {"seconds": settings.CELERY_TASK_SOFT_TIME_LIMIT})
    except Exception as exc:
        logger.exception("export job %s failed", job.pk)
        job_mark_failed(job_id=job.pk, error=_("The export failed: %(error)s")
                        % {"error": str(exc) or type(exc).__name__})
    finally:
        _remove(Path(temporary))
    job.refresh_from_db()
    return job


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
