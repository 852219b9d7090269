"""API shapes of export files: the job's progress and, once written, where to download the file."""
from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from apps.designs.job_text import job_error, job_stage_label
from apps.designs.models import Job
from apps.exports.kinds import KIND_CHOICES
from apps.exports.models import ExportFile
from apps.exports.selectors import export_download_name


class ExportCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=KIND_CHOICES, default=ExportFile.Kind.XLSX,
        help_text="xlsx: the procurement workbook; netbox: a zip of NetBox bulk-import CSV files; pdf / docx: "
                  "the design document (PDF, editable Word file)",
    )
    language = serializers.ChoiceField(
        choices=settings.LANGUAGES, required=False,
        help_text="the file's language (default: the request's language)",
    )
    prefix = serializers.CharField(
        required=False, allow_blank=True, max_length=100,
        help_text="netbox only: the name prefix of the design's devices, location and VRF (default: the design's "
                  "name); letters, digits, '-', '_', '.', at most 20 characters",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The kinds registered by now (apps fill the registry in ready(), after this class is defined).
        self.fields["kind"].choices = list(KIND_CHOICES)


class ExportSerializer(serializers.ModelSerializer):
    job = serializers.IntegerField(source="job_id", read_only=True)
    version = serializers.IntegerField(source="version_id", read_only=True)
    status = serializers.ChoiceField(source="job.status", choices=Job.Status.choices, read_only=True)
    stage = serializers.CharField(source="job.stage", read_only=True, help_text="stable stage key")
    stage_label = serializers.SerializerMethodField(help_text="the stage in the requester's language")
    percent = serializers.IntegerField(source="job.percent", read_only=True)
    error = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="job.created_by.username", read_only=True, default=None)
    finished_at = serializers.DateTimeField(source="job.finished_at", read_only=True)
    filename = serializers.SerializerMethodField()
    download_url = serializers.SerializerMethodField()

    class Meta:
        model = ExportFile
        fields = ["id", "kind", "language", "version", "job", "status", "stage", "stage_label", "percent", "error", "filename",
                  "size", "download_url", "created_by", "created", "finished_at"]
        read_only_fields = fields

    def get_stage_label(self, export: ExportFile) -> str:
        return job_stage_label(export.job)

    def get_error(self, export: ExportFile) -> str:
        return job_error(export.job)

    def get_filename(self, export: ExportFile) -> str:
        return export_download_name(export=export)

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_download_url(self, export: ExportFile) -> str | None:
        if not export.is_ready:
            return None
        return reverse("api-export-download", kwargs={"pk": export.pk}, request=self.context.get("request"))
