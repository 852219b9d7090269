"""The out-of-band management network: one management switch per rack, aggregated.

Rules:
- Every server's BMC port, every storage node's BMC port and every switch's management port of
  the other networks has exactly one link, to the management switch (`oob.leaf`) of its own rack
  (the NVIDIA DGX SuperPOD reference architectures put each DGX's BMC port and every device's
  management port on the out-of-band fabric; their OOB switch is the SN2201, 48 x 1GBASE-T).
- A management switch gives `uplinks` of its ports to the aggregation switches (`oob.spine`, by
  default the same model) and the rest to devices (a switch with an uplink group, 48x1G + 4x10G, keeps
  all its access ports for devices and takes the uplinks from its group, numbered after them); a rack with more devices than that is refused
  (field oob.leaf.ports, naming the rack). Management switches themselves are not managed in-band
  of another network, so they have no OOB link of their own.
- Aggregation: n = max(uplinks, ceil(leaves x uplinks / aggregation ports)) switches; uplink k of
  management switch l goes to aggregation switch (l x uplinks + k) mod n, so the uplinks of one
  switch land on different aggregation switches and every aggregation switch takes at most
  ceil(leaves x uplinks / n) of them. They stand in network racks of their own (engine.hall.grid,
  as many per rack as height and power allow, at most `layout.switches_per_rack`).
- Cabling: twisted-pair copper (1000BASE-T / 10GBASE-T reach 100 m, IEEE 802.3ab / 802.3an):
  lengths are cable routes (engine.hall.route: in-rack, the height to the management switch at the
  top of the rack plus slack; uplinks up to the tray, along and across rows, down, plus slack), rounded up
  to the next patch-cord length; an uplink longer than 100 m is a single-mode fibre run (medium SMF).
  Cords have no catalog SKU or price: the BOM lists them by length, marked as missing a price (never a 0 USD that
  reads as a value), and the plan names them in warning.price_not_published.
- Addresses: each management switch gets a subnet of its own from `oob.pools.host`, the smallest
  power of two that holds its devices plus the network address, its own gateway address and the
  broadcast address (at least a /29); devices take the addresses after the gateway, so no device
  is ever given a network or broadcast address. Uplinks take /31s from `oob.pools.p2p`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..addressing import _dotted
from ..bom import discount_of, spare_qty
from ..messages import message
from ..model import SCOPE_NETWORK, SCOPE_SPARE, TIER_NAMES, BomLine, Device, Medium
from ..hall.grid import HallGrid
from ..hall.model import U_M
from ..hall.route import device_height_m, route
from ..hall.rules import height, network_switches_per_rack
from ..racks import rack_name
from ..spec import DesignSpec, InfeasibleSpec, parse_cidr
from ..bom import switch_sku
from ..bom import price_notes
from ..plan import power_notes
from .model import DEVICE_PREFIX, PORT_BASE, NetworkLinks, NetworkPlan
from .spec import OobSpec

COPPER_REACH_M = 100.0  # IEEE 802.3ab (1000BASE-T) and 802.3an (10GBASE-T) over Cat6A
CORD_LENGTHS_M = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 75, 100)


@dataclass(slots=True)
class Managed:
    """The devices the management network serves (cluster indexes), with their racks and ports."""

    device: np.ndarray  # int64
    row: np.ndarray
    col: np.ndarray
    port: np.ndarray  # int64 management port number on the device
    u: np.ndarray  # lowest rack unit per device
    u_height: np.ndarray  # rack units per device
    port_name: np.ndarray  # object
    servers: int
    storage_nodes: int
    switches: int


def _cord_length(raw: np.ndarray) -> np.ndarray:
    lengths = np.array(CORD_LENGTHS_M, dtype=np.float32)
    idx = np.searchsorted(lengths, raw, side="left")
    return np.where(idx < len(lengths), lengths[np.minimum(idx, len(lengths) - 1)], np.ceil(raw)).astype(np.float32)


def plan_oob(spec: DesignSpec, oob: OobSpec, *, managed: Managed, switch_base: int, grid: HallGrid) -> NetworkPlan:
    layout = spec.layout
    leaf_hw, spine_hw, u = oob.leaf, oob.spine_hw, oob.uplinks
    access = leaf_hw.ports if leaf_hw.uplinks else leaf_hw.ports - u
    key = managed.row.astype(np.int64) * (1 << 20) + managed.col.astype(np.int64)
    order = np.lexsort((managed.device, key))
    racks, first, counts = np.unique(key[order], return_index=True, return_counts=True)
    worst = int(np.argmax(counts)) if len(counts) else 0
    if len(counts) and counts[worst] > access:
        name = rack_name(int(racks[worst]) >> 20, int(racks[worst]) & ((1 << 20) - 1))
        raise InfeasibleSpec({"oob.leaf.ports": [message(
            "network.oob_rack_ports", rack=name, needed=int(counts[worst]), ports=leaf_hw.ports, uplinks=u,
            access=access)]})
    leaves = len(racks)
    n = max(u, -(-leaves * u // max(1, spine_hw.ports))) if leaves else 0

    # Devices: a management switch per rack (top of the rack), then the aggregation switches in network racks.
    devices: list[Device] = []
    leaf_row = (racks >> 20).astype(np.int64)
    leaf_col = (racks & ((1 << 20) - 1)).astype(np.int64)
    leaf_u = max(1, layout.rack_units - height(leaf_hw) + 1)
    for i in range(leaves):
        rack = rack_name(int(leaf_row[i]), int(leaf_col[i]))
        devices.append(Device(index=switch_base + i, name=f"{DEVICE_PREFIX['oob']}{rack}", role="leaf",
                              sku=switch_sku(leaf_hw), model=leaf_hw.name or f"{leaf_hw.ports}x{leaf_hw.gbps}G switch",
                              ports=leaf_hw.ports + leaf_hw.uplinks, row=int(leaf_row[i]), rack=rack,
                              rack_unit=leaf_u,
                              col=int(leaf_col[i]), lanes_per_port=1))
    swr = network_switches_per_rack(spec, spine_hw)
    agg_rows, agg_cols = grid.block("network", -(-n // swr))
    spine_row = agg_rows[np.arange(n) // swr] if n else np.zeros(0, dtype=np.int64)
    spine_col = agg_cols[np.arange(n) // swr] if n else np.zeros(0, dtype=np.int64)
    spine_u = 1 + (np.arange(n) % swr) * height(spine_hw)
    for j in range(n):
        rack = rack_name(int(spine_row[j]), int(spine_col[j]))
        devices.append(Device(index=switch_base + leaves + j, name=f"{DEVICE_PREFIX['oob']}agg-{j + 1:03d}",
                              role="spine", sku=switch_sku(spine_hw),
                              model=spine_hw.name or f"{spine_hw.ports}x{spine_hw.gbps}G switch",
                              ports=spine_hw.ports, row=int(spine_row[j]), rack=rack,
                              rack_unit=int(spine_u[j]), col=int(spine_col[j]), lanes_per_port=1))

    # Access links: the devices of rack i, in device order, on ports 0.. of its management switch.
    rack_of = np.empty(len(order), dtype=np.int64)
    rack_of[order] = np.repeat(np.arange(leaves), counts)
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order)) - np.repeat(first, counts)
    m = len(order)
    # Uplinks: leaf l, uplink k -> aggregation switch (l*u + k) mod n.
    slot = np.arange(leaves * u, dtype=np.int64)
    up_leaf, up_k = slot // u, slot % u
    up_spine = slot % n if n else slot
    spine_port = slot // n if n else slot
    a_dev = np.concatenate([managed.device, switch_base + up_leaf])
    a_port = np.concatenate([managed.port, access + up_k])
    b_dev = np.concatenate([switch_base + rack_of, switch_base + leaves + up_spine])
    b_port = np.concatenate([position, spine_port])
    a_names = np.concatenate([managed.port_name, np.char.add("Ethernet", (access + up_k).astype(str)).astype(object)])
    b_names = np.char.add("Ethernet", b_port.astype(str)).astype(object)
    tier = np.concatenate([np.zeros(m, dtype=np.int8), np.ones(leaves * u, dtype=np.int8)])
    # Runs (engine.hall.route): a device up or down to the top of its own rack; a management switch over the
    # trays to its aggregation switch.
    z_dev = device_height_m(managed.u, managed.u_height)
    z_leaf = (leaf_u - 1 + height(leaf_hw) / 2) * U_M
    z_spine = device_height_m(spine_u, np.full(n, height(spine_hw)))
    raw = np.concatenate([
        route(layout, managed.row, managed.col, z_dev, leaf_row[rack_of], leaf_col[rack_of],
              np.full(m, z_leaf)),
        route(layout, leaf_row[up_leaf], leaf_col[up_leaf], np.full(leaves * u, z_leaf), spine_row[up_spine],
              spine_col[up_spine], z_spine[up_spine]),
    ]) if m or leaves else np.zeros(0, dtype=np.float32)
    length = _cord_length(raw)
    fibre = length > COPPER_REACH_M
    media: list[Medium] = []
    medium = np.zeros(len(length), dtype=np.int16)
    for value in sorted(set(zip(length.tolist(), fibre.tolist()))):
        kind = "SMF" if value[1] else "Cat6A"
        idx = len(media)
        media.append(Medium(key=f"{kind} {value[0]:g}m", kind=kind, fiber="SMF" if value[1] else "", a_sku="",
                            b_sku="", cable_sku=f"{kind.upper()}-{value[0]:g}M", length_m=float(value[0]),
                            tier=-1))
        medium[(length == value[0]) & (fibre == value[1])] = idx
    for i, med in enumerate(media):
        tiers_used = np.unique(tier[medium == i])
        med.tier = int(tiers_used[0]) if len(tiers_used) == 1 else -1

    # Addresses: a subnet per management switch (network, gateway = the switch, devices, broadcast).
    host, host_size = parse_cidr(oob.pools.host)
    p2p, p2p_size = parse_cidr(oob.pools.p2p)
    sizes = np.maximum(8, 1 << np.ceil(np.log2(counts + 3)).astype(np.int64)) if leaves else np.zeros(0, np.int64)
    nets = np.zeros(leaves, dtype=np.int64)
    cursor = 0
    for i, size in enumerate(sizes.tolist()):
        cursor = -(-cursor // size) * size  # aligned to its own size
        nets[i] = cursor
        cursor += size
    errors = {}
    if cursor > host_size:
        errors["oob.pools.host"] = [message("addressing.pool_too_small", needed=int(cursor),
                                            what=message("network.what_oob_host"), cidr=oob.pools.host,
                                            size=host_size, prefix=_prefix(int(cursor)))]
    if 2 * leaves * u > p2p_size:
        errors["oob.pools.p2p"] = [message("addressing.pool_too_small", needed=2 * leaves * u,
                                           what=message("addressing.what_p2p"), cidr=oob.pools.p2p, size=p2p_size,
                                           prefix=_prefix(2 * leaves * u))]
    if errors:
        raise InfeasibleSpec(errors)
    subnet = np.concatenate([host + nets[rack_of], p2p + 2 * slot]).astype(np.uint32)
    a_ip = np.concatenate([host + nets[rack_of] + 2 + position, p2p + 2 * slot]).astype(np.uint32)
    b_ip = np.concatenate([host + nets[rack_of] + 1, p2p + 2 * slot + 1]).astype(np.uint32)
    prefix = np.concatenate([(32 - np.log2(sizes).astype(np.int64))[rack_of],
                             np.full(leaves * u, 31, dtype=np.int64)]).astype(np.int8)
    for i, device in enumerate(devices[:leaves]):
        device.loopback = int(host + nets[i] + 1)  # its management address: the rack subnet's gateway

    links = NetworkLinks(
        a_dev=a_dev.astype(np.int32), a_port=a_port.astype(np.int32), a_port_name=a_names,
        b_dev=b_dev.astype(np.int32), b_port=b_port.astype(np.int32), b_port_name=b_names, tier=tier,
        rail=np.full(len(tier), -1, dtype=np.int16), length_m=length, medium=medium, subnet=subnet, a_ip=a_ip,
        b_ip=b_ip, prefix=prefix,
    )
    bom = _bill(spec, oob, leaves, n, media, medium)
    base = [line for line in bom if not line.spare]
    subtotal = round(sum(line.total for line in bom), 2)
    spares_subtotal = round(sum(line.total for line in bom if line.spare), 2)
    discount = discount_of(subtotal, spec.discount_pct)
    used_hosts = int(sizes.sum())
    result = NetworkPlan(
        key="oob", devices=devices, links=links, media=media, bom=bom, subtotal=subtotal, discount=discount,
        total_cost=round(subtotal - discount, 2), spares_subtotal=spares_subtotal,
        power_typical_w=sum(line.power_typical_w for line in base), power_max_w=sum(line.power_max_w for line in base),
        in_server_typical_w=0.0, in_server_max_w=0.0, rack_units=sum(line.rack_units for line in base),
        switches={"leaf": leaves, "spine": n, "core": 0},
        links_by_tier={TIER_NAMES[0]: m, TIER_NAMES[1]: leaves * u, TIER_NAMES[2]: 0},
        pools={"host": {"cidr": oob.pools.host, "size": host_size, "used": used_hosts, "first": _dotted(host),
                        "last": _dotted(host + used_hosts - 1) if used_hosts else None, "subnets": leaves},
               "p2p": {"cidr": oob.pools.p2p, "size": p2p_size, "used": 2 * leaves * u, "first": _dotted(p2p),
                       "last": _dotted(p2p + 2 * leaves * u - 1) if leaves else None}},
        tiers=2, endpoints={"servers": managed.servers, "storage_nodes": managed.storage_nodes,
                            "switches": managed.switches, "managed": m},
        gbps=leaf_hw.gbps, notes=power_notes(bom) + price_notes(bom),
    )
    return result


def _prefix(addresses: int) -> int:
    bits = max(0, (addresses - 1).bit_length())
    return 32 - bits


def _bill(spec: DesignSpec, oob: OobSpec, leaves: int, spines: int, media: list[Medium], medium: np.ndarray
          ) -> list[BomLine]:
    lines: dict[str, BomLine] = {}

    def add(sku: str, description: str, category: str, qty: int, price: float, typical: float | None,
            peak: float | None, ru: int) -> None:
        if qty <= 0:
            return
        published = typical is not None and peak is not None
        typical, peak = typical or 0.0, peak or 0.0
        line = lines.setdefault(sku, BomLine(sku=sku, description=description, category=category, qty=0,
                                             unit_price=round(price, 2), total=0.0, scope=SCOPE_NETWORK))
        line.qty += qty
        line.total = round(line.qty * line.unit_price, 2)
        line.power_typical_w += typical * qty
        line.power_max_w += peak * qty
        line.rack_units += ru * qty
        line.power_published = line.power_published and published
        line.price_published = line.unit_price > 0  # a cord with no catalog price is not free: named as missing

    for hw, qty in ((oob.leaf, leaves), (oob.spine_hw, spines)):
        mode = hw.breakout or f"{hw.ports}x{hw.gbps}G"
        add(switch_sku(hw), f"{hw.name} ({mode})" if hw.name else f"{hw.ports}-port {hw.gbps}G management switch",
            "switch", qty, hw.price, hw.power_typical_w, hw.power_max_w, max(1, hw.rack_units))
    per_medium = np.bincount(medium.astype(np.int64), minlength=len(media)) if len(medium) else []
    for i, med in enumerate(media):
        what = "single-mode fibre run" if med.kind == "SMF" else "Cat6A patch cord"
        add(med.cable_sku, f"{what}, {med.length_m:g} m (no catalog price)", "cable" if med.kind != "SMF" else "fiber",
            int(per_medium[i]), 0.0, 0.0, 0.0, 0)
    out = list(lines.values())
    pct = {"switch": spec.spares.switches, "cable": spec.spares.cables, "fiber": spec.spares.fibers}
    for line in list(out):
        qty = spare_qty(line.qty, pct.get(line.category, 0.0))
        if qty:
            out.append(BomLine(sku=line.sku, description=line.description, category=line.category, qty=qty,
                               unit_price=line.unit_price, total=round(qty * line.unit_price, 2), scope=SCOPE_SPARE,
                               spare=True, price_published=line.price_published))
    return out
