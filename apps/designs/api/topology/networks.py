"""The topology of one of the cluster's other networks (front-end, storage, out-of-band) as cytoscape elements.

Rules:
- The view is one node per group, never per device, so every network draws at once at any size:
  the endpoints (servers, storage nodes, and for the OOB network the switches it manages), then the
  network's own leaves, spines and cores (layers 0 to 3). The endpoints of the OOB network are the
  devices it manages: servers, storage nodes and the switches of every other network.
- Edges merge every link between two groups of one tier, with the count and the media breakdown
  (kind, length -> links), from one GROUP BY over the network's link rows (its id range); an end's
  group comes from its id alone (ids are contiguous per network and role: models.records), so the
  query joins nothing. Group sizes come from the version's summary.
- The answer has the backend view's shape (elements, counts, legend), with `network` set, so the
  same picture draws it; groups are not expandable (the cabling table lists the links).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.core.cache import cache
from django.db.models import Case, CharField, Count, Max, Min, Value, When
from django.utils import translation
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord, record_id_range

LAYER = {"server": 0, "storage": 0, "managed": 0, "leaf": 1, "spine": 2, "core": 3}
CACHE_SECONDS = 24 * 3600


def _labels() -> dict[str, str]:
    return {"server": _("Servers"), "storage": _("Storage nodes"), "managed": _("Managed switches"),
            "leaf": _("Leaves"), "spine": _("Spines"), "core": _("Cores")}


def _oob_labels() -> dict[str, str]:
    return {"leaf": _("Management switches (one per rack)"), "spine": _("Management aggregation")}


def network_view_cache_key(version: DesignVersion, network: str) -> str:
    generated = int(version.generated_at.timestamp() * 1000) if version.generated_at else 0
    return f"fabricweb:topology:net:v1:{version.pk}:{generated}:{network}:{translation.get_language() or ''}"


def network_view(version: DesignVersion, network: str) -> dict[str, Any]:
    """The grouped view of `network` (cached: generated versions never change)."""
    key = network_view_cache_key(version, network)
    cached = cache.get(key)
    if cached is not None:
        return cached
    summary = version.summary or {}
    info = (summary.get("networks") or {}).get(network) or {}
    first, last = record_id_range(version.pk, network)
    links = LinkRecord.objects.filter(version=version, pk__gte=first, pk__lte=last)

    # Each end's group from its id alone (no join): ids are contiguous per network and role.
    backend_first, _backend_last = record_id_range(version.pk)
    servers = int(summary.get("servers") or 0)
    spans = [(backend_first, backend_first + servers - 1, "server")]
    other_first, _ = record_id_range(version.pk, "frontend")
    for span in (DeviceRecord.objects.filter(version=version, pk__gte=other_first, pk__lt=backend_first + (1 << 32))
                 .values("network", "role").annotate(lo=Min("id"), hi=Max("id")).order_by()):
        name = span["role"] if span["network"] == network else ("storage" if span["role"] == "storage" else "managed")
        spans.append((span["lo"], span["hi"], name))

    def group_of(end: str) -> Case:
        return Case(*[When(**{f"{end}__gte": lo, f"{end}__lte": hi}, then=Value(name)) for lo, hi, name in spans],
                    default=Value("managed"), output_field=CharField())

    rows = (links.annotate(a_group=group_of("a_device_id"), b_group=group_of("b_device_id"))
            .values("tier", "a_group", "b_group", "medium_kind", "length_m").annotate(n=Count("id")).order_by())
    edges: dict[tuple, dict[str, Any]] = {}
    for row in rows:
        edge = edges.setdefault((row["a_group"], row["b_group"], row["tier"]), {"count": 0, "media": defaultdict(int)})
        edge["count"] += row["n"]
        edge["media"][(row["medium_kind"], row["length_m"])] += row["n"]
    counts: dict[str, int] = {name: int(n) for name, n in (info.get("switches") or {}).items() if n}
    endpoints = info.get("endpoints") or {}
    counts["server"] = int(endpoints.get("servers") or 0)
    counts["storage"] = int(endpoints.get("storage_nodes") or 0)
    counts["managed"] = int(endpoints.get("switches") or 0)
    labels = {**_labels(), **(_oob_labels() if network == "oob" else {})}
    order = ("server", "storage", "managed", "leaf", "spine", "core")
    nodes = []
    for col, name in enumerate(g for g in order if counts.get(g)):
        node_id = f"net:{network}:{name}"
        role = "server" if name in ("server", "storage", "managed") else name
        nodes.append({"data": {
            "id": node_id, "kind": "netgroup", "label": f"{labels[name]}\n{counts[name]:,}", "role": role,
            "layer": LAYER[name], "col": col, "order": col, "count": counts[name], "expandable": False,
            "expanded": False, "parent": None, "plane": None, "pod": None, "su": None, "rail": None,
            "network": network, "filters": {},
        }})
    edge_list = []
    for (a, b, tier), edge in edges.items():
        media = sorted(([kind, length, n] for (kind, length), n in edge["media"].items()), key=lambda m: (-m[2], m[0]))
        edge_list.append({"data": {
            "id": f"e:net:{network}:{a}|{b}|{tier}", "source": f"net:{network}:{a}", "target": f"net:{network}:{b}",
            "tier": tier, "plane": None, "rail": None, "pod": None, "count": edge["count"], "media": media,
            "rails": [], "filters": {"tier": tier, "network": network},
        }})
    view = {
        "version": version.pk, "network": network, "level": "group", "levels": [], "tiers": int(info.get("tiers") or 2),
        "planes": 1, "rails": 0, "expanded": [], "legend": {"rails": [], "planes": []},
        "counts": {"nodes": len(nodes), "edges": len(edge_list)},
        "elements": {"nodes": nodes, "edges": edge_list},
    }
    cache.set(key, view, CACHE_SECONDS)
    return view
