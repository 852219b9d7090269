"""The front-end, storage and out-of-band networks (engine.networks), pinned against NVIDIA's DGX SuperPOD.

Reference: NVIDIA DGX SuperPOD Reference Architecture, DGX H100 (RA-11333-001), "Network Fabrics"
(docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-h100/latest/network-fabrics.html):
the 4-SU SuperPOD has 127 DGX H100 nodes on 32 leaf and 16 spine compute switches; every DGX has a pair of
in-band management ports and a pair of storage ports that "provide parallel pathways into the DGX", and one
OOB port for BMC access; the OOB fabric "connects the management ports of all devices including DGX ...,
storage, networking gear". NVIDIA's DGX GB200/GB300 north-south deployment guide names the OOB switch:
SN2201, 48 x 1GBASE-T.
"""
from __future__ import annotations

import csv
import ipaddress
import json

import numpy as np
import pytest

from apps.engine.cli import main
from apps.engine.networks.cluster import plan_cluster
from apps.engine.networks.csvrows import cluster_devices
from apps.engine.plan import plan
from apps.engine.report import report
from apps.engine.spec import InfeasibleSpec, SpecError
from apps.engine.specio import spec_from_dict, spec_to_dict

SN5600_400G = {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}
SUPERPOD = {
    "name": "SuperPOD 4 SU", "gpus": 1016, "server": "DGXH-G640F+P2EDI36", "leaf": {"sku": "MQM9700-NS2F"},
    "frontend": {"ports_per_server": 2, "gbps": 400, "leaf": SN5600_400G},
    "storage": {"nodes": 32, "ports_per_node": 2, "gbps": 400, "ports_per_server": 2, "leaf": SN5600_400G},
    "oob": {"leaf": {"ports": 48, "gbps": 1}},
}


@pytest.fixture(scope="module")
def superpod():
    return plan_cluster(spec_from_dict(SUPERPOD))


def test_backend_is_the_superpod_compute_fabric(superpod):
    assert superpod.servers == 127
    assert superpod.switches == {"leaf": 32, "spine": 16, "core": 0}


def test_frontend_gives_each_dgx_its_pair_of_in_band_ports_on_two_leaves(superpod):
    fe = superpod.networks["frontend"]
    links = fe.links
    edge = links.tier == 0
    assert int(edge.sum()) == 127 * 2
    servers, counts = np.unique(links.a_dev[edge], return_counts=True)
    assert servers.tolist() == list(range(127)) and set(counts.tolist()) == {2}
    # The two ports of a DGX land on two different leaves (parallel pathways).
    pairs = {}
    for a, b in zip(links.a_dev[edge].tolist(), links.b_dev[edge].tolist()):
        pairs.setdefault(a, set()).add(b)
    assert all(len(leaves) == 2 for leaves in pairs.values())
    assert set(links.a_port_name[edge].tolist()) == {"fe0", "fe1"}
    # 128 x 400G leaves at 1:1: 64 endpoint ports each -> 254 ports on 4 leaves, uplinks to 2 spines.
    assert fe.switches == {"leaf": 4, "spine": 2, "core": 0}
    assert fe.links_by_tier["leaf-spine"] == 4 * 64


def test_storage_serves_every_dgx_pair_and_every_storage_node(superpod):
    st = superpod.networks["storage"]
    edge = st.links.tier == 0
    assert int(edge.sum()) == 127 * 2 + 32 * 2
    nodes = [d for d in st.devices if d.role == "storage"]
    assert len(nodes) == 32 and all(d.ports == 2 for d in nodes)
    node_ids = {d.index for d in nodes}
    assert sum(1 for a in st.links.a_dev[edge].tolist() if a in node_ids) == 64
    assert st.endpoints == {"servers": 127, "storage_nodes": 32, "ports": 318}


