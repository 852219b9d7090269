"""The file an export job writes: which version, which kind, where it lies and how big it is.

One row per export job, created with the job (so a queued export already knows its kind) and
completed when the file is in place. Files live under MEDIA_ROOT (`path` is relative to it);
the name a user downloads is built from the project, design and version at download time.
Deleting the row (with its job or version) deletes the file. The table keeps the name the designs
app gave it (designs_exportfile): the model moved to this app without moving a row.
"""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

from .kinds import export_kind_get, export_kind_label


class ExportFile(models.Model):
    class Kind(models.TextChoices):
        """This app's own kinds; the field takes any registered kind (apps.exports.kinds)."""

        XLSX = "xlsx", _("Excel workbook")
        NETBOX = "netbox", _("NetBox import (zip of CSV files)")

    job = models.OneToOneField("designs.Job", on_delete=models.CASCADE, related_name="export_file")
    version = models.ForeignKey("designs.DesignVersion", on_delete=models.CASCADE, related_name="export_files")
    kind = models.CharField(_("kind"), max_length=16)
    language = models.CharField(_("language"), max_length=16, blank=True)
    path = models.CharField(_("path"), max_length=500, blank=True, help_text=_("Relative to MEDIA_ROOT."))
    size = models.PositiveBigIntegerField(_("size (bytes)"), null=True, blank=True)
    # What the writer is asked besides the version: {"prefix": ...} for NetBox files (apps.exports.netbox).
    options = models.JSONField(_("options"), default=dict, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "designs_exportfile"  # created by the designs app, which held this model before
        ordering = ["-created", "-id"]
        verbose_name = _("export file")
        verbose_name_plural = _("export files")

    def __str__(self) -> str:
        return f"{self.kind_label} of {self.version_id} ({self.path or 'pending'})"

    @property
    def kind_label(self) -> str:
        return export_kind_label(self.kind)

    @property
    def language_shown(self) -> bool:
        kind = export_kind_get(self.kind)
        return bool(kind is not None and kind.by_language and self.language)

    @property
    def language_label(self) -> str:
        return dict(settings.LANGUAGES).get(self.language, self.language)

    @property
    def is_ready(self) -> bool:
        return bool(self.path) and self.size is not None


@receiver(post_delete, sender=ExportFile, dispatch_uid="designs_export_file_remove")
def _export_file_remove(sender, instance: ExportFile, **kwargs) -> None:
    if instance.path:
        Path(settings.MEDIA_ROOT, instance.path).unlink(missing_ok=True)
