"""The alternatives priced by the fast path (engine.explore.alternatives) equal engine.plan.alternatives'."""
from __future__ import annotations

import json

import pytest

from apps.engine import plan as engine_plan
from apps.engine.explore.alternatives import alternatives as fast_alternatives
from apps.engine.report import alternative_dict
from apps.engine.spec import HallLayout, RackLayout, SpecError
from apps.engine.specio import spec_from_dict
from tests.engine.builders import OPTICS, dgx, replace, spec, switch

B300 = "90SF02H1-M00030"  # HGX B300, 8x ConnectX-8 800G, split 2x400G over two planes
SN5600 = {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}


def _shown(alts) -> list[dict]:
    """Every figure the page, the API and the live check show of each alternative (engine.report)."""
    return json.loads(json.dumps([alternative_dict(alt) for alt in alts]))


@pytest.mark.parametrize("make", [
    pytest.param(lambda: spec(1_000), id="2-tier"),
    pytest.param(lambda: spec(5_000), id="3-tier-5000"),
    pytest.param(lambda: spec(24_576, leaf=switch(128)), id="3-tier-blocking-fewest-spines"),
    pytest.param(lambda: spec(5_000, leaf=switch(128)), id="blocking-uneven"),
    pytest.param(lambda: spec(3_000, server=dgx(), leaf=switch(64, twin=True), planes=2), id="two-planes-twin-cages"),
    pytest.param(lambda: spec(2_000, leaf=switch(64), planes=4, oversubscription=3.0), id="four-planes-3to1"),
    pytest.param(lambda: spec(200_000, leaf=switch(64)), id="too-many-gpus-some-infeasible"),
    pytest.param(lambda: spec(5_000, layout=RackLayout(hall=HallLayout(rows=6, positions=16))), id="hall-too-small"),
    pytest.param(lambda: spec(2_000, layout=RackLayout(structured_cabling=True)), id="structured-cabling"),
    pytest.param(lambda: spec(2_048, leaf=switch(64), optics=tuple(o for o in OPTICS if o.media == "SR"), cables=(),
                              layout=RackLayout(row_pitch_m=20.0, racks_per_row=16)), id="runs-longer-than-any-reach"),
])
def test_fast_alternatives_show_what_full_plans_show(make):
    s = make()
    full = engine_plan.alternatives(s)
    fast = fast_alternatives(s)
    assert _shown(fast) == _shown(full)
    assert [a.reason_details for a in fast] == [a.reason_details for a in full]


def test_fast_alternatives_of_the_seed_catalog_show_what_full_plans_show():
    for data in (
        {"gpus": 4_096, "server": B300, "nic_split": 2, "planes": 2, "leaf": SN5600},
        {"gpus": 40_000, "server": "DGXH-G640F+P2EDI36", "leaf": {"sku": "DCS-7060X6-64PE", "breakout": "2x400G"},
         "planes": 2},
        {"gpus": 2_000, "server": "DGXH-G640F+P2EDI36", "leaf": "MQM9700-NS2F"},  # InfiniBand
        {"gpus": 16_384, "server": "DGXH-G640F+P2EDI36", "leaf": "MQM9700-NS2F"},
        {"gpus": 1_152, "server": "DGX-GB200-NVL72-TRAY", "leaf": "MQM9700-NS2F"},  # rack-scale: slot leaves
        {"gpus": 1_152, "server": "ARS-121GL-NB3-LCC-R1", "leaf": {"sku": "Q3400-RA"}},
    ):
        s = spec_from_dict(data)
        assert _shown(fast_alternatives(s)) == _shown(engine_plan.alternatives(s))


def test_an_infeasible_structure_keeps_the_full_plans_reason():
    s = spec(200_000, leaf=switch(64))
    fast = fast_alternatives(s)
    refused = [a for a in fast if not a.feasible]
    assert refused and all(a.reason for a in refused)
    assert any(a.feasible for a in fast)  # more planes still fit


def test_a_spec_the_backend_refuses_is_refused_as_the_full_alternatives_refuse_it():
    s = spec(1_000, leaf=replace(switch(), switch_class="management"))
    with pytest.raises(SpecError) as full:
        engine_plan.alternatives(s)
    with pytest.raises(SpecError) as fast:
        fast_alternatives(s)
    assert fast.value.details == full.value.details


def test_fast_alternatives_plan_no_link_table(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a structure was planned in full")

    monkeypatch.setattr("apps.engine.plan.build_links", refuse)
    alts = fast_alternatives(spec(24_576, leaf=switch(128)))
    assert len(alts) >= 4 and any(a.blocking for a in alts) and any(a.cheapest for a in alts)
