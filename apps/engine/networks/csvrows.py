"""Rows of the links CSV (engine.cli) for the front-end, storage and OOB networks.

Same columns as the backend's rows (a_device, a_role, a_port, b_device, b_role, b_port, plane, rail,
medium, length_m) plus network; plane is empty (these networks have one), rail the endpoint's port
index on server-leaf links. A device's role: server, storage, leaf, spine or core.
"""
from __future__ import annotations

import numpy as np

from ..model import Plan


def cluster_devices(result: Plan) -> list:
    """Every device of the cluster in index order (backend devices, then each network's own)."""
    out = list(result.devices)
    extra = sorted((d for net in result.networks.values() for d in net.devices), key=lambda d: d.index)
    out.extend(extra)
    return out


def network_link_rows(result: Plan) -> list[tuple]:
    if not result.networks:
        return []
    devices = cluster_devices(result)
    names = np.array([d.name for d in devices], dtype=object)
    roles = np.array([d.role for d in devices], dtype=object)
    rows: list[tuple] = []
    for key, net in result.networks.items():
        links = net.links
        if not len(links):
            continue
        kinds = np.array([m.kind for m in net.media] + [""], dtype=object)
        medium = links.medium.astype(np.int64)
        medium = np.where(medium < 0, len(net.media), medium)
        rail = links.rail.astype(np.int64)
        rail_text = np.where(rail >= 0, rail.astype(str), "").astype(object)
        lengths = [f"{v:g}" for v in links.length_m.astype(np.float64).tolist()]
        a, b = links.a_dev.astype(np.int64), links.b_dev.astype(np.int64)
        rows.extend(zip(names[a].tolist(), roles[a].tolist(), links.a_port_name.tolist(), names[b].tolist(),
                        roles[b].tolist(), links.b_port_name.tolist(), [""] * len(links), rail_text.tolist(),
                        kinds[medium].tolist(), lengths, [key] * len(links)))
    return rows
