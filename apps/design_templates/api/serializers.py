from __future__ import annotations

from rest_framework import serializers

from fabricweb.validators import DESCRIPTION_MAX_LENGTH

from ..models import DesignTemplate


class DesignTemplateSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="display_name", read_only=True)
    description = serializers.CharField(source="display_description", read_only=True)
    leaves_out = serializers.CharField(source="display_leaves_out", read_only=True)
    reference = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    source_version = serializers.IntegerField(source="source_version_id", read_only=True, allow_null=True)

    class Meta:
        model = DesignTemplate
        fields = ["slug", "name", "description", "reference", "leaves_out", "inputs", "published_counts", "origin",
                  "source_version", "created_by", "created_at"]
        read_only_fields = fields

    def get_reference(self, template) -> dict[str, str]:
        return {"title": template.reference_title, "url": template.reference_url}


class DesignTemplateCreateSerializer(serializers.Serializer):
    """Staff save a design version (by id, one of a project they are a member of) as a template."""

    version = serializers.IntegerField(min_value=1)
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True, default="", max_length=DESCRIPTION_MAX_LENGTH)
    leaves_out = serializers.CharField(required=False, allow_blank=True, default="", max_length=4000)
    reference_title = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)
    reference_url = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class DesignFromTemplateSerializer(serializers.Serializer):
    template = serializers.SlugField(max_length=80, help_text="the template's slug")
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True, default="", max_length=DESCRIPTION_MAX_LENGTH)
    changes = serializers.DictField(required=False, default=dict,
                                    help_text="inputs to set on top of the template's, as POST /api/projects/{id}/"
                                              "designs/ takes them (catalog items by id)")
