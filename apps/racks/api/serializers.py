"""Serializers of a version's hall, racks and rack contents (read-only)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.designs.missing import parts_list
from apps.racks.models import Hall, Rack, RackItem


class MissingPartsField(serializers.Field):
    """The parts without a published power figure, as a list: the power figures beside it leave them out."""

    def __init__(self, **kwargs):
        kwargs.setdefault("read_only", True)
        kwargs.setdefault("help_text", "parts without a published power figure, left out of the power figures "
                                       "(so they are a lower bound); [] when every figure is known")
        super().__init__(**kwargs)

    def to_representation(self, value) -> list[str]:
        return parts_list(value)


@extend_schema_field({"type": "array", "items": {"type": "string"}})
class _Parts(MissingPartsField):
    pass


class RackItemSerializer(serializers.ModelSerializer):
    power_missing = _Parts()
    device = serializers.IntegerField(source="device_id", allow_null=True,
                                      help_text="the device's id (GET /api/versions/{id}/devices/); null for a "
                                                "patch panel or cable manager")

    class Meta:
        model = RackItem
        fields = ["kind", "name", "role", "network", "device", "sku", "model", "u", "u_height", "face", "full_depth",
                  "power_typical_w", "power_max_w", "power_missing"]
        read_only_fields = fields


class RackSerializer(serializers.ModelSerializer):
    power_missing = _Parts()
    over_budget = serializers.SerializerMethodField(help_text="draw above the budget on the hall's power basis")

    class Meta:
        model = Rack
        fields = ["id", "name", "kind", "zone", "row", "position", "x_m", "y_m", "u_height", "used_u",
                  "power_typical_w", "power_max_w", "power_missing", "budget_w", "over_budget", "cooling", "pod", "su",
                  "items"]
        read_only_fields = fields

    def get_over_budget(self, rack: Rack) -> bool:
        basis = self.context.get("basis", "typical")
        power = rack.power_max_w if basis == "maximum" else rack.power_typical_w
        return bool(rack.budget_w) and power > rack.budget_w + 1e-6


class RackDetailSerializer(RackSerializer):
    contents = serializers.SerializerMethodField(help_text="what the rack holds, bottom to top")

    class Meta(RackSerializer.Meta):
        fields = RackSerializer.Meta.fields + ["contents"]
        read_only_fields = fields

    @extend_schema_field(RackItemSerializer(many=True))
    def get_contents(self, rack: Rack) -> list[dict]:
        return RackItemSerializer(rack.contents.order_by("u", "face", "pk"), many=True).data


class ZoneSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="compute, network or storage")
    rows = serializers.ListField(child=serializers.IntegerField(), help_text="first and last row, 0-based")


class CellSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text="0-based")
    position = serializers.IntegerField(help_text="0-based")


class HallSerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(source="version_id")
    reserved = CellSerializer(many=True, read_only=True)
    zones = ZoneSerializer(many=True, read_only=True)
    width_m = serializers.FloatField(read_only=True)
    depth_m = serializers.FloatField(read_only=True)
    racks_by_kind = serializers.SerializerMethodField()
    racks_over_budget = serializers.SerializerMethodField()
    power_missing = _Parts()

    class Meta:
        model = Hall
        fields = ["version", "rows", "positions", "rack_width_m", "row_pitch_m", "width_m", "depth_m", "rack_units",
                  "budget_w", "power_basis", "cooling", "structured_cabling", "reserved", "zones", "racks",
                  "racks_by_kind", "racks_over_budget", "power_typical_w", "power_max_w", "power_missing"]
        read_only_fields = fields

    def get_racks_by_kind(self, hall: Hall) -> dict[str, int]:
        return self.context.get("racks_by_kind", {})

    def get_racks_over_budget(self, hall: Hall) -> int:
        return int(self.context.get("racks_over_budget", 0))
