from django import forms
from django.utils.translation import gettext_lazy as _

from .kinds import ITEM_KINDS
from .models import Fabric, Manufacturer, SwitchClass

# The same limit as the API's imports: a bigger upload is refused before it is read.
UPLOAD_LIMIT = 20 * 1024 * 1024

KIND_TITLES = {
    "switches": _("Switches"), "nics": _("NICs"), "servers": _("GPU servers"), "transceivers": _("Transceivers"),
    "cables": _("Cables"), "fibers": _("Fibre patch cords"), "patch_panels": _("Patch panels"),
}


class CatalogSearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=100,
                        widget=forms.TextInput(attrs={"placeholder": _("SKU, model, manufacturer...")}))
    kind = forms.ChoiceField(
        label=_("Type"), required=False,
        choices=[("", _("All types"))] + [(kind.key, KIND_TITLES[kind.key]) for kind in ITEM_KINDS],
    )
    vendor = forms.ChoiceField(label=_("Vendor"), required=False)
    switch_class = forms.ChoiceField(label=_("Switch class"), required=False,
                                     choices=[("", _("All switch classes"))] + list(SwitchClass.choices))
    fabric = forms.ChoiceField(label=_("Fabric"), required=False,
                               choices=[("", _("Any fabric"))] + list(Fabric.choices))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["vendor"].choices = [("", _("All vendors"))] + [
            (slug, name) for slug, name in Manufacturer.objects.order_by("name").values_list("slug", "name")]


def _check_size(upload):
    if upload is not None and upload.size > UPLOAD_LIMIT:
        raise forms.ValidationError(_("The file is larger than 20 MB."))
    return upload


class ExcelImportForm(forms.Form):
    file = forms.FileField(label=_("Excel workbook (.xlsx)"),
                           widget=forms.ClearableFileInput(attrs={"accept": ".xlsx"}))

    def clean_file(self):
        return _check_size(self.cleaned_data.get("file"))


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".yaml,.yml"}))
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        def single(item):
            return _check_size(super(MultipleFileField, self).clean(item, initial))
        if isinstance(data, (list, tuple)):
            return [single(item) for item in data if item]
        return [single(data)] if data else []


class NetboxImportForm(forms.Form):
    files = MultipleFileField(label=_("NetBox device-type YAML files"), required=False)
    yaml = forms.CharField(
        label=_("or paste YAML"), required=False, widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_("Several documents separated by --- are allowed."),
    )

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("files") and not (cleaned.get("yaml") or "").strip():
            raise forms.ValidationError(_("Upload a YAML file or paste YAML text."))
        return cleaned
