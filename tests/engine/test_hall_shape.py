"""The default hall a data-centre engineer would draw (engine.hall.geometry, engine.hall.cooling): near square,
rows in hot/cold aisle pairs, no cable run past its medium's reach, every rack's cooling named or warned of, and
rack-scale racks stacked as NVIDIA builds them."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.hall import geometry
from apps.engine.hall.cooling import ORDER
from apps.engine.networks.cluster import plan_cluster
from apps.engine.plan import plan
from apps.engine.seedcatalog import seed_catalog
from apps.engine.spec import RackLayout, SpecError
from apps.engine.specio import spec_from_dict
from tests.engine.builders import replace, server, spec, switch
from tests.engine.test_placement_properties import other_networks


@st.composite
def default_halls(draw):
    """Random designs on the default layout (only servers per rack and the site's cooling vary)."""
    server_u = draw(st.sampled_from([1, 2, 4, 8]))
    server_w = draw(st.sampled_from([0.0, 800.0, 6_500.0, 10_200.0, 14_300.0]))
    leaf = switch(draw(st.sampled_from([32, 64])), twin=draw(st.booleans()), rack_units=draw(st.integers(1, 2)))
    layout = RackLayout(servers_per_rack=draw(st.sampled_from([0, 1, 2, 4, 8])),
                        cooling=draw(st.sampled_from(["air", "rear-door", "liquid"])),
                        leaf_rack=draw(st.sampled_from(["middle", "end", "server"])),
                        spine_rows=draw(st.sampled_from(["middle", "end"])))
    extra = draw(other_networks())
    gpus = draw(st.integers(8, 40_000))
    return spec(gpus, server=replace(server(), rack_units=server_u, power_w=server_w), leaf=leaf, layout=layout,
                tiers=draw(st.sampled_from(["auto", 3])), **extra)


def _reach(design) -> dict[str, float]:
    catalog = seed_catalog()
    out = {o.sku: float(o.reach_m) for o in catalog.optics.values()} if isinstance(catalog.optics, dict) else {
        o.sku: float(o.reach_m) for o in catalog.optics}
    out.update({o.sku: float(o.reach_m) for o in design.optics})
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(default_halls())
def test_a_default_hall_is_near_square_its_runs_reach_and_its_racks_are_cooled_or_warned_of(design):
    try:
        result = plan_cluster(design)
    except SpecError as refused:  # bad input is refused by field, never half placed
        assert refused.errors and all(name for name in refused.errors)
        return
    hall = result.hall
    assert geometry.aspect(hall.hall.width_m, hall.hall.depth_m) <= design.layout.max_aspect + 1e-9
    # Rows in pairs: the two rows of a pair face each other across the cold aisle.
    ys = {rack.row: rack.y_m for rack in hall.racks}
    for row, y in ys.items():
        if row % 2 == 0 and row + 1 in ys:
            assert ys[row + 1] - y == pytest.approx(design.layout.rack_depth_m + design.layout.cold_aisle_m)
    # No run longer than its medium allows: optics by the shorter module's reach, cables by their length.
    reach = _reach(design)
    tables = [(result.links, result.media)] + [(net.links, net.media) for net in result.networks.values()]
    for links, media in tables:
        for k, medium in enumerate(media):
            runs = links.length_m[links.medium == k]
            if not runs.shape[0]:
                continue
            if medium.b_sku:
                limit = min(reach.get(medium.a_sku, np.inf), reach.get(medium.b_sku, np.inf))
            else:
                limit = medium.length_m
            assert float(runs.max()) <= limit + 1e-6, (medium.key, float(runs.max()), limit)
    # Cooling by density: every rack's cooling from its draw; beyond what the site offers, a warning.
    short = [rack for rack in hall.racks if ORDER[rack.cooling] > ORDER[design.layout.cooling]]
    for rack in hall.racks:
        kw = rack.power_w / 1000
        assert rack.cooling == ("air" if kw <= design.layout.air_limit_kw else
                                "rear-door" if kw <= design.layout.rear_door_limit_kw else "liquid")
    codes = [note.code for note in result.notes]
    assert bool(short) == ("warning.rack_cooling" in codes)


def _65k_hopper():
    return spec_from_dict({"gpus": 65_536, "server": "DGXH-G640F+P2EDI36",
                           "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}})


def test_the_65k_gpu_hall_is_near_square_not_a_corridor():
    result = plan(_65k_hopper())
    hall = result.hall.hall
    # Was 16 positions x 162 rows, 9.6 m x 388.8 m; now rows of about a hundred racks in segments of 20.
    assert geometry.aspect(hall.width_m, hall.depth_m) <= 1.5 and hall.rows <= 40
    assert max(result.links.length_m) <= 150
    notes = [note for note in result.notes if note.code == "warning.rack_cooling"]
    assert notes and notes[0].params["needed"] == "rear-door" and notes[0].params["power_kw"] == 40.8


def _nvl72(gpus=2_304, **layout):
    return spec_from_dict({"gpus": gpus, "server": "DGX-GB200-NVL72-TRAY", "leaf": "MQM9700-NS2F",
                           "oob": {"leaf": {"ports": 48, "gbps": 1}}, "layout": {"cooling": "liquid", **layout}})


def test_an_nvl72_rack_stacks_as_nvidia_builds_it():
    result = plan_cluster(_nvl72())
    rack = next(r for r in result.hall.racks if r.kind == "compute")
    order = [item.role for item in sorted(rack.items, key=lambda item: item.u)]
    # Power shelves, 8 compute trays, 9 NVLink switch trays, 10 compute trays, power shelves, the management switch.
    expected = ["power-shelf"] * 4 + ["server"] * 8 + ["nvlink-switch"] * 9 + ["server"] * 10 + ["power-shelf"] * 4
    assert order[:len(expected)] == expected and order[-1] == "leaf" and rack.items[-1].network == "oob"
    assert rack.cooling == "liquid"


def test_nvl72_network_racks_share_rows_instead_of_a_row_each():
    result = plan_cluster(_nvl72())
    racks = result.hall.racks
    rows = {r.row for r in racks}
    compute = sum(r.kind == "compute" for r in racks)
    network_only_rows = [row for row in rows if all(r.kind != "compute" for r in racks if r.row == row)]
    # Was 9 rows for 32 NVL72 racks, 5 of them a network rack or two each; now one central network row at most.
    assert compute == 32 and len(network_only_rows) <= 1 and len(rows) <= 6


def test_an_nvl72_rack_on_an_air_cooled_site_is_warned_of():
    result = plan_cluster(_nvl72(gpus=576, cooling="air"))
    assert any(note.code == "warning.rack_scale_cooling" for note in result.notes)
    assert {r.cooling for r in result.hall.racks if r.kind == "compute"} == {"liquid"}


def test_a_room_too_shallow_is_refused_on_its_depth():
    with pytest.raises(SpecError) as refused:
        plan(replace(_65k_hopper(), layout=RackLayout(hall=replace(RackLayout().hall, depth_m=30.0, width_m=40.0))))
    assert "layout.hall.depth_m" in refused.value.errors
