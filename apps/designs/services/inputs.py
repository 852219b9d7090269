"""From what a user typed to the engine's DesignSpec, with field-level errors for anything wrong.

Rules:
- Every input field has one name, used by the API, the forms, the stored version and the
  errors: server, nic, leaf_switch, leaf_breakout, spine_switch, spine_breakout, core_switch,
  core_breakout, gpus, planes, nic_split, oversubscription, tiers, layout, pools, roce, discount_pct,
  currency, spares, third_party_optics. Nested settings are reported on dotted names
  ("layout.servers_per_rack", "pools.host", "spares.transceivers").
- Catalog items are given by id (or instance); they must exist and be active.
- Defaults: nic = the server's default NIC; spine = leaf, core = spine (same breakout when
  the same switch); a breakout not given is the switch's first mode at the NIC speed, else its
  native mode; discount and currency from the project; third_party_optics off (for InfiniBand as
  for Ethernet: optics and cables made by the switch's vendor or declared compatible with it);
  layout and pools from the engine's RackLayout and AddressPools; spares: percent per category
  (switches, transceivers, cables, fibers), 0 to 100, the engine's SparesPolicy for any not given
  (2 % of transceivers, cables and fibre cords, no switches); a version stores all four.
- Sizes: 1 <= gpus <= 1,000,000; planes 1..MAX_PLANES; 1 <= oversubscription <= MAX_OVERSUBSCRIPTION.
- Planes from a split NIC port: nic_split 1 (default), 2 or 4 must be one of the NIC's published breakout
  modes (NicModel.splits); planes must then be a multiple of it and divide the rails (backend ports x
  nic_split); switches run at the speed of one part (backend speed / nic_split).
- Speeds: the NIC runs at the server's backend speed, the leaf's logical port speed equals the
  NIC's (the message names the breakout or switch that fits), spines and cores run at the leaf's speed.
- Then the engine's cheap `size()` decides feasibility; its InfeasibleSpec fields are mapped
  back to these input names so the user sees the message on the field to change, in the user's
  language (apps.designs.engine_text translates the engine's coded messages).
"""
from __future__ import annotations

import dataclasses
import ipaddress
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

from apps.catalog.models import NicModel, ServerModel, SwitchModel, parse_breakout
from apps.catalog.selectors import (MissingExchangeRate, PriceConverter, catalog_currencies, interconnect_catalog,
                                    nic_hw, price_converter, server_hw, switch_hw)
from apps.designs.services.networks_input import networks_input_clean, networks_spec, networks_stored
from apps.designs.services import layout_input
from apps.designs.services.roce_input import roce_input_clean
from apps.designs.engine_text import spec_error_details, spec_error_messages
from apps.engine.spec import (MAX_ASN, MAX_GPUS, MAX_OVERSUBSCRIPTION, MAX_SWITCHES_PER_SPARE, AddressPools, DesignSpec,
                              SparesPolicy, SpecError)
from apps.projects.models import Currency, Project

MAX_PLANES = 64
TIERS = ("auto", 2, 3)
TIERS_STORED = {"auto": "auto", 2: "2", 3: "3"}

INPUT_FIELDS = (
    "server", "nic", "leaf_switch", "leaf_breakout", "spine_switch", "spine_breakout", "core_switch",
    "core_breakout", "gpus", "planes", "nic_split", "oversubscription", "tiers", "layout", "pools", "roce",
    "discount_pct", "currency", "spares", "third_party_optics", "networks",
)


class Errors:
    """Collects field -> messages and raises one ValidationError with all of them."""

    def __init__(self) -> None:
        self.by_field: dict[str, list[str]] = {}

    def add(self, name: str, message: str) -> None:
        self.by_field.setdefault(name, []).append(str(message))

    def __contains__(self, name: str) -> bool:
        return name in self.by_field

    def raise_if_any(self) -> None:
        if self.by_field:
            raise ValidationError(self.by_field)


