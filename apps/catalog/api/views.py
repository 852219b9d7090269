from django.db.models import ProtectedError, RestrictedError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from fabricweb.api import JSONParser

from .. import filtersets, selectors
from ..excel import XLSX_CONTENT_TYPE, catalog_export_workbook, catalog_import_workbook
from ..forms import UPLOAD_LIMIT
from ..netbox import NetboxSource, netbox_device_type_yaml, netbox_device_types_import
from ..services import CatalogImportError
from . import serializers as s
from .permissions import IsStaffOrReadOnly

ITEM_SEARCH = ["sku", "model", "description", "manufacturer__name"]
ITEM_ORDERING = ["sku", "model", "list_price", "manufacturer__name", "updated"]


class CatalogViewSet(viewsets.ModelViewSet):
    """Read for every signed-in user, write for staff; items in use are deactivated, not deleted."""

    permission_classes = [IsStaffOrReadOnly]

    def perform_destroy(self, instance):
        try:
            instance.delete()
        except (ProtectedError, RestrictedError):
            raise serializers.ValidationError({"non_field_errors": [
                _("%(item)s is in use; set it inactive instead of deleting it.") % {"item": instance}
            ]}) from None


@extend_schema(tags=["catalog"])
class ManufacturerViewSet(CatalogViewSet):
    queryset = selectors.manufacturer_list()
    serializer_class = s.ManufacturerSerializer
    filterset_class = filtersets.ManufacturerFilterSet
    search_fields = ["name", "slug"]
    ordering_fields = ["name", "slug"]


@extend_schema(tags=["catalog"])
class ExchangeRateViewSet(viewsets.ModelViewSet):
    """Rates that price a design in another currency than its parts' list prices; staff change them."""

    permission_classes = [IsStaffOrReadOnly]
    queryset = selectors.exchange_rate_list()
    serializer_class = s.ExchangeRateSerializer
    filterset_fields = ["from_currency", "to_currency", "rate_is_example"]
    ordering_fields = ["from_currency", "to_currency", "updated"]


@extend_schema(tags=["catalog"])
class SwitchModelViewSet(CatalogViewSet):
    queryset = selectors.switch_list()
    serializer_class = s.SwitchModelSerializer
    filterset_class = filtersets.SwitchModelFilterSet
    search_fields = ITEM_SEARCH + ["asic"]
    ordering_fields = ITEM_ORDERING + ["cage_gbps", "cages", "asic_tbps", "power_typical_w", "switch_class"]


@extend_schema(tags=["catalog"])
class PatchPanelViewSet(CatalogViewSet):
    queryset = selectors.patch_panel_list()
    serializer_class = s.PatchPanelSerializer
    filterset_class = filtersets.PatchPanelFilterSet
    search_fields = ITEM_SEARCH + ["connector"]
    ordering_fields = ITEM_ORDERING + ["ports", "rack_units"]


@extend_schema(tags=["catalog"])
class NicModelViewSet(CatalogViewSet):
    queryset = selectors.nic_list()
    serializer_class = s.NicModelSerializer
    filterset_class = filtersets.NicModelFilterSet
    search_fields = ITEM_SEARCH
    ordering_fields = ITEM_ORDERING + ["port_gbps", "ports"]


@extend_schema(tags=["catalog"])
class ServerModelViewSet(CatalogViewSet):
    queryset = selectors.server_list()
    serializer_class = s.ServerModelSerializer
    filterset_class = filtersets.ServerModelFilterSet
    search_fields = ITEM_SEARCH + ["gpu_model"]
    ordering_fields = ITEM_ORDERING + ["gpus", "backend_gbps", "power_w"]


@extend_schema(tags=["catalog"])
class TransceiverViewSet(CatalogViewSet):
    queryset = selectors.transceiver_list()
    serializer_class = s.TransceiverSerializer
    filterset_class = filtersets.TransceiverFilterSet
    search_fields = ITEM_SEARCH + ["connector"]
    ordering_fields = ITEM_ORDERING + ["gbps", "reach_m", "power_w"]


@extend_schema(tags=["catalog"])
class CableViewSet(CatalogViewSet):
    queryset = selectors.cable_list()
    serializer_class = s.CableSerializer
    filterset_class = filtersets.CableFilterSet
    search_fields = ITEM_SEARCH
    ordering_fields = ITEM_ORDERING + ["gbps", "length_m"]


