"""The explorer's form: the request and the customer's bar. It only shapes input; gpus and server are
checked by the service (the design form's words), the bar's ranges here (the API's serializer has the same)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from apps.catalog.selectors import server_list
from apps.designs.forms import server_label
from apps.engine.spec import MAX_GPUS, MAX_OVERSUBSCRIPTION

OVERSUBSCRIPTION_CHOICES = (("1", "1:1"), ("1.5", "1.5:1"), ("2", "2:1"), ("3", "3:1"), ("4", "4:1"))
FABRIC_CHOICES = (("ethernet", "Ethernet"), ("infiniband", "InfiniBand"))
HOPS_CHOICES = (("", _("Any")), ("3", _("3 (2 tiers)")), ("5", _("5 (3 tiers)")))
BAR_FIELDS = ("max_oversubscription", "max_hops", "min_growth_gpus", "budget", "max_power_w")


class ServerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return server_label(obj)


class ExploreForm(forms.Form):
    gpus = forms.IntegerField(label=_("GPUs"), min_value=1, max_value=MAX_GPUS)
    server = ServerChoiceField(label=_("Server"), queryset=server_list(active_only=True).none())
    fabric = forms.ChoiceField(label=_("Fabric"), choices=FABRIC_CHOICES, initial="ethernet")
    oversubscriptions = forms.MultipleChoiceField(
        label=_("Oversubscriptions to try"), choices=OVERSUBSCRIPTION_CHOICES, initial=["1"], required=False,
        widget=forms.CheckboxSelectMultiple, help_text=_("Leaf downlinks to uplinks, o:1; 1:1 when none is ticked."))
    max_oversubscription = forms.FloatField(
        label=_("Oversubscription at most (o:1)"), required=False, min_value=1, max_value=MAX_OVERSUBSCRIPTION)
    max_hops = forms.TypedChoiceField(label=_("Switch hops at most"), choices=HOPS_CHOICES, coerce=int,
                                      required=False, empty_value=None)
    min_growth_gpus = forms.IntegerField(label=_("Growth to at least (GPUs)"), required=False, min_value=1,
                                         max_value=MAX_GPUS)
    budget = forms.DecimalField(label=_("Budget"), required=False, min_value=0, max_digits=15, decimal_places=2,
                                help_text=_("In the quote's currency, discount and spares included."))
    max_power_w = forms.FloatField(label=_("Network power at most (W)"), required=False, min_value=0,
                                   max_value=1e9, help_text=_("Switches and switch-side optics, typical."))
    blocking = forms.BooleanField(label=_("Also list blocking wirings (fewest spines)"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["server"].queryset = server_list(active_only=True).select_related("manufacturer")

    fieldsets_spec = ((_("Cluster"), ("gpus", "server", "fabric", "oversubscriptions", "blocking")),
                      (_("The customer's bar"), BAR_FIELDS))

    @property
    def fieldsets(self):
        return [(title, [self[name] for name in names]) for title, names in self.fieldsets_spec]

    def service_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        out = {"gpus": data["gpus"], "server": data["server"].pk, "fabric": data["fabric"],
               "oversubscriptions": sorted({float(v) for v in data.get("oversubscriptions") or ["1"]}),
               "blocking": bool(data.get("blocking"))}
        for name in BAR_FIELDS:
            value = data.get(name)
            if value is not None:
                out[name] = float(value) if name in ("budget", "max_power_w", "max_oversubscription") else int(value)
        return out


def form_add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Put a service ValidationError on the form's fields (unknown names as form errors)."""
    errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
    for name, messages in errors.items():
        form.add_error(name if name in form.fields else None, messages)


class GenerateForm(forms.Form):
    """The hidden inputs of "generate this one": the request's gpus and server and the candidate's structure."""

    gpus = forms.IntegerField(min_value=1, max_value=MAX_GPUS)
    server = forms.IntegerField(min_value=1)
    leaf_switch = forms.IntegerField(min_value=1)
    leaf_breakout = forms.CharField(max_length=16)
    spine_switch = forms.IntegerField(min_value=1)
    spine_breakout = forms.CharField(max_length=16)
    core_switch = forms.IntegerField(min_value=1)
    core_breakout = forms.CharField(max_length=16)
    planes = forms.IntegerField(min_value=1, max_value=64)
    tiers = forms.TypedChoiceField(choices=(("2", "2"), ("3", "3")), coerce=int)
    oversubscription = forms.FloatField(min_value=1, max_value=MAX_OVERSUBSCRIPTION)
    name = forms.CharField(max_length=200, required=False)
