"""InfiniBand fabrics: one fabric per design, and the subnet manager (not IP/BGP) routes it."""
from __future__ import annotations

import ipaddress
from dataclasses import replace

import numpy as np
import pytest

from apps.engine.plan import plan, size
from apps.engine.report import report
from apps.engine.seedcatalog import seed_catalog
from apps.engine.spec import AddressPools, InfeasibleSpec, SpecError
from apps.engine.specio import spec_from_dict

from .builders import spec, switch

IB = replace(switch(128, twin=True, sku="QM9700"), fabric="infiniband")


def test_mixed_fabrics_are_refused_on_the_spine_field_naming_both_switches():
    eth = switch(128, twin=True, sku="SN5600")
    with pytest.raises(InfeasibleSpec) as caught:
        size(spec(5_000, leaf=IB, spine=eth))
    assert set(caught.value.errors) == {"spine"}
    (msg,) = caught.value.details["spine"]
    assert msg.code == "fabric.mixed"
    assert "SN5600" in msg.text and "QM9700" in msg.text
    assert "SN5600 is Ethernet" in msg.text and "QM9700 is InfiniBand" in msg.text


def test_an_infiniband_core_over_ethernet_spines_is_refused_on_the_core_field():
    eth = switch(128, twin=True, sku="SN5600")
    with pytest.raises(InfeasibleSpec) as caught:
        size(spec(5_000, leaf=eth, spine=eth, core=IB, tiers=3))
    assert set(caught.value.errors) == {"core"}


def test_an_unknown_fabric_is_a_field_error():
    with pytest.raises(SpecError) as caught:
        size(spec(1_000, leaf=replace(IB, fabric="omni-path")))
    assert set(caught.value.errors) == {"leaf.fabric"}


def test_an_infiniband_plan_has_no_p2p_loopbacks_or_asns_and_one_ipoib_address_per_nic_port():
    pools = AddressPools(host="10.0.0.0/16")
    p = plan(spec(2_000, leaf=IB, pools=pools))
    tier0 = p.links.tier == 0
    assert not p.links.subnet[~tier0].any()
    assert all(d.asn == 0 and d.loopback == 0 for d in p.devices)
    host = p.links.subnet[tier0].astype(np.int64)
    first = int(ipaddress.ip_network(pools.host).network_address)
    assert list(host) == list(range(first + 1, first + 1 + int(tier0.sum())))  # never the network address
    assert set(p.pools) == {"host"} and p.pools["host"]["used"] == int(tier0.sum())
    assert any(note.code == "fabric.infiniband_subnet_manager" for note in p.notes)


def test_an_infiniband_plan_ignores_p2p_and_loopback_pools_too_small_for_ethernet():
    p = plan(spec(2_000, leaf=IB, pools=AddressPools(host="10.0.0.0/20", p2p="10.16.0.0/31",
                                                        loopback="10.32.0.0/32")))
    assert p.switches["leaf"] > 0


def test_an_infiniband_host_pool_too_small_names_ipoib_addresses():
    with pytest.raises(InfeasibleSpec) as caught:
        plan(spec(2_000, leaf=IB, pools=AddressPools(host="10.0.0.0/28")))
    (msg,) = caught.value.details["pools.host"]
    assert "IPoIB" in msg.text


def test_report_says_the_fabric_and_who_routes_it():
    ib = report(plan(spec(1_000, leaf=IB)))
    eth = report(plan(spec(1_000)))
    assert (ib["fabric"], ib["addressing"]) == ("infiniband", "subnet-manager")
    assert (eth["fabric"], eth["addressing"]) == ("ethernet", "ipv4-bgp")
    assert set(eth["pools"]) == {"host", "p2p", "loopback", "asn"}


def test_the_bom_and_cabling_of_an_infiniband_plan_are_those_of_the_same_hardware_on_ethernet():
    ib = plan(spec(2_000, leaf=IB))
    eth = plan(spec(2_000, leaf=replace(IB, fabric="ethernet")))
    assert [(b.sku, b.qty) for b in ib.bom] == [(b.sku, b.qty) for b in eth.bom]
    assert np.array_equal(ib.links.medium, eth.links.medium)


def test_the_seed_qm9700_is_infiniband_inline_json_too():
    assert seed_catalog().switch("MQM9700-NS2F", "2x400G").fabric == "infiniband"
    inline = spec_from_dict({"gpus": 64, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
                             "leaf": {"ports": 64, "gbps": 400, "fabric": "infiniband"}})
    assert inline.fabric == "infiniband" and inline.infiniband
