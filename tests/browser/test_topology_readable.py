"""The topology as it is shown to a customer: every label readable at the first view (English and Chinese),
planes as separate panels, the picture and the schematic taken away as SVG and PNG, the pointer selecting
the pod it is in rather than an edge behind it, and opening a group keeping the user oriented.
Every test fails on any JavaScript console error (see conftest.page)."""
from __future__ import annotations

from xml.etree import ElementTree

import pytest
from playwright.sync_api import expect

from apps.accounts.services import profile_set_language
from apps.designs.models import DeviceRecord, LinkRecord

pytestmark = pytest.mark.django_db(transaction=True)

TH4_64X400 = "DCS-7060DX5-64S"
SVG = "{http://www.w3.org/2000/svg}"
DESIGNS = {
    "2-tier": {"gpus": 256},
    "3-tier": {"gpus": 1280, "switch_sku": TH4_64X400, "breakout": "1x400G", "tiers": "3"},
    "4-plane": {"gpus": 1024, "planes": 4},
}


def open_topology(page, project, version) -> None:
    page.goto(f"/designs/projects/{project.pk}/versions/{version.pk}/topology/")
    page.wait_for_function("() => window.fabricwebTopology && window.fabricwebTopology.ready === true")


def label_sizes(page) -> list[dict]:
    return page.evaluate("() => window.fabricwebTopology.labelSizes()")


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("design", list(DESIGNS))
def test_every_label_is_readable_at_the_first_view(page, login, engineer, engineer_project, generate_design,
                                                    design, language):
    version = generate_design(design, **DESIGNS[design])
    profile_set_language(user=engineer, language=language)
    login(engineer)
    open_topology(page, engineer_project, version)
    labels = label_sizes(page)
    nodes = [label for label in labels if label["node"]]
    assert nodes
    # Every node shows its label, none smaller than 11 px on screen; so does every link count drawn.
    unlabelled = [label["id"] for label in nodes if not label["drawn"]]
    assert unlabelled == []
    assert min(label["px"] for label in labels if label["drawn"]) >= 11
    counts = [label for label in labels if not label["node"] and label["drawn"]]
    assert counts, "no link count is drawn"
    # Counts that are drawn do not overlap one another.
    boxes = page.evaluate("""() => window.fabricwebTopology.cy.edges('.labelled').filter(e => !e.hasClass('crowded')
        && e.data('countLabel')).map(e => e.boundingBox({includeNodes: false, includeEdges: false,
        includeLabels: true}))""")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a["x1"] < b["x2"] - 1 and b["x1"] < a["x2"] - 1 and a["y1"] < b["y2"] - 1 and b["y1"] < a["y2"] - 1)
    if language == "zh-hans":
        assert any("台" in label["text"] or "服务器" in label["text"] for label in nodes)


def test_planes_are_separate_panels(page, login, engineer, engineer_project, generate_design):
    version = generate_design("Four planes", **DESIGNS["4-plane"])
    login(engineer)
    open_topology(page, engineer_project, version)
    # The interactive picture opens with every plane side by side, each plane's switches in its colour.
    drawn = """() => [...new Set(window.fabricwebTopology.cy.nodes()
        .filter(n => n.data('role') !== 'server' && n.data('kind') !== 'box').map(n => n.data('plane')))]
        .sort((a, b) => a - b)"""
    assert page.evaluate(drawn) == [0, 1, 2, 3]
    assert all(label["drawn"] for label in label_sizes(page) if label["node"])
    # The plane switcher draws one plane at a time: its switches, the servers.
    page.select_option("#topology-plane", "2")
    page.wait_for_function("""() => window.fabricwebTopology.cy.nodes("[role = 'leaf']").length > 0
        && window.fabricwebTopology.cy.nodes("[role = 'leaf']").every(n => n.data('plane') === 2)""")
    assert all(label["drawn"] for label in label_sizes(page) if label["node"])
    page.select_option("#topology-plane", "all")
    page.wait_for_function("""() => new Set(window.fabricwebTopology.cy.nodes("[role = 'leaf']")
        .map(n => n.data('plane'))).size === 4""")
    # The schematic draws one panel per plane, side by side, each in its plane's colour.
    page.wait_for_function("() => window.fabricwebSchematic && window.fabricwebSchematic.ready")
    panels = page.evaluate("""() => [...document.querySelectorAll('#schematic-figure g.plane-panel')].map(g => {
        const r = g.getBoundingClientRect();
        return {plane: g.dataset.plane, top: Math.round(r.top), left: r.left, right: r.right,
                stroke: g.querySelector('rect').getAttribute('stroke'), title: g.querySelector('text').textContent};
    })""")
    assert [p["plane"] for p in panels] == ["0", "1", "2", "3"]
    assert len({p["top"] for p in panels}) == 1
    assert all(a["right"] <= b["left"] for a, b in zip(panels, panels[1:]))
    assert len({p["stroke"] for p in panels}) == 4
    assert [p["title"] for p in panels] == ["Plane 0", "Plane 1", "Plane 2", "Plane 3"]


