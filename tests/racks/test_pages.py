"""The racks pages as a member sees them: the floor plan, a rack's elevation, links to and from the topology."""
from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from django.urls import reverse
from django.utils import translation

from apps.racks.models import Rack, RackItem

pytestmark = pytest.mark.django_db


def hall_url(version):
    return reverse("racks:hall", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


def rack_url(version, name):
    return reverse("racks:rack", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk,
                                         "name": name})


def test_design_page_has_a_racks_tab(client_for_member, hall_version):
    url = reverse("designs:version-detail", kwargs={"project_pk": hall_version.design.project_id,
                                                    "version_pk": hall_version.pk})
    html = client_for_member.get(url).content.decode()
    assert f'href="{hall_url(hall_version)}" id="tab-racks"' in html


def test_floor_plan_draws_every_rack_linked_to_its_elevation_with_a_legend(client_for_member, hall_version):
    response = client_for_member.get(hall_url(hall_version))
    assert response.status_code == 200
    html = response.content.decode()
    racks = list(Rack.objects.filter(version=hall_version).values_list("name", flat=True))
    drawn = re.findall(r'<rect class="rack rack-\w+[^"]*" data-rack="([^"]+)"', html)
    assert sorted(drawn) == sorted(racks)
    for name in racks:
        assert f'<a href="{rack_url(hall_version, name)}">' in html
    assert 'class="reserved"' in html  # the reserved cell is drawn
    assert "Power per rack (typical draw)" in html and "over the budget" in html  # the legend
    assert "<script>" not in html and "onclick" not in html  # scripts from the site only (CSP)
    assert 'src="/static/js/racks.js"' in html


def test_rack_elevation_shows_front_and_rear_the_devices_and_the_power_bar(client_for_member, hall_version):
    item = RackItem.objects.filter(version=hall_version, role="server").select_related("rack").first()
    rack = item.rack
    html = client_for_member.get(rack_url(hall_version, rack.name)).content.decode()
    assert "Front · " + rack.name in html and "Rear · " + rack.name in html
    names = RackItem.objects.filter(rack_id=rack.pk).values_list("name", flat=True)
    for name in names:
        assert f'data-item="{name}"' in html
    assert "kW of 45.0 kW budget (typical draw" in html
    # Each device links to its cables in the topology.
    assert f"?device={quote(item.name)}#cabling" in html


def test_a_device_leads_to_its_rack_and_the_topology_offers_the_link(client_for_member, hall_version):
    item = RackItem.objects.filter(version=hall_version, role="leaf").select_related("rack").first()
    url = reverse("racks:device-rack", kwargs={"project_pk": hall_version.design.project_id,
                                               "version_pk": hall_version.pk, "device": item.name})
    response = client_for_member.get(url)
    assert response.status_code == 302
    assert response["Location"] == rack_url(hall_version, item.rack.name) + f"?device={quote(item.name)}"
    page = client_for_member.get(response["Location"]).content.decode()
    assert f'data-highlight="{item.name}"' in page
    topology = client_for_member.get(reverse("designs:version-topology", kwargs={
        "project_pk": hall_version.design.project_id, "version_pk": hall_version.pk})).content.decode()
    config = json.loads(re.search(r'<script id="topology-config" type="application/json">(.*?)</script>',
                                  topology, re.S)[1])
    [link] = [link for link in config["deviceLinks"] if link["key"] == "rack"]
    assert link["label"] == "Its rack"
    assert link["url"].replace("__device__", item.name) == url


def test_an_unknown_rack_or_device_is_404(client_for_member, hall_version):
    assert client_for_member.get(rack_url(hall_version, "R999-99")).status_code == 404
    url = reverse("racks:device-rack", kwargs={"project_pk": hall_version.design.project_id,
                                               "version_pk": hall_version.pk, "device": "no-such-device"})
    assert client_for_member.get(url).status_code == 404


def test_non_members_get_404_on_every_racks_page(hall_version, client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    rack = Rack.objects.filter(version=hall_version).first()
    for url in (hall_url(hall_version), rack_url(hall_version, rack.name)):
        assert client.get(url).status_code == 404


def test_pages_in_chinese(client_for_member, hall_version):
    rack = Rack.objects.filter(version=hall_version).first()
    with translation.override("zh-hans"):
        hall = client_for_member.get(hall_url(hall_version), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        page = client_for_member.get(rack_url(hall_version, rack.name), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "机柜" in hall and "Floor plan" not in hall
    assert "正面" in page and "背面" in page
