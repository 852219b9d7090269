"""Writes for customers, projects and membership.

Every write validates with full_clean and raises django.core.exceptions.ValidationError keyed
by field name (fabricweb.api turns it into a DRF 400; forms map it onto their fields), so bad
input saves nothing. Permission failures raise PermissionDenied. The project owner is always
a member: project_create and project_update add the membership, and the owner cannot be removed.
"""
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from .models import Currency, Customer, Project, ProjectMembership
from .selectors import customer_user_can_manage, project_user_can_manage

CUSTOMER_UPDATE_FIELDS = ("name", "description", "country")
PROJECT_UPDATE_FIELDS = ("customer", "name", "description", "owner", "discount_pct", "currency", "review_two_people")


def _save_validated(instance: Customer | Project | ProjectMembership) -> None:
    """full_clean then save; a concurrent duplicate that slips past validation is still a field error."""
    instance.full_clean()
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError:
        raise ValidationError({"name": [_("This name is already taken.")]}) from None


def _unknown_fields(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ValidationError({field: [_("This field cannot be changed.")] for field in unknown})


def customer_create(*, name: str, created_by: Any, description: str = "", country: str = "") -> Customer:
    customer = Customer(name=name, description=description, country=country, created_by=created_by)
    _save_validated(customer)
    return customer


def customer_get_or_create(*, name: str, created_by: Any) -> Customer:
    """The customer with this name (any case) or a new one.

    Used when a user types a customer name while creating a project: a colleague may already
    have created that customer, and the user would otherwise have no way to pick it.
    """
    existing = Customer.objects.filter(name__iexact=(name or "").strip()).first()
    if existing is not None:
        return existing
    return customer_create(name=name, created_by=created_by)


def customer_update(*, customer: Customer, user: Any, data: dict[str, Any]) -> Customer:
    if not customer_user_can_manage(user=user, customer=customer):
        raise PermissionDenied(_("Only the customer's creator or staff can edit it."))
    _unknown_fields(data, CUSTOMER_UPDATE_FIELDS)
    for field, value in data.items():
        setattr(customer, field, value)
    _save_validated(customer)
    return customer


def _membership_ensure(*, project: Project, user: Any, added_by: Any) -> ProjectMembership:
    membership, _created = ProjectMembership.objects.get_or_create(
        project=project, user=user, defaults={"added_by": added_by}
    )
    return membership


def project_owner_membership_ensure(*, project: Project, added_by: Any = None) -> ProjectMembership:
    """Keep the owner a member (also used by the admin, which writes projects directly)."""
    return _membership_ensure(project=project, user=project.owner, added_by=added_by or project.owner)


@transaction.atomic
def project_create(
    *,
    customer: Customer,
    name: str,
    owner: Any,
    description: str = "",
    discount_pct: Decimal | int | str = Decimal("0"),
    currency: str = Currency.USD,
    review_two_people: bool = True,
) -> Project:
    """A new project owned (and joined) by ``owner``.

    Callers choose ``customer`` from customer_list_for_user or customer_get_or_create.
    """
    project = Project(
        customer=customer,
        name=name,
        description=description,
        owner=owner,
        discount_pct=discount_pct,
        currency=currency,
        review_two_people=review_two_people,
    )
    _save_validated(project)
    project_owner_membership_ensure(project=project, added_by=owner)
    return project


@transaction.atomic
def project_create_with_customer_name(*, customer_name: str, name: str, owner: Any, **fields: Any) -> Project:
    """Like project_create, with the customer given by name: found (any case) or created.

    Errors about the customer name are reported on ``new_customer_name`` (the form and API
    field); if the project is invalid, a customer created here is rolled back too.
    """
    try:
        customer = customer_get_or_create(name=customer_name, created_by=owner)
    except ValidationError as exc:
        messages = exc.message_dict.get("name", exc.messages) if hasattr(exc, "error_dict") else exc.messages
        raise ValidationError({"new_customer_name": messages}) from None
    return project_create(customer=customer, name=name, owner=owner, **fields)


@transaction.atomic
def project_update(*, project: Project, user: Any, data: dict[str, Any]) -> Project:
    """Change the fields in ``data`` (any of PROJECT_UPDATE_FIELDS). Owner or staff only.

    Ownership moves only to a current member; the previous owner stays a member.
    """
    if not project_user_can_manage(user=user, project=project):
        raise PermissionDenied(_("Only the project owner or staff can edit this project."))
    _unknown_fields(data, PROJECT_UPDATE_FIELDS)
    new_owner = data.get("owner")
    if new_owner is not None and new_owner.pk != project.owner_id:
        # Ownership goes to someone already on the project, never to a stranger by mistake.
        if not ProjectMembership.objects.filter(project=project, user=new_owner).exists():
            raise ValidationError({"owner": [_("The new owner must already be a member of the project.")]})
    for field, value in data.items():
        setattr(project, field, value)
    _save_validated(project)
    project_owner_membership_ensure(project=project, added_by=user)
    return project


def project_delete(*, project: Project, user: Any) -> None:
    if not project_user_can_manage(user=user, project=project):
        raise PermissionDenied(_("Only the project owner or staff can delete this project."))
    try:
        with transaction.atomic():
            project.delete()
    except ProtectedError:
        raise ValidationError(
            _("This project still has records that must be removed first; nothing was deleted.")
        ) from None


@transaction.atomic
def project_member_add(*, project: Project, user: Any, added_by: Any) -> ProjectMembership:
    if not project_user_can_manage(user=added_by, project=project):
        raise PermissionDenied(_("Only the project owner or staff can add members."))
    if not user.is_active:
        raise ValidationError({"user": [_("This user account is disabled.")]})
    if ProjectMembership.objects.filter(project=project, user=user).exists():
        raise ValidationError(
            {"user": [_("%(username)s is already a member of this project.") % {"username": user.get_username()}]}
        )
    membership = ProjectMembership(project=project, user=user, added_by=added_by)
    membership.full_clean()
    membership.save()
    return membership


@transaction.atomic
def project_member_remove(*, project: Project, user: Any, removed_by: Any) -> None:
    if not project_user_can_manage(user=removed_by, project=project):
        raise PermissionDenied(_("Only the project owner or staff can remove members."))
    if user.pk == project.owner_id:
        raise ValidationError({"user": [_("The owner cannot be removed from the project.")]})
    deleted, _details = ProjectMembership.objects.filter(project=project, user=user).delete()
    if not deleted:
        raise ValidationError(
            {"user": [_("%(username)s is not a member of this project.") % {"username": user.get_username()}]}
        )
