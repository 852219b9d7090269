"""Bill of materials: quantities, prices, power and rack units of the backend fabric.

Lines, one per SKU (the same SKU used in two tiers is one line), in this order:
- switch: leaves, spines and cores of every plane (a model without a SKU is named "SWITCH-64x400G");
- nic: backend NIC cards, servers * backend ports / ports per card (without a NIC model, one
  single-port "NIC-400G" per backend port); none when the server has its NICs built in (DGX,
  HGX baseboard NICs: the server's price and power include them; the plan's review notes say so);
- transceiver: one module per cage used at each end of an optical link (engine.cabling);
- cable: one per cable assembly (a 1:2 splitter counts once for its two links);
- fiber: one cord per optical link.
Servers themselves are not part of the network quote.

Money: unit price = list price; total = qty * unit price; subtotal = sum of totals; discount =
subtotal * discount_pct / 100 rounded to the cent, half a cent up, in decimal arithmetic (what the
workbook's ROUND(...; 2) and the API compute, so the three totals agree to the cent); total_cost =
subtotal - discount, in the spec's currency.
Power: switches at typical and max, NIC cards, transceivers and active cables at their rated power in
both figures. Rack units: network switches only (NICs sit in servers).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .cabling import Cabling
from .model import BomLine, Sizing
from .spec import CableAssembly, DesignSpec, FiberCord, Optic, SwitchHw

CATEGORIES = ("switch", "nic", "transceiver", "cable", "fiber")


def switch_sku(hw: SwitchHw) -> str:
    return hw.sku or f"SWITCH-{hw.ports}x{hw.gbps}G"


def _switch_description(hw: SwitchHw) -> str:
    mode = hw.breakout or f"{hw.ports}x{hw.gbps}G"
    return f"{hw.name} ({mode})" if hw.name else f"{hw.ports}-port {hw.gbps}G switch"


@dataclass(slots=True)
class Bill:
    lines: list[BomLine]
    subtotal: float
    discount: float
    total_cost: float
    power_typical_w: float
    power_max_w: float
    rack_units: int


def _money(value: float) -> float:
    return round(float(value) + 0.0, 2)


def discount_of(subtotal: float, discount_pct: float) -> float:
    """The discount on `subtotal` (in cents) at `discount_pct` %, half a cent rounded up as a spreadsheet does.

    Binary floats would round 76,434.68 * 12.5 % = 9,554.335 down; decimal arithmetic on the cents gives .34.
    """
    exact = Decimal(repr(_money(subtotal))) * Decimal(repr(float(discount_pct))) / 100
    return float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) + 0.0


def bill(spec: DesignSpec, sz: Sizing, cabling: Cabling | None) -> Bill:
    lines: dict[str, BomLine] = {}

    def add(sku: str, description: str, category: str, qty: int, unit_price: float, typical_w: float,
            max_w: float, rack_units: int = 0) -> None:
        if qty <= 0:
            return
        line = lines.get(sku)
        if line is None:
            line = lines[sku] = BomLine(sku=sku, description=description, category=category, qty=0,
                                        unit_price=_money(unit_price), total=0.0)
        line.qty += int(qty)
        line.total = _money(line.qty * line.unit_price)
        line.power_typical_w += qty * typical_w
        line.power_max_w += qty * max_w
        line.rack_units += qty * rack_units

    for role in ("leaf", "spine", "core"):
        hw = spec.switch_hw(role)
        add(switch_sku(hw), _switch_description(hw), "switch", sz.switches[role], hw.price, hw.power_typical_w,
            hw.power_max_w, hw.rack_units)
    nic = spec.nic_hw
    cards = 0 if spec.server.nics_built_in else sz.servers * spec.server.nic_ports // nic.ports
    add(nic.sku or f"NIC-{nic.gbps}G", nic.name or f"{nic.ports}x{nic.gbps}G NIC", "nic", cards, nic.price,
        nic.power_w, nic.power_w)
    if cabling is not None:
        for category in ("transceivers", "cables", "fibers"):
            counts = cabling.counts(category)
            for sku in sorted(counts):
                item = cabling.items[sku]
                add(sku, _item_description(item), category.rstrip("s"), counts[sku], item.price,
                    getattr(item, "power_w", 0.0), getattr(item, "power_w", 0.0))
    ordered = sorted(lines.values(), key=lambda line: (CATEGORIES.index(line.category), line.sku))
    subtotal = _money(sum(line.total for line in ordered))
    discount = discount_of(subtotal, spec.discount_pct)
    return Bill(
        lines=ordered, subtotal=subtotal, discount=discount, total_cost=_money(subtotal - discount),
        power_typical_w=round(sum(line.power_typical_w for line in ordered), 1),
        power_max_w=round(sum(line.power_max_w for line in ordered), 1),
        rack_units=int(sum(line.rack_units for line in ordered)),
    )


def _item_description(item: object) -> str:
    if isinstance(item, Optic):
        twin = f"{item.ports}x{item.port_gbps}G " if item.ports > 1 else ""
        return item.name or f"{item.form_factor} {twin}{item.gbps}G {item.media} {item.fiber} {item.reach_m:g} m"
    if isinstance(item, CableAssembly):
        shape = f"1:{item.legs} {item.gbps}G to {item.legs}x{item.leg_gbps}G" if item.legs > 1 else f"{item.gbps}G"
        return item.name or f"{item.media} {item.form_factor_a}-{item.form_factor_b} {shape} {item.length_m:g} m"
    if isinstance(item, FiberCord):
        return item.name or f"{item.fiber} {item.connector} cord {item.length_m:g} m"
    return str(item)
