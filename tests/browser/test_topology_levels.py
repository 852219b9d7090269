"""Every group level of the topology, opened as a presales engineer would in a review meeting (1440x900):
the first view shows the fabric's structure (planes side by side, pods or scale units, tiers, link counts),
and after each opening every node in view still shows a label of at least 11 px that overlaps no other
label, the opened part is in view and the parent's links are still drawn. Single-plane 65,536 GPUs (3 tiers),
4 and 8 planes, and a whole cluster with its front-end, storage and out-of-band networks.

One design per test (a live-server test flushes the database after it); each test walks every level."""
from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

TH4_64X400 = "DCS-7060DX5-64S"
SHOTS = os.environ.get("FABRICWEB_TOPOLOGY_SHOTS")  # a folder: save a screenshot of every level there

# Kinds of group a user can open (a switch lists its ports in the side panel instead).
GROUP_KINDS = ["leafrange", "spinerange", "srvrange", "box", "leafplane", "spineplane", "coreplane", "srv",
               "leafpod", "spinepod", "srvpod", "leafsu", "srvsu", "srvblk", "spineblk", "coreblk", "netgroup",
               "netblock"]

MEASURE = """() => {
    const t = window.fabricwebTopology, cy = t.cy;
    const zoom = cy.zoom(), pan = cy.pan(), w = cy.width(), h = cy.height();
    const rendered = (bb) => ({x1: bb.x1 * zoom + pan.x, x2: bb.x2 * zoom + pan.x,
                               y1: bb.y1 * zoom + pan.y, y2: bb.y2 * zoom + pan.y});
    const inView = (b) => b.x2 > 1 && b.x1 < w - 1 && b.y2 > 1 && b.y1 < h - 1;
    const nodes = [];
    cy.nodes().forEach((n) => {
        const body = n.renderedBoundingBox({includeLabels: false, includeOverlays: false});
        if (!inView(body)) return;
        const text = n.pstyle('label').strValue;
        nodes.push({id: n.id(), kind: n.data('kind'), text: text, wanted: n.isParent() ? n.data('title') : n.data('label'),
                    px: n.pstyle('font-size').pfValue * zoom,
                    label: text ? rendered(n.boundingBox({includeNodes: false, includeEdges: false, includeLabels: true,
                                                          includeOverlays: false})) : null});
    });
    const counts = cy.edges('.labelled').filter((e) => !e.hasClass('crowded') && e.data('countLabel')).map((e) => ({
        id: e.id(), px: e.pstyle('font-size').pfValue * zoom,
        label: rendered(e.boundingBox({includeNodes: false, includeEdges: false, includeLabels: true}))}))
        .filter((c) => inView(c.label));
    return {zoom: zoom, nodes: nodes, counts: counts, total: cy.nodes().length, level: t.level,
            ids: cy.nodes().map((n) => n.id()), edges: cy.edges().map((e) => [e.data('source'), e.data('target')])};
}"""

CANDIDATE = """(done) => {
    const cy = window.fabricwebTopology.cy;
    const w = cy.width(), h = cy.height();
    const inView = (n) => { const b = n.renderedBoundingBox({includeLabels: false});
                            return b.x2 > 0 && b.x1 < w && b.y2 > 0 && b.y1 < h; };
    const kinds = %s;
    const closed = cy.nodes().filter((n) => !n.isParent() && kinds.includes(n.data('kind')) && !done.includes(n.data('kind'))
        && (n.data('kind') === 'box' || n.data('expandable')));
    // One in view if there is one (as a user would click), else one a pan away.
    const open = closed.some(inView) ? closed.filter(inView) : closed;
    if (open.empty()) return null;
    const sorted = open.sort((a, b) => kinds.indexOf(a.data('kind')) - kinds.indexOf(b.data('kind')));
    return {id: sorted[0].id(), kind: sorted[0].data('kind'), label: sorted[0].data('label') || sorted[0].data('title')};
}""" % GROUP_KINDS


def overlaps(a, b, slack=1.0) -> bool:
    return a["x1"] < b["x2"] - slack and b["x1"] < a["x2"] - slack and a["y1"] < b["y2"] - slack \
        and b["y1"] < a["y2"] - slack


def assert_readable(view: dict, where: str) -> None:
    nodes = view["nodes"]
    assert nodes, f"{where}: nothing in view"
    unlabelled = [n["id"] for n in nodes if n["wanted"] and not (n["text"] and n["px"] >= 11)]
    assert unlabelled == [], f"{where}: nodes in view without a readable label: {unlabelled[:10]}"
    labels = [n for n in nodes if n["label"]]
    clashes = [(a["id"], b["id"]) for i, a in enumerate(labels) for b in labels[i + 1:] if overlaps(a["label"], b["label"])]
    assert clashes == [], f"{where}: labels overlap: {clashes[:10]}"
    assert all(c["px"] >= 11 for c in view["counts"]), where
    on_labels = [(c["id"], n["id"]) for c in view["counts"] for n in labels if overlaps(c["label"], n["label"])]
    assert on_labels == [], f"{where}: link counts on labels: {on_labels[:10]}"