@dataclass(slots=True)
class DesignInputs:
    """Validated inputs: catalog rows and clean values, ready to store on a version or plan."""

    server: ServerModel
    nic: NicModel
    leaf_switch: SwitchModel
    leaf_breakout: str
    spine_switch: SwitchModel
    spine_breakout: str
    core_switch: SwitchModel
    core_breakout: str
    gpus: int
    planes: int = 1
    nic_split: int = 1
    oversubscription: float = 1.0
    tiers: Any = "auto"  # "auto", 2 or 3
    layout: dict = field(default_factory=dict)
    pools: dict = field(default_factory=dict)
    roce: dict = field(default_factory=dict)
    discount_pct: Decimal = Decimal("0")
    currency: str = "USD"
    spares: dict = field(default_factory=lambda: spares_defaults())
    third_party_optics: bool = False
    # The cluster's other networks (services.networks_input): {"frontend": {...}, "storage": {...}, "oob": {...}}.
    networks: dict = field(default_factory=dict)
    # Converts list prices into `currency`.
    prices: PriceConverter | None = field(default=None, compare=False, repr=False)
    # The rates spec() converts with, from each other currency its parts are priced in:
    # {"USD": {"rate": "7.1", "example": true}} for a CNY design.
    exchange_rates: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False)

    def version_fields(self) -> dict[str, Any]:
        """Keyword arguments for DesignVersion (inputs only)."""
        values = {name: getattr(self, name) for name in INPUT_FIELDS}
        values["tiers"] = TIERS_STORED[self.tiers]
        values["networks"] = networks_stored(self.networks)
        return values

    def spec(self, *, name: str = "") -> DesignSpec:
        """The engine spec, with every active transceiver, cable and fibre cord to choose from."""
        prices = self.prices
        optics, cables, fibers = interconnect_catalog(prices=prices)
        return DesignSpec(
            gpus=self.gpus,
            server=server_hw(server=self.server, prices=prices),
            leaf=switch_hw(switch=self.leaf_switch, breakout=self.leaf_breakout, prices=prices),
            spine=switch_hw(switch=self.spine_switch, breakout=self.spine_breakout, prices=prices),
            core=switch_hw(switch=self.core_switch, breakout=self.core_breakout, prices=prices),
            nic=nic_hw(nic=self.nic, prices=prices),
            planes=self.planes,
            nic_split=self.nic_split,
            oversubscription=self.oversubscription,
            tiers=self.tiers,
            layout=layout_input.layout_spec(self.layout),
            pools=AddressPools(**self.pools),
            optics=optics,
            cables=cables,
            fibers=fibers,
            discount_pct=float(self.discount_pct),
            currency=self.currency,
            name=name,
            spares=SparesPolicy(**{key: int(value) if key == "switches_per_spare" else float(value)
                                    for key, value in self.spares.items() if key in SPARE_KEYS}),
            third_party_optics=self.third_party_optics,
            **networks_spec(self.networks, server=self.server, prices=prices),
        )


def spares_defaults() -> dict[str, float]:
    """The engine's default spares policy (SparesPolicy): percentages per category, switches per spare switch."""
    return {f.name: f.default for f in dataclasses.fields(SparesPolicy)}


SPARE_KEYS = tuple(f.name for f in dataclasses.fields(SparesPolicy))


def design_inputs_from_version(*, version) -> dict[str, Any]:
    """A version's inputs as `data` for design_inputs_clean (catalog items as instances)."""
    return {
        "server": version.server,
        "nic": version.nic,
        "leaf_switch": version.leaf_switch,
        "leaf_breakout": version.leaf_breakout,
        "spine_switch": version.spine_switch,
        "spine_breakout": version.spine_breakout,
        "core_switch": version.core_switch,
        "core_breakout": version.core_breakout,
        "gpus": version.gpus,
        "planes": version.planes,
        "nic_split": version.nic_split,
        "oversubscription": version.oversubscription,
        "tiers": version.tiers,
        "layout": dict(version.layout or {}),
        "pools": dict(version.pools or {}),
        "roce": dict(version.roce or {}),
        "discount_pct": version.discount_pct,
        "currency": version.currency,
        # A version from before spares had none; a new version from it gets the defaults.
        "spares": dict(version.spares or {}),
        "third_party_optics": version.third_party_optics,
        "networks": dict(version.networks or {}),
    }


def _flag(errors: Errors, data: dict, name: str) -> bool:
    """A yes/no input: true/false (JSON or form values); blank or absent is false."""
    value = layout_input.flag_value(data.get(name, False))
    if value is None:
        errors.add(name, _("Enter true or false."))
        return False
    return value


