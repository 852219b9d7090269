"""Project and customer pages: what a signed-in user sees, and that bad forms save nothing."""
import pytest
from django import forms
from django.test import Client
from django.urls import reverse

from apps.projects.models import Customer, Project, ProjectMembership
from apps.projects.panels import ProjectPanel, project_panel_register, project_panel_unregister
from tests.factories import UserFactory
from tests.projects.factories import CustomerFactory, ProjectFactory

pytestmark = pytest.mark.django_db


def _client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _detail(project) -> str:
    return reverse("projects:project-detail", kwargs={"project_pk": project.pk})


def _field_errors(response, form_name="form") -> dict:
    return response.context[form_name].errors


# Project list and create ---------------------------------------------------------------------


def test_create_project_for_existing_customer_from_the_list_page():
    user = UserFactory()
    customer = CustomerFactory(created_by=user)
    client = _client_for(user)
    response = client.post(
        reverse("projects:project-list"),
        {"customer": customer.pk, "name": "Pilot", "description": "", "discount_pct": "5", "currency": "GBP"},
    )
    project = Project.objects.get(name="Pilot")
    assert response.status_code == 302
    assert response["Location"] == _detail(project)
    assert (project.owner, project.currency, str(project.discount_pct)) == (user, "GBP", "5.00")
    page = client.get(_detail(project))
    assert "Pilot" in page.content.decode()
    assert user.username in page.content.decode()


def test_create_project_with_a_new_customer_name():
    user = UserFactory()
    response = _client_for(user).post(
        reverse("projects:project-list"),
        {"new_customer_name": "Frontier Lab", "name": "Pilot", "discount_pct": "0", "currency": "USD"},
    )
    assert response.status_code == 302
    assert Project.objects.get(name="Pilot").customer == Customer.objects.get(name="Frontier Lab", created_by=user)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "Pilot", "discount_pct": "0", "currency": "USD"}, "customer"),
        ({"new_customer_name": "Lab", "name": "", "discount_pct": "0", "currency": "USD"}, "name"),
        ({"new_customer_name": "Lab", "name": "Pilot", "discount_pct": "150", "currency": "USD"}, "discount_pct"),
        ({"new_customer_name": "Lab", "name": "Pilot", "discount_pct": "abc", "currency": "USD"}, "discount_pct"),
        ({"new_customer_name": "Lab", "name": "Pilot", "discount_pct": "0", "currency": "XYZ"}, "currency"),
    ],
)
def test_bad_project_form_is_shown_again_with_the_error_in_place_and_saves_nothing(data, field):
    response = _client_for(UserFactory()).post(reverse("projects:project-list"), data)
    assert response.status_code == 200
    assert field in _field_errors(response)
    assert f'data-error-for="{field}">' in response.content.decode()
    assert "has-error" in response.content.decode()
    assert not Project.objects.exists()
    assert not Customer.objects.exists()


def test_duplicate_project_name_is_shown_on_the_name_field():
    user = UserFactory()
    existing = ProjectFactory(owner=user, name="Pilot")
    response = _client_for(user).post(
        reverse("projects:project-list"),
        {"customer": existing.customer_id, "name": "pilot", "discount_pct": "0", "currency": "USD"},
    )
    assert response.status_code == 200
    assert "already has a project" in " ".join(_field_errors(response)["name"])
    assert Project.objects.count() == 1


def test_customer_of_someone_elses_project_cannot_be_chosen():
    hidden = ProjectFactory().customer
    response = _client_for(UserFactory()).post(
        reverse("projects:project-list"),
        {"customer": hidden.pk, "name": "Pilot", "discount_pct": "0", "currency": "USD"},
    )
    assert response.status_code == 200
    assert "customer" in _field_errors(response)
    assert Project.objects.count() == 1


def test_bad_project_with_new_customer_name_leaves_no_customer_behind():
    response = _client_for(UserFactory()).post(
        reverse("projects:project-list"),
        {"new_customer_name": "Brand new lab", "name": "Pilot", "discount_pct": "100.01", "currency": "USD"},
    )
    assert response.status_code == 200
    assert "discount_pct" in _field_errors(response)
    assert not Customer.objects.exists()


# Project detail, edit, delete ----------------------------------------------------------------


def test_owner_sees_member_controls_and_plain_member_does_not():
    owner, member = UserFactory(), UserFactory()
    project = ProjectFactory(owner=owner, members=[member])
    owner_page = _client_for(owner).get(_detail(project)).content.decode()
    member_page = _client_for(member).get(_detail(project)).content.decode()
    assert 'id="member-add-form"' in owner_page
    assert reverse("projects:project-edit", kwargs={"project_pk": project.pk}) in owner_page
    assert 'id="member-add-form"' not in member_page
    assert reverse("projects:project-edit", kwargs={"project_pk": project.pk}) not in member_page
    assert member.username in member_page


