"""Bill of materials: quantities come from the devices, links and cages; money and power add up."""
from __future__ import annotations

import numpy as np
import pytest

from apps.engine.plan import plan
from apps.engine.report import report as engine_report
from apps.engine.spec import NicHw

from .builders import server, spec, switch


def lines(p) -> dict:
    return {line.sku: line for line in p.bom if not line.spare}


def test_switch_and_nic_quantities_equal_the_devices_and_ports():
    p = plan(spec(5_000, leaf=switch(64, sku="SW64")))
    bom = lines(p)
    assert bom["SW64"].qty == 160 + 160 + 128  # one SKU for every tier: one line
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
    got = {line.sku: line.qty for line in p.bom if line.category in ("transceiver", "cable", "fiber") and not line.spare}
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
    # Every watt counted once, in one scope: the network's plus the part inside the servers.
    assert p.power_typical_w + p.in_server_typical_w == pytest.approx(sum(line.power_typical_w for line in p.bom))
    assert p.power_max_w > p.power_typical_w
    assert bom["NIC-CX7"].power_typical_w == bom["NIC-CX7"].in_server_typical_w == 1_024 * 25
    assert bom["NIC-CX7"].scope == "in-server" and bom["SW64"].scope == "network"


def test_bom_lines_come_grouped_by_category():
    p = plan(spec(1_024, leaf=switch(64, twin=True)))
    order = ["switch", "nic", "transceiver", "cable", "fiber"]
    base = [line.category for line in p.bom if not line.spare]
    spare = [line.category for line in p.bom if line.spare]
    assert base == sorted(base, key=order.index) and spare == sorted(spare, key=order.index)
    assert [line.spare for line in p.bom] == sorted(line.spare for line in p.bom)  # spare lines last


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


def test_server_side_optics_and_nic_cards_are_in_server_power_and_switch_side_optics_network_power():
    p = plan(spec(256, leaf=switch(64, twin=True)))
    by_end: dict[str, dict[str, int]] = {"server": {}, "switch": {}}
    for i in np.unique(p.links.medium).tolist():
        m = p.media[i]
        if not m.b_sku:
            continue
        n = int((p.links.medium == i).sum())
        a_end = "server" if m.tier == 0 else "switch"
        by_end[a_end][m.a_sku] = by_end[a_end].get(m.a_sku, 0) + n
    bom = lines(p)
    server_skus = set(by_end["server"])
    assert server_skus  # single-port NIC modules at the server end of every server-leaf link
    for sku in server_skus:
        assert bom[sku].scope == "in-server"
        assert bom[sku].in_server_typical_w == bom[sku].power_typical_w > 0
    network = sum(line.power_typical_w for line in p.bom if line.category == "switch")
    network += sum(line.power_typical_w for line in p.bom if line.category == "transceiver"
                   and line.sku not in server_skus)
    network += sum(line.network_typical_w for line in p.bom if line.category == "cable")
    assert p.power_typical_w == pytest.approx(network)
    assert p.in_server_typical_w == pytest.approx(bom["NIC-CX7"].power_typical_w
                                                  + sum(bom[sku].power_typical_w for sku in server_skus))


