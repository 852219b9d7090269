"""Topology expansion on demand: a group's children, a device's ports page by page, and the links
that touch what was expanded, added to (or taken out of) the aggregated edges.

Reads only the links of the expanded groups' devices (never the whole fabric); a device's ports
come PORT_PAGE at a time (at most PORT_PAGE_MAX). Groups larger than aggregation.BLOCK open as
blocks of BLOCK devices.
"""
from __future__ import annotations

import math
from collections import Counter
from functools import cached_property
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from apps.designs.models import PortRecord

from . import aggregation
from .aggregation import (
    LINK_EDGE_FIELDS, LINK_FIELDS, PORT_PAGE, PORT_PAGE_MAX, EdgeAcc, TopologyError, _edge_add, _kind, parse_node,
)


class ExpansionMixin:
    """Topology methods that open groups and ports (mixed into apps.designs.api.topology.Topology)."""

    def children(self, node_id: str, *, offset: int = 0, limit: int = PORT_PAGE_MAX) -> tuple[list[str], int]:
        """The node ids one level below `node_id`, and how many there are in all (ports are paged)."""
        ref = parse_node(node_id)
        kind = ref.kind
        c = self.census
        three = self.tiers == 3
        if kind == "srv":
            ids = self._with_ranges("srv", self.server_units)
        elif kind in aggregation.RANGE_KINDS:
            ids = self.range_children(ref)
        elif kind == "srvpod":
            ids = [f"srv:su{s}" for s, g in sorted(c["server"].items()) if g.pod == ref.pod]
        elif kind in ("srvsu", "spinepod", "coreplane") or (kind == "spineplane" and not three):
            group = self._group_of(ref)
            if group.count > aggregation.BLOCK:
                ids = [f"{node_id}:b{j}" for j in range(math.ceil(group.count / aggregation.BLOCK))]
            else:
                ids = [f"dev:{d.id}" for d in self.fetch_devices(self.subtree_condition(node_id))]
        elif kind in ("srvblk", "spineblk", "coreblk", "leafsu"):
            ids = [f"dev:{d.id}" for d in self.fetch_devices(self.subtree_condition(node_id))]
        elif kind == "leafplane":
            ids = self._with_ranges(f"leaf:p{ref.plane}", self.leaf_units(ref.plane))
        elif kind == "leafpod":
            ids = [f"leaf:p{ref.plane}:su{s}" for (p, s), g in sorted(c["leaf"].items())
                   if p == ref.plane and g.pod == ref.pod]
        elif kind == "spineplane":
            ids = self._with_ranges(f"spine:p{ref.plane}", self.spine_units(ref.plane))
        elif kind == "dev":
            # The backend's ports only: a server's front-end, storage and BMC ports are other networks' rows.
            ports = PortRecord.objects.filter(device_id=ref.device, pk__gte=self.first_id,
                                              pk__lte=self.last_id).order_by("number")
            total = ports.count()
            rows = list(ports.values("name", "number", "speed_gbps", "link_id")[offset:offset + limit])
            # A link's a end is its lower tier: a port whose device is the a end cables upwards.
            lower_end = dict(self._links().filter(pk__in=[row["link_id"] for row in rows])
                             .values_list("id", "a_device_id"))
            for row in rows:
                row["toward"] = "up" if lower_end.get(row["link_id"]) == ref.device else "down"
            self.port_info.update({f"port:{ref.device}:{row['name']}": row for row in rows})
            return [f"port:{ref.device}:{row['name']}" for row in rows], total
        else:
            raise ValueError(node_id)
        return ids, len(ids)

    def _with_ranges(self, prefix: str, units: list[int]) -> list[str]:
        """A plane's (or all servers') pods or scale units as drawn: the first ones, then their range."""
        return list(dict.fromkeys(self._unit_or_range(prefix, units, key)[0] for key in units))

    @cached_property
    def port_info(self) -> dict[str, dict]:
        return {}

    # Nodes ----------------------------------------------------------------------------------

    def prune(self, expanded) -> list[str]:
        """The expanded ids that take effect, parents first: each must be visible once its
        ancestors below the first view's groups are expanded. Unknown ids raise TopologyError."""
        chains: dict[str, list[str]] = {}
        device_ids = []
        for node_id in expanded:
            try:
                ref = parse_node(node_id)
            except ValueError:
                raise TopologyError("expanded", _("Unknown node %(node)s.") % {"node": node_id}) from None
            if ref.kind in ("dev", "port"):
                device_ids.append(ref.device)
        self.fetch_device_ids([d for d in device_ids if self.first_id <= d <= self.last_id])
        for node_id in expanded:
            try:
                chains[node_id] = self.group_chain(node_id)
            except (ValueError, KeyError):
                raise TopologyError("expanded", _("Unknown node %(node)s.") % {"node": node_id}) from None
        kept: list[str] = []
        kept_set: set[str] = set()
        for node_id in sorted(chains, key=lambda n: len(chains[n])):
            chain = chains[node_id]
            if _kind(node_id) in ("port", "box"):
                continue
            base = self.base_index(chain)
            position = len(chain) - 1
            if position < base:
                continue
            if all(ancestor in kept_set for ancestor in chain[base:position]):
                kept.append(node_id)
                kept_set.add(node_id)
        return kept

    def links_touching(self, node_ids: list[str]) -> list:
        """Every link with an end among the devices under these nodes (the columns edges need)."""
        if not node_ids:
            return []
        condition = Q()
        for node_id in node_ids:
            condition |= self.subtree_condition(node_id)
        ids = [dev.id for dev in self.fetch_devices(condition)]
        # Literal ids let PostgreSQL combine the two device indexes (a subquery would scan every link).
        links = self._links().filter(Q(a_device_id__in=ids) | Q(b_device_id__in=ids))
        rows = list(links.values_list(*LINK_EDGE_FIELDS, named=True))
        self.fetch_device_ids({row.a_device_id for row in rows} | {row.b_device_id for row in rows})
        return rows

    def add_link_edges(self, edges: dict[tuple, EdgeAcc], rows: list, expanded, *, sign: int = 1,
                       present: set[str] | None = None) -> None:
        """Merge links into `edges` as drawn with `expanded` (sign -1 takes them out again).

        A link with a port at either end becomes its own edge with every detail. With `present`,
        links whose ends are not among those node ids are left out (ports beyond a page)."""
        drawn: dict[int, tuple[str, bool]] = {}

        def end(device_id: int, port: str) -> str:
            seen = drawn.get(device_id)
            if seen is None:
                chain = self.device_chain(self.devs[device_id])
                seen = drawn[device_id] = (self.visible(chain, expanded), chain[-1] in expanded)
            return f"port:{device_id}:{port}" if seen[1] else seen[0]

        single: list[tuple[int, str, str]] = []
        for row in rows:
            a = end(row.a_device_id, row.a_port)
            b = end(row.b_device_id, row.b_port)
            if present is not None and (a not in present or b not in present):
                continue
            if a.startswith("port:") or b.startswith("port:"):
                single.append((row.id, a, b))
                continue
            _edge_add(edges, a, b, row.tier, row.plane, row.rail, row.pod, row.medium_kind, row.length_m, sign,
                      split_rail=self.split_rail(row.tier, b))
        for start in range(0, len(single), 5000):
            chunk = {link_id: (a, b) for link_id, a, b in single[start:start + 5000]}
            for row in self._links().filter(pk__in=list(chunk)).values(*LINK_FIELDS):
                a, b = chunk[row["id"]]
                edges[("link", row["id"])] = self._link_edge(row, a, b)

    def _link_edge(self, row: dict, a: str, b: str) -> EdgeAcc:
        a_dev, b_dev = self.devs[row["a_device_id"]], self.devs[row["b_device_id"]]
        link = {
            "link": row["id"], "a_device": a_dev.name, "a_port": row["a_port"], "b_device": b_dev.name,
            "b_port": row["b_port"], "medium": row["medium"], "medium_kind": row["medium_kind"],
            "fiber": row["fiber"], "a_sku": row["a_sku"], "b_sku": row["b_sku"], "cable_sku": row["cable_sku"],
            "length_m": row["length_m"], "label_a": row["label_a"], "label_b": row["label_b"],
            "subnet": row["subnet"], "a_ip": row["a_ip"], "b_ip": row["b_ip"],
        }
        rails = Counter({row["rail"]: 1}) if row["tier"] == 0 else Counter()
        return EdgeAcc(a, b, row["tier"], row["plane"], row["rail"] if row["tier"] == 0 else None, row["pod"], 1,
                       Counter({(row["medium_kind"], float(row["length_m"])): 1}), rails, link)

    # Whole views and expansions -------------------------------------------------------------

    def expand(self, node_id: str, *, expanded, offset: int = 0, limit: int = PORT_PAGE) -> dict[str, Any]:
        """The children of `node_id` and the edges that replace its own, with `expanded` already open."""
        try:
            ref = parse_node(node_id)
            if ref.kind in ("dev", "port") and not (self.first_id <= ref.device <= self.last_id):
                raise ValueError(node_id)
            chain = self.group_chain(node_id)
        except (ValueError, KeyError):
            raise TopologyError("node", _("Unknown node %(node)s.") % {"node": node_id}) from None
        if ref.kind in ("port", "box"):
            raise TopologyError("node", _("%(node)s cannot be expanded.") % {"node": node_id})
        if len(chain) - 1 < self.base_index(chain):
            raise TopologyError("node", _("%(node)s is not drawn at this level.") % {"node": node_id})
        expanded_ids = self.prune([*expanded, node_id])
        if node_id not in expanded_ids:
            raise TopologyError("node", _("Expand the groups above %(node)s first.") % {"node": node_id})
        expanded_set = frozenset(expanded_ids)
        children, total = self.children(node_id, offset=offset, limit=limit)
        rows = self.links_touching([node_id])
        edges: dict[tuple, EdgeAcc] = {}
        if ref.kind == "dev":
            own = set(children)
            rows = [row for row in rows if _row_port_in(row, ref.device, own)]
        self.add_link_edges(edges, rows, expanded_set)
        nodes = self._nodes_with_compounds(children, expanded_set)
        response = self._response(nodes, edges, expanded_ids)
        response.update(node=node_id, replaced=self.compound_of(node_id) != node_id, total=total, offset=offset,
                        next_offset=offset + len(children) if ref.kind == "dev" and offset + len(children) < total
                        else None)
        return response


def _row_port_in(row, device_id: int, ports: set[str]) -> bool:
    if row.a_device_id == device_id and f"port:{device_id}:{row.a_port}" in ports:
        return True
    return row.b_device_id == device_id and f"port:{device_id}:{row.b_port}" in ports
