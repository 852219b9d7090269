"""The "Save as template" form: it only shapes input, services.design_template_save validates it."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from fabricweb.validators import DESCRIPTION_MAX_LENGTH


class TemplateSaveForm(forms.Form):
    name = forms.CharField(label=_("Template name"), max_length=120)
    description = forms.CharField(label=_("Description"), required=False, max_length=DESCRIPTION_MAX_LENGTH,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    leaves_out = forms.CharField(
        label=_("What it leaves out"), required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("What of the reference the design does not express, and where its counts differ."))
    reference_title = forms.CharField(label=_("Reference"), required=False, max_length=300,
                                      help_text=_("The published source it follows, if any."))
    reference_url = forms.CharField(label=_("Reference URL"), required=False, max_length=500)