def _given(data: dict, name: str) -> bool:
    return data.get(name) not in (None, "")


def _catalog_item(errors: Errors, data: dict, name: str, model: type[models.Model], *, required: bool = True):
    value = data.get(name)
    if value in (None, ""):
        if required:
            errors.add(name, _("This field is required."))
        return None
    if isinstance(value, model):
        item = value
    else:
        try:
            if isinstance(value, bool) or (isinstance(value, str) and not value.strip().isascii()):
                raise ValueError(value)
            pk = int(value)
        except (TypeError, ValueError):
            errors.add(name, _("Give the catalog id (a whole number) of a %(kind)s.")
                       % {"kind": model._meta.verbose_name})
            return None
        item = model.objects.select_related("manufacturer").filter(pk=pk).first()
        if item is None:
            errors.add(name, _("No %(kind)s with id %(id)s in the catalog.")
                       % {"kind": model._meta.verbose_name, "id": pk})
            return None
    if not item.active:
        errors.add(name, _("%(item)s is no longer offered (inactive in the catalog).") % {"item": item})
        return None
    return item


def _number(errors: Errors, data: dict, name: str, default: Any, *, kind: type, low: float, high: float,
            low_message: str, high_message: str) -> Any:
    """A whole number (kind=int) or a finite decimal number (kind=float) within [low, high]."""
    value = data.get(name, default)
    if value in (None, ""):
        value = default
    if isinstance(value, bool):
        errors.add(name, _("Enter a number."))
        return None
    if isinstance(value, str) and not value.isascii():
        # Decimal() and int() also read Arabic-Indic and full-width digits; inputs take ASCII digits only.
        errors.add(name, _("Enter the number with the digits 0-9."))
        return None
    try:
        exact = Decimal(str(value).strip())
        if not exact.is_finite() or (kind is int and exact != exact.to_integral_value()):
            raise ValueError(value)
    except (TypeError, ValueError, InvalidOperation):
        errors.add(name, _("Enter a whole number.") if kind is int else _("Enter a number."))
        return None
    # Compared as Decimal first: int(Decimal("1e999999999")) would take forever.
    if exact < Decimal(str(low)):
        errors.add(name, low_message)
        return None
    if exact > Decimal(str(high)):
        errors.add(name, high_message)
        return None
    number = int(exact) if kind is int else float(exact)
    return number


def _tiers(errors: Errors, data: dict) -> Any:
    value = data.get("tiers", "auto")
    if value in (None, "", "auto"):
        return "auto"
    text = str(value).strip()
    number = int(text) if text in ("2", "3") else None  # ASCII digits only: int() also reads "٢"
    if number not in (2, 3):
        errors.add("tiers", _('Choose "auto", 2 or 3 tiers.'))
        return None
    return number


def _layout(errors: Errors, data: dict) -> dict:
    """The rack rules and the data hall (services.layout_input: ranges, choices and the hall's cells and rows)."""
    return layout_input.layout_input_clean(errors, data, number=_number)


def _pools(errors: Errors, data: dict) -> dict:
    value = data.get("pools")
    value = {} if value is None else value
    if not isinstance(value, dict):
        errors.add("pools", _("Give the address pools as an object, e.g. {\"host\": \"10.0.0.0/12\"}."))
        return {}
    known = {f.name for f in dataclasses.fields(AddressPools)}
    pools: dict[str, Any] = {}
    for key, raw in value.items():
        name = f"pools.{key}"
        if key not in known:
            errors.add(name, _("Unknown address pool; use %(keys)s.") % {"keys": ", ".join(sorted(known))})
        elif key == "asn_base":
            number = _number(
                errors, {name: raw}, name, None, kind=int, low=1, high=MAX_ASN,
                low_message=_("An ASN is at least 1."), high_message=_("An ASN is at most %(max)s.") % {"max": MAX_ASN},
            )
            if number is not None:
                pools[key] = number
        else:
            try:
                network = ipaddress.ip_network(str(raw).strip(), strict=True)
            except ValueError:
                errors.add(name, _("Give an IPv4 network such as 10.0.0.0/16 (host bits zero)."))
                continue
            if network.version != 4:
                errors.add(name, _("Only IPv4 pools are supported."))
                continue
            pools[key] = str(network)
    # Pools overlap when the user sets them, or when a user pool overlaps a default one.
    effective = {f.name: pools.get(f.name, f.default) for f in dataclasses.fields(AddressPools) if f.name != "asn_base"}
    names = list(effective)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if f"pools.{first}" in errors or f"pools.{second}" in errors:
                continue
            if ipaddress.ip_network(effective[first]).overlaps(ipaddress.ip_network(effective[second])):
                blamed = second if second in pools else first
                other = first if blamed == second else second
                errors.add(
                    f"pools.{blamed}",
                    _("%(pool)s overlaps the %(other)s pool %(net)s.")
                    % {"pool": effective[blamed], "other": other, "net": effective[other]},
                )
    return pools


