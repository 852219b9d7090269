"""Filters for the catalog API: ?manufacturer=nvidia&cage_gbps=800&speed=400&reach_min=100&q=spectrum.

Switches also filter by ?switch_class=fabric|frontend|management, ?fabric=ethernet|infiniband,
?uplink_gbps=100 and ?power_published=true|false; `vendor` is another name for `manufacturer`."""
import django_filters
from django.db.models import Q

from .models import (
    Cable, CableMedia, Fabric, Fiber, FiberCord, FormFactor, Manufacturer, NicFormFactor, NicModel, OpticMedia,
    PanelConnector, PatchPanel, ServerModel, SwitchClass, SwitchModel, Transceiver,
)


class CatalogItemFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label="Search SKU, model, description or manufacturer")
    manufacturer = django_filters.CharFilter(method="filter_manufacturer", label="Manufacturer name or slug")
    vendor = django_filters.CharFilter(method="filter_manufacturer", label="Vendor (manufacturer) name or slug")
    active = django_filters.BooleanFilter()
    price_is_example = django_filters.BooleanFilter()
    price_min = django_filters.NumberFilter(field_name="list_price", lookup_expr="gte")
    price_max = django_filters.NumberFilter(field_name="list_price", lookup_expr="lte")

    def filter_q(self, queryset, name, value):
        return queryset.filter(
            Q(sku__icontains=value) | Q(model__icontains=value) | Q(description__icontains=value)
            | Q(manufacturer__name__icontains=value)
        )

    def filter_manufacturer(self, queryset, name, value):
        return queryset.filter(Q(manufacturer__slug__iexact=value) | Q(manufacturer__name__iexact=value))


class ManufacturerFilterSet(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Manufacturer
        fields = ["name", "slug"]


class SwitchModelFilterSet(CatalogItemFilterSet):
    cage_form_factor = django_filters.ChoiceFilter(choices=FormFactor.choices)
    fabric = django_filters.ChoiceFilter(choices=Fabric.choices, label="Ethernet or InfiniBand")
    switch_class = django_filters.ChoiceFilter(choices=SwitchClass.choices,
                                               label="Backend fabric, front-end / storage or management")
    power_published = django_filters.BooleanFilter(method="filter_power_published",
                                                   label="Whether the vendor publishes typical and maximum power")
    breakout = django_filters.CharFilter(method="filter_breakout", label='Offers this breakout mode, e.g. "2x400G"')
    speed = django_filters.NumberFilter(method="filter_speed", label="Offers logical ports of this speed (Gb/s)")
    cages_min = django_filters.NumberFilter(field_name="cages", lookup_expr="gte")

    class Meta:
        model = SwitchModel
        fields = ["cage_gbps", "cages", "asic", "rack_units", "uplink_gbps", "uplink_cages"]

    def filter_power_published(self, queryset, name, value):
        published = Q(power_typical_w__isnull=False, power_max_w__isnull=False)
        return queryset.filter(published) if value else queryset.exclude(published)

    def filter_q(self, queryset, name, value):
        return super().filter_q(queryset, name, value) | queryset.filter(asic__icontains=value)

    def filter_breakout(self, queryset, name, value):
        # icontains on the JSON text works on every database (JSON `contains` does not on SQLite).
        return queryset.filter(breakouts__icontains=f'"{value.strip()}"')

    def filter_speed(self, queryset, name, value):
        return queryset.filter(breakouts__icontains=f'x{int(value)}G"')


class NicModelFilterSet(CatalogItemFilterSet):
    form_factor = django_filters.ChoiceFilter(choices=NicFormFactor.choices)

    class Meta:
        model = NicModel
        fields = ["port_gbps", "ports"]


class ServerModelFilterSet(CatalogItemFilterSet):
    gpu_model = django_filters.CharFilter(lookup_expr="icontains")
    scale_up = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = ServerModel
        fields = ["gpus", "backend_ports", "backend_gbps", "default_nic"]


class QualifiedPartFilterSet(CatalogItemFilterSet):
    """?fabric=infiniband: parts qualified for a fabric; ?qualified_for=NVIDIA: made by that switch vendor or
    declared compatible with it (fibre cords: by fabric only)."""

    fabric = django_filters.ChoiceFilter(choices=Fabric.choices, method="filter_fabric",
                                         label="Qualified for Ethernet or InfiniBand")

    def filter_fabric(self, queryset, name, value):
        # The JSON text holds each fabric quoted: '"infiniband"' never matches inside another word.
        return queryset.filter(fabrics__icontains=f'"{value}"')


class VendorQualifiedFilterSet(QualifiedPartFilterSet):
    qualified_for = django_filters.CharFilter(method="filter_qualified_for",
                                              label="Made by this switch vendor or declared compatible with it")

    def filter_qualified_for(self, queryset, name, value):
        text = value.strip().replace('"', "")
        return queryset.filter(Q(manufacturer__name__iexact=text) | Q(compatible_vendors__icontains=f'"{text}"'))


class TransceiverFilterSet(VendorQualifiedFilterSet):
    form_factor = django_filters.ChoiceFilter(choices=FormFactor.choices)
    media = django_filters.ChoiceFilter(choices=OpticMedia.choices)
    fiber = django_filters.ChoiceFilter(choices=Fiber.choices)
    connector = django_filters.CharFilter(lookup_expr="icontains")
    reach_min = django_filters.NumberFilter(field_name="reach_m", lookup_expr="gte")
    reach_max = django_filters.NumberFilter(field_name="reach_m", lookup_expr="lte")

    class Meta:
        model = Transceiver
        fields = ["gbps", "port_gbps", "ports"]


class CableFilterSet(VendorQualifiedFilterSet):
    media = django_filters.ChoiceFilter(choices=CableMedia.choices)
    form_factor_a = django_filters.ChoiceFilter(choices=FormFactor.choices)
    form_factor_b = django_filters.ChoiceFilter(choices=FormFactor.choices)
    length_min = django_filters.NumberFilter(field_name="length_m", lookup_expr="gte")
    length_max = django_filters.NumberFilter(field_name="length_m", lookup_expr="lte")

    class Meta:
        model = Cable
        fields = ["gbps", "leg_gbps", "legs"]


class FiberCordFilterSet(QualifiedPartFilterSet):
    fiber = django_filters.ChoiceFilter(choices=Fiber.choices)
    connector = django_filters.CharFilter(lookup_expr="iexact")
    length_min = django_filters.NumberFilter(field_name="length_m", lookup_expr="gte")
    length_max = django_filters.NumberFilter(field_name="length_m", lookup_expr="lte")

    class Meta:
        model = FiberCord
        fields = []


class PatchPanelFilterSet(CatalogItemFilterSet):
    connector = django_filters.ChoiceFilter(choices=PanelConnector.choices)
    fiber = django_filters.ChoiceFilter(choices=Fiber.choices)

    class Meta:
        model = PatchPanel
        fields = ["ports", "rack_units"]