def test_export_yields_svg_and_png_with_name_version_legend_and_node_labels(page, login, engineer, engineer_project,
                                                                            generate_design):
    version = generate_design("Hall A")
    login(engineer)
    open_topology(page, engineer_project, version)
    shown = {label["id"]: label["text"] for label in label_sizes(page) if label["node"] and label["drawn"]}
    with page.expect_download() as download:
        page.click("#export-view-svg")
    assert download.value.suggested_filename == f"hall-a-v{version.number}-topology.svg"
    root = ElementTree.parse(download.value.path()).getroot()
    assert root.tag == f"{SVG}svg"
    words = [t.text for t in root.iter(f"{SVG}text")]
    assert f"Hall A · version {version.number}" in words
    for text in shown.values():
        assert all(line in words for line in text.split("\n")), text
    assert {"Rails:", "Devices:"} <= set(words)
    with page.expect_download() as download:
        page.click("#export-view-png")
    with open(download.value.path(), "rb") as png:
        assert png.read(8) == b"\x89PNG\r\n\x1a\n"
    # The schematic, too.
    page.wait_for_function("() => window.fabricwebSchematic && window.fabricwebSchematic.ready")
    with page.expect_download() as download:
        page.click("#export-schematic-svg")
    schematic = ElementTree.parse(download.value.path()).getroot()
    words = [t.text for t in schematic.iter(f"{SVG}text")]
    assert f"Hall A · version {version.number}" in words
    assert "One scale unit in full (SU 0)" in words
    assert "p0-su00-leaf-r0" in words
    with page.expect_download() as download:
        page.click("#export-schematic-png")
    with open(download.value.path(), "rb") as png:
        assert png.read(8) == b"\x89PNG\r\n\x1a\n"


def test_a_click_inside_a_pod_selects_the_pod_not_the_edge_behind_it(page, login, engineer, engineer_project,
                                                                      generate_design):
    version = generate_design("Three tiers", **DESIGNS["3-tier"])
    login(engineer)
    open_topology(page, engineer_project, version)
    page.select_option("#topology-level", "pod")
    page.wait_for_function("() => window.fabricwebTopology.level === 'pod'")
    page.locator("#topology").scroll_into_view_if_needed()
    points = page.evaluate("""() => {
        const cy = window.fabricwebTopology.cy;
        const edge = cy.getElementById('e:leaf:p0:pod0|spine:p0:pod0|1|');
        const a = edge.renderedSourceEndpoint(), b = edge.renderedTargetEndpoint();
        const on = {x: a.x + 0.3 * (b.x - a.x), y: a.y + 0.3 * (b.y - a.y)};
        const box = cy.container().getBoundingClientRect();
        return {on: [box.left + on.x, box.top + on.y], off: [box.left + on.x + 14, box.top + on.y]};
    }""")
    # On the edge's line: the edge (pod 0's 32 leaves x 32 uplinks); beside it, inside the pod: the pod.
    page.mouse.click(*points["on"])
    expect(page.locator("#details-body h3")).to_have_text("1,024 links")
    page.mouse.click(*points["off"])
    expect(page.locator("#details-body h3")).to_have_text("Pod 0")


def test_opening_a_group_refits_to_it_and_a_leaf_lists_its_ports_by_direction(page, login, engineer,
                                                                              engineer_project, generate_design):
    version = generate_design("Hall A")
    login(engineer)
    open_topology(page, engineer_project, version)
    page.evaluate("() => window.fabricwebTopology.expand('srv:su0')")
    page.wait_for_function("() => window.fabricwebTopology.cy.nodes(\"[kind = 'dev'][role = 'server']\").length === 32")
    inside = page.evaluate("""() => {
        const cy = window.fabricwebTopology.cy;
        const w = cy.width(), h = cy.height();
        return cy.nodes("[kind = 'dev'][role = 'server']").every(n => {
            const bb = n.renderedBoundingBox({includeLabels: false});
            return bb.x1 >= 0 && bb.y1 >= 0 && bb.x2 <= w && bb.y2 <= h;
        });
    }""")
    assert inside
    assert all(label["drawn"] for label in label_sizes(page) if label["node"] and label["id"].startswith("dev:"))

    leaf = DeviceRecord.objects.get(version=version, name="p0-su00-leaf-r2")
    down = LinkRecord.objects.filter(version=version, b_device=leaf).count()
    up = LinkRecord.objects.filter(version=version, a_device=leaf).count()
    assert page.evaluate(f"() => window.fabricwebTopology.select('dev:{leaf.pk}')"), page.evaluate(
        "() => window.fabricwebTopology.cy.nodes().map(n => n.id())")
    page.click("#details-open")
    ports = page.locator("#details-ports")
    expect(ports.locator("table[data-toward=down] tr")).to_have_count(down + 1)
    expect(ports.locator("table[data-toward=up] tr")).to_have_count(up + 1)
    # No port boxes in the picture; a port's cable opens from the list.
    assert page.evaluate("() => window.fabricwebTopology.cy.nodes(\"[kind = 'port']\").length") == 0
    link = LinkRecord.objects.get(version=version, b_device=leaf, b_port="Ethernet124")
    ports.get_by_text(f"{link.a_device.name}:{link.a_port}").click()
    expect(page.locator("#details-body")).to_contain_text(link.label_a)
    page.click("#details-back")
    expect(page.locator("#details-ports")).to_be_visible()
