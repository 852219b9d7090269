"""A job's stage and failure in the reader's language.

Rules:
- Job.stage holds a stable key, written by the services and the engine's progress callback
  (STAGES below; an export writing a sheet stores "writing_sheet:<sheet title>"). The words are
  chosen when the job is shown, in the language of whoever looks, not of whoever ran it.
- A queued job has no stage yet: its status ("queued") names it.
- Rows written before stage keys existed hold English words ("loading spec", "comparing
  alternatives", "saving BOM"): LEGACY maps them to their key. Anything else unknown (words an
  earlier release stored already translated) is shown as stored.
- A job that failed on an engine refusal keeps the refusal's codes (Job.error_details, by input
  name), so its message and field errors are translated when shown; jobs without them show the
  stored text.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .engine_text import message_text
from .models import Job

SHEET_PREFIX = "writing_sheet:"

STAGES = {
    "queued": _("waiting for a worker"),
    "starting": _("starting"),
    "retrying": _("retrying"),
    "loading": _("loading the inputs"),
    "topology": _("topology"),
    "cabling": _("cabling"),
    "bom": _("bill of materials"),
    "addressing": _("addressing"),
    "alternatives": _("comparing alternatives"),
    "traffic": _("traffic analysis"),
    "roce": _("RoCE review"),
    "racks": _("racks and data hall"),
    "simulating": _("modelling the training job"),
    "saving": _("saving"),
    "saving_devices": _("saving devices"),
    "saving_links": _("saving links"),
    "saving_ports": _("saving ports"),
    "saving_bom": _("saving the bill of materials"),
    "reading_bom": _("reading BOM"),
    "workbook_written": _("workbook written"),
    "reading_devices": _("reading devices"),
    "writing_interfaces": _("writing interfaces"),
    "writing_cables": _("writing cables"),
    "writing_addresses": _("writing IP addresses"),
    "netbox_written": _("NetBox files written"),
    "done": _("done"),
    "failed": _("failed"),
    "lost": _("lost"),
}
LEGACY = {
    "loading spec": "loading",
    "comparing alternatives": "alternatives",
    "saving devices": "saving_devices",
    "saving links": "saving_links",
    "saving ports": "saving_ports",
    "saving BOM": "saving_bom",
    "reading BOM": "reading_bom",
    "reading devices": "reading_devices",
    "writing interfaces": "writing_interfaces",
    "writing cables": "writing_cables",
    "writing IP addresses": "writing_addresses",
    "NetBox files written": "netbox_written",
}


def sheet_stage(title: str) -> str:
    """The stage key of an export writing the sheet `title` (fits Job.stage)."""
    return f"{SHEET_PREFIX}{title}"[: Job._meta.get_field("stage").max_length]


def stage_label(stage: str, status: str = "") -> str:
    """The words for a stage key (or, with no stage yet, the job's status) in the active language."""
    key = stage or status
    if key.startswith(SHEET_PREFIX):
        return str(_("writing %(sheet)s") % {"sheet": key[len(SHEET_PREFIX):]})
    key = LEGACY.get(key, key)
    label = STAGES.get(key)
    return str(label) if label is not None else stage


def job_stage_label(job: Job) -> str:
    return stage_label(job.stage or "", job.status if not job.stage else "")


def job_error_fields(job: Job) -> dict[str, list[str]]:
    """Why the job failed, by input name, in the active language (the stored words if it kept no codes)."""
    details = job.error_details or {}
    if not details:
        return dict(job.error_fields or {})
    return {name: [message_text(item) for item in items] for name, items in details.items()}


def job_error(job: Job) -> str:
    """The job's failure as one line in the active language (the stored words if it kept no codes)."""
    details = job.error_details or {}
    if not details:
        return job.error
    return "; ".join(message_text(item) for items in details.values() for item in items)

