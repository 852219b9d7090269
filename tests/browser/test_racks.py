"""The racks pages in headless Chromium: the floor plan zooms and pans, a rack opens its elevation, a device
leads to its cables in the topology. Fails on any JavaScript console error (see conftest.page)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.racks.models import Rack

pytestmark = pytest.mark.django_db(transaction=True)


def test_engineer_zooms_the_floor_plan_opens_a_rack_and_finds_a_device_in_the_topology(
        page, login, engineer, generate_design, tmp_path):
    version = generate_design(gpus=256, layout={"rack_power_kw": 45, "hall": {"reserved": [[1, 3]]}})
    login(engineer)
    page.goto(f"/designs/projects/{version.design.project_id}/versions/{version.pk}/")
    page.locator("#tab-racks").click()
    expect(page.locator("#floorplan")).to_have_attribute("data-ready", "true")
    racks = Rack.objects.filter(version=version).count()
    expect(page.locator("#floorplan svg rect.rack")).to_have_count(racks)
    expect(page.locator("#floorplan svg rect.reserved")).to_have_count(1)
    # Names are hidden at the fitted zoom of a wide hall and shown once zoomed in.
    for _ in range(8):
        page.locator("#floorplan-zoom-in").click()
    expect(page.locator("#floorplan svg")).to_have_class(re.compile(r"\blabels\b"))
    page.locator("#floorplan-fit").click()
    # Dragging pans the plan and is not a click on a rack.
    before = page.locator("#floorplan svg").get_attribute("viewBox")
    hall_url = page.url
    box = page.locator("#floorplan").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 60)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 120, box["y"] + 90, steps=5)
    page.mouse.up()
    assert page.locator("#floorplan svg").get_attribute("viewBox") != before
    assert page.url == hall_url
    page.locator("#floorplan-fit").click()
    page.screenshot(path=str(tmp_path / "floorplan.png"))

    # A click on a rack opens its elevation: front and rear, the power bar against the budget.
    rack = Rack.objects.filter(version=version, kind="compute").order_by("id").first()
    page.locator(f'#floorplan svg rect.rack[data-rack="{rack.name}"]').click()
    page.wait_for_url(re.compile(rf"/racks/{rack.name}/$"))
    expect(page.locator(".rack-elevation .face-front g.item.mounted")).not_to_have_count(0)
    expect(page.locator(".rack-elevation .power-bar")).to_contain_text("kW of 45.0 kW budget")
    page.screenshot(path=str(tmp_path / "rack.png"), full_page=True)

    # From a device of the rack to its cables in the topology.
    link = page.locator("#rack-items a.topology-link").first
    device = link.locator("xpath=ancestor::tr").get_attribute("data-item")
    link.click()
    page.wait_for_url(re.compile(r"/topology/\?device="))
    expect(page.locator("#cabling-filters input[name=device]")).to_have_value(device)
    expect(page.locator("#cabling-table tbody tr").first).to_contain_text(device)