def _spares(errors: Errors, data: dict) -> dict[str, float]:
    """The spares policy: the given percentages (0 to 100) and switches per spare checked, the defaults for the rest."""
    value = data.get("spares")
    spares = spares_defaults()
    if value in (None, ""):
        return spares
    if not isinstance(value, dict):
        errors.add("spares", _("Give the spare percentages as an object, e.g. {\"transceivers\": 2}."))
        return spares
    for key, raw in value.items():
        name = f"spares.{key}"
        if key not in SPARE_KEYS:
            errors.add(name, _("Unknown spares category; use %(keys)s.") % {"keys": ", ".join(SPARE_KEYS)})
            continue
        if raw in (None, ""):
            continue
        if key == "switches_per_spare":
            message = _("One spare switch per 0 (none) to %(max)s installed switches of a model.") % {
                "max": f"{MAX_SWITCHES_PER_SPARE:,}"}
            count = _number(errors, {name: raw}, name, None, kind=int, low=0, high=MAX_SWITCHES_PER_SPARE,
                            low_message=message, high_message=message)
            if count is not None:
                spares[key] = count
            continue
        number = _number(
            errors, {name: raw}, name, None, kind=float, low=0, high=100,
            low_message=_("A spare percentage is 0 to 100 %."), high_message=_("A spare percentage is 0 to 100 %."),
        )
        if number is not None:
            spares[key] = number
    return spares


def _breakout(errors: Errors, name: str, switch: SwitchModel | None, value: Any, default: str) -> str | None:
    if switch is None:
        return None
    breakout = str(value).strip() if value not in (None, "") else default
    if breakout not in (switch.breakouts or []):
        errors.add(
            name,
            _("%(switch)s does not offer breakout %(mode)s; choose one of %(modes)s.")
            % {"switch": switch.model, "mode": breakout or "-", "modes": ", ".join(switch.breakouts or [])},
        )
        return None
    return breakout


def _default_breakout(switch: SwitchModel | None, gbps: int | None) -> str:
    """The first mode that runs ports at the NICs' speed, else the native mode."""
    if switch is None:
        return ""
    for mode in switch.breakouts or []:
        if gbps is not None and parse_breakout(mode)[1] == gbps:
            return mode
    return switch.native_breakout


def _speed_fix(switch: SwitchModel, gbps: int) -> str:
    """How to make `switch` run ports at `gbps`: a breakout that does, or another switch."""
    modes = [mode for mode in switch.breakouts or [] if parse_breakout(mode)[1] == gbps]
    if modes:
        return _("choose breakout %(mode)s") % {"mode": modes[0]}
    return _("choose a switch with %(gbps)sG ports (%(switch)s offers %(modes)s)") % {
        "gbps": gbps, "switch": switch.model, "modes": ", ".join(switch.breakouts or []),
    }


