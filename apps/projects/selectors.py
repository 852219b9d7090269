"""Who sees which project and customer. Every app reads projects through these functions.

Visibility rules (the UI and the API use the same ones):
- A user sees a project they own or are a member of. Everyone else, including staff who are
  not members, gets Http404 from project_get_for_user, so a project's existence never leaks.
  Staff see every project only in the Django admin; the catalog is what staff manage.
- A user sees a customer they created or that holds a project they see.
- Managing a project (editing, deleting, adding and removing members) needs the owner or a
  staff user; callers first fetch the project with project_get_for_user, so staff can manage
  only projects they can see.
- A customer can be edited by whoever created it or by staff.
"""
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from .models import Customer, Project, ProjectMembership


def _is_signed_in(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def project_list_for_user(*, user: Any) -> QuerySet[Project]:
    """Projects the user owns or is a member of (no duplicates, so callers may annotate freely)."""
    if not _is_signed_in(user):
        return Project.objects.none()
    member_of = ProjectMembership.objects.filter(user=user).values("project_id")
    return Project.objects.filter(Q(owner=user) | Q(pk__in=member_of)).select_related("customer", "owner")


def project_get_for_user(*, user: Any, pk: Any) -> Project:
    """The project with this pk if the user may see it; Http404 otherwise (missing or not visible)."""
    try:
        return project_list_for_user(user=user).get(pk=pk)
    except (Project.DoesNotExist, ValueError, TypeError):
        raise Http404(_("No such project.")) from None


def project_user_is_member(*, user: Any, project: Project) -> bool:
    if not _is_signed_in(user):
        return False
    return project.owner_id == user.pk or ProjectMembership.objects.filter(project=project, user=user).exists()


def project_user_can_manage(*, user: Any, project: Project) -> bool:
    """Owner or staff. Callers reach the project through project_get_for_user first."""
    if not _is_signed_in(user):
        return False
    return project.owner_id == user.pk or bool(user.is_staff)


def project_membership_list(*, project: Project) -> QuerySet[ProjectMembership]:
    return (
        ProjectMembership.objects.filter(project=project)
        .select_related("user", "added_by")
        .order_by("user__username")
    )


def customer_list_for_user(*, user: Any) -> QuerySet[Customer]:
    """Customers the user created or that hold a project the user sees."""
    if not _is_signed_in(user):
        return Customer.objects.none()
    with_visible_projects = project_list_for_user(user=user).values("customer_id")
    return Customer.objects.filter(Q(created_by=user) | Q(pk__in=with_visible_projects)).select_related("created_by")


def customer_get_for_user(*, user: Any, pk: Any) -> Customer:
    try:
        return customer_list_for_user(user=user).get(pk=pk)
    except (Customer.DoesNotExist, ValueError, TypeError):
        raise Http404(_("No such customer.")) from None


def customer_user_can_manage(*, user: Any, customer: Customer) -> bool:
    """The creator or staff may edit a customer."""
    if not _is_signed_in(user):
        return False
    return customer.created_by_id == user.pk or bool(user.is_staff)


def customer_project_list_for_user(*, user: Any, customer: Customer) -> QuerySet[Project]:
    """The customer's projects that this user sees (never the others)."""
    return project_list_for_user(user=user).filter(customer=customer)
