"""REST API for customers, projects and members: what a client sees and what gets saved."""
import pytest
from django.urls import include, path, reverse
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from apps.projects.models import Customer, Project, ProjectMembership
from tests.factories import StaffFactory, UserFactory
from tests.projects.factories import CustomerFactory, ProjectFactory

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _members_url(project) -> str:
    return reverse("api-project-member-list", kwargs={"project_pk": project.pk})


def _member_url(project, user) -> str:
    return reverse("api-project-member-detail", kwargs={"project_pk": project.pk, "user_id": user.pk})


# Customers -----------------------------------------------------------------------------------


def test_create_customer_makes_the_user_its_creator(user, user_client):
    response = user_client.post(
        reverse("api-customer-list"), {"name": "Example AI Lab", "country": "Japan"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["created_by"]["username"] == user.username
    assert response.json()["can_manage"] is True
    assert Customer.objects.get(name="Example AI Lab").created_by == user


@pytest.mark.parametrize("name", ["Example AI Lab", "example ai lab", "  Example AI Lab "])
def test_duplicate_customer_name_is_400_on_name_and_saves_nothing(user_client, name):
    CustomerFactory(name="Example AI Lab")
    response = user_client.post(reverse("api-customer-list"), {"name": name}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["name"]
    assert Customer.objects.count() == 1


def test_customer_without_name_is_400_on_name(user_client):
    response = user_client.post(reverse("api-customer-list"), {"name": "", "country": "Korea"}, format="json")
    assert response.status_code == 400
    assert "name" in response.json()
    assert not Customer.objects.exists()


def test_customer_list_holds_created_and_project_customers_only(user, user_client):
    own = CustomerFactory(created_by=user)
    via_project = ProjectFactory(members=[user]).customer
    CustomerFactory(name="Not yours")
    names = {c["name"] for c in user_client.get(reverse("api-customer-list")).json()["results"]}
    assert names == {own.name, via_project.name}


def test_customer_creator_updates_it(user, user_client):
    customer = CustomerFactory(created_by=user)
    url = reverse("api-customer-detail", kwargs={"pk": customer.pk})
    response = user_client.patch(url, {"description": "Frontier model lab"}, format="json")
    assert response.status_code == 200
    customer.refresh_from_db()
    assert customer.description == "Frontier model lab"


def test_project_member_who_did_not_create_the_customer_cannot_edit_it(user, user_client):
    customer = ProjectFactory(members=[user]).customer
    url = reverse("api-customer-detail", kwargs={"pk": customer.pk})
    assert user_client.get(url).status_code == 200
    response = user_client.patch(url, {"name": "Renamed"}, format="json")
    assert response.status_code == 403
    customer.refresh_from_db()
    assert customer.name != "Renamed"


# Projects ------------------------------------------------------------------------------------


def test_create_project_makes_the_user_owner_and_member(user, user_client):
    customer = CustomerFactory(created_by=user)
    response = user_client.post(
        reverse("api-project-list"),
        {"customer": customer.pk, "name": "5,000 GPU RoCE cluster", "discount_pct": "12.50", "currency": "EUR"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["owner"] == user.username
    assert body["discount_pct"] == "12.50"
    assert body["currency"] == "EUR"
    assert body["customer_name"] == customer.name
    project = Project.objects.get(pk=body["id"])
    assert list(project.members.all()) == [user]


def test_create_project_with_new_customer_name_creates_both(user, user_client):
    response = user_client.post(
        reverse("api-project-list"), {"new_customer_name": "Frontier Lab", "name": "Pilot"}, format="json"
    )
    assert response.status_code == 201, response.json()
    customer = Customer.objects.get(name="Frontier Lab")
    assert customer.created_by == user
    assert response.json()["customer"] == customer.pk


def test_create_project_for_an_existing_customer_name_joins_that_customer(user_client):
    existing = CustomerFactory(name="Frontier Lab")
    response = user_client.post(
        reverse("api-project-list"), {"new_customer_name": "frontier lab", "name": "Pilot"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["customer"] == existing.pk
    assert Customer.objects.count() == 1


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"customer": 999999, "name": "X"}, "customer"),
        ({"name": "X"}, "customer"),
        ({"name": "X", "discount_pct": "150"}, "discount_pct"),
        ({"name": "X", "discount_pct": "-1"}, "discount_pct"),
        ({"name": "X", "currency": "XYZ"}, "currency"),
        ({"name": ""}, "name"),
        ({"name": "X", "new_customer_name": "Also new"}, "new_customer_name"),
    ],
)
def test_bad_project_input_is_400_on_the_field_and_saves_nothing(user, user_client, payload, field):
    customer = CustomerFactory(created_by=user)
    if "customer" not in payload and field != "customer":
        payload = {"customer": customer.pk, **payload}
    response = user_client.post(reverse("api-project-list"), payload, format="json")
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert not Project.objects.exists()
    assert Customer.objects.count() == 1


def test_customer_the_user_cannot_see_is_refused_like_an_unknown_one(user_client):
    hidden = CustomerFactory()
    unknown = user_client.post(reverse("api-project-list"), {"customer": 999999, "name": "X"}, format="json")
    response = user_client.post(reverse("api-project-list"), {"customer": hidden.pk, "name": "X"}, format="json")
    assert response.status_code == 400
    assert response.json()["customer"][0].replace(str(hidden.pk), "") == unknown.json()["customer"][0].replace(
        "999999", ""
    )
    assert not Project.objects.exists()


def test_duplicate_project_name_for_the_customer_is_400_on_name(user, user_client):
    project = ProjectFactory(owner=user, name="Pilot")
    response = user_client.post(
        reverse("api-project-list"), {"customer": project.customer_id, "name": "PILOT"}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()) == ["name"]
    assert Project.objects.count() == 1


def test_bad_new_customer_name_rolls_back_everything(user_client):
    response = user_client.post(
        reverse("api-project-list"),
        {"new_customer_name": "Brand new", "name": "Pilot", "discount_pct": "101"},
        format="json",
    )
    assert response.status_code == 400
    assert "discount_pct" in response.json()
    assert not Customer.objects.exists()
    assert not Project.objects.exists()


def test_owner_updates_project(user, user_client):
    project = ProjectFactory(owner=user)
    url = reverse("api-project-detail", kwargs={"pk": project.pk})
    response = user_client.patch(url, {"discount_pct": "20", "currency": "JPY"}, format="json")
    assert response.status_code == 200, response.json()
    project.refresh_from_db()
    assert (str(project.discount_pct), project.currency) == ("20.00", "JPY")


def test_update_with_bad_discount_is_400_and_changes_nothing(user, user_client):
    project = ProjectFactory(owner=user, discount_pct="10.00")
    url = reverse("api-project-detail", kwargs={"pk": project.pk})
    response = user_client.patch(url, {"discount_pct": "150", "name": "Renamed"}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["discount_pct"]
    project.refresh_from_db()
    assert (str(project.discount_pct), project.name) != ("150.00", "Renamed")
    assert project.name != "Renamed"


def test_plain_member_reads_but_cannot_edit_or_delete_the_project():
    member = UserFactory()
    project = ProjectFactory(members=[member], name="Pilot")
    client = _client(member)
    url = reverse("api-project-detail", kwargs={"pk": project.pk})
    assert client.get(url).status_code == 200
    assert client.get(url).json()["can_manage"] is False
    assert client.patch(url, {"name": "Hijacked"}, format="json").status_code == 403
    assert client.delete(url).status_code == 403
    project.refresh_from_db()
    assert project.name == "Pilot"


def test_owner_deletes_project(user, user_client):
    project = ProjectFactory(owner=user)
    response = user_client.delete(reverse("api-project-detail", kwargs={"pk": project.pk}))
    assert response.status_code == 204
    assert not Project.objects.filter(pk=project.pk).exists()


def test_staff_member_manages_a_project_they_belong_to():
    staff = StaffFactory()
    project = ProjectFactory(members=[staff])
    url = reverse("api-project-detail", kwargs={"pk": project.pk})
    response = _client(staff).patch(url, {"description": "Reviewed by staff"}, format="json")
    assert response.status_code == 200


def test_ownership_moves_only_to_a_member(user, user_client):
    member, stranger = UserFactory(), UserFactory()
    project = ProjectFactory(owner=user, members=[member])
    url = reverse("api-project-detail", kwargs={"pk": project.pk})
    refused = user_client.patch(url, {"owner": stranger.username}, format="json")
    assert refused.status_code == 400
    assert list(refused.json()) == ["owner"]
    moved = user_client.patch(url, {"owner": member.username}, format="json")
    assert moved.status_code == 200
    project.refresh_from_db()
    assert project.owner == member
    assert set(project.members.all()) == {user, member}


def test_project_list_filters_by_customer_and_searches_by_name(user, user_client):
    lab = CustomerFactory(created_by=user, name="Lab")
    ProjectFactory(owner=user, customer=lab, name="Training cluster")
    ProjectFactory(owner=user, customer=lab, name="Inference pod")
    ProjectFactory(owner=user, name="Training elsewhere")
    by_customer = user_client.get(reverse("api-project-list"), {"customer": lab.pk}).json()["results"]
    assert {p["name"] for p in by_customer} == {"Training cluster", "Inference pod"}
    searched = user_client.get(reverse("api-project-list"), {"search": "training"}).json()["results"]
    assert {p["name"] for p in searched} == {"Training cluster", "Training elsewhere"}


def test_filter_by_invisible_customer_is_400_not_a_leak(user_client):
    hidden = ProjectFactory().customer
    response = user_client.get(reverse("api-project-list"), {"customer": hidden.pk})
    assert response.status_code == 400
    assert "customer" in response.json()


# Members -------------------------------------------------------------------------------------


def test_owner_adds_and_removes_a_member(user, user_client):
    project = ProjectFactory(owner=user)
    colleague = UserFactory(username="colleague")
    added = user_client.post(_members_url(project), {"username": "colleague"}, format="json")
    assert added.status_code == 201, added.json()
    assert added.json()["username"] == "colleague"
    assert added.json()["added_by"] == user.username
    listed = user_client.get(_members_url(project)).json()["results"]
    assert {(m["username"], m["is_owner"]) for m in listed} == {(user.username, True), ("colleague", False)}
    assert _client(colleague).get(reverse("api-project-detail", kwargs={"pk": project.pk})).status_code == 200

    removed = user_client.delete(_member_url(project, colleague))
    assert removed.status_code == 204
    assert not ProjectMembership.objects.filter(project=project, user=colleague).exists()
    assert _client(colleague).get(reverse("api-project-detail", kwargs={"pk": project.pk})).status_code == 404


def test_plain_member_can_list_members_but_not_add_or_remove():
    member, other = UserFactory(), UserFactory()
    project = ProjectFactory(members=[member, other])
    client = _client(member)
    assert client.get(_members_url(project)).status_code == 200
    assert client.post(_members_url(project), {"username": UserFactory().username}, format="json").status_code == 403
    assert client.delete(_member_url(project, other)).status_code == 403
    assert project.members.count() == 3


@pytest.mark.parametrize(
    ("username", "message_part"),
    [("nobody-by-that-name", "No active user"), ("", "blank"), ("inactive", "No active user")],
)
def test_adding_unknown_or_inactive_user_is_400_on_username(user, user_client, username, message_part):
    UserFactory(username="inactive", is_active=False)
    project = ProjectFactory(owner=user)
    response = user_client.post(_members_url(project), {"username": username}, format="json")
    assert response.status_code == 400
    assert message_part in response.json()["username"][0]
    assert project.members.count() == 1


def test_adding_an_existing_member_is_400_on_username(user, user_client):
    member = UserFactory()
    project = ProjectFactory(owner=user, members=[member])
    response = user_client.post(_members_url(project), {"username": member.username}, format="json")
    assert response.status_code == 400
    assert "already a member" in response.json()["username"][0]
    assert project.members.count() == 2


def test_owner_cannot_be_removed(user, user_client):
    project = ProjectFactory(owner=user)
    response = user_client.delete(_member_url(project, user))
    assert response.status_code == 400
    assert "owner cannot be removed" in str(response.json())
    assert project.members.filter(pk=user.pk).exists()


def test_removing_a_non_member_is_404(user, user_client):
    project = ProjectFactory(owner=user)
    assert user_client.delete(_member_url(project, UserFactory())).status_code == 404


def test_staff_member_adds_members_to_a_project_they_belong_to():
    staff = StaffFactory()
    project = ProjectFactory(members=[staff])
    newcomer = UserFactory()
    response = _client(staff).post(_members_url(project), {"username": newcomer.username}, format="json")
    assert response.status_code == 201
    assert project.members.filter(pk=newcomer.pk).exists()


# Schema --------------------------------------------------------------------------------------


def test_schema_for_project_routes_is_valid_and_warning_free():
    generator = SchemaGenerator(patterns=[path("api/", include("apps.projects.api.urls"))])
    GENERATOR_STATS.reset()
    schema = generator.get_schema(request=None, public=True)
    assert not GENERATOR_STATS._warn_cache, list(GENERATOR_STATS._warn_cache)
    assert not GENERATOR_STATS._error_cache, list(GENERATOR_STATS._error_cache)
    validate_schema(schema)
    assert {
        "/api/customers/",
        "/api/customers/{id}/",
        "/api/projects/",
        "/api/projects/{id}/",
        "/api/projects/{project_pk}/members/",
        "/api/projects/{project_pk}/members/{user_id}/",
    } <= set(schema["paths"])


def test_owner_username_with_a_nul_is_a_400_on_owner_and_changes_nothing(user, user_client):
    project = ProjectFactory(owner=user)
    url = reverse("api-project-detail", kwargs={"pk": project.pk})
    response = user_client.patch(url, {"owner": "us\x00er"}, format="json")
    assert response.status_code == 400, response.content
    assert list(response.json()) == ["owner"]
    project.refresh_from_db()
    assert project.owner == user


@pytest.mark.parametrize("discount", ["٥", "５"])
def test_project_discount_takes_ascii_digits_only(user, user_client, discount):
    customer = CustomerFactory(created_by=user)
    response = user_client.post(reverse("api-project-list"),
                                {"customer": customer.pk, "name": "P", "discount_pct": discount}, format="json")
    assert response.status_code == 400 and "discount_pct" in response.json()
    assert not Project.objects.exists()