def design_inputs_clean(*, project: Project, data: dict[str, Any]) -> DesignInputs:
    """Validate user inputs field by field (see the module rules); ValidationError lists every problem.

    Does not ask the engine (see design_spec_build for the feasibility check).
    """
    errors = Errors()
    unknown = sorted(set(data) - set(INPUT_FIELDS))
    for name in unknown:
        errors.add(name, _("Unknown input."))

    server = _catalog_item(errors, data, "server", ServerModel)
    nic = _catalog_item(errors, data, "nic", NicModel, required=False)
    if nic is None and server is not None and not _given(data, "nic"):
        nic = server.default_nic
        if nic is None:
            errors.add("nic", _("%(server)s has no default NIC; choose one.") % {"server": server.model})
        elif not nic.active:
            errors.add("nic", _("The server's default NIC %(nic)s is inactive; choose another.") % {"nic": nic})
            nic = None
    leaf = _catalog_item(errors, data, "leaf_switch", SwitchModel)
    spine = _catalog_item(errors, data, "spine_switch", SwitchModel, required=False) if _given(
        data, "spine_switch") else leaf
    core = _catalog_item(errors, data, "core_switch", SwitchModel, required=False) if _given(
        data, "core_switch") else spine
    for name, switch in (("leaf_switch", leaf), ("spine_switch", spine), ("core_switch", core)):
        if switch is not None and _given(data, name) and switch.switch_class != "fabric":
            errors.add(name, _("%(switch)s is a %(switch_class)s switch; the backend fabric takes backend fabric "
                               "switches.") % {"switch": switch.model,
                                               "switch_class": switch.get_switch_class_display()})

    nic_split = _number(
        errors, data, "nic_split", 1, kind=int, low=1, high=4,
        low_message=_("A port splits in 1, 2 or 4 parts."), high_message=_("A port splits in 1, 2 or 4 parts."),
    )
    if nic_split not in (None, 1, 2, 4):
        errors.add("nic_split", _("A port splits in 1, 2 or 4 parts."))
        nic_split = None
    speed = nic.port_gbps if nic is not None else (server.backend_gbps if server is not None else None)
    if nic is not None and nic_split and nic_split not in nic.splits:
        errors.add("nic_split", _(
            "%(nic)s publishes no %(split)s-way split of its %(gbps)s Gb/s port; its modes: %(modes)s."
        ) % {"nic": nic.model, "split": nic_split, "gbps": nic.port_gbps,
             "modes": ", ".join(f"{n}x{nic.port_gbps // n}G" for n in nic.splits)})
        nic_split = None
    if speed is not None and nic_split:
        speed //= nic_split  # switches run at the speed of one part of a split port
    leaf_breakout = _breakout(errors, "leaf_breakout", leaf, data.get("leaf_breakout"), _default_breakout(leaf, speed))
    spine_default = leaf_breakout if spine is not None and spine == leaf else _default_breakout(spine, speed)
    spine_breakout = _breakout(errors, "spine_breakout", spine, data.get("spine_breakout"), spine_default or "")
    core_default = spine_breakout if core is not None and core == spine else _default_breakout(core, speed)
    core_breakout = _breakout(errors, "core_breakout", core, data.get("core_breakout"), core_default or "")

    gpus = None
    if not _given(data, "gpus"):
        errors.add("gpus", _("This field is required."))
    else:
        gpus = _number(
            errors, data, "gpus", None, kind=int, low=1, high=MAX_GPUS,
            low_message=_("A design needs at least 1 GPU."),
            high_message=_("At most %(max)s GPUs per design.") % {"max": f"{MAX_GPUS:,}"},
        )
    planes = _number(
        errors, data, "planes", 1, kind=int, low=1, high=MAX_PLANES,
        low_message=_("At least 1 plane."), high_message=_("At most %(max)s planes.") % {"max": MAX_PLANES},
    )
    oversubscription = _number(
        errors, data, "oversubscription", 1.0, kind=float, low=1, high=MAX_OVERSUBSCRIPTION,
        low_message=_("Oversubscription is a ratio o:1 with o at least 1 (1 = non-blocking)."),
        high_message=_("At most %(max)s:1.") % {"max": MAX_OVERSUBSCRIPTION},
    )
    tiers = _tiers(errors, data)
    third_party_optics = _flag(errors, data, "third_party_optics")
    layout = _layout(errors, data)
    pools = _pools(errors, data)
    # Checked field by field by the engine (errors on "roce.<dotted>"); stored as the changes from the defaults.
    roce, roce_errors = roce_input_clean(data.get("roce"))
    for name, messages in roce_errors.items():
        for message in messages:
            errors.add(name, message)
    discount = _number(
        errors, data, "discount_pct", project.discount_pct, kind=float, low=0, high=100,
        low_message=_("A discount is 0 to 100 %."), high_message=_("A discount is 0 to 100 %."),
    )
    spares = _spares(errors, data)
    networks = networks_input_clean(errors, data, server=server, backend_pools=pools, number=_number,
                                    catalog_item=_catalog_item)
    network_switches = tuple(value[name] for value in networks.values() for name in ("_switch", "_spine")
                             if value.get(name) is not None)
    currency = str(data.get("currency") or project.currency).strip().upper()
    prices, exchange_rates = None, {}
    if currency not in Currency.values:
        errors.add("currency", _("Choose one of %(currencies)s.") % {"currencies": ", ".join(Currency.values)})
    else:
        prices, exchange_rates = _prices_check(errors, currency, (server, nic, leaf, spine, core) + network_switches)

    split = nic_split or 1
    rails = server.backend_ports * split if server is not None else 0
    if server is not None and planes and rails % planes:
        divisors = [str(n) for n in range(1, rails + 1) if rails % n == 0 and n % split == 0]
        errors.add("planes", _("%(planes)s planes do not divide the server's %(rails)s backend ports (rails); "
                               "choose one of %(choices)s.")
                   % {"planes": planes, "rails": rails, "choices": ", ".join(divisors)})
    elif server is not None and planes and planes % split:
        errors.add("planes", _("Each part of a split NIC port lands on its own plane: with ports split in "
                               "%(split)s, choose a multiple of %(split)s planes.") % {"split": split})
    # Speeds along the path: server port = NIC port = leaf port = spine port = core port.
    if server is not None and nic is not None:
        if nic.port_gbps != server.backend_gbps:
            errors.add("nic", _("%(nic)s runs at %(nic_gbps)s Gb/s; %(server)s's backend ports run at %(gbps)s Gb/s.")
                       % {"nic": nic.model, "nic_gbps": nic.port_gbps, "server": server.model,
                          "gbps": server.backend_gbps})
        elif server.backend_ports % nic.ports:
            errors.add("nic", _("%(ports)s backend ports cannot be made of %(nic_ports)s-port NICs.")
                       % {"ports": server.backend_ports, "nic_ports": nic.ports})
    if nic is not None and leaf is not None and leaf_breakout:
        leaf_gbps = parse_breakout(leaf_breakout)[1]
        port_gbps = nic.port_gbps // split
        if leaf_gbps != port_gbps:
            errors.add("leaf_breakout", _(
                "%(nic)s runs at %(nic_gbps)s Gb/s but %(switch)s ports in %(mode)s run at %(gbps)s Gb/s: %(fix)s."
            ) % {"nic": nic.model if split == 1 else f"{nic.model} ({split}x{port_gbps}G)", "nic_gbps": port_gbps,
                 "switch": leaf.model, "mode": leaf_breakout, "gbps": leaf_gbps, "fix": _speed_fix(leaf, port_gbps)})
    if leaf_breakout and spine is not None and spine_breakout:
        leaf_gbps, spine_gbps = parse_breakout(leaf_breakout)[1], parse_breakout(spine_breakout)[1]
        if spine_gbps != leaf_gbps:
            errors.add("spine_breakout", _(
                "Spine ports in %(mode)s run at %(gbps)s Gb/s, leaf uplinks at %(leaf)s Gb/s: %(fix)s."
            ) % {"mode": spine_breakout, "gbps": spine_gbps, "leaf": leaf_gbps, "fix": _speed_fix(spine, leaf_gbps)})
        elif core is not None and core_breakout and parse_breakout(core_breakout)[1] != spine_gbps:
            core_gbps = parse_breakout(core_breakout)[1]
            errors.add("core_breakout", _(
                "Core ports in %(mode)s run at %(gbps)s Gb/s, spine uplinks at %(spine)s Gb/s: %(fix)s."
            ) % {"mode": core_breakout, "gbps": core_gbps, "spine": spine_gbps, "fix": _speed_fix(core, spine_gbps)})

    errors.raise_if_any()
    return DesignInputs(
        server=server, nic=nic, leaf_switch=leaf, leaf_breakout=leaf_breakout, spine_switch=spine,
        spine_breakout=spine_breakout, core_switch=core, core_breakout=core_breakout, gpus=gpus, planes=planes,
        nic_split=nic_split or 1,
        oversubscription=oversubscription, tiers=tiers, layout=layout, pools=pools, roce=dict(roce),
        discount_pct=Decimal(str(discount)).quantize(Decimal("0.01")), currency=currency, prices=prices,
        exchange_rates=exchange_rates, spares=spares, third_party_optics=third_party_optics, networks=networks,
    )


