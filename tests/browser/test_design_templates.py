"""Starting a design from a reference template in headless Chromium: the form opens filled in, the live
check agrees with the reference, and generating gives its counts. Fails on any JavaScript console error."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from apps.designs.models import Design

pytestmark = pytest.mark.django_db(transaction=True)


def test_engineer_starts_from_the_superpod_template_and_the_live_check_matches_it(
    page, login, engineer, engineer_project, seed_catalog, live_server, background_worker
):
    call_command("load_design_templates", stdout=io.StringIO())
    login(engineer)
    page.goto(live_server.url + "/templates/")
    page.click("text=NVIDIA DGX SuperPOD, DGX H100, 4 scalable units (127 nodes)")
    expect(page.locator("#template-leaves-out")).to_contain_text("UFM")
    expect(page.locator('#template-counts [data-count="leaf"]')).to_contain_text("32")
    page.select_option("#start-project", str(engineer_project.pk))
    page.click("#template-start button[type=submit]")
    page.wait_for_url("**/new/?template=dgx-superpod-h100-4su")
    expect(page.locator("[data-form-note]").first).to_contain_text("Started from the template")
    expect(page.locator("#id_gpus")).to_have_value("1016")
    expect(page.locator("#estimate-verdict")).to_have_text("Feasible")
    expect(page.locator('#estimate [data-kpi="leaf"]')).to_have_text("32")
    page.click("#generate")
    page.wait_for_url("**/jobs/**")
    assert Design.objects.get(project=engineer_project).versions.get().gpus == 1016
