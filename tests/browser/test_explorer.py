"""The explorer in headless Chromium: from the design page to the chart, the table, filters, sorting and
"generate this one". Fails on any JavaScript console error (conftest.page), CSP violations included."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.accounts.services import profile_set_language
from apps.designs.models import DesignVersion

pytestmark = pytest.mark.django_db(transaction=True)


def test_engineer_explores_from_a_design_and_generates_the_cheapest(page, login, engineer, generate_design):
    version = generate_design("Hall A", gpus=512)
    login(engineer)
    page.goto(f"/designs/projects/{version.design.project_id}/versions/{version.pk}/")
    page.click("#tab-explorer")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#explore-form")).to_be_visible()
    assert page.input_value("#id_gpus") == "512"
    page.select_option("#id_max_hops", "3")
    page.click("#explore")
    page.wait_for_load_state("networkidle")
    page.wait_for_function("() => document.getElementById('explore-chart').getAttribute('data-drawn') === '1'")
    rows = page.locator("#explore-table tbody tr")
    total = rows.count()
    assert total > 1
    # Every candidate meets the bar: 3 hops, i.e. 2 tiers.
    assert set(page.locator("#explore-table tbody tr").evaluate_all(
        "(rows) => rows.map((r) => r.getAttribute('data-tiers'))")) == {"2"}
    frontier = page.locator("#explore-table tbody tr.pareto").count()
    assert 1 <= frontier <= total
    points = page.evaluate("() => window.fabricwebExplorer.chart.data.datasets[0].data.length")
    assert points == frontier
    page.check("#filter-frontier")
    assert page.evaluate("() => window.fabricwebExplorer.visible.length") == frontier
    page.uncheck("#filter-frontier")
    # Sort by growth, descending on the second click.
    header = page.locator("#explore-table th", has_text="Grows to")
    header.click()
    header.click()
    values = rows.evaluate_all("(rows) => rows.map((r) => Number(r.cells[2].getAttribute('data-value')))")
    assert values == sorted(values, reverse=True)
    # Generate the cheapest: sort by cost, click its button, land on the job, then the new version.
    cost = page.locator("#explore-table th", has_text="Total cost")
    cost.click()
    first = rows.first
    shown_cost = float(first.locator("td").nth(1).get_attribute("data-value"))
    first.locator("button", has_text="Generate this one").click()
    page.wait_for_load_state("networkidle")
    new = DesignVersion.objects.filter(design=version.design).order_by("-number").first()
    assert new.number == 2
    assert float(new.total_cost) == pytest.approx(shown_cost, abs=0.01)


def test_explorer_page_in_chinese_with_a_bar_nothing_meets(page, login, engineer, engineer_project, seed_catalog):
    profile_set_language(user=engineer, language="zh-hans")
    login(engineer)
    page.goto(f"/explore/projects/{engineer_project.pk}/")
    page.fill("#id_gpus", "512")
    page.fill("#id_budget", "1000")
    page.click("#explore")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#bar-not-met")).to_be_visible()
    expect(page.locator("#explore-table ul.misses li").first).to_contain_text("预算")
