"""The topology's first-view groups counted from the plan when a version is saved (models.TopologyGroups).

A first view groups the version's backend rows twice (aggregation.TopologyBase): the device census
(role, plane, pod, SU -> count and index range) and the links by the view's columns (tier, plane,
rail, medium kind, length, plus the pod or the leaf at finer levels) -> count. At 3 M links the second
took seconds at request time (issue 33). Here both are counted from the engine Plan with numpy, with
the values the rows hold (apps.designs.persistence: -1 is NULL, lengths rounded to the centimetre,
leaves by record id), so the view built from them is the view built from the queries; likewise
each other network's links by the groups of its view (api.topology.networks);
tests/designs/test_topology_groups.py checks them equal.

Rules:
- Stored: the census, and the link groups of every grouping (GROUPINGS: the first views' and the
  schematic's) whose groups number at most MAX_STORED_ROWS (the plane level's always; the pod or
  scale-unit level's when they are few: a 1,000,000-GPU fabric's overview and pod levels read them).
  The device level, and groupings of part of the links, are queried as before.
- Keys are the grouping's columns joined by commas (as aggregation.base_edges names them); a row is
  the column values in that order, then the count. A view of one plane keeps the rows of its plane.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from apps.designs.models import TopologyGroups
from apps.designs.models.records import ID_SHIFT
from apps.designs.persistence_networks import cluster_record_ids
from apps.engine.model import Plan

MAX_STORED_ROWS = 20_000
BASE_COLUMNS = ("tier", "plane", "rail", "medium_kind", "length_m")
# The first views' (aggregation.base_edges: plane; pod and overview in 3 tiers; scale unit) and the schematic's.
GROUPINGS = (BASE_COLUMNS, BASE_COLUMNS + ("pod",), BASE_COLUMNS + ("pod", "leaf_id"), ("tier", "plane", "pod"))


def grouping_key(columns) -> str:
    return ",".join(columns)


def _nullable(values: np.ndarray) -> list:
    return [None if v < 0 else v for v in values.tolist()]


def _groups(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of the integer columns (first of each) and how many rows each has."""
    if not columns[0].shape[0]:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    key = np.zeros(columns[0].shape[0], np.int64)
    radix = 1
    for column in columns:
        span = int(column.max()) + 2  # -1 (NULL) shifted to 0
        if radix * span >= 1 << 62:
            raise OverflowError
        key = key * span + (column + 1)
        radix *= span
    distinct, first, counts = np.unique(key, return_index=True, return_counts=True)
    return first, counts


def census_rows(plan: Plan) -> list[list]:
    """The device census aggregation.TopologyBase.census reads: [role, plane, pod, su, count, lo, hi]."""
    devices = plan.devices
    roles = sorted({d.role for d in devices})
    role = np.array([roles.index(d.role) for d in devices], np.int64)
    plane = np.array([d.plane for d in devices], np.int64)
    pod = np.array([d.pod for d in devices], np.int64)
    su = np.array([d.su for d in devices], np.int64)
    index = np.array([d.index for d in devices], np.int64)
    cols = [role, np.maximum(plane, -1), np.maximum(pod, -1), np.maximum(su, -1)]
    key = np.zeros(len(devices), np.int64)
    for column in cols:
        key = key * (int(column.max(initial=0)) + 2) + (column + 1)
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_key[1:] != sorted_key[:-1]))) if len(devices) else \
        np.zeros(0, np.int64)
    lo = np.minimum.reduceat(index[order], starts) if len(devices) else starts
    hi = np.maximum.reduceat(index[order], starts) if len(devices) else starts
    counts = np.diff(np.append(starts, len(devices)))
    firsts = order[starts]
    return [[roles[r], p, k, s, n, low, high] for r, p, k, s, n, low, high in zip(
        role[firsts].tolist(), _nullable(plane[firsts]), _nullable(pod[firsts]), _nullable(su[firsts]),
        counts.tolist(), lo.tolist(), hi.tolist())]


