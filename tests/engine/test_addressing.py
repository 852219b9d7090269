"""IP and ASN plan: /31 per link, /32 per switch, RFC 7938 ASNs, pools checked."""
from __future__ import annotations

import ipaddress
from collections import Counter

import numpy as np
import pytest

from apps.engine.plan import plan
from apps.engine.spec import AddressPools, InfeasibleSpec, SpecError

from .builders import spec, switch


def network(cidr: str) -> tuple[int, int]:
    net = ipaddress.ip_network(cidr)
    return int(net.network_address), int(net.broadcast_address)


def test_every_link_gets_its_own_31_from_the_right_pool_and_switches_unique_loopbacks():
    pools = AddressPools(host="10.0.0.0/16", p2p="10.1.0.0/16", loopback="10.2.0.0/24")
    p = plan(spec(2_000, leaf=switch(64), pools=pools))
    subnet = p.links.subnet.astype(np.int64)
    tier0 = p.links.tier == 0
    assert len(np.unique(subnet)) == len(subnet)
    assert (subnet % 2 == 0).all()
    lo, hi = network(pools.host)
    assert ((subnet[tier0] >= lo) & (subnet[tier0] + 1 <= hi)).all()
    lo, hi = network(pools.p2p)
    assert ((subnet[~tier0] >= lo) & (subnet[~tier0] + 1 <= hi)).all()
    loopbacks = [d.loopback for d in p.devices if d.role != "server"]
    lo, hi = network(pools.loopback)
    assert len(set(loopbacks)) == len(loopbacks) and all(lo <= a <= hi for a in loopbacks)
    assert all(d.loopback == 0 and d.asn == 0 for d in p.devices if d.role == "server")
    assert p.pools["host"]["used"] == 2 * int(tier0.sum())
    assert p.pools["loopback"]["used"] == len(loopbacks)


def test_two_tier_asns_unique_per_leaf_and_shared_by_the_spines_of_a_plane():
    p = plan(spec(2_048, leaf=switch(64), planes=2))
    leaves = [d.asn for d in p.devices if d.role == "leaf"]
    assert len(set(leaves)) == len(leaves)
    spine_asn = {d.plane: set() for d in p.devices if d.role == "spine"}
    for d in p.devices:
        if d.role == "spine":
            spine_asn[d.plane].add(d.asn)
    assert all(len(v) == 1 for v in spine_asn.values())
    assert len(set().union(*spine_asn.values()) | set(leaves)) == len(leaves) + 2
    assert min(leaves + [a for v in spine_asn.values() for a in v]) == 4_200_000_000


def test_three_tier_asns_shared_per_pod_spine_group_and_per_plane_core_group():
    p = plan(spec(5_000, leaf=switch(64)))
    spines = Counter((d.pod, d.asn) for d in p.devices if d.role == "spine")
    assert len({pod for pod, _ in spines}) == len(spines) == 5
    cores = {d.asn for d in p.devices if d.role == "core"}
    assert len(cores) == 1
    leaves = [d.asn for d in p.devices if d.role == "leaf"]
    assert len(set(leaves)) == 160
    assert not (cores & set(leaves)) and not (cores & {asn for _, asn in spines})


def test_a_host_pool_too_small_names_the_pool_with_needed_and_available():
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(256, leaf=switch(64), pools=AddressPools(host="10.0.0.0/24")))
    message = err.value.errors["pools.host"][0]
    assert "needs 512 addresses" in message and "holds 256" in message and "/23" in message


def test_p2p_and_loopback_pools_too_small_are_reported_together():
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(5_000, leaf=switch(64), pools=AddressPools(p2p="10.16.0.0/24", loopback="10.32.0.0/28")))
    assert set(err.value.errors) == {"pools.p2p", "pools.loopback"}


def test_overlapping_or_malformed_pools_are_spec_errors():
    with pytest.raises(SpecError) as err:
        plan(spec(64, leaf=switch(64), pools=AddressPools(host="10.0.0.0/8", p2p="10.16.0.0/12")))
    assert "overlaps pools.host" in err.value.errors["pools.p2p"][0]
    with pytest.raises(SpecError) as err:
        plan(spec(64, leaf=switch(64), pools=AddressPools(loopback="10.32.0.1/16")))
    assert "host bits" in err.value.errors["pools.loopback"][0]
    with pytest.raises(SpecError) as err:
        plan(spec(64, leaf=switch(64), pools=AddressPools(host="fd00::/64")))
    assert "pools.host" in err.value.errors


def test_asn_range_past_the_last_4_byte_asn_is_infeasible():
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(5_000, leaf=switch(64), pools=AddressPools(asn_base=4_294_967_200)))
    assert "4,294,967,294" in err.value.errors["pools.asn_base"][0]


def test_asn_range_running_out_of_the_2_byte_private_block_into_reserved_asns_is_infeasible():
    # 5,000 GPUs on 64-port switches: 160 leaves + 5 pod spine groups + 1 core group = 166 ASNs.
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(5_000, leaf=switch(64), pools=AddressPools(asn_base=65_400)))  # 65,400..65,565 holds 65,535
    text = err.value.errors["pools.asn_base"][0]
    assert "65,535" in text and "4,200,000,000" in text
    for reserved_base in (23_456, 64_496):  # AS_TRANS (RFC 6793), documentation ASNs (RFC 5398)
        with pytest.raises(InfeasibleSpec):
            plan(spec(64, leaf=switch(64), pools=AddressPools(asn_base=reserved_base - 3)))
    asns = [d.asn for d in plan(spec(5_000, leaf=switch(64), pools=AddressPools(asn_base=64_512))).devices if d.asn]
    assert min(asns) == 64_512 and max(asns) == 64_512 + 165 <= 65_534  # the 2-byte private block is fine
