"""An engineer's day in headless Chromium: design form, job progress, design page, topology, cabling,
Chinese. Every test fails on any JavaScript console error (see conftest.page)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.catalog.models import ServerModel, SwitchModel
from apps.designs.models import Design, DesignVersion, DeviceRecord, Job, LinkRecord

pytestmark = pytest.mark.django_db(transaction=True)

DGX_H100 = "DGXH-G640F+P2EDI36"
SN5600 = "920-9N42F-00RI-7C0"


def topology_ready(page) -> None:
    page.wait_for_function("() => window.fabricwebTopology && window.fabricwebTopology.ready === true")


def count_nodes(page, selector: str) -> int:
    return page.evaluate("(s) => window.fabricwebTopology.cy.nodes(s).length", selector)


def click_element(page, element_id: str) -> None:
    """Bring a node or edge to the middle of the canvas at 100 % zoom and click it with the mouse.

    An edge is clicked close to its target end, where no other edge runs (a port has one cable)."""
    page.locator("#topology").scroll_into_view_if_needed()
    x, y = page.evaluate(
        """(id) => {
            const cy = window.fabricwebTopology.cy;
            const ele = cy.getElementById(id);
            cy.zoom(1);
            cy.center(ele);
            let p = ele.isNode() ? ele.renderedPosition() : null;
            if (!p) {
                const a = ele.renderedSourceEndpoint(), b = ele.renderedTargetEndpoint();
                p = {x: a.x + 0.9 * (b.x - a.x), y: a.y + 0.9 * (b.y - a.y)};
            }
            const box = cy.container().getBoundingClientRect();
            return [box.left + p.x, box.top + p.y];
        }""",
        element_id,
    )
    page.mouse.click(x, y)


def test_engineer_designs_from_the_form_watches_the_job_and_reviews_the_design(
    page, login, engineer, engineer_project, seed_catalog, background_worker
):
    server = ServerModel.objects.get(sku=DGX_H100)
    switch = SwitchModel.objects.get(sku=SN5600)
    login(engineer)
    page.goto(engineer_project.get_absolute_url())
    page.click("#new-design")
    page.wait_for_url("**/new/")

    page.fill("#id_name", "Hall A")
    page.select_option("#id_server", str(server.pk))
    expect(page.locator("#id_nic")).to_have_value(str(server.default_nic_id))
    page.select_option("#id_leaf_switch", str(switch.pk))
    breakouts = page.eval_on_selector_all("#id_leaf_breakout option", "options => options.map(o => o.value)")
    assert breakouts == ["", "1x800G", "2x400G", "4x200G"]
    page.select_option("#id_leaf_breakout", "2x400G")

    # Checked as typed: an error next to the field, then the live figures once it is right.
    page.fill("#id_gpus", "0")
    expect(page.locator('[data-error-for="gpus"]')).to_have_text("A design needs at least 1 GPU.")
    expect(page.locator("#estimate-verdict")).to_have_text("Not feasible yet")
    page.fill("#id_gpus", "256")
    expect(page.locator("#estimate-verdict")).to_have_text("Feasible")
    expect(page.locator('#estimate [data-kpi="tiers"]')).to_have_text("2")
    expect(page.locator('#estimate [data-kpi="leaf"]')).to_have_text("8")
    expect(page.locator('[data-error-for="gpus"]')).to_have_text("")

    seen: list[dict] = []

    def record(route):
        response = route.fetch()
        seen.append(response.json())
        route.fulfill(response=response)

    page.route("**/api/jobs/*/", record)
    page.click("#generate")
    page.wait_for_url("**/jobs/**")
    expect(page.locator("#job-status")).to_have_text("queued")
    expect(page.locator("#job-stage")).to_have_text("waiting for a worker")
    expect(page.locator("#job-progress")).to_have_attribute("aria-valuenow", "100", timeout=60_000)
    page.wait_for_url(re.compile(r"/versions/\d+/$"), timeout=30_000)

    percents = [job["percent"] for job in seen]
    assert percents[0] < 100 and percents[-1] == 100
    assert percents == sorted(percents)
    assert seen[-1]["status"] == "succeeded"
    version = DesignVersion.objects.get(design__name="Hall A")
    assert page.url.endswith(f"/versions/{version.pk}/")

    # The design page: headline figures, BOM, cost chart, alternatives.
    expect(page.locator('[data-kpi="gpus"] .value')).to_have_text("256")
    expect(page.locator('[data-kpi="tiers"] .value')).to_have_text("2")
    expect(page.locator('[data-kpi="leaf"] .value')).to_have_text("8")
    expect(page.locator('[data-kpi="links"] .value')).to_have_text("768")
    assert page.locator("#bom-table tbody tr[data-sku]").count() == version.bom_lines.count()
    expect(page.locator("#bom-total")).to_have_text(f"{version.total_cost:,.2f}")
    assert page.evaluate("window.fabricwebCostChart.data.labels.length") >= 3
    assert page.locator("#alternatives-table tr.cheapest").count() == 1

    # The topology: every switch of this small fabric, servers grouped by scale unit.
    page.click("#tab-topology")
    topology_ready(page)
    assert count_nodes(page, "[kind = 'dev'][role = 'leaf']") == 8
    assert count_nodes(page, "[kind = 'dev'][role = 'spine']") == 4
    assert count_nodes(page, "#srv\\:su0") == 1

    # Open a leaf to its ports: a list in the side panel, downlinks and uplinks, each with its other end.
    leaf = DeviceRecord.objects.get(version=version, name="p0-su00-leaf-r2")
    down = LinkRecord.objects.filter(version=version, b_device=leaf).count()
    up = LinkRecord.objects.filter(version=version, a_device=leaf).count()
    click_element(page, f"dev:{leaf.pk}")
    expect(page.locator("#details-body h3")).to_have_text(leaf.name)
    ports = page.locator("#details-ports")
    expect(ports.locator("table[data-toward=down] tr")).to_have_count(down + 1)
    expect(ports.locator("table[data-toward=up] tr")).to_have_count(up + 1)

    # A cable's ends, medium, length, labels and addresses in the side panel.
    link = LinkRecord.objects.get(version=version, b_device=leaf, b_port="Ethernet124")
    ports.get_by_text("srv-0031:eth2").click()
    details = page.locator("#details-body")
    expect(details.locator("h3")).to_have_text("Link")
    expect(details).to_contain_text(link.label_a)
    expect(details).to_contain_text(link.medium)
    expect(details).to_contain_text(f"{link.a_ip}")
    expect(details).to_contain_text(link.subnet)
    expect(details).to_contain_text("srv-0031:eth2")

    # Open the scale unit's servers: 32 new nodes are drawn inside it.
    click_element(page, "srv:su0")
    page.wait_for_function("() => window.fabricwebTopology.cy.nodes(\"[kind = 'dev'][role = 'server']\").length === 32")
    drawn = page.evaluate("""() => {
        const cy = window.fabricwebTopology.cy;
        const servers = cy.nodes("[kind = 'dev'][role = 'server']");
        return {inside: servers.every(n => n.parent().id() === 'srv:su0'),
                visible: servers.every(n => n.visible() && n.renderedBoundingBox().w > 0),
                distinct: new Set(servers.map(n => `${n.position().x},${n.position().y}`)).size};
    }""")
    assert drawn == {"inside": True, "visible": True, "distinct": 32}
    expect(page.locator("#details-body h3")).to_have_text("SU 0 servers")
    # Collapsing the scale unit folds its servers back into one node.
    page.click("#details-collapse")
    page.wait_for_function("() => window.fabricwebTopology.cy.nodes(\"[kind = 'dev'][role = 'server']\").length === 0")
    assert count_nodes(page, "#srv\\:su0") == 1

    # The cabling table beside it, filtered to that leaf.
    page.fill('#cabling-filters input[name="device"]', leaf.name)
    page.select_option('#cabling-filters select[name="tier"]', "0")
    page.click('#cabling-filters button[type="submit"]')
    expect(page.locator("#cabling-range")).to_have_text("1–25 of 32 links")
    rows = page.locator("#cabling-table tbody tr")
    assert rows.count() == 25
    assert all(leaf.name in text for text in rows.all_inner_texts())
    page.click("#cabling-next")
    expect(page.locator("#cabling-range")).to_have_text("26–32 of 32 links")


def test_the_job_page_turns_into_the_design_page_when_the_job_has_already_run(
    page, login, engineer, engineer_project, seed_catalog
):
    """Without a worker (tasks run eagerly) the job is done before its page loads: the page is its version's."""
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/new/")
    page.fill("#id_name", "Eager")
    page.select_option("#id_server", str(ServerModel.objects.get(sku=DGX_H100).pk))
    page.select_option("#id_leaf_switch", str(SwitchModel.objects.get(sku=SN5600).pk))
    page.fill("#id_gpus", "128")
    expect(page.locator("#estimate-verdict")).to_have_text("Feasible")
    page.click("#generate")
    page.wait_for_url(re.compile(r"/versions/\d+/$"))
    expect(page.locator('[data-kpi="gpus"] .value')).to_have_text("128")
    assert Job.objects.get().status == Job.Status.SUCCEEDED


