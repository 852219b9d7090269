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


def test_a_device_selected_in_the_topology_links_to_its_rack(page, login, engineer, generate_design):
    from apps.designs.models import DeviceRecord
    from apps.racks.models import RackItem

    version = generate_design(gpus=256)
    login(engineer)
    page.goto(f"/designs/projects/{version.design.project_id}/versions/{version.pk}/topology/")
    page.wait_for_function("() => window.fabricwebTopology && window.fabricwebTopology.ready")
    page.evaluate("() => window.fabricwebTopology.expand('srv:su0')")
    page.wait_for_function("() => window.fabricwebTopology.cy.nodes(\"[kind = 'dev'][role = 'server']\").length > 0")
    server = DeviceRecord.objects.get(version=version, name="srv-0000")
    assert page.evaluate(f"() => window.fabricwebTopology.select('dev:{server.pk}')")
    page.locator("#details-link-rack").click()
    rack = RackItem.objects.get(version=version, name="srv-0000").rack
    page.wait_for_url(re.compile(rf"/racks/{rack.name}/\?device=srv-0000$"))
    expect(page.locator('#rack-items tr.highlight[data-item="srv-0000"]')).to_be_visible()
    # Outlined on both faces: a server is full depth.
    expect(page.locator('.rack-elevation g.item.highlight[data-item="srv-0000"]')).to_have_count(2)


LABELS_IN_VIEW = """() => {
  const canvas = document.getElementById("floorplan").getBoundingClientRect();
  const svg = document.querySelector("#floorplan svg");
  const unit = svg.getScreenCTM().a;  // screen pixels per drawing unit
  const out = [];
  for (const text of svg.querySelectorAll("text.rack-label, text.row-label")) {
    const box = text.getBoundingClientRect();
    const visible = getComputedStyle(text).display !== "none" && box.width > 0 && box.right > canvas.left
      && box.left < canvas.right && box.bottom > canvas.top && box.top < canvas.bottom;
    if (visible) out.push({cls: text.getAttribute("class"), px: Number(text.getAttribute("font-size")) * unit});
  }
  return out;
}"""


def test_rack_numbers_and_row_names_are_legible_at_the_first_view_and_the_legend_is_beside_the_plan(
        page, login, engineer, generate_design, tmp_path):
    version = generate_design(gpus=5_000)
    login(engineer)
    page.goto(f"/designs/projects/{version.design.project_id}/versions/{version.pk}/")
    page.locator("#tab-racks").click()
    expect(page.locator("#floorplan")).to_have_attribute("data-ready", "true")
    labels = page.evaluate(LABELS_IN_VIEW)
    racks_seen = [label for label in labels if label["cls"] == "rack-label"]
    rows_seen = [label for label in labels if label["cls"] == "row-label"]
    assert len(racks_seen) >= 20 and rows_seen  # a readable piece of the hall, not an empty corner
    assert min(label["px"] for label in labels) >= 11 - 0.01
    # The legend is outside the drawing: it never covers a rack, whatever the zoom.
    canvas = page.locator("#floorplan").bounding_box()
    legend = page.locator("#floorplan-legend").bounding_box()
    assert legend["y"] >= canvas["y"] + canvas["height"] - 0.5
    expect(page.locator("#floorplan-legend")).to_contain_text("rear-door heat exchanger")
    expect(page.locator("#floorplan svg text.legend-text")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "floorplan-first-view.png"))
