"""The bill of materials of a few designs, worked out by hand as a network architect checks a quote.

Every expected number below is arithmetic on the design's inputs, written out in the comments; no
engine helper is called to get it. The catalogs are small and chosen so that each link class has
exactly one way of being built (only optics, or only a splitter), which makes the quantities a
matter of counting cages and links.
"""
from __future__ import annotations

import pytest

from apps.engine.plan import plan
from apps.engine.spec import CableAssembly, DesignSpec, FiberCord, NicHw, Optic, ServerHw, SwitchHw

SERVER = ServerHw(gpus=8, nic_ports=8, nic_gbps=400, sku="SRV")
NIC = NicHw(ports=1, gbps=400, form_factor="OSFP", sku="NIC", power_w=25, price=2_000)
# Twin-port 800G OSFP module (2x400G) for switch cages, single-port 400G module for NICs and for
# 400G switch cages. Reach is long enough for any run of these halls, so media never change.
TWIN_SR = Optic("TWIN-SR", "OSFP", 800, 400, 2, "SR", "MMF", 200, power_w=15, price=1_000,
                connector="2x MPO-12/APC")
SINGLE_SR = Optic("SINGLE-SR", "OSFP", 400, 400, 1, "SR", "MMF", 200, power_w=8, price=500, connector="MPO-12/APC")
# A 1:2 splitter (800G cage -> two 400G NIC ports), long enough for every server-leaf run.
SPLITTER = CableAssembly("SPLIT-1x2", "AOC", "OSFP", "OSFP", 800, 400, 2, 50, power_w=20, price=400)
CORD = FiberCord("MMF-CORD", "MMF", 200, "MPO-12/APC", price=50)


def twin_switch(ports: int, price: float) -> SwitchHw:
    """`ports` 400G logical ports, two per 800G OSFP cage."""
    return SwitchHw(ports=ports, gbps=400, cages=ports // 2, cage_gbps=800, form_factor="OSFP", sku=f"TWIN{ports}",
                    breakout="2x400G", rack_units=2, power_typical_w=1_000, power_max_w=1_800, price=price)


def single_switch(ports: int, price: float) -> SwitchHw:
    """`ports` 400G OSFP cages, one logical port each."""
    return SwitchHw(ports=ports, gbps=400, form_factor="OSFP", sku=f"SINGLE{ports}", rack_units=2,
                    power_typical_w=600, power_max_w=1_200, price=price)


def qty(p, sku: str) -> int:
    return sum(line.qty for line in p.bom if line.sku == sku and not line.spare)


def spares(p) -> dict[str, int]:
    return {line.sku: line.qty for line in p.bom if line.spare}


