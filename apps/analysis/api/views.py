"""REST endpoints of a version's RoCE review, configs and traffic analyses. Thin: selectors read, services write.

Visibility is the version's: a non-member gets 404 on every method of every URL (the version is
resolved in initial(), before the handler). A version that is not generated yet answers 409, and so does every
endpoint here for an InfiniBand version, with {"fabric": ["Not applicable on InfiniBand: ..."]}: it has
no RoCE settings or configs (credit-based flow control) and no ECMP hashing (subnet-manager routing).
Traffic: GET gives the stored report; POST runs another analysis, inline (201) for designs up
to SYNC_MAX_GPUS GPUs at the default sample size, else queued for a worker (202: poll
GET /api/versions/{id}/traffic/{analysis_id}/ until its status is succeeded or failed).
"""
from __future__ import annotations

from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response

from apps.analysis.api.serializers import (
    RoceReviewSerializer,
    TrafficAnalysisSerializer,
    TrafficRequestSerializer,
    VersionTrafficSerializer,
)
from apps.analysis.configs import configs_zip_stream, device_config, zip_name
from apps.analysis.selectors import (
    roce_review_get,
    roce_settings_for_version,
    traffic_analysis_default,
    traffic_analysis_get,
    traffic_analysis_list,
    version_plan,
)
from apps.analysis.services import SYNC_MAX_GPUS, traffic_analysis_request
from apps.designs.api.views import VersionScopedMixin
from apps.designs.engine_text import spec_error_messages
from apps.designs.fabric_text import roce_not_applicable, traffic_not_applicable
from apps.designs.services.roce_input import roce_defaults
from apps.engine.spec import SpecError


class VersionNotReady(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The version is not generated yet."
    default_code = "not_ready"


class NotApplicable(APIException):
    """409 with {"fabric": [why]}: RoCE and ECMP sections of an InfiniBand design."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "Not applicable on InfiniBand."
    default_code = "not_applicable"


NOT_READY_OR_INFINIBAND = OpenApiResponse(description=(
    "not generated yet; or an InfiniBand design, which has no RoCE settings, configs or ECMP analysis "
    '(credit-based flow control, subnet-manager routing): body {"fabric": ["Not applicable on InfiniBand: ..."]}'))


class ReadyVersionMixin(VersionScopedMixin):
    # Ethernet-only sections answer 409 {"fabric": [...]} for an InfiniBand version.
    not_applicable_on_infiniband = staticmethod(roce_not_applicable)

    def perform_content_negotiation(self, request, force=False):
        # Files are not rendered by DRF: a client asking only for application/zip must not get 406.
        return super().perform_content_negotiation(request, force=True)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False) and not self.version.is_ready:
            raise VersionNotReady(_("The version is not generated yet."))
        if not getattr(self, "swagger_fake_view", False) and self.version.is_infiniband:
            raise NotApplicable({"fabric": [self.not_applicable_on_infiniband()]})


class PlanUnavailable(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The engine cannot rebuild this version from its stored spec."
    default_code = "plan_unavailable"


def _plan_and_settings(version):
    """The version's Plan and RoCE settings, or 409 when an old stored spec no longer plans."""
    try:
        return version_plan(version=version), roce_settings_for_version(version=version)
    except SpecError as exc:
        raise PlanUnavailable(_("The engine cannot rebuild this version from its stored spec: %(error)s")
                              % {"error": "; ".join(f"{path}: {' '.join(texts)}"
                                                    for path, texts in spec_error_messages(exc).items())}) from None


def configs_zip_name(version) -> str:
    return f"{slugify(version.design.name) or 'design'}-v{version.number}-roce-configs"


def roce_review_payload(*, version, request=None) -> dict:
    review = roce_review_get(version=version)
    zip_url = reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk})
    device_url = reverse("api-version-roce-device-config", kwargs={"pk": version.pk, "device_name": "DEVICE"})
    return {
        "version": version.pk,
        "stored": review.stored,
        "settings": review.settings,
        "changes": review.changes,
        "defaults": roce_defaults(),
        "counts": {s: review.count(s) for s in ("error", "warning", "ok")},
        "findings": review.findings,
        "headroom": review.headroom,
        "error": review.error,
        "configs_zip": zip_url,
        "device_config": device_url.replace("DEVICE", "{device}"),
        "_review": review,
    }


@extend_schema(
    summary="A version's RoCE settings (defaults filled in), checklist findings and PFC headroom per link class",
    responses={200: RoceReviewSerializer, 409: NOT_READY_OR_INFINIBAND},
    tags=["roce"],
)
class VersionRoceView(ReadyVersionMixin, generics.GenericAPIView):
    serializer_class = RoceReviewSerializer

    def get(self, request, *args, **kwargs):
        payload = roce_review_payload(version=self.version)
        review = payload.pop("_review")
        context = {**self.get_serializer_context(), "review_context": review.review_context}
        return Response(RoceReviewSerializer(payload, context=context).data)


