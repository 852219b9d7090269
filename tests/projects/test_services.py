"""Services and selectors: the rules other apps rely on."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404

from apps.projects.models import Project
from apps.projects.selectors import (
    customer_get_for_user,
    customer_list_for_user,
    project_get_for_user,
    project_list_for_user,
    project_user_can_manage,
    project_user_is_member,
)
from apps.projects.services import (
    customer_update,
    project_create,
    project_delete,
    project_member_add,
    project_member_remove,
    project_update,
)
from tests.factories import StaffFactory, UserFactory
from tests.projects.factories import CustomerFactory, ProjectFactory

pytestmark = pytest.mark.django_db


def test_project_create_makes_the_owner_a_member():
    owner = UserFactory()
    project = project_create(customer=CustomerFactory(), name="Pilot", owner=owner)
    assert project_user_is_member(user=owner, project=project)
    assert list(project.members.all()) == [owner]


def test_project_create_rejects_bad_values_by_field_and_saves_nothing():
    with pytest.raises(ValidationError) as exc:
        project_create(customer=CustomerFactory(), name="", owner=UserFactory(), discount_pct="150", currency="XXX")
    assert set(exc.value.message_dict) == {"name", "discount_pct", "currency"}
    assert not Project.objects.exists()


def test_visibility_owner_member_outsider_and_staff():
    owner, member, outsider, staff = UserFactory(), UserFactory(), UserFactory(), StaffFactory()
    project = ProjectFactory(owner=owner, members=[member])
    for user in (owner, member):
        assert project_get_for_user(user=user, pk=project.pk) == project
        assert list(project_list_for_user(user=user)) == [project]
    for user in (outsider, staff):
        with pytest.raises(Http404):
            project_get_for_user(user=user, pk=project.pk)
        assert not project_list_for_user(user=user).exists()


@pytest.mark.parametrize("pk", [None, "abc", 10**9])
def test_bad_or_missing_pk_is_404(pk):
    with pytest.raises(Http404):
        project_get_for_user(user=UserFactory(), pk=pk)


def test_project_list_has_no_duplicates_for_owner_who_is_also_member():
    owner = UserFactory()
    ProjectFactory(owner=owner)
    assert project_list_for_user(user=owner).count() == 1


def test_manage_rights_owner_and_staff_only():
    owner, member, staff = UserFactory(), UserFactory(), StaffFactory()
    project = ProjectFactory(owner=owner, members=[member, staff])
    assert project_user_can_manage(user=owner, project=project)
    assert project_user_can_manage(user=staff, project=project)
    assert not project_user_can_manage(user=member, project=project)


def test_member_add_and_remove_permissions():
    owner, member, newcomer = UserFactory(), UserFactory(), UserFactory()
    project = ProjectFactory(owner=owner, members=[member])
    with pytest.raises(PermissionDenied):
        project_member_add(project=project, user=newcomer, added_by=member)
    with pytest.raises(PermissionDenied):
        project_member_remove(project=project, user=owner, removed_by=member)
    with pytest.raises(ValidationError):
        project_member_remove(project=project, user=owner, removed_by=owner)
    project_member_add(project=project, user=newcomer, added_by=owner)
    assert project_user_is_member(user=newcomer, project=project)
    project_member_remove(project=project, user=newcomer, removed_by=owner)
    assert not project_user_is_member(user=newcomer, project=project)


def test_update_and_delete_need_owner_or_staff():
    member = UserFactory()
    project = ProjectFactory(members=[member], name="Pilot")
    with pytest.raises(PermissionDenied):
        project_update(project=project, user=member, data={"name": "Mine now"})
    with pytest.raises(PermissionDenied):
        project_delete(project=project, user=member)
    project.refresh_from_db()
    assert project.name == "Pilot"


def test_project_update_refuses_fields_it_does_not_own():
    project = ProjectFactory()
    with pytest.raises(ValidationError) as exc:
        project_update(project=project, user=project.owner, data={"created_at": None})
    assert "created_at" in exc.value.message_dict


def test_customer_visibility_and_edit_rights():
    creator, member, outsider = UserFactory(), UserFactory(), UserFactory()
    customer = CustomerFactory(created_by=creator)
    ProjectFactory(customer=customer, members=[member])
    assert list(customer_list_for_user(user=creator)) == [customer]
    assert customer_get_for_user(user=member, pk=customer.pk) == customer
    with pytest.raises(Http404):
        customer_get_for_user(user=outsider, pk=customer.pk)
    with pytest.raises(PermissionDenied):
        customer_update(customer=customer, user=member, data={"name": "Renamed"})
    customer_update(customer=customer, user=creator, data={"name": "Renamed"})
    customer.refresh_from_db()
    assert customer.name == "Renamed"
