"""The "networks" part of the JSON report (engine.report) and the links CSV rows of the other networks.

    "networks": {"backend": {...}, "frontend": {...}, "storage": {...}, "oob": {...}}   (the networks the design has)

each with: switches {leaf, spine, core}, links {server-leaf, leaf-spine, spine-core}, total_links, devices
(its own), tiers, gbps, oversubscription, endpoints, cost {subtotal, discount, total_cost, spares_subtotal, missing},
power {network_typical_w, network_max_w, in_server_typical_w, in_server_max_w, missing},
(missing: the SKUs without a list price / a published power figure, left out of those totals) rack_units, bom [...]
(its own section), media [...], pools, converged (storage on the front-end), warning_codes.
"""
from __future__ import annotations

import numpy as np

from ..model import TIER_NAMES, BomLine, Medium, Plan, power_missing, price_missing
from .cluster import cluster_totals


def bom_rows(lines: list[BomLine]) -> list[dict]:
    return [
        {"sku": line.sku, "description": line.description, "category": line.category, "qty": line.qty,
         "unit_price": line.unit_price, "total": line.total, "power_typical_w": round(line.power_typical_w, 1),
         "power_max_w": round(line.power_max_w, 1), "in_server_typical_w": round(line.in_server_typical_w, 1),
         "in_server_max_w": round(line.in_server_max_w, 1), "scope": line.scope, "spare": line.spare,
         "rack_units": line.rack_units, "power_published": line.power_published,
         "price_published": line.price_published}
        for line in lines
    ]


def media_rows(media: list[Medium], medium: np.ndarray) -> list[dict]:
    counts = np.bincount(medium.astype(np.int64), minlength=len(media)) if len(medium) else np.zeros(len(media))
    return [{"key": m.key, "kind": m.kind, "fiber": m.fiber, "tier": TIER_NAMES[m.tier] if m.tier >= 0 else "",
             "length_m": m.length_m, "links": int(counts[i])} for i, m in enumerate(media)]


def networks_report(result: Plan) -> dict:
    backend = {
        "switches": {role: int(result.switches.get(role, 0)) for role in ("leaf", "spine", "core")},
        "links": {name: int(result.links_by_tier.get(name, 0)) for name in TIER_NAMES},
        "total_links": len(result.links), "tiers": result.tiers, "gbps": result.spec.server.nic_gbps,
        "endpoints": {"servers": result.servers},
        "cost": {"subtotal": result.subtotal, "discount": result.discount, "total_cost": result.total_cost,
                 "spares_subtotal": result.spares_subtotal, "missing": price_missing(result.bom)},
        "power": {"network_typical_w": result.power_typical_w, "network_max_w": result.power_max_w,
                  "in_server_typical_w": result.in_server_typical_w, "in_server_max_w": result.in_server_max_w,
                  "missing": power_missing(result.bom)},
        "rack_units": result.rack_units,
    }
    out = {"backend": backend}
    for key, net in result.networks.items():
        out[key] = {
            "switches": dict(net.switches), "links": dict(net.links_by_tier), "total_links": len(net.links),
            "devices": len(net.devices), "tiers": net.tiers, "gbps": net.gbps,
            "oversubscription": dict(net.oversubscription), "endpoints": dict(net.endpoints),
            "cost": {"subtotal": net.subtotal, "discount": net.discount, "total_cost": net.total_cost,
                     "spares_subtotal": net.spares_subtotal, "missing": price_missing(net.bom)},
            "power": {"network_typical_w": net.power_typical_w, "network_max_w": net.power_max_w,
                      "in_server_typical_w": net.in_server_typical_w, "in_server_max_w": net.in_server_max_w,
                      "missing": power_missing(net.bom)},
            "rack_units": net.rack_units, "bom": bom_rows(net.bom), "media": media_rows(net.media, net.links.medium),
            "pools": net.pools, "converged": net.converged,
            "warning_codes": [note.to_dict() for note in net.notes],
        }
    return out


def cluster_report(result: Plan) -> dict:
    """{"networks": ..., "cluster": totals}; the report's total_cost becomes the cluster's."""
    return {"networks": networks_report(result), "cluster": cluster_totals(result)}