def test_form_errors_show_in_place_while_typing_and_after_submitting(
    page, login, engineer, engineer_project, seed_catalog, generate_design
):
    generate_design("Hall A")
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/new/")
    # A fresh form does not shout about the fields nobody has filled in yet.
    expect(page.locator("#estimate-verdict")).to_have_text("Not feasible yet")
    expect(page.locator('[data-error-for="gpus"]')).to_have_text("")
    page.select_option("#id_server", str(ServerModel.objects.get(sku=DGX_H100).pk))
    page.fill("#id_gpus", "512")
    page.fill("#id_planes", "3")
    expect(page.locator('[data-error-for="planes"]')).to_contain_text("3 planes do not divide")
    page.fill("#id_layout_servers_per_rack", "-1")  # 0 derives the count from height and power
    expect(page.locator('[data-error-for="layout_servers_per_rack"]')).to_have_text("Must be at least 0.")
    page.fill("#id_name", "hall a")
    page.click("#generate")
    page.wait_for_load_state("networkidle")
    assert page.url.endswith("/new/")
    expect(page.locator('[data-error-for="name"]')).to_contain_text("already has a design named")
    expect(page.locator('[data-error-for="planes"]')).to_contain_text("3 planes do not divide")
    assert Design.objects.count() == 1


def test_switching_to_simplified_chinese_translates_the_design_pages(
    page, login, engineer, engineer_project, generate_design
):
    version = generate_design("Hall A")
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/")
    expect(page.locator(".mainnav")).to_contain_text("Projects")
    page.select_option("#language-select", "zh-hans")
    page.wait_for_load_state("networkidle")
    expect(page.locator(".mainnav")).to_contain_text("项目")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.locator("#tab-topology")).to_have_text("拓扑与布线")
    expect(page.locator('[data-kpi="gpus"] .label')).to_have_text("GPU 数量")
    expect(page.locator("#bom h2")).to_have_text("物料清单（BOM）")
    page.click("#tab-topology")
    topology_ready(page)
    expect(page.locator("#topology-counts")).to_contain_text("个节点")
    assert page.evaluate("window.fabricwebTopology.cy.getElementById('srv:su0').data('label')").endswith("32 台服务器")
    # The choice belongs to the user: a new session opens in Chinese too. Leave the page first, so none of its
    # requests (the topology's cabling table) is still on its way when the session cookie goes.
    page.goto("about:blank")
    page.context.clear_cookies()
    login(engineer)
    page.goto(engineer_project.get_absolute_url())
    expect(page.locator("#project-designs h2")).to_have_text("设计")