def open_topology(page, project, version, network: str | None = None) -> None:
    query = f"?network={network}" if network else ""
    page.goto(f"/designs/projects/{project.pk}/versions/{version.pk}/topology/{query}")
    page.wait_for_function("() => window.fabricwebTopology && window.fabricwebTopology.ready === true", timeout=60_000)
    page.locator("#topology").scroll_into_view_if_needed()


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.locator("#topology").screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def walk_every_level(page, name: str, *, limit: int = 14) -> list[dict]:
    """Open one group of every kind in view, deepest last; after each, everything in view is readable."""
    view = page.evaluate(MEASURE)
    assert_readable(view, f"{name}: first view")
    shot(page, f"{name}-0-first")
    steps = [{"kind": "first view", "level": view["level"], "nodes": view["total"], "in_view": len(view["nodes"])}]
    done: list[str] = []
    for step in range(1, limit + 1):
        candidate = page.evaluate(CANDIDATE, done)
        if candidate is None:
            break
        before = set(view["ids"])
        expanded = page.evaluate("() => window.fabricwebTopology.state.expanded.length")
        assert page.evaluate(f"() => window.fabricwebTopology.select({candidate['id']!r})")
        page.click("#details-open")
        page.wait_for_function(f"""() => {{ const t = window.fabricwebTopology;
            return !t.state.busy && t.state.expanded.length > {expanded}; }}""", timeout=60_000)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        view = page.evaluate(MEASURE)
        where = f"{name}: opened {candidate['kind']} {candidate['id']}"
        assert_readable(view, where)
        fresh = [n["id"] for n in view["nodes"] if n["id"] not in before]
        assert fresh, f"{where}: the opened part is not in view"
        # The parent's context is kept: what was drawn before and not opened is still drawn.
        kept = before - {candidate["id"]} - set(view["ids"])
        assert not [k for k in kept if not k.startswith(("box:", "leaf:", "spine:", "srv:", "net:"))], where
        assert view["edges"], where
        shot(page, f"{name}-{step}-{candidate['kind']}")
        steps.append({"kind": candidate["kind"], "opened": candidate["id"], "nodes": view["total"],
                      "in_view": len(view["nodes"]), "new_in_view": len(fresh)})
        done.append(candidate["kind"])
    print(f"\n{name}: " + "; ".join(f"{s}" for s in steps))
    return steps


def test_every_level_of_a_single_plane_65536_gpu_fabric_is_readable(page, login, engineer, engineer_project,
                                                                   generate_design):
    version = generate_design("Hall 65k", gpus=65_536, switch_sku=TH4_64X400, breakout="1x400G", tiers="3")
    login(engineer)
    open_topology(page, engineer_project, version)
    first = page.evaluate(MEASURE)
    # The first view is the fabric's structure: pods side by side with their spines, leaves and servers,
    # the cores above, a range for the pods that do not fit, and a count on the edges.
    kinds = {n["kind"] for n in first["nodes"]}
    assert first["level"] == "overview"
    assert {"box", "leafpod", "spinepod", "srvpod", "coreplane", "leafrange", "spinerange", "srvrange"} <= kinds
    assert first["counts"]
    steps = walk_every_level(page, "65k")
    opened = {s["kind"] for s in steps}
    assert {"leafrange", "box", "leafsu", "coreplane", "srvsu"} <= opened


@pytest.mark.parametrize("planes,design", [
    (4, {"gpus": 4096, "planes": 4}),
    (8, {"gpus": 5000, "switch_sku": TH4_64X400, "breakout": "1x400G", "planes": 8}),
])
def test_every_level_of_a_multi_plane_fabric_is_readable(page, login, engineer, engineer_project, generate_design,
                                                        planes, design):
    version = generate_design(f"{planes} planes", **design)
    assert version.summary["planes"] == planes
    login(engineer)
    open_topology(page, engineer_project, version)
    first = page.evaluate(MEASURE)
    # Every plane side by side at the first view, each with its own switches.
    drawn_planes = page.evaluate("""() => [...new Set(window.fabricwebTopology.cy.nodes()
        .filter((n) => n.data('role') === 'leaf').map((n) => n.data('plane')))].sort((a, b) => a - b)""")
    assert drawn_planes == list(range(planes))
    assert len(first["nodes"]) > 3
    steps = walk_every_level(page, f"{planes}-plane")
    assert len(steps) >= 4


def test_every_level_of_every_network_of_a_whole_cluster_is_readable(page, login, engineer, engineer_project,
                                                                    generate_design):
    from apps.catalog.models import SwitchModel

    sn5600 = SwitchModel.objects.get(sku="920-9N42F-00RI-7C0").pk
    version = generate_design("Whole cluster", gpus=1024, networks={
        "frontend": {"switch": sn5600, "breakout": "2x400G", "ports_per_server": 2},
        "storage": {"mode": "fabric", "switch": sn5600, "breakout": "2x400G", "nodes": 8, "ports_per_node": 2,
                    "ports_per_server": 2},
        "oob": {"ports": 48, "gbps": 1},
    })
    login(engineer)
    open_topology(page, engineer_project, version)
    walk_every_level(page, "cluster-backend")
    for network in ("frontend", "storage", "oob"):
        page.select_option("#topology-network", network)
        page.wait_for_function(f"""() => window.fabricwebTopology.network === {network!r}
            && !window.fabricwebTopology.state.busy""")
        # The status names the network (never a raw "group"); the legend has its groups, no rails.
        counts = page.locator("#topology-counts").inner_text()
        assert "group" not in counts and counts.split(" · ")[0] == page.locator(
            f"#topology-network option[value={network}]").inner_text()
        legend = page.locator("#topology-legend").inner_text()
        assert "Rails" not in legend and "Devices" in legend
        steps = walk_every_level(page, f"cluster-{network}")
        assert {"netgroup"} <= {s["kind"] for s in steps}
