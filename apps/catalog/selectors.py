"""Reading the catalog, and turning rows into the engine's hardware dataclasses.

Mapping to apps.engine.spec (apps.engine.seedcatalog): a switch in breakout "NxSG" becomes
SwitchHw(ports = cages * N, gbps = S, cages, cage_gbps, form_factor = cage_form_factor);
a server becomes ServerHw(nic_ports = backend_ports, nic_gbps = backend_gbps, nics_built_in =
backend_nics_built_in, ports_per_cage = backend_ports_per_cage); transceivers (flat_top included),
cables and fibre cords become Optic, CableAssembly and FiberCord; price = list_price.
Only active items are offered to the engine.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from apps.engine import spec as engine

from .models import Cable, FiberCord, Manufacturer, NicModel, ServerModel, SwitchModel, Transceiver, parse_breakout


def _search(qs: QuerySet, search: str) -> QuerySet:
    if search:
        qs = qs.filter(
            Q(sku__icontains=search) | Q(model__icontains=search) | Q(description__icontains=search)
            | Q(manufacturer__name__icontains=search)
        )
    return qs


def manufacturer_list() -> QuerySet[Manufacturer]:
    return Manufacturer.objects.order_by("name")


def switch_list(*, search: str = "", active_only: bool = False) -> QuerySet[SwitchModel]:
    qs = SwitchModel.objects.select_related("manufacturer").order_by("-cage_gbps", "manufacturer__name", "model")
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


def switch_breakout_choices(*, switch: SwitchModel) -> list[tuple[str, str]]:
    """(mode, label) pairs for a form, e.g. ("2x400G", "2x400G: 128 x 400G")."""
    return [
        (mode, f"{mode}: {ports} x {parse_breakout(mode)[1]}G")
        for mode, ports in switch.logical_ports.items()
    ]


def _name(item) -> str:
    return f"{item.manufacturer.name} {item.model}"


def switch_hw(*, switch: SwitchModel, breakout: str) -> engine.SwitchHw:
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
        rack_units=switch.rack_units, power_typical_w=float(switch.power_typical_w),
        power_max_w=float(switch.power_max_w), price=float(switch.list_price),
    )


def server_hw(*, server: ServerModel) -> engine.ServerHw:
    return engine.ServerHw(
        gpus=server.gpus, nic_ports=server.backend_ports, nic_gbps=server.backend_gbps, sku=server.sku,
        name=_name(server), scale_up=server.scale_up, rack_units=server.rack_units,
        power_w=float(server.power_w), price=float(server.list_price),
        nics_built_in=bool(server.backend_nics_built_in), ports_per_cage=int(server.backend_ports_per_cage),
    )


def nic_hw(*, nic: NicModel) -> engine.NicHw:
    return engine.NicHw(
        ports=nic.ports, gbps=nic.port_gbps, form_factor=nic.form_factor, sku=nic.sku, name=_name(nic),
        power_w=float(nic.power_w), price=float(nic.list_price),
    )


def optic_hw(*, transceiver: Transceiver) -> engine.Optic:
    t = transceiver
    return engine.Optic(
        sku=t.sku, form_factor=t.form_factor, gbps=t.gbps, port_gbps=t.port_gbps, ports=t.ports, media=t.media,
        fiber=t.fiber, reach_m=float(t.reach_m), name=_name(t), power_w=float(t.power_w), price=float(t.list_price),
        connector=t.connector, flat_top=bool(t.flat_top),
    )


def cable_hw(*, cable: Cable) -> engine.CableAssembly:
    c = cable
    return engine.CableAssembly(
        sku=c.sku, media=c.media, form_factor_a=c.form_factor_a, form_factor_b=c.form_factor_b, gbps=c.gbps,
        leg_gbps=c.leg_gbps, legs=c.legs, length_m=float(c.length_m), name=_name(c), power_w=float(c.power_w),
        price=float(c.list_price),
    )


def fiber_hw(*, fiber: FiberCord) -> engine.FiberCord:
    return engine.FiberCord(
        sku=fiber.sku, fiber=fiber.fiber, length_m=float(fiber.length_m), connector=fiber.connector,
        name=_name(fiber), price=float(fiber.list_price),
    )


def interconnect_catalog() -> tuple[
    tuple[engine.Optic, ...], tuple[engine.CableAssembly, ...], tuple[engine.FiberCord, ...]
]:
    """Every active transceiver, cable assembly and fibre cord, as the engine's DesignSpec wants them."""
    return (
        tuple(optic_hw(transceiver=t) for t in transceiver_list(active_only=True)),
        tuple(cable_hw(cable=c) for c in cable_list(active_only=True)),
        tuple(fiber_hw(fiber=f) for f in fiber_list(active_only=True)),
    )
