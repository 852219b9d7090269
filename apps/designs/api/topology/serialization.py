"""Topology serialization: visible nodes, compound boxes and merged edges as cytoscape.js elements.

A node carries its label, role, layer (server 0 .. core 3), column and order for the layout, and
counts; an edge its count, the media breakdown (kind, length -> links) and, for a single link,
every detail (ends, medium, length, labels, addresses). Texts are in the user's language.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import aggregation
from .aggregation import GROUP_ROLE, LAYER, Dev, EdgeAcc, parse_node


class SerializationMixin:
    """Topology methods that write elements (mixed into apps.designs.api.topology.Topology)."""

    def node_data(self, node_id: str, chain: list[str], *, expanded: bool) -> dict[str, Any]:
        i = chain.index(node_id)
        data = self._describe(node_id)
        data["id"] = node_id
        data["parent"] = self.parent_of(chain, i)
        data["expanded"] = expanded
        return data

    def box_data(self, box_id: str) -> dict[str, Any]:
        ref = parse_node(box_id)
        label = _("Pod %(pod)s") % {"pod": ref.pod}
        if self.planes_drawn > 1:
            label += " · " + _("plane %(plane)s") % {"plane": ref.plane}
        return {
            "id": box_id, "kind": "box", "label": label, "role": "", "layer": None, "plane": ref.plane,
            "pod": ref.pod, "expanded": True, "expandable": True, "parent": None,
            "filters": {"plane": ref.plane, "pod": ref.pod},
        }

    def _plane_suffix(self, plane: int | None) -> str:
        if self.planes_drawn > 1 and plane is not None:
            return "\n" + _("plane %(plane)s") % {"plane": plane}
        return ""

    def _describe(self, node_id: str) -> dict[str, Any]:
        ref = parse_node(node_id)
        kind = ref.kind
        c = self.census
        three = self.tiers == 3
        base: dict[str, Any] = {"kind": kind, "expandable": kind != "port", "plane": ref.plane, "pod": ref.pod,
                                "su": ref.su, "rail": None}
        if kind == "port":
            dev = self.dev(ref.device)
            info = self.port_info.get(node_id, {})
            base.update(
                label=ref.port, role=dev.role, layer=LAYER[dev.role], device=dev.name, col=self._dev_col(dev),
                order=dev.index * 10000 + int(info.get("number", 0)), speed_gbps=info.get("speed_gbps"),
                number=info.get("number"), toward=info.get("toward"), filters={"device": dev.name},
                plane=dev.plane, pod=dev.pod, su=dev.su,
            )
            return base
        if kind == "dev":
            dev = self.dev(ref.device)
            base.update(
                label=dev.name, role=dev.role, layer=LAYER[dev.role], col=self._dev_col(dev), order=dev.index,
                name=dev.name, sku=dev.sku, model=dev.model, rack=dev.rack, asn=dev.asn, loopback=dev.loopback,
                ports=dev.ports, plane=dev.plane, pod=dev.pod, su=dev.su, rail=dev.rail, count=1,
                filters={"device": dev.name},
            )
            return base
        role = GROUP_ROLE[kind]
        base["role"] = role
        base["layer"] = LAYER[role]
        if kind == "srv":
            count = sum(g.count for g in c["server"].values())
            title, order, col = _("All servers"), 0, self._server_col(None, None)
            filters: dict[str, Any] = {"tier": 0}
        elif kind in aggregation.RANGE_KINDS:
            first = ref.pod if three else ref.su
            units = set(self.range_units(ref))
            if kind == "srvrange":
                groups = [g for su, g in c["server"].items() if (g.pod if three else su) in units]
                col = self._server_col(first, None) if three else self._server_col(None, first)
                filters = {"tier": 0}
            elif kind == "leafrange":
                groups = [g for (p, su), g in c["leaf"].items() if p == ref.plane and (g.pod if three else su) in units]
                col, filters = [ref.plane, first], {"plane": ref.plane}
            else:
                groups = [g for (p, k), g in c["spine"].items() if p == ref.plane and k in units]
                col, filters = [ref.plane, first], {"plane": ref.plane, "tier": 1}
            count, order = sum(g.count for g in groups), min(g.lo for g in groups)
            title = _range_title(kind, three, first, ref.last) + (
                self._plane_suffix(ref.plane) if kind != "srvrange" else "")
            base["pod"] = base["su"] = None
            base["first"], base["last"] = first, ref.last
        elif kind == "srvpod":
            groups = [g for g in c["server"].values() if g.pod == ref.pod]
            count = sum(g.count for g in groups)
            title, order = _("Pod %(pod)s servers") % {"pod": ref.pod}, min(g.lo for g in groups)
            col, filters = self._server_col(ref.pod, None), {"tier": 0, "pod": ref.pod}
        elif kind in ("srvsu", "srvblk"):
            group = c["server"][ref.su]
            base["pod"] = group.pod
            col = self._server_col(group.pod, ref.su)
            filters = {"tier": 0} | ({"pod": group.pod} if group.pod is not None else {})
            if kind == "srvsu":
                count, order, title = group.count, group.lo, _("SU %(su)s servers") % {"su": ref.su}
            else:
                lo = group.lo + ref.block * aggregation.BLOCK
                count = min(aggregation.BLOCK, group.count - ref.block * aggregation.BLOCK)
                order, title = lo, _("SU %(su)s servers, block %(block)s") % {"su": ref.su, "block": ref.block}
        elif kind == "leafplane":
            groups = [g for (p, _s), g in c["leaf"].items() if p == ref.plane]
            count, order = sum(g.count for g in groups), min(g.lo for g in groups)
            title, col, filters = _("Plane %(plane)s leaves") % {"plane": ref.plane}, [ref.plane], {"plane": ref.plane}
        elif kind == "leafpod":
            groups = [g for (p, _s), g in c["leaf"].items() if p == ref.plane and g.pod == ref.pod]
            count, order = sum(g.count for g in groups), min(g.lo for g in groups)
            title = _("Pod %(pod)s leaves") % {"pod": ref.pod} + self._plane_suffix(ref.plane)
            col, filters = [ref.plane, ref.pod], {"plane": ref.plane, "pod": ref.pod}
        elif kind == "leafsu":
            group = c["leaf"][(ref.plane, ref.su)]
            count, order, base["pod"] = group.count, group.lo, group.pod
            title = _("SU %(su)s leaves") % {"su": ref.su} + self._plane_suffix(ref.plane)
            col = [ref.plane, group.pod, ref.su] if three else [ref.plane, ref.su]
            filters = {"plane": ref.plane} | ({"pod": group.pod} if group.pod is not None else {})
        elif kind in ("spineplane", "spinepod", "spineblk"):
            if kind == "spineplane":
                groups = [g for (p, _k), g in c["spine"].items() if p == ref.plane]
                title = _("Plane %(plane)s spines") % {"plane": ref.plane}
                col, filters = [ref.plane], {"plane": ref.plane, "tier": 1}
            else:
                groups = [c["spine"][(ref.plane, ref.pod if three else None)]]
                title = (_("Pod %(pod)s spines") % {"pod": ref.pod} if ref.pod is not None
                         else _("Plane %(plane)s spines") % {"plane": ref.plane}) + self._plane_suffix(ref.plane)
                col = [ref.plane, ref.pod] if ref.pod is not None else [ref.plane]
                filters = {"plane": ref.plane} | ({"pod": ref.pod} if ref.pod is not None else {})
            count, order = sum(g.count for g in groups), min(g.lo for g in groups)
            if kind == "spineblk":
                group = groups[0]
                order = group.lo + ref.block * aggregation.BLOCK
                count = min(aggregation.BLOCK, group.count - ref.block * aggregation.BLOCK)
                title = _("Spines, block %(block)s") % {"block": ref.block} + self._plane_suffix(ref.plane)
        else:  # coreplane, coreblk
            group = c["core"][ref.plane]
            title = _("Plane %(plane)s cores") % {"plane": ref.plane} if self.planes > 1 else _("Cores")
            count, order, col = group.count, group.lo, [ref.plane]
            filters = {"plane": ref.plane, "tier": 2}
            if kind == "coreblk":
                order = group.lo + ref.block * aggregation.BLOCK
                count = min(aggregation.BLOCK, group.count - ref.block * aggregation.BLOCK)
                title = _("Cores, block %(block)s") % {"block": ref.block} + self._plane_suffix(ref.plane)
        base.update(label=f"{title}\n{_count_text(role, count)}", title=title, count=count, order=order, col=col,
                    filters=filters)
        return base

    def _server_col(self, pod: int | None, su: int | None) -> list[int] | None:
        # With several planes drawn the servers stand apart under all of them (spread in order).
        if self.planes_drawn > 1:
            return None
        col = [self.plane_numbers[0] if self.plane_numbers else 0]
        if pod is not None:
            col.append(pod)
        if su is not None:
            if self.tiers == 3 and pod is None:
                col.append(self.census["server"][su].pod)
            col.append(su)
        return col

    def _dev_col(self, dev: Dev) -> list[int] | None:
        if dev.role == "server":
            return self._server_col(dev.pod, dev.su)
        if dev.role == "leaf":
            return [dev.plane, dev.pod, dev.su] if self.tiers == 3 else [dev.plane, dev.su]
        if dev.role == "spine":
            return [dev.plane, dev.pod] if self.tiers == 3 else [dev.plane]
        return [dev.plane]

    # The first view ------------------------------------------------------------------------

    def _nodes_with_compounds(self, visible: list[str], expanded: frozenset[str]) -> list[dict]:
        """Node data for the visible nodes, preceded by the compounds (boxes, open groups) holding them."""
        nodes: dict[str, dict] = {}
        compounds: dict[str, dict] = {}
        for node_id in visible:
            chain = self.group_chain(node_id)
            nodes[node_id] = self.node_data(node_id, chain, expanded=False)
            parent = nodes[node_id]["parent"]
            while parent is not None and parent not in compounds:
                if parent.startswith("box:"):
                    compounds[parent] = self.box_data(parent)
                    break
                compounds[parent] = self.node_data(parent, chain, expanded=True)
                parent = compounds[parent]["parent"]
        # Outer compounds first, so each parent exists before its children are added.
        depth = {node_id: 0 if node_id.startswith("box:") else len(self.group_chain(node_id)) for node_id in compounds}
        ordered = sorted(compounds.values(), key=lambda n: depth[n["id"]])
        return ordered + list(nodes.values())

    def _response(self, nodes: list[dict], edges: dict[tuple, EdgeAcc], expanded: list[str]) -> dict[str, Any]:
        edge_list = [self._edge_data(edge) for edge in edges.values() if edge.count > 0]
        return {
            "version": self.version.pk,
            "level": self.level,
            "levels": list(self.levels()),
            "tiers": self.tiers,
            "planes": self.planes,
            "plane": self.plane,
            "rails": self.rails,
            "expanded": expanded,
            "legend": {"rails": list(range(self.rails)), "planes": self.plane_numbers},
            "counts": {"nodes": len(nodes), "edges": len(edge_list)},
            "elements": {"nodes": [{"data": n} for n in nodes], "edges": [{"data": e} for e in edge_list]},
        }

    def _edge_data(self, edge: EdgeAcc) -> dict[str, Any]:
        media = sorted(([kind, length, n] for (kind, length), n in edge.media.items() if n > 0),
                       key=lambda m: (-m[2], m[0], m[1]))
        data: dict[str, Any] = {
            "source": edge.source, "target": edge.target, "tier": edge.tier, "plane": edge.plane,
            "rail": edge.rail, "pod": edge.pod, "count": edge.count, "media": media,
            "rails": sorted([rail, n] for rail, n in edge.rails.items() if n > 0 and rail is not None),
        }
        if edge.link is not None:
            data.update(edge.link)
            data["id"] = f"link:{edge.link['link']}"
            data["filters"] = {"device": edge.link["a_device"]}
            return data
        data["id"] = f"e:{edge.source}|{edge.target}|{edge.tier}|{'' if edge.rail is None else edge.rail}"
        filters: dict[str, Any] = {"tier": edge.tier}
        if edge.plane is not None:
            filters["plane"] = edge.plane
        if edge.rail is not None:
            filters["rail"] = edge.rail
        if edge.pod is not None:
            filters["pod"] = edge.pod
        # A device at either end narrows the cabling table best (the API filters one device).
        for end in (edge.target, edge.source):
            if end.startswith("dev:"):
                filters = {"tier": edge.tier, "device": self.devs[int(end[4:])].name}
                break
        data["filters"] = filters
        return data


def _range_title(kind: str, three: bool, first: int, last: int) -> str:
    values = {"first": first, "last": last}
    if kind == "srvrange":
        return (_("Pods %(first)s–%(last)s servers") if three else _("SUs %(first)s–%(last)s servers")) % values
    if kind == "leafrange":
        return (_("Pods %(first)s–%(last)s leaves") if three else _("SUs %(first)s–%(last)s leaves")) % values
    return _("Pods %(first)s–%(last)s spines") % values


def _count_text(role: str, count: int) -> str:
    if role == "server":
        return ngettext("%(n)s server", "%(n)s servers", count) % {"n": f"{count:,}"}
    if role == "leaf":
        return ngettext("%(n)s leaf", "%(n)s leaves", count) % {"n": f"{count:,}"}
    if role == "spine":
        return ngettext("%(n)s spine", "%(n)s spines", count) % {"n": f"{count:,}"}
    return ngettext("%(n)s core", "%(n)s cores", count) % {"n": f"{count:,}"}
