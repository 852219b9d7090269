"""The topology of a generated version as cytoscape.js elements: aggregated first, expanded on demand.

This module: the chain of groups of every device and the first view counted by GROUP BY; the
package puts it together with expansion.py, serialization.py and views.py.

Rules:
- Every device has a chain of groups from its plane down to itself; a port adds one more link:
    servers  srv > [srv:pods{a}-{b}] > srv:pod{k} (3 tiers) > srv:su{s} > [srv:su{s}:b{j}] > dev:{id}
             (2 tiers: srv > [srv:sus{a}-{b}] > srv:su{s} > ...)
    leaves   leaf:p{p} > [leaf:p{p}:pods{a}-{b} or :sus{a}-{b}] > leaf:p{p}:pod{k} (3 tiers) > leaf:p{p}:su{s} > dev:{id}
    spines   spine:p{p} > [spine:p{p}:pods{a}-{b}] > spine:p{p}:pod{k} (3 tiers) > [...:b{j}] > dev:{id}
    cores    core:p{p} > [core:p{p}:b{j}] > dev:{id}
    ports    ... > dev:{id} > port:{device id}:{port name}
  A block (b{j}) holds BLOCK consecutive devices of a group larger than BLOCK, so no expansion
  draws more than BLOCK devices at once. A range (pods{a}-{b}, sus{a}-{b}) holds the pods (3 tiers)
  or scale units (2 tiers) of a plane after the first range_columns() - 1 of them, so a plane opens
  into a row that fits the screen ("Pods 5-63" beside pods 0 to 4) and the range opens into the rest.
- A level names the group each chain starts from in the first view: "plane", "overview" (the
  first pods or scale units of every plane side by side and a range for the rest, with every
  tier), "pod" (3 tiers), "su" or "device". "auto" picks the finest level whose estimated element count fits
  ELEMENT_BUDGET and whose estimated node count fits READABLE_NODES, so that the first view
  fits a meeting-room screen with every label at a readable size: a 65,536-GPU fabric (196,608
  links) opens at plane level (servers, leaves, spines and cores with their counts) and its pods
  are one choice away. Numbers (plane, pod, SU, rail) are 0-based, as in device names.
- With `plane`, the view holds one plane: its leaves, spines and cores, the servers, and only
  the links of that plane (every server reaches every plane, so each plane is a whole picture).
  Multi-plane designs are drawn one plane at a time; without `plane` they are drawn together.
- A device is drawn as its deepest visible group: from the level's group, walk down its chain
  while the group is expanded. Links between the same two visible nodes merge into one edge with
  a count and a media breakdown (kind, length -> links). Server-leaf edges to a single leaf (one
  rail) are drawn in the rail's colour; towards a group of leaves (all rails of an SU or a pod)
  one edge carries the rails as a breakdown, which keeps the largest first view to a few hundred
  edges. A link with a port at either end is drawn alone, with every detail (ends, medium,
  length, labels, addresses).
- The first view comes from the groups counted when the version was saved (apps.designs.topology_groups), or
  GROUP BY queries over the version's link rows where none were stored; an expansion reads
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

from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord, record_id_range

from apps.designs.topology_groups import stored_census, stored_links

BLOCK = 64
ELEMENT_BUDGET = 1000
READABLE_NODES = 40
PORT_PAGE = 256
PORT_PAGE_MAX = 1024
MAX_EXPANDED = 200
LEVELS = ("plane", "overview", "pod", "su", "device")
RANGE_KINDS = frozenset({"srvrange", "leafrange", "spinerange"})
LAYER = {"server": 0, "leaf": 1, "spine": 2, "core": 3}
CACHE_SECONDS = 24 * 3600

# Kinds drawn as a compound box around their children once expanded (the others are replaced).
COMPOUND_KINDS = frozenset({"srvpod", "srvsu", "srvblk", "leafsu", "spineblk", "coreblk", "dev"})
POD_SIDE_KINDS = frozenset({"leafpod", "spinepod"})
GROUP_ROLE = {
    "srv": "server", "srvpod": "server", "srvsu": "server", "srvblk": "server", "srvrange": "server",
    "leafplane": "leaf", "leafpod": "leaf", "leafsu": "leaf", "leafrange": "leaf",
    "spineplane": "spine", "spinepod": "spine", "spineblk": "spine", "spinerange": "spine",
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
    last: int | None = None  # a range's last pod or scale unit (its first is `pod` or `su`)


def _int(text: str, prefix: str) -> int:
    if not text.startswith(prefix) or not text[len(prefix):].isdigit():
        raise ValueError(text)
    return int(text[len(prefix):])


def _range(text: str) -> tuple[str, int, int] | None:
    """("pod" or "su", first, last) of a range part such as pods5-63 or sus5-19; None if it is not one."""
    for prefix, unit in (("pods", "pod"), ("sus", "su")):
        if text.startswith(prefix) and "-" in text:
            first, _sep, last = text[len(prefix):].partition("-")
            if first.isdigit() and last.isdigit() and int(first) < int(last):
                return unit, int(first), int(last)
            raise ValueError(text)
    return None


def _range_ref(kind: str, plane: int | None, text: str) -> Ref | None:
    found = _range(text)
    if found is None:
        return None
    unit, first, last = found
    return Ref(kind, plane=plane, pod=first if unit == "pod" else None, su=first if unit == "su" else None, last=last)


RANGE_COLUMNS = 5


def range_columns(planes: int) -> int:
    """How many columns a plane opens into before a range holds the rest: 4 pods or scale units and a
    range fit the canvas side by side at a readable zoom (several planes with theirs do not: the page
    then starts from the planes, and each opens into its columns)."""
    return RANGE_COLUMNS


def parse_node(node_id: str) -> Ref:
    """Ref of a node id; ValueError when it is not one."""
    parts = str(node_id).split(":")
    head = parts[0]
    if head == "srv":
        if len(parts) == 1:
            return Ref("srv")
        if len(parts) == 2 and (ref := _range_ref("srvrange", None, parts[1])) is not None:
            return ref
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
        if head in ("leaf", "spine") and len(rest) == 1 and (ref := _range_ref(f"{head}range", plane, rest[0])):
            return ref
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

class TopologyBase:
    """A ready version's groups and its aggregated first view (the Topology class adds expansion and elements)."""
    def __init__(self, version: DesignVersion, *, level: str = "auto", plane: int | None = None):
        self.version = version
        summary = version.summary or {}
        self.tiers = int(summary.get("tiers") or 2)
        self.planes = int(summary.get("planes") or 1)
        if plane is not None and not 0 <= plane < self.planes:
            raise TopologyError("plane", _("Choose a plane from 0 to %(last)s.") % {"last": self.planes - 1})
        self.plane = plane
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
        """The levels this view can start from (no pods in 2 tiers). Where no plane has more pods or
        scale units than its columns, the overview draws what the pod or scale-unit level does."""
        return LEVELS if self.tiers == 3 else tuple(level for level in LEVELS if level != "pod")

    # Ranges of pods (3 tiers) or scale units (2 tiers) -------------------------------------

    @property
    def unit(self) -> str:
        return "pod" if self.tiers == 3 else "su"

    @cached_property
    def range_columns(self) -> int:
        return range_columns(self.planes_drawn)

    @cached_property
    def server_units(self) -> list[int]:
        return self._server_pods() if self.tiers == 3 else sorted(self.census["server"])

    @cached_property
    def _leaf_units(self) -> dict[int, list[int]]:
        units: dict[int, set[int]] = {}
        for (plane, su), group in self.census["leaf"].items():
            units.setdefault(plane, set()).add(group.pod if self.tiers == 3 else su)
        return {plane: sorted(keys) for plane, keys in units.items()}

    @cached_property
    def _spine_units(self) -> dict[int, list[int]]:
        units: dict[int, set[int]] = {}
        for (plane, pod) in self.census["spine"]:
            if pod is not None:
                units.setdefault(plane, set()).add(pod)
        return {plane: sorted(keys) for plane, keys in units.items()}

    def leaf_units(self, plane: int) -> list[int]:
        return self._leaf_units.get(plane, [])

    def spine_units(self, plane: int) -> list[int]:
        return self._spine_units.get(plane, [])

    def range_of(self, units: list[int]) -> tuple[int, int] | None:
        """The outermost range: the units after the first range_columns - 1 (None: each unit stands alone)."""
        k = self.range_columns
        if k < 2 or len(units) <= k:
            return None
        return units[k - 1], units[-1]

    def _spans(self, units: list[int], key: int) -> list[tuple[int, int]]:
        """Index spans [start, stop) of the ranges holding `key`, outermost first: the units after the first
        range_columns - 1, then that span cut into range_columns parts, and so on down to a few units."""
        k = self.range_columns
        n = len(units)
        if k < 2 or n <= k:
            return []
        i = units.index(key)
        if i < k - 1:
            return []
        spans = []
        lo, hi = k - 1, n
        while hi - lo > 1:
            spans.append((lo, hi))
            if hi - lo <= k:
                break
            size = math.ceil((hi - lo) / k)
            part = (i - lo) // size
            lo, hi = lo + part * size, min(hi, lo + (part + 1) * size)
        return spans

    def _range_id(self, prefix: str, units: list[int], span: tuple[int, int]) -> str:
        return f"{prefix}:{self.unit}s{units[span[0]]}-{units[span[1] - 1]}"

    def _unit_or_range(self, prefix: str, units: list[int], key: int) -> list[str]:
        """The chain's ids for one pod or scale unit: the ranges it lies in, outermost first, then itself."""
        return [self._range_id(prefix, units, span) for span in self._spans(units, key)] + [
            f"{prefix}:{self.unit}{key}"]

    def _range_place(self, ref: Ref) -> tuple[str, list[int], tuple[int, int]]:
        """(prefix, units, span) of a range node; ValueError when it is not one of this view's ranges."""
        first = ref.pod if ref.pod is not None else ref.su
        if (ref.pod is not None) != (self.tiers == 3):
            raise ValueError(ref)
        if ref.plane is not None and ref.plane not in self.plane_numbers:
            raise ValueError(ref)
        if ref.kind == "srvrange":
            prefix, units = "srv", self.server_units
        elif ref.kind == "leafrange":
            prefix, units = f"leaf:p{ref.plane}", self.leaf_units(ref.plane)
        else:
            if self.tiers != 3:
                raise ValueError(ref)
            prefix, units = f"spine:p{ref.plane}", self.spine_units(ref.plane)
        if first not in units:
            raise ValueError(ref)
        for span in self._spans(units, first):
            if units[span[0]] == first and units[span[1] - 1] == ref.last:
                return prefix, units, span
        raise ValueError(ref)

    def range_units(self, ref: Ref) -> list[int]:
        """The pods or scale units of a range node (ValueError when it is not this view's range)."""
        _prefix, units, (lo, hi) = self._range_place(ref)
        return units[lo:hi]

    def range_chain(self, ref: Ref) -> list[str]:
        """The ranges from the outermost down to this one (inclusive)."""
        prefix, units, span = self._range_place(ref)
        spans = self._spans(units, units[span[0]])
        return [self._range_id(prefix, units, s) for s in spans[:spans.index(span) + 1]]

    def range_children(self, ref: Ref) -> list[str]:
        """A range's parts: its units when they are few, else range_columns ranges (or units) of its units."""
        prefix, units, (lo, hi) = self._range_place(ref)
        k = self.range_columns
        if hi - lo <= k:
            return [f"{prefix}:{self.unit}{units[i]}" for i in range(lo, hi)]
        size = math.ceil((hi - lo) / k)
        return [f"{prefix}:{self.unit}{units[a]}" if min(hi, a + size) - a == 1
                else self._range_id(prefix, units, (a, min(hi, a + size))) for a in range(lo, hi, size)]

    def range_id_of(self, node_id: str) -> str:
        """The id a pod or scale unit group is drawn as at the overview level: its range or itself."""
        ref = parse_node(node_id)
        if ref.kind in ("srvpod", "srvsu"):
            key = ref.pod if ref.kind == "srvpod" else ref.su
            return self._unit_or_range("srv", self.server_units, key)[0]
        if ref.kind in ("leafpod", "leafsu"):
            key = ref.pod if ref.kind == "leafpod" else ref.su
            return self._unit_or_range(f"leaf:p{ref.plane}", self.leaf_units(ref.plane), key)[0]
        if ref.kind == "spinepod":
            return self._unit_or_range(f"spine:p{ref.plane}", self.spine_units(ref.plane), ref.pod)[0]
        return node_id

    def _devices(self):
        return DeviceRecord.objects.filter(version=self.version, pk__gte=self.first_id, pk__lte=self.last_id)

    def _links(self):
        links = LinkRecord.objects.filter(version=self.version, pk__gte=self.first_id, pk__lte=self.last_id)
        return links if self.plane is None else links.filter(plane=self.plane)

    @property
    def planes_drawn(self) -> int:
        """How many planes this view draws side by side (one when a plane is chosen)."""
        return 1 if self.plane is not None else self.planes

    @cached_property
    def census(self) -> dict[str, dict]:
        """Group sizes: servers by SU, leaves by (plane, SU), spines by (plane, pod), cores by plane."""
        out: dict[str, dict] = {"server": {}, "leaf": {}, "spine": {}, "core": {}}
        stored = stored_census(self.version.pk)  # counted when the version was saved (apps.designs.topology_groups)
        if stored is not None:
            rows = [dict(zip(("role", "plane", "pod", "su", "n", "lo", "hi"), row)) for row in stored]
        else:
            rows = (
                self._devices().values("role", "plane", "pod", "su")
                .annotate(n=Count("id"), lo=Min("index"), hi=Max("index")).order_by()
            )
        for row in rows:
            group = Group(row["n"], row["lo"], row["hi"], row["pod"])
            role = row["role"]
            if self.plane is not None and role != "server" and row["plane"] != self.plane:
                continue
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
        if level == "overview":
            if self.range_columns < 2:
                return self.estimate("pod" if self.tiers == 3 else "su")
            k = self.range_columns
            return k + 3 * planes * k + planes + 4 * planes * k
        if level == "pod":
            return pods + 3 * planes * pods + planes + planes * pods + 2 * planes * pods
        if level == "su":
            nodes = sus * (1 + planes) + spine_groups + planes + planes * pods
            return nodes + planes * sus + planes * sus + spine_groups
        switches = self.summary.get("switches") or {}
        share = max(1, self.planes // planes)  # one plane drawn: its share of the fabric's counts
        links = {k: int(v or 0) // share for k, v in (self.summary.get("links") or {}).items()}
        leaves, spines, cores = (int(switches.get(r) or 0) // share for r in ("leaf", "spine", "core"))
        per_spine_group = spines / max(1, spine_groups)
        leaf_spine_pairs = min(int(links.get("leaf-spine") or 0), int(leaves * per_spine_group))
        spine_core_pairs = min(int(links.get("spine-core") or 0), spines * max(1, cores // planes))
        return sus + leaves + spines + cores + planes * sus + planes * pods + sus * rails + leaf_spine_pairs \
            + spine_core_pairs

    def estimate_nodes(self, level: str) -> int:
        """Roughly how many labelled nodes (groups, devices and pod boxes) the first view at `level` has."""
        c = self.census
        sus = len(c["server"])
        planes = max(1, len(self.plane_numbers))
        pods = len(self._server_pods())
        cores = 1 if c["core"] else 0
        if level == "plane":
            return 1 + planes * (2 + cores)
        if level == "overview":
            if self.range_columns < 2:
                return self.estimate_nodes("pod" if self.tiers == 3 else "su")
            k = self.range_columns
            return k + planes * k * (3 if self.tiers == 3 else 2) + planes * cores
        if level == "pod":
            return pods + 3 * planes * pods + planes * cores
        if level == "su":
            return sus * (1 + planes) + len(c["spine"]) + planes * pods + planes * cores
        switches = self.summary.get("switches") or {}
        share = max(1, self.planes // planes)
        return sus + sum(int(switches.get(r) or 0) // share for r in ("leaf", "spine", "core"))

    @cached_property
    def has_ranges(self) -> bool:
        """Whether some plane has more pods or scale units than fit side by side (range_columns)."""
        return any(self.range_of(units) for units in [self.server_units]
                   + [self.leaf_units(p) for p in self.plane_numbers])

    def auto_level(self) -> str:
        # Finer levels than the overview would put more pods or scale units side by side than fit.
        finest = LEVELS.index("overview") if self.has_ranges else len(LEVELS)
        for level in reversed(self.levels()):
            if LEVELS.index(level) > finest:
                continue
            if self.estimate(level) <= ELEMENT_BUDGET and self.estimate_nodes(level) <= READABLE_NODES:
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
                chain += self._unit_or_range("srv", self.server_units, dev.pod)
                chain.append(f"srv:su{dev.su}")
            else:
                chain += self._unit_or_range("srv", self.server_units, dev.su)
            block = self._block_of(c["server"][dev.su], dev.index)
            if block is not None:
                chain.append(f"srv:su{dev.su}:b{block}")
        elif dev.role == "leaf":
            chain = [f"leaf:p{dev.plane}"]
            units = self.leaf_units(dev.plane)
            if three:
                chain += self._unit_or_range(f"leaf:p{dev.plane}", units, dev.pod)
                chain.append(f"leaf:p{dev.plane}:su{dev.su}")
            else:
                chain += self._unit_or_range(f"leaf:p{dev.plane}", units, dev.su)
        elif dev.role == "spine":
            chain = [f"spine:p{dev.plane}"]
            top = f"spine:p{dev.plane}"
            if three:
                top = f"spine:p{dev.plane}:pod{dev.pod}"
                chain += self._unit_or_range(f"spine:p{dev.plane}", self.spine_units(dev.plane), dev.pod)
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
        if kind in RANGE_KINDS:
            top = "srv" if kind == "srvrange" else f"{GROUP_ROLE[kind]}:p{ref.plane}"
            return [top, *self.range_chain(ref)]
        if kind == "srvpod":
            if not three or ref.pod not in self._server_pods():
                raise ValueError(node_id)
            return ["srv", *self._unit_or_range("srv", self.server_units, ref.pod)]
        if kind in ("srvsu", "srvblk"):
            group = c["server"].get(ref.su)
            if group is None:
                raise ValueError(node_id)
            if three:
                chain = ["srv", *self._unit_or_range("srv", self.server_units, group.pod), f"srv:su{ref.su}"]
            else:
                chain = ["srv", *self._unit_or_range("srv", self.server_units, ref.su)]
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
            return [f"leaf:p{ref.plane}", *self._unit_or_range(f"leaf:p{ref.plane}", self.leaf_units(ref.plane), ref.pod)]
        if kind == "leafsu":
            group = c["leaf"].get((ref.plane, ref.su))
            if group is None:
                raise ValueError(node_id)
            units = self.leaf_units(ref.plane)
            if three:
                return [f"leaf:p{ref.plane}", *self._unit_or_range(f"leaf:p{ref.plane}", units, group.pod), node_id]
            return [f"leaf:p{ref.plane}", *self._unit_or_range(f"leaf:p{ref.plane}", units, ref.su)]
        if kind == "spinepod":
            if not three or (ref.plane, ref.pod) not in c["spine"]:
                raise ValueError(node_id)
            return [f"spine:p{ref.plane}", *self._unit_or_range(f"spine:p{ref.plane}", self.spine_units(ref.plane),
                                                                 ref.pod)]
        if kind == "spineblk":
            key = (ref.plane, ref.pod)
            if (ref.pod is not None) != three or key not in c["spine"]:
                raise ValueError(node_id)
            group = c["spine"][key]
            if group.count <= BLOCK or ref.block * BLOCK >= group.count:
                raise ValueError(node_id)
            top = self.group_chain(f"spine:p{ref.plane}:pod{ref.pod}") if three else [f"spine:p{ref.plane}"]
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
            "overview": frozenset({"srvrange", "leafrange", "spinerange", "coreplane"}
                                  | ({"srvpod", "leafpod", "spinepod"} if self.tiers == 3
                                     else {"srvsu", "leafsu", "spineplane"})),
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
        if kind in RANGE_KINDS:
            field_name = "pod" if ref.pod is not None else "su"
            q &= Q(**{f"{field_name}__gte": ref.pod if ref.pod is not None else ref.su, f"{field_name}__lte": ref.last})
            return q & Q(plane=ref.plane) if ref.plane is not None else q
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

    def base_nodes(self) -> list[str]:
        if self.level == "overview":
            finer = self._base_nodes_at("pod" if self.tiers == 3 else "su")
            return list(dict.fromkeys(self.range_id_of(node_id) for node_id in finer))
        return self._base_nodes_at(self.level)

    def _base_nodes_at(self, level: str) -> list[str]:
        c = self.census
        three = self.tiers == 3
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
            switches = ~Q(role="server") if self.plane is None else ~Q(role="server") & Q(plane=self.plane)
            ids += [f"dev:{d.id}" for d in self.fetch_devices(switches)]
        return ids

    def _grouped_link_rows(self, columns: list[str], links, *, whole: bool = True) -> list[dict]:
        """Link counts by `columns` over `links`; `whole`: they are this view's links (self._links(), maybe
        annotated), which the groups stored at save time count (apps.designs.topology_groups)."""
        stored = stored_links(self.version.pk, columns) if whole else None
        if stored is not None:
            rows = [dict(zip((*columns, "n"), row)) for row in stored]
            return rows if self.plane is None else [row for row in rows if row["plane"] == self.plane]
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
        three = self.tiers == 3
        # The overview groups as the pod (3 tiers) or scale-unit level does, then draws each in its range.
        overview = self.level == "overview"
        level = ("pod" if three else "su") if overview else self.level
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
            if overview:
                ends = (self.range_id_of(ends[0]), self.range_id_of(ends[1]))
            _edge_add(edges, ends[0], ends[1], tier, plane, row["rail"], pod, row["medium_kind"], row["length_m"],
                      row["n"], split_rail=self.split_rail(tier, ends[1]))
        return edges

    # Expansion ------------------------------------------------------------------------------

    def split_rail(self, tier: int, upper_end: str) -> bool:
        """Whether server-leaf links to this node keep their rail on the edge (see the module rules)."""
        return tier == 0 and upper_end.startswith(("dev:", "port:"))

    def first_view(self) -> dict[str, Any]:
        """The first view at this level, from the cache when it was computed before."""
        keys = {first_view_cache_key(self.version, self.level, self.plane)}
        if self.requested_level == "auto":
            keys.add(first_view_cache_key(self.version, "auto", self.plane))
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


def first_view_cache_key(version: DesignVersion, level: str, plane: int | None = None) -> str:
    """Generated versions never change; the key still carries when it was generated and the language."""
    generated = int(version.generated_at.timestamp() * 1000) if version.generated_at else 0
    drawn = "all" if plane is None else plane
    return f"fabricweb:topology:v4:{version.pk}:{generated}:{level}:{drawn}:{translation.get_language() or ''}"


def _kind(node_id: str) -> str:
    return parse_node(node_id).kind


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
