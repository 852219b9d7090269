"""Sizing rules and the issue's worked examples, through plan()."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from apps.engine.plan import plan, size
from apps.engine.spec import InfeasibleSpec
from apps.engine.topology import leaf_split, spine_count

from .builders import server, spec, switch


def pair_counts(p, tier: int) -> Counter:
    mask = p.links.tier == tier
    return Counter(zip(p.links.a_dev[mask].tolist(), p.links.b_dev[mask].tolist()))


def test_5000_gpus_on_128_port_switches_is_two_tiers_of_80_leaves_and_64_spines():
    p = plan(spec(5_000, leaf=switch(128)))
    assert p.tiers == 2
    assert p.servers == 625
    assert p.switches == {"leaf": 80, "spine": 64, "core": 0}
    assert p.links_by_tier == {"server-leaf": 5_000, "leaf-spine": 5_120, "spine-core": 0}
    assert len(p.links) == 10_120
    assert p.max_gpus == 8_192
    assert p.max_hops == 3
    assert p.wiring.worst_pair_fraction == 1.0 and p.wiring.as_stated


def test_3000_gpus_on_128_port_switches_is_48_leaves_and_32_spines():
    p = plan(spec(3_000, leaf=switch(128)))
    assert p.tiers == 2
    assert p.switches == {"leaf": 48, "spine": 32, "core": 0}
    assert p.wiring.as_stated


def test_5000_gpus_on_64_port_switches_is_three_tiers_of_160_160_128():
    # 5 pods of 1,024 spine uplinks: 80 cores (the fewest) would give each core 12 or 13 links into a pod and
    # two pods only 1,008 of 1,024 links; 128 cores (the smallest count dividing 1,024) give each core 8 into
    # every pod and each spine 8 links to each of its 4 cores.
    p = plan(spec(5_000, leaf=switch(64)))
    assert p.tiers == 3
    assert p.switches == {"leaf": 160, "spine": 160, "core": 128}
    assert p.wiring.spread == {"leaf-spine": [1, 1], "spine-core": [8, 8], "core-pod": [8, 8]}
    assert p.wiring.worst_pod_pair_links == p.wiring.pod_pair_uplinks == 1_024 and p.wiring.as_stated
    assert p.links_by_tier["server-leaf"] == 5_000
    assert p.pods == 5
    assert p.max_gpus == 65_536
    assert p.max_hops == 5


def test_5000_gpus_on_64_port_switches_in_8_planes_is_two_tiers_of_160_leaves_and_128_spines():
    p = plan(spec(5_000, leaf=switch(64), planes=8))
    assert p.tiers == 2
    assert p.planes == 8
    assert p.switches == {"leaf": 160, "spine": 128, "core": 0}
    assert p.max_gpus == 16_384
    per_plane = Counter(d.plane for d in p.devices if d.role == "spine")
    assert set(per_plane.values()) == {16}
    assert p.wiring.as_stated


@pytest.mark.parametrize("sus, spines", [(1, 4), (2, 8), (3, 16), (4, 16)])
def test_superpod_spine_counts_for_64_port_switches(sus, spines):
    # DGX SuperPOD: 32 nodes per SU, 8 rails, 64x400G leaves and spines.
    p = plan(spec(sus * 32 * 8, leaf=switch(64)))
    assert p.tiers == 2
    assert p.switches["leaf"] == sus * 8
    assert p.switches["spine"] == spines


@pytest.mark.parametrize("gpus, leaves, spines", [(1_016, 32, 16), (760, 24, 16)])
def test_superpod_partly_filled_scale_units_keep_the_spines_of_the_full_count(gpus, leaves, spines):
    p = plan(spec(gpus, leaf=switch(64)))
    assert (p.tiers, p.switches) == (2, {"leaf": leaves, "spine": spines, "core": 0})


def test_spine_count_is_the_smallest_divisor_of_the_uplinks_at_or_above_the_port_need():
    assert spine_count(80, 64, 128) == 64  # 40 ports' worth: 40..63 do not divide 64
    assert spine_count(48, 64, 128) == 32  # 24 needed: 32 is the next divisor
    assert spine_count(24, 32, 64) == 16  # 12..15 do not divide 32
    assert spine_count(20, 32, 64) == 16  # 10 needed, one rail per plane too
    assert spine_count(8, 32, 64) == 4  # divides 32


def test_oversubscription_3_to_1_gives_three_quarters_of_the_leaf_ports_to_servers():
    assert leaf_split(64, 3.0) == (48, 16)
    p = plan(spec(48 * 8 * 2, leaf=switch(64), oversubscription=3.0))
    assert p.su_servers == 48
    assert p.scale_units == 2
    assert p.oversubscription["leaf"] == 3.0
    up = Counter(p.links.a_dev[p.links.tier == 1].tolist())
    assert set(up.values()) == {16}


def test_twin_port_leaves_keep_downlinks_on_whole_cages():
    # 1.5:1 on 64 ports would be 38.4 downlinks: 38 on single ports, 38 on two-port cages too (even).
    assert leaf_split(64, 1.5) == (38, 26)
    assert leaf_split(66, 1.5, ports_per_cage=2) == (38, 28)


def test_every_leaf_has_the_same_number_of_links_to_every_spine_of_its_plane():
    p = plan(spec(5_000, leaf=switch(128)))
    counts = pair_counts(p, 1)
    leaves = [d.index for d in p.devices if d.role == "leaf"]
    spines = [d.index for d in p.devices if d.role == "spine"]
    assert len(counts) == len(leaves) * len(spines)
    assert set(counts.values()) == {1}  # 64 uplinks over 64 spines
    per_spine = Counter(p.links.b_dev[p.links.tier == 1].tolist())
    assert set(per_spine.values()) == {80}  # one link from each of the 80 leaves


def test_partly_filled_last_scale_unit_still_has_a_leaf_per_rail_cabling_all_uplinks():
    p = plan(spec(33 * 8, leaf=switch(64)))  # 33 servers: one full SU of 32 and one of 1
    assert p.scale_units == 2
    last_su_leaves = [d for d in p.devices if d.role == "leaf" and d.su == 1]
    assert len(last_su_leaves) == 8
    up = Counter(p.links.a_dev[p.links.tier == 1].tolist())
    assert all(up[d.index] == 32 for d in last_su_leaves)
    down = Counter(p.links.b_dev[p.links.tier == 0].tolist())
    assert all(down[d.index] == 1 for d in last_su_leaves)


def test_partly_filled_last_pod_gets_spines_for_its_own_leaves():
    # 64-port: pods of 4 SUs of 32 servers; 5 SUs = one full pod and a pod of 1 SU.
    p = plan(spec(5 * 32 * 8, leaf=switch(64), tiers=3))
    sz = p.sizing
    assert (sz.pods, sz.spines_per_pod, sz.spines_last_pod) == (2, 32, 8)
    assert p.switches["spine"] == 40
    by_pod = Counter(d.pod for d in p.devices if d.role == "spine")
    assert by_pod == {0: 32, 1: 8}


def test_three_tier_spines_use_half_their_ports_up_spread_evenly_over_cores():
    p = plan(spec(5_000, leaf=switch(64)))
    t2 = p.links.tier == 2
    up = Counter(p.links.a_dev[t2].tolist())
    assert set(up.values()) == {32}
    assert set(p.links.a_port[t2].tolist()) == set(range(32, 64))
    per_core = Counter(p.links.b_dev[t2].tolist())
    assert set(per_core.values()) == {5 * 8}  # 8 links from each of the 5 pods, 40 of 64 ports
    # uplink k of spine i of a 32-spine pod is slot 32 k + i: with 128 cores each spine strides over 4 of
    # them with 8 links to each, and every core has 8 links into every pod
    per_spine = Counter(a for a, _ in pair_counts(p, 2))
    assert set(per_spine.values()) == {4}
    assert set(pair_counts(p, 2).values()) == {8}
    devices = p.devices
    core_pod = Counter((b, devices[a].pod) for a, b in pair_counts(p, 2).elements())
    assert set(core_pod.values()) == {8} and len(core_pod) == 128 * 5
    assert p.wiring.as_stated and p.wiring.worst_pair_fraction == 1.0


def test_three_tier_leaves_reach_every_spine_of_their_pod_and_plane():
    p = plan(spec(5_000, leaf=switch(64), planes=2))
    devices = p.devices
    t1 = p.links.tier == 1
    for a, b in zip(p.links.a_dev[t1].tolist(), p.links.b_dev[t1].tolist()):
        assert devices[a].pod == devices[b].pod and devices[a].plane == devices[b].plane
    reached = Counter(a for a, _ in pair_counts(p, 1))
    pod_spines = Counter((d.plane, d.pod) for d in devices if d.role == "spine")
    for leaf in (d for d in devices if d.role == "leaf"):
        assert reached[leaf.index] == pod_spines[(leaf.plane, leaf.pod)]


def test_rail_wiring_puts_nic_port_i_on_the_rail_i_leaf_of_the_servers_scale_unit():
    p = plan(spec(2_000, leaf=switch(64), planes=2))
    t0 = np.flatnonzero(p.links.tier == 0)
    for i in t0[::7].tolist():
        srv = p.devices[int(p.links.a_dev[i])]
        leaf = p.devices[int(p.links.b_dev[i])]
        nic_port = int(p.links.a_port[i])
        assert leaf.rail == nic_port == int(p.links.rail[i])
        assert leaf.su == srv.su
        assert leaf.plane == nic_port // 4 == int(p.links.plane[i])
        assert int(p.links.b_port[i]) == srv.index % p.su_servers


def test_auto_tiers_picks_two_when_leaves_fit_the_spine_radix():
    assert size(spec(8_192, leaf=switch(128))).tiers == 2
    assert size(spec(8_193, leaf=switch(128))).tiers == 3


def test_two_tiers_forced_past_the_spine_radix_names_the_tiers_field():
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(5_000, leaf=switch(64), tiers=2))
    assert "tiers" in err.value.errors
    assert "2,048" in err.value.errors["tiers"][0]


def test_three_tiers_past_the_core_radix_names_gpus_with_the_limit():
    with pytest.raises(InfeasibleSpec) as err:
        size(spec(70_000, leaf=switch(64)))
    assert "65,536" in err.value.errors["gpus"][0]


def test_leaf_with_no_whole_cage_left_for_servers_is_infeasible():
    # One twin-port cage: a cage carries one link class, so 1 downlink rounds down to none.
    with pytest.raises(InfeasibleSpec) as err:
        size(spec(8, leaf=switch(2, twin=True)))
    assert "no port for servers" in err.value.errors["oversubscription"][0]


def test_spine_model_can_differ_from_the_leaf_model():
    p = plan(spec(4_096, leaf=switch(64), spine=switch(128)))
    assert p.tiers == 2  # 128 leaves fit 128-port spines
    assert p.switches == {"leaf": 128, "spine": 32, "core": 0}
    spine_ports = p.links.b_port[p.links.tier == 1]
    assert int(spine_ports.max()) < 128


def test_report_figures_bisection_oversubscription_and_free_ports():
    p = plan(spec(5_000, leaf=switch(128)))
    assert p.bisection_gbps == 5_000 * 400 / 2
    assert p.oversubscription == {"leaf": 1.0}
    assert p.free_ports == {"leaf": 80 * 128 - 5_000 - 5_120, "spine": 64 * 128 - 5_120, "core": 0}
    p3 = plan(spec(5_000, leaf=switch(64)))
    assert p3.oversubscription == {"leaf": 1.0, "spine": 1.0}


@pytest.mark.parametrize("kwargs", [
    dict(gpus=5_000, leaf=switch(64)),
    dict(gpus=5_000, leaf=switch(128), discount_pct=7.5),
    dict(gpus=3_000, leaf=switch(64, twin=True), planes=8),
])
def test_size_counts_and_prices_exactly_like_plan(kwargs):
    s = spec(**kwargs)
    sz, p = size(s), plan(s)
    assert (sz.switches, sz.links_by_tier, sz.max_gpus, sz.tiers) == (p.switches, p.links_by_tier, p.max_gpus,
                                                                      p.tiers)
    assert sz.estimated_cost == p.total_cost > 0


def test_device_indexes_and_roles_follow_the_documented_order():
    p = plan(spec(600, leaf=switch(64)))
    roles = [d.role for d in p.devices]
    assert roles == sorted(roles, key=["server", "leaf", "spine", "core"].index)
    assert [d.index for d in p.devices] == list(range(len(p.devices)))
    assert p.devices[0].name == "srv-0000"
    assert p.devices[p.servers].name == "p0-su00-leaf-r0"


def test_servers_with_fewer_rails_and_gpus():
    p = plan(spec(100, leaf=switch(32), server=server(gpus=4, ports=4)))
    assert p.servers == 25
    assert p.links_by_tier["server-leaf"] == 100
    assert p.switches["leaf"] == 8  # 2 SUs of 16 servers, 4 rails


# NVIDIA DGX SuperPOD RA, DGX B300 with Quantum-X800 InfiniBand (RA-11339-001), DGX SuperPOD Architecture,
# Table 3 "Example Compute Fabric Components": SUs of 72 DGX B300 (8 x 800G each), one Quantum-X800 leaf per
# rail per SU (72 nodes down, 72 up: 144 ports of 800G), two tiers. 4 SUs: 32 leaves x 72 / 144 = 16 spines
# would do port-wise, but NVIDIA builds 18, the smallest count >= 16 that divides 72 (8 SUs: 36, not 32).
@pytest.mark.parametrize("sus, leaves, spines", [(1, 8, 4), (2, 16, 8), (4, 32, 18), (8, 64, 36), (18, 144, 72)])
def test_dgx_superpod_b300_xdr_table_3(sus, leaves, spines):
    p = plan(spec(sus * 72 * 8, server=server(gpus=8, ports=8, gbps=800), leaf=switch(144, gbps=800),
                  nic=None, catalog=False))
    assert p.tiers == 2 and p.scale_units == sus and p.su_servers == 72
    assert p.switches == {"leaf": leaves, "spine": spines, "core": 0}
    assert p.links_by_tier["server-leaf"] == p.links_by_tier["leaf-spine"] == sus * 576
    assert p.wiring.as_stated and p.wiring.spread["leaf-spine"][0] == p.wiring.spread["leaf-spine"][1]
