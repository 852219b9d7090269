"""The topology API: aggregated first views that keep every link, expansions down to ports, bad input."""
from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from apps.designs.api.topology import aggregation as topology_module
from apps.designs.api.topology import Topology
from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord
from apps.designs.services.design import design_create
from tests.designs.conftest import inputs
from tests.designs.factories import DesignVersionFactory

pytestmark = pytest.mark.django_db


def generate(project, member, data, capture, name):
    with capture(execute=True):
        job = design_create(project=project, user=member, name=name, data=data)
    version = DesignVersion.objects.get(pk=job.version_id)
    assert version.is_ready, job.error
    return version


@pytest.fixture
def two_tier(project, member, seed, django_capture_on_commit_callbacks):
    """256 GPUs: 32 servers in one scale unit, 8 leaves (one per rail) and 4 spines."""
    return generate(project, member, inputs(seed, gpus=256), django_capture_on_commit_callbacks, "Two tiers")


@pytest.fixture
def three_tier(project, member, seed, django_capture_on_commit_callbacks):
    """1,280 GPUs on 64x400G in 3 tiers: 5 scale units in 2 pods (4 + 1), 40 leaves, 40 spines, 32 cores (the
    fewest, 20, would not divide the pods' 1,024 and 256 uplinks: 32 give each core 32 and 8 links)."""
    data = inputs(seed, leaf_switch=seed["th4"].pk, leaf_breakout="1x400G", gpus=1280, tiers="3")
    version = generate(project, member, data, django_capture_on_commit_callbacks, "Three tiers")
    assert (version.summary["pods"], version.summary["scale_units"]) == (2, 5)
    return version


def nodes_of(view) -> dict[str, dict]:
    return {n["data"]["id"]: n["data"] for n in view["elements"]["nodes"]}


def edges_of(view) -> list[dict]:
    return [e["data"] for e in view["elements"]["edges"]]


def links_drawn(view) -> int:
    return sum(edge["count"] for edge in edges_of(view))


def assert_well_formed(view):
    """Every edge joins two drawn nodes that are not compounds; every parent is drawn before its children."""
    nodes = nodes_of(view)
    parents = {n["parent"] for n in nodes.values() if n["parent"]}
    assert parents <= set(nodes)
    position = {n["data"]["id"]: i for i, n in enumerate(view["elements"]["nodes"])}
    assert all(position[n["parent"]] < position[n["id"]] for n in nodes.values() if n["parent"])
    for edge in edges_of(view):
        assert edge["source"] in nodes and edge["target"] in nodes, edge["id"]
        assert edge["source"] not in parents and edge["target"] not in parents, edge["id"]
    assert len({e["id"] for e in edges_of(view)}) == len(edges_of(view))


def test_two_tier_first_view_shows_every_switch_and_servers_per_scale_unit(two_tier):
    view = Topology(two_tier).view(expanded=[])
    assert view["level"] == "device"
    nodes = nodes_of(view)
    assert sorted(n["label"] for n in nodes.values() if n["kind"] == "dev" and n["role"] == "spine") == [
        "p0-spine-000", "p0-spine-001", "p0-spine-002", "p0-spine-003"]
    leaves = [n for n in nodes.values() if n["kind"] == "dev" and n["role"] == "leaf"]
    assert sorted(n["rail"] for n in leaves) == list(range(8))
    assert all(n["parent"] == "leaf:p0:su0" for n in leaves)
    assert nodes["srv:su0"]["count"] == 32
    assert "32 servers" in nodes["srv:su0"]["label"]
    # One edge per leaf-spine pair (16 parallel links each), one per rail from the servers.
    edges = edges_of(view)
    assert Counter(e["tier"] for e in edges) == {0: 8, 1: 32}
    assert {e["count"] for e in edges if e["tier"] == 1} == {16}
    assert sorted(e["rail"] for e in edges if e["tier"] == 0) == list(range(8))
    assert links_drawn(view) == two_tier.summary["total_links"] == 768
    assert_well_formed(view)


