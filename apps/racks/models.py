"""The data hall of a generated version, its racks and what each rack holds.

Rules:
- One Hall per generated version (the grid of rows and positions, reserved cells, zones and the
  rules the racks were filled by); Rack and RackItem rows are written in bulk (PostgreSQL COPY,
  apps.designs.persistence.table_write) inside the generation's transaction, never one by one.
- Like the designs records, ids are composed from the version: ``id = version_id << 32 | index``
  (apps.designs.models.record_id), so a rack item's rack and device are computed, never looked
  up, and foreign keys between rows of one version carry no database constraint.
- A rack item is a device of one of the cluster's networks (``device`` points at its DeviceRecord)
  or a passive part the placement adds (patch panel, cable manager): those have no device.
- Rack units count from 1 at the bottom; ``u`` is the lowest unit an item occupies. ``face`` is the
  side it is mounted from ("front" or "rear"); a full-depth item fills its units on both faces.
- Power is in watts; a rack's budget against the basis the design chose (typical or maximum draw).
"""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.designs.models import DesignVersion, DeviceRecord

ID_SHIFT = 32


def rack_row_id(version_id: int, index: int) -> int:
    """The id of rack (or rack item) `index` of a version."""
    return (int(version_id) << ID_SHIFT) | int(index)


def rack_row_id_range(version_id: int) -> tuple[int, int]:
    """First and last possible id of a version's racks (or rack items): a range scan on the primary key."""
    first = rack_row_id(version_id, 0)
    return first, first + (1 << ID_SHIFT) - 1


class PowerBasis(models.TextChoices):
    TYPICAL = "typical", _("typical draw")
    MAXIMUM = "maximum", _("maximum draw")


class Cooling(models.TextChoices):
    AIR = "air", _("air")
    REAR_DOOR = "rear-door", _("rear-door heat exchanger")
    LIQUID = "liquid", _("direct liquid cooling")


class RackKind(models.TextChoices):
    COMPUTE = "compute", _("compute")
    NETWORK = "network", _("network")
    STORAGE = "storage", _("storage")
    MANAGEMENT = "management", _("management")


class Face(models.TextChoices):
    FRONT = "front", _("front")
    REAR = "rear", _("rear")


class ItemKind(models.TextChoices):
    DEVICE = "device", _("device")
    PATCH_PANEL = "patch-panel", _("patch panel")
    CABLE_MANAGER = "cable-manager", _("cable manager")


class Hall(models.Model):
    version = models.OneToOneField(DesignVersion, on_delete=models.CASCADE, related_name="hall")
    rows = models.PositiveIntegerField(_("rows"))
    positions = models.PositiveIntegerField(_("positions per row"))
    rack_width_m = models.FloatField(_("rack width (m)"))
    row_pitch_m = models.FloatField(_("row pitch (m)"))
    rack_units = models.PositiveSmallIntegerField(_("rack height (U)"))
    budget_w = models.FloatField(_("power budget per rack (W)"), null=True, blank=True)
    power_basis = models.CharField(_("power basis"), max_length=10, choices=PowerBasis.choices,
                                   default=PowerBasis.TYPICAL)
    cooling = models.CharField(_("cooling"), max_length=10, choices=Cooling.choices, default=Cooling.AIR)
    structured_cabling = models.BooleanField(_("structured cabling"), default=False)
    # [{"row": r, "position": p}], 0-based as the engine counts.
    reserved = models.JSONField(_("reserved cells"), default=list, blank=True)
    # Bands of consecutive rows of one zone: [{"kind": "compute"|"network"|"storage", "rows": [first, last]}]
    # (0-based, inclusive).
    zones = models.JSONField(_("zones"), default=list, blank=True)
    racks = models.PositiveIntegerField(_("racks"), default=0)
    power_typical_w = models.FloatField(_("typical power (W)"), default=0)
    power_max_w = models.FloatField(_("maximum power (W)"), default=0)
    # The parts without a published power figure (engine.hall): the two totals above leave them out.
    power_missing = models.JSONField(_("parts without a power figure"), default=list, blank=True)
    # The footprint with its aisles and clearances (engine.hall.geometry); 0 for halls placed before aisles.
    footprint_width_m = models.FloatField(_("hall width (m)"), default=0)
    footprint_depth_m = models.FloatField(_("hall depth (m)"), default=0)
    # {"paired", "rack_depth_m", "cold_aisle_m", "hot_aisle_m", "cross_aisle_m", "row_racks_max",
    #  "air_limit_kw", "rear_door_limit_kw"}: how the rows stand and the site's cooling limits.
    aisles = models.JSONField(_("aisles"), default=dict, blank=True)

    class Meta:
        verbose_name = _("data hall")
        verbose_name_plural = _("data halls")

    def __str__(self) -> str:
        return f"Hall of {self.version}"

    @property
    def width_m(self) -> float:
        return self.footprint_width_m or self.positions * self.rack_width_m

    @property
    def depth_m(self) -> float:
        return self.footprint_depth_m or self.rows * self.row_pitch_m


