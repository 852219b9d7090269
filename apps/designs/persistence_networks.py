"""Write the cluster's other networks (engine Plan.networks: frontend, storage, oob) as rows.

Rules (as apps.designs.persistence, which writes the backend):
- Each network's devices, links and used ports live in its own id range of the version
  (models.records.record_id with the network's code), so the backend's rows and every query on
  them stay as they were; rows carry `network`.
- A link's ends are devices of any network: servers stay the backend's rows (their front-end,
  storage and BMC ports are used ports of the same server row), switches and storage nodes are the
  network's own rows. Ids are computed from the engine's cluster device indexes, never looked up.
- BOM lines: each network's own section, after the backend's lines (index continues), with `network`.
- Addresses: a link's subnet with its prefix (/31s; the OOB rack subnets), both ends' addresses.
"""
from __future__ import annotations

import numpy as np

from apps.engine.model import Plan

from .models import BomLineRecord, LinkRecord, PortRecord
from .models.records import ID_SHIFT, NETWORK_CODES, NETWORK_SHIFT
from .persistence import Table, _money, _nullable_int, device_rows_table, ipv4_text, table_write

ORDER = ("frontend", "storage", "oob")


def _base(version_id: int, key: str) -> np.int64:
    return (np.int64(version_id) << np.int64(ID_SHIFT)) | np.int64(NETWORK_CODES[key] << NETWORK_SHIFT)


def cluster_record_ids(*, version_id: int, plan: Plan) -> np.ndarray:
    """Record id of every cluster device index (backend devices, then the networks' own)."""
    total = len(plan.devices) + sum(len(net.devices) for net in plan.networks.values())
    ids = np.zeros(total, dtype=np.int64)
    ids[:len(plan.devices)] = (np.int64(version_id) << np.int64(ID_SHIFT)) + np.arange(len(plan.devices))
    for key, net in plan.networks.items():
        index = np.array([d.index for d in net.devices], dtype=np.int64)
        ids[index] = _base(version_id, key) + np.arange(len(index), dtype=np.int64)
    return ids


def network_device_table(*, version_id: int, key: str, devices: list) -> Table:
    count = len(devices)
    table = device_rows_table(ids=_base(version_id, key) + np.arange(count, dtype=np.int64), version_id=version_id,
                              index=np.arange(count, dtype=np.int64), devices=devices)
    table.add("network", np.full(count, key, dtype=object))
    return table


def network_link_tables(*, version_id: int, key: str, net, ids: np.ndarray, names: np.ndarray
                        ) -> tuple[Table, Table]:
    links = net.links
    count = len(links)
    base = _base(version_id, key)
    link_ids = base + np.arange(count, dtype=np.int64)
    a_dev, b_dev = links.a_dev.astype(np.int64), links.b_dev.astype(np.int64)
    table = Table(LinkRecord)
    table.add("id", link_ids)
    table.add("version_id", np.full(count, version_id, dtype=np.int64))
    table.add("index", np.arange(count, dtype=np.int64))
    table.add("tier", links.tier.astype(np.int64))
    table.add("a_device_id", ids[a_dev])
    table.add("a_port", links.a_port_name)
    table.add("b_device_id", ids[b_dev])
    table.add("b_port", links.b_port_name)
    table.add("plane", np.zeros(count, dtype=np.int64), np.ones(count, dtype=bool))
    rail, rail_null = _nullable_int(links.rail)
    table.add("rail", rail, rail_null)
    table.add("pod", np.zeros(count, dtype=np.int64), np.ones(count, dtype=bool))
    media = net.media
    medium = links.medium.astype(np.int64)
    for column, attr in (("medium", "key"), ("medium_kind", "kind"), ("fiber", "fiber"), ("a_sku", "a_sku"),
                         ("b_sku", "b_sku"), ("cable_sku", "cable_sku")):
        lookup = np.array([getattr(m, attr) for m in media] + [""], dtype=object)
        table.add(column, lookup[np.where(medium < 0, len(media), medium)])
    table.add("length_m", np.round(links.length_m.astype(np.float64), 2))
    a_label = names[a_dev] + ":" + links.a_port_name
    b_label = names[b_dev] + ":" + links.b_port_name
    table.add("label_a", a_label + " > " + b_label)
    table.add("label_b", b_label + " > " + a_label)
    subnet = links.subnet.astype(np.uint32)
    none = subnet == 0
    subnet_text = ipv4_text(subnet) + "/" + links.prefix.astype(np.int64).astype(str).astype(object)
    subnet_text[none] = ""
    a_ip = ipv4_text(links.a_ip)
    a_ip[links.a_ip == 0] = None
    b_ip = ipv4_text(links.b_ip)
    b_ip[links.b_ip == 0] = None
    table.add("subnet", subnet_text)
    table.add("a_ip", a_ip)
    table.add("b_ip", b_ip)
    table.add("network", np.full(count, key, dtype=object))

    ports = Table(PortRecord)
    port_count = 2 * count
    device = np.concatenate([ids[a_dev], ids[b_dev]])
    number = np.concatenate([links.a_port.astype(np.int64), links.b_port.astype(np.int64)])
    ports.add("id", base + np.arange(port_count, dtype=np.int64))
    ports.add("version_id", np.full(port_count, version_id, dtype=np.int64))
    ports.add("index", np.arange(port_count, dtype=np.int64))
    ports.add("device_id", device)
    ports.add("number", number)
    ports.add("name", np.concatenate([links.a_port_name, links.b_port_name]))
    ports.add("speed_gbps", np.full(port_count, max(1, int(net.gbps)), dtype=np.int64))
    ports.add("link_id", np.concatenate([link_ids, link_ids]))
    return table, ports


