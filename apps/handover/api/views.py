"""As-built REST endpoints of a version (visible through the user's projects; 404 otherwise).

GET  versions/<pk>/asbuilt/                  every check of the version (newest first)
POST versions/<pk>/asbuilt/                  multipart "files": run a check (201), or 400 {"files": [...]} naming
                                             file and line (nothing saved); 409 before the version is generated
GET  versions/<pk>/asbuilt/<check_pk>/       one check with its findings and fixes
GET  versions/<pk>/asbuilt/link-states/      the latest (or ?check=) check's link states keyed "link:<link id>"
                                             like the topology's single-link edges; ?states=miswired,missing (the
                                             default) or any of ok, miswired, missing, unverified, or "all"
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.exceptions import APIException
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from apps.designs.api.views import VersionScopedMixin
from apps.designs.models.records import record_id
from apps.engine.asbuilt import CODE_STATE, STATES

from ..selectors import asbuilt_check_get, asbuilt_check_latest, asbuilt_check_list
from ..services import asbuilt_check_create
from ..text import fix_text
from .serializers import (
    AsBuiltCheckDetailSerializer,
    AsBuiltCheckSerializer,
    AsBuiltUploadSerializer,
    LinkStatesSerializer,
)

DEFAULT_STATES = ("miswired", "missing")


class VersionNotReady(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The version is not generated yet."
    default_code = "not_ready"


class ReadyMixin(VersionScopedMixin):
    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False) and not self.version.is_ready:
            raise VersionNotReady(_("The version is not generated yet."))


@extend_schema_view(
    get=extend_schema(summary="A version's as-built checks, newest first", tags=["handover"]),
    post=extend_schema(summary="Check uploaded neighbour dumps against the planned links",
                       request={"multipart/form-data": AsBuiltUploadSerializer},
                       responses={201: AsBuiltCheckDetailSerializer}, tags=["handover"]),
)
class VersionAsBuiltListView(ReadyMixin, generics.ListAPIView):
    serializer_class = AsBuiltCheckSerializer
    parser_classes = [MultiPartParser, FormParser]
    filter_backends: list = []

    def get_queryset(self):
        return asbuilt_check_list(version=self.version)

    def post(self, request, *args, **kwargs):
        try:
            check = asbuilt_check_create(version=self.version, user=request.user,
                                         uploads=request.FILES.getlist("files"))
        except ValidationError as exc:
            detail = exc.message_dict if hasattr(exc, "error_dict") else {"files": exc.messages}
            return Response(detail, status=status.HTTP_400_BAD_REQUEST)
        return Response(AsBuiltCheckDetailSerializer(check).data, status=status.HTTP_201_CREATED)


@extend_schema(summary="One as-built check with its findings and fixes", tags=["handover"])
class VersionAsBuiltDetailView(ReadyMixin, generics.GenericAPIView):
    serializer_class = AsBuiltCheckDetailSerializer

    def get(self, request, *args, **kwargs):
        check = asbuilt_check_get(version=self.version, pk=self.kwargs["check_pk"])
        if check is None:
            raise Http404(_("No such as-built check."))
        return Response(AsBuiltCheckDetailSerializer(check).data)


def link_states_payload(*, version, check, states: tuple[str, ...]) -> dict:
    if check is None:
        return {"check": None, "created_at": None, "verified_pct": None, "counts": {}, "links": {}}
    fixes: dict[int, str] = {}
    for finding in check.findings:
        for link in (finding["link"], finding["other_link"]):
            if link >= 0:
                fixes.setdefault(link, fix_text(finding))
    wanted = {code for code, state in CODE_STATE.items() if state in states}
    links = {}
    for index, code in enumerate(check.states):
        if code in wanted:
            links[f"link:{record_id(version.pk, index)}"] = {"state": CODE_STATE[code], "fix": fixes.get(index, "")}
    return {"check": check.pk, "created_at": check.created_at, "verified_pct": check.verified_pct,
            "counts": {s: getattr(check, s) for s in (*STATES, "unexpected")}, "links": links}


@extend_schema(
    summary="Link states of the latest (or a chosen) as-built check, keyed like the topology's link edges",
    parameters=[
        OpenApiParameter("check", OpenApiTypes.INT, description="a check id; the latest by default"),
        OpenApiParameter("states", OpenApiTypes.STR, description='comma-separated states, or "all"; '
                                                                 "default miswired,missing"),
    ],
    responses={200: LinkStatesSerializer}, tags=["handover"],
)
class VersionAsBuiltLinkStatesView(ReadyMixin, generics.GenericAPIView):
    serializer_class = LinkStatesSerializer

    def get(self, request, *args, **kwargs):
        raw = request.query_params.get("states", "")
        states = STATES if raw == "all" else tuple(s for s in raw.split(",") if s) or DEFAULT_STATES
        unknown = [s for s in states if s not in STATES]
        if unknown:
            return Response({"states": [_("Unknown state %(state)s: use %(choices)s or all.") % {
                "state": unknown[0], "choices": ", ".join(STATES)}]}, status=status.HTTP_400_BAD_REQUEST)
        chosen = request.query_params.get("check", "")
        if chosen:
            if not (chosen.isascii() and chosen.isdigit()):
                return Response({"check": [_("A check id is a whole number.")]}, status=status.HTTP_400_BAD_REQUEST)
            check = asbuilt_check_get(version=self.version, pk=int(chosen))
            if check is None:
                raise Http404(_("No such as-built check."))
        else:
            latest = asbuilt_check_latest(version=self.version)
            check = asbuilt_check_get(version=self.version, pk=latest.pk) if latest else None
        return Response(LinkStatesSerializer(link_states_payload(version=self.version, check=check,
                                                                 states=states)).data)