def _prices_check(errors: Errors, currency: str, items: tuple) -> tuple[PriceConverter, dict[str, dict[str, Any]]]:
    """A converter into `currency` and the rates it will use (DesignInputs.exchange_rates); an error on
    "currency" when a part's price currency has no rate to it."""
    prices = price_converter(currency=currency)
    missing, rates = [], {}
    for source in sorted(catalog_currencies(items=items) - {currency}):
        try:
            rate = prices.rate(source)
        except MissingExchangeRate:
            missing.append(source)
        else:
            rates[source] = {"rate": format(rate.normalize(), "f"), "example": prices.is_example(source)}
    if missing:
        errors.add("currency", _(
            "The catalog prices parts in %(missing)s and has no exchange rate to %(currency)s: staff add one "
            "under Catalog, Exchange rates; or quote in %(first)s."
        ) % {"missing": ", ".join(missing), "currency": currency, "first": missing[0]})
    return prices, rates


# Engine spec fields (first dotted part, or the whole path) -> the input a user changes.
SPEC_FIELD_INPUTS = {
    "gpus": "gpus",
    "server": "server",
    "nic": "nic",
    "leaf": "leaf_switch",
    "spine": "spine_switch",
    "core": "core_switch",
    "leaf.breakout": "leaf_breakout",
    "leaf.gbps": "leaf_breakout",
    "spine.breakout": "spine_breakout",
    "spine.gbps": "spine_breakout",
    "core.breakout": "core_breakout",
    "core.gbps": "core_breakout",
    "planes": "planes",
    "nic_split": "nic_split",
    "oversubscription": "oversubscription",
    "tiers": "tiers",
    "layout": "layout",
    "pools": "pools",
    "discount_pct": "discount_pct",
    "currency": "currency",
    "spares": "spares",
    "third_party_optics": "third_party_optics",
}


