"""As-built checks: every upload of neighbour dumps is kept with what the check found.

One row per upload (nothing is saved from a rejected one): the uploaded files as one zip, as
received (loose files are zipped), the counts per state, the findings with their fixes, and the
state of every planned link (`states`, one character per link in link index order: o ok,
w miswired, m missing, u unverified; see apps.engine.asbuilt). The rows of a version over time
are the install progress (% verified).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AsBuiltCheck(models.Model):
    version = models.ForeignKey("designs.DesignVersion", on_delete=models.CASCADE, related_name="asbuilt_checks")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    file_names = models.JSONField(_("files"), default=list)
    size_bytes = models.PositiveBigIntegerField(_("upload size (bytes)"), default=0)
    archive = models.BinaryField(_("uploaded files (zip)"), editable=False)
    dumped_devices = models.PositiveIntegerField(_("devices dumped"), default=0)
    planned = models.PositiveIntegerField(_("planned links"), default=0)
    ok = models.PositiveIntegerField(_("ok"), default=0)
    miswired = models.PositiveIntegerField(_("miswired"), default=0)
    missing = models.PositiveIntegerField(_("missing"), default=0)
    unverified = models.PositiveIntegerField(_("unverified"), default=0)
    unexpected = models.PositiveIntegerField(_("unexpected"), default=0)
    verified_pct = models.FloatField(_("verified (%)"), default=0)
    findings = models.JSONField(_("findings"), default=list, editable=False)
    notes = models.JSONField(_("notes"), default=list, editable=False)
    states = models.TextField(_("link states"), blank=True, editable=False)

    class Meta:
        ordering = ["version_id", "-created_at", "-id"]
        verbose_name = _("as-built check")
        verbose_name_plural = _("as-built checks")
        indexes = [models.Index(fields=["version", "-created_at"], name="handover_check_version_time")]

    def __str__(self) -> str:
        return f"{self.version} as-built {self.created_at:%Y-%m-%d %H:%M}"
