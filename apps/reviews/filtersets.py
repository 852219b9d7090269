"""Filters of a project's audit trail (API query parameters and the audit page's form)."""
from __future__ import annotations

import django_filters
from django.utils.translation import gettext_lazy as _

from .models import AuditAction, AuditEvent


class AuditEventFilterSet(django_filters.FilterSet):
    action = django_filters.MultipleChoiceFilter(
        choices=AuditAction.choices, label=_("Action"), help_text=_("one or more of the actions")
    )
    actor = django_filters.CharFilter(
        field_name="actor_name", lookup_expr="iexact", label=_("Who"), help_text=_("username")
    )
    since = django_filters.IsoDateTimeFilter(
        field_name="at", lookup_expr="gte", label=_("Since"),
        help_text=_("ISO 8601 date and time, e.g. 2025-06-01T00:00Z"),
    )
    until = django_filters.IsoDateTimeFilter(
        field_name="at", lookup_expr="lte", label=_("Until"), help_text=_("ISO 8601 date and time")
    )
    version = django_filters.NumberFilter(field_name="version_id", label=_("Version id"))

    class Meta:
        model = AuditEvent
        fields = ["action", "actor", "since", "until", "version"]
