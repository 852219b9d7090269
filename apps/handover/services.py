"""Writes of the handover app: an as-built check from an upload of neighbour dumps.

Rules:
- The upload is files (one dump per switch or host, named after it; or one ibnetdiscover file) or
  one zip of them. Over HANDOVER_UPLOAD_MAX_BYTES in total (the zip unpacked too) it is refused with
  its limit; a file in an unknown format or with an unreadable line is refused naming the file and
  line. A refused upload saves nothing.
- Every accepted upload is kept (the files as one zip) with its check: the project's install
  progress is the sequence of checks. Only generated versions can be checked.
"""
from __future__ import annotations

import io
import zipfile
from typing import Any, Iterable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion
from apps.engine.asbuilt import DumpError, UploadLimits, asbuilt_check, read_dumps, zip_members
from apps.engine.asbuilt.parsers import FORMAT_IBNETDISCOVER

from .inventory import inventory_apply_check
from .models import AsBuiltCheck
from .selectors import version_planned_fabric
from .text import dump_error_text

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
MAX_FILES = 20_000


def upload_max_bytes() -> int:
    return int(getattr(settings, "HANDOVER_UPLOAD_MAX_BYTES", DEFAULT_MAX_BYTES))


def size_text(size: int) -> str:
    if size < 1024 * 1024:
        return _("%(size)s KB") % {"size": f"{size / 1024:,.1f}"}
    return _("%(size)s MB") % {"size": f"{size / (1024 * 1024):,.1f}"}


def asbuilt_files_read(*, uploads: Iterable[Any]) -> tuple[list[tuple[str, bytes]], bytes]:
    """(name, content) of every dump in the upload, and the upload kept as one zip; ValidationError
    {"files": [...]} when it is empty, too large or a zip that cannot be read."""
    uploads = list(uploads)
    limit = upload_max_bytes()
    if not uploads:
        raise ValidationError({"files": [_("Choose the dump files, or one zip of them.")]})
    size = sum(int(getattr(u, "size", 0) or 0) for u in uploads)
    if size > limit:
        raise ValidationError({"files": [_("The upload is %(size)s; the limit is %(limit)s.") % {
            "size": size_text(size), "limit": size_text(limit)}]})
    if len(uploads) > MAX_FILES:
        raise ValidationError({"files": [_("%(count)s files; at most %(max)s.") % {
            "count": f"{len(uploads):,}", "max": f"{MAX_FILES:,}"}]})
    files = [(str(getattr(u, "name", "") or "dump"), u.read()) for u in uploads]
    if len(files) == 1 and files[0][0].lower().endswith(".zip"):
        name, data = files[0]
        try:
            members = zip_members(data, name, UploadLimits(max_files=MAX_FILES, max_bytes=limit))
        except DumpError as exc:
            raise ValidationError({"files": [dump_error_text(*e) for e in exc.errors]}) from None
        return members, data
    kept = io.BytesIO()
    with zipfile.ZipFile(kept, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return files, kept.getvalue()


def asbuilt_check_create(*, version: DesignVersion, user: Any, uploads: Iterable[Any]) -> AsBuiltCheck:
    if not version.is_ready:
        raise ValidationError({"files": [_("The version is not generated yet.")]})
    files, archive = asbuilt_files_read(uploads=uploads)
    try:
        dumps = read_dumps(files)
    except DumpError as exc:
        raise ValidationError({"files": [dump_error_text(*e) for e in exc.errors[:50]]}) from None
    numbered = any(f.format == FORMAT_IBNETDISCOVER for f in dumps.files)
    fabric = version_planned_fabric(version=version, port_indexes=numbered)
    result = asbuilt_check(fabric, dumps)
    with transaction.atomic():
        check = AsBuiltCheck.objects.create(
            version=version, created_by=user if getattr(user, "is_authenticated", False) else None,
            file_names=[name for name, _data in files][:MAX_FILES], size_bytes=len(archive), archive=archive,
            dumped_devices=result.dumped_devices, planned=result.planned, ok=result.counts["ok"],
            miswired=result.counts["miswired"], missing=result.counts["missing"],
            unverified=result.counts["unverified"], unexpected=result.counts["unexpected"],
            verified_pct=result.verified_pct, findings=[f.to_dict() for f in result.findings],
            notes=[n.to_dict() | {"text": n.text} for n in result.notes], states=result.state_codes,
        )
        # A won version's inventory takes the verified links and devices.
        inventory_apply_check(check=check, fabric_devices=list(zip(fabric.a_device, fabric.b_device)),
                              dumped=dumps.dumped)
    return check
