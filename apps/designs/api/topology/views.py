"""The topology API: api-version-topology (the first view, or the view with `expanded` groups) and
api-version-topology-expand (one node's children), by version id, visible through the user's projects.

Bad parameters answer 400 with the field's message; a version that is not generated yet answers
with its status and no elements. The first views are cached (aggregation.first_view_cache_key).
"""
from __future__ import annotations

from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.response import Response

from apps.designs.api.views import VersionScopedMixin
from apps.designs.models import DesignVersion

from . import Topology
from .drawing import schematic_svg
from .schematic import overview, scale_unit_picture
from .aggregation import LEVELS, MAX_EXPANDED, PORT_PAGE, PORT_PAGE_MAX, TopologyError, first_view_cache_key
from .networks import NetworkNodeError, network_view

NETWORKS = ("backend", "frontend", "storage", "oob")


def _network_param(request) -> str:
    value = (request.query_params.get("network") or "backend").strip()
    if value not in NETWORKS:
        raise ApiValidationError({"network": [_("Choose one of %(networks)s.") % {"networks": ", ".join(NETWORKS)}]})
    return value


def _expanded_param(request) -> list[str]:
    raw = request.query_params.get("expanded", "")
    ids = [part for part in (p.strip() for p in raw.split(",")) if part]
    if len(ids) > MAX_EXPANDED:
        raise ApiValidationError({"expanded": [_("At most %(max)s expanded nodes.") % {"max": MAX_EXPANDED}]})
    return ids


