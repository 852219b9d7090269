"""Spec validation and the JSON form of a spec."""
from __future__ import annotations

import pytest

from apps.engine.spec import InfeasibleSpec, RackLayout, SpecError, SwitchHw
from apps.engine.specio import spec_from_dict, spec_to_dict

from .builders import spec, switch

SERVER = {"gpus": 8, "nic_ports": 8, "nic_gbps": 400}


def test_validation_names_every_bad_field_at_once():
    bad = spec(0, leaf=SwitchHw(ports=1, gbps=400), planes=3, oversubscription=0.5, tiers=4,
               discount_pct=120)
    with pytest.raises(SpecError) as err:
        bad.validate()
    assert not isinstance(err.value, InfeasibleSpec)
    assert {"gpus", "leaf.ports", "planes", "oversubscription", "tiers", "discount_pct"} <= set(err.value.errors)


def test_layout_values_must_be_positive():
    with pytest.raises(SpecError) as err:
        spec(64, layout=RackLayout(servers_per_rack=-1, rack_width_m=0, slack_m=-1)).validate()
    assert {"layout.servers_per_rack", "layout.rack_width_m", "layout.slack_m"} <= set(err.value.errors)


def test_every_tier_must_run_at_the_nic_speed():
    with pytest.raises(InfeasibleSpec) as err:
        spec(64, leaf=switch(64), spine=switch(64, gbps=800), core=switch(32, gbps=200)).validate()
    assert err.value.errors["spine.gbps"][0].startswith("ports run at 800G")
    assert "core.gbps" in err.value.errors and "leaf.gbps" not in err.value.errors


def test_spec_from_dict_parses_ratios_and_round_trips():
    s = spec_from_dict({"gpus": 1000, "server": SERVER, "leaf": {"ports": 64, "gbps": 400},
                        "oversubscription": "3:1", "tiers": 3, "layout": {"servers_per_rack": 2},
                        "pools": {"asn_base": 65000}})
    assert s.oversubscription == 3.0 and s.tiers == 3 and s.layout.servers_per_rack == 2
    assert spec_from_dict({"gpus": 64, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, "tiers": "2"}).tiers == 2
    assert spec_from_dict(spec_to_dict(s)) == s
    full = spec(100, leaf=switch(64, twin=True))
    assert spec_from_dict(spec_to_dict(full)) == full


def test_spec_from_dict_reports_unknown_and_missing_fields_by_path():
    with pytest.raises(SpecError) as err:
        spec_from_dict({"gpus": 10, "server": {"gpus": 8, "nic_ports": 8}, "leaf": {"ports": 64, "gbps": 400,
                                                                                    "colour": "red"},
                        "flavour": 1})
    assert {"server.nic_gbps", "leaf.colour", "flavour"} <= set(err.value.errors)


def test_spec_from_dict_takes_interconnects_by_seed_sku():
    s = spec_from_dict({"gpus": 64, "server": SERVER, "leaf": {"ports": 64, "gbps": 400},
                        "optics": ["MMA4Z00-NS400"], "fibers": [{"sku": "MFP7E10-N003"}]})
    assert [o.sku for o in s.optics] == ["MMA4Z00-NS400"] and s.fibers[0].length_m == 3
    with pytest.raises(SpecError) as err:
        spec_from_dict({"gpus": 64, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, "cables": ["NOPE"]})
    assert "cables[0].sku" in err.value.errors


@pytest.mark.parametrize("kind", ["optics", "cables", "fibers"])
def test_interconnects_that_are_not_a_list_are_a_field_error(kind):
    with pytest.raises(SpecError) as caught:
        spec_from_dict({"gpus": 64, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, kind: 5})
    assert set(caught.value.errors) == {kind}


def test_server_nics_built_in_and_ports_per_cage_are_checked_by_field():
    from dataclasses import replace

    from .builders import dgx
    with pytest.raises(SpecError) as err:
        spec(64, server=replace(dgx(), nics_built_in="yes", ports_per_cage=3)).validate()
    assert {"server.nics_built_in", "server.ports_per_cage"} <= set(err.value.errors)
    with pytest.raises(SpecError) as err:
        spec(64, server=replace(dgx(), nic_ports=7, ports_per_cage=2)).validate()
    assert "server.ports_per_cage" in err.value.errors