@extend_schema(tags=["catalog"])
class FiberCordViewSet(CatalogViewSet):
    queryset = selectors.fiber_list()
    serializer_class = s.FiberCordSerializer
    filterset_class = filtersets.FiberCordFilterSet
    search_fields = ITEM_SEARCH + ["connector"]
    ordering_fields = ITEM_ORDERING + ["length_m"]


def _errors_response(exc: CatalogImportError) -> Response:
    return Response({"errors": [issue.as_dict() for issue in exc.issues]}, status=status.HTTP_400_BAD_REQUEST)


def _read_upload(upload, field: str) -> bytes:
    if upload.size > UPLOAD_LIMIT:
        raise serializers.ValidationError({field: [_("The file is larger than 20 MB.")]})
    return upload.read()


class CatalogExportView(APIView):
    """The whole catalog, one sheet per kind; edit it and POST it back to /api/catalog/import/."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=["catalog"],
        operation_id="catalog_export_xlsx",
        summary="Download the catalog as an Excel workbook",
        responses={(200, XLSX_CONTENT_TYPE): OpenApiTypes.BINARY},
    )
    def get(self, request):
        response = HttpResponse(catalog_export_workbook(), content_type=XLSX_CONTENT_TYPE)
        name = f"fabricweb-catalog-{timezone.now():%Y%m%d}.xlsx"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class CatalogImportView(APIView):
    """Upsert by SKU from an .xlsx workbook, all or nothing."""

    permission_classes = [permissions.IsAdminUser]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        tags=["catalog"],
        summary="Import an edited catalog workbook (staff)",
        request={"multipart/form-data": s.CatalogImportSerializer},
        responses={
            200: s.ImportResultSerializer,
            400: OpenApiResponse(s.ImportErrorSerializer, description="Every bad value by sheet, row and column; "
                                                                      "nothing was imported."),
        },
    )
    def post(self, request):
        form = s.CatalogImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = _read_upload(form.validated_data["file"], "file")
        try:
            result = catalog_import_workbook(data=data, user=request.user)
        except CatalogImportError as exc:
            return _errors_response(exc)
        return Response(s.ImportResultSerializer(result.as_dict()).data)


class NetboxImportView(APIView):
    """Files in multipart field `file` (repeatable), or YAML text in `yaml`; several documents per file allowed."""

    permission_classes = [permissions.IsAdminUser]
    parser_classes = [MultiPartParser, FormParser, JSONParser]  # JSONParser: nesting past the stack is a 400

    @extend_schema(
        tags=["catalog"],
        summary="Import switch models from NetBox device-type YAML (staff)",
        request={"multipart/form-data": s.NetboxImportSerializer, "application/json": s.NetboxImportSerializer},
        responses={
            200: s.NetboxImportResultSerializer,
            400: OpenApiResponse(s.ImportErrorSerializer, description="Problems by file (sheet), document (row) and "
                                                                      "YAML key (column); nothing was imported."),
        },
    )
    def post(self, request):
        data = request.data
        if hasattr(data, "getlist"):  # multipart: one or more files under "file"
            data = {"file": request.FILES.getlist("file"), "yaml": data.get("yaml", "")}
        form = s.NetboxImportSerializer(data=data)
        form.is_valid(raise_exception=True)
        sources = []
        for upload in form.validated_data.get("file") or []:
            text = _read_upload(upload, "file").decode("utf-8", errors="replace")
            sources.append(NetboxSource(upload.name, text))
        if (form.validated_data.get("yaml") or "").strip():
            sources.append(NetboxSource("yaml", form.validated_data["yaml"]))
        try:
            result = netbox_device_types_import(sources=sources, user=request.user)
        except CatalogImportError as exc:
            return _errors_response(exc)
        payload = result.as_dict() | {"switches": result.skus}
        return Response(s.NetboxImportResultSerializer(payload).data)


class SwitchNetboxExportView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        tags=["catalog"],
        operation_id="catalog_switches_netbox_yaml",
        summary="A switch model as NetBox device-type YAML",
        responses={(200, "application/yaml"): OpenApiTypes.OBJECT},  # one device-type mapping
    )
    def get(self, request, pk: int):
        switch = get_object_or_404(selectors.switch_list(), pk=pk)
        response = HttpResponse(netbox_device_type_yaml(switch=switch), content_type="application/yaml; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{switch.sku}.yaml"'
        return response

