"""The SuperPOD-style schematic of a version: one scale unit in full and the overview of the fabric.

Rules (the drawing is in drawing.py):
- The scale unit drawn is the first one (SU 0): its servers, every leaf it has (one per rail and
  plane, coloured by rail) with its server links, and the spine groups those leaves reach with
  the link count per group; the multiplier says how many scale units the fabric has (per pod
  and pods in 3 tiers), as NVIDIA's DGX SuperPOD reference architectures draw one SU and
  multiply it.
- The overview has one panel per plane (small multiples in the plane's colour): cores on top
  (3 tiers), then per pod (3 tiers) or per scale unit (2 tiers) the spine, leaf and server
  groups with their device counts, and the link count on every edge. At most columns_per_plane()
  columns are drawn per plane (fewer as planes grow, so the panels stay readable side by side); the
  rest are summed into one "more" column, so counts still add up.
- Counts come from the version's device and link rows (GROUP BY), never from estimates; with
  `plane` only that plane's switches and links are counted (servers reach every plane).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q

from .aggregation import TopologyBase

MAX_COLUMNS = 7


def columns_per_plane(planes: int) -> int:
    """How many pods or scale units each plane's panel draws before summing the rest into "more"."""
    if planes <= 1:
        return MAX_COLUMNS
    if planes == 2:
        return 4
    if planes <= 4:
        return 3
    return 2


@dataclass
class Leaf:
    name: str
    plane: int
    rail: int | None
    downlinks: int
    uplinks: int


@dataclass
class SpineGroup:
    """Spines that the drawn scale unit's leaves reach (per plane, and per pod in 3 tiers)."""

    plane: int
    pod: int | None
    spines: int
    links: int


@dataclass
class ScaleUnitPicture:
    su: int
    servers: int
    server_names: tuple[str, str]
    ports_per_server: int
    leaves: list[Leaf]
    spine_groups: list[SpineGroup]
    scale_units: int
    sus_per_pod: int
    pods: int


@dataclass
class Column:
    """One pod (3 tiers) or scale unit (2 tiers) of one plane in the overview; `more` sums the rest."""

    key: int
    more: int = 0
    servers: int = 0
    leaves: int = 0
    spines: int = 0
    sus: int = 0
    server_links: int = 0
    spine_links: int = 0
    core_links: int = 0


@dataclass
class PlanePanel:
    plane: int
    cores: int
    spines: int  # 2 tiers: the plane's spines (shared by every SU)
    columns: list[Column] = field(default_factory=list)


@dataclass
class Overview:
    tiers: int
    by: str  # "pod" or "su"
    panels: list[PlanePanel]


def scale_unit_picture(topology: TopologyBase) -> ScaleUnitPicture:
    """SU 0 in full, from the version's rows (a few hundred links at most)."""
    census = topology.census
    su = min(census["server"])
    servers = topology._devices().filter(role="server", su=su).order_by("index")
    first = servers.values_list("name", flat=True).first() or ""
    last = servers.order_by("-index").values_list("name", flat=True).first() or ""
    leaves = topology._devices().filter(role="leaf", su=su)
    if topology.plane is not None:
        leaves = leaves.filter(plane=topology.plane)
    leaf_rows = list(leaves.order_by("plane", "rail", "index").values("id", "name", "plane", "rail"))
    leaf_ids = [row["id"] for row in leaf_rows]
    links = topology._links().filter(Q(tier=0, b_device_id__in=leaf_ids) | Q(tier=1, a_device_id__in=leaf_ids))
    down: Counter = Counter()
    up: Counter = Counter()
    spines_reached: dict[int, int] = {}
    for row in links.values("tier", "a_device_id", "b_device_id").annotate(n=Count("id")).order_by():
        if row["tier"] == 0:
            down[row["b_device_id"]] += row["n"]
        else:
            up[row["a_device_id"]] += row["n"]
            spines_reached[row["b_device_id"]] = spines_reached.get(row["b_device_id"], 0) + row["n"]
    groups: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    spine_rows = topology._devices().filter(pk__in=list(spines_reached)).values_list("id", "plane", "pod")
    for spine_id, plane, pod in spine_rows:
        group = groups[(plane, pod if topology.tiers == 3 else None)]
        group[0] += 1
        group[1] += spines_reached[spine_id]
    server_count = census["server"][su].count
    ports = sum(down.values()) // max(1, server_count)
    summary = topology.summary
    return ScaleUnitPicture(
        su=su, servers=server_count, server_names=(first, last), ports_per_server=ports,
        leaves=[Leaf(row["name"], row["plane"], row["rail"], down[row["id"]], up[row["id"]]) for row in leaf_rows],
        spine_groups=[SpineGroup(plane, pod, n, count) for (plane, pod), (n, count) in sorted(
            groups.items(), key=lambda item: (item[0][0], -1 if item[0][1] is None else item[0][1]))],
        scale_units=len(census["server"]), sus_per_pod=int(summary.get("sus_per_pod") or 0),
        pods=int(summary.get("pods") or 0),
    )


