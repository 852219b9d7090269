"""The racks API: a version's racks, one rack with its contents, the hall; non-members get 404."""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.racks.models import Hall, Rack, RackItem

pytestmark = pytest.mark.django_db


def test_rack_list_pages_every_rack_in_hall_order(member_client, hall_version):
    url = reverse("api-version-rack-list", kwargs={"pk": hall_version.pk})
    body = member_client.get(url, {"limit": 1000}).json()
    racks = list(Rack.objects.filter(version=hall_version).order_by("id"))
    assert body["count"] == len(racks)
    assert [r["name"] for r in body["results"]] == [r.name for r in racks]
    first = body["results"][0]
    assert set(first) >= {"name", "kind", "row", "position", "x_m", "y_m", "u_height", "used_u", "power_typical_w",
                          "power_max_w", "budget_w", "over_budget", "cooling"}
    assert first["budget_w"] == 45_000 and first["over_budget"] is False
    fullest = member_client.get(url, {"ordering": "-power_typical_w", "limit": 1}).json()["results"][0]
    assert fullest["power_typical_w"] == max(r.power_typical_w for r in racks)


def test_rack_detail_lists_what_it_holds_bottom_to_top(member_client, hall_version):
    rack = Rack.objects.filter(version=hall_version, kind="compute").first()
    body = member_client.get(reverse("api-version-rack-detail", kwargs={"pk": hall_version.pk,
                                                                        "name": rack.name})).json()
    assert body["name"] == rack.name
    contents = body["contents"]
    assert [c["name"] for c in contents] == list(
        RackItem.objects.filter(rack_id=rack.pk).order_by("u", "face", "pk").values_list("name", flat=True))
    assert [c["u"] for c in contents] == sorted(c["u"] for c in contents)
    server = next(c for c in contents if c["role"] == "server")
    assert server["u_height"] == 8 and server["device"] is not None and server["face"] in ("front", "rear")
    missing = reverse("api-version-rack-detail", kwargs={"pk": hall_version.pk, "name": "R999-99"})
    assert member_client.get(missing).status_code == 404


def test_hall_gives_the_grid_rules_and_totals(member_client, hall_version):
    body = member_client.get(reverse("api-version-hall", kwargs={"pk": hall_version.pk})).json()
    hall = Hall.objects.get(version=hall_version)
    assert body["rows"] == hall.rows and body["positions"] == hall.positions
    assert body["reserved"] == [{"row": 0, "position": 2}]
    assert body["budget_w"] == 45_000 and body["power_basis"] == "typical" and body["cooling"] == "air"
    assert sum(body["racks_by_kind"].values()) == body["racks"] == hall.racks
    assert body["racks_over_budget"] == 0
    assert body["power_typical_w"] == pytest.approx(sum(Rack.objects.filter(version=hall_version)
                                                        .values_list("power_typical_w", flat=True)))


def test_non_members_get_404_on_every_racks_endpoint(outsider_client, hall_version):
    rack = Rack.objects.filter(version=hall_version).first()
    for url in (reverse("api-version-rack-list", kwargs={"pk": hall_version.pk}),
                reverse("api-version-rack-detail", kwargs={"pk": hall_version.pk, "name": rack.name}),
                reverse("api-version-hall", kwargs={"pk": hall_version.pk})):
        assert outsider_client.get(url).status_code == 404


def test_the_endpoints_are_in_the_openapi_schema(member_client):
    paths = member_client.get(reverse("schema"), {"format": "json"}).json()["paths"]
    assert {"/api/versions/{id}/racks/", "/api/versions/{id}/racks/{name}/", "/api/versions/{id}/hall/"} <= set(paths)
