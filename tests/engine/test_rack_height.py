"""Racks have a height (layout.rack_units): a layout asking more than a rack holds gets what fits and a review
point; a rack lower than a device is refused."""
from __future__ import annotations

import pytest

from apps.engine import plan as engine_plan
from apps.engine.spec import SpecError
from tests.engine.builders import RackLayout, replace, server, spec, switch


def notes(design_spec):
    return {note.code: note for note in engine_plan.review_notes(design_spec, engine_plan.size(design_spec))}


def test_eight_8u_servers_per_rack_overflow_a_48u_rack_and_the_note_says_how_many_fit():
    eight_u = replace(server(), rack_units=8)
    found = notes(spec(5_000, server=eight_u, layout=RackLayout(servers_per_rack=8)))
    note = found["warning.rack_servers_height"]
    assert note.params == {"servers": 8, "server_ru": 8, "needed": 64, "rack_units": 48, "fit": 6}
    assert note.text == "8 servers of 8U per rack need 64U, more than the 48U racks hold: put at most 6 in a rack"


def test_four_8u_servers_fit_and_a_taller_rack_takes_eight():
    eight_u = replace(server(), rack_units=8)
    assert "warning.rack_servers_height" not in notes(spec(5_000, server=eight_u, layout=RackLayout(servers_per_rack=4)))
    assert "warning.rack_servers_height" not in notes(
        spec(5_000, server=eight_u, layout=RackLayout(servers_per_rack=8, rack_units=64)))


def test_spine_and_core_racks_are_checked_with_their_switch_heights():
    design_spec = spec(5_000, leaf=switch(rack_units=4), tiers=3, layout=RackLayout(switches_per_rack=16, rack_units=42))
    raised = [n for n in engine_plan.review_notes(design_spec, engine_plan.size(design_spec))
              if n.code == "warning.rack_switches_height"]
    assert {n.params["role"] for n in raised} == {"spine", "core"}
    assert {(n.params["switches"], n.params["needed"], n.params["fit"]) for n in raised} == {(16, 64, 10)}
    # An SU's 8 leaves of 4U take 32U: they fit the 42U rack.
    assert "warning.rack_leaves_height" not in notes(design_spec)


def test_an_su_s_leaves_taller_than_one_rack_take_two_leaf_racks():
    design_spec = spec(5_000, leaf=switch(rack_units=8), layout=RackLayout(rack_units=42))
    result = engine_plan.plan(design_spec)
    leaf_racks = {d.rack for d in result.devices if d.role == "leaf" and d.su == 0}
    assert len(leaf_racks) == 2  # 8 leaves of 8U: 5 in one 42U rack, 3 in the next
    assert "warning.rack_leaves_height" not in {n.code for n in result.notes}
    assert all(rack.used_units <= 42 for rack in result.hall.racks)


def test_a_rack_lower_than_a_switch_is_refused():
    with pytest.raises(SpecError) as refused:
        spec(64, leaf=switch(rack_units=8), layout=RackLayout(rack_units=6)).validate()
    assert refused.value.details["layout.rack_units"][0].code == "rack.too_low"


@pytest.mark.parametrize("height", [0, 101, 2.5, "48"])
def test_a_rack_height_out_of_range_is_a_field_error(height):
    with pytest.raises(SpecError) as refused:
        spec(64, layout=RackLayout(rack_units=height)).validate()
    assert "layout.rack_units" in refused.value.errors
