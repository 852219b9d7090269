"""The front-end and storage networks: each a leaf-spine fabric of its own over servers and storage nodes.

Rules:
- Endpoints: every server brings `ports_per_server` ports, every storage node `ports_per_node`, all at
  the network's speed. The ports are cut into groups of r = gcd of the two counts; a group is one
  "endpoint" whose r ports go to r different leaves (rail i of the group to leaf rail i), so a
  server's or node's ports never share a leaf when r > 1 (the parallel pathways the NVIDIA DGX
  SuperPOD reference architectures give each DGX's pair of in-band and of storage ports).
- Counting, wiring proof, cabling, BOM and addressing are the backend's rules (engine.topology,
  engine.wiring, engine.cabling, engine.bom, engine.addressing) applied to that fabric: leaves have
  `leaf.ports x o/(o+1)` endpoint ports, spines are the smallest count that divides the leaf uplinks,
  a third tier when one spine layer cannot hold them; one plane.
- Placement: servers stay in their backend racks and storage nodes in theirs; leaves, spines and
  cores stand in network racks of their own (engine.hall.rules: as many per rack as height and power
  allow, at most `layout.switches_per_rack`), each tier a block of the hall's network rows
  (engine.hall.grid), so every length is measured in the one hall.
- Addresses come from the network's own pools (/31 per link, /32 loopbacks, eBGP ASNs from its own
  base), never from the backend's; engine.networks.spec refuses pools that overlap another network's.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np

from ..addressing import assign, check_pools
from ..bom import bill, price_notes
from ..cabling import cable_links
from ..model import TIER_NAMES, Device
from ..names import lanes_per_port
from ..plan import interconnects, make_devices, power_notes, review_notes
from ..hall.grid import HallGrid
from ..hall.rules import height, network_switches_per_rack
from ..racks import Placement, raw_lengths
from ..spec import AddressPools, DesignSpec, NicHw, ServerHw, SwitchHw
from ..topology import build_links, device_layout, size_fabric
from ..wiring import prove
from .model import DEVICE_PREFIX, PORT_BASE, PORT_PREFIX, NetworkLinks, NetworkPlan


@dataclass(slots=True)
class Endpoints:
    """The devices a fabric network serves: cluster indexes, positions and port counts."""

    device: np.ndarray  # int64 cluster index per device
    row: np.ndarray
    col: np.ndarray
    ports: np.ndarray  # network ports per device
    u: np.ndarray  # lowest rack unit per device
    u_height: np.ndarray  # rack units per device
    servers: int  # how many of them (the first ones) are servers; the rest are storage nodes


def plan_fabric_network(spec: DesignSpec, key: str, *, endpoints: Endpoints, gbps: int, leaf: SwitchHw,
                        spine: SwitchHw | None, oversubscription: float, pools: AddressPools, switch_base: int,
                        grid: HallGrid) -> NetworkPlan:
    """The network's plan; its switches take network racks from `grid`."""
    counts = endpoints.ports.astype(np.int64)
    r = 0
    for value in np.unique(counts).tolist():
        r = gcd(r, int(value))
    groups = counts // r  # endpoint groups per device
    ep_device = np.repeat(np.arange(len(counts)), groups)  # local device of each endpoint
    first = np.concatenate([[0], np.cumsum(groups)[:-1]])
    ep_chunk = np.arange(ep_device.shape[0]) - first[ep_device]
    endpoints_count = int(ep_device.shape[0])

    derived = DesignSpec(
        gpus=endpoints_count,
        server=ServerHw(gpus=1, nic_ports=r, nic_gbps=gbps, nics_built_in=True, name=f"{key} endpoint"),
        # The endpoint's port takes the leaf's access cage type (SFP28 on a 25G leaf; no catalog NIC is named).
        nic=NicHw(ports=1, gbps=gbps, form_factor=leaf.form_factor, sku=f"NIC-{gbps}G", name=f"{gbps}G {key} port"),
        leaf=leaf, spine=spine, planes=1, oversubscription=oversubscription, tiers="auto",
        layout=spec.layout, pools=pools, optics=spec.optics, cables=spec.cables, fibers=spec.fibers,
        discount_pct=spec.discount_pct, currency=spec.currency, spares=spec.spares,
        third_party_optics=spec.third_party_optics, name=f"{spec.name} {key}".strip(),
    )
    derived.validate()
    sz = size_fabric(derived)
    check_pools(derived, sz)
    lay = device_layout(sz)
    links = build_links(sz, lay)
    wiring = prove(sz, lay, links)
    # Endpoints where they really stand; leaves, spines and cores in network racks of their own (rows of the
    # network zone), each tier a block.
    e = endpoints_count
    count = lay.count
    row = np.zeros(count, dtype=np.int64)
    col = np.zeros(count, dtype=np.int64)
    ru = np.ones(count, dtype=np.int64)
    uh = np.ones(count, dtype=np.int64)
    row[:e] = endpoints.row[ep_device]
    col[:e] = endpoints.col[ep_device]
    ru[:e] = endpoints.u[ep_device]
    uh[:e] = endpoints.u_height[ep_device]
    for lo, hi, hw in ((lay.leaf_base, lay.spine_base, derived.leaf), (lay.spine_base, lay.core_base, derived.spine_hw),
                       (lay.core_base, count, derived.core_hw)):
        n = hi - lo
        if n <= 0:
            continue
        swr = network_switches_per_rack(spec, hw)
        k = np.arange(n)
        # (rack_rows, rack_cols: not r, the endpoint group size the port numbers below use)
        rack_rows, rack_cols = grid.block("network", -(-n // swr))
        row[lo:hi] = rack_rows[k // swr]
        col[lo:hi] = rack_cols[k // swr]
        ru[lo:hi] = (k % swr) * height(hw) + 1
        uh[lo:hi] = height(hw)
    placement = Placement(row.astype(np.int32), col.astype(np.int32), ru.astype(np.int32),
                          max(grid.used_rows, default=-1) + 1, uh.astype(np.int32))
    local_devices = make_devices(derived, sz, lay, placement)

    raw = raw_lengths(derived, placement, links.a_dev, links.b_dev)
    optics, cables, fibers = interconnects(derived)
    cabling = cable_links(derived, links, raw, optics, cables, fibers)
    b = bill(derived, sz, cabling)
    pools_report = assign(derived, sz, lay, links, local_devices)

    # The network's own devices: its switches, renamed and renumbered into the cluster's index space.
    devices: list[Device] = []
    for device in local_devices[e:]:
        device.index = switch_base + device.index - e
        device.name = DEVICE_PREFIX[key] + device.name
        devices.append(device)
    lanes = np.array([d.lanes_per_port for d in devices], dtype=np.int64)

    cluster_of = np.concatenate([endpoints.device[ep_device],
                                 switch_base + np.arange(lay.count - e, dtype=np.int64)])
    a_local = links.a_dev.astype(np.int64)
    b_local = links.b_dev.astype(np.int64)
    tier = links.tier.astype(np.int8)
    is_ep = a_local < e
    ep_of_a = np.where(is_ep, a_local, 0)
    ep_port = ep_chunk[ep_of_a] * r + links.a_port.astype(np.int64)
    a_port = np.where(is_ep, PORT_BASE[key] + ep_port, links.a_port)
    ep_names = np.char.add(PORT_PREFIX[key], ep_port.astype(str)).astype(object)
    sw_a = np.where(is_ep, 0, a_local - e)
    a_sw_names = np.char.add("Ethernet", (links.a_port.astype(np.int64) * lanes[sw_a]).astype(str)).astype(object)
    b_names = np.char.add("Ethernet", (links.b_port.astype(np.int64) * lanes[b_local - e]).astype(str)).astype(object)
    subnet = links.subnet.astype(np.uint32)
    if derived.infiniband:  # the endpoint's IPoIB address from the host pool; the subnet manager routes
        a_ip = np.where(tier == 0, subnet, 0).astype(np.uint32)
        b_ip = np.zeros_like(subnet)
        prefix = np.full(len(links), int(pools.host.split("/")[1]), dtype=np.int8)
    else:
        a_ip = np.where(tier == 0, subnet + 1, subnet).astype(np.uint32)
        b_ip = np.where(tier == 0, subnet, subnet + 1).astype(np.uint32)
        prefix = np.full(len(links), 31, dtype=np.int8)
    net_links = NetworkLinks(
        a_dev=cluster_of[a_local].astype(np.int32), a_port=a_port.astype(np.int32),
        a_port_name=np.where(is_ep, ep_names, a_sw_names), b_dev=cluster_of[b_local].astype(np.int32),
        b_port=links.b_port.astype(np.int32), b_port_name=b_names, tier=tier,
        rail=np.where(tier == 0, ep_port, -1).astype(np.int16), length_m=links.length_m, medium=links.medium,
        subnet=subnet, a_ip=a_ip, b_ip=b_ip, prefix=prefix,
    )
    notes = [n for n in review_notes(derived, sz, wiring)
             if n.code not in ("warning.spare_gpu_slots", "note.nics_built_in", "warning.partial_scale_unit")]
    notes += cabling.notes + power_notes(b.lines) + price_notes(b.lines)
    result = NetworkPlan(
        key=key, devices=devices, links=net_links, media=cabling.media, bom=b.lines, subtotal=b.subtotal,
        discount=b.discount, total_cost=b.total_cost, spares_subtotal=b.spares_subtotal,
        power_typical_w=b.power_typical_w, power_max_w=b.power_max_w, in_server_typical_w=b.in_server_typical_w,
        in_server_max_w=b.in_server_max_w, rack_units=b.rack_units,
        switches={role: int(sz.switches.get(role, 0)) for role in ("leaf", "spine", "core")},
        links_by_tier={name: int(sz.links_by_tier.get(name, 0)) for name in TIER_NAMES}, pools=pools_report,
        tiers=sz.tiers, oversubscription=dict(sz.oversubscription),
        endpoints={"servers": int(endpoints.servers), "storage_nodes": int(len(counts) - endpoints.servers),
                   "ports": int(counts.sum())},
        gbps=gbps, wiring=wiring, notes=notes,
    )
    return result


def switch_lanes(hw: SwitchHw) -> int:
    return lanes_per_port(hw)