@extend_schema(
    summary="Every device's RoCE config in one zip, streamed (SONiC config_db fragments, NIC scripts)",
    responses={(200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY), 409: NOT_READY_OR_INFINIBAND},
    tags=["roce"],
)
class VersionRoceConfigsZipView(ReadyVersionMixin, generics.GenericAPIView):
    def get(self, request, *args, **kwargs):
        version = self.version
        plan, settings = _plan_and_settings(version)
        root = configs_zip_name(version)
        title = _("RoCE configuration of %(design)s v%(number)s") % {"design": version.design.name,
                                                                      "number": version.number}
        stream = configs_zip_stream(plan=plan, settings=settings, root=root, title=title,
                                    when=version.generated_at)
        response = StreamingHttpResponse(stream, content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="{root}.zip"'
        response["Cache-Control"] = "private, no-store"
        return response


@extend_schema(
    summary="One device's RoCE config: a SONiC config_db.json fragment (switch) or an mlnx_qos script (server)",
    parameters=[OpenApiParameter("device_name", str, OpenApiParameter.PATH, description="device name"),
                OpenApiParameter("file", str, OpenApiParameter.QUERY, enum=["sonic", "nos"],
                                 description="sonic (default): the SONiC config_db; nos: the switch vendor's own "
                                             "NOS file (NVUE for NVIDIA, EOS for Arista), 404 when it has none")],
    responses={(200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT),
               (200, "text/x-shellscript"): OpenApiResponse(OpenApiTypes.STR),
               404: OpenApiResponse(description="no such device"), 409: NOT_READY_OR_INFINIBAND},
    tags=["roce"],
)
class VersionRoceDeviceConfigView(ReadyVersionMixin, generics.GenericAPIView):
    def get(self, request, *args, **kwargs):
        version = self.version
        plan, settings = _plan_and_settings(version)
        which = request.query_params.get("file", "sonic")
        if which not in ("sonic", "nos"):
            raise ValidationError({"file": [_("Choose one of: sonic, nos.")]})
        found = device_config(plan=plan, settings=settings, name=self.kwargs["device_name"], nos=which == "nos")
        if found is None:
            raise Http404(_("No such device in this design version, or no file of that kind for it."))
        name, text = found
        content_type = ("application/json" if name.endswith(".json") else
                        "text/x-shellscript" if name.endswith(".sh") else "text/plain")
        response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{name.rsplit("/", 1)[-1]}"'
        response["X-Config-Path"] = zip_name(name)  # where the file is in the configs zip
        return response


@extend_schema_view(
    get=extend_schema(
        summary="A version's stored traffic analysis (ring All-Reduce and All-to-All, ECMP vs hash-aware) "
                "and the list of its analyses",
        responses={200: VersionTrafficSerializer, 409: NOT_READY_OR_INFINIBAND},
        tags=["traffic"],
    ),
    post=extend_schema(
        summary="Run another traffic analysis (other seed, sample size or collective)",
        description=f"Designs up to {SYNC_MAX_GPUS:,} GPUs with at most 1,000,000 flows are analysed in the "
                    "request (201 with the report); larger ones are queued for a worker (202: poll "
                    "GET /api/versions/{id}/traffic/{analysis_id}/). Bad values answer 400 on the field.",
        request=TrafficRequestSerializer,
        responses={201: TrafficAnalysisSerializer, 202: TrafficAnalysisSerializer,
                   409: NOT_READY_OR_INFINIBAND},
        tags=["traffic"],
    ),
)
class VersionTrafficView(ReadyVersionMixin, generics.GenericAPIView):
    serializer_class = VersionTrafficSerializer
    not_applicable_on_infiniband = staticmethod(traffic_not_applicable)

    def get(self, request, *args, **kwargs):
        version = self.version
        data = {"version": version.pk, "analysis": traffic_analysis_default(version=version),
                "analyses": list(traffic_analysis_list(version=version)[:50])}
        return Response(VersionTrafficSerializer(data).data)

    def post(self, request, *args, **kwargs):
        raw = request.data
        data = {key: raw.get(key) for key in raw} if hasattr(raw, "getlist") else dict(raw or {})
        analysis = traffic_analysis_request(version=self.version, user=request.user, data=data)
        code = status.HTTP_202_ACCEPTED if not analysis.is_finished else status.HTTP_201_CREATED
        response = Response(TrafficAnalysisSerializer(analysis).data, status=code)
        response["Location"] = reverse("api-version-traffic-detail",
                                       kwargs={"pk": self.version.pk, "analysis_pk": analysis.pk})
        return response


class VersionTrafficDetailView(VersionScopedMixin, generics.GenericAPIView):
    serializer_class = TrafficAnalysisSerializer

    @extend_schema(
        summary="One traffic analysis of a version (poll a queued one until succeeded or failed)",
        operation_id="versions_traffic_analysis_retrieve",
        responses={200: TrafficAnalysisSerializer},
        tags=["traffic"],
    )
    def get(self, request, *args, **kwargs):
        analysis = traffic_analysis_get(version=self.version, pk=self.kwargs["analysis_pk"])
        return Response(TrafficAnalysisSerializer(analysis).data)