@pytest.mark.parametrize("level", ["plane", "overview", "pod", "su", "device"])
def test_every_level_draws_each_link_exactly_once(three_tier, level):
    view = Topology(three_tier, level=level).view(expanded=[])
    assert view["level"] == level
    per_tier = Counter()
    for edge in edges_of(view):
        per_tier[edge["tier"]] += edge["count"]
        assert sum(m[2] for m in edge["media"]) == edge["count"]
    links = three_tier.summary["links"]
    assert per_tier == {0: links["server-leaf"], 1: links["leaf-spine"], 2: links["spine-core"]}
    assert_well_formed(view)


@pytest.mark.parametrize("level", ["plane", "overview", "pod", "su", "device"])
def test_grouped_queries_agree_with_resolving_each_link(three_tier, level):
    topology = Topology(three_tier, level=level)
    grouped = {key: (e.count, dict(e.media)) for key, e in topology.base_edges().items()}
    one_by_one: dict = {}
    rows = list(LinkRecord.objects.filter(version=three_tier).values_list(*topology_module.LINK_EDGE_FIELDS,
                                                                          named=True))
    topology.fetch_device_ids({r.a_device_id for r in rows} | {r.b_device_id for r in rows})
    topology.add_link_edges(one_by_one, rows, frozenset())
    assert grouped == {key: (e.count, dict(e.media)) for key, e in one_by_one.items()}


def test_pod_level_draws_each_pod_as_a_box_of_its_leaf_and_spine_groups(three_tier):
    nodes = nodes_of(Topology(three_tier, level="pod").view(expanded=[]))
    assert {n for n in nodes if n.startswith("box:")} == {"box:pod:p0:0", "box:pod:p0:1"}
    assert nodes["leaf:p0:pod0"]["parent"] == "box:pod:p0:0"
    assert nodes["spine:p0:pod1"]["parent"] == "box:pod:p0:1"
    assert (nodes["leaf:p0:pod0"]["count"], nodes["spine:p0:pod0"]["count"]) == (32, 32)
    assert (nodes["leaf:p0:pod1"]["count"], nodes["spine:p0:pod1"]["count"]) == (8, 8)
    assert nodes["core:p0"]["count"] == 32
    assert nodes["srv:pod1"]["count"] == 32
    assert nodes["core:p0"]["layer"] > nodes["spine:p0:pod0"]["layer"] > nodes["leaf:p0:pod0"]["layer"]


@pytest.mark.parametrize("budget", [topology_module.ELEMENT_BUDGET, 20])
def test_auto_level_takes_the_finest_level_that_fits_the_element_budget(three_tier, monkeypatch, budget):
    monkeypatch.setattr(topology_module, "ELEMENT_BUDGET", budget)
    topology = Topology(three_tier)
    chosen = topology.level
    assert topology.estimate(chosen) <= budget
    finer = topology.levels()[topology.levels().index(chosen) + 1:]
    assert all(topology.estimate(level) > budget for level in finer)
    view = topology.view(expanded=[])
    assert view["counts"]["nodes"] + view["counts"]["edges"] <= budget
    if budget == 20:
        assert chosen == "pod"


def test_opening_a_pod_shows_its_scale_units_and_the_edges_that_replace_its_own(three_tier):
    topology = Topology(three_tier, level="pod")
    opened = topology.expand("leaf:p0:pod0", expanded=[])
    assert opened["replaced"] is True
    assert opened["expanded"] == ["leaf:p0:pod0"]
    nodes = nodes_of(opened)
    assert sorted(n for n in nodes if n.startswith("leaf:")) == [f"leaf:p0:su{s}" for s in range(4)]
    assert all(nodes[f"leaf:p0:su{s}"]["parent"] == "box:pod:p0:0" for s in range(4))
    # The pod's 32 leaves carry 32 x 32 server links and 32 x 32 uplinks, now per scale unit.
    edges = edges_of(opened)
    assert sum(e["count"] for e in edges if e["tier"] == 0) == 1024
    assert sum(e["count"] for e in edges if e["tier"] == 1) == 1024
    assert {e["source"] for e in edges if e["tier"] == 0} == {"srv:pod0"}
    assert {e["target"] for e in edges if e["tier"] == 1} == {"spine:p0:pod0"}
    whole = Topology(three_tier, level="pod").view(expanded=["leaf:p0:pod0"])
    assert links_drawn(whole) == three_tier.summary["total_links"]
    assert "leaf:p0:pod0" not in nodes_of(whole)
    assert_well_formed(whole)