def test_spares_are_their_own_lines_priced_like_the_base_line_and_included_in_the_total():
    from apps.engine.spec import SparesPolicy

    p = plan(spec(256, leaf=switch(64, twin=True, sku="SW64", price=10_000), discount_pct=10,
                  spares=SparesPolicy(switches=5, transceivers=2, cables=0, fibers=10)))
    base = lines(p)
    spare = {line.sku: line for line in p.bom if line.spare}
    # Switches 5 %, fibre cords 10 %, transceivers 2 %, each rounded up, at least one per SKU; no cable spares.
    assert spare["SW64"].qty == -(-sum(p.switches.values()) * 5 // 100)
    for sku, line in spare.items():
        assert line.unit_price == base[sku].unit_price and line.total == pytest.approx(line.qty * line.unit_price)
        assert line.power_typical_w == 0 and line.rack_units == 0 and line.scope == "spare"
        pct = {"switch": 5, "transceiver": 2, "fiber": 10}[line.category]
        assert line.qty == max(1, -(-base[sku].qty * pct // 100))
    assert not [line for line in spare.values() if line.category in ("cable", "nic")]
    assert {sku for sku, line in base.items() if line.category in ("switch", "transceiver", "fiber")} == set(spare)
    assert p.spares_subtotal == pytest.approx(sum(line.total for line in spare.values()))
    assert p.subtotal == pytest.approx(sum(line.total for line in p.bom))  # spares included
    assert p.total_cost == pytest.approx(p.subtotal * 0.9, abs=0.01)
    assert p.rack_units == sum(line.rack_units for line in base.values())


def test_no_spare_lines_at_zero_percent_and_exact_percentages_do_not_round_up():
    from apps.engine.bom import spare_qty
    from apps.engine.spec import SparesPolicy

    p = plan(spec(256, leaf=switch(64), spares=SparesPolicy(0, 0, 0, 0, switches_per_spare=0)))
    assert not [line for line in p.bom if line.spare] and p.spares_subtotal == 0
    assert [spare_qty(q, 2) for q in (1, 49, 50, 51, 2_500)] == [1, 1, 1, 2, 50]
    assert spare_qty(100, 0.1) == 1 and spare_qty(1_000, 0.3) == 3 and spare_qty(5, 0) == 0


def test_the_report_gives_power_by_scope_and_the_spares_apart():
    from apps.engine.spec import SparesPolicy

    p = plan(spec(512, leaf=switch(64, twin=True), spares=SparesPolicy(switches=0, transceivers=5, cables=2, fibers=1)))
    r = engine_report(p)
    lines = r["bom"]
    power = r["power"]
    assert power["network_typical_w"] == r["power_typical_w"] == r["power_w"] == p.power_typical_w
    assert power["in_server_typical_w"] == pytest.approx(sum(line["in_server_typical_w"] for line in lines))
    assert power["network_typical_w"] + power["in_server_typical_w"] == pytest.approx(
        sum(line["power_typical_w"] for line in lines))
    assert power["network_max_w"] + power["in_server_max_w"] == pytest.approx(sum(line["power_max_w"] for line in lines))
    spares = [line for line in lines if line["spare"]]
    assert r["spares"] == {"percent": {"switches": 0.0, "transceivers": 5.0, "cables": 2.0, "fibers": 1.0},
                           "switches_per_spare": 20,
                           "lines": len(spares), "qty": sum(line["qty"] for line in spares),
                           "subtotal": pytest.approx(sum(line["total"] for line in spares))}
    assert r["total_includes_spares"] is True
    assert r["subtotal"] == pytest.approx(sum(line["total"] for line in lines))
    assert {line["scope"] for line in lines if not line["spare"]} >= {"network", "in-server"}


def test_the_live_estimate_prices_spares_through_the_same_bill():
    from apps.engine.plan import size
    from apps.engine.spec import SparesPolicy

    none = size(spec(1_024, spares=SparesPolicy(0, 0, 0, 0, switches_per_spare=0))).estimated_cost
    default = size(spec(1_024)).estimated_cost
    switch_spares = size(spec(1_024, leaf=switch(64, price=20_000.0), spares=SparesPolicy(
        switches=10, transceivers=0, cables=0, fibers=0, switches_per_spare=0))).estimated_cost
    assert none < default < none * 1.05  # 2 % of the interconnects, rounded up per SKU
    sz = size(spec(1_024))
    switches = sum(sz.switches.values())
    assert switch_spares == pytest.approx(none + -(-switches * 10 // 100) * 20_000.0, abs=0.01)


def test_switches_get_one_cold_spare_per_model_per_n_installed_by_default():
    """Default policy: one spare switch per 20 installed of each model, rounded up; leaves and spines apart."""
    from apps.engine.bom import switch_spare_qty

    leaf, spine = switch(64, sku="LEAF64", price=20_000.0), switch(64, sku="SPINE64", price=25_000.0)
    p = plan(spec(5_000, leaf=leaf, spine=spine))
    spare = {line.sku: line.qty for line in p.bom if line.spare and line.category == "switch"}
    spines_and_cores = p.switches["spine"] + p.switches["core"]  # the core defaults to the spine's model
    assert spare == {"LEAF64": -(-p.switches["leaf"] // 20), "SPINE64": -(-spines_and_cores // 20)}
    assert [switch_spare_qty(q, 20) for q in (1, 19, 20, 21, 40, 41)] == [1, 1, 1, 2, 2, 3]
    assert switch_spare_qty(12, 0) == 0 and switch_spare_qty(0, 20) == 0


def test_a_switch_model_takes_the_larger_of_its_percentage_and_one_per_n():
    from apps.engine.bom import switch_spare_qty
    from apps.engine.spec import SparesPolicy

    assert switch_spare_qty(100, 20, 10.0) == 10  # 10 % beats one per 20 (5)
    assert switch_spare_qty(100, 10, 5.0) == 10  # one per 10 beats 5 %
    p = plan(spec(1_024, leaf=switch(64, sku="SW64"), spares=SparesPolicy(switches_per_spare=4)))
    switches = sum(p.switches.values())
    assert {line.sku: line.qty for line in p.bom if line.spare}["SW64"] == -(-switches // 4)
    none = plan(spec(1_024, leaf=switch(64, sku="SW64"), spares=SparesPolicy(switches_per_spare=0)))
    assert not [line for line in none.bom if line.spare and line.category == "switch"]
    # optics, cables and cords keep their percentage whatever the switch rule
    assert ({(l.sku, l.qty) for l in p.bom if l.spare and l.category != "switch"}
            == {(l.sku, l.qty) for l in none.bom if l.spare})
