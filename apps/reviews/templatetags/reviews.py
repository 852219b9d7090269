"""Template filters of the review pages: a comment's body with its mentions marked, signed numbers."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import template
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ..models import AnchorType, ReviewState
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


def _state(value: Any) -> str:
    return str(ReviewState(value).label) if value in ReviewState.values else str(value)


def _export_kind(value: Any) -> str:
    """An export's kind as the exports list names it ("Excel workbook"), not its code ("xlsx")."""
    from apps.exports.kinds import export_kind_label

    return export_kind_label(str(value))


@register.filter
def audit_details(event) -> list[tuple[str, str]]:
    """An audit event's details as (label, text) pairs in the reader's language."""
    data = dict(event.data or {})
    out: list[tuple[str, str]] = []
    if "from" in data or "to" in data:
        out.append((_("state"), f"{_state(data.pop('from', ''))} → {_state(data.pop('to', ''))}"))
    anchor_type, anchor_ref = data.pop("anchor_type", None), data.pop("anchor_ref", "")
    if anchor_type and anchor_type != AnchorType.NONE and anchor_type in AnchorType.values:
        out.append((_("about"), f"{AnchorType(anchor_type).label} {anchor_ref}"))
    if data.get("total_cost") not in (None, ""):
        out.append((_("total cost"), f"{Decimal(data.pop('total_cost')):,.2f} {data.pop('currency', '')}".strip()))
    data.pop("currency", None)
    if data.get("size") not in (None, ""):
        out.append((_("size"), filesizeformat(data.pop("size"))))
    labels = {
        "job": _("job"), "gpus": _("GPUs"), "kind": _("kind"), "comment": _("comment"), "mentions": _("mentions"),
        "note": _("note"), "by": _("superseded by"), "author": _("author"), "excerpt": _("text"),
        "language": _("language"),
    }
    for key, label in labels.items():
        value = data.pop(key, None)
        if value in (None, "", []):
            continue
        if isinstance(value, (list, tuple)):
            value = ", ".join("@" + str(item) if key == "mentions" else str(item) for item in value)
        if key == "gpus":
            value = f"{int(value):,}"
        if key == "kind":
            value = _export_kind(value)
        if key == "language":
            value = dict(settings.LANGUAGES).get(value, value)
        out.append((label, str(value)))
    return out