def test_opening_a_switch_draws_one_edge_per_link_with_its_ends_medium_length_labels_and_addresses(three_tier):
    leaf = DeviceRecord.objects.get(version=three_tier, name="p0-su00-leaf-r3")
    opened = Topology(three_tier, level="su").expand(
        f"dev:{leaf.pk}", expanded=["leaf:p0:su0"],
    )
    ports = [n for n in nodes_of(opened).values() if n["kind"] == "port"]
    assert len(ports) == 64 and all(p["parent"] == f"dev:{leaf.pk}" for p in ports)
    edges = edges_of(opened)
    assert len(edges) == 64 and all(e["count"] == 1 for e in edges)
    link = LinkRecord.objects.get(version=three_tier, b_device=leaf, b_port="Ethernet0")
    edge = next(e for e in edges if e["id"] == f"link:{link.pk}")
    assert edge["target"] == f"port:{leaf.pk}:Ethernet0"
    assert edge["source"] == "srv:su0"
    assert (edge["a_device"], edge["a_port"], edge["b_device"], edge["b_port"]) == (
        "srv-0000", "eth3", "p0-su00-leaf-r3", "Ethernet0")
    assert edge["medium"] == link.medium and edge["length_m"] == link.length_m
    assert edge["label_a"] == link.label_a == "srv-0000:eth3 > p0-su00-leaf-r3:Ethernet0"
    assert (edge["subnet"], edge["a_ip"], edge["b_ip"]) == (link.subnet, link.a_ip, link.b_ip)
    assert opened["next_offset"] is None and opened["total"] == 64


def test_ports_of_a_switch_come_in_pages(three_tier):
    leaf = DeviceRecord.objects.get(version=three_tier, name="p0-su00-leaf-r0")
    first = Topology(three_tier, level="device").expand(f"dev:{leaf.pk}", expanded=[], limit=10)
    assert (first["total"], first["next_offset"]) == (64, 10)
    assert len([n for n in nodes_of(first).values() if n["kind"] == "port"]) == 10
    assert len(edges_of(first)) == 10
    last = Topology(three_tier, level="device").expand(f"dev:{leaf.pk}", expanded=[f"dev:{leaf.pk}"], offset=60,
                                                       limit=10)
    assert last["next_offset"] is None
    assert len([n for n in nodes_of(last).values() if n["kind"] == "port"]) == 4


def test_two_open_switches_are_joined_port_to_port(three_tier):
    leaf = DeviceRecord.objects.get(version=three_tier, name="p0-su00-leaf-r0")
    link = LinkRecord.objects.filter(version=three_tier, a_device=leaf, tier=1).order_by("pk").first()
    view = Topology(three_tier, level="device").view(expanded=[f"dev:{leaf.pk}", f"dev:{link.b_device_id}"])
    edge = next(e for e in edges_of(view) if e["id"] == f"link:{link.pk}")
    assert edge["source"] == f"port:{leaf.pk}:{link.a_port}"
    assert edge["target"] == f"port:{link.b_device_id}:{link.b_port}"
    assert links_drawn(view) == three_tier.summary["total_links"]
    assert_well_formed(view)


