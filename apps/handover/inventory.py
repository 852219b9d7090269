"""The fabric's inventory: a won version's devices with serial numbers, asset tags and a status, and
the status of every planned link.

Rules:
- Only a generated, approved version can be marked won (the review decides approval); marking it
  twice changes nothing.
- Serial numbers and asset tags are imported from CSV or Excel (.xlsx; the first sheet): a header row
  naming the columns "device" and any of "serial", "asset_tag", "status" ("serial number", "asset tag"
  are taken too), then one row per device. Every bad cell is reported as "row R, column C: why" (rows
  numbered as the spreadsheet shows them, the header being row 1): a device not in the design, a
  device or serial given twice, a value longer than 64 characters or on several lines, an unknown
  status. Nothing is imported when any row is bad. Empty cells leave the stored value as it is.
- Status: planned, installed or verified, per device and per link. An as-built check of a won version
  sets its ok links verified and makes its miswired links installed (cabled, but not as planned);
  a dumped device whose planned links all check ok is verified, any other dumped device installed.
"""
from __future__ import annotations

import csv
import io
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion, DeviceRecord
from apps.designs.models.records import record_id_range
from apps.engine.safe_text import has_control_characters
from apps.reviews.models import ReviewState
from apps.reviews.selectors import review_state_for_version

from .models import CODE_STATUS, STATUS_CODE, AsBuiltCheck, DeviceInventory, FabricHandover, Status

MAX_ROWS = 100_000
MAX_VALUE = 64
COLUMN_ALIASES = {"device": "device", "name": "device", "serial": "serial", "serial number": "serial",
                  "serial_number": "serial", "asset_tag": "asset_tag", "asset tag": "asset_tag", "asset": "asset_tag",
                  "status": "status"}


def handover_get(*, version: DesignVersion) -> FabricHandover | None:
    return FabricHandover.objects.filter(version=version).first()


def handover_mark_won(*, version: DesignVersion, user: Any) -> FabricHandover:
    existing = handover_get(version=version)
    if existing is not None:
        return existing
    if not version.is_ready:
        raise ValidationError({"version": [_("The version is not generated yet.")]})
    if review_state_for_version(version=version) != ReviewState.APPROVED:
        raise ValidationError({"version": [_("Only an approved version can be marked won: submit it for review "
                                             "and have it approved first.")]})
    count = version.links.count()
    return FabricHandover.objects.create(version=version, won_by=user if user.is_authenticated else None,
                                         link_status=STATUS_CODE[Status.PLANNED] * count)


def _rows_from_upload(name: str, data: bytes) -> list[list[str]]:
    if name.lower().endswith((".xlsx", ".xlsm")):
        from openpyxl import load_workbook

        try:
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception:  # openpyxl raises many kinds on a damaged file
            raise ValidationError({"file": [_("%(file)s is not an Excel workbook (.xlsx).") % {"file": name}]}) \
                from None
        sheet = book.worksheets[0]
        rows = []
        for row in sheet.iter_rows(values_only=True):
            rows.append(["" if v is None else str(v).strip() for v in row])
            if len(rows) > MAX_ROWS + 1:
                break
        return rows
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError({"file": [_("%(file)s is not UTF-8 CSV text.") % {"file": name}]}) from None
    try:
        return [[c.strip() for c in row] for row in csv.reader(io.StringIO(text))]
    except csv.Error as exc:
        raise ValidationError({"file": [_("%(file)s is not CSV: %(error)s") % {"file": name, "error": exc}]}) \
            from None


