"""The rack height a design is laid out in: an input, a review point when the layout asks more than fits, NetBox's
rack height."""
from __future__ import annotations

import zipfile

import pytest
from django.urls import reverse

from apps.exports.netbox import version_netbox_write
from apps.designs.services.design import design_create
from tests.designs.conftest import inputs
from tests.exports.test_exports import generate, rows

pytestmark = pytest.mark.django_db


def racks_csv(version, tmp_path):
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=version, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        return rows(archive.read("05-racks.csv").decode("utf-8"))


def test_netbox_racks_are_as_high_as_the_layout_says(project, member, seed, django_capture_on_commit_callbacks,
                                                     tmp_path):
    version = generate(project, member, inputs(seed, layout={"rack_units": 52}), django_capture_on_commit_callbacks)
    assert {row["u_height"] for row in racks_csv(version, tmp_path)} == {"52"}


def test_eight_dgx_per_rack_is_a_review_point_and_six_are_placed_so_netbox_racks_keep_their_height(
    project, member, seed, django_capture_on_commit_callbacks, tmp_path
):
    version = generate(project, member, inputs(seed, layout={"servers_per_rack": 8}),
                       django_capture_on_commit_callbacks)
    assert {"code": "warning.rack_servers_height",
            "params": {"servers": 8, "server_ru": 8, "needed": 64, "rack_units": 48, "fit": 6}} \
        in [{"code": w["code"], "params": w["params"]} for w in version.summary["warning_codes"]]
    heights = {int(row["u_height"]) for row in racks_csv(version, tmp_path)}
    assert heights == {48}  # the placement lowers the count to what fits (engine.hall.rules): no rack overflows


@pytest.mark.parametrize("value", [0, 101, "tall"])
def test_a_bad_rack_height_is_a_field_error_and_creates_nothing(member_client, project, seed, value):
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": "Tall", **inputs(seed, layout={"rack_units": value})}, format="json")
    assert response.status_code == 400
    assert "layout.rack_units" in response.json()
