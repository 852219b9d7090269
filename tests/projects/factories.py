"""Customers and projects. ProjectFactory goes through the service, so the owner is a member."""
from decimal import Decimal

import factory

from apps.projects.models import Customer, Project, ProjectMembership
from apps.projects.services import project_create
from tests.factories import UserFactory


class CustomerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Customer

    name = factory.Sequence(lambda n: f"Customer {n}")
    description = "An AI lab"
    country = "Singapore"
    created_by = factory.SubFactory(UserFactory)


class ProjectFactory(factory.django.DjangoModelFactory):
    """``ProjectFactory(members=[alice, bob])`` adds members besides the owner."""

    class Meta:
        model = Project
        skip_postgeneration_save = True

    customer = factory.SubFactory(CustomerFactory)
    name = factory.Sequence(lambda n: f"Cluster {n}")
    description = "Backend fabric"
    owner = factory.SubFactory(UserFactory)
    discount_pct = Decimal("10.00")
    currency = "USD"
    # One person may submit and approve in factory projects; tests of the two-person review opt in
    # (new projects made by the product review with two people: see tests/reviews/test_two_people.py).
    review_two_people = False

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        return project_create(**kwargs)

    @factory.post_generation
    def members(obj, create, extracted, **kwargs):  # noqa: N805
        if create and extracted:
            for user in extracted:
                ProjectMembership.objects.get_or_create(project=obj, user=user, defaults={"added_by": obj.owner})