def test_spec_from_dict_takes_built_in_nics_and_twin_port_cages_inline_and_round_trips():
    data = {"gpus": 64, "server": {**SERVER, "nics_built_in": True, "ports_per_cage": 2},
            "leaf": {"ports": 64, "gbps": 400}}
    s = spec_from_dict(data)
    assert (s.server.nics_built_in, s.server.ports_per_cage) == (True, 2)
    assert spec_from_dict(spec_to_dict(s)) == s
    with pytest.raises(SpecError) as err:
        spec_from_dict({**data, "server": {**SERVER, "ports_per_cage": "two"}})
    assert list(err.value.errors) == ["server.ports_per_cage"]


@pytest.mark.parametrize("item", [{"sku": [1]}, {"sku": {"a": 1}}, [1], {"sku": None}])
def test_interconnect_sku_that_is_not_text_is_a_field_error(item):
    with pytest.raises(SpecError) as caught:
        spec_from_dict({"gpus": 64, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, "cables": [item]})
    assert set(caught.value.errors) <= {"cables[0]", "cables[0].sku"} and caught.value.errors


@pytest.mark.parametrize("field, value", [
    ("oversubscription", 10 ** 400), ("discount_pct", -(10 ** 400)),
    ("layout", {"row_pitch_m": 10 ** 400}), ("server", {**SERVER, "price": 10 ** 400}),
])
def test_numbers_too_large_for_a_float_are_a_field_error(field, value):
    with pytest.raises(SpecError) as caught:
        spec_from_dict({"gpus": 64, "server": SERVER, "leaf": {"ports": 64, "gbps": 400, "price": 1}, field: value})
    name = {"layout": "layout.row_pitch_m", "server": "server.price"}.get(field, field)
    assert list(caught.value.errors) == [name]


def test_spare_percentages_are_checked_field_by_field_from_a_dict():
    from apps.engine.spec import SparesPolicy
    from apps.engine.specio import spec_from_dict, spec_to_dict

    data = {"gpus": 256, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400}, "leaf": {"ports": 64, "gbps": 400}}
    assert spec_from_dict(data).spares == SparesPolicy(switches=0, transceivers=2, cables=2, fibers=2)
    custom = spec_from_dict({**data, "spares": {"switches": 1, "fibers": 5}})
    assert custom.spares == SparesPolicy(switches=1, transceivers=2, cables=2, fibers=5)
    assert spec_from_dict(spec_to_dict(custom)) == custom
    with pytest.raises(SpecError) as info:
        spec_from_dict({**data, "spares": {"transceivers": 101, "cables": -1, "fibers": "lots", "optics": 2}})
    assert set(info.value.errors) == {"spares.optics"}  # an unknown key stops the build first
    with pytest.raises(SpecError) as info:
        spec_from_dict({**data, "spares": {"transceivers": 101, "cables": -1, "fibers": "lots"}})
    assert set(info.value.errors) == {"spares.transceivers", "spares.cables", "spares.fibers"}


def test_the_switches_per_spare_rule_is_checked_and_a_spec_without_it_takes_the_default():
    from apps.engine.spec import SparesPolicy

    data = {"gpus": 256, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400}, "leaf": {"ports": 64, "gbps": 400}}
    # a spec stored before the rule (its four percentages only) loads with one spare per 20
    old = spec_from_dict({**data, "spares": {"switches": 0, "transceivers": 2, "cables": 2, "fibers": 2}})
    assert old.spares == SparesPolicy() and old.spares.switches_per_spare == 20
    custom = spec_from_dict({**data, "spares": {"switches_per_spare": 8}})
    assert custom.spares.switches_per_spare == 8 and spec_from_dict(spec_to_dict(custom)) == custom
    for bad in (-1, 2.5, "some", 10_001):
        with pytest.raises(SpecError) as info:
            spec_from_dict({**data, "spares": {"switches_per_spare": bad}})
        assert set(info.value.errors) == {"spares.switches_per_spare"}
