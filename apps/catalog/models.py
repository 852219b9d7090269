"""Hardware catalog: switches, NICs, GPU servers, transceivers, cable assemblies, fibre cords.

Rules the models enforce in `clean()` (so the admin, the API, the seed loader and the
Excel/NetBox importers all refuse the same bad rows):
- a switch breakout mode "NxSG" splits one cage into N logical ports of S Gb/s, so N*S must
  equal the cage speed; modes are unique and the first one is the native mode;
- a transceiver's total speed is `port_gbps * ports` (ports = 2 is a twin-port module);
  SR optics run on multimode fibre, DR and FR on single-mode;
- a cable's A-end speed is `leg_gbps * legs` (legs = 2 is a 1:2 splitter);
- a server's default NIC runs at the server's backend speed and its ports divide the
  server's backend ports; its backend ports per cage (1, or 2 for twin-port OSFP cages such as
  the DGX H100's) divide its backend ports;
- reaches, lengths and counts are positive, prices and power are not negative;
- transceivers, cables and fibre cords list the fabrics they are qualified for (`fabrics`: one or
  both of "ethernet", "infiniband", none twice); their vendor is their manufacturer, and
  transceivers and cables may name other switch vendors they are declared compatible with
  (`compatible_vendors`: manufacturers of the catalog). Designs use only parts qualified for their
  fabric and, unless a design allows third-party optics, made by the switch's vendor or declared
  compatible with it (apps.engine.cabling).
"""
from __future__ import annotations

import re
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from apps.engine.safe_text import has_control_characters

CURRENCY_CODE_RE = re.compile(r"[A-Z]{3}")  # use fullmatch
BREAKOUT_RE = re.compile(r"^(?P<n>[1-9]\d*)x(?P<speed>[1-9]\d*)G$")


def parse_breakout(mode: str) -> tuple[int, int]:
    """"2x400G" -> (2, 400). Raises ValueError for anything else."""
    match = BREAKOUT_RE.match(mode.strip()) if isinstance(mode, str) else None
    if not match:
        raise ValueError(mode)
    return int(match["n"]), int(match["speed"])


class FormFactor(models.TextChoices):
    """Cages of switches (access and uplink groups), and ends of optics and cables."""

    OSFP = "OSFP", "OSFP"
    OSFP_RHS = "OSFP-RHS", "OSFP-RHS"
    QSFP_DD = "QSFP-DD", "QSFP-DD"
    QSFP112 = "QSFP112", "QSFP112"
    QSFP56 = "QSFP56", "QSFP56"
    QSFP28 = "QSFP28", "QSFP28"
    QSFP_PLUS = "QSFP+", "QSFP+"
    SFP_DD = "SFP-DD", "SFP-DD"
    DSFP = "DSFP", "DSFP"
    SFP56 = "SFP56", "SFP56"
    SFP28 = "SFP28", "SFP28"
    SFP_PLUS = "SFP+", "SFP+"
    SFP = "SFP", "SFP"
    RJ45 = "RJ45", _("RJ45 (copper)")


class NicFormFactor(models.TextChoices):
    OSFP = "OSFP", "OSFP"
    QSFP_DD = "QSFP-DD", "QSFP-DD"
    QSFP112 = "QSFP112", "QSFP112"
    QSFP56 = "QSFP56", "QSFP56"
    QSFP28 = "QSFP28", "QSFP28"
    SFP56 = "SFP56", "SFP56"
    SFP28 = "SFP28", "SFP28"


class SwitchClass(models.TextChoices):
    """What a switch is for: the backend fabric, the front-end / storage network, or out-of-band management."""

    FABRIC = "fabric", _("backend fabric")
    FRONTEND = "frontend", _("front-end / storage")
    MANAGEMENT = "management", _("out-of-band management")


class PanelConnector(models.TextChoices):
    MPO8 = "MPO-8", "MPO-8"
    MPO12 = "MPO-12", "MPO-12"
    MPO16 = "MPO-16", "MPO-16"
    MPO24 = "MPO-24", "MPO-24"
    LC_DUPLEX = "LC duplex", _("LC duplex")
    SN_DUPLEX = "SN duplex", _("SN duplex")
    MDC_DUPLEX = "MDC duplex", _("MDC duplex")


# Fibres one front port of a panel carries (a duplex port: 2).
PANEL_CONNECTOR_FIBERS = {"MPO-8": 8, "MPO-12": 12, "MPO-16": 16, "MPO-24": 24, "LC duplex": 2, "SN duplex": 2,
                          "MDC duplex": 2}


