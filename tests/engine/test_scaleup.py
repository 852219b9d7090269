"""Scale-up domains against the published counts of each system.

- DGX H100 (in-server, NVLink 4): 8 GPUs per domain, 900 GB/s per GPU.
- DGX GB200 NVL72: "Each DGX GB200 rack is built with 18 compute trays and 9 NVLink switch trays ... 72 GPUs
  ... 1.8 TB/s" (DGX SuperPOD GB200 RA, Network Fabrics); "each SU contains 8 DGX GB200 systems" (Abstract):
  one SU is 576 GPUs = 8 racks = 144 compute trays with 4x ConnectX-7 400G each (DGX GB200 User Guide).
- GB300 NVL72: 18 trays of 4 Blackwell Ultra GPUs, 4 ConnectX-8 per tray, 9 NVSwitch trays (NVIDIA
  Enterprise RA, NVL72 AI Factory), two compute planes (Multi-Plane Topology Approach).
- NVL36x2: "9x 2RU Compute trays. 9x 1RU NVL36 NVLink Switch trays" per rack, two racks per 72-GPU domain
  (NVIDIA Multi-Node NVLink tuning guide).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from apps.engine.plan import plan
from apps.engine.report import report
from apps.engine.scaleup import IN_SERVER, RACK_SCALE, scale_up_domain, scale_up_summary
from apps.engine.seedcatalog import seed_catalog
from apps.engine.spec import InfeasibleSpec
from apps.engine.specio import spec_from_dict
from apps.engine.traffic.analysis import analyze
from apps.engine.traffic.fabric import Fabric
from apps.engine.traffic.patterns import all_to_all, ring_all_reduce, scheduler_order
from apps.engine.traffic.rings import CHANNELS_PER_NIC

QM9700 = {"sku": "MQM9700-NS2F"}
SN5600_400 = {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}


def gb200(gpus: int = 576, **extra):
    return spec_from_dict({"gpus": gpus, "server": "DGX-GB200-NVL72-TRAY", "leaf": QM9700, **extra})


def test_dgx_h100_domain_is_the_server():
    spec = spec_from_dict({"gpus": 1024, "server": "DGXH-G640F+P2EDI36", "leaf": QM9700})
    domain = scale_up_domain(spec)
    assert (domain.kind, domain.gpus, domain.gb_s_per_gpu, domain.servers, domain.racks) == (IN_SERVER, 8, 900.0, 1, 0)
    assert scale_up_summary(spec, spec.servers).domains == 128


def test_gb200_nvl72_one_superpod_su_against_its_published_counts():
    spec = gb200()
    result = plan(spec)
    up = report(result)["scale_up"]
    assert up == {"kind": RACK_SCALE, "interconnect": "NVLink 5", "domains": 8, "gpus_per_domain": 72,
                  "gb_s_per_gpu": 1800.0, "servers_per_domain": 18, "racks_per_domain": 1, "racks": 8,
                  "switch_trays_per_domain": 9, "switch_trays": 72, "gpus": 576, "rack_units_per_rack": 27}
    assert result.servers == 144  # compute trays
    assert result.rails == 4  # GPU i of every tray is rail i
    assert result.links_by_tier["server-leaf"] == 576  # one 400G NIC port per GPU
    # every domain's 18 trays stand in one rack of their own
    racks = {}
    for device in result.devices[:result.servers]:
        racks.setdefault(device.index // 18, set()).add(device.rack)
    assert all(len(names) == 1 for names in racks.values())
    assert len({next(iter(names)) for names in racks.values()}) == 8


def test_a_scale_unit_holds_whole_domains():
    result = plan(gb200(576, leaf=SN5600_400))  # 128x400G at 1:1: 64 downlinks -> 3 racks of 18 trays
    assert result.su_servers == 54
    tray_su = np.array([d.su for d in result.devices[:result.servers]])
    for domain in range(8):
        assert len(set(tray_su[domain * 18:(domain + 1) * 18].tolist())) == 1
    assert result.wiring.as_stated


def test_nvlink_switch_trays_are_counted_once_inside_the_rack_system():
    result = plan(gb200())
    assert all("NVLink" not in line.description for line in result.bom)  # not in the network BOM
    assert result.switches == plan(gb200()).switches
    assert report(result)["scale_up"]["switch_trays"] == 72


def test_gb300_nvl72_two_planes_from_split_connectx8():
    spec = spec_from_dict({"gpus": 1152, "server": "ARS-121GL-NB3-LCC-R1", "nic_split": 2, "planes": 2,
                           "leaf": SN5600_400})
    result = plan(spec)
    assert scale_up_domain(spec).gpus == 72 and result.servers == 288
    assert result.links_by_tier["server-leaf"] == 1152 * 2
    assert set(result.links.plane[result.links.tier == 0].tolist()) == {0, 1}


def test_nvl36x2_domain_spans_two_racks():
    tray = replace(seed_catalog().servers["DGX-GB200-NVL72-TRAY"], scale_up_racks=2, scale_up_switch_trays=18,
                   rack_units=2)
    spec = replace(gb200(), server=tray)
    result = plan(spec)
    up = report(result)["scale_up"]
    assert (up["domains"], up["racks_per_domain"], up["racks"], up["switch_trays"]) == (8, 2, 16, 144)
    assert spec.servers_per_rack == 9
    assert up["rack_units_per_rack"] == 9 * 2 + 9  # 9 trays of 2U and 9 switch trays of 1U per rack
    assert len({d.rack for d in result.devices[:result.servers]}) == 16


def test_a_rack_too_low_for_the_domain_is_refused():
    tray = replace(seed_catalog().servers["DGX-GB200-NVL72-TRAY"], rack_units=3)
    with pytest.raises(InfeasibleSpec) as err:
        plan(replace(gb200(144), server=tray))
    [msg] = err.value.details["layout.rack_units"]
    # 18 trays of 3U, 9 switch trays and the GB200 rack's 8 power shelves of 1U: 71U in a 48U rack
    assert msg.code == "rack.too_low" and msg.params["height"] == 18 * 3 + 9 + 8
    assert plan(gb200(144)).hall is not None  # 35U fit in 48U


def test_rack_scale_designs_come_in_whole_domains():
    with pytest.raises(InfeasibleSpec) as err:
        gb200(600)
    detail = err.value.details["gpus"][0]
    assert detail.code == "scaleup.whole_domains" and detail.params["lower"] == 576 and detail.params["upper"] == 648


def test_traffic_inside_a_domain_stays_on_nvlink():
    result = plan(gb200())
    fabric = Fabric(result)
    rng = np.random.default_rng(0)
    a2a = all_to_all(fabric, max_flows=10**7, rng=rng)
    ports = fabric.nic_ports
    src_domain, dst_domain = a2a.src // ports // 18, a2a.dst // ports // 18
    assert a2a.src.size and np.all(src_domain != dst_domain)
    # every NIC sends and receives the same number of flows
    assert len(set(np.bincount(a2a.src).tolist())) == 1 and len(set(np.bincount(a2a.dst).tolist())) == 1
    ring = ring_all_reduce(fabric, max_flows=10**7, rng=rng, order=scheduler_order(144, 3, 18))
    assert np.all(ring.src // ports // 18 != ring.dst // ports // 18)
    assert ring.src.size == 144 * 4 * CHANNELS_PER_NIC  # every tray's 4 rails, on each of NCCL's channels
    report_ = analyze(result, pattern="both", max_flows=50_000)
    assert report_.rails == 4


def test_in_server_traffic_is_unchanged():
    spec = spec_from_dict({"gpus": 256, "server": "DGXH-G640F+P2EDI36", "leaf": QM9700})
    fabric = Fabric(plan(spec))
    a2a = all_to_all(fabric, max_flows=10**7, rng=np.random.default_rng(0))
    assert a2a.flows_total == 31 * 32 * 8 * 8  # (S-1) steps x servers x ports x GPUs per NIC pair


def test_one_gb200_su_shares_its_leaves_by_tray_slot_34_switches():
    # A leaf per rail of each rack: 32 QM9700 leaves of 18 down / 18 up + 9 spines = 41 (before, 32 + 16 = 48).
    # Shared by tray slot: leaf t takes the 4 NICs of tray t of each of the 8 racks, 32 down and 32 up; 18 leaves
    # x 32 uplinks on 64-port spines need 9 at the least, but 9 does not divide 32: 16 spines, 2 links per pair.
    result = plan(gb200())
    sz = result.sizing
    assert result.switches == {"leaf": 18, "spine": 16, "core": 0}
    assert result.links_by_tier == {"server-leaf": 576, "leaf-spine": 576, "spine-core": 0}
    assert (result.scale_units, result.su_servers, sz.leaf_slots, sz.leaf_downlinks, sz.leaf_uplinks) == (
        1, 144, 18, 32, 32)
    assert result.oversubscription == {"leaf": 1.0}
    assert result.wiring.as_stated and result.wiring.spread == {"leaf-spine": [2, 2]}
    assert not [note for note in result.notes if note.code == "warning.leaf_split"]  # all 64 ports used
    devices = result.devices
    t0 = result.links.tier == 0
    leaf_of = {}  # (tray slot) -> leaves its NICs reach, over every rack and rail
    for a, b, port in zip(result.links.a_dev[t0].tolist(), result.links.b_dev[t0].tolist(),
                          result.links.b_port[t0].tolist()):
        leaf_of.setdefault(a % 18, set()).add(b)
        rack, rail = divmod(port, 4)
        assert rack == a // 18  # leaf port = rack in the SU x 4 + rail
    assert all(len(leaves) == 1 for leaves in leaf_of.values()) and len(leaf_of) == 18
    names = sorted(d.name for d in devices if d.role == "leaf")
    assert names[0] == "p0-su00-leaf-t00" and names[-1] == "p0-su00-leaf-t17"
    up = np.bincount(result.links.a_dev[result.links.tier == 1])
    down = np.bincount(result.links.b_dev[t0])
    assert all(up[d.index] == down[d.index] == 32 for d in devices if d.role == "leaf")


@pytest.mark.parametrize("racks, per_rail, shared", [(6, (24, 9), (18, 8)), (7, (28, 9), (18, 14)),
                                                    (4, (16, 6), None), (16, (64, 18), (36, 32))])
def test_rack_scale_leaves_are_shared_only_where_that_needs_fewer_switches(racks, per_rail, shared):
    # (leaves, spines) a leaf per rail of each rack against shared by tray slot; the plan takes the fewer.
    result = plan(gb200(72 * racks))
    taken = shared if shared and sum(shared) < sum(per_rail) else per_rail
    assert (result.switches["leaf"], result.switches["spine"]) == taken
    assert bool(result.sizing.leaf_slots) == (taken == shared)
    assert result.wiring.as_stated and result.wiring.spread["leaf-spine"][0] == result.wiring.spread["leaf-spine"][1]


def test_a_partly_filled_last_su_of_shared_leaves_cables_what_its_racks_carry():
    # 12 racks: an SU of 8 (18 leaves, 32 down / 32 up) and one of 4 (18 leaves, 16 down / 16 up); 16 spines divide
    # both, so every leaf reaches every spine evenly (2 links, or 1 from the last SU's leaves): 36 + 16 = 52
    # switches, against 48 + 18 = 66 with a leaf per rail of each rack.
    result = plan(gb200(864))
    sz = result.sizing
    assert result.switches == {"leaf": 36, "spine": 16, "core": 0}
    assert (sz.leaf_downlinks_last_su, sz.leaf_uplinks_last_su) == (16, 16)
    assert result.links_by_tier == {"server-leaf": 864, "leaf-spine": 864, "spine-core": 0}
    up = np.bincount(result.links.a_dev[result.links.tier == 1], minlength=len(result.devices))
    down = np.bincount(result.links.b_dev[result.links.tier == 0], minlength=len(result.devices))
    leaves = [d.index for d in result.devices if d.role == "leaf"]
    assert all(up[i] == down[i] for i in leaves) and sorted({int(up[i]) for i in leaves}) == [16, 32]
    assert result.wiring.as_stated and result.wiring.worst_pair_fraction == 1.0
    note = next(note for note in result.notes if note.code == "warning.partial_scale_unit_shared")
    assert (note.params["servers"], note.params["downlinks"], note.params["uplinks"]) == (72, 16, 16)


def test_a_last_su_whose_uplinks_no_spine_count_divides_keeps_a_leaf_per_rail():
    # 14 racks: shared leaves would be 32 and 24 uplinks; gcd 8 < the 16 spines 1,008 uplinks need, so sharing
    # would cable the last SU's leaves past what they carry or spread them unevenly: a leaf per rail (56 + 18).
    result = plan(gb200(1008))
    assert result.switches == {"leaf": 56, "spine": 18, "core": 0} and not result.sizing.leaf_slots
    assert result.wiring.as_stated


def test_57_gb200_racks_are_three_even_tiers_of_429_switches():
    # 4,104 GPUs = 57 racks = 57 SUs of one rack: 228 leaves of 18 down and 18 up; pods of 8 racks (32 leaves)
    # get 18 spines of 32 down / 32 up, the last pod (1 rack, 4 leaves) 3 spines of 24 / 24; 7 x 576 + 72
    # uplinks over cores that divide both pods' uplinks: 72 cores, 8 links into every full pod, 1 into the last.
    # Before: 228 leaves of 32 uplinks, 228 spines, 114 cores (570 switches). Leaves shared by tray slot would
    # need 444: a pod takes one SU of 18 leaves x 32 uplinks, which 32 spines divide evenly (18 would not).
    result = plan(gb200(4104))
    sz = result.sizing
    assert result.switches == {"leaf": 228, "spine": 129, "core": 72}
    assert (sz.pods, sz.spines_per_pod, sz.spines_last_pod) == (8, 18, 3)
    assert (sz.spine_uplinks, sz.spine_uplinks_last_pod) == (32, 24)
    assert result.links_by_tier == {"server-leaf": 4104, "leaf-spine": 4104, "spine-core": 4104}
    devices = result.devices
    t2 = result.links.tier == 2
    core_pod = Counter((b, devices[a].pod) for a, b in zip(result.links.a_dev[t2].tolist(),
                                                           result.links.b_dev[t2].tolist()))
    assert {n for (_, pod), n in core_pod.items() if pod < 7} == {8}
    assert {n for (_, pod), n in core_pod.items() if pod == 7} == {1} and len(core_pod) == 72 * 8
    assert result.wiring.as_stated and result.wiring.worst_pod_pair_links == result.wiring.pod_pair_uplinks


def test_a_rack_scale_leaf_at_3_to_1_cables_a_third_of_its_downlinks():
    result = plan(gb200(576, oversubscription=3))  # 64 ports at 3:1: 48 down -> 36 (2 racks), 12 up
    assert (result.su_servers, result.sizing.leaf_uplinks) == (36, 12)
    assert result.wiring.as_stated and result.wiring.stated_fraction == pytest.approx(1 / 3)
