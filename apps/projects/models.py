"""Customers, projects and project membership.

Rules:
- A project belongs to one customer and has one owner; the owner is always a member
  (services keep a ProjectMembership row for the owner).
- Only members see a project; selectors.py is the one place that decides visibility.
- Names are unique case-insensitively: customer names globally, project names per customer.
  The database enforces the exact-case constraint; model validation also catches case variants
  and reports them on the ``name`` field.
"""
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from fabricweb.validators import DESCRIPTION_MAX_LENGTH, description_max_length, validate_single_line_name


class Currency(models.TextChoices):
    USD = "USD", _("US dollar")
    EUR = "EUR", _("Euro")
    CNY = "CNY", _("Chinese yuan")
    JPY = "JPY", _("Japanese yen")
    GBP = "GBP", _("Pound sterling")


class Customer(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True, validators=[validate_single_line_name])
    description = models.TextField(_("description"), blank=True, max_length=DESCRIPTION_MAX_LENGTH,
                                   validators=[description_max_length])
    country = models.CharField(_("country or region"), max_length=100, blank=True,
                               validators=[validate_single_line_name])
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="customers_created",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("customer")
        verbose_name_plural = _("customers")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("projects:customer-detail", kwargs={"customer_pk": self.pk})

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        if self.name:
            duplicates = Customer.objects.filter(name__iexact=self.name).exclude(pk=self.pk)
            if duplicates.exists():
                raise ValidationError(
                    {"name": [_("A customer named “%(name)s” already exists.") % {"name": self.name}]},
                    code="unique",
                )


class Project(models.Model):
    customer = models.ForeignKey(
        Customer, verbose_name=_("customer"), on_delete=models.PROTECT, related_name="projects"
    )
    name = models.CharField(_("name"), max_length=200, validators=[validate_single_line_name])
    description = models.TextField(_("description"), blank=True, max_length=DESCRIPTION_MAX_LENGTH,
                                   validators=[description_max_length])
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.PROTECT,
        related_name="projects_owned",
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("members"),
        through="ProjectMembership",
        through_fields=("project", "user"),
        related_name="projects",
    )
    discount_pct = models.DecimalField(
        _("discount (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("100"))],
        help_text=_("Project discount off list price, 0 to 100."),
    )
    currency = models.CharField(_("currency"), max_length=3, choices=Currency.choices, default=Currency.USD)
    # Two people per approval: the approver may not be the person who submitted the version for review.
    review_two_people = models.BooleanField(
        _("review by two people"), default=True,
        help_text=_("The person who approves a version must not be the one who submitted it for review."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["customer__name", "name"]
        verbose_name = _("project")
        verbose_name_plural = _("projects")
        constraints = [
            models.UniqueConstraint(fields=["customer", "name"], name="projects_project_unique_customer_name"),
            models.CheckConstraint(
                condition=models.Q(discount_pct__gte=0) & models.Q(discount_pct__lte=100),
                name="projects_project_discount_pct_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("projects:project-detail", kwargs={"project_pk": self.pk})

    def clean(self) -> None:
        self.name = (self.name or "").strip()
        if self.name and self.customer_id:
            duplicates = Project.objects.filter(customer_id=self.customer_id, name__iexact=self.name)
            if duplicates.exclude(pk=self.pk).exists():
                # Reported on "name" (not as a non-field error) so forms and the API point at the field.
                raise ValidationError(
                    {"name": [_("This customer already has a project named “%(name)s”.") % {"name": self.name}]},
                    code="unique",
                )


class ProjectMembership(models.Model):
    project = models.ForeignKey(
        Project, verbose_name=_("project"), on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="project_memberships",
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("added by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        ordering = ["user__username"]
        verbose_name = _("project membership")
        verbose_name_plural = _("project memberships")
        constraints = [
            models.UniqueConstraint(fields=["project", "user"], name="projects_membership_unique_project_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.project}"
