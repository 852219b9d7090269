"""Filters for the project and customer lists (API). Choices are limited to what the user sees,
so filtering by an invisible customer answers like an unknown one (400, "not a valid choice")."""
import django_filters
from django.utils.translation import gettext_lazy as _

from .models import Currency, Customer, Project
from .selectors import customer_list_for_user


def _visible_customers(request):
    if request is None:
        return Customer.objects.none()
    return customer_list_for_user(user=request.user)


class ProjectFilterSet(django_filters.FilterSet):
    customer = django_filters.ModelChoiceFilter(queryset=_visible_customers, label=_("customer"))
    currency = django_filters.ChoiceFilter(choices=Currency.choices, label=_("currency"))
    owner = django_filters.CharFilter(field_name="owner__username", label=_("owner (username)"))

    class Meta:
        model = Project
        fields = ["customer", "currency", "owner"]


class CustomerFilterSet(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains", label=_("name contains"))
    country = django_filters.CharFilter(lookup_expr="iexact", label=_("country or region"))

    class Meta:
        model = Customer
        fields = ["name", "country"]
