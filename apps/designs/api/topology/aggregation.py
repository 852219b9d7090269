"""The topology of a generated version as cytoscape.js elements: aggregated first, expanded on demand.

Rules:
- Every device has a chain of groups from its plane down to itself; a port adds one more link:
    servers  srv > srv:pod{k} (3 tiers) > srv:su{s} > [srv:su{s}:b{j}] > dev:{id}
    leaves   leaf:p{p} > leaf:p{p}:pod{k} (3 tiers) > leaf:p{p}:su{s} > dev:{id}
    spines   spine:p{p} > spine:p{p}:pod{k} (3 tiers) > [...:b{j}] > dev:{id}
    cores    core:p{p} > [core:p{p}:b{j}] > dev:{id}
    ports    ... > dev:{id} > port:{device id}:{port name}
  A block (b{j}) holds BLOCK consecutive devices of a group larger than BLOCK, so no expansion
  draws more than BLOCK devices at once.
- A level names the group each chain starts from in the first view: "plane", "pod" (3 tiers),
  "su" or "device". "auto" picks the finest level whose estimated element count fits
  ELEMENT_BUDGET: a 65,536-GPU fabric (196,608 links) opens at pod level with 449 elements
  (257 nodes, 192 edges). Numbers (plane, pod, SU, rail) are 0-based, as in device names.
- A device is drawn as its deepest visible group: from the level's group, walk down its chain
  while the group is expanded. Links between the same two visible nodes merge into one edge with
  a count and a media breakdown (kind, length -> links). Server-leaf edges to a single leaf (one
  rail) are drawn in the rail's colour; towards a group of leaves (all rails of an SU or a pod)
  one edge carries the rails as a breakdown, which keeps the largest first view to a few hundred
  edges. A link with a port at either end is drawn alone, with every detail (ends, medium,
  length, labels, addresses).
- The first view comes from GROUP BY queries over the version's link rows; an expansion reads
  only the links of the expanded group's devices. First views are cached per version, level and
  language (generated versions never change).
- Expanded groups become compound nodes holding their children, except pod groups, whose
  children stay in the pod's box (box:pod:p{p}:{k}, which holds the pod's leaf and spine sides),
  and plane-wide groups, whose children stand alone.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import BigIntegerField, Case, Count, F, Max, Min, Q, Value, When
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.response import Response

from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord, PortRecord, record_id_range
from apps.designs.api.views import VersionScopedMixin

BLOCK = 64
ELEMENT_BUDGET = 1000
PORT_PAGE = 256
PORT_PAGE_MAX = 1024
MAX_EXPANDED = 200
LEVELS = ("plane", "pod", "su", "device")
LAYER = {"server": 0, "leaf": 1, "spine": 2, "core": 3}
CACHE_SECONDS = 24 * 3600

# Kinds drawn as a compound box around their children once expanded (the others are replaced).
COMPOUND_KINDS = frozenset({"srvpod", "srvsu", "srvblk", "leafsu", "spineblk", "coreblk", "dev"})
POD_SIDE_KINDS = frozenset({"leafpod", "spinepod"})
GROUP_ROLE = {
    "srv": "server", "srvpod": "server", "srvsu": "server", "srvblk": "server",
    "leafplane": "leaf", "leafpod": "leaf", "leafsu": "leaf",
    "spineplane": "spine", "spinepod": "spine", "spineblk": "spine",
    "coreplane": "core", "coreblk": "core",
}


class TopologyError(Exception):
    """Bad input to the topology (unknown level or node): field -> message."""

    def __init__(self, field_name: str, message: str):
        super().__init__(message)
        self.field_name = field_name
        self.message = message


@dataclass(frozen=True, slots=True)
class Ref:
    """A parsed node id."""

    kind: str
    plane: int | None = None
    pod: int | None = None
    su: int | None = None
    block: int | None = None
    device: int | None = None
    port: str | None = None


def _int(text: str, prefix: str) -> int:
    if not text.startswith(prefix) or not text[len(prefix):].isdigit():
        raise ValueError(text)
    return int(text[len(prefix):])


def parse_node(node_id: str) -> Ref:
    """Ref of a node id; ValueError when it is not one."""
    parts = str(node_id).split(":")
    head = parts[0]
    if head == "srv":
        if len(parts) == 1:
            return Ref("srv")
        if parts[1].startswith("pod") and len(parts) == 2:
            return Ref("srvpod", pod=_int(parts[1], "pod"))
        su = _int(parts[1], "su")
        if len(parts) == 2:
            return Ref("srvsu", su=su)
        if len(parts) == 3:
            return Ref("srvblk", su=su, block=_int(parts[2], "b"))
    elif head in ("leaf", "spine", "core") and len(parts) >= 2:
        plane = _int(parts[1], "p")
        rest = parts[2:]
        if not rest:
            return Ref(f"{head}plane", plane=plane)
        if head == "leaf" and len(rest) == 1 and rest[0].startswith("pod"):
            return Ref("leafpod", plane=plane, pod=_int(rest[0], "pod"))
        if head == "leaf" and len(rest) == 1:
            return Ref("leafsu", plane=plane, su=_int(rest[0], "su"))
        if head == "spine" and len(rest) == 1 and rest[0].startswith("pod"):
            return Ref("spinepod", plane=plane, pod=_int(rest[0], "pod"))
        if head == "spine" and len(rest) == 2:
            return Ref("spineblk", plane=plane, pod=_int(rest[0], "pod"), block=_int(rest[1], "b"))
        if head in ("spine", "core") and len(rest) == 1:
            return Ref(f"{head}blk", plane=plane, block=_int(rest[0], "b"))
    elif head == "dev" and len(parts) == 2:
        return Ref("dev", device=_int(parts[1], ""))
    elif head == "port" and len(parts) == 3 and parts[2]:
        return Ref("port", device=_int(parts[1], ""), port=parts[2])
    elif head == "box" and len(parts) == 4 and parts[1] == "pod":
        return Ref("box", plane=_int(parts[2], "p"), pod=_int(parts[3], ""))
    raise ValueError(node_id)


@dataclass(slots=True)
class Dev:
    id: int
    index: int
    name: str
    role: str
    plane: int | None
    pod: int | None
    su: int | None
    rail: int | None
    sku: str = ""
    model: str = ""
    rack: str = ""
    asn: int | None = None
    loopback: str | None = None
    ports: int = 0


DEV_FIELDS = ("id", "index", "name", "role", "plane", "pod", "su", "rail", "sku", "model", "rack", "asn", "loopback",
              "ports")
LINK_EDGE_FIELDS = ("id", "tier", "a_device_id", "a_port", "b_device_id", "b_port", "plane", "rail", "pod",
                    "medium_kind", "length_m")
LINK_FIELDS = ("id", "tier", "a_device_id", "a_port", "b_device_id", "b_port", "plane", "rail", "pod", "medium",
               "medium_kind", "fiber", "a_sku", "b_sku", "cable_sku", "length_m", "label_a", "label_b", "subnet",
               "a_ip", "b_ip")


@dataclass(slots=True)
class Group:
    """Devices of one group in the census: how many and their index range (devices are contiguous)."""

    count: int
    lo: int
    hi: int
    pod: int | None = None


@dataclass(slots=True)
class EdgeAcc:
    source: str
    target: str
    tier: int
    plane: int | None
    rail: int | None
    pod: int | None = None
    count: int = 0
    media: Counter = field(default_factory=Counter)
    rails: Counter = field(default_factory=Counter)
    link: dict | None = None


class Topology:
    """The cytoscape elements of one ready version for a level and a set of expanded nodes."""

    def __init__(self, version: DesignVersion, *, level: str = "auto"):
        self.version = version
        summary = version.summary or {}
        self.tiers = int(summary.get("tiers") or 2)
        self.planes = int(summary.get("planes") or 1)
        self.rails = int(summary.get("rails") or 0)
        self.summary = summary
        self.first_id, self.last_id = record_id_range(version.pk)
        self.devs: dict[int, Dev] = {}
        self.requested_level = level
        if level == "auto":
            level = self.auto_level()
        if level not in self.levels():
            choices = ", ".join(("auto", *self.levels()))
            raise TopologyError("level", _("Choose one of %(levels)s.") % {"levels": choices})
        self.level = level

    # Census ---------------------------------------------------------------------------------

    def levels(self) -> tuple[str, ...]:
        return LEVELS if self.tiers == 3 else tuple(level for level in LEVELS if level != "pod")

    def _devices(self):
        return DeviceRecord.objects.filter(version=self.version, pk__gte=self.first_id, pk__lte=self.last_id)

    def _links(self):
        return LinkRecord.objects.filter(version=self.version, pk__gte=self.first_id, pk__lte=self.last_id)

    @cached_property
    def census(self) -> dict[str, dict]:
        """Group sizes: servers by SU, leaves by (plane, SU), spines by (plane, pod), cores by plane."""
        out: dict[str, dict] = {"server": {}, "leaf": {}, "spine": {}, "core": {}}
        rows = (
            self._devices().values("role", "plane", "pod", "su")
            .annotate(n=Count("id"), lo=Min("index"), hi=Max("index")).order_by()
        )
        for row in rows:
            group = Group(row["n"], row["lo"], row["hi"], row["pod"])
            role = row["role"]
            if role == "server":
                out["server"][row["su"]] = group
            elif role == "leaf":
                out["leaf"][(row["plane"], row["su"])] = group
            elif role == "spine":
                out["spine"][(row["plane"], row["pod"])] = group
            elif role == "core":
                out["core"][row["plane"]] = group
        return out

    @cached_property
    def plane_numbers(self) -> list[int]:
        return sorted({plane for plane, _su in self.census["leaf"]})

    @cached_property
    def _plane_pods(self) -> dict[int, list[int]]:
        pods: dict[int, set[int]] = {}
        for (plane, _su), group in self.census["leaf"].items():
            if group.pod is not None:
                pods.setdefault(plane, set()).add(group.pod)
        return {plane: sorted(values) for plane, values in pods.items()}

    def _pods_of_plane(self, plane: int) -> list[int]:
        return self._plane_pods.get(plane, [])

    @cached_property
    def _server_pod_list(self) -> list[int]:
        return sorted({g.pod for g in self.census["server"].values() if g.pod is not None})

    def _server_pods(self) -> list[int]:
        return self._server_pod_list

    def estimate(self, level: str) -> int:
        """Roughly how many elements the first view at `level` has (nodes, boxes and edges)."""
        c = self.census
        sus = len(c["server"])
        planes = max(1, len(self.plane_numbers))
        pods = len(self._server_pods())
        rails = max(1, self.rails)
        spine_groups = len(c["spine"])
        if level == "plane":
            return 1 + 3 * planes + 3 * planes
        if level == "pod":
            return pods + 3 * planes * pods + planes + planes * pods + 2 * planes * pods
        if level == "su":
            nodes = sus * (1 + planes) + spine_groups + planes + planes * pods
            return nodes + planes * sus + planes * sus + spine_groups
        switches = self.summary.get("switches") or {}
        links = self.summary.get("links") or {}
        leaves, spines, cores = (int(switches.get(r) or 0) for r in ("leaf", "spine", "core"))
        per_spine_group = spines / max(1, spine_groups)
        leaf_spine_pairs = min(int(links.get("leaf-spine") or 0), int(leaves * per_spine_group))
        spine_core_pairs = min(int(links.get("spine-core") or 0), spines * max(1, cores // planes))
        return sus + leaves + spines + cores + planes * sus + planes * pods + sus * rails + leaf_spine_pairs \
            + spine_core_pairs

    def auto_level(self) -> str:
        for level in reversed(self.levels()):
            if self.estimate(level) <= ELEMENT_BUDGET:
                return level
        return "plane"

    # Chains ---------------------------------------------------------------------------------

    def _block_of(self, group: Group, index: int) -> int | None:
        return (index - group.lo) // BLOCK if group.count > BLOCK else None

    def device_chain(self, dev: Dev) -> list[str]:
        three = self.tiers == 3
        c = self.census
        if dev.role == "server":
            chain = ["srv"]
            if three:
                chain.append(f"srv:pod{dev.pod}")
            chain.append(f"srv:su{dev.su}")
            block = self._block_of(c["server"][dev.su], dev.index)
            if block is not None:
                chain.append(f"srv:su{dev.su}:b{block}")
        elif dev.role == "leaf":
            chain = [f"leaf:p{dev.plane}"]
            if three:
                chain.append(f"leaf:p{dev.plane}:pod{dev.pod}")
            chain.append(f"leaf:p{dev.plane}:su{dev.su}")
        elif dev.role == "spine":
            chain = [f"spine:p{dev.plane}"]
            top = f"spine:p{dev.plane}"
            if three:
                top = f"spine:p{dev.plane}:pod{dev.pod}"
                chain.append(top)
            block = self._block_of(c["spine"][(dev.plane, dev.pod if three else None)], dev.index)
            if block is not None:
                chain.append(f"{top}:b{block}")
        else:
            chain = [f"core:p{dev.plane}"]
            block = self._block_of(c["core"][dev.plane], dev.index)
            if block is not None:
                chain.append(f"core:p{dev.plane}:b{block}")
        chain.append(f"dev:{dev.id}")
        return chain

    def group_chain(self, node_id: str) -> list[str]:
        """Ids from the top of the chain down to `node_id` (inclusive); ValueError if unknown."""
        ref = parse_node(node_id)
        kind = ref.kind
        c = self.census
        three = self.tiers == 3
        if kind == "port":
            return [*self.device_chain(self.dev(ref.device)), node_id]
        if kind == "dev":
            return self.device_chain(self.dev(ref.device))
        if kind == "srv":
            return ["srv"]
        if kind == "srvpod":
            if not three or ref.pod not in self._server_pods():
                raise ValueError(node_id)
            return ["srv", node_id]
        if kind in ("srvsu", "srvblk"):
            group = c["server"].get(ref.su)
            if group is None:
                raise ValueError(node_id)
            chain = ["srv"] + ([f"srv:pod{group.pod}"] if three else []) + [f"srv:su{ref.su}"]
            if kind == "srvblk":
                if group.count <= BLOCK or ref.block * BLOCK >= group.count:
                    raise ValueError(node_id)
                chain.append(node_id)
            return chain
        if kind in ("leafplane", "spineplane", "coreplane"):
            if ref.plane not in self.plane_numbers or (kind == "coreplane" and ref.plane not in c["core"]):
                raise ValueError(node_id)
            return [node_id]
        if kind == "leafpod":
            if not three or ref.pod not in self._pods_of_plane(ref.plane):
                raise ValueError(node_id)
            return [f"leaf:p{ref.plane}", node_id]
        if kind == "leafsu":
            group = c["leaf"].get((ref.plane, ref.su))
            if group is None:
                raise ValueError(node_id)
            return [f"leaf:p{ref.plane}"] + ([f"leaf:p{ref.plane}:pod{group.pod}"] if three else []) + [node_id]
        if kind == "spinepod":
            if not three or (ref.plane, ref.pod) not in c["spine"]:
                raise ValueError(node_id)
            return [f"spine:p{ref.plane}", node_id]
        if kind == "spineblk":
            key = (ref.plane, ref.pod)
            if (ref.pod is not None) != three or key not in c["spine"]:
                raise ValueError(node_id)
            group = c["spine"][key]
            if group.count <= BLOCK or ref.block * BLOCK >= group.count:
                raise ValueError(node_id)
            top = [f"spine:p{ref.plane}"] + ([f"spine:p{ref.plane}:pod{ref.pod}"] if three else [])
            return [*top, node_id]
        if kind == "coreblk":
            group = c["core"].get(ref.plane)
            if group is None or group.count <= BLOCK or ref.block * BLOCK >= group.count:
                raise ValueError(node_id)
            return [f"core:p{ref.plane}", node_id]
        raise ValueError(node_id)

    def _base_kinds(self) -> frozenset[str]:
        return {
            "plane": frozenset({"srv", "leafplane", "spineplane", "coreplane"}),
            "pod": frozenset({"srvpod", "leafpod", "spinepod", "coreplane"}),
            "su": frozenset({"srvsu", "leafsu", "spinepod" if self.tiers == 3 else "spineplane", "coreplane"}),
            "device": frozenset({"srvsu", "dev"}),
        }[self.level]

    def base_index(self, chain: list[str]) -> int:
        kinds = self._base_kinds()
        for i, node_id in enumerate(chain):
            if _kind(node_id) in kinds:
                return i
        return len(chain) - 1

    def visible(self, chain: list[str], expanded: set[str] | frozenset[str]) -> str:
        i = self.base_index(chain)
        while i + 1 < len(chain) and chain[i] in expanded:
            i += 1
        return chain[i]

    # Devices --------------------------------------------------------------------------------

    def dev(self, device_id: int) -> Dev:
        if device_id not in self.devs:
            self.fetch_devices(Q(pk=device_id))
        if device_id not in self.devs:
            raise ValueError(f"dev:{device_id}")
        return self.devs[device_id]

    def fetch_devices(self, condition: Q) -> list[Dev]:
        found = [Dev(**row) for row in self._devices().filter(condition).values(*DEV_FIELDS).order_by("index")]
        for dev in found:
            self.devs[dev.id] = dev
        return found

    def fetch_device_ids(self, ids) -> None:
        missing = sorted({int(i) for i in ids} - set(self.devs))
        for start in range(0, len(missing), 5000):
            self.fetch_devices(Q(pk__in=missing[start:start + 5000]))

    def subtree_condition(self, node_id: str) -> Q:
        """Which of the version's devices lie under a group (or are the device)."""
        ref = parse_node(node_id)
        kind = ref.kind
        if kind == "dev":
            return Q(pk=ref.device)
        role = GROUP_ROLE[kind]
        q = Q(role=role)
        if kind in ("srvpod",):
            q &= Q(pod=ref.pod)
        if kind in ("srvsu", "srvblk"):
            q &= Q(su=ref.su)
        if ref.plane is not None:
            q &= Q(plane=ref.plane)
        if kind in ("leafpod", "spinepod") or (kind == "spineblk" and ref.pod is not None):
            q &= Q(pod=ref.pod)
        if kind == "leafsu":
            q &= Q(su=ref.su)
        if ref.block is not None:
            group = self._group_of(ref)
            lo = group.lo + ref.block * BLOCK
            q &= Q(index__gte=lo, index__lte=min(group.hi, lo + BLOCK - 1))
        return q

    def _group_of(self, ref: Ref) -> Group:
        c = self.census
        if ref.kind in ("srvsu", "srvblk"):
            return c["server"][ref.su]
        if ref.kind == "leafsu":
            return c["leaf"][(ref.plane, ref.su)]
        if ref.kind in ("spinepod", "spineblk", "spineplane"):
            return c["spine"][(ref.plane, ref.pod if self.tiers == 3 else None)]
        if ref.kind in ("coreplane", "coreblk"):
            return c["core"][ref.plane]
        raise KeyError(ref.kind)

    # Children -------------------------------------------------------------------------------

    def children(self, node_id: str, *, offset: int = 0, limit: int = PORT_PAGE_MAX) -> tuple[list[str], int]:
        """The node ids one level below `node_id`, and how many there are in all (ports are paged)."""
        ref = parse_node(node_id)
        kind = ref.kind
        c = self.census
        three = self.tiers == 3
        if kind == "srv":
            ids = [f"srv:pod{k}" for k in self._server_pods()] if three else [f"srv:su{s}" for s in sorted(c["server"])]
        elif kind == "srvpod":
            ids = [f"srv:su{s}" for s, g in sorted(c["server"].items()) if g.pod == ref.pod]
        elif kind in ("srvsu", "spinepod", "coreplane") or (kind == "spineplane" and not three):
            group = self._group_of(ref)
            if group.count > BLOCK:
                ids = [f"{node_id}:b{j}" for j in range(math.ceil(group.count / BLOCK))]
            else:
                ids = [f"dev:{d.id}" for d in self.fetch_devices(self.subtree_condition(node_id))]
        elif kind in ("srvblk", "spineblk", "coreblk", "leafsu"):
            ids = [f"dev:{d.id}" for d in self.fetch_devices(self.subtree_condition(node_id))]
        elif kind == "leafplane":
            if three:
                ids = [f"leaf:p{ref.plane}:pod{k}" for k in self._pods_of_plane(ref.plane)]
            else:
                ids = [f"leaf:p{ref.plane}:su{s}" for (p, s) in sorted(c["leaf"]) if p == ref.plane]
        elif kind == "leafpod":
            ids = [f"leaf:p{ref.plane}:su{s}" for (p, s), g in sorted(c["leaf"].items())
                   if p == ref.plane and g.pod == ref.pod]
        elif kind == "spineplane":
            ids = [f"spine:p{ref.plane}:pod{k}" for (p, k) in sorted(c["spine"]) if p == ref.plane]
        elif kind == "dev":
            ports = PortRecord.objects.filter(device_id=ref.device).order_by("number")
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

    @cached_property
    def port_info(self) -> dict[str, dict]:
        return {}

    # Nodes ----------------------------------------------------------------------------------

    def compound_of(self, node_id: str) -> str | None:
        kind = _kind(node_id)
        if kind in POD_SIDE_KINDS:
            ref = parse_node(node_id)
            return f"box:pod:p{ref.plane}:{ref.pod}"
        if kind in COMPOUND_KINDS:
            return node_id
        return None

    def parent_of(self, chain: list[str], i: int) -> str | None:
        """The compound a node at chain[i] is drawn in."""
        if _kind(chain[i]) in POD_SIDE_KINDS:
            return self.compound_of(chain[i])
        for j in range(i - 1, -1, -1):
            compound = self.compound_of(chain[j])
            if compound is not None:
                return compound
        return None

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
        if self.planes > 1:
            label += " · " + _("plane %(plane)s") % {"plane": ref.plane}
        return {
            "id": box_id, "kind": "box", "label": label, "role": "", "layer": None, "plane": ref.plane,
            "pod": ref.pod, "expanded": True, "expandable": True, "parent": None,
            "filters": {"plane": ref.plane, "pod": ref.pod},
        }

    def _plane_suffix(self, plane: int | None) -> str:
        if self.planes > 1 and plane is not None:
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
                lo = group.lo + ref.block * BLOCK
                count = min(BLOCK, group.count - ref.block * BLOCK)
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
                order = group.lo + ref.block * BLOCK
                count = min(BLOCK, group.count - ref.block * BLOCK)
                title = _("Spines, block %(block)s") % {"block": ref.block} + self._plane_suffix(ref.plane)
        else:  # coreplane, coreblk
            group = c["core"][ref.plane]
            title = _("Plane %(plane)s cores") % {"plane": ref.plane} if self.planes > 1 else _("Cores")
            count, order, col = group.count, group.lo, [ref.plane]
            filters = {"plane": ref.plane, "tier": 2}
            if kind == "coreblk":
                order = group.lo + ref.block * BLOCK
                count = min(BLOCK, group.count - ref.block * BLOCK)
                title = _("Cores, block %(block)s") % {"block": ref.block} + self._plane_suffix(ref.plane)
        base.update(label=f"{title}\n{_count_text(role, count)}", title=title, count=count, order=order, col=col,
                    filters=filters)
        return base

    def _server_col(self, pod: int | None, su: int | None) -> list[int] | None:
        # With several planes the servers stand apart under all of them (spread in order).
        if self.planes > 1:
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

    def base_nodes(self) -> list[str]:
        c = self.census
        three = self.tiers == 3
        level = self.level
        spine_top = (lambda p, k: f"spine:p{p}:pod{k}") if three else (lambda p, k: f"spine:p{p}")
        if level == "plane":
            ids = ["srv"] + [f"leaf:p{p}" for p in self.plane_numbers] + [f"spine:p{p}" for p in self.plane_numbers]
            ids += [f"core:p{p}" for p in sorted(c["core"])]
        elif level == "pod":
            ids = [f"srv:pod{k}" for k in self._server_pods()]
            ids += [f"leaf:p{p}:pod{k}" for p in self.plane_numbers for k in self._pods_of_plane(p)]
            ids += [f"spine:p{p}:pod{k}" for (p, k) in sorted(c["spine"])]
            ids += [f"core:p{p}" for p in sorted(c["core"])]
        elif level == "su":
            ids = [f"srv:su{s}" for s in sorted(c["server"])]
            ids += [f"leaf:p{p}:su{s}" for (p, s) in sorted(c["leaf"])]
            ids += list(dict.fromkeys(spine_top(p, k) for (p, k) in sorted(c["spine"])))
            ids += [f"core:p{p}" for p in sorted(c["core"])]
        else:
            ids = [f"srv:su{s}" for s in sorted(c["server"])]
            ids += [f"dev:{d.id}" for d in self.fetch_devices(~Q(role="server"))]
        return ids

    def _grouped_link_rows(self, columns: list[str], links) -> list[dict]:
        query = links.values(*columns).annotate(n=Count("id")).order_by()
        if connection.vendor != "postgresql":
            return list(query)
        with transaction.atomic():
            with connection.cursor() as cursor:
                # Rows written moments ago have no planner statistics: PostgreSQL would then expect
                # one row and sort 200,000 on disk; hashing them takes a third of the time.
                cursor.execute("SET LOCAL enable_sort = off")
                cursor.execute("SET LOCAL work_mem = '32MB'")
            return list(query)

    def base_edges(self) -> dict[tuple, EdgeAcc]:
        """Every link merged between the first view's nodes, with GROUP BY queries on the link rows."""
        level = self.level
        three = self.tiers == 3
        columns = ["tier", "plane", "rail", "medium_kind", "length_m"]
        links = self._links()
        if level == "pod":
            columns.append("pod")
        elif level == "su":
            links = links.annotate(leaf_id=Case(
                When(tier=0, then=F("b_device_id")), When(tier=1, then=F("a_device_id")),
                default=Value(None), output_field=BigIntegerField(),
            ))
            columns += ["pod", "leaf_id"]
        elif level == "device":
            links = links.annotate(a_id=Case(
                When(tier=0, then=Value(None)), default=F("a_device_id"), output_field=BigIntegerField(),
            ))
            columns += ["a_id", "b_device_id"]
        rows = self._grouped_link_rows(columns, links)
        if level == "su":
            self.fetch_device_ids({row["leaf_id"] for row in rows if row["leaf_id"] is not None})
        elif level == "device":
            self.fetch_device_ids({row["b_device_id"] for row in rows if row["tier"] == 0})

        def spine_top(plane, pod):
            return f"spine:p{plane}:pod{pod}" if three else f"spine:p{plane}"

        edges: dict[tuple, EdgeAcc] = {}
        for row in rows:
            tier, plane = row["tier"], row["plane"]
            pod = row.get("pod")
            if level == "plane":
                ends = (("srv", f"leaf:p{plane}"), (f"leaf:p{plane}", f"spine:p{plane}"),
                        (f"spine:p{plane}", f"core:p{plane}"))[tier]
            elif level == "pod":
                ends = ((f"srv:pod{pod}", f"leaf:p{plane}:pod{pod}"),
                        (f"leaf:p{plane}:pod{pod}", f"spine:p{plane}:pod{pod}"),
                        (f"spine:p{plane}:pod{pod}", f"core:p{plane}"))[tier]
            elif level == "su":
                if tier < 2:
                    leaf = self.devs[row["leaf_id"]]
                    leaf_su = f"leaf:p{leaf.plane}:su{leaf.su}"
                    ends = (f"srv:su{leaf.su}", leaf_su) if tier == 0 else (leaf_su, spine_top(plane, leaf.pod))
                else:
                    ends = (spine_top(plane, pod), f"core:p{plane}")
            else:
                if tier == 0:
                    leaf = self.devs[row["b_device_id"]]
                    ends = (f"srv:su{leaf.su}", f"dev:{leaf.id}")
                else:
                    ends = (f"dev:{row['a_id']}", f"dev:{row['b_device_id']}")
            _edge_add(edges, ends[0], ends[1], tier, plane, row["rail"], pod, row["medium_kind"], row["length_m"],
                      row["n"], split_rail=self.split_rail(tier, ends[1]))
        return edges

    # Expansion ------------------------------------------------------------------------------

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

    def split_rail(self, tier: int, upper_end: str) -> bool:
        """Whether server-leaf links to this node keep their rail on the edge (see the module rules)."""
        return tier == 0 and upper_end.startswith(("dev:", "port:"))

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

    def first_view(self) -> dict[str, Any]:
        """The first view at this level, from the cache when it was computed before."""
        keys = {first_view_cache_key(self.version, self.level)}
        if self.requested_level == "auto":
            keys.add(first_view_cache_key(self.version, "auto"))
        view = self.view(expanded=[])
        cache.set_many({key: view for key in keys}, CACHE_SECONDS)
        return view

    def view(self, *, expanded) -> dict[str, Any]:
        """Every element with these nodes expanded (the first view when none are)."""
        expanded_ids = self.prune(list(expanded))
        expanded_set = frozenset(expanded_ids)
        visible = list(self.base_nodes())
        visible_set = set(visible)
        for node_id in expanded_ids:
            if node_id not in visible_set:
                continue
            visible_set.discard(node_id)
            children, _total = self.children(node_id)
            visible_set.update(children)
            visible.extend(children)
        visible = [node_id for node_id in dict.fromkeys(visible) if node_id in visible_set]
        edges = self.base_edges()
        if expanded_ids:
            roots = [n for n in expanded_ids if not any(a in expanded_set for a in self.group_chain(n)[:-1])]
            rows = self.links_touching(roots)
            self.add_link_edges(edges, rows, frozenset(), sign=-1)
            self.add_link_edges(edges, rows, expanded_set, present=visible_set)
        nodes = self._nodes_with_compounds(visible, expanded_set)
        return self._response(nodes, edges, expanded_ids)

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


