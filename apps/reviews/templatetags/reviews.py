"""Template filters of the review pages: a comment's body with its mentions marked, signed numbers."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from ..services.comments import MENTION_RE

register = template.Library()


@register.filter
def comment_html(comment) -> SafeString:
    """The body, escaped, line breaks kept, with each valid @mention marked up."""
    mentioned = {user.get_username().lower() for user in comment.mentions.all()}
    text = escape(comment.body)

    def mark(match: re.Match) -> str:
        name = match.group(1)
        if name.lower() not in mentioned:
            return match.group(0)
        return f'<span class="mention" data-user="{name}">@{name}</span>'

    text = MENTION_RE.sub(mark, text)
    return mark_safe(text.replace("\n", "<br>"))


@register.filter
def signed(value: Any, places: int | str = 0) -> str:
    """+1,234 / −56.78 / 0 (with thousands separators; '' for None)."""
    if value is None or value == "":
        return ""
    places = int(places)
    number = Decimal(str(value))
    text = f"{abs(number):,.{places}f}"
    if number > 0:
        return f"+{text}"
    if number < 0:
        return f"−{text}"
    return text


@register.filter
def grouped(value: Any, places: int | str = 0) -> str:
    """1,234.50 with a fixed number of places ('–' for None)."""
    if value is None or value == "":
        return "–"
    return f"{Decimal(str(value)):,.{int(places)}f}"


@register.filter
def audit_value(value: Any) -> str:
    """A value of an audit event's details as text (lists joined)."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    return str(value)
