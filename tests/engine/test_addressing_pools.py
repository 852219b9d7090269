"""No host address is ever a network or broadcast address of its subnet, in any pool (property test)."""
from __future__ import annotations

import ipaddress
from dataclasses import replace

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.plan import plan
from apps.engine.spec import AddressPools, InfeasibleSpec

from .builders import spec, switch

IB = replace(switch(64, sku="QM9700-like"), fabric="infiniband")


def _host_addresses(p):
    """(address, subnet network) of every address a device holds, by pool."""
    links = p.links
    tier0 = links.tier == 0
    subnet = links.subnet.astype(np.int64)
    if p.spec.infiniband:
        net = ipaddress.ip_network(p.spec.pools.host)
        return [(int(a), net) for a in subnet[tier0]]
    out = []
    for s in subnet:
        net = ipaddress.ip_network((int(s), 31))
        out += [(int(s), net), (int(s) + 1, net)]
    out += [(d.loopback, ipaddress.ip_network((d.loopback, 32))) for d in p.devices if d.role != "server"]
    return out


def _assert_no_network_or_broadcast(p):
    for address, net in _host_addresses(p):
        ip = ipaddress.IPv4Address(address)
        assert ip in net
        if net.prefixlen < 31:  # RFC 3021: a /31 or /32 has neither
            assert ip != net.network_address, f"{ip} is the network address of {net}"
            assert ip != net.broadcast_address, f"{ip} is the broadcast address of {net}"


def test_the_infiniband_host_of_a_10_0_0_0_12_pool_is_not_the_network_address():
    p = plan(spec(1_000, leaf=IB, pools=AddressPools(host="10.0.0.0/12")))
    first = ipaddress.IPv4Address(int(p.links.subnet[0]))
    assert str(first) == "10.0.0.1"
    _assert_no_network_or_broadcast(p)
    assert p.pools["host"]["first"] == "10.0.0.1"


def test_an_infiniband_pool_exactly_full_keeps_the_broadcast_address_free():
    ports = plan(spec(256, leaf=IB, pools=AddressPools(host="10.0.0.0/16"))).pools["host"]["used"]
    prefix = 32 - (ports + 2 - 1).bit_length()
    p = plan(spec(256, leaf=IB, pools=AddressPools(host=f"10.0.0.0/{prefix}")))
    _assert_no_network_or_broadcast(p)


@given(gpus=st.integers(8, 600), infiniband=st.booleans(), host_octet=st.integers(0, 15),
       host_prefix=st.integers(12, 22), p2p_prefix=st.integers(14, 22), loop_prefix=st.integers(20, 26))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_pool_hands_out_a_network_or_broadcast_address(gpus, infiniband, host_octet, host_prefix, p2p_prefix,
                                                          loop_prefix):
    host = ipaddress.ip_network((f"10.{host_octet * 16}.0.0", host_prefix), strict=False)
    pools = AddressPools(host=str(host), p2p=str(ipaddress.ip_network((f"172.16.0.0", p2p_prefix), strict=False)),
                         loopback=str(ipaddress.ip_network(("192.168.0.0", loop_prefix), strict=False)))
    try:
        p = plan(spec(gpus, leaf=IB if infiniband else switch(64), pools=pools))
    except InfeasibleSpec as exc:
        assert set(exc.errors) <= {"pools.host", "pools.p2p", "pools.loopback"}
        return
    _assert_no_network_or_broadcast(p)
