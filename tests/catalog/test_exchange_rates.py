"""Exchange rates: staff keep one rate per currency pair; the seed adds example rates without overwriting."""
from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from apps.catalog.models import ExchangeRate
from apps.catalog.selectors import MissingExchangeRate, price_converter
from apps.catalog.services import CatalogImportError, exchange_rates_seed_load

pytestmark = pytest.mark.django_db


def test_staff_create_a_rate_and_every_user_reads_it(staff_client, user_client):
    response = staff_client.post(reverse("catalog-exchange-rate-list"),
                                 {"from_currency": "USD", "to_currency": "CNY", "rate": "7.2"}, format="json")
    assert response.status_code == 201, response.content
    listing = user_client.get(reverse("catalog-exchange-rate-list")).json()
    assert [(r["from_currency"], r["to_currency"], r["rate"]) for r in listing["results"]] == [
        ("USD", "CNY", "7.20000000")]
    refused = user_client.post(reverse("catalog-exchange-rate-list"),
                               {"from_currency": "USD", "to_currency": "EUR", "rate": "0.9"}, format="json")
    assert refused.status_code == 403


@pytest.mark.parametrize("payload, field", [
    ({"from_currency": "usd", "to_currency": "CNY", "rate": "7"}, "from_currency"),
    ({"from_currency": "USD", "to_currency": "USD", "rate": "1"}, "to_currency"),
    ({"from_currency": "USD", "to_currency": "EUR", "rate": "0"}, "rate"),
    ({"from_currency": "USD", "to_currency": "EUR", "rate": "-7"}, "rate"),
    ({"from_currency": "USD", "to_currency": "EUR", "rate": "NaN"}, "rate"),
    ({"from_currency": "USD", "to_currency": "EUR", "rate": "seven"}, "rate"),
    ({"from_currency": "CNY", "to_currency": "USD", "rate": "0.14"}, "to_currency"),  # the inverse pair exists
    ({"from_currency": "USD", "to_currency": "CNY", "rate": "7.3"}, "to_currency"),  # the pair exists
])
def test_bad_rates_are_field_errors_and_save_nothing(staff_client, payload, field):
    ExchangeRate.objects.create(from_currency="USD", to_currency="CNY", rate=Decimal("7.1"))
    response = staff_client.post(reverse("catalog-exchange-rate-list"), payload, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert ExchangeRate.objects.count() == 1


def test_a_converter_uses_the_direct_rate_or_the_inverse_and_refuses_an_unknown_pair():
    ExchangeRate.objects.create(from_currency="USD", to_currency="CNY", rate=Decimal("8"))
    assert price_converter(currency="CNY").rate("USD") == Decimal(8)
    assert price_converter(currency="USD").rate("CNY") == Decimal("0.125")
    assert price_converter(currency="USD").rate("USD") == 1
    with pytest.raises(MissingExchangeRate):
        price_converter(currency="EUR").rate("USD")


def test_the_seed_adds_example_rates_and_keeps_rates_staff_set():
    ExchangeRate.objects.create(from_currency="USD", to_currency="CNY", rate=Decimal("7.25"), rate_is_example=False)
    call_command("load_seed_catalog", stdout=io.StringIO())
    rates = {(r.from_currency, r.to_currency): r for r in ExchangeRate.objects.all()}
    assert set(rates) == {("USD", "CNY"), ("USD", "EUR"), ("USD", "JPY"), ("USD", "GBP")}
    assert rates["USD", "CNY"].rate == Decimal("7.25") and not rates["USD", "CNY"].rate_is_example
    assert rates["USD", "EUR"].rate_is_example
    call_command("load_seed_catalog", stdout=io.StringIO())
    assert ExchangeRate.objects.count() == 4


def test_a_bad_seed_rate_file_names_row_and_column_and_adds_nothing(tmp_path):
    path = tmp_path / "exchange_rates.yaml"
    path.write_text("- {from_currency: USD, to_currency: EUR, rate: 0.9}\n"
                    "- {from_currency: USD, to_currency: CNY, rate: -1}\n"
                    "- {from_currency: USD, to_currency: JPY, rate: 150, colour: red}\n")
    with pytest.raises(CatalogImportError) as refused:
        exchange_rates_seed_load(path=path)
    where = {(issue.row, issue.column) for issue in refused.value.issues}
    assert where == {(2, "rate"), (3, "colour")}
    assert not ExchangeRate.objects.exists()
