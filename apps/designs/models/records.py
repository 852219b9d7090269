"""What a generated version contains, one row per device, used port, link and BOM line.

Rows are written in bulk (PostgreSQL COPY) by `apps.designs.persistence`, never one by one.
So that COPY can write foreign keys without asking the database for ids, the ids of devices,
ports and links are composed from the version: ``id = version_id << 32 | index`` (see
`record_id`), where index is the row's 0-based position in the engine's plan. The foreign
keys between rows of one version are therefore correct by construction; they are declared
without database constraints (each would cost a trigger per row on a 400,000-row COPY) and
with DO_NOTHING, so that deleting a version deletes its rows with one statement per table.

Indexes are few on purpose: every index costs time on a 400,000-row COPY. A version's rows are
found by primary-key range (`record_id_range`), not by an index on version; links and ports
are indexed by device for the "device" filters, devices by (version, role) and (version, name).
"""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .design import DesignVersion

ID_SHIFT = 32
# The cluster's networks share the version's id space: network n's rows have ids
# version << 32 | n << NETWORK_SHIFT | index (the backend is network 0), so a primary-key range scan
# finds one network's rows, and everything written before networks existed is the backend's.
NETWORK_SHIFT = 28
NETWORK_CODES = {"backend": 0, "frontend": 1, "storage": 2, "oob": 3}


def record_id(version_id: int, index: int, network: str = "backend") -> int:
    """The id of row `index` of a version's network (device, port or link)."""
    return (int(version_id) << ID_SHIFT) | (NETWORK_CODES[network] << NETWORK_SHIFT) | int(index)


def record_id_range(version_id: int, network: str = "backend") -> tuple[int, int]:
    """First and last possible id of one network's rows of a version (the backend's by default):
    a range scan on the primary key."""
    first = record_id(version_id, 0, network)
    return first, first + (1 << NETWORK_SHIFT) - 1


class Network(models.TextChoices):
    BACKEND = "backend", _("backend")
    FRONTEND = "frontend", _("front-end")
    STORAGE = "storage", _("storage")
    OOB = "oob", _("out-of-band management")


class Role(models.TextChoices):
    SERVER = "server", _("server")
    LEAF = "leaf", _("leaf")
    SPINE = "spine", _("spine")
    CORE = "core", _("core")
    STORAGE = "storage", _("storage node")


class Tier(models.IntegerChoices):
    SERVER_LEAF = 0, _("server-leaf")
    LEAF_SPINE = 1, _("leaf-spine")
    SPINE_CORE = 2, _("spine-core")