def link_groups(plan: Plan, version_id: int) -> dict[str, list[list]]:
    """The backend's links counted by each grouping (module rules), the groupings with few enough groups."""
    links = plan.links
    count = len(links)
    tier = links.tier.astype(np.int64)
    plane = np.maximum(links.plane.astype(np.int64), -1)
    rail = np.maximum(links.rail.astype(np.int64), -1)
    kinds = [m.kind for m in plan.media] + [""]
    medium = links.medium.astype(np.int64)
    medium = np.where(medium < 0, len(plan.media), medium)
    length = np.round(links.length_m.astype(np.float64), 2)
    lengths, length_index = np.unique(length, return_inverse=True)
    length_index = length_index.reshape(-1)
    a_dev, b_dev = links.a_dev.astype(np.int64), links.b_dev.astype(np.int64)
    device_pod = np.array([d.pod for d in plan.devices], np.int64)
    pod = np.maximum(np.where(tier == 0, device_pod[b_dev], device_pod[a_dev]), -1) if count else tier
    leaf = np.where(tier == 0, b_dev, np.where(tier == 1, a_dev, -1)) if count else tier
    base = int(version_id) << ID_SHIFT
    out: dict[str, list[list]] = {}
    arrays = {"tier": tier, "plane": plane, "rail": rail, "medium_kind": medium, "length_m": length_index, "pod": pod,
              "leaf_id": leaf}

    def text(column: str, first: np.ndarray) -> list:
        values = arrays[column][first]
        if column == "tier":
            return values.tolist()
        if column == "medium_kind":
            return [kinds[m] for m in values.tolist()]
        if column == "length_m":
            return lengths[values].tolist()
        if column == "leaf_id":
            return [None if v < 0 else base + v for v in values.tolist()]
        return _nullable(values)

    for columns in GROUPINGS:
        try:
            first, counts = _groups([arrays[column] for column in columns])
        except OverflowError:
            continue
        if first.shape[0] > MAX_STORED_ROWS:
            continue
        values = [text(column, first) for column in columns] + [counts.tolist()]
        out[grouping_key(columns)] = [list(row) for row in zip(*values)]
    return out


def network_groups(plan: Plan, version_id: int) -> dict[str, list[list]]:
    """Per other network, its links counted as its view's closed groups count them (api.topology.networks:
    [tier, a group, b group, medium kind, length, count]), each end's group from its id by the same spans."""
    if not plan.networks:
        return {}
    ids = cluster_record_ids(version_id=version_id, plan=plan)
    network_of = np.full(ids.shape[0], "", dtype=object)
    role_of = np.full(ids.shape[0], "", dtype=object)
    for key, net in plan.networks.items():
        for device in net.devices:
            network_of[device.index], role_of[device.index] = key, device.role
    others = np.flatnonzero(network_of != "")
    backend_first = int(version_id) << ID_SHIFT
    out: dict[str, list[list]] = {}
    for key, net in plan.networks.items():
        spans = [(backend_first, backend_first + plan.servers - 1, "server")] if plan.servers else []
        for (network, role) in dict.fromkeys(zip(network_of[others].tolist(), role_of[others].tolist())):
            members = ids[others[(network_of[others] == network) & (role_of[others] == role)]]
            name = role if network == key else ("storage" if role == "storage" else "managed")
            spans.append((int(members.min()), int(members.max()), name))
        spans.sort()
        names = [name for _lo, _hi, name in spans] + ["managed"]
        links = net.links
        if not len(links):
            continue

        def group(devices: np.ndarray) -> np.ndarray:
            """The first span holding each id (the view's CASE WHEN, in span order), else "managed"."""
            record = ids[devices.astype(np.int64)]
            found = np.full(record.shape[0], len(spans), np.int64)
            for i, (lo, hi, _name) in enumerate(spans):
                found = np.where((found == len(spans)) & (record >= lo) & (record <= hi), i, found)
            return found

        tier = links.tier.astype(np.int64)
        a_group, b_group = group(links.a_dev), group(links.b_dev)
        kinds = [m.kind for m in net.media] + [""]
        medium = links.medium.astype(np.int64)
        medium = np.where(medium < 0, len(net.media), medium)
        lengths, length_index = np.unique(np.round(links.length_m.astype(np.float64), 2), return_inverse=True)
        length_index = length_index.reshape(-1)
        first, counts = _groups([tier, a_group, b_group, medium, length_index])
        out[key] = [list(row) for row in zip(
            tier[first].tolist(), [names[g] for g in a_group[first].tolist()], [names[g] for g in b_group[first].tolist()],
            [kinds[m] for m in medium[first].tolist()], lengths[length_index[first]].tolist(), counts.tolist())]
    return out


def topology_groups_save(*, version_id: int, plan: Plan) -> None:
    """Count and store the version's first-view groups (call inside the transaction that writes its rows)."""
    groups: dict[str, Any] = {"census": census_rows(plan), "links": link_groups(plan, version_id),
                              "networks": network_groups(plan, version_id)}
    TopologyGroups.objects.update_or_create(version_id=version_id, defaults={"groups": groups})


def stored_network_links(version_id: int, network: str) -> list[list] | None:
    """The stored closed-group rows of another network's view, None when not stored (an older version)."""
    found = TopologyGroups.objects.filter(version_id=version_id).values_list(
        f"groups__networks__{network}", flat=True).first()
    return found if isinstance(found, list) else None


def stored_census(version_id: int) -> list[list] | None:
    return TopologyGroups.objects.filter(version_id=version_id).values_list("groups__census", flat=True).first()


def stored_links(version_id: int, columns) -> list[list] | None:
    """The stored rows of this grouping, None when it was not stored (too many groups, or an older version)."""
    if tuple(columns) not in GROUPINGS:  # never stored: no query
        return None
    found = TopologyGroups.objects.filter(version_id=version_id).values_list(
        f"groups__links__{grouping_key(columns)}", flat=True).first()
    return found if isinstance(found, list) else None
