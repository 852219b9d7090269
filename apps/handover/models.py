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


class Status(models.TextChoices):
    PLANNED = "planned", _("planned")
    INSTALLED = "installed", _("installed")
    VERIFIED = "verified", _("verified")


# One character per link in FabricHandover.link_status.
STATUS_CODE = {Status.PLANNED: "p", Status.INSTALLED: "i", Status.VERIFIED: "v"}
CODE_STATUS = {v: k for k, v in STATUS_CODE.items()}


class FabricHandover(models.Model):
    """A won version: the fabric's inventory. Only an approved version can be marked won.

    `link_status` holds every planned link's status, one character per link in link index order
    (p planned, i installed, v verified): an as-built check sets its ok links verified and its
    miswired or formerly verified links installed."""

    version = models.OneToOneField("designs.DesignVersion", on_delete=models.CASCADE, related_name="handover")
    won_at = models.DateTimeField(_("won at"), auto_now_add=True)
    won_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="+")
    link_status = models.TextField(_("link status"), blank=True, editable=False)

    class Meta:
        verbose_name = _("won fabric")
        verbose_name_plural = _("won fabrics")

    def __str__(self) -> str:
        return f"{self.version} won"


class DeviceInventory(models.Model):
    """A device of a won version as installed: its serial number, asset tag and status, by device name."""

    handover = models.ForeignKey(FabricHandover, on_delete=models.CASCADE, related_name="devices")
    name = models.CharField(_("device"), max_length=100)
    serial = models.CharField(_("serial number"), max_length=64, blank=True)
    asset_tag = models.CharField(_("asset tag"), max_length=64, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["handover_id", "name"]
        verbose_name = _("inventory device")
        verbose_name_plural = _("inventory devices")
        constraints = [models.UniqueConstraint(fields=["handover", "name"], name="handover_device_unique_name")]

    def __str__(self) -> str:
        return self.name


class HostPrecheck(models.Model):
    """The latest pre-check report of one host of a version (engine.precheck); a new upload replaces it."""

    version = models.ForeignKey("designs.DesignVersion", on_delete=models.CASCADE, related_name="host_prechecks")
    host = models.CharField(_("host"), max_length=100)
    report = models.JSONField(_("report"), default=dict)
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now=True)

    class Meta:
        ordering = ["version_id", "host"]
        verbose_name = _("host pre-check")
        verbose_name_plural = _("host pre-checks")
        constraints = [models.UniqueConstraint(fields=["version", "host"], name="handover_precheck_unique_host")]

    def __str__(self) -> str:
        return self.host
