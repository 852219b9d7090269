"""The wiring proof (engine.wiring): the worst leaf pair's capacity from the links a plan built."""
from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from apps.engine.model import Wiring
from apps.engine.plan import _plan, alternatives, plan
from apps.engine.report import report as engine_report
from apps.engine.spec import InfeasibleSpec
from apps.engine.topology import build_links, device_layout, size_fabric
from apps.engine.wiring import prove

from .builders import dgx, server, spec, switch


def built(s, *, even: bool = True):
    sz = size_fabric(s, even=even)
    lay = device_layout(sz)
    return sz, lay, build_links(sz, lay)


def worst_pair_by_networkx(sz, lay, links) -> int:
    """The lowest valley-free max-flow over every leaf pair of a plane, by networkx on the whole fabric."""
    graph = nx.DiGraph()

    def add(a, b):
        if graph.has_edge(a, b):
            graph[a][b]["capacity"] += 1
        else:
            graph.add_edge(a, b, capacity=1)

    for a, b, t in zip(links.a_dev.tolist(), links.b_dev.tolist(), links.tier.tolist()):
        if t == 1:
            add(("up", a), ("up", b))
            add(("down", b), ("down", a))
        elif t == 2:
            add(("up", a), ("top", b))
            add(("top", b), ("down", a))
    for spine in range(lay.spine_base, lay.core_base):  # a spine may turn traffic down within its pod
        graph.add_edge(("up", spine), ("down", spine), capacity=10**9)
    leaves = range(lay.leaf_base, lay.spine_base)
    plane = lay.plane.tolist()
    return min(nx.maximum_flow_value(graph, ("up", a), ("down", b))
               for a in leaves for b in leaves if a < b and plane[a] == plane[b])


def test_a_one_to_one_fabric_proves_full_capacity_for_every_pair():
    p = plan(spec(5_000, leaf=switch(128)))
    w = p.wiring
    assert isinstance(w, Wiring)
    assert (w.worst_pair_fraction, w.as_stated, w.stated_fraction) == (1.0, True, 1.0)
    assert (w.worst_pair_links, w.leaf_uplinks, w.leaf_downlinks) == (64, 64, 64)
    assert w.leaf_pairs == 80 * 79 // 2
    assert len(w.worst_pair_names) == 2 and all(name.startswith("p0-su") for name in w.worst_pair_names)


def test_three_to_one_states_a_third_and_delivers_it():
    p = plan(spec(48 * 8 * 2, leaf=switch(64), oversubscription=3.0))
    report = engine_report(p)["wiring"]
    assert report["worst_pair_fraction"] == 0.3333 and report["as_stated"] is True
    assert (report["leaf_uplinks"], report["leaf_downlinks"], report["worst_pair_links"]) == (16, 48, 16)


def test_the_old_40_spine_wiring_is_blocking_at_48_of_64_links():
    # Issue 12: 5,000 GPUs on 128x400G with 40 spines: the worst pair gets 48 of 64 links (75 %).
    sz, lay, links = built(spec(5_000, leaf=switch(128)), even=False)
    assert sz.spines_per_plane == 40
    w = prove(sz, lay, links)
    assert (w.worst_pair_links, w.worst_pair_fraction, w.as_stated) == (48, 0.75, False)


@pytest.mark.parametrize("kwargs, even", [
    (dict(gpus=1_200, leaf=switch(128)), False),  # 12 leaves, 6 spines for 64 uplinks
    (dict(gpus=760, leaf=switch(64)), False),  # 3 SUs: 12 spines would be uneven
    (dict(gpus=1_280, leaf=switch(64), tiers=3), True),  # a full pod and a pod of 1 SU
    (dict(gpus=1_280, leaf=switch(64), tiers=3), False),
    (dict(gpus=642, leaf=switch(16), server=server(ports=1), tiers=3), True),  # 2 pods of 8 and 4 spines
    (dict(gpus=642, leaf=switch(16), server=server(ports=1), tiers=3), False),  # uneven: 8 and 3 spines
    (dict(gpus=161, leaf=switch(16), server=server(ports=4), tiers=3, oversubscription=1.5), False),
    (dict(gpus=600, leaf=switch(32), server=server(ports=4), tiers=3, planes=2, oversubscription=3.0), False),
    (dict(gpus=500, leaf=switch(16), server=server(ports=2), tiers=3), True),
])
def test_the_proof_equals_networkx_max_flow_over_the_whole_fabric(kwargs, even):
    sz, lay, links = built(spec(**kwargs), even=even)
    w = prove(sz, lay, links)
    assert w.worst_pair_links == worst_pair_by_networkx(sz, lay, links)


