"""Forms of the review panel: a comment with its anchor pickers, and a review action with its note.

The comment form has one picker per anchor type (a device name typed with suggestions, a pod
chosen from the version's pods, a BOM line chosen by SKU); clean() turns the picker of the chosen
type into the service's ``anchor_ref``, and service errors on ``anchor_ref`` come back on that
picker, so they show where the user typed.
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .models import USER_ACTIONS, AnchorType
from .services.comments import BODY_MAX_LENGTH
from .services.review import NOTE_MAX_LENGTH

ANCHOR_FIELDS = {AnchorType.DEVICE: "anchor_device", AnchorType.POD: "anchor_pod", AnchorType.BOM_LINE: "anchor_sku"}


def form_add_service_errors(form: forms.Form, exc: ValidationError, *, aliases: dict[str, str] | None = None) -> None:
    """Attach a service's ValidationError to the form's fields (others as non-field errors)."""
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc.messages)
        return
    for name, messages in exc.message_dict.items():
        name = (aliases or {}).get(name, name)
        form.add_error(name if name in form.fields else None, messages)


class CommentForm(forms.Form):
    body = forms.CharField(
        label=_("Comment"), max_length=BODY_MAX_LENGTH, strip=True,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": _("Write a comment; @username mentions a member.")}),
        help_text=_("Mention a project member with @username."),
    )
    anchor_type = forms.ChoiceField(label=_("About"), choices=AnchorType.choices, initial=AnchorType.NONE)
    anchor_device = forms.CharField(
        label=_("Device"), required=False, max_length=100,
        widget=forms.TextInput(attrs={"placeholder": _("exact name, e.g. p0-spine-001"), "autocomplete": "off"}),
    )
    anchor_pod = forms.ChoiceField(label=_("Pod (plane:pod)"), required=False, choices=())
    anchor_sku = forms.ChoiceField(label=_("BOM line"), required=False, choices=())

    def __init__(self, *args: Any, pods: list[str] = (), bom_lines: list[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["anchor_pod"].choices = [("", "—")] + [(pod, pod) for pod in pods]
        self.fields["anchor_sku"].choices = [("", "—")] + list(bom_lines)
        if not pods:
            self.fields["anchor_type"].choices = [c for c in AnchorType.choices if c[0] != AnchorType.POD]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        anchor_type = data.get("anchor_type") or AnchorType.NONE
        field = ANCHOR_FIELDS.get(anchor_type)
        data["anchor_ref"] = (data.get(field) or "").strip() if field else ""
        return data

    def service_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"body": data["body"], "anchor_type": data["anchor_type"], "anchor_ref": data["anchor_ref"]}

    def add_service_errors(self, exc: ValidationError) -> None:
        anchor_type = self.cleaned_data.get("anchor_type") if hasattr(self, "cleaned_data") else None
        picker = ANCHOR_FIELDS.get(anchor_type, "anchor_type")
        form_add_service_errors(self, exc, aliases={"anchor_ref": picker})


class CommentEditForm(forms.Form):
    body = forms.CharField(label=_("Comment"), max_length=BODY_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 4}))


class ReviewActionForm(forms.Form):
    action = forms.ChoiceField(choices=[(a.value, a.label) for a in USER_ACTIONS], widget=forms.HiddenInput)
    note = forms.CharField(
        label=_("Note"), required=False, max_length=NOTE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": _("Optional; required to reject.")}),
    )
    supersede = forms.BooleanField(
        label=_("Replace the quoted version"), required=False,
        help_text=_("Another version of this design is approved; approving this one supersedes it."),
    )