def overview(topology: TopologyBase) -> Overview:
    """Per plane, per pod (3 tiers) or scale unit (2 tiers): device counts and link counts per edge."""
    census = topology.census
    three = topology.tiers == 3
    planes = topology.plane_numbers
    panels = {plane: PlanePanel(plane, 0, 0) for plane in planes}
    columns: dict[tuple[int, int], Column] = {}

    def column(plane: int, key: int) -> Column:
        if (plane, key) not in columns:
            columns[(plane, key)] = Column(key)
        return columns[(plane, key)]

    for su, group in census["server"].items():
        for plane in planes:
            col = column(plane, group.pod if three else su)
            col.servers += group.count
            col.sus += 1
    for (plane, su), group in census["leaf"].items():
        column(plane, group.pod if three else su).leaves += group.count
    for (plane, pod), group in census["spine"].items():
        if three:
            column(plane, pod).spines += group.count
        else:
            panels[plane].spines += group.count
    for plane, group in census["core"].items():
        panels[plane].cores = group.count
    if three:
        # Hash aggregation, as the first view's (aggregation.TopologyBase._grouped_link_rows).
        for row in topology._grouped_link_rows(["tier", "plane", "pod"], topology._links()):
            if row["plane"] in panels and row["pod"] is not None:
                col = column(row["plane"], row["pod"])
                attribute = ("server_links", "spine_links", "core_links")[row["tier"]]
                setattr(col, attribute, getattr(col, attribute) + row["n"])
    else:
        # Links carry no scale unit: the leaf end names it.
        leaf_su = dict(topology._devices().filter(role="leaf").values_list("id", "su"))
        by_leaf: Counter = Counter()
        for tier, leaf_end in ((0, "b_device_id"), (1, "a_device_id")):
            for row in topology._grouped_link_rows(["plane", leaf_end], topology._links().filter(tier=tier),
                                                   whole=False):
                by_leaf[(tier, row["plane"], leaf_su.get(row[leaf_end]))] += row["n"]
        for (tier, plane, su), n in by_leaf.items():
            if plane in panels and su is not None:
                col = column(plane, su)
                if tier == 0:
                    col.server_links += n
                else:
                    col.spine_links += n
    for (plane, _key), col in sorted(columns.items()):
        panels[plane].columns.append(col)
    limit = columns_per_plane(len(planes))
    for panel in panels.values():
        if len(panel.columns) > limit:
            kept, rest = panel.columns[:limit - 1], panel.columns[limit - 1:]
            more = Column(rest[0].key, more=len(rest))
            for col in rest:
                for name in ("servers", "leaves", "spines", "sus", "server_links", "spine_links", "core_links"):
                    setattr(more, name, getattr(more, name) + getattr(col, name))
            panel.columns = [*kept, more]
    return Overview(topology.tiers, "pod" if three else "su", [panels[plane] for plane in planes])
