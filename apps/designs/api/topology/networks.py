"""The topology of one of the cluster's other networks (front-end, storage, out-of-band) as cytoscape elements.

Rules:
- The view is one node per group, never per device, so every network draws at once at any size:
  the endpoints (servers, storage nodes, and for the OOB network the switches it manages), then the
  network's own leaves, spines and cores (layers 0 to 3). The endpoints of the OOB network are the
  devices it manages: servers, storage nodes and the switches of every other network.
- Edges merge every link between two groups of one tier, with the count and the media breakdown
  (kind, length -> links), from the groups counted when the version was saved
  (apps.designs.topology_groups), or one GROUP BY over the network's link rows (its id range); an end's
  group comes from its id alone (ids are contiguous per network and role: models.records), so the
  query joins nothing. Group sizes come from the version's summary.
- The answer has the backend view's shape (elements, counts, legend), with `network` set, so the
  same picture draws it. The legend names the network's own groups (no rails: they are the backend's).
- Every group opens (`expanded`): into its devices, or into blocks of consecutive devices when it has
  more than BLOCK (at most MAX_BLOCKS blocks, so a block may hold more), and a block into its devices.
  Links touching an opened group are read one by one (a network has a few links per endpoint) and
  merged between the nodes drawn; a device's node carries `group`, the id it was opened from.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import math
from bisect import bisect_right

from django.core.cache import cache
from django.db.models import Case, CharField, Count, Max, Min, Q, Value, When
from django.utils import translation
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord, record_id_range
from apps.designs.topology_groups import stored_network_links

LAYER = {"server": 0, "storage": 0, "managed": 0, "leaf": 1, "spine": 2, "core": 3}
CACHE_SECONDS = 24 * 3600
BLOCK = 64
MAX_BLOCKS = 32
ORDER = ("server", "storage", "managed", "leaf", "spine", "core")


class NetworkNodeError(ValueError):
    """An `expanded` id that is not a group or block of this network's view."""


def _labels() -> dict[str, str]:
    return {"server": _("Servers"), "storage": _("Storage nodes"), "managed": _("Managed switches"),
            "leaf": _("Leaves"), "spine": _("Spines"), "core": _("Cores")}


def _oob_labels() -> dict[str, str]:
    return {"leaf": _("Management switches (one per rack)"), "spine": _("Management aggregation")}


def network_view_cache_key(version: DesignVersion, network: str) -> str:
    generated = int(version.generated_at.timestamp() * 1000) if version.generated_at else 0
    return f"fabricweb:topology:net:v1:{version.pk}:{generated}:{network}:{translation.get_language() or ''}"


