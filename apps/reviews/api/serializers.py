"""Serializers of the review API. Thin: validation of meaning lives in the services."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..models import AnchorType, AuditEvent, Comment, ReviewAction, ReviewEvent, ReviewRequestAction, ReviewState
from ..services.audit import user_label, version_label


class CommentSerializer(serializers.ModelSerializer):
    author = serializers.SerializerMethodField()
    mentions = serializers.SerializerMethodField()

    class Meta:
        model = Comment
        fields = ["id", "version", "author", "body", "anchor_type", "anchor_ref", "mentions", "created_at",
                  "edited_at"]
        read_only_fields = fields

    def get_author(self, comment: Comment) -> str:
        return user_label(comment.author)

    def get_mentions(self, comment: Comment) -> list[str]:
        return sorted(user.get_username() for user in comment.mentions.all())


class CommentWriteSerializer(serializers.Serializer):
    """Create: body required, anchor optional. Update (PATCH): any of them."""

    body = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                 help_text="Text; @username mentions a project member.")
    anchor_type = serializers.ChoiceField(choices=AnchorType.choices, required=False)
    anchor_ref = serializers.CharField(required=False, allow_blank=True,
                                       help_text="Device name, pod as plane:pod (e.g. 0:1) or BOM line SKU.")


class ReviewEventSerializer(serializers.ModelSerializer):
    actor = serializers.SerializerMethodField()

    class Meta:
        model = ReviewEvent
        fields = ["action", "from_state", "to_state", "actor", "note", "at"]

    def get_actor(self, event: ReviewEvent) -> str:
        return user_label(event.actor)


class ReviewSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    label = serializers.CharField()
    state = serializers.ChoiceField(choices=ReviewState.choices)
    state_label = serializers.CharField()
    locked = serializers.BooleanField()
    changed_by = serializers.CharField(allow_blank=True)
    changed_at = serializers.DateTimeField(allow_null=True)
    submitted_by = serializers.CharField(allow_blank=True, help_text="Who last submitted the version for review.")
    two_people = serializers.BooleanField(help_text="The project's approver may not be the submitter.")
    actions = serializers.ListField(child=serializers.ChoiceField(choices=ReviewAction.choices),
                                    help_text="What the requesting user may do now.")
    history = ReviewEventSerializer(many=True)


class ReviewActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=ReviewRequestAction.choices)
    note = serializers.CharField(required=False, allow_blank=True, default="")
    supersede = serializers.BooleanField(
        required=False, default=False,
        help_text="Approve even though another version of the design is approved; that one becomes superseded.",
    )


class AuditEventSerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor_name")
    action_label = serializers.CharField(source="get_action_display")

    class Meta:
        model = AuditEvent
        fields = ["id", "at", "actor", "action", "action_label", "target", "design", "version", "data"]
        read_only_fields = fields


class ApprovedVersionSerializer(serializers.Serializer):
    design = serializers.IntegerField(source="version.design_id")
    design_name = serializers.CharField(source="version.design.name")
    version = serializers.IntegerField(source="version_id")
    number = serializers.IntegerField(source="version.number")
    approved_by = serializers.SerializerMethodField()
    approved_at = serializers.DateTimeField(source="changed_at")
    total_cost = serializers.DecimalField(source="version.total_cost", max_digits=16, decimal_places=2)
    currency = serializers.CharField(source="version.currency")

    def get_approved_by(self, review) -> str:
        return user_label(review.changed_by)


# Diff ---------------------------------------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.STR)
class ExactNumberField(serializers.Field):
    """A count or an amount as an exact decimal string ("12", "-3450.00"); null when not comparable."""

    def to_representation(self, value: Any) -> str | None:
        if value is None:
            return None
        if isinstance(value, float):
            value = Decimal(str(value))
        return str(value)


class DiffQuerySerializer(serializers.Serializer):
    a = serializers.IntegerField(help_text="Id of version A (the base).")
    b = serializers.IntegerField(help_text="Id of version B (compared against A).")


class DiffVersionSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    label = serializers.SerializerMethodField()
    design = serializers.IntegerField(source="design_id")
    design_name = serializers.CharField(source="design.name")
    number = serializers.IntegerField()
    currency = serializers.CharField()

    def get_label(self, version) -> str:
        return version_label(version)


class InputChangeSerializer(serializers.Serializer):
    field = serializers.CharField()
    label = serializers.CharField()
    a = serializers.CharField()
    b = serializers.CharField()


class CountRowSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    a = ExactNumberField()
    b = ExactNumberField()
    delta = ExactNumberField()


class BomLineDiffSerializer(serializers.Serializer):
    sku = serializers.CharField()
    description = serializers.CharField()
    category = serializers.CharField()
    status = serializers.CharField(help_text="added, removed, changed (quantity or unit price) or same")
    qty_a = serializers.IntegerField()
    qty_b = serializers.IntegerField()
    qty_delta = serializers.IntegerField()
    unit_price_a = ExactNumberField()
    unit_price_b = ExactNumberField()
    total_a = ExactNumberField()
    total_b = ExactNumberField()
    total_delta = ExactNumberField()


class TotalRowSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    a = ExactNumberField()
    b = ExactNumberField()
    delta = ExactNumberField()
    unit = serializers.CharField()


class VersionDiffSerializer(serializers.Serializer):
    a = DiffVersionSerializer()
    b = DiffVersionSerializer()
    same_currency = serializers.BooleanField()
    inputs = InputChangeSerializer(many=True)
    figures = CountRowSerializer(many=True)
    switches = CountRowSerializer(many=True)
    links = CountRowSerializer(many=True)
    bom = BomLineDiffSerializer(many=True)
    bom_counts = serializers.DictField(child=serializers.IntegerField())
    totals = TotalRowSerializer(many=True)