def test_groups_larger_than_a_block_open_in_blocks(three_tier, monkeypatch):
    monkeypatch.setattr(topology_module, "BLOCK", 8)
    topology = Topology(three_tier, level="pod")
    cores = topology.expand("core:p0", expanded=[])
    assert sorted(nodes_of(cores)) == ["core:p0:b0", "core:p0:b1", "core:p0:b2", "core:p0:b3"]
    assert [nodes_of(cores)[f"core:p0:b{j}"]["count"] for j in range(4)] == [8, 8, 8, 8]
    block = Topology(three_tier, level="pod").expand("core:p0:b1", expanded=["core:p0"])
    devices = [n for n in nodes_of(block).values() if n["kind"] == "dev"]
    assert [d["label"] for d in devices] == [f"p0-core-{i:03d}" for i in range(8, 16)]
    assert all(d["parent"] == "core:p0:b1" for d in devices)
    view = Topology(three_tier, level="pod").view(expanded=["core:p0", "core:p0:b1", "spine:p0:pod0",
                                                            "spine:p0:pod0:b2", "srv:pod0", "srv:su1"])
    assert links_drawn(view) == three_tier.summary["total_links"]
    assert_well_formed(view)


def test_collapsing_is_the_view_without_the_group(three_tier):
    first = Topology(three_tier, level="pod").view(expanded=[])
    # A group whose parent is not open has no effect; the rest is what the first view shows.
    again = Topology(three_tier, level="pod").view(expanded=["leaf:p0:su1"])
    assert again["expanded"] == []
    assert nodes_of(again) == nodes_of(first)
    assert {e["id"]: e["count"] for e in edges_of(again)} == {e["id"]: e["count"] for e in edges_of(first)}


# API ------------------------------------------------------------------------------------------


def topology_url(version, **params):
    return reverse("api-version-topology", kwargs={"pk": version.pk})


def expand_url(version):
    return reverse("api-version-topology-expand", kwargs={"pk": version.pk})


def test_members_get_the_first_view_and_can_choose_a_level(member_client, three_tier):
    response = member_client.get(topology_url(three_tier))
    assert response.status_code == 200
    body = response.json()
    assert body["level"] == Topology(three_tier).level and body["levels"] == ["plane", "overview", "pod", "su", "device"]
    assert body["counts"]["nodes"] == len(body["elements"]["nodes"])
    pods = member_client.get(topology_url(three_tier), {"level": "pod"}).json()
    assert pods["level"] == "pod"
    assert "box:pod:p0:1" in nodes_of(pods)


@pytest.mark.parametrize("level", ["auto", "pod"])
def test_the_first_view_is_cached_once_computed(member_client, three_tier, django_assert_max_num_queries, level):
    first = member_client.get(topology_url(three_tier), {"level": level}).json()
    # Again: the user and the version are read, the links and devices are not.
    with django_assert_max_num_queries(3):
        again = member_client.get(topology_url(three_tier), {"level": level})
    assert again.status_code == 200 and again.json() == first


def test_expand_endpoint_opens_a_node(member_client, three_tier):
    response = member_client.get(expand_url(three_tier), {"node": "leaf:p0:pod0", "level": "pod"})
    assert response.status_code == 200, response.content
    assert response.json()["expanded"] == ["leaf:p0:pod0"]
    again = member_client.get(
        topology_url(three_tier), {"level": "pod", "expanded": "leaf:p0:pod0,leaf:p0:su2"}
    ).json()
    assert {"leaf:p0:su0", "leaf:p0:su1", "leaf:p0:su3"} <= set(nodes_of(again))
    assert sum(1 for n in nodes_of(again).values() if n["kind"] == "dev" and n["parent"] == "leaf:p0:su2") == 8


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("topology", {"level": "racks"}, "level"),
        ("topology", {"expanded": "leaf:p0:pod0,../etc"}, "expanded"),
        ("expand", {}, "node"),
        ("expand", {"node": "leaf:p7:pod0"}, "node"),
        ("expand", {"node": "dev:1"}, "node"),
        ("expand", {"node": "leaf:p0:su0", "level": "pod"}, "node"),
        ("expand", {"node": "dev:1", "limit": "0"}, "limit"),
        ("expand", {"node": "srv", "offset": "x"}, "offset"),
    ],
)
def test_bad_topology_input_is_a_400_on_the_field(member_client, three_tier, path, params, field):
    url = topology_url(three_tier) if path == "topology" else expand_url(three_tier)
    response = member_client.get(url, params)
    assert response.status_code == 400
    assert field in response.json(), response.json()


