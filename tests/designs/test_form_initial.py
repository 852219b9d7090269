"""designs' form-initial hook: another app fills the new-design form in without designs importing it."""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.designs.form_initial import (FormInitial, design_form_initial, form_initial_provider_register,
                                       form_initial_provider_unregister)

pytestmark = pytest.mark.django_db


@pytest.fixture
def provider():
    def fill(request, project):
        if request.GET.get("hall") != "b":
            return None
        return FormInitial(values={"gpus": 512, "name": "Hall B"}, notes=("Filled in for hall B.",))

    form_initial_provider_register(key="test-hall", provider=fill)
    yield fill
    form_initial_provider_unregister(key="test-hall")


def test_a_registered_provider_fills_the_form_and_its_note_is_shown(provider, client_for_member, project, seed):
    response = client_for_member.get(reverse("designs:design-create", kwargs={"project_pk": project.pk}),
                                     {"hall": "b"})
    form = response.context["form"]
    assert form["gpus"].value() == 512 and form["name"].value() == "Hall B"
    assert "Filled in for hall B." in response.content.decode()


def test_a_provider_that_declines_leaves_the_form_as_it_was(provider, client_for_member, project, seed):
    response = client_for_member.get(reverse("designs:design-create", kwargs={"project_pk": project.pk}))
    assert response.context["form"]["gpus"].value() is None
    assert "Filled in for hall B." not in response.content.decode()


def test_later_providers_win_on_the_same_field(provider, rf, project):
    form_initial_provider_register(key="test-late", provider=lambda r, p: FormInitial(values={"gpus": 64}), order=200)
    try:
        request = rf.get("/", {"hall": "b"})
        provided = design_form_initial(request=request, project=project)
        assert provided.values["gpus"] == 64 and provided.notes == ("Filled in for hall B.",)
    finally:
        form_initial_provider_unregister(key="test-late")