class OpticMedia(models.TextChoices):
    SR = "SR", _("SR (short reach, multimode)")
    DR = "DR", _("DR (parallel single-mode)")
    FR = "FR", _("FR (CWDM single-mode)")


class CableMedia(models.TextChoices):
    DAC = "DAC", _("DAC (passive copper)")
    ACC = "ACC", _("ACC (active copper)")
    AEC = "AEC", _("AEC (active electrical)")
    AOC = "AOC", _("AOC (active optical)")


class Fiber(models.TextChoices):
    MMF = "MMF", _("Multimode (OM4)")
    SMF = "SMF", _("Single-mode (OS2)")


OPTIC_FIBER = {OpticMedia.SR: Fiber.MMF, OpticMedia.DR: Fiber.SMF, OpticMedia.FR: Fiber.SMF}
CABLE_LEGS = (1, 2, 4)


class Manufacturer(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    slug = models.SlugField(_("slug"), max_length=100, unique=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("manufacturer")
        verbose_name_plural = _("manufacturers")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors: dict[str, list[str]] = {}
        control_characters_check(self, errors)
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs):
        if not self.slug:
            self.slug = slugify(self.name)[:100]
        super().save(*args, **kwargs)


# Characters no spreadsheet, YAML file or printed quote can carry (tabs and line breaks are fine).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def control_characters_check(instance: models.Model, errors: dict[str, list[str]]) -> None:
    """Refuse control characters in any text field: they break the Excel and NetBox exports.

    One-line fields (names, SKUs, models: they reach configs and device names) take no line
    break or tab either; descriptions may hold line breaks and tabs.
    """
    for field in instance._meta.concrete_fields:
        if isinstance(field, (models.CharField, models.TextField)):
            value = getattr(instance, field.attname)
            if not isinstance(value, str):
                continue
            one_line = isinstance(field, models.CharField)
            if one_line and has_control_characters(value):
                errors.setdefault(field.name, []).append(
                    _("Names cannot hold line breaks, tabs or other control characters."))
            elif not one_line and CONTROL_CHARACTERS.search(value):
                errors.setdefault(field.name, []).append(
                    _("Remove the control characters: they cannot be printed or exported."))


class CatalogItem(models.Model):
    """What every orderable part has: who makes it, its SKU and its (example) list price."""

    manufacturer = models.ForeignKey(
        Manufacturer, on_delete=models.PROTECT, related_name="+", verbose_name=_("manufacturer")
    )
    sku = models.CharField(_("SKU"), max_length=64, unique=True)
    model = models.CharField(_("model"), max_length=150)
    description = models.TextField(_("description"), blank=True, default="")
    list_price = models.DecimalField(
        _("list price"), max_digits=12, decimal_places=2, default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    currency = models.CharField(_("currency"), max_length=3, default="USD")
    source = models.TextField(
        _("source"), blank=True, default="",
        help_text=_("Where the figures come from: the data sheet or reference architecture, its title and URL."),
    )
    price_is_example = models.BooleanField(
        _("price is an example"), default=False,
        help_text=_("Set for seed prices that are illustrations, not quotes."),
    )
    active = models.BooleanField(_("active"), default=True, help_text=_("Inactive items are not offered to designs."))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        abstract = True
        ordering = ["manufacturer__name", "model"]

    def __str__(self) -> str:
        return f"{self.model} ({self.sku})"

    def clean(self) -> None:
        errors: dict[str, list[str]] = {}
        control_characters_check(self, errors)
        if self.currency and not CURRENCY_CODE_RE.fullmatch(self.currency):
            errors.setdefault("currency", []).append(_("Use a three-letter ISO currency code such as USD."))
        self.check_rules(errors)
        if errors:
            raise ValidationError(errors)

    def check_rules(self, errors: dict[str, list[str]]) -> None:
        """Add the model's consistency errors to `errors` (field -> messages)."""


def _positive(errors: dict, field: str, value) -> None:
    if value is not None and value <= 0:
        errors.setdefault(field, []).append(_("Must be greater than zero."))


def _not_negative(errors: dict, field: str, value) -> None:
    if value is not None and value < 0:
        errors.setdefault(field, []).append(_("Must not be negative."))


class Fabric(models.TextChoices):
    ETHERNET = "ethernet", _("Ethernet (RoCEv2)")
    INFINIBAND = "infiniband", _("InfiniBand")


FABRIC_VALUES = tuple(Fabric.values)


def fabrics_errors(fabrics) -> list[str]:
    """Why `fabrics` is not a list of the fabrics a part is qualified for (empty when it is)."""
    if not isinstance(fabrics, list) or not fabrics:
        return [_('List the fabrics the part is qualified for: "ethernet", "infiniband" or both.')]
    messages = []
    for value in fabrics:
        if value not in FABRIC_VALUES:
            messages.append(_('"%(value)s" is not a fabric; use "ethernet" or "infiniband".') % {"value": value})
    if len(set(map(str, fabrics))) != len(fabrics):
        messages.append(_("List each fabric once."))
    return messages


def compatible_vendors_errors(names) -> list[str]:
    """Why `names` is not a list of catalog manufacturers (empty when it is)."""
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        return [_("List manufacturer names, e.g. NVIDIA, Arista.")]
    if not names:
        return []
    known = {name.lower() for name in Manufacturer.objects.values_list("name", flat=True)}
    unknown = [n for n in names if n.lower() not in known]
    return [_('No manufacturer named "%(name)s" in the catalog.') % {"name": n} for n in unknown]


class QualifiedPart(models.Model):
    """What an optic, a cable or a fibre cord states about where it may be used (see the module rules)."""

    fabrics = models.JSONField(
        _("qualified fabrics"), default=list, blank=True,
        help_text=_('The fabrics the vendor qualifies the part for: "ethernet", "infiniband" or both.'),
    )

    class Meta:
        abstract = True

    def check_qualification(self, errors: dict) -> None:
        messages = fabrics_errors(self.fabrics)
        if messages:
            errors.setdefault("fabrics", []).extend(messages)
        if hasattr(self, "compatible_vendors"):
            messages = compatible_vendors_errors(self.compatible_vendors)
            if messages:
                errors.setdefault("compatible_vendors", []).extend(messages)

    @property
    def fabrics_display(self) -> str:
        labels = dict(Fabric.choices)
        return ", ".join(str(labels.get(f, f)) for f in self.fabrics or [])


def _compatible_vendors_field():
    return models.JSONField(
        _("declared compatible with"), default=list, blank=True,
        help_text=_("Switch vendors (catalog manufacturers) the part is declared compatible with besides its own "
                    "manufacturer; a design uses it in their switches without allowing third-party optics."),
    )


class SwitchModel(CatalogItem):
    """A switch: its access ports (`cages`, `cage_form_factor`, `cage_gbps`, `breakouts`) and an optional
    uplink group beside them (`uplink_cages` of `uplink_gbps` in `uplink_form_factor`, e.g. the 8x100G of a
    48x25G+8x100G front-end leaf or the 4x10G of a 48x1G management switch). A fabric switch's ports are all
    access cages (`uplink_cages` = 0). Power and ASIC capacity are empty when the vendor does not publish them."""

    fabric = models.CharField(
        _("fabric"), max_length=16, choices=Fabric.choices, default=Fabric.ETHERNET,
        help_text=_("Ethernet switches carry RoCEv2 (PFC/ECN, BGP, ECMP); InfiniBand switches are lossless by "
                    "credit-based flow control and routed by the subnet manager. One fabric never mixes them."),
    )
    switch_class = models.CharField(
        _("switch class"), max_length=16, choices=SwitchClass.choices, default=SwitchClass.FABRIC,
        help_text=_("Backend fabric (leaf, spine, core of the GPU network), front-end / storage (25-400G leaves "
                    "with uplinks), or out-of-band management (1G/10G)."),
    )
    asic = models.CharField(_("ASIC"), max_length=64, blank=True, default="")
    asic_tbps = models.DecimalField(
        _("ASIC Tb/s"), max_digits=6, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(Decimal("0"))],
        help_text=_("Switching capacity; empty when the vendor does not publish it."),
    )
    cages = models.PositiveIntegerField(_("cages"), validators=[MinValueValidator(1)],
                                        help_text=_("Access ports (all data ports of a fabric switch)."))
    cage_form_factor = models.CharField(_("cage form factor"), max_length=16, choices=FormFactor.choices)
    cage_gbps = models.PositiveIntegerField(_("cage Gb/s"), validators=[MinValueValidator(1)])
    breakouts = models.JSONField(
        _("breakout modes"), default=list,
        help_text=_('Modes such as "1x800G", "2x400G", "4x200G"; the first is the native mode.'),
    )
    uplink_cages = models.PositiveIntegerField(
        _("uplink cages"), default=0,
        help_text=_("Uplink ports beside the access ports (8 on a 48x25G+8x100G leaf); 0 when there are none."),
    )
    uplink_form_factor = models.CharField(_("uplink form factor"), max_length=16, choices=FormFactor.choices,
                                          blank=True, default="")
    uplink_gbps = models.PositiveIntegerField(_("uplink Gb/s"), default=0)
    uplink_breakouts = models.JSONField(
        _("uplink breakout modes"), default=list, blank=True,
        help_text=_('Modes of the uplink cages, e.g. ["1x100G", "4x25G"]; empty: they run whole.'),
    )
    rack_units = models.PositiveSmallIntegerField(_("rack units"), validators=[MinValueValidator(1)])
    power_typical_w = models.FloatField(
        _("typical power (W)"), null=True, blank=True, validators=[MinValueValidator(0)],
        help_text=_("Empty when the vendor does not publish it; a design using the switch then says so."),
    )
    power_max_w = models.FloatField(
        _("maximum power (W)"), null=True, blank=True, validators=[MinValueValidator(0)],
        help_text=_("Empty when the vendor does not publish it; a design using the switch then says so."),
    )
    buffer_mb = models.FloatField(
        _("packet buffer (MiB)"), null=True, blank=True, validators=[MinValueValidator(0.001)],
        help_text=_("The ASIC's shared packet buffer as the vendor publishes it (MiB, 2^20 bytes); the SONiC buffer "
                    "pools of a design are sized from it. Empty when not published: the pools are then not sized."),
    )

    class Meta(CatalogItem.Meta):
        verbose_name = _("switch model")
        verbose_name_plural = _("switch models")

    def check_rules(self, errors):
        errors_breakouts = breakout_errors(self.breakouts, self.cage_gbps)
        if errors_breakouts:
            errors.setdefault("breakouts", []).extend(errors_breakouts)
        self._check_uplinks(errors)
        for name in ("power_typical_w", "power_max_w"):
            if getattr(self, name) == 0:
                errors.setdefault(name, []).append(
                    _("A switch does not draw 0 W: leave it empty when the vendor does not publish it."))
        if (
            self.power_typical_w is not None and self.power_max_w is not None
            and self.power_max_w < self.power_typical_w
        ):
            errors.setdefault("power_max_w", []).append(_("Maximum power must not be below typical power."))
        if self.asic_tbps == 0:
            errors.setdefault("asic_tbps", []).append(
                _("Leave the ASIC capacity empty when the vendor does not publish it."))
        if self.cages and self.cage_gbps and self.asic_tbps:
            needed = Decimal(self.cages * self.cage_gbps + (self.uplink_cages or 0) * (self.uplink_gbps or 0)) / 1000
            # Front-panel bandwidth above the ASIC's capacity is a typo, not an oversubscribed box.
            if needed > self.asic_tbps * Decimal("1.05"):
                errors.setdefault("asic_tbps", []).append(
                    _("%(cages)s cages of %(gbps)s Gb/s need %(need)s Tb/s; the ASIC has %(have)s.")
                    % {"cages": self.cages + (self.uplink_cages or 0), "gbps": self.cage_gbps, "need": needed,
                       "have": self.asic_tbps}
                )

    def _check_uplinks(self, errors):
        """An uplink group has cages, a form factor and a speed, or none of them."""
        if self.uplink_cages:
            if not self.uplink_form_factor:
                errors.setdefault("uplink_form_factor", []).append(_("Give the form factor of the uplink cages."))
            if not self.uplink_gbps:
                errors.setdefault("uplink_gbps", []).append(_("Give the speed of the uplink cages."))
            if self.uplink_breakouts:
                messages = breakout_errors(self.uplink_breakouts, self.uplink_gbps or None)
                if messages:
                    errors.setdefault("uplink_breakouts", []).extend(messages)
        else:
            for name in ("uplink_form_factor", "uplink_gbps", "uplink_breakouts"):
                if getattr(self, name):
                    errors.setdefault(name, []).append(
                        _("Only a switch with uplink cages has an uplink form factor, speed or breakouts."))
        if self.switch_class == SwitchClass.FABRIC and self.uplink_cages:
            errors.setdefault("switch_class", []).append(
                _("A backend fabric switch uses all its cages alike; a switch with an uplink group is a "
                  "front-end / storage or management switch."))

    @property
    def uplink_ports(self) -> int:
        """Uplink ports in the uplink group's native mode (one per cage)."""
        return self.uplink_cages or 0

    @property
    def native_breakout(self) -> str:
        return self.breakouts[0] if self.breakouts else ""

    @property
    def logical_ports(self) -> dict[str, int]:
        """Logical ports per breakout mode, e.g. {"1x800G": 64, "2x400G": 128}."""
        ports = {}
        for mode in self.breakouts or []:
            try:
                n, _speed = parse_breakout(mode)
            except ValueError:
                continue
            ports[mode] = self.cages * n
        return ports


def breakout_errors(breakouts, cage_gbps: int | None) -> list[str]:
    """Why a list of breakout modes is not valid for a cage of `cage_gbps` (empty when it is)."""
    if not isinstance(breakouts, list) or not breakouts:
        return [_('List at least one breakout mode, e.g. ["1x800G", "2x400G"].')]
    messages, seen = [], set()
    for mode in breakouts:
        try:
            n, speed = parse_breakout(mode)
        except ValueError:
            messages.append(_('"%(mode)s" is not a breakout mode like "2x400G".') % {"mode": mode})
            continue
        if mode in seen:
            messages.append(_('"%(mode)s" is listed twice.') % {"mode": mode})
        seen.add(mode)
        if isinstance(cage_gbps, int) and cage_gbps and n * speed != cage_gbps:
            messages.append(
                _('"%(mode)s" gives %(total)s Gb/s per cage; the cage runs at %(cage)s Gb/s.')
                % {"mode": mode, "total": n * speed, "cage": cage_gbps}
            )
    return messages


class NicModel(CatalogItem):
    ports = models.PositiveSmallIntegerField(_("ports"), validators=[MinValueValidator(1)])
    port_gbps = models.PositiveIntegerField(_("port Gb/s"), validators=[MinValueValidator(1)])
    form_factor = models.CharField(_("form factor"), max_length=16, choices=NicFormFactor.choices)
    host_interface = models.CharField(_("host interface"), max_length=64, blank=True, default="")
    power_w = models.FloatField(_("power (W)"), default=0, null=True, blank=True, validators=[MinValueValidator(0)],
                                help_text=_("Empty when the vendor does not publish it."))
    breakouts = models.JSONField(
        _("port breakout modes"), default=list, blank=True,
        help_text=_('The ways the vendor publishes to split one port, e.g. ["1x800G", "2x400G"] for ConnectX-8; '
                    'empty: the port runs whole. A design splits ports only in one of these modes.'),
    )

    class Meta(CatalogItem.Meta):
        verbose_name = _("NIC model")
        verbose_name_plural = _("NIC models")

    @property
    def splits(self) -> tuple[int, ...]:
        """The parts one port can be split into (1 always; 2 for "2x400G" on an 800G port)."""
        parts = {1}
        for mode in self.breakouts or []:
            try:
                parts.add(parse_breakout(mode)[0])
            except ValueError:
                continue
        return tuple(sorted(parts))

    def check_rules(self, errors):
        if self.breakouts:
            messages = breakout_errors(self.breakouts, self.port_gbps)
            for mode in self.breakouts if isinstance(self.breakouts, list) else []:
                try:
                    n = parse_breakout(mode)[0]
                except ValueError:
                    continue
                if n not in (1, 2, 4):
                    messages.append(_('"%(mode)s": a NIC port splits in 1, 2 or 4 parts.') % {"mode": mode})
            if messages:
                errors.setdefault("breakouts", []).extend(messages)


class ScaleUpKind(models.TextChoices):
    NONE = "", _("not stated")
    IN_SERVER = "in-server", _("in the server (NVLink / NVSwitch, Infinity Fabric)")
    RACK_SCALE = "rack-scale", _("rack-scale (NVL72 compute trays)")


class ServerModel(CatalogItem):
    gpus = models.PositiveSmallIntegerField(_("GPUs"), validators=[MinValueValidator(1)])
    gpu_model = models.CharField(_("GPU model"), max_length=64)
    scale_up = models.CharField(_("scale-up interconnect"), max_length=64, blank=True, default="")
    scale_up_domain_gpus = models.PositiveIntegerField(_("GPUs per scale-up domain"), default=0)
    scale_up_kind = models.CharField(
        _("scale-up domain"), max_length=16, choices=ScaleUpKind.choices, blank=True, default="",
        help_text=_("In the server (HGX / DGX 8-GPU NVLink, AMD Infinity Fabric), or rack-scale: the model is one "
                    "compute tray of a GB200 / GB300 NVL72 whose trays share one NVLink domain."),
    )
    scale_up_gb_s_per_gpu = models.FloatField(
        _("scale-up GB/s per GPU"), null=True, blank=True, validators=[MinValueValidator(0)],
        help_text=_("Published scale-up bandwidth per GPU in GB/s, both directions (NVLink 5: 1,800); empty when "
                    "the vendor does not publish it."),
    )
    scale_up_racks = models.PositiveSmallIntegerField(
        _("racks per scale-up domain"), default=0,
        help_text=_("Rack-scale only: racks one domain fills (1 for NVL72, 2 for NVL36x2)."),
    )
    scale_up_switch_trays = models.PositiveSmallIntegerField(
        _("NVLink switch trays per domain"), default=0,
        help_text=_("Rack-scale only: switch trays inside the domain's racks (9 for NVL72); part of the rack "
                    "system, not of the network quote."),
    )
    scale_up_switch_tray_power_w = models.FloatField(
        _("NVLink switch tray power (W)"), null=True, blank=True, validators=[MinValueValidator(0)],
        help_text=_("Rack-scale only: one NVLink switch tray's draw; empty when the vendor does not publish it."),
    )
    scale_up_rack_power_w = models.FloatField(
        _("rack power (W)"), null=True, blank=True, validators=[MinValueValidator(0)],
        help_text=_("Rack-scale only: one whole rack's published draw (compute and switch trays, power shelves); "
                    "empty when not published."),
    )
    backend_ports = models.PositiveSmallIntegerField(_("backend ports"), validators=[MinValueValidator(1)])
    backend_gbps = models.PositiveIntegerField(_("backend Gb/s"), validators=[MinValueValidator(1)])
    default_nic = models.ForeignKey(
        NicModel, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("default NIC"),
    )
    frontend_ports = models.PositiveSmallIntegerField(_("frontend ports"), default=0)
    frontend_gbps = models.PositiveIntegerField(_("frontend Gb/s"), default=0)
    rack_units = models.PositiveSmallIntegerField(_("rack units"), validators=[MinValueValidator(1)])
    power_w = models.FloatField(_("power (W)"), validators=[MinValueValidator(0)])
    backend_nics_built_in = models.BooleanField(
        _("backend NICs built in"), default=False,
        help_text=_("Set when the backend NICs come with the server (DGX, NICs on the HGX baseboard): its price and "
                    "power include them, so a design's BOM buys no NIC cards."),
    )
    backend_ports_per_cage = models.PositiveSmallIntegerField(
        _("backend ports per cage"), default=1, choices=[(1, "1"), (2, "2")],
        help_text=_("2 when two backend ports share one twin-port OSFP cage (DGX H100 and B200: 8 ports in 4 "
                    "cages); such a cage takes a twin-port flat-top optic, never a copper cable."),
    )

    class Meta(CatalogItem.Meta):
        verbose_name = _("server model")
        verbose_name_plural = _("server models")

    def check_rules(self, errors):
        nic = self.default_nic if self.default_nic_id else None
        if nic is not None and self.backend_gbps and self.backend_ports:
            if nic.port_gbps != self.backend_gbps:
                errors.setdefault("default_nic", []).append(
                    _("%(nic)s runs at %(nic_gbps)s Gb/s; the server's backend ports run at %(gbps)s Gb/s.")
                    % {"nic": nic.sku, "nic_gbps": nic.port_gbps, "gbps": self.backend_gbps}
                )
            elif self.backend_ports % nic.ports:
                errors.setdefault("default_nic", []).append(
                    _("%(ports)s backend ports cannot be made of %(nic_ports)s-port NICs.")
                    % {"ports": self.backend_ports, "nic_ports": nic.ports}
                )
        if self.backend_ports and self.backend_ports_per_cage and self.backend_ports % self.backend_ports_per_cage:
            errors.setdefault("backend_ports_per_cage", []).append(
                _("%(ports)s backend ports do not fill cages of %(per_cage)s ports each.")
                % {"ports": self.backend_ports, "per_cage": self.backend_ports_per_cage}
            )
        if self.frontend_ports and not self.frontend_gbps:
            errors.setdefault("frontend_gbps", []).append(_("Give the speed of the frontend ports."))
        self._check_scale_up(errors)

    def _check_scale_up(self, errors):
        """A rack-scale domain holds whole trays in at least one rack; an in-server one fits in the server."""
        domain, gpus = self.scale_up_domain_gpus or 0, self.gpus or 0
        if self.scale_up_kind == ScaleUpKind.RACK_SCALE:
            if not gpus or domain < gpus or domain % gpus:
                errors.setdefault("scale_up_domain_gpus", []).append(
                    _("A rack-scale domain holds whole %(gpus)s-GPU trays: give a multiple of %(gpus)s, e.g. 72.")
                    % {"gpus": gpus or "-"})
            if not self.scale_up_racks:
                errors.setdefault("scale_up_racks", []).append(
                    _("Give the racks one domain fills (1 for NVL72, 2 for NVL36x2)."))
            elif gpus and domain % gpus == 0 and (domain // gpus) % self.scale_up_racks:
                errors.setdefault("scale_up_racks", []).append(
                    _("%(trays)s trays do not fill %(racks)s racks evenly.")
                    % {"trays": domain // gpus, "racks": self.scale_up_racks})
        else:
            if domain and gpus and domain > gpus:
                errors.setdefault("scale_up_kind", []).append(
                    _("A domain of %(domain)s GPUs is larger than the server's %(gpus)s: choose rack-scale.")
                    % {"domain": domain, "gpus": gpus})
            for name in ("scale_up_racks", "scale_up_switch_trays", "scale_up_switch_tray_power_w",
                         "scale_up_rack_power_w"):
                if getattr(self, name):
                    errors.setdefault(name, []).append(
                        _("Only a rack-scale domain has racks and switch trays, and their power."))


class Transceiver(QualifiedPart, CatalogItem):
    form_factor = models.CharField(_("form factor"), max_length=16, choices=FormFactor.choices)
    gbps = models.PositiveIntegerField(_("module Gb/s"), validators=[MinValueValidator(1)])
    port_gbps = models.PositiveIntegerField(_("port Gb/s"), validators=[MinValueValidator(1)])
    ports = models.PositiveSmallIntegerField(
        _("ports"), validators=[MinValueValidator(1)], help_text=_("2 for a twin-port module.")
    )
    media = models.CharField(_("media"), max_length=4, choices=OpticMedia.choices)
    fiber = models.CharField(_("fibre"), max_length=4, choices=Fiber.choices)
    connector = models.CharField(_("connector"), max_length=32, blank=True, default="")
    reach_m = models.FloatField(_("reach (m)"))
    power_w = models.FloatField(_("power (W)"), default=0, null=True, blank=True, validators=[MinValueValidator(0)],
                                help_text=_("Empty when the vendor does not publish it."))
    flat_top = models.BooleanField(
        _("flat top"), default=False,
        help_text=_("Set for flat-top modules made for server cages with a riding heat sink (e.g. the DGX H100's "
                    "twin-port cages); switch cages take finned-top modules."),
    )
    compatible_vendors = _compatible_vendors_field()

    class Meta(CatalogItem.Meta):
        verbose_name = _("transceiver")
        verbose_name_plural = _("transceivers")

    def check_rules(self, errors):
        self.check_qualification(errors)
        _positive(errors, "reach_m", self.reach_m)
        if self.gbps and self.port_gbps and self.ports and self.gbps != self.port_gbps * self.ports:
            errors.setdefault("gbps", []).append(
                _("Module speed must be port speed x ports (%(port)s x %(ports)s = %(total)s Gb/s).")
                % {"port": self.port_gbps, "ports": self.ports, "total": self.port_gbps * self.ports}
            )
        expected = OPTIC_FIBER.get(self.media)
        if expected and self.fiber and self.fiber != expected:
            errors.setdefault("fiber", []).append(
                _("%(media)s optics run on %(fiber)s.") % {"media": self.media, "fiber": expected}
            )


class Cable(QualifiedPart, CatalogItem):
    media = models.CharField(_("media"), max_length=4, choices=CableMedia.choices)
    form_factor_a = models.CharField(_("A-end form factor"), max_length=16, choices=FormFactor.choices)
    form_factor_b = models.CharField(_("B-end form factor"), max_length=16, choices=FormFactor.choices)
    gbps = models.PositiveIntegerField(_("A-end Gb/s"), validators=[MinValueValidator(1)])
    leg_gbps = models.PositiveIntegerField(_("leg Gb/s"), validators=[MinValueValidator(1)])
    legs = models.PositiveSmallIntegerField(
        _("legs"), validators=[MinValueValidator(1)], help_text=_("1 for a straight cable, 2 for a 1:2 splitter.")
    )
    length_m = models.FloatField(_("length (m)"))
    power_w = models.FloatField(
        _("power (W)"), default=0, null=True, blank=True, validators=[MinValueValidator(0)],
        help_text=_("Per assembly; 0 for passive DAC; empty when the vendor does not publish it."),
    )
    compatible_vendors = _compatible_vendors_field()

    class Meta(CatalogItem.Meta):
        verbose_name = _("cable assembly")
        verbose_name_plural = _("cable assemblies")

    def check_rules(self, errors):
        self.check_qualification(errors)
        _positive(errors, "length_m", self.length_m)
        if self.legs and self.legs not in CABLE_LEGS:
            errors.setdefault("legs", []).append(_("A cable has 1, 2 or 4 legs."))
        elif self.gbps and self.leg_gbps and self.legs and self.gbps != self.leg_gbps * self.legs:
            errors.setdefault("gbps", []).append(
                _("A-end speed must be leg speed x legs (%(leg)s x %(legs)s = %(total)s Gb/s).")
                % {"leg": self.leg_gbps, "legs": self.legs, "total": self.leg_gbps * self.legs}
            )


class FiberCord(QualifiedPart, CatalogItem):
    fiber = models.CharField(_("fibre"), max_length=4, choices=Fiber.choices)
    connector = models.CharField(_("connector"), max_length=32)
    length_m = models.FloatField(_("length (m)"))

    class Meta(CatalogItem.Meta):
        verbose_name = _("fibre patch cord")
        verbose_name_plural = _("fibre patch cords")

    def check_rules(self, errors):
        self.check_qualification(errors)
        _positive(errors, "length_m", self.length_m)


class PatchPanel(CatalogItem):
    """A fibre patch panel for structured cabling: `ports` front adapters of one `connector` type on `fiber`.

    MPO trunks between network and compute rows end on such panels; patch cords run from a panel port to a
    device. `fibers` (ports x fibres per connector) is what the panel terminates.
    """

    ports = models.PositiveSmallIntegerField(_("ports"), validators=[MinValueValidator(1)],
                                             help_text=_("Front adapters (e.g. 48 MPO ports in 1U)."))
    connector = models.CharField(_("connector"), max_length=16, choices=PanelConnector.choices)
    fiber = models.CharField(_("fibre"), max_length=4, choices=Fiber.choices)
    rack_units = models.PositiveSmallIntegerField(_("rack units"), default=1, validators=[MinValueValidator(1)])

    class Meta(CatalogItem.Meta):
        verbose_name = _("patch panel")
        verbose_name_plural = _("patch panels")

    @property
    def fibers(self) -> int:
        return (self.ports or 0) * PANEL_CONNECTOR_FIBERS.get(self.connector, 0)


class ExchangeRate(models.Model):
    """How many units of `to_currency` one unit of `from_currency` buys, for pricing designs.

    A design in a currency other than its parts' list-price currency converts every price with
    the rate from the part's currency to the design's (or the inverse of the opposite pair); the
    rate used is stored with the design version, so later changes here do not alter a quote.
    """

    from_currency = models.CharField(_("from currency"), max_length=3, help_text=_("e.g. USD"))
    to_currency = models.CharField(_("to currency"), max_length=3, help_text=_("e.g. CNY"))
    rate = models.DecimalField(
        _("rate"), max_digits=18, decimal_places=8,
        help_text=_("Units of the 'to' currency for one unit of the 'from' currency."),
    )
    rate_is_example = models.BooleanField(
        _("rate is an example"), default=False,
        help_text=_("Set for seed rates that are illustrations; set the day's rate before quoting."),
    )
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["from_currency", "to_currency"]
        verbose_name = _("exchange rate")
        verbose_name_plural = _("exchange rates")
        constraints = [
            models.UniqueConstraint(fields=["from_currency", "to_currency"], name="catalog_exchange_rate_pair"),
        ]

    def __str__(self) -> str:
        return f"1 {self.from_currency} = {self.rate.normalize():f} {self.to_currency}"

    def clean(self) -> None:
        errors: dict[str, list[str]] = {}
        for name in ("from_currency", "to_currency"):
            value = getattr(self, name)
            if not isinstance(value, str) or not CURRENCY_CODE_RE.fullmatch(value):
                errors.setdefault(name, []).append(_("Use a three-letter ISO currency code such as USD."))
        if not errors and self.from_currency == self.to_currency:
            errors.setdefault("to_currency", []).append(_("Convert to another currency than the one converted from."))
        elif not errors:
            pair = ExchangeRate.objects.exclude(pk=self.pk)
            if pair.filter(from_currency=self.from_currency, to_currency=self.to_currency).exists():
                errors.setdefault("to_currency", []).append(
                    _("A rate from %(from)s to %(to)s exists; change that one.")
                    % {"from": self.from_currency, "to": self.to_currency})
            elif pair.filter(from_currency=self.to_currency, to_currency=self.from_currency).exists():
                # One row per pair keeps a conversion and its inverse consistent.
                errors.setdefault("to_currency", []).append(
                    _("A rate from %(from)s to %(to)s exists and converts both ways; change that one.")
                    % {"from": self.to_currency, "to": self.from_currency})
        if self.rate is not None and self.rate <= 0:
            errors.setdefault("rate", []).append(_("Must be greater than zero."))
        if errors:
            raise ValidationError(errors)
