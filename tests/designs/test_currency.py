"""Designs quoted in another currency than the catalog's list prices: converted with the catalog's rates."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.urls import reverse

from apps.catalog.models import ExchangeRate, Transceiver
from apps.designs.models import BomLineRecord, DesignVersion
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db
CENT = Decimal("0.01")


def create(client, project, data, capture, name="Quote"):
    with capture(execute=True):
        return client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}), {"name": name, **data},
                           format="json")


def bom(client, version_id):
    response = client.get(reverse("api-version-bom", kwargs={"pk": version_id}))
    assert response.status_code == 200, response.content
    return response.json()


def test_a_cny_design_prices_every_line_at_the_catalog_rate_and_says_which_rate(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    ExchangeRate.objects.filter(from_currency="USD", to_currency="CNY").update(rate=Decimal("7.1234"))
    usd = create(member_client, project, inputs(seed, gpus=64), django_capture_on_commit_callbacks, name="USD")
    cny = create(member_client, project, inputs(seed, gpus=64, currency="CNY"), django_capture_on_commit_callbacks,
                 name="CNY")
    assert usd.status_code == cny.status_code == 202, cny.content

    usd_bom, cny_bom = bom(member_client, usd.json()["version"]["id"]), bom(member_client, cny.json()["version"]["id"])
    by_sku = {(line["sku"], line["spare"]): line for line in usd_bom["lines"]}
    assert [(line["sku"], line["spare"]) for line in cny_bom["lines"]] == list(by_sku)
    for line in cny_bom["lines"]:
        usd_price = Decimal(by_sku[line["sku"], line["spare"]]["unit_price"])
        assert Decimal(line["unit_price"]) == (usd_price * Decimal("7.1234")).quantize(CENT, ROUND_HALF_UP), line
    totals = cny_bom["totals"]
    assert totals["currency"] == "CNY"
    assert totals["exchange_rates"] == [{"from": "USD", "to": "CNY", "rate": "7.12340000", "example": True}]
    assert usd_bom["totals"]["exchange_rates"] == []
    assert Decimal(totals["subtotal"]) == sum(Decimal(line["total"]) for line in cny_bom["lines"])


def test_a_rate_changed_later_does_not_change_a_generated_quote(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    response = create(member_client, project, inputs(seed, gpus=64, currency="EUR"), django_capture_on_commit_callbacks)
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    before = list(BomLineRecord.objects.filter(version=version).values_list("unit_price", flat=True))

    ExchangeRate.objects.filter(from_currency="USD", to_currency="EUR").update(rate=Decimal("2"))

    after = list(BomLineRecord.objects.filter(version=version).values_list("unit_price", flat=True))
    assert after == before
    assert bom(member_client, version.pk)["totals"]["exchange_rates"][0]["rate"] == "0.86000000"


def test_an_inverse_rate_converts_the_other_way(member_client, project, seed, django_capture_on_commit_callbacks):
    ExchangeRate.objects.filter(from_currency="USD", to_currency="GBP").delete()
    ExchangeRate.objects.create(from_currency="GBP", to_currency="USD", rate=Decimal("1.25"))
    response = create(member_client, project, inputs(seed, gpus=64, currency="GBP"), django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    lines = bom(member_client, response.json()["version"]["id"])["lines"]
    switch = next(line for line in lines if line["sku"] == seed["sn5600"].sku)
    assert Decimal(switch["unit_price"]) == (seed["sn5600"].list_price / Decimal("1.25")).quantize(CENT)


def test_a_currency_without_a_rate_is_a_field_error_and_creates_nothing(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    ExchangeRate.objects.filter(to_currency="JPY").delete()
    response = create(member_client, project, inputs(seed, gpus=64, currency="JPY"), django_capture_on_commit_callbacks)

    assert response.status_code == 400
    message = " ".join(response.json()["currency"])
    assert "USD" in message and "JPY" in message
    assert not DesignVersion.objects.exists()


def test_a_part_priced_in_another_currency_needs_its_own_rate(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    Transceiver.objects.filter(pk=Transceiver.objects.filter(active=True).order_by("pk").first().pk).update(
        currency="CHF")
    response = create(member_client, project, inputs(seed, gpus=64), django_capture_on_commit_callbacks)

    assert response.status_code == 400
    assert "CHF" in " ".join(response.json()["currency"])
    ExchangeRate.objects.create(from_currency="CHF", to_currency="USD", rate=Decimal("1.1"))
    response = create(member_client, project, inputs(seed, gpus=64), django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content


def test_the_design_page_and_the_estimate_show_converted_figures(
    member_client, project, seed, django_capture_on_commit_callbacks, member, client
):
    response = create(member_client, project, inputs(seed, gpus=64, currency="CNY"), django_capture_on_commit_callbacks)
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    client.force_login(member)
    page = client.get(reverse("designs:version-detail", kwargs={"project_pk": project.pk, "version_pk": version.pk}))
    assert page.status_code == 200
    html = page.content.decode()
    assert "1 USD = 7.1 CNY" in html
    assert "set the day" in html  # the seed rate is an example

    estimate = member_client.post(reverse("api-design-estimate", kwargs={"project_pk": project.pk}),
                                  inputs(seed, gpus=64, currency="CNY"), format="json").json()
    usd = member_client.post(reverse("api-design-estimate", kwargs={"project_pk": project.pk}),
                             inputs(seed, gpus=64), format="json").json()
    assert estimate["size"]["estimated_cost"] == pytest.approx(usd["size"]["estimated_cost"] * 7.1, rel=1e-4)
