"""The topology's first-view groups counted at save time (apps.designs.topology_groups) draw what the queries draw."""
from __future__ import annotations

import pytest
from django.test.utils import CaptureQueriesContext
from django.db import connection

from apps.designs import topology_groups
from apps.designs.api.topology import Topology
from apps.designs.models import TopologyGroups
from tests.designs.conftest import inputs
from tests.designs.test_topology import generate

pytestmark = pytest.mark.django_db


def _sorted(view: dict) -> dict:
    """The view with its elements in id order (grouped rows come in any order, from the database or not)."""
    out = dict(view)
    out["elements"] = {kind: sorted(items, key=lambda item: item["data"]["id"])
                       for kind, items in view["elements"].items()}
    return out


def _views(version, stored: bool) -> dict:
    if not stored:
        TopologyGroups.objects.filter(version=version).delete()
    views = {}
    for plane in [None] + list(range(int(version.summary.get("planes") or 1))):
        for level in ["auto", *Topology(version, plane=plane).levels()]:
            topology = Topology(version, level=level, plane=plane)
            views[(level, plane)] = _sorted(topology.view(expanded=[]))
            first = sorted(topology.base_nodes())[:2]
            views[(level, plane, "open")] = _sorted(Topology(version, level=level, plane=plane).view(expanded=first))
    return views


@pytest.mark.parametrize("data", [
    pytest.param({"gpus": 256}, id="two-tier"),
    pytest.param({"gpus": 5000}, id="two-tier-ten-units-overview"),
    pytest.param({"leaf_breakout": "1x400G", "gpus": 1280, "tiers": "3", "th4": True}, id="three-tier-two-pods"),
    pytest.param({"leaf_breakout": "1x400G", "gpus": 2048, "planes": 2, "th4": True}, id="two-planes"),
])
def test_views_from_the_stored_groups_equal_the_views_from_the_queries(project, member, seed, data,
                                                                      django_capture_on_commit_callbacks):
    data = dict(data)
    if data.pop("th4", False):
        data["leaf_switch"] = seed["th4"].pk
    version = generate(project, member, inputs(seed, **data), django_capture_on_commit_callbacks, "Groups")
    assert TopologyGroups.objects.filter(version=version).exists()
    stored = _views(version, stored=True)
    queried = _views(version, stored=False)
    assert stored == queried


def test_the_first_view_groups_no_link_rows_when_the_groups_are_stored(project, member, seed,
                                                                       django_capture_on_commit_callbacks):
    version = generate(project, member, inputs(seed, gpus=5000), django_capture_on_commit_callbacks, "Stored")
    with CaptureQueriesContext(connection) as queries:
        Topology(version).view(expanded=[])
    grouped = [q["sql"] for q in queries.captured_queries if "GROUP BY" in q["sql"].upper()]
    assert grouped == []


def test_groupings_with_too_many_groups_are_not_stored(project, member, seed, monkeypatch,
                                                       django_capture_on_commit_callbacks):
    monkeypatch.setattr(topology_groups, "MAX_STORED_ROWS", 10)
    version = generate(project, member, inputs(seed, gpus=5000), django_capture_on_commit_callbacks, "Few")
    links = TopologyGroups.objects.get(version=version).groups["links"]
    assert all(len(rows) <= 10 for rows in links.values())
    assert "tier,plane,rail,medium_kind,length_m,pod,leaf_id" not in links
    # The view still comes whole, from the queries.
    view = Topology(version, level="su").view(expanded=[])
    assert sum(e["data"]["count"] for e in view["elements"]["edges"]) == sum(version.summary["links"].values())


def _network_views(version, stored: bool) -> dict:
    from apps.designs.api.topology.networks import _NetworkView

    if not stored:
        TopologyGroups.objects.filter(version=version).delete()
    views = {}
    for network in version.summary["networks"]:
        if network == "backend":
            continue
        view = _NetworkView(version, network)
        views[network] = _sorted(view.view([]))
        for group in view.groups:  # each group opened: the others' links still come grouped
            views[(network, group)] = _sorted(_NetworkView(version, network).view([f"net:{network}:{group}"]))
    return views


@pytest.mark.parametrize("storage", [
    pytest.param({"mode": "fabric", "nodes": 8, "ports_per_node": 2, "ports_per_server": 2}, id="storage-fabric"),
    pytest.param({"mode": "converged", "nodes": 8, "ports_per_node": 2}, id="storage-converged"),
])
def test_other_networks_views_from_the_stored_groups_equal_the_views_from_the_queries(
        project, member, seed, storage, django_capture_on_commit_callbacks):
    from tests.designs.test_networks import networks

    if storage["mode"] == "fabric":
        storage = {**storage, "switch": seed["sn5600"].pk, "breakout": "2x400G"}
    data = inputs(seed, gpus=1024, networks=networks(seed, storage=storage))
    version = generate(project, member, data, django_capture_on_commit_callbacks, "Cluster")
    stored = _network_views(version, stored=True)
    assert set(TopologyGroups.objects.get(version=version).groups["networks"]) <= set(version.summary["networks"])
    queried = _network_views(version, stored=False)
    assert stored == queried and len(stored) >= 3


def test_the_schematic_from_the_stored_groups_is_the_schematic_from_the_queries(project, member, seed,
                                                                             django_capture_on_commit_callbacks):
    from apps.designs.api.topology.views import schematic_document

    data = inputs(seed, leaf_switch=seed["th4"].pk, leaf_breakout="1x400G", gpus=1280, tiers="3")
    version = generate(project, member, data, django_capture_on_commit_callbacks, "Schematic")
    stored = [schematic_document(Topology(version, plane=plane)) for plane in (None, 0)]
    TopologyGroups.objects.filter(version=version).delete()
    assert [schematic_document(Topology(version, plane=plane)) for plane in (None, 0)] == stored