def network_bom_table(*, version_id: int, plan: Plan, first_index: int) -> Table:
    rows = [(key, line) for key in ORDER if key in plan.networks for line in plan.networks[key].bom]
    table = Table(BomLineRecord)
    count = len(rows)
    table.add("version_id", np.full(count, version_id, dtype=np.int64))
    table.add("index", first_index + np.arange(count, dtype=np.int64))
    table.add("sku", [line.sku for _, line in rows])
    table.add("description", [line.description[:300] for _, line in rows])
    table.add("category", [line.category for _, line in rows])
    table.add("qty", np.array([line.qty for _, line in rows], dtype=np.int64))
    table.add("unit_price", [str(_money(line.unit_price)) for _, line in rows])
    table.add("total", [str(_money(line.total)) for _, line in rows])
    for attr in ("power_typical_w", "power_max_w", "in_server_typical_w", "in_server_max_w"):
        table.add(attr, np.array([getattr(line, attr) for _, line in rows], dtype=np.float64))
    table.add("rack_units", np.array([line.rack_units for _, line in rows], dtype=np.int64))
    table.add("scope", [line.scope for _, line in rows])
    table.add("spare", [bool(line.spare) for _, line in rows])
    table.add("network", [key for key, _ in rows])
    table.add("power_published", [bool(line.power_published) for _, line in rows])
    table.add("price_published", [bool(line.price_published) for _, line in rows])
    return table


def network_records_write(*, version_id: int, plan: Plan) -> dict[str, int]:
    """Write the rows of every other network of the plan; returns row counts."""
    if not plan.networks:
        return {}
    ids = cluster_record_ids(version_id=version_id, plan=plan)
    every = list(plan.devices) + [d for net in plan.networks.values() for d in net.devices]
    names = np.empty(len(ids), dtype=object)
    names[[d.index for d in every]] = [d.name for d in every]
    counts = {"devices": 0, "links": 0, "ports": 0, "bom_lines": 0}
    for key in ORDER:
        net = plan.networks.get(key)
        if net is None:
            continue
        devices = network_device_table(version_id=version_id, key=key, devices=net.devices)
        links, ports = network_link_tables(version_id=version_id, key=key, net=net, ids=ids, names=names)
        for table in (devices, links, ports):
            table_write(table)
        counts["devices"] += len(devices)
        counts["links"] += len(links)
        counts["ports"] += len(ports)
    bom = network_bom_table(version_id=version_id, plan=plan, first_index=len(plan.bom))
    table_write(bom)
    counts["bom_lines"] = len(bom)
    return counts