def first_view_cache_key(version: DesignVersion, level: str) -> str:
    """Generated versions never change; the key still carries when it was generated and the language."""
    generated = int(version.generated_at.timestamp() * 1000) if version.generated_at else 0
    return f"fabricweb:topology:v3:{version.pk}:{generated}:{level}:{translation.get_language() or ''}"


def _kind(node_id: str) -> str:
    return parse_node(node_id).kind


def _count_text(role: str, count: int) -> str:
    if role == "server":
        return ngettext("%(n)s server", "%(n)s servers", count) % {"n": f"{count:,}"}
    if role == "leaf":
        return ngettext("%(n)s leaf", "%(n)s leaves", count) % {"n": f"{count:,}"}
    if role == "spine":
        return ngettext("%(n)s spine", "%(n)s spines", count) % {"n": f"{count:,}"}
    return ngettext("%(n)s core", "%(n)s cores", count) % {"n": f"{count:,}"}


def _row_port_in(row, device_id: int, ports: set[str]) -> bool:
    if row.a_device_id == device_id and f"port:{device_id}:{row.a_port}" in ports:
        return True
    return row.b_device_id == device_id and f"port:{device_id}:{row.b_port}" in ports


def _edge_add(edges, a, b, tier, plane, rail, pod, kind, length, count, *, split_rail: bool) -> None:
    """Add `count` links (negative: take them out) to the edge a-b of this tier (and rail, when split)."""
    key = (a, b, tier, rail if split_rail else None)
    edge = edges.get(key)
    if edge is None:
        edge = edges[key] = EdgeAcc(a, b, tier, plane, rail if split_rail else None, pod)
    elif edge.pod != pod:
        edge.pod = None  # spans pods: no single pod filter
    edge.count += count
    edge.media[(kind, float(length))] += count
    if tier == 0:
        edge.rails[rail] += count