def test_every_server_storage_node_and_switch_has_exactly_one_oob_link(superpod):
    oob = superpod.networks["oob"]
    access = oob.links.a_dev[oob.links.tier == 0].tolist()
    managed = [d.index for d in cluster_devices(superpod) if not d.name.startswith("oob-")]
    assert sorted(access) == sorted(managed)  # each exactly once
    assert len(access) == 127 + 48 + 32 + 6 + 10
    # One management switch per rack, each within its 46 device ports (48 - 2 uplinks).
    per_leaf = np.bincount(oob.links.b_dev[oob.links.tier == 0] - oob.devices[0].index)
    assert per_leaf.max() <= 46
    assert set(oob.links.a_port_name[oob.links.tier == 0].tolist()) == {"bmc", "mgmt0"}
    # In-rack copper: up the rack to its management switch (at most 48U = 2.1 m) plus the layout's 3 m slack.
    assert set(oob.links.length_m[oob.links.tier == 0].tolist()) <= {5.0, 7.0}
    assert {m.kind for m in oob.media} <= {"Cat6A", "SMF"}


def test_backend_links_are_the_same_with_or_without_the_other_networks(superpod, tmp_path):
    alone = plan(spec_from_dict({k: v for k, v in SUPERPOD.items() if k not in ("frontend", "storage", "oob")}))
    for name in ("a_dev", "a_port", "b_dev", "b_port", "tier", "plane", "rail", "length_m", "medium", "subnet"):
        assert np.array_equal(getattr(alone.links, name), getattr(superpod.links, name)), name
    assert [d.name for d in alone.devices] == [d.name for d in superpod.devices]
    # And in the links CSV, byte for byte.
    for name, data in (("alone", {k: v for k, v in SUPERPOD.items() if k not in ("frontend", "storage", "oob")}),
                       ("all", SUPERPOD)):
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
        assert main(["plan", str(tmp_path / f"{name}.json"), "--links", str(tmp_path / f"{name}.csv")]) == 0
    alone_rows = (tmp_path / "alone.csv").read_text().splitlines()
    all_rows = (tmp_path / "all.csv").read_text().splitlines()
    assert all_rows[:len(alone_rows)] == alone_rows
    networks = {row["network"] for row in csv.DictReader(open(tmp_path / "all.csv"))}
    assert networks == {"backend", "frontend", "storage", "oob"}
    storage_roles = {row["a_role"] for row in csv.DictReader(open(tmp_path / "all.csv")) if row["network"] == "storage"}
    assert "storage" in storage_roles


def test_report_lists_each_network_and_total_cost_is_their_sum(superpod):
    out = report(superpod)
    nets = out["networks"]
    assert set(nets) == {"backend", "frontend", "storage", "oob"}
    for key in nets:
        assert {"switches", "links", "cost", "power"} <= set(nets[key])
    assert out["total_cost"] == pytest.approx(sum(n["cost"]["total_cost"] for n in nets.values()))
    assert nets["frontend"]["cost"]["total_cost"] > 0 and nets["storage"]["bom"]


def test_addresses_of_all_networks_never_overlap_and_oob_never_hands_out_network_or_broadcast(superpod):
    taken = set(superpod.links.subnet.tolist()) | set((superpod.links.subnet + 1).tolist())
    for key in ("frontend", "storage"):
        links = superpod.networks[key].links
        ips = set(links.a_ip.tolist()) | set(links.b_ip.tolist())
        assert not ips & taken
        taken |= ips
    oob = superpod.networks["oob"].links
    ips = set(oob.a_ip.tolist()) | set(oob.b_ip.tolist())
    assert not ips & taken
    for ip, net, prefix in zip(oob.a_ip.tolist(), oob.subnet.tolist(), oob.prefix.tolist()):
        network = ipaddress.ip_network((net, int(prefix)))
        assert ipaddress.ip_address(ip) in network
        if prefix < 31:
            assert ip not in (int(network.network_address), int(network.broadcast_address))


def test_spec_round_trips_with_the_networks():
    spec = spec_from_dict(SUPERPOD)
    assert spec_from_dict(spec_to_dict(spec)) == spec


def test_converged_storage_puts_storage_nodes_on_the_frontend():
    data = dict(SUPERPOD, storage={"nodes": 8, "ports_per_node": 2, "converged": True})
    result = plan_cluster(spec_from_dict(data))
    assert result.networks["storage"].converged and result.networks["storage"].switches["leaf"] == 0
    assert result.networks["frontend"].endpoints["storage_nodes"] == 8
    assert spec_from_dict(dict(SUPERPOD, storage="frontend")).storage.converged


