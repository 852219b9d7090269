"""Cabling: lengths from the rack layout, the medium per cage group, twin-port and splitter counting."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from apps.engine.cabling import reach_margin, usable_reach
from apps.engine.plan import plan
from apps.engine.racks import place, raw_lengths
from apps.engine.spec import InfeasibleSpec, Optic, RackLayout, SpecError
from apps.engine.topology import device_layout, size_fabric

from .builders import CABLES, FIBERS, OPTICS, dgx, spec, switch

# 16 servers per rack: an SU of 32 is [servers][leaf rack][servers]; 3 racks per row: one SU per row.
COMPACT = RackLayout(servers_per_rack=16, racks_per_row=3, rack_width_m=0.6, row_pitch_m=2.4, slack_m=0.5)
# A whole SU in one 48U rack: 32 servers of 1U and its 8 leaves of 2U above them; every server-leaf run is in-rack.
ONE_RACK_SU = replace(COMPACT, servers_per_rack=32, leaf_rack="server")


def by_sku(p) -> dict[str, int]:
    return {line.sku: line.qty for line in p.bom if not line.spare}


def cages(dev: np.ndarray, port: np.ndarray, ppc: int) -> set:
    return set(zip(dev.tolist(), (port // ppc).tolist()))


def test_server_links_within_the_rack_are_copper_and_links_leaving_it_are_not():
    # Leaves in the server racks: rail j's leaf in rack j mod 2, 4 leaves above 16 servers of 1U.
    p = plan(spec(4 * 32 * 8, leaf=switch(64, twin=True), layout=replace(COMPACT, leaf_rack="server")))
    kinds = np.array([m.kind for m in p.media])[p.links.medium]
    t0 = p.links.tier == 0
    same = np.array([p.devices[a].rack == p.devices[b].rack
                     for a, b in zip(p.links.a_dev.tolist(), p.links.b_dev.tolist())])
    assert set(kinds[t0 & same]) == {"DAC"}  # at most 24U apart + 0.5 m slack
    assert p.links.length_m[t0 & same].max() <= 2
    # Out of the rack a cable climbs to the tray above the racks and down again: beyond any DAC in the catalog.
    assert not (kinds[t0 & ~same] == "DAC").any()
    assert p.links.length_m[t0 & ~same].min() > 3
    t1 = p.links.tier == 1
    assert p.links.length_m[t1].min() > 3
    assert not (kinds[t1] == "DAC").any()


def test_every_link_gets_a_catalog_length_at_least_its_run():
    s = spec(3_000, leaf=switch(64))
    p = plan(s)
    sz = size_fabric(s)
    run = raw_lengths(s, place(s, sz, device_layout(sz)), p.links.a_dev, p.links.b_dev)
    assert (p.links.length_m + 1e-6 >= run).all()
    sold = {c.length_m for c in CABLES} | {f.length_m for f in FIBERS}
    assert set(np.unique(p.links.length_m).tolist()) <= sold


def test_links_in_one_rack_get_their_height_apart_and_the_slack():
    s = spec(256, leaf=switch(64), layout=RackLayout(slack_m=2.5))
    p = plan(s)
    sz = size_fabric(s)
    placement = place(s, sz, device_layout(sz))
    srv = np.array([0, 1])  # the first two servers share the first rack
    assert p.devices[0].rack == p.devices[1].rack
    # One unit apart in the rack (1U = 44.45 mm) plus the slack.
    assert raw_lengths(s, placement, srv[:1], srv[1:]).tolist() == [pytest.approx(2.5 + 0.04445)]


def test_twin_port_optics_count_one_module_per_cage_and_one_fibre_per_link():
    # No cable assemblies: every link is optical.
    p = plan(spec(2 * 32 * 8 - 8, leaf=switch(64, twin=True), cables=()))
    links = p.links
    t0, t1 = links.tier == 0, links.tier == 1
    bom = by_sku(p)
    leaf_cages = cages(links.b_dev[t0], links.b_port[t0], 2) | cages(links.a_dev[t1], links.a_port[t1], 2)
    spine_cages = cages(links.b_dev[t1], links.b_port[t1], 2)
    twin = bom.get("SR-2x400", 0) + bom.get("DR-2x400", 0)
    assert twin == len(leaf_cages) + len(spine_cages)
    assert bom.get("SR-400", 0) + bom.get("DR-400", 0) == int(t0.sum())  # one module per NIC port
    fibres = sum(qty for sku, qty in bom.items() if sku.startswith(("MMF-", "SMF-")))
    assert fibres == len(links)
    # 63 servers: the second SU's leaves have 31 downlinks, their last downlink cage is half used
    # and still takes one module: 16 leaves x (16 downlink + 16 uplink cages).
    assert int(t0.sum()) == 63 * 8
    assert len(leaf_cages) == 16 * 32


def test_splitters_count_once_per_assembly_for_two_nic_ports():
    p = plan(spec(32 * 8, leaf=switch(64, twin=True), layout=ONE_RACK_SU))
    links = p.links
    t0 = np.flatnonzero(links.tier == 0)
    media = [p.media[i] for i in links.medium[t0].tolist()]
    assert {m.kind for m in media} == {"DAC"} and all(m.legs == 2 for m in media)
    splitters = sum(qty for sku, qty in by_sku(p).items() if sku.startswith("SPLIT-"))
    assert splitters == len(t0) // 2 == len(cages(links.b_dev[t0], links.b_port[t0], 2))
    # both legs of one splitter land on NIC ports of the same rail of two servers
    per_cage = Counter(zip(links.b_dev[t0].tolist(), (links.b_port[t0] // 2).tolist()))
    assert set(per_cage.values()) == {2}


def test_optics_and_fibre_of_a_link_always_share_the_fibre_type():
    # Wide rows: leaf-spine runs beyond multimode reach need single-mode optics.
    s = spec(8 * 32 * 8, leaf=switch(64, twin=True), layout=RackLayout(row_pitch_m=25.0))
    p = plan(s)
    optics = {o.sku: o for o in OPTICS}
    fibres = {f.sku: f for f in FIBERS}
    used = {m.fiber for m in p.media if m.fiber}
    assert used == {"MMF", "SMF"}
    for m in p.media:
        if m.kind in ("SR", "DR", "FR"):
            assert optics[m.a_sku].fiber == optics[m.b_sku].fiber == fibres[m.cable_sku].fiber == m.fiber
            assert optics[m.a_sku].reach_m >= m.length_m and optics[m.b_sku].reach_m >= m.length_m


def test_straight_twin_port_cable_joins_two_cages_carrying_both_links():
    # 1 SU of 64-port twin leaves: 32 uplinks over 4 spines = 8 links per pair, whole cage pairs.
    p = plan(spec(32 * 8, leaf=switch(64, twin=True), layout=COMPACT))
    t1 = np.flatnonzero(p.links.tier == 1)
    media = {p.media[i].kind for i in p.links.medium[t1].tolist()}
    assert media == {"AOC"}
    aoc = sum(qty for sku, qty in by_sku(p).items() if sku.startswith("AOC-"))
    assert aoc == len(t1) // 2


def test_optics_with_different_connectors_are_never_paired():
    mpo16 = Optic("SR8-400", "OSFP", 400, 400, 1, "SR", "MMF", 100, price=10, connector="MPO-16/APC")
    mpo12 = Optic("SR4-400", "OSFP", 400, 400, 1, "SR", "MMF", 50, price=500, connector="MPO-12/APC")
    p = plan(spec(256, leaf=switch(64), optics=(mpo16, mpo12), cables=()))
    assert {(m.a_sku, m.b_sku) for m in p.media} == {("SR4-400", "SR4-400")}


def test_a_run_longer_than_any_catalog_reach_names_the_tier():
    short = tuple(o for o in OPTICS if o.media == "SR")
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(8 * 32 * 8, leaf=switch(64), optics=short, cables=(), layout=RackLayout(row_pitch_m=20.0, racks_per_row=16)))
    message = err.value.errors["cabling.leaf-spine"][0]
    assert "50 m" in message and "m but" in message


def test_the_reach_margin_is_the_larger_of_3_m_and_5_percent_of_the_reach():
    assert (reach_margin(50), usable_reach(50)) == (3.0, 47.0)  # multimode SR
    assert (reach_margin(100), usable_reach(500), usable_reach(2_000)) == (5.0, 475.0, 1_900.0)


def test_no_optic_gets_a_fibre_inside_its_reach_margin_when_a_longer_reach_class_is_qualified():
    p = plan(spec(5_000))
    reach = {o.sku: o.reach_m for o in OPTICS}
    optical = [m for m in p.media if m.kind in ("SR", "DR")]
    for m in optical:
        assert m.length_m <= usable_reach(min(reach[m.a_sku], reach[m.b_sku])), m.key
    # The 50 m cords a 50 m SR pair would take at its very limit went to the 500 m DR pair instead.
    counts = np.bincount(p.links.medium.astype(np.int64), minlength=len(p.media))
    assert sum(int(counts[i]) for i, m in enumerate(p.media) if m.kind == "DR" and m.length_m == 50) > 0
    assert "warning.reach_margin" not in {n.code for n in p.notes}


def test_with_nothing_longer_qualified_the_part_is_kept_inside_its_margin_and_the_plan_says_how_many_links():
    short = tuple(o for o in OPTICS if o.media == "SR")
    p = plan(spec(5_000, optics=short, cables=()))
    counts = np.bincount(p.links.medium.astype(np.int64), minlength=len(p.media))
    close = sum(int(counts[i]) for i, m in enumerate(p.media) if m.length_m > usable_reach(50))
    assert close > 0
    notes = [n for n in p.notes if n.code == "warning.reach_margin"]  # one per tier that runs that close
    assert len({n.params["tier"] for n in notes}) == len(notes) >= 1
    assert sum(n.params["links"] for n in notes) == close
    for note in notes:
        assert note.params["reach_m"] == 50 and note.params["usable_m"] == 47
        assert f"{note.params['links']:,} {note.params['tier']} links" in note.text


def test_no_catalog_item_for_the_form_factor_names_the_tier():
    qsfp = switch(64)
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(256, leaf=replace(qsfp, form_factor="QSFP112")))
    assert "no cable assembly or transceiver pair" in err.value.errors["cabling.server-leaf"][0]


def test_spec_without_interconnects_uses_the_seed_catalog():
    p = plan(spec(256, leaf=switch(64), catalog=False))
    assert p.media and all(m.a_sku for m in p.media)
    assert any(line.category == "transceiver" for line in p.bom)


def test_spine_rows_between_compute_rows_shorten_leaf_spine_runs_against_rows_at_the_end():
    middle = plan(spec(8 * 32 * 8, leaf=switch(64)))
    end = plan(spec(8 * 32 * 8, leaf=switch(64), layout=RackLayout(spine_rows="end")))
    t1 = middle.links.tier == 1
    assert middle.links.length_m[t1].mean() < end.links.length_m[t1].mean()
    last_compute_row = max(d.row for d in end.devices if d.role in ("server", "leaf"))
    assert min(d.row for d in end.devices if d.role == "spine") == last_compute_row + 1


def test_leaf_rack_stands_in_the_middle_or_at_the_end_of_its_scale_unit():
    layout = RackLayout(servers_per_rack=4, racks_per_row=32)
    middle = plan(spec(32 * 8, leaf=switch(64), layout=layout))
    end = plan(spec(32 * 8, leaf=switch(64), layout=replace(layout, leaf_rack="end")))
    first_leaf = [next(d for d in p.devices if d.role == "leaf") for p in (middle, end)]
    assert [d.col for d in first_leaf] == [4, 8]  # 8 server racks per SU
    with pytest.raises(SpecError) as err:
        spec(64, layout=replace(layout, leaf_rack="top")).validate()
    assert "layout.leaf_rack" in err.value.errors


def test_a_dgx_twin_port_cage_takes_one_flat_top_module_for_two_adjacent_rails_and_a_cord_per_link():
    # Compact racks and DACs/splitters in the catalog: a single-port NIC would get copper here.
    p = plan(spec(2 * 32 * 8, server=dgx(), leaf=switch(64, twin=True), layout=COMPACT))
    links = p.links
    t0 = np.flatnonzero(links.tier == 0)
    media = {i: p.media[i] for i in np.unique(links.medium[t0]).tolist()}
    assert all(m.b_sku and m.kind in ("SR", "DR") for m in media.values())  # optics only, no copper, no splitter
    assert {m.a_sku for m in media.values()} <= {"SR-2x400-FLT", "DR-2x400-FLT"}  # flat top at the server
    assert {m.b_sku for m in media.values()} <= {"SR-2x400", "DR-2x400"}  # finned at the leaf
    bom = by_sku(p)
    server_cages = cages(links.a_dev[t0], links.a_port[t0], 2)
    assert len(server_cages) == 64 * 4
    assert bom.get("SR-2x400-FLT", 0) + bom.get("DR-2x400-FLT", 0) == 64 * 4
    assert "NIC-CX7" not in bom and "SR-400" not in bom and not any(s.startswith("SPLIT-") for s in bom)
    fibres = sum(qty for sku, qty in bom.items() if sku.startswith(("MMF-", "SMF-")))
    optical = np.array([bool(m.b_sku) for m in p.media])[links.medium]
    assert fibres == int(optical.sum()) and optical[t0].all()  # a DGX cage has two links, each its own cord
    # The two links of one cage are rails 2k and 2k+1 of the server and land on two different leaves.
    by_cage: dict = {}
    for i in t0.tolist():
        by_cage.setdefault((int(links.a_dev[i]), int(links.a_port[i]) // 2), []).append(i)
    for (srv, cage), members in by_cage.items():
        assert sorted(int(links.a_port[i]) for i in members) == [2 * cage, 2 * cage + 1]
        assert len({int(links.b_dev[i]) for i in members}) == 2


def test_a_dgx_cage_without_a_flat_top_twin_port_module_in_the_catalog_is_refused_on_the_server_leaf_tier():
    finned = tuple(o for o in OPTICS if not o.flat_top)
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(256, server=dgx(), leaf=switch(64, twin=True), optics=finned))
    assert list(err.value.errors) == ["cabling.server-leaf"]


def test_a_flat_top_module_never_goes_into_a_switch_cage():
    # Even when it is the cheapest twin-port module, switch cages keep finned ones.
    cheap_flat = replace(OPTICS[4], price=1.0)
    p = plan(spec(2_000, leaf=switch(64, twin=True), optics=OPTICS[:4] + (cheap_flat,), cables=()))
    assert "SR-2x400-FLT" not in by_sku(p)


# Qualification for the fabric and the switch's vendor (issue 12, section 3).

DGX_SEED = "DGXH-G640F+P2EDI36"
SN5600, QM9700 = "920-9N42F-00RI-7C0", "MQM9700-NS2F"


def seed_plan(leaf_sku: str, gpus: int = 1_024, **extra):
    from apps.engine.specio import spec_from_dict
    return plan(spec_from_dict({"gpus": gpus, "server": DGX_SEED, "leaf": {"sku": leaf_sku, "breakout": "2x400G"},
                                **extra}))


def chosen(p) -> set[str]:
    return {line.sku for line in p.bom if line.category in ("transceiver", "cable", "fiber")}


def test_an_infiniband_design_never_gets_an_ethernet_only_item():
    from apps.engine.seedcatalog import seed_catalog
    cat = seed_catalog()
    fabrics = {item.sku: item.fabrics for item in cat.optics + cat.cables + cat.fibers}
    assert any(f == ("ethernet",) for f in fabrics.values())  # the seed has Ethernet-only parts to leave out
    p = seed_plan(QM9700, gpus=5_000)
    assert chosen(p) and all("infiniband" in fabrics[sku] for sku in chosen(p))


def test_an_nvidia_switch_design_gets_nvidia_optics_and_cables_by_default():
    from apps.engine.seedcatalog import seed_catalog
    cat = seed_catalog()
    vendor = {item.sku: item.vendor for item in cat.optics + cat.cables}
    p = seed_plan(SN5600, gpus=5_000)
    modules = {sku for sku in chosen(p) if sku in vendor}
    assert modules and {vendor[sku] for sku in modules} == {"NVIDIA"}


def test_third_party_optics_widen_the_choice_to_other_vendors_qualified_for_the_fabric():
    from apps.engine.seedcatalog import seed_catalog
    cat = seed_catalog()
    vendor = {item.sku: item.vendor for item in cat.optics + cat.cables}
    fabrics = {item.sku: item.fabrics for item in cat.optics + cat.cables + cat.fibers}
    # 2,048 GPUs: 4 links from every leaf to every spine, so a straight twin-port assembly can join a leaf cage
    # to one spine (at 5,000 GPUs each leaf meets each of 64 spines once and only NVIDIA's split optics fit).
    own = seed_plan(SN5600, gpus=2_048)
    open_ = seed_plan(SN5600, gpus=2_048, third_party_optics=True)
    assert {vendor[s] for s in chosen(open_) if s in vendor} - {"NVIDIA"}  # e.g. Arista's AOCs are cheaper
    assert open_.total_cost < own.total_cost
    # InfiniBand with third-party optics allowed: still only parts qualified for InfiniBand.
    ib = seed_plan(QM9700, gpus=5_000, third_party_optics=True)
    assert all("infiniband" in fabrics[s] for s in chosen(ib))


def test_a_part_declared_compatible_with_the_switch_vendor_is_offered():
    acme = replace(switch(64), vendor="Acme")
    parts = dict(optics=tuple(replace(o, vendor="Other") for o in OPTICS), cables=(), fibers=FIBERS)
    with pytest.raises(InfeasibleSpec):
        plan(spec(256, leaf=acme, **parts))
    declared = tuple(replace(o, compatible_vendors=("acme",)) for o in parts["optics"])
    p = plan(spec(256, leaf=acme, optics=declared, cables=(), fibers=FIBERS))
    assert {line.sku for line in p.bom if line.category == "transceiver"} <= {o.sku for o in declared}


def test_when_nothing_qualified_reaches_a_link_the_error_names_the_tier_and_the_missing_reach():
    acme = replace(switch(64), vendor="Acme")
    own_copper = tuple(replace(c, vendor="Acme") for c in CABLES)  # qualified; 400G DACs reach 3 m
    other_optics = tuple(replace(o, vendor="Other") for o in OPTICS)  # reach 500 m, not Acme's
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(8 * 32 * 8, leaf=acme, optics=other_optics, cables=own_copper, fibers=FIBERS,
                  layout=RackLayout(row_pitch_m=20.0)))
    messages = err.value.errors["cabling.server-leaf"]
    assert "server-leaf run is" in messages[0] and "nothing qualified for Ethernet and made by Acme" in messages[0]
    assert "reach at most 3 m" in messages[0]
    details = err.value.details["cabling.server-leaf"]
    assert details[0].code == "cabling.qualified_too_long" and details[0].params["longest_m"] > 3
    assert details[1].code == "cabling.third_party_reach" and details[1].params["reach_m"] == 500
    # The same hall with third-party optics allowed plans with the other vendor's optics.
    p = plan(spec(8 * 32 * 8, leaf=acme, optics=other_optics, cables=own_copper, fibers=FIBERS,
                  layout=RackLayout(row_pitch_m=20.0), third_party_optics=True))
    assert any(line.category == "transceiver" for line in p.bom)


def test_an_infiniband_tier_with_only_ethernet_parts_says_so():
    ib = replace(switch(64, twin=True), fabric="infiniband")
    ethernet = dict(optics=tuple(replace(o, fabrics=("ethernet",)) for o in OPTICS),
                    cables=tuple(replace(c, fabrics=("ethernet",)) for c in CABLES), fibers=FIBERS)
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(1_000, leaf=ib, **ethernet))
    message = err.value.errors["cabling.server-leaf"][0]
    assert "qualified for InfiniBand" in message


def test_twin_port_cages_split_over_two_switches_with_only_straight_cables_qualified_say_no_way_not_reach():
    # 2,048 GPUs: 64 leaves and 32 spines, one link per leaf-spine pair, so each leaf cage serves two spines.
    acme = replace(switch(64, twin=True), vendor="Acme")
    own_cables = tuple(replace(c, vendor="Acme") for c in CABLES)  # straight 800G AOCs reach 30 m
    other_optics = tuple(replace(o, vendor="Other") for o in OPTICS)
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(2_048, leaf=acme, optics=other_optics, cables=own_cables, fibers=FIBERS, layout=ONE_RACK_SU))
    [(field, details)] = err.value.details.items()
    assert field == "cabling.leaf-spine"
    assert details[0].code == "cabling.no_qualified_way" and details[0].params["vendors"] == "Acme"
    assert details[1].code == "cabling.third_party_reach"