def test_5000_gpus_three_tiers_of_twin_port_switches_with_optics_everywhere():
    p = plan(DesignSpec(gpus=5_000, server=SERVER, leaf=twin_switch(64, 20_000), nic=NIC, optics=(TWIN_SR, SINGLE_SR),
                        fibers=(CORD,), discount_pct=7.5, currency="EUR"))
    # 625 servers; leaf 64 ports at 1:1 -> 32 down, 32 up; 20 SUs (19 of 32 servers, the last of 17).
    # 160 leaves > 64 spine ports -> 3 tiers; a pod = 32 / 8 rails = 4 SUs -> 5 pods of 32 leaves,
    # 32 * 32 / 32 = 32 spines each -> 160 spines; 160 * 32 spine uplinks / 64 = 80 cores at the fewest, but
    # 80 does not divide a pod's 1,024 uplinks: the smallest count that does is 128 (8 links into every pod).
    assert (p.tiers, p.switches) == (3, {"leaf": 160, "spine": 160, "core": 128})
    assert p.links_by_tier == {"server-leaf": 5_000, "leaf-spine": 5_120, "spine-core": 5_120}
    assert qty(p, "TWIN64") == 448
    assert qty(p, "NIC") == 5_000
    # Twin-port modules, one per cage used at each switch end:
    #   leaf downlinks: 19 SUs * 8 leaves * 16 cages + 8 leaves * ceil(17 / 2) = 2,432 + 72 = 2,504
    #   leaf uplinks 160 * 16, spine downlinks 160 * 16, spine uplinks 160 * 16, cores 128 * 20: 4 * 2,560
    assert qty(p, "TWIN-SR") == 2_504 + 4 * 2_560 == 12_744
    assert qty(p, "SINGLE-SR") == 5_000  # one per NIC port
    assert qty(p, "MMF-CORD") == 5_000 + 5_120 + 5_120  # one cord per logical link, twin-port or not
    # Default spares, 2 % rounded up per SKU: 12,744 -> 255, 5,000 -> 100, 15,240 cords -> 305; one cold spare
    # switch per 20 installed of the model: 448 -> 23.
    assert spares(p) == {"TWIN64": 23, "TWIN-SR": 255, "SINGLE-SR": 100, "MMF-CORD": 305}
    assert p.spares_subtotal == 23 * 20_000 + 255 * 1_000 + 100 * 500 + 305 * 50 == 780_250
    subtotal = 448 * 20_000 + 5_000 * 2_000 + 12_744 * 1_000 + 5_000 * 500 + 15_240 * 50 + 780_250
    assert subtotal == 35_746_250
    assert p.subtotal == subtotal
    assert p.discount == 2_680_968.75  # 7.5 % of the subtotal, spares included, once
    assert p.total_cost == 33_065_281.25
    assert p.currency == "EUR"
    # Network: switches and the twin-port modules in switch cages. In-server: NIC cards and their modules.
    assert p.power_typical_w == 448 * 1_000 + 12_744 * 15 == 639_160
    assert p.power_max_w == 448 * 1_800 + 12_744 * 15 == 997_560
    assert p.in_server_typical_w == p.in_server_max_w == 5_000 * 25 + 5_000 * 8 == 165_000
    assert p.rack_units == 448 * 2


def test_5000_gpus_two_tiers_of_128_port_switches_with_splitters_to_the_nics():
    p = plan(DesignSpec(gpus=5_000, server=SERVER, leaf=twin_switch(128, 30_000), nic=NIC, optics=(TWIN_SR,),
                        cables=(SPLITTER,), fibers=(CORD,)))
    # 64 down / 64 up; 10 SUs (9 of 64 servers, the last of 49) -> 80 leaves <= 128: 2 tiers;
    # spines: ceil(80 * 64 / 128) = 40 does not divide 64 uplinks; the smallest count >= 40 that does is 64.
    assert (p.tiers, p.switches) == (2, {"leaf": 80, "spine": 64, "core": 0})
    assert p.links_by_tier == {"server-leaf": 5_000, "leaf-spine": 5_120, "spine-core": 0}
    # One splitter per leaf downlink cage used, half-used ones included: 9 * 8 * 32 + 8 * ceil(49 / 2).
    assert qty(p, "SPLIT-1x2") == 2_304 + 200 == 2_504
    # Leaf uplinks 80 * 32 cages; each spine gets one link from each leaf, 80 links = 40 full cages -> 64 * 40.
    assert qty(p, "TWIN-SR") == 2_560 + 2_560
    assert qty(p, "MMF-CORD") == 5_120  # the splitters need none
    # Spares, 2 % rounded up: 2,504 splitters -> 51, 5,120 modules -> 103, 5,120 cords -> 103; switches one per
    # 20 installed: 144 -> 8 (7.2 rounded up).
    assert spares(p) == {"TWIN128": 8, "SPLIT-1x2": 51, "TWIN-SR": 103, "MMF-CORD": 103}
    assert p.spares_subtotal == 8 * 30_000 + 51 * 400 + 103 * 1_000 + 103 * 50 == 368_550
    assert p.subtotal == 144 * 30_000 + 5_000 * 2_000 + 2_504 * 400 + 5_120 * 1_000 + 5_120 * 50 + 368_550
    assert p.subtotal == 21_066_150
    assert p.total_cost == p.subtotal  # no discount
    # An active splitter has one end in the leaf and its legs in the servers: half its power is in-server.
    assert p.power_typical_w == 144 * 1_000 + 2_504 * 20 / 2 + 5_120 * 15 == 245_840
    assert p.in_server_typical_w == 5_000 * 25 + 2_504 * 20 / 2 == 150_040
    assert (p.wiring.worst_pair_fraction, p.wiring.as_stated) == (1.0, True)