def inventory_import(*, version: DesignVersion, name: str, data: bytes) -> int:
    """Serials, asset tags and statuses from a CSV or Excel file; returns the devices updated."""
    handover = handover_get(version=version)
    if handover is None:
        raise ValidationError({"file": [_("Mark the version won before importing its inventory.")]})
    rows = [r for r in _rows_from_upload(name, data)]
    while rows and not any(rows[-1]):
        rows.pop()
    if not rows:
        raise ValidationError({"file": [_("The file is empty: give a header row and one row per device.")]})
    header = [COLUMN_ALIASES.get(h.strip().lower(), "") for h in rows[0]]
    if "device" not in header:
        raise ValidationError({"file": [_("Row 1: name the columns; a \"device\" column is required, with any "
                                          "of \"serial\", \"asset_tag\", \"status\".")]})
    if len(rows) - 1 > MAX_ROWS:
        raise ValidationError({"file": [_("At most %(max)s rows.") % {"max": f"{MAX_ROWS:,}"}]})
    first, last = record_id_range(version.pk)
    planned = set(DeviceRecord.objects.filter(pk__range=(first, last)).values_list("name", flat=True))
    column_names = {key: rows[0][k] for k, key in enumerate(header) if key}
    errors: list[str] = []
    updates: dict[str, dict[str, str]] = {}
    seen_device: dict[str, int] = {}
    seen_serial: dict[str, int] = {}
    statuses = {s.value for s in Status}

    def bad(row: int, key: str, message: str) -> None:
        errors.append(_("Row %(row)s, column %(column)s: %(message)s") % {
            "row": row, "column": column_names.get(key, key), "message": message})

    for number, row in enumerate(rows[1:], start=2):
        if not any(row):
            continue
        values = {key: (row[k] if k < len(row) else "") for k, key in enumerate(header) if key}
        for key, value in values.items():
            if len(value) > MAX_VALUE:
                bad(number, key, _("at most %(max)s characters, not %(n)s") % {"max": MAX_VALUE, "n": len(value)})
            elif has_control_characters(value):
                bad(number, key, _("one line of text, without control characters"))
        device = values.get("device", "")
        if not device:
            bad(number, "device", _("give the device's name"))
        elif device not in planned:
            bad(number, "device", _("%(device)s is not a device of this design") % {"device": device})
        elif device in seen_device:
            bad(number, "device", _("%(device)s is already on row %(row)s") % {"device": device,
                                                                               "row": seen_device[device]})
        else:
            seen_device[device] = number
        serial = values.get("serial", "")
        if serial:
            if serial in seen_serial:
                bad(number, "serial", _("serial number %(serial)s is already on row %(row)s") % {
                    "serial": serial, "row": seen_serial[serial]})
            else:
                seen_serial[serial] = number
        status = values.get("status", "").lower()
        if status and status not in statuses:
            bad(number, "status", _("must be planned, installed or verified, not %(value)s") % {"value": status})
        updates[device] = {k: v for k, v in (("serial", serial), ("asset_tag", values.get("asset_tag", "")),
                                             ("status", status)) if v}
    if errors:
        raise ValidationError({"file": errors[:200]})
    # A serial already stored on another device of the design is a clash too.
    clashes = (DeviceInventory.objects.filter(handover=handover, serial__in=list(seen_serial))
               .exclude(name__in=list(updates)).values_list("serial", "name"))
    for serial, other in clashes:
        bad(seen_serial[serial], "serial", _("serial number %(serial)s is already recorded for %(device)s") % {
            "serial": serial, "device": other})
    if errors:
        raise ValidationError({"file": errors[:200]})
    with transaction.atomic():
        existing = {d.name: d for d in DeviceInventory.objects.select_for_update().filter(
            handover=handover, name__in=list(updates))}
        new, changed = [], []
        for device, fields in updates.items():
            record = existing.get(device)
            if record is None:
                new.append(DeviceInventory(handover=handover, name=device, **fields))
                continue
            for key, value in fields.items():
                setattr(record, key, value)
            changed.append(record)
        DeviceInventory.objects.bulk_create(new)
        DeviceInventory.objects.bulk_update(changed, ["serial", "asset_tag", "status"])
    return len(updates)


def inventory_apply_check(*, check: AsBuiltCheck, fabric_devices: list[tuple[str, str]], dumped: set[str]) -> None:
    """Statuses after an as-built check of a won version (see the module's rules).

    fabric_devices: (a device, b device) of every planned link in link order."""
    handover = FabricHandover.objects.select_for_update().filter(version_id=check.version_id).first()
    if handover is None:
        return
    verified, installed = STATUS_CODE[Status.VERIFIED], STATUS_CODE[Status.INSTALLED]
    old = handover.link_status or STATUS_CODE[Status.PLANNED] * len(check.states)
    new = []
    all_ok: dict[str, bool] = {}
    for index, code in enumerate(check.states):
        before = old[index] if index < len(old) else STATUS_CODE[Status.PLANNED]
        if code == "o":
            new.append(verified)
        elif code == "w" or (code == "m" and before == verified):
            new.append(installed)
        else:
            new.append(before)
        if code != "u":
            for device in fabric_devices[index]:
                if device in dumped:
                    all_ok[device] = all_ok.get(device, True) and code == "o"
    handover.link_status = "".join(new)
    handover.save(update_fields=["link_status"])
    existing = {d.name: d for d in DeviceInventory.objects.filter(handover=handover, name__in=list(all_ok))}
    create, update = [], []
    for device, ok in all_ok.items():
        status = Status.VERIFIED if ok else Status.INSTALLED
        record = existing.get(device)
        if record is None:
            create.append(DeviceInventory(handover=handover, name=device, status=status))
        elif record.status != status:
            record.status = status
            update.append(record)
    DeviceInventory.objects.bulk_create(create)
    DeviceInventory.objects.bulk_update(update, ["status"])


def link_status_counts(handover: FabricHandover) -> dict[str, int]:
    text = handover.link_status or ""
    return {CODE_STATUS[code].value: text.count(code) for code in CODE_STATUS}


def links_mark(*, version: DesignVersion, indexes: list[int], status: str) -> int:
    """Set planned or installed by hand on links (verified comes only from an as-built check)."""
    if status not in (Status.PLANNED, Status.INSTALLED):
        raise ValidationError({"status": [_("Set planned or installed; verified comes from an as-built check.")]})
    with transaction.atomic():
        handover = FabricHandover.objects.select_for_update().filter(version=version).first()
        if handover is None:
            raise ValidationError({"links": [_("Mark the version won first.")]})
        text = list(handover.link_status)
        bad = [i for i in indexes if not 0 <= i < len(text)]
        if bad:
            raise ValidationError({"links": [_("No link %(link)s in this design.") % {"link": bad[0]}]})
        for i in indexes:
            text[i] = STATUS_CODE[Status(status)]
        handover.link_status = "".join(text)
        handover.save(update_fields=["link_status"])
    return len(indexes)
