"""One plane at a time, the readable first view and the SuperPOD-style schematic (SVG) of a version."""
from __future__ import annotations

from xml.etree import ElementTree

import pytest
from django.urls import reverse

from apps.designs.api.topology import Topology
from apps.designs.api.topology import aggregation as topology_module
from tests.designs.conftest import inputs
from tests.designs.test_topology import generate, links_drawn, nodes_of

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def four_planes(project, member, seed, django_capture_on_commit_callbacks):
    """1,024 GPUs in 4 planes (2 rails per plane) on SN5600 in 2x400G."""
    data = inputs(seed, gpus=1024, planes=4)
    version = generate(project, member, data, django_capture_on_commit_callbacks, "Four planes")
    assert version.summary["planes"] == 4
    return version


@pytest.fixture
def three_tier(project, member, seed, django_capture_on_commit_callbacks):
    data = inputs(seed, leaf_switch=seed["th4"].pk, leaf_breakout="1x400G", gpus=1280, tiers="3")
    return generate(project, member, data, django_capture_on_commit_callbacks, "Three tiers")


def schematic_url(version) -> str:
    return reverse("api-version-topology-schematic", kwargs={"pk": version.pk})


def texts(svg: bytes) -> list[str]:
    return [t.text for t in ElementTree.fromstring(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("level", ["plane", "su", "device"])
def test_one_plane_view_holds_that_planes_switches_the_servers_and_that_planes_links(four_planes, level):
    whole = Topology(four_planes, level=level).view(expanded=[])
    for plane in range(4):
        view = Topology(four_planes, level=level, plane=plane).view(expanded=[])
        nodes = nodes_of(view)
        assert {n["plane"] for n in nodes.values() if n["role"] != "server"} == {plane}
        assert any(n["role"] == "server" for n in nodes.values())
        assert {e["data"]["plane"] for e in view["elements"]["edges"]} == {plane}
        assert view["plane"] == plane
        assert links_drawn(view) * 4 == links_drawn(whole) == four_planes.summary["total_links"]


def test_auto_level_keeps_the_first_view_to_a_readable_number_of_nodes(three_tier, monkeypatch):
    monkeypatch.setattr(topology_module, "READABLE_NODES", 12)
    topology = Topology(three_tier)
    view = topology.view(expanded=[])
    assert topology.estimate_nodes(topology.level) <= 12 or topology.level == "plane"
    finer = topology.levels()[topology.levels().index(topology.level) + 1:]
    assert all(topology.estimate_nodes(level) > 12 for level in finer)
    assert len(view["elements"]["nodes"]) <= 12
    assert links_drawn(view) == three_tier.summary["total_links"]


def test_plane_out_of_range_is_a_400_on_the_field(member_client, four_planes):
    url = reverse("api-version-topology", kwargs={"pk": four_planes.pk})
    for plane in ("4", "-1", "x"):
        response = member_client.get(url, {"plane": plane})
        assert response.status_code == 400 and "plane" in response.json(), plane
    assert member_client.get(schematic_url(four_planes), {"plane": "9"}).status_code == 400


def test_schematic_draws_one_scale_unit_in_full_and_one_panel_per_plane(member_client, four_planes):
    response = member_client.get(schematic_url(four_planes))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    root = ElementTree.fromstring(response.content)
    panels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "plane-panel"]
    assert [g.get("data-plane") for g in panels] == ["0", "1", "2", "3"]
    words = texts(response.content)
    assert f"{four_planes.design.name} · version {four_planes.number}" in words
    # SU 0: 64 servers, 8 leaves (2 rails in each of 4 planes), the multiplier for the other SU.
    assert "64 servers, 8 backend ports each" in words
    assert sum(1 for w in words if w and w.startswith("p") and "-leaf-" in w) == 8
    assert "× 2 scale units" in words
    assert {"Rails:", "Planes:", "Devices:"} <= set(words)


def test_schematic_overview_counts_every_link_of_a_three_tier_fabric(member_client, three_tier):
    words = texts(member_client.get(schematic_url(three_tier)).content)
    assert "Pods, scale units, spines and cores" in words
    assert {"Pod 0", "Pod 1", "32 cores"} <= set(words)
    counts = sum(int(w[1:].replace(",", "")) for w in words if w and w.startswith("×") and w[1:2].isdigit())
    # The overview's edges (every link once) plus SU 0's drawing (its server and spine links).
    su_links = 32 * 8 + 8 * 32
    assert counts == three_tier.summary["total_links"] + su_links


def test_schematic_is_in_chinese_for_chinese_users(member_client, three_tier):
    member_client.cookies["django_language"] = "zh-hans"
    words = texts(member_client.get(schematic_url(three_tier), HTTP_ACCEPT_LANGUAGE="zh-hans").content)
    assert any("台服务器" in (w or "") or "服务器" in (w or "") for w in words)


def test_design_name_is_escaped_in_the_schematic(member_client, three_tier):
    three_tier.design.name = 'Hall <script>alert("x")</script> & co'
    three_tier.design.save()
    body = member_client.get(schematic_url(three_tier)).content
    assert b"<script>" not in body
    assert "Hall <script>alert(\"x\")</script> & co · version 1" in texts(body)


def test_non_member_gets_404_on_the_schematic(outsider_client, three_tier):
    assert outsider_client.get(schematic_url(three_tier)).status_code == 404


@pytest.mark.parametrize("design", ["four_planes", "three_tier"])
def test_generated_schematic_paints_no_line_over_a_label_and_no_box_over_a_box(member_client, request, design):
    from tests.designs import svg_geometry

    version = request.getfixturevalue(design)
    shapes = svg_geometry.painted(member_client.get(schematic_url(version)).content)
    assert [s for s in shapes if "count" in s.classes]
    assert svg_geometry.covered_labels(shapes) == []
    assert svg_geometry.overlapping_boxes(shapes) == []
    assert svg_geometry.overlapping_labels(shapes) == []
    assert svg_geometry.counts_on_boxes(shapes) == []
