"""Even spread at the top tier, the last pod included (issue 28): every spine reaches each core it is wired to with
the same number of links, every core takes the same number from each pod that reaches it (a full pod's cores all
alike), and no core takes more from the last pod than from a full one.

The sizings named below are ones whose partly filled last pod the cores did not divide: the slot stride gave some
cores one link more from it than others (4,416 GPUs on 32x400G in 2 planes: 64 cores 2 links, 64 cores 1). The
sweeps run the pure engine (size_fabric and core_slots, no cabling), about a millisecond a sizing.
"""
from __future__ import annotations

import numpy as np
import pytest

from apps.engine.plan import plan
from apps.engine.spec import InfeasibleSpec
from apps.engine.topology import core_slots, size_fabric

from .builders import CABLES, FIBERS, OPTICS, replace, server, spec, switch
from .test_properties import check_plan


def uneven_top_tier(sz) -> list[str]:
    """What breaks the even top-tier spread of one plane's spine-core links (empty when none does)."""
    spine, _, core, port = core_slots(sz)
    cores, pods = sz.cores_per_plane, sz.pods
    pod = np.minimum(spine // max(1, sz.spines_per_pod), pods - 1)
    problems = []
    pair = np.bincount(spine * cores + core, minlength=sz.spines_per_plane * cores).reshape(-1, cores)
    if (np.where(pair > 0, pair, pair.max()).min(axis=1) != pair.max(axis=1)).any():
        problems.append("a spine reaches its cores unevenly")
    core_pod = np.bincount(pod * cores + core, minlength=pods * cores).reshape(pods, cores)
    if (np.where(core_pod > 0, core_pod, core_pod.max()).min(axis=1) != core_pod.max(axis=1)).any():
        problems.append("a pod reaches its cores unevenly")
    if pods > 1 and core_pod[-1].max() > core_pod[0].min():
        problems.append("a core takes more from the last pod than from a full one")
    ends = core.astype(np.int64) * (int(port.max()) + 1) + port
    if np.unique(ends).shape[0] != ends.shape[0]:
        problems.append("a core port is used twice")
    return problems


def sizing(gpus: int, ports: int, planes: int, oversubscription: float):
    return size_fabric(spec(gpus, leaf=switch(ports), planes=planes, oversubscription=oversubscription, tiers=3,
                            catalog=False))


# (GPUs, switch ports, planes, o): last pods of n' spines x h' uplinks that C cores did not divide before.
FORMER_FAILURES = [
    (1_176, 16, 8, 1.0),  # 4 spines x 6 on 16 cores
    (1_296, 16, 8, 1.0),  # 8 x 5 on 16
    (4_416, 32, 2, 1.0),  # 16 x 12 on 128
    (5_760, 32, 2, 2.0),  # 11 x 12 on 88
    (6_592, 32, 2, 3.0),  # 8 x 12 on 64
    (392_568, 64, 8, 3.0),  # 16 x 31 on 256: a prime uplink count, one bundle of 31 per spine
]


@pytest.mark.parametrize("gpus, ports, planes, oversubscription", FORMER_FAILURES)
def test_a_partly_filled_last_pod_reaches_its_cores_evenly(gpus, ports, planes, oversubscription):
    sz = sizing(gpus, ports, planes, oversubscription)
    assert sz.pods > 1 and (sz.spines_last_pod * sz.spine_uplinks_last_pod) % sz.cores_per_plane
    assert uneven_top_tier(sz) == []


@pytest.mark.parametrize("gpus, ports, planes, oversubscription", FORMER_FAILURES[:4])
def test_the_last_pod_wired_in_bundles_passes_every_plan_invariant(gpus, ports, planes, oversubscription):
    p = plan(spec(gpus, leaf=switch(ports), planes=planes, oversubscription=oversubscription, tiers=3))
    check_plan(p)
    assert p.wiring.as_stated and p.wiring.worst_pod_pair_fraction == 1.0


def test_bundles_for_four_thousand_gpus_in_two_planes():
    """4,416 GPUs on 32x400G, 2 planes, 1:1: 9 pods, 128 cores; the last pod's 16 spines x 12 uplinks meet 96 cores
    with 2 links each (the stride gave 64 cores 2 and 64 cores 1), every spine 1 link to each of 12 cores."""
    sz = sizing(4_416, 32, 2, 1.0)
    spine, _, core, _ = core_slots(sz)
    last = spine >= (sz.pods - 1) * sz.spines_per_pod
    per_core = np.bincount(core[last], minlength=sz.cores_per_plane)
    assert sz.cores_per_plane == 128 and sorted(set(per_core.tolist())) == [0, 2] and (per_core == 2).sum() == 96
    per_pair = np.bincount(spine[last] * 128 + core[last])
    assert set(per_pair[per_pair > 0].tolist()) == {1}


@pytest.mark.parametrize("ports, planes, step, top", [(16, 8, 8, 8_192), (32, 2, 64, 32_768), (32, 8, 200, 65_536)])
@pytest.mark.parametrize("oversubscription", [1.0, 3.0])
def test_every_three_tier_size_spreads_evenly_at_the_top(ports, planes, step, top, oversubscription):
    sizes = 0
    for gpus in range(step, top + 1, step):
        try:
            sz = sizing(gpus, ports, planes, oversubscription)
        except InfeasibleSpec:
            continue
        if sz.tiers == 3:
            sizes += 1
            assert uneven_top_tier(sz) == [], gpus
    assert sizes > 100


def test_a_last_pod_without_a_share_alike_per_class_keeps_the_core_count():
    """1,296 GPUs on 16x400G in 8 planes at 1:1: 3 pods, 16 cores a plane; the last pod's 8 spines have 5 uplinks each
    (a prime), so no bundles give each of the 8 classes of cores the same share; they go to cores 0-9, 4 links each,
    every spine 1 link to each of 5 cores, and the plan keeps 16 cores (64 would have given every class a share)."""
    sz = sizing(1_296, 16, 8, 1.0)
    assert (sz.pods, sz.spines_last_pod, sz.spine_uplinks_last_pod, sz.cores_per_plane) == (3, 8, 5, 16)
    spine, _, core, _ = core_slots(sz)
    last = spine >= (sz.pods - 1) * sz.spines_per_pod
    assert np.bincount(core[last], minlength=16).tolist() == [4] * 10 + [0] * 6
    assert uneven_top_tier(sz) == []


def test_more_cores_only_where_the_fewest_cannot_take_the_last_pod_evenly():
    """925 single-port servers on 32-port leaves and 16-port spines and cores at 2:1: 6 pods of 11 spines; the last
    pod's 11 spines x 5 uplinks = 55 links can meet 44 cores (2 links each from a full pod, at most 2 from it) only
    unevenly, since 55 has no divisor from 28 to 44; 88 cores take them 1 link each (55 of them), the full pods 1."""
    s = spec(925, server=server(1, 1), leaf=switch(32), spine=switch(16), oversubscription=2.0, catalog=False)
    sz = size_fabric(s)
    assert (sz.pods, sz.spines_last_pod, sz.spine_uplinks_last_pod) == (6, 11, 5)
    assert sz.switches == {"leaf": 45, "spine": 66, "core": 88}
    assert uneven_top_tier(sz) == []
    check_plan(plan(replace(s, optics=OPTICS, cables=CABLES, fibers=FIBERS)))
