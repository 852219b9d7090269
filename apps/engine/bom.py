"""Bill of materials: quantities, prices, power and rack units of the backend fabric.

Lines, one per SKU (the same SKU used in two tiers is one line), in this order:
- switch: leaves, spines and cores of every plane (a model without a SKU is named "SWITCH-64x400G");
- nic: backend NIC cards, servers * backend ports / ports per card (without a NIC model, one
  single-port "NIC-400G" per backend port); none when the server has its NICs built in (DGX,
  HGX baseboard NICs: the server's price and power include them; the plan's review notes say so);
- transceiver: one module per cage used at each end of an optical link (engine.cabling);
- cable: one per cable assembly (a 1:2 splitter counts once for its two links);
- fiber: one cord per optical link;
then the spare lines (`spare`), in the same category order (spec.SparesPolicy): per category a
percentage, every SKU in use in that category getting ceil(qty x pct / 100) spares, at least one when
pct > 0 (defaults: 2 % of transceivers, cables and fibre cords); switches get one cold spare per model
for every `switches_per_spare` installed, ceil(qty / N) (default N = 20), or their percentage if that
gives more; NICs sit in servers.
A spare line is priced like its base line and draws no power and no rack units (stock on a shelf).
Servers themselves are not part of the network quote.

Money: unit price = list price; a part without one (price 0: a cord the catalog does not sell, a part entered
without a price) is not free: its line says `price_published` false and the plan names it among the parts missing
a price (warning.price_not_published), so a total over it reads as "at least"; total = qty * unit price;
subtotal = sum of totals, spare lines included
(spares_subtotal says how much of it they are); discount =
subtotal * discount_pct / 100 rounded to the cent, half a cent up, in decimal arithmetic (what the
workbook's ROUND(...; 2) and the API compute, so the three totals agree to the cent); total_cost =
subtotal - discount, in the spec's currency.
Power: switches at typical and max, NIC cards, transceivers and active cables at their rated power in
both figures, split by scope so that a facility engineer never counts a watt twice:
- network (power_typical_w, power_max_w): switches, switch-side optics, active cables between switches;
- in-server (in_server_typical_w, in_server_max_w): NIC cards, the optics plugged into the servers' NIC
  ports or twin-port cages (the a end of server-leaf links), and half of an active server-leaf cable
  (one of its two ends is powered by the server); these sit inside the server's own power budget.
  A line's `scope` says which ("both" for a SKU used at both ends, or an active server-leaf cable).
Rack units: network switches only (NICs sit in servers).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from .cabling import Cabling
from .messages import Message, message
from .model import (SCOPE_BOTH, SCOPE_IN_SERVER, SCOPE_NETWORK, SCOPE_SPARE, BomLine, Sizing, power_missing,
                    price_missing)
from .spec import SPARE_CATEGORIES, CableAssembly, DesignSpec, FiberCord, Optic, SparesPolicy, SwitchHw

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
    power_typical_w: float  # the network's
    power_max_w: float
    rack_units: int
    in_server_typical_w: float = 0.0
    in_server_max_w: float = 0.0
    spares_subtotal: float = 0.0  # included in subtotal
    power_missing: tuple[str, ...] = ()  # SKUs whose vendor publishes no power: left out of the totals
    price_missing: tuple[str, ...] = ()  # SKUs without a list price: left out of the money totals


def _money(value: float) -> float:
    return round(float(value) + 0.0, 2)


def discount_of(subtotal: float, discount_pct: float) -> float:
    """The discount on `subtotal` (in cents) at `discount_pct` %, half a cent rounded up as a spreadsheet does.

    Binary floats would round 76,434.68 * 12.5 % = 9,554.335 down; decimal arithmetic on the cents gives .34.
    """
    exact = Decimal(repr(_money(subtotal))) * Decimal(repr(float(discount_pct))) / 100
    return float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) + 0.0


def spare_qty(qty: int, pct: float) -> int:
    """Spares of a SKU used `qty` times at `pct` %: rounded up, at least one when pct > 0 (exact: 2 % of 50 is 1)."""
    if pct <= 0 or qty <= 0:
        return 0
    exact = Fraction(int(qty)) * Fraction(repr(float(pct))) / 100
    return max(1, -(-exact.numerator // exact.denominator))


def switch_spare_qty(qty: int, per_spare: int, pct: float = 0.0) -> int:
    """Cold spares of a switch model installed `qty` times: one per `per_spare` (rounded up), or `pct` % if more."""
    by_count = -(-int(qty) // int(per_spare)) if per_spare > 0 and qty > 0 else 0
    return max(by_count, spare_qty(qty, pct))


def spare_lines(lines: list[BomLine], spares: SparesPolicy) -> list[BomLine]:
    """One spare line per base line of a category with spares (see the module rules)."""
    out = []
    for name, category in SPARE_CATEGORIES.items():
        pct = float(getattr(spares, name))
        for line in lines:
            if line.category != category or line.spare:
                continue
            if category == "switch":
                qty = switch_spare_qty(line.qty, int(spares.switches_per_spare), pct)
            else:
                qty = spare_qty(line.qty, pct)
            if qty:
                out.append(BomLine(sku=line.sku, description=line.description, category=category, qty=qty,
                                   unit_price=line.unit_price, total=_money(qty * line.unit_price),
                                   scope=SCOPE_SPARE, spare=True, price_published=line.price_published))
    return out


def bill(spec: DesignSpec, sz: Sizing, cabling: Cabling | None) -> Bill:
    lines: dict[str, BomLine] = {}

    def add(sku: str, description: str, category: str, qty: int, unit_price: float, typical_w: float | None,
            max_w: float | None, rack_units: int = 0, *, in_server: float = 0.0) -> None:
        """`in_server`: the share (0..1) of these units' power drawn inside the servers; None watts: not published."""
        if qty <= 0:
            return
        published = typical_w is not None and max_w is not None
        typical_w, max_w = typical_w or 0.0, max_w or 0.0
        scope = SCOPE_IN_SERVER if in_server >= 1 else SCOPE_NETWORK if in_server <= 0 else SCOPE_BOTH
        line = lines.get(sku)
        if line is None:
            line = lines[sku] = BomLine(sku=sku, description=description, category=category, qty=0,
                                        unit_price=_money(unit_price), total=0.0, scope=scope)
        elif line.scope != scope:
            line.scope = SCOPE_BOTH
        line.qty += int(qty)
        line.total = _money(line.qty * line.unit_price)
        line.power_typical_w += qty * typical_w
        line.power_max_w += qty * max_w
        line.in_server_typical_w += qty * typical_w * in_server
        line.in_server_max_w += qty * max_w * in_server
        line.rack_units += qty * rack_units
        line.power_published = line.power_published and published
        line.price_published = line.unit_price > 0

    for role in ("leaf", "spine", "core"):
        hw = spec.switch_hw(role)
        add(switch_sku(hw), _switch_description(hw), "switch", sz.switches[role], hw.price, hw.power_typical_w,
            hw.power_max_w, hw.rack_units)
    nic = spec.nic_hw
    cards = 0 if spec.server.nics_built_in else sz.servers * spec.server.nic_ports // nic.ports
    add(nic.sku or f"NIC-{nic.gbps}G", nic.name or f"{nic.ports}x{nic.gbps}G NIC", "nic", cards, nic.price,
        nic.power_w, nic.power_w, in_server=1.0)
    if cabling is not None:
        for category in ("transceivers", "cables", "fibers"):
            for tier in cabling.tiers:
                counts = getattr(tier, category)
                in_server = tier.server_transceivers if category == "transceivers" else {}
                for sku in sorted(counts):
                    item = cabling.items[sku]
                    watts = getattr(item, "power_w", 0.0)  # None: not published
                    args = (sku, _item_description(item), category.rstrip("s"))
                    server_side = in_server.get(sku, 0)
                    if category == "cables" and tier.tier == 0:
                        add(*args, counts[sku], item.price, watts, watts, in_server=0.5)
                        continue
                    add(*args, counts[sku] - server_side, item.price, watts, watts)
                    add(*args, server_side, item.price, watts, watts, in_server=1.0)
    ordered = sorted(lines.values(), key=lambda line: (CATEGORIES.index(line.category), line.sku))
    ordered += spare_lines(ordered, spec.spares)
    subtotal = _money(sum(line.total for line in ordered))
    discount = discount_of(subtotal, spec.discount_pct)
    return Bill(
        lines=ordered, subtotal=subtotal, discount=discount, total_cost=_money(subtotal - discount),
        power_typical_w=round(sum(line.network_typical_w for line in ordered), 1),
        power_max_w=round(sum(line.network_max_w for line in ordered), 1),
        rack_units=int(sum(line.rack_units for line in ordered)),
        in_server_typical_w=round(sum(line.in_server_typical_w for line in ordered), 1),
        in_server_max_w=round(sum(line.in_server_max_w for line in ordered), 1),
        spares_subtotal=_money(sum(line.total for line in ordered if line.spare)),
        power_missing=tuple(power_missing(ordered)), price_missing=tuple(price_missing(ordered)),
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


def price_notes(lines: list) -> list[Message]:
    """A review point when parts of the BOM have no list price (their 0 is left out of the money totals)."""
    missing = [line for line in lines if not line.spare and not line.price_published]
    if not missing:
        return []
    return [message("warning.price_not_published", skus=", ".join(dict.fromkeys(line.sku for line in missing)),
                    count=sum(line.qty for line in missing))]
