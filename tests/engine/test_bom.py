"""Bill of materials: quantities come from the devices, links and cages; money and power add up."""
from __future__ import annotations

import numpy as np
import pytest

from apps.engine.plan import plan
from apps.engine.spec import NicHw

from .builders import server, spec, switch


def lines(p) -> dict:
    return {line.sku: line for line in p.bom}


def test_switch_and_nic_quantities_equal_the_devices_and_ports():
    p = plan(spec(5_000, leaf=switch(64, sku="SW64")))
    bom = lines(p)
    assert bom["SW64"].qty == 160 + 160 + 80  # one SKU for every tier: one line
    assert bom["SW64"].category == "switch"
    assert bom["NIC-CX7"].qty == 625 * 8


def test_dual_port_nics_are_counted_per_card():
    dual = NicHw(ports=2, gbps=400, form_factor="OSFP", sku="NIC-2P", price=3_000, power_w=30)
    p = plan(spec(256, leaf=switch(64), nic=dual))
    assert lines(p)["NIC-2P"].qty == 32 * 8 // 2


def test_transceiver_cable_and_fibre_quantities_equal_the_cages_and_links_they_serve():
    p = plan(spec(3_000, leaf=switch(64, twin=True)))
    links, media = p.links, p.media
    medium = links.medium.astype(int)
    module_cages: dict[str, set] = {}
    expected: dict[str, int] = {}
    for tier in (0, 1, 2):
        in_tier = links.tier == tier
        a_ppc = 1 if tier == 0 else 2
        for i in np.unique(medium[in_tier]).tolist():
            m = media[i]
            sel = in_tier & (medium == i)
            a_cages = set(zip(links.a_dev[sel].tolist(), (links.a_port[sel] // a_ppc).tolist()))
            b_cages = set(zip(links.b_dev[sel].tolist(), (links.b_port[sel] // 2).tolist()))
            if m.b_sku:  # optics at both ends (one module per cage) and a cord per link
                module_cages.setdefault(m.a_sku, set()).update(a_cages)
                module_cages.setdefault(m.b_sku, set()).update(b_cages)
                expected[m.cable_sku] = expected.get(m.cable_sku, 0) + int(sel.sum())
            else:  # one assembly per twin-port cage at its multi-port end
                count = len(b_cages) if tier == 0 else len(a_cages)
                expected[m.cable_sku] = expected.get(m.cable_sku, 0) + count
    expected.update({sku: len(c) for sku, c in module_cages.items()})
    got = {line.sku: line.qty for line in p.bom if line.category in ("transceiver", "cable", "fiber")}
    assert got == expected


def test_totals_discount_currency_power_and_rack_units():
    p = plan(spec(1_024, leaf=switch(64, sku="SW64", price=10_000, rack_units=2), discount_pct=12.5,
                  currency="EUR"))
    for line in p.bom:
        assert line.total == pytest.approx(line.qty * line.unit_price, abs=0.01)
    assert p.subtotal == pytest.approx(sum(line.total for line in p.bom), abs=0.01)
    assert p.discount == pytest.approx(p.subtotal * 0.125, abs=0.01)
    assert p.total_cost == pytest.approx(p.subtotal - p.discount, abs=0.01)
    assert p.currency == "EUR"
    switches = sum(p.switches.values())
    assert p.rack_units == switches * 2
    bom = lines(p)
    assert bom["SW64"].power_typical_w == switches * 600
    assert p.power_typical_w == pytest.approx(sum(line.power_typical_w for line in p.bom))
    assert p.power_max_w > p.power_typical_w
    assert bom["NIC-CX7"].power_typical_w == 1_024 * 25


def test_bom_lines_come_grouped_by_category():
    p = plan(spec(1_024, leaf=switch(64, twin=True)))
    order = ["switch", "nic", "transceiver", "cable", "fiber"]
    categories = [line.category for line in p.bom]
    assert categories == sorted(categories, key=order.index)


def test_discount_rounds_half_cents_up_like_the_workbook_and_the_api():
    """The workbook's ROUND(subtotal * % / 100, 2) and the API round half a cent up; the engine's total must too."""
    from decimal import ROUND_HALF_UP, Decimal

    ties = 0
    for cents in range(0, 100, 3):
        nic = NicHw(ports=1, gbps=400, form_factor="OSFP", sku="NIC-CX7", power_w=25, price=2_000 + cents / 100)
        p = plan(spec(8, server=server(ports=1), leaf=switch(64), nic=nic, discount_pct=12.5))
        exact = Decimal(str(p.subtotal)) * Decimal("12.5") / 100
        ties += exact % Decimal("0.01") == Decimal("0.005")
        discount = exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert Decimal(str(p.discount)) == discount, (p.subtotal, p.discount)
        assert Decimal(str(p.total_cost)) == Decimal(str(p.subtotal)) - discount
    assert ties  # the half-cent case was exercised