# The other networks' engine fields (engine.networks.spec) -> their inputs under "networks".
NETWORK_SPEC_INPUTS = {
    "leaf": "switch", "leaf.breakout": "breakout", "leaf.gbps": "breakout", "leaf.ports": "switch",
    "spine": "spine_switch", "spine.breakout": "spine_breakout", "spine.gbps": "spine_breakout",
    "core": "spine_switch", "core.gbps": "spine_breakout", "gbps": "breakout",
}
OOB_SPEC_INPUTS = {"leaf.ports": "ports", "leaf": "ports", "leaf.gbps": "gbps", "spine": "ports", "spine.ports": "ports"}


def _network_input_name(path: str) -> str:
    key, _, rest = path.partition(".")
    if not rest:
        return f"networks.{key}"
    if rest.startswith("pools.") or rest in ("ports_per_server", "ports_per_node", "nodes", "oversubscription",
                                             "uplinks"):
        return f"networks.{key}.{rest}"
    table = OOB_SPEC_INPUTS if key == "oob" else NETWORK_SPEC_INPUTS
    if rest in table:
        return f"networks.{key}.{table[rest]}"
    head = rest.split(".", 1)[0]
    if head in table:
        return f"networks.{key}.{table[head]}"
    return f"networks.{key}"


def spec_input_name(path: str) -> str:
    """The input a user changes for an engine spec field (unknown paths -> non_field_errors)."""
    head = path.split(".", 1)[0]
    if head in ("frontend", "storage", "oob"):
        return _network_input_name(path)
    if path in SPEC_FIELD_INPUTS:
        return SPEC_FIELD_INPUTS[path]
    if head in ("layout", "pools", "spares"):
        return path
    return SPEC_FIELD_INPUTS.get(head, "non_field_errors")


def spec_error_fields(exc: SpecError) -> dict[str, list[str]]:
    """The engine's errors keyed by the input names users see, in the active language."""
    fields: dict[str, list[str]] = {}
    for path, messages in spec_error_messages(exc).items():
        fields.setdefault(spec_input_name(path), []).extend(messages)
    return fields


def spec_error_field_details(exc: SpecError) -> dict[str, list[dict[str, Any]]]:
    """The same errors as plain JSON {input name: [{code, params, text}]}, to translate when shown later."""
    fields: dict[str, list[dict[str, Any]]] = {}
    for path, details in spec_error_details(exc).items():
        fields.setdefault(spec_input_name(path), []).extend(details)
    return fields
