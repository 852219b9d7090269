"""The design page as it is shown in a review meeting, in English and in Chinese: tabs in one row, a cost chart
that writes amounts the way the reader does, topology labels inside their nodes, names that do not break.
Every test fails on any JavaScript console error (see conftest.page)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.accounts.services import profile_set_language

pytestmark = pytest.mark.django_db(transaction=True)


def cost_chart(page) -> dict:
    page.wait_for_function("() => window.fabricwebCostChart && window.fabricwebCostChart.scales.x")
    return page.evaluate(
        """() => {
            const chart = window.fabricwebCostChart;
            const x = chart.scales.x;
            return {ticks: x.ticks.map((t) => String(t.label)), title: chart.options.scales.x.title.text,
                    titleShown: chart.options.scales.x.title.display};
        }"""
    )


def tab_boxes(page) -> list[dict]:
    return page.evaluate(
        "() => [...document.querySelectorAll('nav.tabs a')].map((a) => { const r = a.getBoundingClientRect();"
        " const cs = getComputedStyle(a);"
        " return {id: a.id, active: a.classList.contains('active'), bottom: Math.round(r.bottom),"
        " textTop: r.top + parseFloat(cs.paddingTop) + parseFloat(cs.borderTopWidth)}; })"
    )


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_version_tabs_read_on_one_line(page, login, engineer, engineer_project, generate_design, language):
    version = generate_design("Hall A")
    profile_set_language(user=engineer, language=language)
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/")
    boxes = tab_boxes(page)
    assert {"tab-overview", "tab-topology", "tab-roce-settings", "tab-diff"} <= {b["id"] for b in boxes}
    # the words of every tab on one line (the active tab's border is drawn around them)
    assert max(b["textTop"] for b in boxes) - min(b["textTop"] for b in boxes) <= 1, boxes
    # the tabs stand on the line under them (the active one covers it)
    assert len({b["bottom"] for b in boxes if not b["active"]}) == 1, boxes


def test_cost_chart_axis_writes_compact_amounts_and_the_currency_in_english(page, login, engineer,
                                                                            engineer_project, generate_design):
    version = generate_design("Hall A")
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/")
    chart = cost_chart(page)
    assert chart["titleShown"] and chart["title"] == f"Cost ({version.currency})"
    assert any(tick.endswith("K") or tick.endswith("M") for tick in chart["ticks"]), chart["ticks"]
    assert not any("," in tick for tick in chart["ticks"])


def test_cost_chart_axis_counts_in_wan_with_a_chinese_title(page, login, engineer, engineer_project,
                                                           generate_design):
    version = generate_design("Hall A")
    profile_set_language(user=engineer, language="zh-hans")
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/")
    chart = cost_chart(page)
    assert chart["title"] == f"成本（{version.currency}）"
    assert any(tick.endswith("万") for tick in chart["ticks"]), chart["ticks"]


def test_buffer_profile_names_stay_on_one_line(page, login, engineer, engineer_project, generate_design):
    version = generate_design("Hall A")
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/")
    codes = page.locator("#roce-headroom-table code")
    expect(codes.first).to_be_visible()
    lines = page.evaluate(
        "() => [...document.querySelectorAll('#roce-headroom-table code')].map((c) => c.getClientRects().length)")
    assert lines and set(lines) == {1}, lines


def test_chinese_topology_labels_fit_inside_their_nodes(page, login, engineer, engineer_project, generate_design):
    version = generate_design("Hall A")
    profile_set_language(user=engineer, language="zh-hans")
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/topology/")
    page.wait_for_function("() => window.fabricwebTopology && window.fabricwebTopology.ready === true")
    # cytoscape's own measure of each label against its node: at least the margin English labels get
    cramped = page.evaluate(
        """() => {
            const cy = window.fabricwebTopology.cy;
            const bad = [];
            cy.nodes().forEach((node) => {
                if (node.isParent() || node.data("kind") === "box" || node.data("kind") === "port") return;
                node.addClass("labelled");
                const label = node.boundingBox({includeNodes: false, includeLabels: true, includeOverlays: false});
                if (label.w + 12 > node.data("w")) bad.push([node.data("label"), label.w, node.data("w")]);
            });
            return bad;
        }"""
    )
    chinese = page.evaluate("() => window.fabricwebTopology.cy.getElementById('srv:su0').data('label')")
    assert "服务器" in chinese
    assert cramped == []


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_live_check_alternatives_headers_and_figures_read_on_one_line_inside_their_card(
        page, login, engineer, engineer_project, seed_catalog, language):
    from apps.catalog.models import ServerModel, SwitchModel

    profile_set_language(user=engineer, language=language)
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/new/")
    page.select_option("select[name=server]", str(ServerModel.objects.get(sku="DGXH-G640F+P2EDI36").pk))
    page.select_option("select[name=leaf_switch]", str(SwitchModel.objects.get(sku="920-9N42F-00RI-7C0").pk))
    page.fill("input[name=gpus]", "5000")
    expect(page.locator("#estimate-alternatives tbody tr").nth(2)).to_be_visible()
    heights = page.evaluate(
        """() => [...document.querySelectorAll('#estimate-alternatives th, #estimate-alternatives td.num')]
                 .map((c) => [c.textContent.trim(), [...c.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim())
                 .map((n) => { const r = document.createRange(); r.selectNodeContents(n); return r.getClientRects().length; })])"""
    )
    wrapped = [text for text, rects in heights if any(count > 1 for count in rects)]
    assert wrapped == [], wrapped
    spill = page.evaluate(
        """() => { const card = document.querySelector('#estimate-alternatives').closest('.card, .estimate-panel')
                   .getBoundingClientRect();
                   return [...document.querySelectorAll('#estimate-alternatives, #estimate-alternatives td')]
                     .map((e) => e.getBoundingClientRect().right - card.right).filter((d) => d > 0.5); }"""
    )
    assert spill == [], "the alternatives spill out of their card"
