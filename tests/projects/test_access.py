"""Who sees a project: members only. Everyone else gets 404 on every project URL, any method."""
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import StaffFactory, UserFactory
from tests.projects.factories import CustomerFactory, ProjectFactory
from tests.projects.urls import (
    DIRECT,
    EXTRA_KWARGS,
    PROJECT_KWARG,
    project_scoped_routes,
    project_scoped_url,
    project_scoped_url_names,
)

pytestmark = pytest.mark.django_db

METHODS = ["get", "post", "put", "patch", "delete"]
SCOPED = [(name, method) for name in project_scoped_url_names() for method in METHODS]


def _request(client: Client, method: str, url: str):
    if method == "get":
        return client.get(url)
    return getattr(client, method)(url, data="{}", content_type="application/json")


def _client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_every_project_scoped_url_can_be_built():
    missing = {
        name: sorted(params - {PROJECT_KWARG})
        for name, params in project_scoped_routes().items()
        if params - {PROJECT_KWARG} and name not in EXTRA_KWARGS
    }
    assert not missing, f"add these routes to tests/projects/urls.py EXTRA_KWARGS: {missing}"


def test_the_project_pages_and_api_are_in_the_scoped_list():
    names = set(project_scoped_url_names())
    assert {
        "projects:project-detail",
        "projects:project-edit",
        "projects:project-delete",
        "projects:project-member-add",
        "projects:project-member-remove",
        "api-project-detail",
        "api-project-member-list",
        "api-project-member-detail",
    } <= names
    assert set(DIRECT) <= names


@pytest.mark.parametrize(("name", "method"), SCOPED)
def test_non_member_gets_404_on_every_project_url(name, method):
    project = ProjectFactory()
    url = project_scoped_url(name, project)
    outsider = UserFactory()
    response = _request(_client_for(outsider), method, url)
    assert response.status_code == 404, f"{method.upper()} {url} answered {response.status_code}"


@pytest.mark.parametrize(("name", "method"), SCOPED)
def test_staff_non_member_gets_404_on_every_project_url(name, method):
    project = ProjectFactory()
    url = project_scoped_url(name, project)
    response = _request(_client_for(StaffFactory()), method, url)
    assert response.status_code == 404, f"{method.upper()} {url} answered {response.status_code}"


@pytest.mark.parametrize("name", project_scoped_url_names())
def test_missing_project_is_the_same_404_as_a_hidden_one(name):
    project = ProjectFactory()
    hidden_url = project_scoped_url(name, project)
    missing_url = hidden_url.replace(f"/{project.pk}/", f"/{project.pk + 100000}/", 1)
    client = _client_for(UserFactory())
    hidden, missing = client.get(hidden_url), client.get(missing_url)
    assert hidden.status_code == missing.status_code == 404
    if "/api/" in hidden_url:
        assert hidden.json() == missing.json()


@pytest.mark.parametrize("name", [n for n in project_scoped_url_names() if not n.startswith("api-")])
def test_anonymous_is_sent_to_login_from_project_pages(name, client):
    url = project_scoped_url(name, ProjectFactory())
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse(settings.LOGIN_URL))


@pytest.mark.parametrize(
    "name", ["projects:project-list", "projects:customer-list", "projects:customer-detail", "projects:customer-edit"]
)
def test_anonymous_is_sent_to_login_from_list_and_customer_pages(name, client):
    kwargs = {"customer_pk": CustomerFactory().pk} if "customer-" in name and "list" not in name else {}
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse(settings.LOGIN_URL))


@pytest.mark.parametrize("name", ["api-project-list", "api-customer-list"])
def test_anonymous_api_request_is_refused(name, api_client):
    assert api_client.get(reverse(name)).status_code == 401


def test_member_sees_the_project_in_ui_and_api():
    member = UserFactory()
    project = ProjectFactory(members=[member])
    client = _client_for(member)
    page = client.get(reverse("projects:project-detail", kwargs={"project_pk": project.pk}))
    assert page.status_code == 200
    assert project.name in page.content.decode()
    api = client.get(reverse("api-project-detail", kwargs={"pk": project.pk}))
    assert api.status_code == 200
    assert api.json()["name"] == project.name
    listed = client.get(reverse("api-project-list")).json()["results"]
    assert [p["id"] for p in listed] == [project.pk]


def test_project_list_shows_only_own_and_member_projects():
    user = UserFactory()
    owned = ProjectFactory(owner=user, name="Owned fabric")
    joined = ProjectFactory(members=[user], name="Joined fabric")
    ProjectFactory(name="Someone else's fabric")
    page = _client_for(user).get(reverse("projects:project-list"))
    assert page.status_code == 200
    assert {p.pk for p in page.context["projects"]} == {owned.pk, joined.pk}
    assert "Someone else's fabric" not in page.content.decode()


def test_staff_sees_only_their_own_projects_outside_the_admin(staff):
    ProjectFactory(name="Hidden from staff")
    mine = ProjectFactory(owner=staff)
    client = _client_for(staff)
    listed = client.get(reverse("api-project-list")).json()["results"]
    assert [p["id"] for p in listed] == [mine.pk]
    assert "Hidden from staff" not in client.get(reverse("projects:project-list")).content.decode()


def test_staff_sees_every_project_in_the_admin():
    staff = StaffFactory(is_superuser=True)
    ProjectFactory(name="Visible in admin")
    response = _client_for(staff).get(reverse("admin:projects_project_changelist"))
    assert response.status_code == 200
    assert "Visible in admin" in response.content.decode()


def test_customer_is_visible_to_its_creator_and_through_projects_only():
    creator, member, outsider = UserFactory(), UserFactory(), UserFactory()
    customer = CustomerFactory(created_by=creator)
    ProjectFactory(customer=customer, members=[member])
    url = reverse("projects:customer-detail", kwargs={"customer_pk": customer.pk})
    api_url = reverse("api-customer-detail", kwargs={"pk": customer.pk})
    for user in (creator, member):
        assert _client_for(user).get(url).status_code == 200
        assert _client_for(user).get(api_url).status_code == 200
    for method in METHODS:
        assert _request(_client_for(outsider), method, url).status_code == 404
        assert _request(_client_for(outsider), method, api_url).status_code == 404


def test_customer_page_lists_only_projects_the_user_sees():
    member = UserFactory()
    customer = CustomerFactory()
    ProjectFactory(customer=customer, members=[member], name="Shared build")
    ProjectFactory(customer=customer, name="Private build")
    page = _client_for(member).get(reverse("projects:customer-detail", kwargs={"customer_pk": customer.pk}))
    body = page.content.decode()
    assert "Shared build" in body
    assert "Private build" not in body
