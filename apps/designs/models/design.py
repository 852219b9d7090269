"""Designs and their immutable versions.

A design belongs to a project and is a sequence of versions numbered 1..n. A version holds
the inputs chosen from the catalog, the engine spec resolved from them, and (once generated)
the summary the engine reported plus the rows in `records.py`. Inputs are frozen as soon as a
version leaves "queued": editing a design means creating a new version.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from fabricweb.validators import DESCRIPTION_MAX_LENGTH, description_max_length, validate_single_line_name


class Design(models.Model):
    project = models.ForeignKey("projects.Project", on_delete=models.CASCADE, related_name="designs")
    name = models.CharField(_("name"), max_length=120, validators=[validate_single_line_name])
    description = models.TextField(_("description"), blank=True, max_length=DESCRIPTION_MAX_LENGTH,
                                   validators=[description_max_length])
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["project_id", "name"]
        verbose_name = _("design")
        verbose_name_plural = _("designs")
        constraints = [models.UniqueConstraint(fields=["project", "name"], name="design_unique_name_per_project")]

    def __str__(self) -> str:
        return self.name


class DesignVersion(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        GENERATING = "generating", _("generating")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    class Tiers(models.TextChoices):
        AUTO = "auto", _("automatic")
        TWO = "2", _("2 tiers")
        THREE = "3", _("3 tiers")

    # What a user chooses; frozen once the version leaves "queued".
    INPUT_FIELDS = (
        "server_id",
        "nic_id",
        "leaf_switch_id",
        "leaf_breakout",
        "spine_switch_id",
        "spine_breakout",
        "core_switch_id",
        "core_breakout",
        "gpus",
        "planes",
        "nic_split",
        "oversubscription",
        "tiers",
        "layout",
        "pools",
        "roce",
        "discount_pct",
        "currency",
        "spares",
        "third_party_optics",
        "spec",
    )

    design = models.ForeignKey(Design, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(_("version"))

    server = models.ForeignKey("catalog.ServerModel", on_delete=models.PROTECT, related_name="+")
    nic = models.ForeignKey("catalog.NicModel", on_delete=models.PROTECT, related_name="+")
    leaf_switch = models.ForeignKey("catalog.SwitchModel", on_delete=models.PROTECT, related_name="+")
    leaf_breakout = models.CharField(_("leaf breakout"), max_length=16)
    spine_switch = models.ForeignKey("catalog.SwitchModel", on_delete=models.PROTECT, related_name="+")
    spine_breakout = models.CharField(_("spine breakout"), max_length=16)
    core_switch = models.ForeignKey("catalog.SwitchModel", on_delete=models.PROTECT, related_name="+")
    core_breakout = models.CharField(_("core breakout"), max_length=16)
    gpus = models.PositiveIntegerField(_("GPUs"))
    planes = models.PositiveSmallIntegerField(_("planes"), default=1)
    nic_split = models.PositiveSmallIntegerField(
        _("NIC port split"), default=1,
        help_text=_("Parts each backend NIC port is split into (1, 2 or 4, one of the NIC's published breakout "
                    "modes); each part is a rail on a plane of its own."),
    )
    oversubscription = models.FloatField(_("oversubscription"), default=1.0)
    tiers = models.CharField(_("tiers"), max_length=4, choices=Tiers.choices, default=Tiers.AUTO)
    layout = models.JSONField(_("rack layout"), default=dict, blank=True)
    pools = models.JSONField(_("address pools"), default=dict, blank=True)
    roce = models.JSONField(_("RoCE settings"), default=dict, blank=True)
    # The other networks of the cluster (apps.designs.services.networks_input): {"frontend": {...},
    # "storage": {...}, "oob": {...}}, each present only when the design has it.
    networks = models.JSONField(_("other networks"), default=dict, blank=True)
    discount_pct = models.DecimalField(_("discount %"), max_digits=5, decimal_places=2, default=0)
    currency = models.CharField(_("currency"), max_length=3, default="USD")
    # The spares policy (engine SparesPolicy): percent per category {"switches", "transceivers", "cables", "fibers"}
    # and "switches_per_spare" (one spare switch per N of a model; absent before that rule); NULL: before spares.
    spares = models.JSONField(_("spares (%)"), null=True, blank=True)
    third_party_optics = models.BooleanField(
        _("third-party optics"), default=False,
        help_text=_("Off: switch cages take only optics and cables made by the switch's vendor or declared "
                    "compatible with it. On: any vendor's parts qualified for the fabric."),
    )
    spec = models.JSONField(_("engine spec"), default=dict, editable=False)
    # Rates the prices were converted with, from a part's currency: {"USD": {"rate": "7.1", "example": true}}.
    exchange_rates = models.JSONField(_("exchange rates"), default=dict, blank=True, editable=False)

    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.QUEUED)
    summary = models.JSONField(_("summary"), default=dict, blank=True, editable=False)
    subtotal = models.DecimalField(_("subtotal"), max_digits=16, decimal_places=2, null=True, blank=True)
    discount = models.DecimalField(_("discount"), max_digits=16, decimal_places=2, null=True, blank=True)
    total_cost = models.DecimalField(_("total cost"), max_digits=16, decimal_places=2, null=True, blank=True)
    power_typical_w = models.FloatField(_("typical power (W)"), null=True, blank=True)
    power_max_w = models.FloatField(_("maximum power (W)"), null=True, blank=True)
    # Power inside the servers' own budget (NICs, server-side optics); the two above are the network's.
    # NULL: generated before the split, when the two above counted both.
    in_server_typical_w = models.FloatField(_("in-server typical power (W)"), null=True, blank=True)
    in_server_max_w = models.FloatField(_("in-server maximum power (W)"), null=True, blank=True)
    spares_subtotal = models.DecimalField(_("spares subtotal"), max_digits=16, decimal_places=2, null=True,
                                          blank=True)
    rack_units = models.PositiveIntegerField(_("rack units"), null=True, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    generated_at = models.DateTimeField(_("generated at"), null=True, blank=True)

    class Meta:
        ordering = ["design_id", "number"]
        verbose_name = _("design version")
        verbose_name_plural = _("design versions")
        constraints = [
            models.UniqueConstraint(fields=["design", "number"], name="design_version_unique_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="design_version_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.design} v{self.number}"

    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        # field_names are attnames ("server_id"); deferred fields are simply not tracked.
        instance._loaded_inputs = {name: getattr(instance, name) for name in cls.INPUT_FIELDS if name in field_names}
        instance._loaded_status = instance.status if "status" in field_names else None
        return instance

    def save(self, *args, **kwargs):
        self._check_inputs_frozen()
        super().save(*args, **kwargs)

    def _check_inputs_frozen(self) -> None:
        """A version that has left "queued" never changes its inputs (versions are immutable)."""
        loaded = getattr(self, "_loaded_inputs", None)
        if self._state.adding or loaded is None or self._loaded_status == self.Status.QUEUED:
            return
        changed = sorted(name.removesuffix("_id") for name, old in loaded.items() if getattr(self, name) != old)
        if changed:
            raise ValidationError(
                {name: [_("A generated version cannot be changed; create a new version instead.")] for name in changed}
            )

    @property
    def project(self):
        return self.design.project

    @property
    def is_ready(self) -> bool:
        return self.status == self.Status.READY

    @property
    def fabric(self) -> str:
        """"ethernet" or "infiniband", as frozen in the spec (versions from before fabrics are Ethernet)."""
        leaf = (self.spec or {}).get("leaf") if isinstance(self.spec, dict) else None
        return str((leaf or {}).get("fabric") or "ethernet") if isinstance(leaf, dict) else "ethernet"

    @property
    def is_infiniband(self) -> bool:
        return self.fabric == "infiniband"
