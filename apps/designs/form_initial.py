"""Values other apps put into the new-design form, without designs knowing them.

A provider looks at the request of the form page (GET /designs/projects/<id>/new/?...) and returns
a FormInitial when the request is for it (say ?template=<slug> for the templates app), else None.
Its values are form initial values (field names of apps.designs.forms.DesignCreateForm, catalog
items by id); its notes are shown above the form (where the values come from, what they leave
out, or why some could not be filled in). Register once, from your AppConfig.ready():

    from apps.designs.form_initial import form_initial_provider_register
    form_initial_provider_register(key="templates", provider=template_form_initial_provider)

The design create view calls design_form_initial(request=..., project=...) on GET only: a posted
form carries its own values.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest

from apps.projects.models import Project


@dataclass(frozen=True)
class FormInitial:
    values: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


Provider = Callable[[HttpRequest, Project], FormInitial | None]

_PROVIDERS: dict[str, tuple[int, Provider]] = {}


def form_initial_provider_register(*, key: str, provider: Provider, order: int = 100) -> None:
    """Add or replace (same key) a provider; registering twice is harmless."""
    _PROVIDERS[key] = (order, provider)


def form_initial_provider_unregister(*, key: str) -> None:
    _PROVIDERS.pop(key, None)


def design_form_initial(*, request: HttpRequest, project: Project) -> FormInitial:
    """Every provider's values (later providers win on the same field) and notes, in order."""
    values: dict[str, Any] = {}
    notes: list[str] = []
    for _order, provider in sorted(_PROVIDERS.values(), key=lambda item: item[0]):
        provided = provider(request, project)
        if provided is None:
            continue
        values.update(provided.values)
        notes.extend(provided.notes)
    return FormInitial(values=values, notes=tuple(notes))
