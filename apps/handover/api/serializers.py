"""As-built check payloads: a check's summary, its findings (fixes in the user's language), the link states."""
from __future__ import annotations

from rest_framework import serializers

from ..text import fix_text, kind_label, state_label


class AsBuiltCheckSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField(source="version_id")
    created_at = serializers.DateTimeField()
    file_names = serializers.ListField(child=serializers.CharField())
    size_bytes = serializers.IntegerField()
    dumped_devices = serializers.IntegerField()
    planned = serializers.IntegerField()
    ok = serializers.IntegerField()
    miswired = serializers.IntegerField()
    missing = serializers.IntegerField()
    unverified = serializers.IntegerField()
    unexpected = serializers.IntegerField()
    verified_pct = serializers.FloatField()


class AsBuiltFindingSerializer(serializers.Serializer):
    state = serializers.CharField()
    state_label = serializers.SerializerMethodField()
    kind = serializers.CharField()
    kind_label = serializers.SerializerMethodField()
    link = serializers.IntegerField(help_text="planned link index, -1 for an unexpected cable")
    other_link = serializers.IntegerField(help_text="the other link of a swap, else -1")
    a = serializers.CharField()
    b = serializers.CharField()
    rack = serializers.CharField()
    plane = serializers.IntegerField()
    rail = serializers.IntegerField()
    seen = serializers.ListField(child=serializers.CharField())
    code = serializers.CharField()
    params = serializers.DictField()
    fix = serializers.SerializerMethodField()

    def get_state_label(self, obj) -> str:
        return state_label(obj["state"])

    def get_kind_label(self, obj) -> str:
        return kind_label(obj["kind"])

    def get_fix(self, obj) -> str:
        return fix_text(obj)


class AsBuiltCheckDetailSerializer(AsBuiltCheckSerializer):
    findings = AsBuiltFindingSerializer(many=True)
    notes = serializers.SerializerMethodField()

    def get_notes(self, obj) -> list[str]:
        return [fix_text(n) for n in obj.notes]


class AsBuiltUploadSerializer(serializers.Serializer):
    files = serializers.ListField(child=serializers.FileField(), help_text=(
        "SONiC `show lldp table` files and `lldpcli show neighbors -f json` files (one per device, named after it), "
        "ibnetdiscover output, or one zip of them"))


class LinkStateSerializer(serializers.Serializer):
    state = serializers.CharField()
    fix = serializers.CharField(allow_blank=True)


class LinkStatesSerializer(serializers.Serializer):
    check = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField(allow_null=True)
    verified_pct = serializers.FloatField(allow_null=True)
    counts = serializers.DictField(child=serializers.IntegerField())
    links = serializers.DictField(child=LinkStateSerializer(), help_text=(
        'keyed like the topology API\'s single-link edges: "link:<link id>"'))
