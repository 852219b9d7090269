from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import (Cable, ExchangeRate, Fabric, FiberCord, Manufacturer, NicModel, PatchPanel, ServerModel,
                     SwitchModel, Transceiver)

ITEM_SEARCH = ("sku", "model", "description", "manufacturer__name")
ITEM_FILTERS = ("manufacturer", "active", "price_is_example")


@admin.register(Manufacturer)
class ManufacturerAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "updated")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}


class FabricsListFilter(admin.SimpleListFilter):
    """Transceivers, cables and cords by the fabric they are qualified for (a JSON list, so no plain field filter)."""

    title = _("qualified for")
    parameter_name = "qualified_fabric"

    def lookups(self, request, model_admin):
        return Fabric.choices

    def queryset(self, request, queryset):
        if self.value() in Fabric.values:
            return queryset.filter(fabrics__icontains=f'"{self.value()}"')
        return queryset


class QualifiedPartAdminForm(forms.ModelForm):
    """Fabrics as checkboxes and declared-compatible vendors as comma-separated names, not raw JSON."""

    fabrics = forms.MultipleChoiceField(
        label=_("qualified fabrics"), choices=Fabric.choices, required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_('The fabrics the vendor qualifies the part for: "ethernet", "infiniband" or both.'),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "compatible_vendors" in self.fields:
            model_field = self._meta.model._meta.get_field("compatible_vendors")
            self.fields["compatible_vendors"] = forms.CharField(
                label=model_field.verbose_name, help_text=model_field.help_text, required=False,
                initial=", ".join(self.instance.compatible_vendors or []) if self.instance.pk else "",
            )

    def clean_compatible_vendors(self) -> list[str]:
        text = self.cleaned_data.get("compatible_vendors") or ""
        return [name.strip() for name in text.split(",") if name.strip()]


@admin.display(description=_("qualified for"))
def qualified_for(obj) -> str:
    return obj.fabrics_display


class CatalogItemAdmin(admin.ModelAdmin):
    search_fields = ITEM_SEARCH
    list_select_related = ("manufacturer",)
    list_per_page = 100
    readonly_fields = ("created", "updated")
    actions = ("make_active", "make_inactive")

    @admin.action(description=_("Offer the selected items to designs"))
    def make_active(self, request, queryset):
        queryset.update(active=True)

    @admin.action(description=_("Stop offering the selected items to designs"))
    def make_inactive(self, request, queryset):
        queryset.update(active=False)


@admin.register(SwitchModel)
class SwitchModelAdmin(CatalogItemAdmin):
    list_display = ("sku", "manufacturer", "model", "switch_class", "fabric", "asic", "cages", "cage_form_factor",
                    "cage_gbps", "breakout_modes", "uplink_cages", "uplink_form_factor", "uplink_gbps", "rack_units",
                    "power_typical_w", "list_price", "price_is_example", "active")
    list_filter = ITEM_FILTERS + ("switch_class", "fabric", "cage_form_factor", "cage_gbps", "uplink_gbps", "asic")

    @admin.display(description=_("breakout modes"))
    def breakout_modes(self, obj):
        return ", ".join(f"{mode} ({ports})" for mode, ports in obj.logical_ports.items())


@admin.register(NicModel)
class NicModelAdmin(CatalogItemAdmin):
    list_display = ("sku", "manufacturer", "model", "ports", "port_gbps", "breakouts", "form_factor",
                    "host_interface", "power_w", "list_price", "active")
    list_filter = ITEM_FILTERS + ("form_factor", "port_gbps")


@admin.register(ServerModel)
class ServerModelAdmin(CatalogItemAdmin):
    list_display = ("sku", "manufacturer", "model", "gpus", "gpu_model", "scale_up", "scale_up_kind",
                    "scale_up_domain_gpus", "scale_up_gb_s_per_gpu", "backend_ports", "backend_gbps",
                    "default_nic", "backend_nics_built_in", "backend_ports_per_cage", "rack_units", "power_w",
                    "list_price", "active")
    list_filter = ITEM_FILTERS + ("backend_gbps", "scale_up", "scale_up_kind", "backend_nics_built_in")
    autocomplete_fields = ("default_nic",)


@admin.register(Transceiver)
class TransceiverAdmin(CatalogItemAdmin):
    form = QualifiedPartAdminForm
    list_display = ("sku", "manufacturer", "model", "form_factor", "gbps", "ports", "port_gbps", "media", "fiber",
                    "connector", "reach_m", "power_w", "flat_top", qualified_for, "compatible_vendors", "list_price",
                    "active")
    list_filter = ITEM_FILTERS + (FabricsListFilter, "form_factor", "gbps", "media", "fiber", "ports", "flat_top")


@admin.register(Cable)
class CableAdmin(CatalogItemAdmin):
    form = QualifiedPartAdminForm
    list_display = ("sku", "manufacturer", "model", "media", "form_factor_a", "form_factor_b", "gbps", "legs",
                    "leg_gbps", "length_m", "power_w", qualified_for, "compatible_vendors", "list_price", "active")
    list_filter = ITEM_FILTERS + (FabricsListFilter, "media", "form_factor_a", "form_factor_b", "gbps", "legs")


@admin.register(FiberCord)
class FiberCordAdmin(CatalogItemAdmin):
    form = QualifiedPartAdminForm
    list_display = ("sku", "manufacturer", "model", "fiber", "connector", "length_m", qualified_for,
                    "list_price", "active")
    list_filter = ITEM_FILTERS + (FabricsListFilter, "fiber", "connector")


@admin.register(PatchPanel)
class PatchPanelAdmin(CatalogItemAdmin):
    list_display = ("sku", "manufacturer", "model", "ports", "connector", "fiber", "rack_units", "list_price",
                    "price_is_example", "active")
    list_filter = ITEM_FILTERS + ("connector", "fiber", "rack_units")


@admin.register(ExchangeRate)
class ExchangeRateAdmin(admin.ModelAdmin):
    list_display = ("from_currency", "to_currency", "rate", "rate_is_example", "updated")
    list_filter = ("rate_is_example",)
    search_fields = ("from_currency", "to_currency")
    readonly_fields = ("updated",)