def test_a_version_not_generated_yet_has_no_topology(member_client, project):
    version = DesignVersionFactory(design__project=project)
    for url in (topology_url(version), expand_url(version)):
        response = member_client.get(url, {"node": "srv"})
        assert response.status_code == 400
        assert "version" in response.json()


def test_non_member_gets_404_on_the_topology(outsider_client, two_tier):
    assert outsider_client.get(topology_url(two_tier)).status_code == 404
    assert outsider_client.get(expand_url(two_tier), {"node": "srv:su0"}).status_code == 404


def test_openapi_schema_documents_the_topology_routes(member_client):
    paths = member_client.get(reverse("schema"), {"format": "json"}).json()["paths"]
    assert "/api/versions/{id}/topology/" in paths
    params = {p["name"] for p in paths["/api/versions/{id}/topology/expand/"]["get"]["parameters"]}
    assert {"node", "expanded", "level", "offset", "limit"} <= params


@pytest.fixture
def ten_units(project, member, seed, django_capture_on_commit_callbacks):
    """5,000 GPUs on SN5600 in 2x400G: 625 servers in 10 scale units of 64 (the last 49), 80 leaves, 64 spines."""
    version = generate(project, member, inputs(seed, gpus=5000), django_capture_on_commit_callbacks, "5k")
    assert (version.summary["tiers"], version.summary["scale_units"], version.summary["servers"]) == (2, 10, 625)
    return version


def test_overview_draws_the_first_scale_units_and_a_range_for_the_rest_with_every_link(ten_units):
    topology = Topology(ten_units)
    assert topology.level == "overview"
    view = topology.view(expanded=[])
    nodes = nodes_of(view)
    k, last = topology.range_columns, 9
    rest_id = f"leaf:p0:sus{k - 1}-{last}"
    assert {n for n in nodes if n.startswith("srv:")} == {f"srv:su{s}" for s in range(k - 1)} | {f"srv:sus{k - 1}-{last}"}
    assert {n for n in nodes if n.startswith("leaf:")} == {f"leaf:p0:su{s}" for s in range(k - 1)} | {rest_id}
    rest = nodes[rest_id]
    assert rest["label"].startswith(f"SUs {k - 1}–{last} leaves")
    assert rest["count"] == 80 - 8 * (k - 1) and nodes[f"srv:sus{k - 1}-{last}"]["count"] == 625 - 64 * (k - 1)
    # Columns line up: a range's servers stand under its leaves.
    assert nodes[f"srv:sus{k - 1}-{last}"]["col"] == rest["col"]
    assert links_drawn(view) == ten_units.summary["total_links"]
    assert_well_formed(view)
    # Opening a range draws its parts in its place, never more than fit side by side: its scale units,
    # or ranges of them that open in turn; the links that replace its own are drawn between them.
    expanded, frontier = [], [rest_id]
    while frontier:
        node = frontier.pop(0)
        opened = Topology(ten_units).expand(node, expanded=expanded)
        expanded.append(node)
        assert opened["replaced"] is True
        parts = [n["data"]["id"] for n in opened["elements"]["nodes"]]
        assert 1 < len(parts) <= k
        frontier += [part for part in parts if ":sus" in part]
    whole = Topology(ten_units).view(expanded=expanded)
    assert {n for n in nodes_of(whole) if n.startswith("leaf:")} == {f"leaf:p0:su{s}" for s in range(10)}
    assert links_drawn(whole) == ten_units.summary["total_links"]
    assert_well_formed(whole)
    # A plane opened from the plane level shows the same columns.
    plane = Topology(ten_units, level="plane").expand("leaf:p0", expanded=[])
    assert [n["data"]["id"] for n in plane["elements"]["nodes"]][-1] == rest_id
