"""The Performance page in headless Chromium: pick a preset, run it, read the charts and tables.
Fails on any JavaScript console error (see conftest.page)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

CANVASES = ("performance-collectives", "performance-busbw", "performance-links", "performance-scenarios")


def test_engineer_runs_a_training_job_and_reads_the_charts(page, login, engineer, generate_design):
    version = generate_design(gpus=512, switch_sku="DCS-7060DX5-64S", breakout="1x400G")
    login(engineer)
    page.goto(f"/designs/projects/{version.design.project_id}/versions/{version.pk}/")
    page.locator("#tab-performance").click()
    page.select_option("#id_model", "mixtral-8x22b")
    page.select_option("#id_routing", "spray")
    page.fill("#id_tp", "1")
    page.check("input[name=failures][value=spine]")
    page.locator("#performance-run").click()
    page.wait_for_url(re.compile(r"\?run=\d+$"))
    for canvas in CANVASES:
        expect(page.locator(f"#{canvas}")).to_have_attribute("data-drawn", "1")
    bars = page.evaluate("() => Chart.getChart(document.getElementById('performance-scenarios')).data.labels")
    assert bars == ["healthy", "one spine down"]
    expect(page.locator("#performance-collectives-table tr[data-key=ep-dispatch]")).to_be_visible()
    expect(page.locator("#performance-share")).to_contain_text("%")

    # A TP larger than the server's NVLink domain is refused on its field.
    page.fill("#id_tp", "16")
    page.locator("#performance-run").click()
    expect(page.locator('.field-error[data-field="tp"]')).to_contain_text("scale-up domain")
