"""Reading the catalog, and turning rows into the engine's hardware dataclasses.

Mapping to apps.engine.spec (apps.engine.seedcatalog): a switch in breakout "NxSG" becomes
SwitchHw(ports = cages * N, gbps = S, cages, cage_gbps, form_factor = cage_form_factor, switch_class,
uplinks = uplink_cages (native mode), uplink_gbps, uplink_cages, uplink_form_factor; power None when not
published); a patch panel becomes PatchPanelHw(ports, connector, fiber, rack_units);
a server becomes ServerHw(nic_ports = backend_ports, nic_gbps = backend_gbps, nics_built_in =
backend_nics_built_in, ports_per_cage = backend_ports_per_cage); transceivers (flat_top included),
cables and fibre cords become Optic, CableAssembly and FiberCord; price = list_price, converted
into the design's currency by a PriceConverter when the item is priced in another currency
(rounded half up to the cent, so unit prices are what a quote shows). Only active items are
offered to the engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from apps.engine import spec as engine

from .models import (Cable, ExchangeRate, FiberCord, Manufacturer, NicModel, PatchPanel, ServerModel, SwitchModel,
                     Transceiver, parse_breakout)

CENT = Decimal("0.01")


class MissingExchangeRate(LookupError):
    """No catalog rate converts `from_currency` into `to_currency`."""

    def __init__(self, from_currency: str, to_currency: str):
        self.from_currency, self.to_currency = from_currency, to_currency
        super().__init__(f"no exchange rate from {from_currency} to {to_currency}")


@dataclass
class PriceConverter:
    """List prices in `currency`, from the catalog's rates ((from, to) -> rate; examples flagged)."""

    currency: str
    rates: dict[tuple[str, str], Decimal]
    examples: set[tuple[str, str]] = field(default_factory=set)

    def rate(self, from_currency: str) -> Decimal:
        """Units of `currency` for one unit of `from_currency`; MissingExchangeRate when none is known."""
        if from_currency == self.currency:
            return Decimal(1)
        direct = self.rates.get((from_currency, self.currency))
        if direct is not None:
            return direct
        inverse = self.rates.get((self.currency, from_currency))
        if inverse is not None:
            return Decimal(1) / inverse
        raise MissingExchangeRate(from_currency, self.currency)

    def is_example(self, from_currency: str) -> bool:
        return bool({(from_currency, self.currency), (self.currency, from_currency)} & self.examples)

    def price(self, item) -> float:
        """The item's list price in `currency`, to the cent."""
        amount = Decimal(item.list_price)
        if item.currency and item.currency != self.currency:
            amount = (amount * self.rate(item.currency)).quantize(CENT, rounding=ROUND_HALF_UP)
        return float(amount)


def exchange_rate_list() -> QuerySet[ExchangeRate]:
    return ExchangeRate.objects.order_by("from_currency", "to_currency")


def price_converter(*, currency: str) -> PriceConverter:
    """A converter into `currency` from every rate in the catalog."""
    rows = list(exchange_rate_list())
    return PriceConverter(
        currency=currency,
        rates={(r.from_currency, r.to_currency): r.rate for r in rows},
        examples={(r.from_currency, r.to_currency) for r in rows if r.rate_is_example},
    )


def catalog_currencies(*, items=()) -> set[str]:
    """Currencies of the given items and of every active transceiver, cable and fibre cord (what a design prices)."""
    currencies = {item.currency for item in items if item is not None and item.currency}
    for model in (Transceiver, Cable, FiberCord):
        currencies.update(model.objects.filter(active=True).values_list("currency", flat=True).distinct())
    return currencies


def _price(item, prices: PriceConverter | None) -> float:
    return prices.price(item) if prices is not None else float(item.list_price)


def _search(qs: QuerySet, search: str) -> QuerySet:
    if search:
        qs = qs.filter(
            Q(sku__icontains=search) | Q(model__icontains=search) | Q(description__icontains=search)
            | Q(manufacturer__name__icontains=search)
        )
    return qs


def manufacturer_list() -> QuerySet[Manufacturer]:
    return Manufacturer.objects.order_by("name")


def switch_list(*, search: str = "", active_only: bool = False, switch_class: str = "", fabric: str = "",
                manufacturer: str = "") -> QuerySet[SwitchModel]:
    """Switches, optionally of one class ("fabric", "frontend", "management"), fabric and manufacturer (name or slug)."""
    qs = SwitchModel.objects.select_related("manufacturer").order_by("-cage_gbps", "manufacturer__name", "model")
    if switch_class:
        qs = qs.filter(switch_class=switch_class)
    if fabric:
        qs = qs.filter(fabric=fabric)
    if manufacturer:
        qs = qs.filter(Q(manufacturer__slug__iexact=manufacturer) | Q(manufacturer__name__iexact=manufacturer))
    return _search(qs.filter(active=True) if active_only else qs, search)


