"""Invariants of the hall placement (engine.hall) over random specs: racks never overlap, overhang or pass their
budget, and no cable is shorter than the floor distance between its racks."""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.networks.cluster import plan_cluster
from apps.engine.spec import HallLayout, RackLayout, SpecError
from apps.engine.networks.spec import OobSpec, StorageSpec
from tests.engine.builders import replace, server, spec, switch


@st.composite
def other_networks(draw) -> dict:
    """Spec keywords for an out-of-band and a storage network, each present or not."""
    extra = {}
    if draw(st.booleans()):
        extra["oob"] = OobSpec(leaf=replace(switch(48, gbps=1), rack_units=1, sku="OOB"))
    if draw(st.booleans()):
        extra["storage"] = StorageSpec(nodes=draw(st.integers(1, 24)), ports_per_node=2, gbps=400,
                                       ports_per_server=0, leaf=switch(64))
    return extra


@st.composite
def designs(draw):
    server_u = draw(st.integers(1, 8))
    server_w = draw(st.sampled_from([0.0, 800.0, 6_500.0, 10_200.0, 14_300.0]))
    leaf = switch(draw(st.sampled_from([32, 64])), twin=draw(st.booleans()), rack_units=draw(st.integers(1, 4)))
    budget = draw(st.sampled_from([0.0, 12.0, 25.0, 45.0, 130.0]))
    positions = draw(st.integers(2, 20))
    reserved = tuple(draw(st.lists(st.tuples(st.integers(1, 6), st.integers(1, positions)), max_size=6, unique=True)))
    zones = draw(st.sampled_from([(), (("network", (2, 5)),), (("network", (3,)), ("storage", (4,)))]))
    layout = RackLayout(
        servers_per_rack=draw(st.sampled_from([0, 1, 2, 4, 8, 16])), rack_units=draw(st.integers(24, 52)),
        rack_power_kw=budget, rack_power_basis=draw(st.sampled_from(["typical", "maximum"])),
        leaf_rack=draw(st.sampled_from(["middle", "end", "server"])), spine_rows=draw(st.sampled_from(["middle", "end"])),
        switches_per_rack=draw(st.integers(1, 16)), slack_m=draw(st.sampled_from([0.0, 1.0, 3.0])),
        racks_per_row=positions, hall=HallLayout(positions=positions, reserved=reserved, zones=zones),
        structured_cabling=draw(st.booleans()))
    extra = draw(other_networks())
    gpus = draw(st.integers(8, 3_000))
    return spec(gpus, server=replace(server(), rack_units=server_u, power_w=server_w), leaf=leaf, layout=layout,
                tiers=draw(st.sampled_from(["auto", 3])), **extra)


def cluster_links(result):
    yield result.links.a_dev, result.links.b_dev, result.links.length_m
    for net in result.networks.values():
        yield net.links.a_dev, net.links.b_dev, net.links.length_m


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(designs())
def test_racks_never_overlap_overhang_or_pass_their_budget_and_cables_reach_across_the_floor(design):
    try:
        result = plan_cluster(design)
    except SpecError as refused:  # bad input is refused by field, never half placed
        assert refused.errors and all(name for name in refused.errors)
        return
    hall = result.hall
    placed = set()
    for rack in hall.racks:
        used = np.zeros(rack.units + 2, dtype=int)
        for item in rack.items:
            assert 1 <= item.u and item.top_u <= rack.units, (rack.name, item)  # nothing overhangs
            used[item.u:item.top_u + 1] += 1
            if item.device >= 0:
                placed.add(item.device)
        assert used.max() <= 1, rack.name  # no two items share a unit
        if rack.power_budget_w:
            # placement fills racks by their devices; the optics in their ports (known once the lengths are)
            # may take a rack over its budget, and then the plan says so by name
            said = {n.params.get("rack") for n in result.notes if n.code == "warning.rack_over_budget_optics"}
            assert rack.power_w <= rack.power_budget_w + 1e-6 or rack.name in said, rack.name
    devices = len(result.devices) + sum(len([d for d in n.devices if d.index >= len(result.devices)])
                                        for n in result.networks.values())
    assert len(placed) == devices  # every device of every network has its rack
    for a, b, length in cluster_links(result):
        if not len(a):
            continue
        ra, rb = hall.device_rack[a.astype(np.int64)], hall.device_rack[b.astype(np.int64)]
        floor = np.hypot(hall.rack_x_m[ra] - hall.rack_x_m[rb], hall.rack_y_m[ra] - hall.rack_y_m[rb])
        assert (length.astype(np.float64) + 1e-6 >= floor).all()
    # Devices agree with their racks.
    for device in result.devices[:50]:
        rack = hall.rack_of(device.index)
        assert rack.name == device.rack and rack.row == device.row and rack.position == device.col