def network_view(version: DesignVersion, network: str, expanded: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """The grouped view of `network`, with the groups and blocks in `expanded` opened (cached when none is)."""
    key = network_view_cache_key(version, network)
    if not expanded:
        cached = cache.get(key)
        if cached is not None:
            return cached
    view = _NetworkView(version, network).view(list(expanded))
    if not expanded:
        cache.set(key, view, CACHE_SECONDS)
    return view


class _NetworkView:
    def __init__(self, version: DesignVersion, network: str):
        self.version = version
        self.network = network
        summary = version.summary or {}
        self.info = (summary.get("networks") or {}).get(network) or {}
        first, last = record_id_range(version.pk, network)
        self.links = LinkRecord.objects.filter(version=version, pk__gte=first, pk__lte=last)
        # Each end's group from its id alone (no join): ids are contiguous per network and role.
        backend_first, _backend_last = record_id_range(version.pk)
        servers = int(summary.get("servers") or 0)
        spans = [(backend_first, backend_first + servers - 1, "server")] if servers else []
        other_first, _ = record_id_range(version.pk, "frontend")
        for span in (DeviceRecord.objects.filter(version=version, pk__gte=other_first, pk__lt=backend_first + (1 << 32))
                     .values("network", "role").annotate(lo=Min("id"), hi=Max("id")).order_by()):
            name = span["role"] if span["network"] == network else ("storage" if span["role"] == "storage" else "managed")
            spans.append((span["lo"], span["hi"], name))
        self.spans = sorted(spans)
        self._starts = [lo for lo, _hi, _name in self.spans]
        counts: dict[str, int] = {name: int(n) for name, n in (self.info.get("switches") or {}).items() if n}
        endpoints = self.info.get("endpoints") or {}
        counts["server"] = int(endpoints.get("servers") or 0)
        counts["storage"] = int(endpoints.get("storage_nodes") or 0)
        counts["managed"] = int(endpoints.get("switches") or 0)
        self.counts = counts
        self.labels = {**_labels(), **(_oob_labels() if network == "oob" else {})}
        self.groups = [g for g in ORDER if counts.get(g)]
        self._members: dict[str, list[int]] = {}

    def group_of(self, device_id: int) -> str:
        i = bisect_right(self._starts, device_id) - 1
        if i >= 0 and self.spans[i][0] <= device_id <= self.spans[i][1]:
            return self.spans[i][2]
        return "managed"

    def _group_case(self, end: str) -> Case:
        return Case(*[When(**{f"{end}__gte": lo, f"{end}__lte": hi}, then=Value(name)) for lo, hi, name in self.spans],
                    default=Value("managed"), output_field=CharField())

    def members(self, group: str) -> list[int]:
        """The ids of the group's devices that this network cables, in order."""
        if not self._members:
            ids: set[int] = set()
            for end in ("a_device_id", "b_device_id"):
                ids.update(self.links.values_list(end, flat=True).distinct().order_by())
            for device_id in sorted(ids):
                self._members.setdefault(self.group_of(device_id), []).append(device_id)
        return self._members.get(group, [])

    def block_size(self, group: str) -> int:
        n = len(self.members(group))
        return BLOCK if n <= BLOCK * MAX_BLOCKS else math.ceil(n / MAX_BLOCKS)

    def parse(self, node_id: str) -> tuple[str, int | None]:
        """(group, block or None) of a group or block id of this view; NetworkNodeError otherwise."""
        parts = str(node_id).split(":")
        if len(parts) not in (3, 4) or parts[:2] != ["net", self.network] or parts[2] not in self.groups:
            raise NetworkNodeError(node_id)
        if len(parts) == 3:
            return parts[2], None
        if not parts[3].startswith("b") or not parts[3][1:].isdigit():
            raise NetworkNodeError(node_id)
        block = int(parts[3][1:])
        n = len(self.members(parts[2]))
        if n <= BLOCK or block * self.block_size(parts[2]) >= n:
            raise NetworkNodeError(node_id)
        return parts[2], block

    def view(self, expanded: list[str]) -> dict[str, Any]:
        opened_groups: set[str] = set()
        opened_blocks: set[tuple[str, int]] = set()
        for node_id in expanded:
            group, block = self.parse(node_id)
            if block is None:
                opened_groups.add(group)
            else:
                opened_blocks.add((group, block))
        opened_blocks = {(g, b) for g, b in opened_blocks if g in opened_groups}
        kept = [n for n in expanded if self.parse(n)[0] in opened_groups
                and (self.parse(n)[1] is None or (self.parse(n)[0], self.parse(n)[1]) in opened_blocks)]

        # Where each device is drawn: its group, its block or itself.
        position: dict[str, dict[int, str]] = {}
        nodes = []
        devices: list[int] = []
        for col, group in enumerate(self.groups):
            group_id = f"net:{self.network}:{group}"
            if group not in opened_groups:
                nodes.append(self._group_node(group_id, group, col))
                continue
            members = self.members(group)
            size = self.block_size(group)
            where: dict[int, str] = {}
            if len(members) <= BLOCK:
                for device_id in members:
                    where[device_id] = f"ndev:{device_id}"
                devices += members
            else:
                for block in range(math.ceil(len(members) / size)):
                    block_id = f"{group_id}:b{block}"
                    chunk = members[block * size:(block + 1) * size]
                    if (group, block) in opened_blocks:
                        for device_id in chunk:
                            where[device_id] = f"ndev:{device_id}"
                        devices += chunk
                    else:
                        for device_id in chunk:
                            where[device_id] = block_id
                        nodes.append(self._block_node(block_id, group, block, chunk, col))
            position[group] = where
        names = dict(DeviceRecord.objects.filter(pk__in=devices).values_list("id", "name")) if devices else {}
        for group, where in position.items():
            col = self.groups.index(group)
            group_id = f"net:{self.network}:{group}"
            for device_id, drawn in where.items():
                if drawn.startswith("ndev:"):
                    parent = group_id if len(self.members(group)) <= BLOCK else \
                        f"{group_id}:b{self.members(group).index(device_id) // self.block_size(group)}"
                    nodes.append(self._device_node(device_id, names.get(device_id, str(device_id)), group, parent,
                                                   col))

        edges: dict[tuple, dict[str, Any]] = {}

        def add(a: str, b: str, tier: int, kind: str, length, n: int) -> None:
            edge = edges.setdefault((a, b, tier), {"count": 0, "media": defaultdict(int)})
            edge["count"] += n
            edge["media"][(kind, length)] += n

        def drawn(group: str, device_id: int | None) -> str:
            if group not in opened_groups or device_id is None:
                return f"net:{self.network}:{group}"
            return position[group][device_id]

        closed = self.links.annotate(a_group=self._group_case("a_device_id"), b_group=self._group_case("b_device_id"))
        if opened_groups:
            # Links between closed groups by GROUP BY; links touching an opened group one by one.
            opened = [g for g in opened_groups]
            closed = closed.exclude(a_group__in=opened).exclude(b_group__in=opened)
            touching = self.links.annotate(a_group=self._group_case("a_device_id"),
                                           b_group=self._group_case("b_device_id")).filter(
                Q(a_group__in=opened) | Q(b_group__in=opened))
            for row in touching.values("tier", "a_device_id", "b_device_id", "a_group", "b_group", "medium_kind",
                                       "length_m").order_by():
                add(drawn(row["a_group"], row["a_device_id"]), drawn(row["b_group"], row["b_device_id"]), row["tier"],
                    row["medium_kind"], row["length_m"], 1)
        stored = stored_network_links(self.version.pk, self.network)  # counted at save time (topology_groups)
        if stored is not None:
            rows = [dict(zip(("tier", "a_group", "b_group", "medium_kind", "length_m", "n"), row)) for row in stored
                    if row[1] not in opened_groups and row[2] not in opened_groups]
        else:
            rows = closed.values("tier", "a_group", "b_group", "medium_kind", "length_m").annotate(
                n=Count("id")).order_by()
        for row in rows:
            add(f"net:{self.network}:{row['a_group']}", f"net:{self.network}:{row['b_group']}", row["tier"],
                row["medium_kind"], row["length_m"], row["n"])
        edge_list = []
        for (a, b, tier), edge in edges.items():
            media = sorted(([kind, length, n] for (kind, length), n in edge["media"].items()),
                           key=lambda m: (-m[2], m[0]))
            edge_list.append({"data": {
                "id": f"e:net:{self.network}:{a}|{b}|{tier}", "source": a, "target": b,
                "tier": tier, "plane": None, "rail": None, "pod": None, "count": edge["count"], "media": media,
                "rails": [], "filters": {"tier": tier, "network": self.network},
            }})
        legend = [{"role": "server" if g in ("server", "storage", "managed") else g, "label": self.labels[g]}
                  for g in self.groups]
        return {
            "version": self.version.pk, "network": self.network, "level": "group", "levels": [],
            "tiers": int(self.info.get("tiers") or 2), "planes": 1, "rails": 0, "expanded": kept,
            "legend": {"rails": [], "planes": [], "groups": legend},
            "counts": {"nodes": len(nodes), "edges": len(edge_list)},
            "elements": {"nodes": nodes, "edges": edge_list},
        }

    def _base(self, node_id: str, group: str, col: int) -> dict[str, Any]:
        role = "server" if group in ("server", "storage", "managed") else group
        # No column: each tier is one row spread under the next, so a network's switches stand over all its ends.
        return {"id": node_id, "role": role, "layer": LAYER[group], "col": None, "parent": None, "plane": None,
                "pod": None, "su": None, "rail": None, "network": self.network, "filters": {}, "expanded": False}

    def _group_node(self, node_id: str, group: str, col: int) -> dict[str, Any]:
        count = self.counts[group]
        data = self._base(node_id, group, col)
        data.update(kind="netgroup", label=f"{self.labels[group]}\n{count:,}", title=self.labels[group], count=count,
                    order=col * 10**7, expandable=True)
        return {"data": data}

    def _block_node(self, node_id: str, group: str, block: int, chunk: list[int], col: int) -> dict[str, Any]:
        title = _("%(group)s, block %(block)s") % {"group": self.labels[group], "block": block}
        data = self._base(node_id, group, col)
        data.update(kind="netblock", label=f"{title}\n{len(chunk):,}", title=title, count=len(chunk),
                    order=col * 10**7 + block * self.block_size(group),
                    expandable=True, group=f"net:{self.network}:{group}")
        return {"data": data}

    def _device_node(self, device_id: int, name: str, group: str, parent: str, col: int) -> dict[str, Any]:
        data = self._base(f"ndev:{device_id}", group, col)
        data.update(kind="netdev", label=name, title=name, name=name, count=1,
                    order=col * 10**7 + self.members(group).index(device_id), expandable=False,
                    group=parent, filters={"device": name, "network": self.network})
        return {"data": data}