def _errors(data) -> dict:
    with pytest.raises(SpecError) as info:
        plan_cluster(spec_from_dict(data))
    return info.value.errors


def test_frontend_on_a_server_without_frontend_ports_is_a_field_error():
    data = dict(SUPERPOD, server={"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
                frontend=dict(SUPERPOD["frontend"], server_ports=0))
    assert "no front-end ports" in " ".join(_errors(data)["frontend.ports_per_server"])


def test_management_switch_with_fewer_ports_than_a_rack_needs_is_a_field_error():
    with pytest.raises(InfeasibleSpec) as info:
        plan_cluster(spec_from_dict(dict(SUPERPOD, oob={"leaf": {"ports": 8, "gbps": 1}})))
    assert "management ports" in " ".join(info.value.errors["oob.leaf.ports"])


def test_overlapping_pools_between_networks_are_a_field_error():
    data = dict(SUPERPOD, frontend=dict(SUPERPOD["frontend"], pools={"host": "10.0.0.0/14"}))
    assert "overlaps pools.host" in " ".join(_errors(data)["frontend.pools.host"])
    data = dict(SUPERPOD, oob={"leaf": {"ports": 48, "gbps": 1}, "pools": {"host": "10.64.0.0/16"}})
    assert "overlaps storage.pools.host" in " ".join(_errors(data)["oob.pools.host"])


def test_converged_storage_with_its_own_ports_per_server_is_a_field_error():
    data = dict(SUPERPOD, storage={"nodes": 8, "converged": True, "ports_per_server": 2})
    assert _errors(data)["storage.ports_per_server"]


def test_network_switch_speed_must_match_the_network():
    data = dict(SUPERPOD, frontend={"ports_per_server": 2, "gbps": 200, "leaf": {"ports": 64, "gbps": 400}})
    assert _errors(data)["frontend.leaf"]


def test_a_design_without_other_networks_reports_only_the_backend():
    data = {k: v for k, v in SUPERPOD.items() if k not in ("frontend", "storage", "oob")}
    out = report(plan_cluster(spec_from_dict(data)))
    assert set(out["networks"]) == {"backend"}
    assert out["total_cost"] == out["networks"]["backend"]["cost"]["total_cost"]


def test_storage_nodes_stand_in_rows_of_their_own_and_frontend_switches_in_network_rows(superpod):
    backend_rows = max(d.row for d in superpod.devices)
    nodes = [d for d in superpod.networks["storage"].devices if d.role == "storage"]
    assert min(d.row for d in nodes) > backend_rows
    # The front-end spines join the central network row of the backend spines when they fit, else rows after.
    network_rows = {d.row for d in superpod.devices if d.role in ("spine", "core")}
    spines = [d for d in superpod.networks["frontend"].devices if d.role == "spine"]
    assert all(d.row in network_rows or d.row > backend_rows for d in spines)
    assert not any(d.row == s.row and d.col == s.col for d in spines for s in superpod.devices)


def test_storage_nodes_with_more_ports_than_a_server_use_each_port_once():
    # Nodes of 4 ports beside servers of 2: each node is 2 endpoint groups, numbered on from the first.
    data = dict(SUPERPOD, storage=dict(SUPERPOD["storage"], nodes=8, ports_per_node=4))
    st = plan_cluster(spec_from_dict(data)).networks["storage"]
    nodes = {d.index for d in st.devices if d.role == "storage"}
    edge = st.links.tier == 0
    ports: dict[int, list[int]] = {}
    for a, port in zip(st.links.a_dev[edge].tolist(), st.links.a_port[edge].tolist()):
        if a in nodes:
            ports.setdefault(a, []).append(port)
    assert len(ports) == 8
    for numbers in ports.values():
        assert len(numbers) == 4 and len(set(numbers)) == 4
        assert max(numbers) - min(numbers) == 3  # the node's 4 ports in a row