def test_superpod_127_nodes_on_64_port_switches():
    p = plan(DesignSpec(gpus=127 * 8, server=SERVER, leaf=twin_switch(64, 25_000), nic=NIC, optics=(TWIN_SR,),
                        cables=(SPLITTER,), fibers=(CORD,)))
    # NVIDIA DGX SuperPOD: 32-node SUs, 8 rails; 4 SUs (3 of 32 nodes, one of 31) -> 32 leaves, 16 spines.
    assert (p.tiers, p.scale_units, p.switches) == (2, 4, {"leaf": 32, "spine": 16, "core": 0})
    assert qty(p, "SPLIT-1x2") == 3 * 8 * 16 + 8 * 16 == 512  # 31 nodes still take 16 cages
    assert qty(p, "TWIN-SR") == 32 * 16 + 16 * 32 == 1_024  # leaf uplink cages + spine cages (64 ports each)
    assert qty(p, "MMF-CORD") == 32 * 32 == 1_024
    assert p.max_gpus == (64 // 8) * 32 * 8 == 2_048


def test_two_planes_three_tiers_with_a_partly_filled_last_pod():
    p = plan(DesignSpec(gpus=5_000, server=SERVER, leaf=single_switch(64, 15_000), nic=NIC, planes=2,
                        optics=(SINGLE_SR,), fibers=(CORD,)))
    # 4 rails per plane; 20 SUs -> 80 leaves per plane > 64: 3 tiers. A pod = 32 / 4 = 8 SUs: pods of
    # 8, 8 and 4 SUs -> 32 + 32 + 16 spines per plane; 80 * 32 / 64 = 40 cores per plane at the fewest, but
    # the smallest count dividing a full pod's 1,024 uplinks and the last pod's 512 is 64 (16, 16 and 8 links).
    assert (p.tiers, p.pods, p.switches) == (3, 3, {"leaf": 160, "spine": 160, "core": 128})
    assert p.max_gpus == 64 * 8 * 32 * 8 == 131_072
    links = 5_000 + 160 * 32 + 160 * 32
    assert qty(p, "SINGLE-SR") == 2 * links == 30_480  # single-port cages: a module at both ends of every link
    assert qty(p, "MMF-CORD") == links


def test_three_to_one_oversubscription_with_dual_port_nics():
    dual = NicHw(ports=2, gbps=400, form_factor="OSFP", sku="NIC-2P", power_w=30, price=3_000)
    p = plan(DesignSpec(gpus=1_024, server=SERVER, leaf=single_switch(64, 15_000), nic=dual, oversubscription=3,
                        optics=(SINGLE_SR,), fibers=(CORD,)))
    # 3:1 -> 48 down, 16 up; 128 servers -> 3 SUs (48, 48, 32) -> 24 leaves; spines >= ceil(24 * 16 / 64) = 6,
    # neither 6 nor 7 divides 16 or is a multiple of 8 -> 8 spines, 2 links from every leaf to each.
    assert (p.tiers, p.switches) == (2, {"leaf": 24, "spine": 8, "core": 0})
    assert p.links_by_tier["leaf-spine"] == 24 * 16
    assert p.oversubscription == {"leaf": 3.0}
    assert p.free_ports["leaf"] == 24 * 64 - 1_024 - 384 == 128
    assert p.bisection_gbps == min(1_024, 384) * 400 / 2
    assert p.max_gpus == (64 // 8) * 48 * 8 == 3_072
    assert qty(p, "NIC-2P") == 128 * 8 // 2 == 512
    assert qty(p, "SINGLE-SR") == 2 * (1_024 + 384)
    # Network: switches, the modules at the leaf's 1,024 downlinks and both ends of 384 uplinks.
    assert p.power_typical_w == pytest.approx(32 * 600 + (1_024 + 2 * 384) * 8)
    # In-server: 512 NIC cards and the module in each of their 1,024 ports.
    assert p.in_server_typical_w == pytest.approx(512 * 30 + 1_024 * 8)


# A DGX H100: 8 ConnectX-7 400G ports built in (the server's price and power include them), two per
# OSFP cage. Its cages take a flat-top twin-port module, priced here at two single-port modules.
DGX_H100 = ServerHw(gpus=8, nic_ports=8, nic_gbps=400, sku="DGXH", name="NVIDIA DGX H100", power_w=10_200,
                    price=395_000, nics_built_in=True, ports_per_cage=2)
TWIN_SR_FLAT = Optic("TWIN-SR-FLT", "OSFP", 800, 400, 2, "SR", "MMF", 200, power_w=15, price=1_000,
                     connector="2x MPO-12/APC", flat_top=True)


def test_5000_gpus_on_dgx_h100_buy_no_nic_cards_and_a_flat_top_twin_port_module_per_server_cage():
    kwargs = dict(gpus=5_000, leaf=twin_switch(64, 20_000), nic=NIC, fibers=(CORD,), discount_pct=7.5, currency="EUR")
    p = plan(DesignSpec(server=DGX_H100, optics=(TWIN_SR, SINGLE_SR, TWIN_SR_FLAT), cables=(SPLITTER,), **kwargs))
    # The fabric is the one of the first test: 625 servers, 160 leaves, 160 spines, 128 cores.
    assert (p.tiers, p.switches) == (3, {"leaf": 160, "spine": 160, "core": 128})
    assert p.links_by_tier == {"server-leaf": 5_000, "leaf-spine": 5_120, "spine-core": 5_120}
    assert qty(p, "NIC") == 0 and not [line for line in p.bom if line.category == "nic"]
    assert any(note.code == "note.nics_built_in" for note in p.notes)
    # Server end: 625 servers * 4 cages, one flat-top module each (rails 2k and 2k+1 share cage k).
    assert qty(p, "TWIN-SR-FLT") == 625 * 4 == 2_500
    assert qty(p, "SINGLE-SR") == 0
    # Switch ends as before: 2,504 leaf downlink cages + 4 * 2,560 cages up the tiers, finned modules.
    assert qty(p, "TWIN-SR") == 12_744
    # The splitter fits the leaf's 800G cage but not the DGX's cage (two rails, two leaves): never used.
    assert qty(p, "SPLIT-1x2") == 0
    assert qty(p, "MMF-CORD") == 5_000 + 5_120 + 5_120  # one cord per link: a DGX cage has two
    # Spares, 2 % rounded up: 2,500 flat-top modules -> exactly 50, 12,744 -> 255, 15,240 cords -> 305;
    # switches one per 20 installed: 448 -> 23.
    assert spares(p) == {"TWIN64": 23, "TWIN-SR-FLT": 50, "TWIN-SR": 255, "MMF-CORD": 305}
    subtotal = (448 * 20_000 + 12_744 * 1_000 + 2_500 * 1_000 + 15_240 * 50 + 23 * 20_000 + (50 + 255) * 1_000
                + 305 * 50)
    assert subtotal == 25_746_250
    assert p.subtotal == subtotal
    assert p.discount == 1_930_968.75  # 7.5 %
    assert p.total_cost == 23_815_281.25
    # No NIC power either: the server's power_w includes its NICs. The flat-top modules in the DGX's
    # cages are in-server power too; the network draws the switches and their modules.
    assert p.power_typical_w == 448 * 1_000 + 12_744 * 15 == 639_160
    assert p.power_max_w == 448 * 1_800 + 12_744 * 15 == 997_560
    assert p.in_server_typical_w == p.in_server_max_w == 2_500 * 15 == 37_500
    assert p.rack_units == 448 * 2

    # The same server bought as separate single-port NIC cards (the old reading of the DGX): the quote
    # drops by exactly the 5,000 NIC cards (10,000,000 of the first test's 35,746,250), the twin-port
    # module costing two single-port ones here (their spares too: 50 twin-port = 100 single-port).
    cards = plan(DesignSpec(server=ServerHw(gpus=8, nic_ports=8, nic_gbps=400, sku="DGXH"),
                            optics=(TWIN_SR, SINGLE_SR), **kwargs))
    assert qty(cards, "NIC") == 5_000 and qty(cards, "SINGLE-SR") == 5_000
    assert cards.subtotal == 35_746_250
    assert cards.subtotal - p.subtotal == 5_000 * 2_000