# API ----------------------------------------------------------------------------------------


def _expanded_param(request) -> list[str]:
    raw = request.query_params.get("expanded", "")
    ids = [part for part in (p.strip() for p in raw.split(",")) if part]
    if len(ids) > MAX_EXPANDED:
        raise ApiValidationError({"expanded": [_("At most %(max)s expanded nodes.") % {"max": MAX_EXPANDED}]})
    return ids


def _int_param(request, name: str, default: int, *, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiValidationError({name: [_("Enter a whole number.")]}) from None
    if not low <= value <= high:
        raise ApiValidationError({name: [_("Between %(low)s and %(high)s.") % {"low": low, "high": high}]})
    return value


def _ready_topology(version: DesignVersion, request) -> Topology:
    if not version.is_ready:
        raise ApiValidationError({"version": [
            _("This version is not generated yet (status: %(status)s).") % {"status": version.get_status_display()}
        ]})
    try:
        return Topology(version, level=request.query_params.get("level") or "auto")
    except TopologyError as exc:
        raise ApiValidationError({exc.field_name: [exc.message]}) from None


LEVEL_PARAMETER = OpenApiParameter(
    "level", str, enum=["auto", *LEVELS],
    description="Which groups the view starts from: plane, pod (3 tiers), su or device; auto fits the element budget.",
)
EXPANDED_PARAMETER = OpenApiParameter(
    "expanded", str, description="Comma-separated ids of the nodes already expanded (e.g. leaf:p0:pod3,dev:42).",
)


@extend_schema(
    summary="A version's topology as cytoscape.js elements, aggregated to a few thousand at most",
    description=(
        "Nodes are groups (servers, leaves, spines, cores per plane, pod, scale unit or block), devices or ports; "
        "edges merge parallel links with a count and a media breakdown. With `expanded` the view has those "
        "groups opened (used to collapse: send the set without the group)."
    ),
    parameters=[LEVEL_PARAMETER, EXPANDED_PARAMETER],
    responses={200: OpenApiTypes.OBJECT},
    tags=["designs"],
)
class VersionTopologyView(VersionScopedMixin, generics.GenericAPIView):
    def get(self, request, *args, **kwargs):
        expanded = _expanded_param(request)
        level = request.query_params.get("level") or "auto"
        if not expanded and self.version.is_ready and level in ("auto", *LEVELS):
            # A repeat visit answers from the cache before counting anything.
            cached = cache.get(first_view_cache_key(self.version, level))
            if cached is not None:
                return Response(cached)
        topology = _ready_topology(self.version, request)
        try:
            data = topology.view(expanded=expanded) if expanded else topology.first_view()
        except TopologyError as exc:
            raise ApiValidationError({exc.field_name: [exc.message]}) from None
        return Response(data)


@extend_schema(
    summary="Open one node of the topology: its children and the edges that replace its own",
    description=(
        "pod and plane groups open into scale units or blocks, groups into devices, a device into its ports "
        "with one edge per link (ends, medium, length, labels, addresses). Ports are paged with offset/limit."
    ),
    parameters=[
        OpenApiParameter("node", str, required=True, description="id of the node to open, e.g. leaf:p0:pod3"),
        LEVEL_PARAMETER, EXPANDED_PARAMETER,
        OpenApiParameter("offset", int, description="first port (device nodes)"),
        OpenApiParameter("limit", int, description=f"ports per page (device nodes), at most {PORT_PAGE_MAX}"),
    ],
    responses={200: OpenApiTypes.OBJECT},
    tags=["designs"],
)
class VersionTopologyExpandView(VersionScopedMixin, generics.GenericAPIView):
    def get(self, request, *args, **kwargs):
        topology = _ready_topology(self.version, request)
        node = (request.query_params.get("node") or "").strip()
        if not node:
            raise ApiValidationError({"node": [_("This field is required.")]})
        offset = _int_param(request, "offset", 0, low=0, high=10**6)
        limit = _int_param(request, "limit", PORT_PAGE, low=1, high=PORT_PAGE_MAX)
        try:
            data = topology.expand(node, expanded=_expanded_param(request), offset=offset, limit=limit)
        except TopologyError as exc:
            raise ApiValidationError({exc.field_name: [exc.message]}) from None
        return Response(data)
