"""Inventory REST endpoints of a version (visible through the user's projects; 404 otherwise).

GET  versions/<pk>/inventory/          won or not, link status counts, the devices with stored serials/tags/status
POST versions/<pk>/inventory/won/      mark an approved version won (201; 200 when it already is; 400 otherwise)
POST versions/<pk>/inventory/import/   multipart "file" (CSV or .xlsx): 200 {"updated": n}, or 400 {"file": ["Row R,
                                       column C: ..."]} with nothing imported
POST versions/<pk>/inventory/links/    {"links": ["link:<id>", ...], "status": "planned" | "installed"}
GET  versions/<pk>/precheck/           host pre-check: hosts reported, deviations (from the majority or the design)
POST versions/<pk>/precheck/           multipart "files": host reports (201), or 400 {"files": [...]} naming file and line
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from apps.designs.models.records import ID_SHIFT

from ..inventory import handover_get, handover_mark_won, inventory_import, link_status_counts, links_mark
from ..models import DeviceInventory
from ..precheck import precheck_deviations, precheck_upload
from ..text import deviation_rows
from .views import ReadyMixin


class DeviceInventorySerializer(serializers.ModelSerializer):
    class Meta:
        model = DeviceInventory
        fields = ["name", "serial", "asset_tag", "status", "updated_at"]


class InventorySerializer(serializers.Serializer):
    won = serializers.BooleanField()
    won_at = serializers.DateTimeField(allow_null=True)
    link_status = serializers.DictField(child=serializers.IntegerField())
    devices = DeviceInventorySerializer(many=True)


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField()


class LinksMarkSerializer(serializers.Serializer):
    links = serializers.ListField(child=serializers.CharField(), max_length=200_000,
                                  help_text='link keys as the topology and link-states give them: "link:<id>"')
    status = serializers.ChoiceField(choices=["planned", "installed"])


def _errors(exc: ValidationError) -> dict:
    return exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}


@extend_schema(summary="A version's inventory: won, link statuses, devices with serials and asset tags",
               responses={200: InventorySerializer}, tags=["handover"])
class VersionInventoryView(ReadyMixin, generics.GenericAPIView):
    serializer_class = InventorySerializer

    def get(self, request, *args, **kwargs):
        handover = handover_get(version=self.version)
        devices = DeviceInventory.objects.filter(handover=handover) if handover else DeviceInventory.objects.none()
        return Response(InventorySerializer({
            "won": handover is not None, "won_at": handover.won_at if handover else None,
            "link_status": link_status_counts(handover) if handover else {}, "devices": devices,
        }).data)


@extend_schema(summary="Mark an approved version won", request=None, responses={201: InventorySerializer},
               tags=["handover"])
class VersionInventoryWonView(ReadyMixin, generics.GenericAPIView):
    serializer_class = InventorySerializer

    def post(self, request, *args, **kwargs):
        existed = handover_get(version=self.version) is not None
        try:
            handover = handover_mark_won(version=self.version, user=request.user)
        except ValidationError as exc:
            return Response(_errors(exc), status=status.HTTP_400_BAD_REQUEST)
        return Response(InventorySerializer({"won": True, "won_at": handover.won_at,
                                             "link_status": link_status_counts(handover), "devices": []}).data,
                        status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED)


@extend_schema(summary="Import serial numbers, asset tags and statuses from CSV or Excel",
               request={"multipart/form-data": ImportSerializer}, tags=["handover"])
class VersionInventoryImportView(ReadyMixin, generics.GenericAPIView):
    serializer_class = ImportSerializer
    parser_classes = [MultiPartParser, FormParser]

    def post(self, request, *args, **kwargs):
        upload = request.FILES.get("file")
        if upload is None:
            return Response({"file": [_("Choose a CSV or Excel file.")]}, status=status.HTTP_400_BAD_REQUEST)
        try:
            count = inventory_import(version=self.version, name=upload.name, data=upload.read())
        except ValidationError as exc:
            return Response(_errors(exc), status=status.HTTP_400_BAD_REQUEST)
        return Response({"updated": count})


@extend_schema(summary="Set links planned or installed by hand", request=LinksMarkSerializer, tags=["handover"])
class VersionInventoryLinksView(ReadyMixin, generics.GenericAPIView):
    serializer_class = LinksMarkSerializer

    def post(self, request, *args, **kwargs):
        data = LinksMarkSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        base = self.version.pk << ID_SHIFT
        indexes = []
        for key in data.validated_data["links"]:
            raw = key.removeprefix("link:")
            if not (raw.isascii() and raw.isdigit()) or not base <= int(raw) < base + (1 << ID_SHIFT):
                return Response({"links": [_("%(key)s is not a link of this version") % {"key": key}]},
                                status=status.HTTP_400_BAD_REQUEST)
            indexes.append(int(raw) - base)
        try:
            count = links_mark(version=self.version, indexes=indexes, status=data.validated_data["status"])
        except ValidationError as exc:
            return Response(_errors(exc), status=status.HTTP_400_BAD_REQUEST)
        return Response({"updated": count})


class DeviationSerializer(serializers.Serializer):
    host = serializers.CharField()
    port = serializers.CharField(allow_blank=True)
    field = serializers.CharField()
    value = serializers.CharField()
    expected = serializers.CharField()
    against = serializers.CharField()


class PrecheckSerializer(serializers.Serializer):
    hosts = serializers.IntegerField()
    deviations = DeviationSerializer(many=True)


class PrecheckUploadSerializer(serializers.Serializer):
    files = serializers.ListField(child=serializers.FileField())


def _precheck_payload(version) -> dict:
    hosts, deviations = precheck_deviations(version=version)
    return {"hosts": hosts, "deviations": deviation_rows(deviations)}


@extend_schema(summary="Host pre-check: hosts reported and those that differ from the majority or the design",
               responses={200: PrecheckSerializer}, tags=["handover"])
class VersionPrecheckView(ReadyMixin, generics.GenericAPIView):
    serializer_class = PrecheckSerializer
    parser_classes = [MultiPartParser, FormParser]

    def get(self, request, *args, **kwargs):
        return Response(PrecheckSerializer(_precheck_payload(self.version)).data)

    @extend_schema(request={"multipart/form-data": PrecheckUploadSerializer}, responses={201: PrecheckSerializer})
    def post(self, request, *args, **kwargs):
        try:
            precheck_upload(version=self.version, uploads=request.FILES.getlist("files"))
        except ValidationError as exc:
            return Response(_errors(exc), status=status.HTTP_400_BAD_REQUEST)
        return Response(PrecheckSerializer(_precheck_payload(self.version)).data, status=status.HTTP_201_CREATED)