def nic_list(*, search: str = "", active_only: bool = False) -> QuerySet[NicModel]:
    qs = NicModel.objects.select_related("manufacturer").order_by("-port_gbps", "manufacturer__name", "model")
    return _search(qs.filter(active=True) if active_only else qs, search)


def server_list(*, search: str = "", active_only: bool = False) -> QuerySet[ServerModel]:
    qs = ServerModel.objects.select_related("manufacturer", "default_nic").order_by("manufacturer__name", "model")
    return _search(qs.filter(active=True) if active_only else qs, search)


def transceiver_list(*, search: str = "", active_only: bool = False) -> QuerySet[Transceiver]:
    qs = Transceiver.objects.select_related("manufacturer").order_by("form_factor", "-gbps", "media", "reach_m", "sku")
    return _search(qs.filter(active=True) if active_only else qs, search)


def cable_list(*, search: str = "", active_only: bool = False) -> QuerySet[Cable]:
    qs = Cable.objects.select_related("manufacturer").order_by(
        "form_factor_a", "-gbps", "media", "legs", "form_factor_b", "length_m", "sku"
    )
    return _search(qs.filter(active=True) if active_only else qs, search)


def fiber_list(*, search: str = "", active_only: bool = False) -> QuerySet[FiberCord]:
    qs = FiberCord.objects.select_related("manufacturer").order_by("fiber", "connector", "length_m", "sku")
    return _search(qs.filter(active=True) if active_only else qs, search)


def patch_panel_list(*, search: str = "", active_only: bool = False) -> QuerySet[PatchPanel]:
    qs = PatchPanel.objects.select_related("manufacturer").order_by("fiber", "connector", "-ports", "sku")
    return _search(qs.filter(active=True) if active_only else qs, search)


def catalog_filter(qs: QuerySet, *, vendor: str = "", fabric: str = "", switch_class: str = "") -> QuerySet:
    """Items of one kind by vendor (manufacturer slug or name), fabric (a switch's own; the fabrics an optic,
    cable or cord is qualified for; NICs, servers and panels serve any) and switch class (switches only)."""
    if vendor:
        qs = qs.filter(Q(manufacturer__slug__iexact=vendor) | Q(manufacturer__name__iexact=vendor))
    fields = {f.name for f in qs.model._meta.get_fields()}
    if fabric and "fabric" in fields:
        qs = qs.filter(fabric=fabric)
    elif fabric and "fabrics" in fields:
        qs = qs.filter(fabrics__icontains=f'"{fabric}"')
    if switch_class and "switch_class" in fields:
        qs = qs.filter(switch_class=switch_class)
    return qs


def switch_breakout_choices(*, switch: SwitchModel) -> list[tuple[str, str]]:
    """(mode, label) pairs for a form, e.g. ("2x400G", "2x400G: 128 x 400G")."""
    return [
        (mode, f"{mode}: {ports} x {parse_breakout(mode)[1]}G")
        for mode, ports in switch.logical_ports.items()
    ]


def _name(item) -> str:
    return f"{item.manufacturer.name} {item.model}"


def switch_hw(*, switch: SwitchModel, breakout: str, prices: PriceConverter | None = None) -> engine.SwitchHw:
    """The switch in one of its breakout modes; ValidationError on `breakout` if it does not offer it."""
    if breakout not in (switch.breakouts or []):
        raise ValidationError({"breakout": [
            _("%(switch)s does not offer breakout %(mode)s; choose one of %(modes)s.")
            % {"switch": switch.model, "mode": breakout or "-", "modes": ", ".join(switch.breakouts or [])}
        ]})
    n, gbps = parse_breakout(breakout)
    return engine.SwitchHw(
        ports=switch.cages * n, gbps=gbps, cages=switch.cages, cage_gbps=switch.cage_gbps,
        form_factor=switch.cage_form_factor, sku=switch.sku, name=_name(switch), breakout=breakout,
        rack_units=switch.rack_units, power_typical_w=_watts(switch.power_typical_w),
        power_max_w=_watts(switch.power_max_w), price=_price(switch, prices), fabric=switch.fabric,
        vendor=switch.manufacturer.name, switch_class=switch.switch_class, uplinks=switch.uplink_ports,
        uplink_gbps=int(switch.uplink_gbps or 0), uplink_cages=int(switch.uplink_cages or 0),
        uplink_form_factor=switch.uplink_form_factor or "", buffer_mb=_watts(switch.buffer_mb),
    )


