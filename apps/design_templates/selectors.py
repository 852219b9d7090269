"""Reading templates: every signed-in user sees every template (they hold no project's data)."""
from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from .models import DesignTemplate


def design_template_list() -> QuerySet[DesignTemplate]:
    return DesignTemplate.objects.select_related("created_by").order_by("origin", "name")


def design_template_get(*, slug: Any) -> DesignTemplate:
    template = design_template_list().filter(slug=str(slug or "")).first()
    if template is None:
        raise Http404(_("No such design template."))
    return template


def design_template_find(*, slug: Any) -> DesignTemplate | None:
    return design_template_list().filter(slug=str(slug or "")).first()
