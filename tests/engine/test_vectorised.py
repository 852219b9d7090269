"""The vectorised paths of the engine (issue 33: the engine back ahead of networkx) give what the per-link and
per-device ways they replaced give: cabling chooses once per distinct run instead of once per link, the wiring
proof counts spine-core pairs by runs of ordered keys, the hall builds its rack items in one pass."""
from __future__ import annotations

import numpy as np
import pytest

from apps.engine import cabling, wiring
from apps.engine.hall.build import STORAGE_NODE_U, _hardware
from apps.engine.hall.rules import height
from apps.engine.networks.cluster import plan_cluster
from apps.engine.plan import plan
from apps.engine.specio import spec_from_dict

QM9700 = {"sku": "MQM9700-NS2F"}
SN5600_400G = {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}
SPECS = {
    # Tomahawk-4 class 64x400G, 3 tiers and several pods: every tier one link per cage.
    "ethernet-3-tier": {"gpus": 4096, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
                        "leaf": {"sku": "DCS-7060DX5-64S", "breakout": "1x400G"}, "tiers": 3},
    # Twin-port cages: cages joined in groups, the non-identity path.
    "twin-port": {"gpus": 1024, "server": "DGXH-G640F+P2EDI36", "leaf": SN5600_400G, "tiers": 3},
    "rack-scale": {"gpus": 576, "server": "DGX-GB200-NVL72-TRAY", "leaf": QM9700},
    "cluster": {"gpus": 1016, "server": "DGXH-G640F+P2EDI36", "leaf": QM9700,
                "frontend": {"ports_per_server": 2, "gbps": 400, "leaf": SN5600_400G},
                "storage": {"nodes": 32, "ports_per_node": 2, "gbps": 400, "ports_per_server": 2,
                            "leaf": SN5600_400G},
                "oob": {"leaf": {"ports": 48, "gbps": 1}}},
}


def _one_run_per_link(raw):
    return raw, np.arange(raw.shape[0])


@pytest.mark.parametrize("name", ["ethernet-3-tier", "twin-port", "rack-scale"])
def test_cabling_chosen_per_run_equals_cabling_chosen_per_link(name, monkeypatch):
    by_run = plan(spec_from_dict(SPECS[name]))
    monkeypatch.setattr(cabling, "_runs", _one_run_per_link)
    by_link = plan(spec_from_dict(SPECS[name]))
    assert by_run.media == by_link.media
    assert np.array_equal(by_run.links.medium, by_link.links.medium)
    assert np.array_equal(by_run.links.length_m, by_link.links.length_m)
    assert by_run.bom == by_link.bom and by_run.notes == by_link.notes


def test_spine_core_pairs_counted_from_ordered_links_equal_the_counts_of_shuffled_ones():
    result = plan(spec_from_dict(SPECS["ethernet-3-tier"]))
    sz, links = result.sizing, result.links
    assert sz.pods > 1
    from apps.engine.topology import device_layout

    lay = device_layout(sz)
    top = links.tier == 2
    a2, b2 = links.a_dev[top], links.b_dev[top]
    pod_leaves = np.full(sz.pods, sz.leaves_per_plane // sz.pods)
    ordered = wiring._pod_pairs(sz, lay, (a2, b2), pod_leaves)
    shuffle = np.random.default_rng(33).permutation(a2.shape[0])
    assert wiring._pod_pairs(sz, lay, (a2[shuffle], b2[shuffle]), pod_leaves) == ordered


@pytest.mark.parametrize("name", ["ethernet-3-tier", "rack-scale", "cluster"])
def test_rack_items_equal_one_item_per_device_in_unit_order(name):
    """The per-device rule the hall keeps: every device of every network one item in the rack of its (row,
    position), at its unit with its hardware's height; a rack's items by unit; a rack's kind from what it holds."""
    spec = spec_from_dict(SPECS[name])
    result = plan_cluster(spec)
    hall = result.hall
    devices = [("backend", d) for d in result.devices]
    for key, net in result.networks.items():
        devices += [("storage" if d.role == "storage" else key, d) for d in net.devices]
    seen, expected = set(), {}
    for network, d in sorted(devices, key=lambda pair: pair[1].index):
        if d.index in seen:
            continue
        seen.add(d.index)
        hw = _hardware(spec, network, d.role)
        u_height = STORAGE_NODE_U if hw is None else height(hw)
        expected.setdefault(f"R{d.row + 1:03d}-{d.col + 1:02d}", []).append(
            (d.index, d.name, d.role, network, d.rack_unit, u_height))
        assert hall.racks[int(hall.device_rack[d.index])].name == f"R{d.row + 1:03d}-{d.col + 1:02d}"
        assert (hall.device_u[d.index], hall.device_u_height[d.index]) == (d.rack_unit, u_height)
    assert [rack.name for rack in hall.racks] == sorted(expected, key=lambda n: (int(n[1:4]), int(n[5:])))
    for rack in hall.racks:
        items = [(i.device, i.name, i.role, i.network, i.u, i.u_height) for i in rack.items if i.device >= 0]
        assert items == sorted(expected[rack.name], key=lambda item: item[4])
        assert [i.u for i in rack.items] == sorted(i.u for i in rack.items)
        roles = {i[2] for i in items}
        kind = ("compute" if "server" in roles else "storage" if "storage" in roles
                else "management" if all(i[3] == "oob" for i in items) else "network")
        assert rack.kind == kind


def test_names_in_one_pass_equal_the_names_one_by_one():
    from apps.engine import names
    from apps.engine.racks import rack_name, rack_names

    planes, sus, rails, locals_ = [0, 1, 3, 12], [0, 9, 10, 123], [0, 7, 8, 15], [0, 5, 99, 1234]
    assert names.server_names(1001, 4) == [names.server_name(i, 4) for i in range(1001)]
    assert names.server_names(12, 5) == [names.server_name(i, 5) for i in range(12)]
    assert names.leaf_names(planes, sus, rails, 3, 2) == [names.leaf_name(p, s, r, 3, 2)
                                                          for p, s, r in zip(planes, sus, rails)]
    assert names.spine_names(planes, locals_, 3) == [names.spine_name(p, i, 3) for p, i in zip(planes, locals_)]
    assert names.core_names(planes, locals_, 4) == [names.core_name(p, i, 4) for p, i in zip(planes, locals_)]
    rows, cols = np.array([0, 8, 99, 1200]), np.array([0, 9, 10, 150])
    assert rack_names(rows, cols) == [rack_name(r, c) for r, c in zip(rows.tolist(), cols.tolist())]
