"""The rack rules and the data hall as design inputs: field-level errors, nothing saved on bad input."""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.designs.forms import DesignInputsForm
from apps.designs.models import Design, DesignVersion, Job
from apps.designs.services.layout_input import cells_parse, cells_text, rows_parse, rows_text
from apps.racks.models import Hall
from tests.designs.conftest import inputs
from tests.designs.test_views import field_errors, form_data, url

pytestmark = pytest.mark.django_db


def _create(client, project, seed, layout):
    return client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                       {"name": "Hall", **inputs(seed), "layout": layout}, format="json")


def _nothing_saved():
    return not Design.objects.exists() and not DesignVersion.objects.exists() and not Job.objects.exists() \
        and not Hall.objects.exists()


@pytest.mark.parametrize(("layout", "field", "words"), [
    # 32 DGX H100 of 10.2 kW: a 5 kW rack can't hold one.
    ({"rack_power_kw": 5}, "layout.rack_power_kw", "can't hold one"),
    # 8U servers in 4U racks.
    ({"rack_units": 4}, "layout.rack_units", "can't hold"),
    # Two rows of two positions for a dozen racks: the message says how many rows are missing.
    ({"hall": {"rows": 2, "positions": 2}}, "layout.hall.rows", "rows missing"),
    ({"cooling": "water"}, "layout.cooling", "Choose one of: air, rear-door, liquid."),
    ({"rack_power_basis": "peak"}, "layout.rack_power_basis", "Choose one of: typical, maximum."),
    ({"hall": {"reserved": "row three"}}, "layout.hall.reserved", "row:position"),
    ({"hall": {"reserved": [[0, 1]]}}, "layout.hall.reserved", "row:position"),
    ({"hall": {"zones": {"network": "nine"}}}, "layout.hall.zones.network", "counted from 1"),
    ({"hall": {"zones": {"office": [1]}}}, "layout.hall.zones", "Unknown zone"),
    ({"hall": {"rows": -1}}, "layout.hall.rows", "at least 0"),
    ({"structured_cabling": "maybe"}, "layout.structured_cabling", "yes or no"),
    ({"rack_power_kw": "٥٠"}, "layout.rack_power_kw", "digits 0-9"),
    ({"cold_aisle_m": -1}, "layout.cold_aisle_m", "at least 0"),
    ({"air_limit_kw": "lots"}, "layout.air_limit_kw", "number"),
    ({"max_aspect": 0.5}, "layout.max_aspect", "at least 1"),
    ({"hall": {"width_m": "wide"}}, "layout.hall.width_m", "number"),
    # A room 4 m deep holds one row pair: a dozen racks in rows of 2 positions need more; said on the depth.
    ({"hall": {"depth_m": 4, "positions": 2}}, "layout.hall.depth_m", "rows missing"),
])
def test_bad_rack_and_hall_inputs_are_field_errors_and_save_nothing(member_client, project, seed, layout, field,
                                                                    words):
    response = _create(member_client, project, seed, layout)
    assert response.status_code == 400, response.content
    errors = response.json()
    assert field in errors, errors
    assert words in " ".join(errors[field]), errors[field]
    assert _nothing_saved()


def test_design_form_puts_the_engine_refusals_on_their_fields(client_for_member, project, seed):
    response = client_for_member.post(url("design-create", project), form_data(
        seed, layout_rack_power_kw="5", layout_hall_rows="2", layout_hall_positions="2"))
    assert response.status_code == 200
    assert "can't hold one" in " ".join(field_errors(response, "layout_rack_power_kw"))
    assert _nothing_saved()
    response = client_for_member.post(url("design-create", project), form_data(
        seed, layout_hall_rows="2", layout_hall_positions="2"))
    assert "rows missing" in " ".join(field_errors(response, "layout_hall_rows"))
    response = client_for_member.post(url("design-create", project), form_data(seed, layout_hall_reserved="3-5"))
    assert "row:position" in " ".join(field_errors(response, "layout_hall_reserved"))
    assert _nothing_saved()


def test_design_form_stores_the_hall_and_a_new_version_starts_from_it(client_for_member, project, seed,
                                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for_member.post(url("design-create", project), form_data(
            seed, layout_rack_power_kw="45", layout_rack_power_basis="maximum", layout_cooling="rear-door",
            layout_hall_reserved="1:3, 2:5-6", layout_hall_zones_network="4-5", layout_structured_cabling="on"))
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    version = DesignVersion.objects.get()
    assert version.layout == {"rack_power_kw": 45.0, "rack_power_basis": "maximum", "cooling": "rear-door",
                              "structured_cabling": True,
                              "hall": {"reserved": [[1, 3], [2, 5], [2, 6]], "zones": {"network": [4, 5]}}}
    initial = DesignInputsForm.initial_from_version(version)
    assert initial["layout_hall_reserved"] == "1:3, 2:5-6"
    assert initial["layout_hall_zones_network"] == "4-5"
    assert initial["layout_structured_cabling"] is True and initial["layout_cooling"] == "rear-door"


def test_cells_and_rows_read_and_write_the_same_text():
    assert cells_parse("3:5, 3:6-8;4:1") == [[3, 5], [3, 6], [3, 7], [3, 8], [4, 1]]
    assert cells_text([[3, 5], [3, 6], [3, 7], [3, 8], [4, 1]]) == "3:5-8, 4:1"
    assert rows_parse("1-3, 7") == [1, 2, 3, 7] and rows_text([7, 1, 2, 3]) == "1-3, 7"
    for bad in ("3", "0:1", "3:5-4", "٣:٥", "1:2:3"):
        assert cells_parse(bad) is None, bad
    for bad in ("0", "3-1", "a", ""):
        assert rows_parse(bad) is None, bad


def test_the_room_and_aisles_the_user_gives_shape_the_hall(project, member, seed, django_capture_on_commit_callbacks):
    from tests.exports.test_exports import generate

    generate(project, member, inputs(seed, layout={"hall": {"width_m": 12}, "cold_aisle_m": 1.8, "air_limit_kw": 45}),
             django_capture_on_commit_callbacks)
    hall = Hall.objects.get()
    assert hall.width_m <= 12 and hall.aisles["cold_aisle_m"] == 1.8 and hall.aisles["air_limit_kw"] == 45
    # Four 10.2 kW servers a rack stay under a 45 kW air limit: every rack air-cooled.
    assert set(hall.version.racks.values_list("cooling", flat=True)) == {"air"}