def test_owner_adds_and_removes_a_member_in_the_ui():
    owner = UserFactory()
    colleague = UserFactory(username="colleague")
    project = ProjectFactory(owner=owner)
    client = _client_for(owner)
    add_url = reverse("projects:project-member-add", kwargs={"project_pk": project.pk})
    added = client.post(add_url, {"username": "colleague"})
    assert added.status_code == 302
    assert ProjectMembership.objects.filter(project=project, user=colleague, added_by=owner).exists()
    assert _client_for(colleague).get(_detail(project)).status_code == 200

    removed = client.post(
        reverse("projects:project-member-remove", kwargs={"project_pk": project.pk, "user_id": colleague.pk})
    )
    assert removed.status_code == 302
    assert not ProjectMembership.objects.filter(project=project, user=colleague).exists()
    assert _client_for(colleague).get(_detail(project)).status_code == 404


def test_unknown_username_is_shown_on_the_member_form_and_adds_nobody():
    owner = UserFactory()
    project = ProjectFactory(owner=owner)
    response = _client_for(owner).post(
        reverse("projects:project-member-add", kwargs={"project_pk": project.pk}), {"username": "ghost"}
    )
    assert response.status_code == 200
    assert "No active user" in " ".join(_field_errors(response, "member_form")["username"])
    assert 'data-error-for="username">' in response.content.decode()
    assert project.members.count() == 1


def test_owner_cannot_remove_themselves_in_the_ui():
    owner = UserFactory()
    project = ProjectFactory(owner=owner)
    response = _client_for(owner).post(
        reverse("projects:project-member-remove", kwargs={"project_pk": project.pk, "user_id": owner.pk}),
        follow=True,
    )
    assert "owner cannot be removed" in response.content.decode()
    assert project.members.filter(pk=owner.pk).exists()


def test_plain_member_cannot_add_members_or_edit_in_the_ui():
    member = UserFactory()
    project = ProjectFactory(members=[member], name="Pilot")
    client = _client_for(member)
    newcomer = UserFactory()
    add_url = reverse("projects:project-member-add", kwargs={"project_pk": project.pk})
    add = client.post(add_url, {"username": newcomer.username})
    assert add.status_code == 403
    edit_url = reverse("projects:project-edit", kwargs={"project_pk": project.pk})
    assert client.get(edit_url).status_code == 403
    assert client.post(edit_url, {"name": "Hijacked"}).status_code == 403
    assert client.post(reverse("projects:project-delete", kwargs={"project_pk": project.pk})).status_code == 403
    project.refresh_from_db()
    assert project.name == "Pilot"
    assert not project.members.filter(pk=newcomer.pk).exists()


def _edit_data(project, **overrides):
    data = {
        "customer": project.customer_id,
        "name": project.name,
        "description": project.description,
        "owner": project.owner_id,
        "discount_pct": str(project.discount_pct),
        "currency": project.currency,
    }
    data.update(overrides)
    return data


def test_owner_edits_the_project():
    owner = UserFactory()
    project = ProjectFactory(owner=owner)
    response = _client_for(owner).post(
        reverse("projects:project-edit", kwargs={"project_pk": project.pk}),
        _edit_data(project, name="Renamed", discount_pct="33.3", currency="CNY"),
    )
    assert response.status_code == 302
    project.refresh_from_db()
    assert (project.name, str(project.discount_pct), project.currency) == ("Renamed", "33.30", "CNY")


@pytest.mark.parametrize(("field", "value"), [("discount_pct", "150"), ("name", ""), ("currency", "ABC")])
def test_bad_edit_is_shown_in_place_and_saves_nothing(field, value):
    owner = UserFactory()
    project = ProjectFactory(owner=owner, name="Pilot", discount_pct="10.00")
    response = _client_for(owner).post(
        reverse("projects:project-edit", kwargs={"project_pk": project.pk}),
        _edit_data(project, **{field: value, "description": "changed" if field != "description" else value}),
    )
    assert response.status_code == 200
    assert field in _field_errors(response)
    assert f'data-error-for="{field}">' in response.content.decode()
    project.refresh_from_db()
    assert (project.name, str(project.discount_pct), project.description) == ("Pilot", "10.00", "Backend fabric")


def test_edit_rename_to_a_sibling_project_name_is_refused_on_name():
    owner = UserFactory()
    sibling = ProjectFactory(owner=owner, name="Pilot")
    project = ProjectFactory(owner=owner, customer=sibling.customer, name="Second")
    response = _client_for(owner).post(
        reverse("projects:project-edit", kwargs={"project_pk": project.pk}), _edit_data(project, name="PILOT")
    )
    assert response.status_code == 200
    assert "name" in _field_errors(response)
    project.refresh_from_db()
    assert project.name == "Second"