def _watts(value) -> float | None:
    """A published power figure as a float; None stays None (not published, never 0 W)."""
    return None if value is None else float(value)


def server_hw(*, server: ServerModel, prices: PriceConverter | None = None) -> engine.ServerHw:
    return engine.ServerHw(
        gpus=server.gpus, nic_ports=server.backend_ports, nic_gbps=server.backend_gbps, sku=server.sku,
        name=_name(server), scale_up=server.scale_up, rack_units=server.rack_units,
        power_w=float(server.power_w), price=_price(server, prices),
        nics_built_in=bool(server.backend_nics_built_in), ports_per_cage=int(server.backend_ports_per_cage),
        scale_up_kind=server.scale_up_kind or "", scale_up_gpus=int(server.scale_up_domain_gpus or 0),
        scale_up_gb_s=float(server.scale_up_gb_s_per_gpu or 0), scale_up_racks=int(server.scale_up_racks or 0),
        scale_up_switch_trays=int(server.scale_up_switch_trays or 0),
        scale_up_switch_tray_power_w=_watts(server.scale_up_switch_tray_power_w),
        scale_up_rack_power_w=_watts(server.scale_up_rack_power_w),
    )


def nic_hw(*, nic: NicModel, prices: PriceConverter | None = None) -> engine.NicHw:
    return engine.NicHw(
        ports=nic.ports, gbps=nic.port_gbps, form_factor=nic.form_factor, sku=nic.sku, name=_name(nic),
        power_w=_watts(nic.power_w), price=_price(nic, prices), splits=nic.splits,
        vendor=nic.manufacturer.name,
    )


def _qualification(item: Transceiver | Cable) -> dict:
    """The engine's qualification fields of an optic or cable: fabrics, vendor (its manufacturer), compatible."""
    return {"fabrics": tuple(item.fabrics or ()), "vendor": item.manufacturer.name,
            "compatible_vendors": tuple(item.compatible_vendors or ())}


def optic_hw(*, transceiver: Transceiver, prices: PriceConverter | None = None) -> engine.Optic:
    t = transceiver
    return engine.Optic(
        sku=t.sku, form_factor=t.form_factor, gbps=t.gbps, port_gbps=t.port_gbps, ports=t.ports, media=t.media,
        fiber=t.fiber, reach_m=float(t.reach_m), name=_name(t), power_w=_watts(t.power_w), price=_price(t, prices),
        connector=t.connector, flat_top=bool(t.flat_top), **_qualification(t),
    )


def cable_hw(*, cable: Cable, prices: PriceConverter | None = None) -> engine.CableAssembly:
    c = cable
    return engine.CableAssembly(
        sku=c.sku, media=c.media, form_factor_a=c.form_factor_a, form_factor_b=c.form_factor_b, gbps=c.gbps,
        leg_gbps=c.leg_gbps, legs=c.legs, length_m=float(c.length_m), name=_name(c), power_w=_watts(c.power_w),
        price=_price(c, prices), **_qualification(c),
    )


def fiber_hw(*, fiber: FiberCord, prices: PriceConverter | None = None) -> engine.FiberCord:
    return engine.FiberCord(
        sku=fiber.sku, fiber=fiber.fiber, length_m=float(fiber.length_m), connector=fiber.connector,
        name=_name(fiber), price=_price(fiber, prices), fabrics=tuple(fiber.fabrics or ()),
        vendor=fiber.manufacturer.name,
    )


def patch_panel_hw(*, panel: PatchPanel, prices: PriceConverter | None = None) -> engine.PatchPanelHw:
    return engine.PatchPanelHw(
        sku=panel.sku, ports=panel.ports, connector=panel.connector, fiber=panel.fiber,
        rack_units=panel.rack_units, name=_name(panel), price=_price(panel, prices), vendor=panel.manufacturer.name,
    )


def patch_panel_catalog(*, prices: PriceConverter | None = None) -> tuple[engine.PatchPanelHw, ...]:
    """Every active patch panel, for structured cabling."""
    return tuple(patch_panel_hw(panel=p, prices=prices) for p in patch_panel_list(active_only=True))


def interconnect_catalog(*, prices: PriceConverter | None = None) -> tuple[
    tuple[engine.Optic, ...], tuple[engine.CableAssembly, ...], tuple[engine.FiberCord, ...]
]:
    """Every active transceiver, cable assembly and fibre cord, as the engine's DesignSpec wants them."""
    return (
        tuple(optic_hw(transceiver=t, prices=prices) for t in transceiver_list(active_only=True)),
        tuple(cable_hw(cable=c, prices=prices) for c in cable_list(active_only=True)),
        tuple(fiber_hw(fiber=f, prices=prices) for f in fiber_list(active_only=True)),
    )