def test_a_failed_job_says_why_and_leads_back_to_the_form_prefilled(
    page, login, engineer, engineer_project, seed_catalog, background_worker, monkeypatch
):
    from apps.engine import plan as engine_plan
    from apps.engine.spec import InfeasibleSpec

    def refuse(spec, progress=None):
        raise InfeasibleSpec({"cabling.spine-core": ["no optic reaches 350 m between these cages"],
                              "pools.host": ["10.0.0.0/24 holds 128 /31s; 512 NIC ports need more"]})

    monkeypatch.setattr(engine_plan, "plan", refuse)
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/new/")
    page.fill("#id_name", "Too far")
    page.select_option("#id_server", str(ServerModel.objects.get(sku=DGX_H100).pk))
    page.select_option("#id_leaf_switch", str(SwitchModel.objects.get(sku=SN5600).pk))
    page.fill("#id_gpus", "512")
    expect(page.locator("#estimate-verdict")).to_have_text("Feasible")
    page.click("#generate")
    page.wait_for_url("**/jobs/**")
    expect(page.locator("#job-failed")).to_be_visible(timeout=30_000)
    expect(page.locator("#job-status")).to_have_text("failed")
    expect(page.locator("#job-error")).to_contain_text("no optic reaches 350 m")
    expect(page.locator("#job-field-errors")).to_contain_text("Host pool (NIC /31s): 10.0.0.0/24 holds 128 /31s")
    page.click("#job-retry")
    page.wait_for_url("**/versions/new/?from=*")
    expect(page.locator("#id_gpus")).to_have_value("512")
    assert Job.objects.get().status == Job.Status.FAILED
