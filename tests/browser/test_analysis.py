"""The RoCE and Traffic sections of the design page in headless Chromium: charts drawn, checklist, config
preview, a traffic re-run and the settings form. Fails on any JavaScript console error (see conftest.page)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from apps.designs.models import DesignVersion, DeviceRecord

pytestmark = pytest.mark.django_db(transaction=True)

CANVASES = ("traffic-hist-all-reduce", "traffic-hist-all-to-all", "traffic-effective", "traffic-worst-mean")


def charts_drawn(page, canvases=CANVASES) -> None:
    for canvas in canvases:
        expect(page.locator(f"#{canvas}")).to_have_attribute("data-drawn", "1")
        datasets = page.evaluate(
            "(id) => Chart.getChart(document.getElementById(id)).data.datasets.map(d => d.data.length)", canvas)
        assert len(datasets) == 2 and all(datasets), (canvas, datasets)


def test_engineer_reviews_roce_checklist_and_traffic_charts(page, login, engineer, generate_design):
    version = generate_design(gpus=512, switch_sku="DCS-7060DX5-64S", breakout="1x400G",
                              roce={"overrides": {"nic": {"pfc_priorities": [4]}}})
    login(engineer)
    page.goto(f"/designs/projects/{version.design.project_id}/versions/{version.pk}/")

    charts_drawn(page)
    expect(page.locator("#roce-verdict")).to_have_text("RoCE: 1 error")
    nic_error = page.locator('#roce-checklist tr[data-severity="error"][data-class="nic"]')
    expect(nic_error).to_have_count(1)
    expect(nic_error.locator(".device-class")).to_have_text("NIC")
    expect(nic_error.locator(".fix")).to_contain_text("mlnx_qos -i <if> --pfc 0,0,0,1,0,0,0,0")
    expect(page.locator("#roce-headroom-table tbody tr")).to_have_count(3)
    expect(page.locator("#traffic-hops tbody tr").first).to_be_visible()

    # One device's config, as in the zip.
    leaf = DeviceRecord.objects.filter(version=version, role="leaf").order_by("pk").first()
    page.locator(f'.roce-sample[data-device="{leaf.name}"]').click()
    expect(page.locator("#roce-preview")).to_be_visible()
    expect(page.locator("#roce-preview")).to_contain_text('"DSCP_TO_TC_MAP"')
    expect(page.locator("#roce-preview-name")).to_have_text(f"sonic/leaf/{leaf.name}.config_db.json")
    expect(page.locator("#roce-zip")).to_have_attribute("href", f"/api/versions/{version.pk}/roce/configs.zip")
    # The same intent in the switch vendor's own NOS (an Arista switch: EOS), with its routing.
    expect(page.locator("#roce-formats")).to_contain_text("Arista EOS")
    page.locator("#roce-preview-format").select_option("nos")
    page.locator(f'.roce-sample[data-device="{leaf.name}"]').click()
    expect(page.locator("#roce-preview-name")).to_have_text(f"eos/leaf/{leaf.name}.eos.cfg")
    expect(page.locator("#roce-preview")).to_contain_text(f"router bgp {leaf.asn}")

    # Run the analysis again with another seed: the page opens the new report.
    form = page.locator("#traffic-run-form")
    form.locator("select[name=pattern]").select_option("all-to-all")
    form.locator("input[name=max_flows]").fill("5000")
    form.locator("input[name=seed]").fill("3")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"\?traffic=\d+#panel-traffic$"))
    charts_drawn(page, ("traffic-hist-all-to-all", "traffic-effective", "traffic-worst-mean"))
    expect(page.locator("#traffic-meta")).to_contain_text("Seed 3,")
    expect(page.locator("#traffic-hist-all-reduce")).to_have_count(0)

    # The ring again with the vendor's switch and NIC latencies: a bad one is refused in place, then the
    # scheduler-placed headline and the latency term computed from the paths are shown.
    form = page.locator("#traffic-run-form")
    form.locator("select[name=pattern]").select_option("all-reduce")
    form.locator("input[name=switch_latency_ns]").fill("600")
    form.locator("input[name=nic_latency_ns]").fill("fast")
    form.locator("button[type=submit]").click()
    expect(page.locator("#traffic-run-status")).to_have_text("Enter a whole number.")
    form.locator("input[name=nic_latency_ns]").fill("1000")
    form.locator("button[type=submit]").click()
    expect(page.locator("#traffic-latency-meta")).to_contain_text(
        "switch port-to-port latency 600 ns, NIC latency 1000 ns")
    headline = page.locator('#traffic-summary tr.headline[data-pattern="all-reduce"][data-strategy="ecmp"]')
    expect(headline).to_contain_text("scheduler order (random)")
    expect(headline.locator(".steps")).to_have_text("126")
    expect(page.locator('#traffic-summary tr[data-placement="plan"][data-strategy="ecmp"]')).to_have_count(1)
    charts_drawn(page, ("traffic-hist-all-reduce", "traffic-effective", "traffic-worst-mean"))


def test_settings_form_shows_errors_in_place_then_creates_a_new_version(page, login, engineer, generate_design):
    version = generate_design(gpus=64)
    login(engineer)
    page.goto(f"/designs/projects/{version.design.project_id}/versions/{version.pk}/")
    page.locator("#roce-change > summary").click()
    page.fill("#id_roce-ecn-400-kmin", "lots")
    page.fill("#id_roce-overrides-nic-pfc_priorities", "4")
    page.click("#roce-settings-submit")

    field = page.locator('[data-field="roce.ecn.400.kmin"]')
    expect(field.locator(".field-error")).to_have_text("Enter a whole number.")
    expect(page.locator("#id_roce-overrides-nic-pfc_priorities")).to_have_value("4")
    assert DesignVersion.objects.filter(design=version.design).count() == 1

    page.fill("#id_roce-ecn-400-kmin", "300")
    page.click("#roce-settings-submit")
    page.wait_for_url(re.compile(r"/jobs/\d+/|/versions/\d+/"))
    new = DesignVersion.objects.get(design=version.design, number=2)
    assert new.roce == {"ecn": {"400": {"kmin": 300}}, "overrides": {"nic": {"pfc_priorities": [4]}}}
