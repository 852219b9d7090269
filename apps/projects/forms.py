"""UI forms. They only shape input; views call the services, and service ValidationErrors are
put back on the form's fields (form_add_service_errors), so errors show in place."""
from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from fabricweb.validators import validate_single_line_name

from .models import Customer, Project


def form_add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Attach a service's ValidationError to the matching fields (others as non-field errors)."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for field, errors in exc.error_dict.items():
        form.add_error(field if field in form.fields else None, errors)


def _ascii_discount(form: forms.ModelForm):
    """Decimal() reads Arabic-Indic and full-width digits too; a discount takes the digits 0-9 only."""
    raw = form.data.get(form.add_prefix("discount_pct"))
    if isinstance(raw, str) and not raw.isascii():
        raise ValidationError(_("Enter the number with the digits 0-9."), code="invalid")
    return form.cleaned_data.get("discount_pct")


class CustomerForm(forms.ModelForm):
    class Meta:
        model = Customer
        fields = ["name", "description", "country"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def _post_clean(self):
        # The service validates (uniqueness in any letter case, on "name") and saves.
        pass


class ProjectCreateForm(forms.ModelForm):
    customer = forms.ModelChoiceField(
        label=_("Customer"), queryset=Customer.objects.none(), required=False, empty_label=_("— choose —")
    )
    new_customer_name = forms.CharField(
        label=_("or new customer name"),
        max_length=200,
        required=False,
        validators=[validate_single_line_name],
        help_text=_("If a customer with this name already exists, the project is added to it."),
    )

    class Meta:
        model = Project
        fields = ["customer", "new_customer_name", "name", "description", "discount_pct", "currency",
                  "review_two_people"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    clean_discount_pct = _ascii_discount

    def __init__(self, *args, customers=None, **kwargs):
        super().__init__(*args, **kwargs)
        if customers is not None:
            self.fields["customer"].queryset = customers

    def clean(self):
        cleaned = super().clean()
        customer = cleaned.get("customer")
        new_name = (cleaned.get("new_customer_name") or "").strip()
        if customer and new_name:
            self.add_error("new_customer_name", _("Choose an existing customer or type a new name, not both."))
        elif not customer and not new_name and "customer" not in self.errors:
            self.add_error("customer", _("Choose a customer or type a new customer name."))
        return cleaned

    def _post_clean(self):
        # Model validation happens in the service (the customer may not exist yet).
        pass


class ProjectEditForm(forms.ModelForm):
    customer = forms.ModelChoiceField(label=_("Customer"), queryset=Customer.objects.none())
    owner = forms.ModelChoiceField(
        label=_("Owner"),
        queryset=get_user_model().objects.none(),
        help_text=_("Ownership can move to a current member."),
    )

    class Meta:
        model = Project
        fields = ["customer", "name", "description", "owner", "discount_pct", "currency", "review_two_people"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    clean_discount_pct = _ascii_discount

    def __init__(self, *args, customers, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["customer"].queryset = customers
        self.fields["owner"].queryset = members
        self.fields["owner"].label_from_instance = lambda user: user.get_username()

    def _post_clean(self):
        # The service validates and saves; the bound instance must stay unchanged on errors.
        pass


class MemberAddForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise ValidationError(_("No active user with this username."))
        return user