def test_owner_deletes_the_project_after_confirming():
    owner = UserFactory()
    project = ProjectFactory(owner=owner, name="Short-lived")
    client = _client_for(owner)
    url = reverse("projects:project-delete", kwargs={"project_pk": project.pk})
    assert "Short-lived" in client.get(url).content.decode()
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("projects:project-list")
    assert not Project.objects.filter(pk=project.pk).exists()


# Panels from other apps ----------------------------------------------------------------------


class _MarkerForm(forms.Form):
    design_versions_marker = forms.CharField(label="Design versions go here")


def test_registered_panel_appears_on_the_project_page_with_the_project():
    seen = []

    def panel_context(request, project):
        seen.append(project.pk)
        return {"form": _MarkerForm()}

    project_panel_register(
        ProjectPanel(key="test-panel", template_name="projects/_form_fields.html", get_context=panel_context)
    )
    try:
        project = ProjectFactory()
        page = _client_for(project.owner).get(_detail(project))
        assert page.status_code == 200
        assert 'data-field="design_versions_marker"' in page.content.decode()
        assert seen == [project.pk]
    finally:
        project_panel_unregister(key="test-panel")
    assert "design_versions_marker" not in _client_for(project.owner).get(_detail(project)).content.decode()


# Customers -----------------------------------------------------------------------------------


def test_create_customer_from_the_customer_list():
    user = UserFactory()
    client = _client_for(user)
    response = client.post(
        reverse("projects:customer-list"), {"name": "Example AI Lab", "country": "Japan", "description": ""}
    )
    customer = Customer.objects.get(name="Example AI Lab")
    assert response.status_code == 302
    assert response["Location"] == reverse("projects:customer-detail", kwargs={"customer_pk": customer.pk})
    assert customer.created_by == user
    assert "Example AI Lab" in client.get(reverse("projects:customer-list")).content.decode()


@pytest.mark.parametrize("name", ["", "example ai lab", "x" * 201])
def test_bad_customer_form_is_shown_again_with_the_error_on_name(name):
    CustomerFactory(name="Example AI Lab")
    response = _client_for(UserFactory()).post(reverse("projects:customer-list"), {"name": name, "country": ""})
    assert response.status_code == 200
    assert "name" in _field_errors(response)
    assert 'data-error-for="name">' in response.content.decode()
    assert Customer.objects.count() == 1


def test_customer_creator_edits_and_others_who_see_it_cannot():
    creator, member = UserFactory(), UserFactory()
    customer = CustomerFactory(created_by=creator, name="Lab")
    ProjectFactory(customer=customer, members=[member])
    url = reverse("projects:customer-edit", kwargs={"customer_pk": customer.pk})
    assert _client_for(member).get(url).status_code == 403
    assert _client_for(member).post(url, {"name": "Taken over"}).status_code == 403
    response = _client_for(creator).post(url, {"name": "Lab Two", "country": "Korea", "description": "Big"})
    assert response.status_code == 302
    customer.refresh_from_db()
    assert (customer.name, customer.country) == ("Lab Two", "Korea")


def test_bad_customer_edit_saves_nothing():
    creator = UserFactory()
    CustomerFactory(name="Taken")
    customer = CustomerFactory(created_by=creator, name="Lab", country="Japan")
    response = _client_for(creator).post(
        reverse("projects:customer-edit", kwargs={"customer_pk": customer.pk}),
        {"name": "TAKEN", "country": "Korea", "description": ""},
    )
    assert response.status_code == 200
    assert "name" in _field_errors(response)
    customer.refresh_from_db()
    assert (customer.name, customer.country) == ("Lab", "Japan")
    assert "Lab" in response.content.decode()


def test_customer_page_offers_a_new_project_with_the_customer_preselected():
    user = UserFactory()
    customer = CustomerFactory(created_by=user)
    client = _client_for(user)
    response = client.get(reverse("projects:project-list"), {"customer": customer.pk})
    assert response.context["form"]["customer"].value() == str(customer.pk)


# Admin ---------------------------------------------------------------------------------------


def test_project_created_in_the_admin_keeps_its_owner_as_member():
    admin_user = UserFactory(is_staff=True, is_superuser=True)
    owner = UserFactory()
    customer = CustomerFactory()
    response = _client_for(admin_user).post(
        reverse("admin:projects_project_add"),
        {
            "customer": customer.pk,
            "name": "Admin-made",
            "description": "",
            "owner": owner.pk,
            "discount_pct": "0",
            "currency": "USD",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0",
            "memberships-MAX_NUM_FORMS": "1000",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    project = Project.objects.get(name="Admin-made")
    assert list(project.members.all()) == [owner]
