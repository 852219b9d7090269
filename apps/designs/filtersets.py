"""Filters for a version's devices, links and ports (API query parameters).

`device` filters by exact device name: on links it matches either end, on ports the port's
device. Numbers (pod, rail, plane, ...) are 0-based as the engine numbers them.
"""
from __future__ import annotations

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .models import DesignVersion, DeviceRecord, LinkRecord, PortRecord, Role, Tier


class DeviceFilterSet(django_filters.FilterSet):
    role = django_filters.MultipleChoiceFilter(choices=Role.choices, help_text=_("server, leaf, spine or core"))
    plane = django_filters.NumberFilter()
    pod = django_filters.NumberFilter()
    su = django_filters.NumberFilter(help_text=_("scale unit"))
    rail = django_filters.NumberFilter()
    group = django_filters.NumberFilter()
    row = django_filters.NumberFilter()
    rack = django_filters.CharFilter()
    name = django_filters.CharFilter(lookup_expr="icontains", help_text=_("part of the device name"))
    device = django_filters.CharFilter(field_name="name", help_text=_("exact device name"))
    sku = django_filters.CharFilter()

    class Meta:
        model = DeviceRecord
        fields = ["role", "plane", "pod", "su", "rail", "group", "row", "rack", "name", "device", "sku"]


class VersionRecordFilterSet(django_filters.FilterSet):
    """A filterset over one version's rows; `version` resolves device names to that version's ids."""

    def __init__(self, *args, version: DesignVersion | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.version = version

    def _device_ids(self, name: str) -> list[int]:
        # Resolved to ids first so each end's foreign-key index answers the OR.
        devices = DeviceRecord.objects.filter(name=name)
        if self.version is not None:
            devices = devices.filter(version=self.version)
        return list(devices.values_list("pk", flat=True)[:1000])


class LinkFilterSet(VersionRecordFilterSet):
    tier = django_filters.TypedMultipleChoiceFilter(
        choices=Tier.choices, coerce=int, help_text=_("0 server-leaf, 1 leaf-spine, 2 spine-core")
    )
    plane = django_filters.NumberFilter()
    rail = django_filters.NumberFilter()
    pod = django_filters.NumberFilter()
    device = django_filters.CharFilter(method="filter_device", help_text=_("device name at either end"))
    medium = django_filters.CharFilter(method="filter_medium", help_text=_("medium key or kind (DAC, AEC, SR, ...)"))
    medium_kind = django_filters.CharFilter()
    fiber = django_filters.CharFilter()

    class Meta:
        model = LinkRecord
        fields = ["tier", "plane", "rail", "pod", "device", "medium", "medium_kind", "fiber"]

    def filter_device(self, queryset, name, value):
        ids = self._device_ids(value)
        return queryset.filter(Q(a_device_id__in=ids) | Q(b_device_id__in=ids))

    def filter_medium(self, queryset, name, value):
        return queryset.filter(Q(medium=value) | Q(medium_kind__iexact=value))


class PortFilterSet(VersionRecordFilterSet):
    device = django_filters.CharFilter(method="filter_device", help_text=_("exact device name"))
    role = django_filters.MultipleChoiceFilter(
        field_name="device__role", choices=Role.choices, help_text=_("role of the port's device")
    )
    speed_gbps = django_filters.NumberFilter()
    name = django_filters.CharFilter(help_text=_("exact port name, e.g. Ethernet8 or eth3"))

    class Meta:
        model = PortRecord
        fields = ["device", "role", "speed_gbps", "name"]

    def filter_device(self, queryset, name, value):
        return queryset.filter(device_id__in=self._device_ids(value))
