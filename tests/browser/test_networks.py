"""The network switcher on the topology page: each of the cluster's networks draws, and the cabling table follows."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_switching_networks_draws_each_network_and_lists_its_cables(page, login, engineer, engineer_project,
                                                                    generate_design):
    from apps.catalog.models import SwitchModel

    sn5600 = SwitchModel.objects.get(sku="920-9N42F-00RI-7C0").pk
    version = generate_design("Cluster", networks={
        "frontend": {"switch": sn5600, "breakout": "2x400G", "ports_per_server": 2},
        "oob": {"ports": 48, "gbps": 1},
    })
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/topology/")
    page.wait_for_function("() => window.fabricwebTopology && window.fabricwebTopology.ready === true")
    options = page.locator("#topology-network option")
    assert options.evaluate_all("(els) => els.map((e) => e.value)") == ["backend", "frontend", "oob"]

    page.select_option("#topology-network", "oob")
    page.wait_for_function(
        "() => window.fabricwebTopology.cy.getElementById('net:oob:leaf').length === 1")
    count = page.evaluate("() => window.fabricwebTopology.cy.getElementById('net:oob:server').data('count')")
    assert count == 32
    expect(page.locator("#cabling-table tbody tr").first).to_contain_text("bmc")
    assert page.locator("#topology-level").is_disabled()

    page.select_option("#topology-network", "backend")
    page.wait_for_function("() => window.fabricwebTopology.cy.getElementById('srv:su0').length === 1")