def test_a_blocking_fabric_says_so_in_its_review_notes():
    s = spec(5_000, leaf=switch(128))
    blocking = alternatives(s)[-1]
    assert blocking.blocking and not blocking.cheapest and blocking.sizing.switches["spine"] == 40
    assert blocking.label == "2 tiers, fewest spines (blocking)"
    assert blocking.wiring.worst_pair_fraction == 0.75 and not blocking.wiring.as_stated
    note = next(n for n in blocking.notes if n.code == "wiring.blocking")
    assert note.params["percent"] == 75.0 and note.params["links"] == 48
    assert "the fabric is blocking" in note.text


def test_the_blocking_alternative_is_listed_only_when_it_costs_less():
    s = spec(5_000, leaf=switch(128, price=0.0))  # free switches: fewer spines save nothing
    assert not any(a.blocking for a in alternatives(s))


@st.composite
def fabrics(draw):
    rails = draw(st.sampled_from([1, 2, 4, 8]))
    planes = draw(st.sampled_from([p for p in (1, 2, 4, 8) if rails % p == 0]))
    built_in = rails % 2 == 0 and draw(st.booleans())
    return spec(
        draw(st.integers(1, 40_000)), leaf=switch(draw(st.sampled_from([16, 32, 64, 128])), twin=draw(st.booleans())),
        server=dgx(ports=rails) if built_in else server(ports=rails), planes=planes,
        oversubscription=draw(st.sampled_from([1.0, 1.5, 2.0, 3.0])), tiers=draw(st.sampled_from(["auto", 2, 3])),
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fabrics())
def test_every_feasible_fabric_delivers_its_stated_oversubscription(s):
    try:
        sz, lay, links = built(s)
    except InfeasibleSpec:
        event("infeasible")
        return
    event(f"{sz.tiers} tiers")
    w = prove(sz, lay, links)
    assert w.as_stated, (sz, w)


def test_24576_gpus_on_128_port_switches_spread_evenly_over_256_cores():
    # 6 pods of 64 spines with 64 uplinks each (4,096 per pod) on 128-port cores. The fewest cores, 192, give
    # each core 21 or 22 links into a pod and each spine 21 or 22 links to each of its 3 cores: two pods then
    # meet on 4,032 of their 4,096 links, 98.4 per cent, and the proof says so (before, it said 1:1).
    s = spec(24_576, leaf=switch(128, twin=True))
    even = plan(s)
    assert even.switches == {"leaf": 384, "spine": 384, "core": 256}
    assert even.wiring.spread == {"leaf-spine": [1, 1], "spine-core": [16, 16], "core-pod": [16, 16]}
    assert even.wiring.worst_pod_pair_links == even.wiring.pod_pair_uplinks == 4_096
    assert even.wiring.as_stated and even.wiring.worst_pair_fraction == 1.0

    fewest = _plan(s, progress=None, address=False, even=False)
    assert fewest.switches == {"leaf": 384, "spine": 384, "core": 192}
    w = fewest.wiring
    assert w.spread["spine-core"] == [21, 22] and w.spread["core-pod"] == [21, 22]
    assert (w.worst_pod_pair_links, w.pod_pair_uplinks) == (4_032, 4_096)
    assert not w.as_stated and w.worst_pair_fraction == pytest.approx(4_032 / 4_096)
    note = next(n for n in fewest.notes if n.code == "wiring.blocking_pods")
    assert note.params["links"] == 4_032 and note.params["percent"] == 98.4


def test_the_fewest_cores_are_offered_only_as_the_blocking_alternative():
    # single-port cages: with the hall's routed lengths and the reach margin, the twin-port variant's optics
    # cost more than its 64 saved cores, so the fewest-cores variant is only offered where it is cheaper
    alts = alternatives(spec(24_576, leaf=switch(128, twin=False)))
    current = next(a for a in alts if a.current)
    assert current.sizing.switches["core"] == 256 and current.wiring.as_stated
    blocking = [a for a in alts if a.blocking]
    assert len(blocking) == 1 and blocking[0].sizing.switches["core"] == 192
    assert not blocking[0].wiring.as_stated and not blocking[0].cheapest
    assert any(n.code == "wiring.blocking_pods" for n in blocking[0].notes)
