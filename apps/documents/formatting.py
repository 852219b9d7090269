"""Numbers and dates as the design document writes them (the same in both languages: the design page's)."""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format


def money(value: Any, currency: str = "") -> str:
    """Two decimals grouped by thousands ("1,805,615.80 USD"): the API's figure to the cent."""
    if value is None:
        return "–"
    amount = f"{Decimal(str(value)):,.2f}"
    return f"{amount} {currency}".strip()


def count(value: Any) -> str:
    if value is None or value == "":
        return "–"
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return str(value)


def decimal(value: Any, places: int = 1) -> str:
    if value is None or value == "":
        return "–"
    return f"{float(value):,.{places}f}"


def when(value: datetime | None) -> str:
    if value is None:
        return "–"
    return date_format(timezone.localtime(value), "DATETIME_FORMAT")


def day(value: datetime | None) -> str:
    if value is None:
        return "–"
    return date_format(timezone.localtime(value), "DATE_FORMAT")


def text(value: Any) -> str:
    return "–" if value is None or value == "" else str(value)
