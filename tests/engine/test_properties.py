"""Invariants of every plan, over random small specs (hypothesis) and a few fixed ones."""
from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from apps.engine.model import ROLES
from apps.engine.names import port_name_table
from apps.engine.plan import _plan, plan
from apps.engine.spec import InfeasibleSpec, RackLayout

from .builders import dgx, replace, server, spec, switch


def check_plan(p) -> None:
    links, devices, s = p.links, p.devices, p.spec
    sz = p.sizing
    rails, rpp = s.server.nic_ports, s.server.nic_ports // s.planes
    tier = links.tier
    a_dev, b_dev = links.a_dev.astype(np.int64), links.b_dev.astype(np.int64)
    a_port, b_port = links.a_port.astype(np.int64), links.b_port.astype(np.int64)
    role = np.array([d.role for d in devices])
    plane = np.array([d.plane for d in devices])

    # Link classes join the right roles, lower tier at the a end.
    pairs = {0: ("server", "leaf"), 1: ("leaf", "spine"), 2: ("spine", "core")}
    for t, (ra, rb) in pairs.items():
        sel = tier == t
        assert (role[a_dev[sel]] == ra).all() and (role[b_dev[sel]] == rb).all()
        assert int(sel.sum()) == p.links_by_tier[("server-leaf", "leaf-spine", "spine-core")[t]]

    # Each NIC port of each server is cabled exactly once.
    t0 = tier == 0
    nic_ends = Counter(zip(a_dev[t0].tolist(), a_port[t0].tolist()))
    assert len(nic_ends) == p.servers * rails and set(nic_ends.values()) == {1}
    assert set(a_port[t0].tolist()) == set(range(rails))

    # No port used twice, none beyond its device's radix.
    ends = np.concatenate([np.stack([a_dev, a_port], 1), np.stack([b_dev, b_port], 1)])
    assert len(np.unique(ends, axis=0)) == len(ends)
    radix = np.array([d.ports for d in devices])
    assert (ends[:, 1] >= 0).all() and (ends[:, 1] < radix[ends[:, 0]]).all()

    # Rail wiring: NIC port i -> the rail-i leaf of the server's SU, leaf port = position in the SU; with rack-scale
    # leaves shared by tray slot, NIC port i of tray t of every rack of the SU -> the SU's leaf t of plane i // rpp,
    # leaf port = rack in the SU x rpp + i mod rpp.
    slots = sz.leaf_slots
    slot_leaf = {}
    for a, ap, b, bp in zip(a_dev[t0].tolist(), a_port[t0].tolist(), b_dev[t0].tolist(), b_port[t0].tolist()):
        srv, leaf = devices[a], devices[b]
        assert leaf.su == srv.su and leaf.plane == ap // rpp
        if slots:
            assert leaf.rail == (leaf.plane if rpp == 1 else -1)
            assert bp == (a % p.su_servers) // slots * rpp + ap % rpp
            assert slot_leaf.setdefault((srv.su, a % slots, ap // rpp), b) == b
        else:
            assert leaf.rail == ap
            assert bp == a % p.su_servers
    assert (links.rail[t0] == links.a_port[t0]).all()

    # Planes are disjoint fabrics.
    up = ~t0
    assert (plane[a_dev[up]] == plane[b_dev[up]]).all() and (plane[a_dev[up]] == links.plane[up]).all()
    assert (plane[b_dev[t0]] == links.plane[t0]).all()

    # Every leaf cables all its uplinks, never more than its downlinks carry at the stated o:1, and has the
    # same number of links to every spine of its group.
    t1 = tier == 1
    uplinks = Counter(a_dev[t1].tolist())
    downlinks = Counter(b_dev[t0].tolist())
    leaves = [d.index for d in devices if d.role == "leaf"]
    o = float(s.oversubscription)
    last_su = sz.scale_units - 1
    for i in leaves:  # a partly filled last SU's shared leaves carry and cable less than a full SU's
        partial = bool(sz.leaf_uplinks_last_su) and devices[i].su == last_su
        down = sz.leaf_downlinks_last_su if partial else (sz.leaf_downlinks or sz.su_servers)
        up = sz.leaf_uplinks_last_su if partial else sz.leaf_uplinks
        assert uplinks[i] == up and downlinks[i] <= down
        assert (up - 1) * o < down - 1e-9 and up * o >= down - 1e-9
    per_pair = Counter(zip(a_dev[t1].tolist(), b_dev[t1].tolist()))
    group_spines = defaultdict(set)
    for d in devices:
        if d.role == "spine":
            group_spines[(d.plane, d.pod)].add(d.index)
    reached = defaultdict(list)
    for (leaf, spine), n in per_pair.items():
        reached[leaf].append((spine, n))
    for leaf in leaves:
        d = devices[leaf]
        spines = {sp for sp, _ in reached[leaf]}
        assert spines == group_spines[(d.plane, d.pod)]
        counts = [n for _, n in reached[leaf]]
        assert max(counts) == min(counts)
    # The wiring proof: the worst leaf pair gets what the oversubscription states.
    assert p.wiring.as_stated
    assert p.wiring.stated_fraction == min(1.0, sz.leaf_uplinks / (sz.leaf_downlinks or sz.su_servers))
    if p.tiers == 3:
        t2 = tier == 2
        # A spine cables as many uplinks as it carries leaf links (1:1 at the spine).
        down, up = Counter(b_dev[t1].tolist()), Counter(a_dev[t2].tolist())
        spines = [d.index for d in devices if d.role == "spine"]
        assert all(up[i] == down[i] <= sz.spine_downlinks for i in spines)
        assert {up[i] for i in spines if devices[i].pod < sz.pods - 1} <= {sz.spine_uplinks}
        assert (a_port[tier == 1] < a_port.max() + 1).all()
        assert (b_port[t1] < sz.spine_downlinks).all() and (a_port[t2] >= sz.spine_downlinks).all()
        # The top tier spreads evenly, the last pod's too: a spine has the same number of links to every core it
        # reaches, a core the same number into every full pod, every core the last pod reaches the same number from
        # it, and none more than from a full pod.
        spine_core = Counter(zip(a_dev[t2].tolist(), b_dev[t2].tolist()))
        per_spine = defaultdict(set)
        for (a, _), n in spine_core.items():
            per_spine[a].add(n)
        assert all(len(per_spine[sp]) == 1 for sp in spines)
        core_pod = Counter((b, devices[a].pod) for a, b in zip(a_dev[t2].tolist(), b_dev[t2].tolist()))
        cores = [d.index for d in devices if d.role == "core"]
        full = {core_pod[(c, pod)] for c in cores for pod in range(sz.pods - 1)}
        assert len(full) <= 1
        last = {n for (_, pod), n in core_pod.items() if pod == sz.pods - 1}
        assert len(last) == 1 and (not full or max(last) <= min(full))
        assert set(p.wiring.spread) == {"leaf-spine", "spine-core", "core-pod"} if sz.pods > 1 else True
        if sz.pods > 1:
            assert p.wiring.worst_pod_pair_links >= p.wiring.pod_pair_uplinks

    # Every used port has a name; cables and their lengths exist.
    table = port_name_table(p)
    codes = np.array([ROLES.index(r) for r in role])
    assert all(table[codes[ends[:, 0]], ends[:, 1]])
    assert (links.medium >= 0).all() and (links.length_m > 0).all()

    # BOM quantities equal the devices, ports, cages and links they come from.
    base = [line for line in p.bom if not line.spare]
    bom = {line.sku: line for line in base}
    switch_qty = sum(line.qty for line in base if line.category == "switch")
    assert switch_qty == sum(p.switches.values()) == len(leaves) + sum(r in ("spine", "core") for r in role)
    nic_qty = sum(line.qty for line in base if line.category == "nic")
    assert nic_qty == (0 if s.server.nics_built_in else p.servers * rails // s.nic_hw.ports)
    optical = np.array([bool(m.b_sku) for m in p.media])[links.medium]
    fibres = sum(line.qty for line in base if line.category == "fiber")
    assert fibres == int(optical.sum())
    modules: dict[str, set] = defaultdict(set)
    assemblies: dict[str, set] = defaultdict(set)
    for t, (ra, rb) in pairs.items():
        a_ppc = s.server.ports_per_cage if t == 0 else s.switch_hw(ra).ports_per_cage
        b_ppc = s.switch_hw(rb).ports_per_cage
        for i in np.unique(links.medium[tier == t]).tolist():
            m = p.media[i]
            sel = (tier == t) & (links.medium == i)
            a_cages = set(zip(a_dev[sel].tolist(), (a_port[sel] // a_ppc).tolist()))
            b_cages = set(zip(b_dev[sel].tolist(), (b_port[sel] // b_ppc).tolist()))
            if m.b_sku:
                modules[m.a_sku] |= a_cages
                modules[m.b_sku] |= b_cages
            else:
                assemblies[m.cable_sku] |= (b_cages if b_ppc >= a_ppc else a_cages)
    # One module or cable per cage: every link of a cage is built with the same item at that end.
    item_at_a = np.array([m.a_sku for m in p.media], dtype=object)[links.medium]
    item_at_b = np.array([m.b_sku or m.cable_sku for m in p.media], dtype=object)[links.medium]
    cage_items: dict[tuple, set] = defaultdict(set)
    for t, (ra, rb) in pairs.items():
        sel = np.flatnonzero(tier == t)
        a_ppc = s.server.ports_per_cage if t == 0 else s.switch_hw(ra).ports_per_cage
        b_ppc = s.switch_hw(rb).ports_per_cage
        for i in sel.tolist():
            cage_items[(int(a_dev[i]), int(a_port[i]) // a_ppc)].add(item_at_a[i])
            cage_items[(int(b_dev[i]), int(b_port[i]) // b_ppc)].add(item_at_b[i])
    assert all(len(items) == 1 for items in cage_items.values())
    # A server's twin-port cage takes a flat-top twin-port optic, never copper; switch cages never take flat tops.
    used = [p.media[i] for i in np.unique(links.medium).tolist()]
    flat = {o.sku for o in s.optics if o.flat_top}
    if s.server.ports_per_cage > 1:
        assert all(m.b_sku and m.a_sku in flat for m in used if m.tier == 0)
    assert not any(m.b_sku in flat for m in used) and not any(m.a_sku in flat for m in used if m.tier > 0)
    for sku, cages in modules.items():
        assert bom[sku].qty == len(cages)
    for sku, cages in assemblies.items():
        assert bom[sku].qty == len(cages)
    assert p.total_cost == pytest.approx(sum(line.total for line in p.bom) - p.discount, abs=0.05)
    # Spares: the default 2 % of every interconnect SKU in use, rounded up (at least one); one cold spare per
    # switch model per 20 installed, rounded up.
    spares = {(line.category, line.sku): line.qty for line in p.bom if line.spare}
    assert spares == {(line.category, line.sku): -(-line.qty * (5 if line.category == "switch" else 2) // 100)
                      for line in base if line.category in ("switch", "transceiver", "cable", "fiber")}

    # Addresses: a /31 per link, a loopback per switch, all distinct.
    assert len(np.unique(links.subnet)) == len(links)
    loopbacks = [d.loopback for d in devices if d.role != "server"]
    assert len(set(loopbacks)) == len(loopbacks)
    leaf_asns = [devices[i].asn for i in leaves]
    assert len(set(leaf_asns)) == len(leaf_asns)


@st.composite
def specs(draw):
    rails = draw(st.sampled_from([1, 2, 4, 8]))
    planes = draw(st.sampled_from([p for p in (1, 2, 4, 8) if rails % p == 0]))
    leaf_ports = draw(st.sampled_from([8, 16, 32, 64]))
    leaf = switch(leaf_ports, twin=draw(st.booleans()))
    spine = draw(st.sampled_from([None, 16, 32, 64]))
    spine = None if spine is None else switch(spine, twin=draw(st.booleans()), sku="SPINE")
    layout = RackLayout(
        servers_per_rack=draw(st.integers(1, 8)), racks_per_row=draw(st.integers(2, 20)),
        rack_width_m=draw(st.sampled_from([0.6, 0.8])), row_pitch_m=draw(st.sampled_from([1.8, 2.4, 3.0])),
        slack_m=draw(st.sampled_from([0.5, 1.0, 3.0])), switches_per_rack=draw(st.integers(1, 20)),
    )
    gpus_per_server = draw(st.sampled_from([1, 2, 4, 8]))
    # Some servers are DGX-like: NICs built in, two rails per twin-port cage (an even number of rails).
    built_in = rails % 2 == 0 and draw(st.booleans())
    return spec(
        draw(st.integers(1, 3_000)), leaf=leaf, spine=spine, planes=planes,
        server=dgx(gpus=gpus_per_server, ports=rails) if built_in else server(gpus=gpus_per_server, ports=rails),
        oversubscription=draw(st.sampled_from([1.0, 1.5, 2.0, 3.0])), tiers=draw(st.sampled_from(["auto", 2, 3])),
        layout=layout, discount_pct=draw(st.sampled_from([0.0, 10.0])),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_invariants_hold_for_random_specs(s):
    try:
        p = plan(s)
    except InfeasibleSpec as exc:
        # Infeasible is a fine answer if it names what to change.
        event(f"infeasible: {sorted(exc.errors)[0]}")
        assert exc.errors and all("." in k or k in ("gpus", "tiers", "oversubscription") for k in exc.errors)
        return
    event(f"{p.tiers} tiers, {p.planes} planes")
    check_plan(p)


@pytest.mark.parametrize("kwargs", [
    dict(gpus=5_000, leaf=switch(128)),
    dict(gpus=5_000, leaf=switch(64)),
    dict(gpus=5_000, leaf=switch(64), planes=8),
    dict(gpus=3_000, leaf=switch(64, twin=True), tiers=3, planes=2),
    dict(gpus=777, leaf=switch(32, twin=True), spine=switch(64), oversubscription=3.0),
    dict(gpus=5_000, server=dgx(), leaf=switch(64, twin=True)),
    dict(gpus=2_000, server=dgx(), leaf=switch(64), planes=2),
    dict(gpus=999, server=dgx(), leaf=switch(32, twin=True), planes=8, tiers=3),
])
def test_invariants_hold_for_the_fixed_specs(kwargs):
    check_plan(plan(spec(**kwargs)))


@st.composite
def rack_scale_specs(draw):
    """NVL72-like (18 trays of 4 GPUs, one rack) and NVL36x2-like (two racks of 9 trays) domains, whole domains."""
    racks = draw(st.sampled_from([1, 2]))
    tray = replace(server(gpus=4, ports=4), scale_up_kind="rack-scale", scale_up_gpus=72, scale_up_racks=racks,
                   scale_up_switch_trays=9 * racks, rack_units=1, scale_up="NVLink 5")
    leaf_ports = draw(st.sampled_from([32, 64, 128]))
    planes = draw(st.sampled_from([1, 2, 4]))
    spine = draw(st.sampled_from([None, 64, 128]))
    return spec(
        72 * draw(st.integers(1, 40)), server=tray, planes=planes,
        leaf=switch(leaf_ports, twin=draw(st.booleans())),
        spine=None if spine is None else switch(spine, sku="SPINE"),
        oversubscription=draw(st.sampled_from([1.0, 1.5, 2.0, 3.0])), tiers=draw(st.sampled_from(["auto", 3])),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rack_scale_specs())
def test_invariants_hold_for_random_rack_scale_specs(s):
    """Rack-scale leaves carry whole domains' rail ports and cable no more uplinks than those carry at o:1."""
    try:
        p = plan(s)
    except InfeasibleSpec as exc:
        event(f"infeasible: {sorted(exc.errors)[0]}")
        assert exc.errors
        return
    event(f"{p.tiers} tiers, {p.planes} planes")
    sz = p.sizing
    event("leaves shared by tray slot" + (", last SU partly filled" if sz.leaf_uplinks_last_su else "")
          if sz.leaf_slots else "a leaf per rail")
    assert p.su_servers % 18 == 0 or p.su_servers < 18
    check_plan(p)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_the_fewest_spines_and_cores_state_their_real_fraction(s):
    """The uneven wiring (fewest spines, fewest cores) is measured at every tier: a fabric whose pods or leaves
    meet on fewer links than they send up is never called as stated."""
    try:
        p = _plan(s, progress=None, address=False, even=False)
    except InfeasibleSpec:
        return
    w = p.wiring
    leaf_fraction = min(1.0, w.worst_pair_links / w.leaf_downlinks) if w.worst_pair is not None else w.stated_fraction
    if w.worst_pod_pair is not None and w.worst_pod_pair_links < w.pod_pair_uplinks:
        assert not w.as_stated and w.worst_pair_fraction < w.stated_fraction
        assert any(n.code == "wiring.blocking_pods" or n.code == "wiring.blocking" for n in p.notes)
    if w.as_stated:
        assert leaf_fraction >= w.stated_fraction - 1e-9 and w.worst_pod_pair_fraction == 1.0


NVL72_TRAY = replace(server(gpus=4, ports=4), scale_up_kind="rack-scale", scale_up_gpus=72, scale_up_racks=1,
                     scale_up_switch_trays=9, rack_units=1, scale_up="NVLink 5")


@pytest.mark.parametrize("racks, leaf_ports, planes, oversubscription, tiers", [
    (8, 64, 1, 1.0, 2),  # one full SU of shared leaves
    (10, 32, 2, 3.0, 2),  # two planes, the last SU partly filled
    (48, 64, 1, 3.0, 3),  # three tiers of full SUs
    (45, 64, 1, 3.0, 3),  # three tiers, the last pod's last SU partly filled
])
def test_invariants_hold_for_rack_scale_leaves_shared_by_tray_slot(racks, leaf_ports, planes, oversubscription,
                                                                  tiers):
    p = plan(spec(72 * racks, server=NVL72_TRAY, leaf=switch(leaf_ports), planes=planes,
                  oversubscription=oversubscription))
    assert p.sizing.leaf_slots == 18 and p.tiers == tiers
    check_plan(p)
