"""Design pages in a customer meeting: "use this alternative" makes the new version and lands on it, the design
form with its live check fits a 1,280 px window, the language menu names each language in itself.
Every test fails on any JavaScript console error (see conftest.page)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.designs.models import DesignVersion

pytestmark = pytest.mark.django_db(transaction=True)


def test_use_this_alternative_creates_a_version_with_those_inputs(page, login, engineer, engineer_project,
                                                                   generate_design):
    version = generate_design("Hall B", gpus=1024)
    alt = next(a for a in version.summary["alternatives"]
               if a["feasible"] and not a["current"] and not a["blocking"] and a["planes"] == 2)
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/")
    row = page.locator(f'#alternatives-table tr[data-label="{alt["label"]}"]')
    row.get_by_role("button", name="Use this alternative").click()
    new = DesignVersion.objects.get(design=version.design, number=2)
    # The job ran at once: its page hands over to the new version's page.
    expect(page).to_have_url(f"/designs/projects/{engineer_project.pk}/versions/{new.pk}/")
    assert (new.planes, new.tiers, new.gpus, new.leaf_switch_id) == (2, str(alt["tiers"]), 1024,
                                                                       version.leaf_switch_id)
    expect(page.locator('[data-kpi="links"] .value')).to_have_text(f'{new.summary["total_links"]:,}')


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_design_form_with_its_live_check_fits_1280_px(browser, live_server, engineer, engineer_project, seed_catalog,
                                                      console_errors, language):
    from apps.accounts.services import profile_set_language
    from tests.factories import PASSWORD

    profile_set_language(user=engineer, language=language)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.on("console", lambda msg: msg.type == "error" and console_errors.append(f"console: {msg.text}"))
    page.on("pageerror", lambda exc: console_errors.append(f"pageerror: {exc}"))
    page.goto("/accounts/login/")
    page.fill("input[name=username]", engineer.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")
    page.goto(f"/designs/projects/{engineer_project.pk}/new/")
    page.fill("input[name=gpus]", "4096")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)
    widths = page.evaluate("() => ({doc: document.documentElement.scrollWidth, view: window.innerWidth})")
    context.close()
    console_errors.assert_none()
    assert widths["doc"] <= widths["view"], widths