def _int_param(request, name: str, default: int, *, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiValidationError({name: [_("Enter a whole number.")]}) from None
    if not low <= value <= high:
        raise ApiValidationError({name: [_("Between %(low)s and %(high)s.") % {"low": low, "high": high}]})
    return value


def _plane_param(request) -> int | None:
    raw = request.query_params.get("plane")
    if raw in (None, "", "all"):
        return None
    try:
        return int(raw)
    except ValueError:
        raise ApiValidationError({"plane": [_("Enter a whole number.")]}) from None


def _ready_topology(version: DesignVersion, request) -> Topology:
    if not version.is_ready:
        raise ApiValidationError({"version": [
            _("This version is not generated yet (status: %(status)s).") % {"status": version.get_status_display()}
        ]})
    try:
        return Topology(version, level=request.query_params.get("level") or "auto", plane=_plane_param(request))
    except TopologyError as exc:
        raise ApiValidationError({exc.field_name: [exc.message]}) from None


LEVEL_PARAMETER = OpenApiParameter(
    "level", str, enum=["auto", *LEVELS],
    description="Which groups the view starts from: plane, pod (3 tiers), su or device; auto fits the element budget.",
)
NETWORK_PARAMETER = OpenApiParameter(
    "network", str, enum=list(NETWORKS),
    description="Which of the cluster's networks: backend (default; levels and expansion apply), frontend, "
                "storage or oob (one node per group of devices; `expanded` opens groups into devices or blocks).",
)
PLANE_PARAMETER = OpenApiParameter(
    "plane", str, description="One plane's view (0-based): its switches, the servers and that plane's links; "
    "all (the default) draws every plane.",
)
EXPANDED_PARAMETER = OpenApiParameter(
    "expanded", str, description="Comma-separated ids of the nodes already expanded (e.g. leaf:p0:pod3,dev:42).",
)


@extend_schema(
    summary="A version's topology as cytoscape.js elements, aggregated to a few thousand at most",
    description=(
        "Nodes are groups (servers, leaves, spines, cores per plane, pod, scale unit or block), devices or ports; "
        "edges merge parallel links with a count and a media breakdown. With `expanded` the view has those "
        "groups opened (used to collapse: send the set without the group)."
    ),
    parameters=[LEVEL_PARAMETER, PLANE_PARAMETER, EXPANDED_PARAMETER, NETWORK_PARAMETER],
    responses={200: OpenApiTypes.OBJECT},
    tags=["designs"],
)
class VersionTopologyView(VersionScopedMixin, generics.GenericAPIView):
    def get(self, request, *args, **kwargs):
        network = _network_param(request)
        if network != "backend":
            if not self.version.is_ready:
                _ready_topology(self.version, request)  # answers 400 with the status
            if network not in ((self.version.summary or {}).get("networks") or {}):
                raise ApiValidationError({"network": [_("This design has no %(network)s network.") % {
                    "network": network}]})
            try:
                return Response(network_view(self.version, network, _expanded_param(request)))
            except NetworkNodeError as exc:
                raise ApiValidationError({"expanded": [_("Unknown node %(node)s.") % {"node": exc.args[0]}]}) from None
        expanded = _expanded_param(request)
        level = request.query_params.get("level") or "auto"
        plane = _plane_param(request)
        if not expanded and self.version.is_ready and level in ("auto", *LEVELS):
            # A repeat visit answers from the cache before counting anything.
            cached = cache.get(first_view_cache_key(self.version, level, plane))
            if cached is not None:
                return Response(cached)
        topology = _ready_topology(self.version, request)
        try:
            data = topology.view(expanded=expanded) if expanded else topology.first_view()
        except TopologyError as exc:
            raise ApiValidationError({exc.field_name: [exc.message]}) from None
        return Response(data)


@extend_schema(
    summary="Open one node of the topology: its children and the edges that replace its own",
    description=(
        "pod and plane groups open into scale units or blocks, groups into devices, a device into its ports "
        "with one edge per link (ends, medium, length, labels, addresses). Ports are paged with offset/limit."
    ),
    parameters=[
        OpenApiParameter("node", str, required=True, description="id of the node to open, e.g. leaf:p0:pod3"),
        LEVEL_PARAMETER, PLANE_PARAMETER, EXPANDED_PARAMETER,
        OpenApiParameter("offset", int, description="first port (device nodes)"),
        OpenApiParameter("limit", int, description=f"ports per page (device nodes), at most {PORT_PAGE_MAX}"),
    ],
    responses={200: OpenApiTypes.OBJECT},
    tags=["designs"],
)
class VersionTopologyExpandView(VersionScopedMixin, generics.GenericAPIView):
    def get(self, request, *args, **kwargs):
        topology = _ready_topology(self.version, request)
        node = (request.query_params.get("node") or "").strip()
        if not node:
            raise ApiValidationError({"node": [_("This field is required.")]})
        offset = _int_param(request, "offset", 0, low=0, high=10**6)
        limit = _int_param(request, "limit", PORT_PAGE, low=1, high=PORT_PAGE_MAX)
        try:
            data = topology.expand(node, expanded=_expanded_param(request), offset=offset, limit=limit)
        except TopologyError as exc:
            raise ApiValidationError({exc.field_name: [exc.message]}) from None
        return Response(data)


@extend_schema(
    summary="The SuperPOD-style schematic of a version as an SVG document",
    description=(
        "One scale unit in full (servers, rail-coloured leaves, the spine groups they reach, link counts) with "
        "the multiplier for the rest, then one panel per plane with the pods (3 tiers) or scale units, spines and "
        "cores and the link count on every edge; the design's name, version and a legend."
    ),
    parameters=[PLANE_PARAMETER],
    responses={(200, "image/svg+xml"): OpenApiTypes.STR},
    tags=["designs"],
)
class VersionTopologySchematicView(VersionScopedMixin, generics.GenericAPIView):
    def perform_content_negotiation(self, request, force=False):
        # The picture is SVG whatever is asked for; errors are JSON (a 400 on the field, a 404).
        return super().perform_content_negotiation(request, force=True)

    def get(self, request, *args, **kwargs):
        topology = _ready_topology(self.version, request)
        key = "fabricweb:schematic:v1:" + first_view_cache_key(self.version, "schematic", topology.plane)
        svg = cache.get(key)
        if svg is None:
            svg = schematic_document(topology)
            cache.set(key, svg, 24 * 3600)
        response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{schematic_filename(topology)}"'
        return response


def schematic_document(topology: Topology) -> str:
    version = topology.version
    summary = topology.summary
    title = _("%(design)s · version %(number)s") % {"design": version.design.name, "number": version.number}
    parts = [
        ngettext("%(n)s GPU", "%(n)s GPUs", int(summary.get("gpus") or 0)) % {"n": f"{int(summary.get('gpus') or 0):,}"},
        ngettext("%(n)s tier", "%(n)s tiers", topology.tiers) % {"n": topology.tiers},
    ]
    if topology.planes > 1:
        parts.append(ngettext("%(n)s plane", "%(n)s planes", topology.planes) % {"n": topology.planes})
    if topology.plane is not None:
        parts.append(_("plane %(plane)s shown") % {"plane": topology.plane})
    return schematic_svg(
        title=title, subtitle=" · ".join(parts), scale_unit=scale_unit_picture(topology), overview=overview(topology),
        rails=topology.rails, planes=topology.planes,
    )


def schematic_filename(topology: Topology) -> str:
    plane = "" if topology.plane is None else f"-plane{topology.plane}"
    return f"schematic-v{topology.version.number}-{topology.version.pk}{plane}.svg"