class DeviceRecord(models.Model):
    id = models.BigIntegerField(primary_key=True, editable=False)
    version = models.ForeignKey(
        DesignVersion, on_delete=models.CASCADE, related_name="devices", db_constraint=False, db_index=False
    )
    index = models.PositiveIntegerField(_("index"))
    name = models.CharField(_("name"), max_length=100)
    role = models.CharField(_("role"), max_length=8, choices=Role.choices)
    sku = models.CharField(_("SKU"), max_length=64)
    model = models.CharField(_("model"), max_length=128, blank=True)
    ports = models.PositiveIntegerField(_("ports"))
    plane = models.SmallIntegerField(_("plane"), null=True, blank=True)
    pod = models.IntegerField(_("pod"), null=True, blank=True)
    su = models.IntegerField(_("scale unit"), null=True, blank=True)
    rail = models.SmallIntegerField(_("rail"), null=True, blank=True)
    group = models.IntegerField(_("group"), null=True, blank=True)
    row = models.IntegerField(_("row"), default=0)
    rack = models.CharField(_("rack"), max_length=32, blank=True)
    rack_unit = models.PositiveIntegerField(_("rack unit"), default=0)
    network = models.CharField(_("network"), max_length=8, choices=Network.choices, default=Network.BACKEND,
                               db_default=Network.BACKEND)
    asn = models.BigIntegerField(_("ASN"), null=True, blank=True)
    loopback = models.GenericIPAddressField(_("loopback"), protocol="IPv4", null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("device")
        verbose_name_plural = _("devices")
        indexes = [
            models.Index(fields=["version", "role"], name="designs_dev_version_role"),
            models.Index(fields=["version", "name"], name="designs_dev_version_name"),
        ]

    def __str__(self) -> str:
        return self.name


class LinkRecord(models.Model):
    id = models.BigIntegerField(primary_key=True, editable=False)
    version = models.ForeignKey(
        DesignVersion, on_delete=models.CASCADE, related_name="links", db_constraint=False, db_index=False
    )
    index = models.PositiveIntegerField(_("index"))
    tier = models.SmallIntegerField(_("tier"), choices=Tier.choices)
    a_device = models.ForeignKey(
        DeviceRecord, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False
    )
    a_port = models.CharField(_("A port"), max_length=40)
    b_device = models.ForeignKey(
        DeviceRecord, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False
    )
    b_port = models.CharField(_("B port"), max_length=40)
    plane = models.SmallIntegerField(_("plane"), null=True, blank=True)
    rail = models.SmallIntegerField(_("rail"), null=True, blank=True)
    pod = models.IntegerField(_("pod"), null=True, blank=True)
    medium = models.CharField(_("medium"), max_length=80)
    medium_kind = models.CharField(_("medium kind"), max_length=8)
    fiber = models.CharField(_("fibre"), max_length=4, blank=True)
    a_sku = models.CharField(_("A-end module or cable"), max_length=64, blank=True)
    b_sku = models.CharField(_("B-end module"), max_length=64, blank=True)
    cable_sku = models.CharField(_("cable or fibre cord"), max_length=64, blank=True)
    length_m = models.FloatField(_("length (m)"))
    label_a = models.CharField(_("A-end label"), max_length=120, blank=True)
    label_b = models.CharField(_("B-end label"), max_length=120, blank=True)
    subnet = models.CharField(_("subnet"), max_length=18, blank=True)
    a_ip = models.GenericIPAddressField(_("A-end address"), protocol="IPv4", null=True, blank=True)
    b_ip = models.GenericIPAddressField(_("B-end address"), protocol="IPv4", null=True, blank=True)
    network = models.CharField(_("network"), max_length=8, choices=Network.choices, default=Network.BACKEND,
                               db_default=Network.BACKEND)

    class Meta:
        ordering = ["id"]
        verbose_name = _("link")
        verbose_name_plural = _("links")

    def __str__(self) -> str:
        return f"{self.a_port} - {self.b_port}"


class PortRecord(models.Model):
    """A port in use: one per link end. Free ports are not stored (the summary counts them)."""

    id = models.BigIntegerField(primary_key=True, editable=False)
    version = models.ForeignKey(
        DesignVersion, on_delete=models.CASCADE, related_name="ports", db_constraint=False, db_index=False
    )
    index = models.PositiveIntegerField(_("index"))
    device = models.ForeignKey(
        DeviceRecord, on_delete=models.DO_NOTHING, related_name="used_ports", db_constraint=False
    )
    number = models.PositiveIntegerField(_("port number"))
    name = models.CharField(_("name"), max_length=40)
    speed_gbps = models.PositiveIntegerField(_("speed (Gb/s)"))
    link = models.ForeignKey(
        LinkRecord, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False, db_index=False
    )

    class Meta:
        ordering = ["id"]
        verbose_name = _("port")
        verbose_name_plural = _("ports")

    def __str__(self) -> str:
        return self.name


class BomLineRecord(models.Model):
    version = models.ForeignKey(DesignVersion, on_delete=models.CASCADE, related_name="bom_lines")
    index = models.PositiveIntegerField(_("index"))
    sku = models.CharField(_("SKU"), max_length=64)
    description = models.CharField(_("description"), max_length=300, blank=True)
    category = models.CharField(_("category"), max_length=16)
    qty = models.PositiveIntegerField(_("quantity"))
    unit_price = models.DecimalField(_("unit price"), max_digits=14, decimal_places=2)
    total = models.DecimalField(_("total"), max_digits=16, decimal_places=2)
    power_typical_w = models.FloatField(_("typical power (W)"), default=0)
    power_max_w = models.FloatField(_("maximum power (W)"), default=0)
    rack_units = models.PositiveIntegerField(_("rack units"), default=0)
    # The part of the line's power drawn inside the servers (engine.bom); NULL: generated before the split.
    in_server_typical_w = models.FloatField(_("in-server typical power (W)"), null=True, blank=True)
    in_server_max_w = models.FloatField(_("in-server maximum power (W)"), null=True, blank=True)
    # "network", "in-server", "both" or "spare"; "" for lines generated before the split.
    scope = models.CharField(_("power scope"), max_length=10, blank=True, default="")
    spare = models.BooleanField(_("spare"), default=False)
    network = models.CharField(_("network"), max_length=8, choices=Network.choices, default=Network.BACKEND,
                               db_default=Network.BACKEND)
    # False: the part has no published power figure / no list price. Its 0 W / 0.00 is not a value: pages,
    # workbook and document show it as missing and name it beside every total over it (engine.bom).
    power_published = models.BooleanField(_("power published"), default=True, db_default=True)
    price_published = models.BooleanField(_("price published"), default=True, db_default=True)

    class Meta:
        ordering = ["version_id", "index"]
        verbose_name = _("BOM line")
        verbose_name_plural = _("BOM lines")
        constraints = [models.UniqueConstraint(fields=["version", "index"], name="designs_bom_unique_index")]

    def __str__(self) -> str:
        return f"{self.qty} x {self.sku}"


class TopologyGroups(models.Model):
    """The backend's device census and link counts grouped for the topology's first views, counted from the plan
    when the version is saved (apps.designs.topology_groups), so a first view reads this one row instead
    of grouping millions of link rows (issue 33). A version without one is grouped by queries, as before."""

    version = models.OneToOneField(DesignVersion, on_delete=models.CASCADE, primary_key=True,
                                   related_name="topology_groups")
    groups = models.JSONField(_("groups"), default=dict)

    class Meta:
        verbose_name = _("topology groups")
        verbose_name_plural = _("topology groups")

    def __str__(self) -> str:
        return f"topology groups of version {self.version_id}"