class Rack(models.Model):
    id = models.BigIntegerField(primary_key=True, editable=False)
    version = models.ForeignKey(DesignVersion, on_delete=models.CASCADE, related_name="racks",
                                db_constraint=False, db_index=False)
    index = models.PositiveIntegerField(_("index"))
    name = models.CharField(_("name"), max_length=32)
    kind = models.CharField(_("kind"), max_length=10, choices=RackKind.choices)
    zone = models.CharField(_("zone"), max_length=10, blank=True)
    row = models.PositiveIntegerField(_("row"))
    position = models.PositiveIntegerField(_("position"))
    x_m = models.FloatField(_("x (m)"))
    y_m = models.FloatField(_("y (m)"))
    u_height = models.PositiveSmallIntegerField(_("height (U)"))
    used_u = models.PositiveSmallIntegerField(_("units used"), default=0)
    power_typical_w = models.FloatField(_("typical power (W)"), default=0)
    power_max_w = models.FloatField(_("maximum power (W)"), default=0)
    budget_w = models.FloatField(_("power budget (W)"), null=True, blank=True)
    cooling = models.CharField(_("cooling"), max_length=10, choices=Cooling.choices, default=Cooling.AIR)
    pod = models.IntegerField(_("pod"), null=True, blank=True)
    su = models.IntegerField(_("scale unit"), null=True, blank=True)
    items = models.PositiveIntegerField(_("items"), default=0)
    # "SN2201, NVLink switch tray": parts in the rack without a published power figure, left out of its totals.
    power_missing = models.TextField(_("parts without a power figure"), blank=True, default="", db_default="")

    class Meta:
        ordering = ["id"]
        verbose_name = _("rack")
        verbose_name_plural = _("racks")
        indexes = [models.Index(fields=["version", "name"], name="racks_rack_version_name")]

    def __str__(self) -> str:
        return self.name


class RackItem(models.Model):
    id = models.BigIntegerField(primary_key=True, editable=False)
    version = models.ForeignKey(DesignVersion, on_delete=models.CASCADE, related_name="rack_items",
                                db_constraint=False, db_index=False)
    rack = models.ForeignKey(Rack, on_delete=models.DO_NOTHING, related_name="contents", db_constraint=False)
    index = models.PositiveIntegerField(_("index"))
    kind = models.CharField(_("kind"), max_length=16, choices=ItemKind.choices, default=ItemKind.DEVICE)
    name = models.CharField(_("name"), max_length=100)
    role = models.CharField(_("role"), max_length=16, blank=True)
    # backend, frontend, storage, oob, scale-up (NVLink switch trays) or cabling (passive parts)
    network = models.CharField(_("network"), max_length=8, blank=True)
    device = models.ForeignKey(DeviceRecord, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False,
                               null=True, blank=True)
    sku = models.CharField(_("SKU"), max_length=64, blank=True)
    model = models.CharField(_("model"), max_length=128, blank=True)
    u = models.PositiveSmallIntegerField(_("lowest unit"))
    u_height = models.PositiveSmallIntegerField(_("height (U)"))
    face = models.CharField(_("face"), max_length=5, choices=Face.choices, default=Face.FRONT)
    full_depth = models.BooleanField(_("full depth"), default=True)
    power_typical_w = models.FloatField(_("typical power (W)"), default=0)
    power_max_w = models.FloatField(_("maximum power (W)"), default=0)
    power_missing = models.TextField(_("parts without a power figure"), blank=True, default="", db_default="")

    class Meta:
        ordering = ["id"]
        verbose_name = _("rack item")
        verbose_name_plural = _("rack items")
        indexes = [models.Index(fields=["version", "name"], name="racks_item_version_name")]

    def __str__(self) -> str:
        return self.name
