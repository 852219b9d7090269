"""The JSON report of a plan: what the CLI prints and what the web app stores as a design summary.

Keys (all plain JSON types):
  name, fabric ("ethernet" or "infiniband"), tiers, planes, gpus, servers, gpus_per_server, rails,
  rails_per_plane, su_servers, leaf_downlinks, leaf_slots (rack-scale leaves shared by tray slot: trays per domain,
  each a leaf of the SU; 0 = a leaf per rail), leaves_per_su (per plane), scale_units, pods, sus_per_pod, switches {leaf, spine, core}, links {server-leaf, leaf-spine,
  spine-core}, total_links, max_gpus, max_hops, oversubscription {leaf[, spine]}, bisection_gbps,
  free_ports {leaf, spine, core}, bom [{sku, description, category, qty, unit_price, total,
  power_typical_w, power_max_w, in_server_typical_w, in_server_max_w, scope ("network", "in-server",
  "both", "spare"), spare, rack_units}] (spare lines last), subtotal (spares included), discount,
  discount_pct, total_cost, total_includes_spares, spares {switches_per_spare, percent {switches, transceivers, cables,
  fibers}, lines, qty, subtotal}, currency, power {network_typical_w, network_max_w,
  in_server_typical_w, in_server_max_w}, power_w / power_typical_w / power_max_w (the network's:
  switches and switch-side optics; NICs and server-side optics are in-server), rack_units, media [{key, kind, fiber,
  tier, length_m, links}], pools {host, p2p, loopback: {cidr, size, used, first, last}, asn:
  {first, last, used}} (InfiniBand: host only, the IPoIB addresses; the subnet manager routes),
  addressing ("ipv4-bgp": /31s, loopbacks, eBGP ASNs; "subnet-manager": IPoIB hosts only),
  warnings [..], warning_codes [{code, params}] (the warnings, one for one, as engine.messages codes),
  wiring {worst_pair_fraction, as_stated, stated_fraction, worst_pair_links, leaf_uplinks,
  leaf_downlinks, worst_pair [leaf, leaf] or null, leaf_pairs, worst_pod_pair_fraction, worst_pod_pair_links,
  pod_pair_uplinks, worst_pod_pair [plane, pod, pod] or null, spread {leaf-spine, spine-core, core-pod: [fewest,
  most] links per connected pair}} (engine.wiring's proof of every tier), and
  alternatives [..] when asked for; a feasible alternative has its wiring and blocking (true for
  the fewest-spines wiring, with its notes [{code, params}]); networks {backend, frontend, storage, oob}
  (engine.networks.report: each network's switches, links, cost, power, BOM section) and cluster (the
  sum of the networks' cost and power; total_cost is the cluster's), hall (engine.hall.report: racks by kind,
  servers per rack as placed, rack power); an infeasible alternative has
  reason (English), reason_code and reason_params (its first reason) and reason_codes [{field,
  code, params}] (every reason).
"""
from __future__ import annotations

from dataclasses import asdict

import numpy as np

from .hall.report import hall_dict
from .messages import as_message
from .scaleup import scale_up_summary
from .model import TIER_NAMES, Alternative, Plan, Sizing, Wiring, power_missing, price_missing
from .networks.report import cluster_report
from .spec import SPARE_CATEGORIES
from .topology import leaf_downlinks, leaves_per_su


def wiring_dict(wiring: Wiring | None) -> dict | None:
    """The wiring proof as plain JSON (None when the plan has none)."""
    if wiring is None:
        return None
    return {
        "worst_pair_fraction": round(wiring.worst_pair_fraction, 4), "as_stated": bool(wiring.as_stated),
        "stated_fraction": round(wiring.stated_fraction, 4), "worst_pair_links": int(wiring.worst_pair_links),
        "leaf_uplinks": wiring.leaf_uplinks, "leaf_downlinks": wiring.leaf_downlinks,
        "worst_pair": list(wiring.worst_pair_names) or None, "leaf_pairs": int(wiring.leaf_pairs),
        "worst_pod_pair_fraction": round(wiring.worst_pod_pair_fraction, 4),
        "worst_pod_pair_links": int(wiring.worst_pod_pair_links), "pod_pair_uplinks": int(wiring.pod_pair_uplinks),
        "worst_pod_pair": list(wiring.worst_pod_pair) if wiring.worst_pod_pair is not None else None,
        "spread": {tier: list(pair) for tier, pair in wiring.spread.items()},
    }


def sizing_dict(sz: Sizing) -> dict:
    out = asdict(sz)
    out["links"] = out.pop("links_by_tier")
    return out


def alternative_dict(alt: Alternative) -> dict:
    out = {
        "label": alt.label, "planes": alt.planes, "tiers": alt.tiers, "feasible": alt.feasible,
        "cheapest": alt.cheapest, "current": alt.current, "blocking": alt.blocking,
    }
    if alt.feasible and alt.sizing is not None:
        sz = alt.sizing
        out.update(
            switches=dict(sz.switches), links=dict(sz.links_by_tier), max_gpus=sz.max_gpus, max_hops=sz.max_hops,
            total_cost=alt.total_cost, currency=alt.currency, power_w=alt.power_typical_w,
            power_max_w=alt.power_max_w, rack_units=alt.rack_units, oversubscription=dict(sz.oversubscription),
            bisection_gbps=sz.bisection_gbps, wiring=wiring_dict(alt.wiring),
            notes=[note.to_dict() for note in alt.notes],
        )
    else:
        out["reason"] = alt.reason
        out["reason_code"] = alt.reason_code
        out["reason_params"] = alt.reason_params
        out["reason_codes"] = [dict(field=name, **msg.to_dict()) for name, msg in alt.reason_messages]
    return out


def report(plan: Plan, *, alternatives: list[Alternative] | None = None) -> dict:
    sz = plan.sizing
    spec = plan.spec
    medium_links = np.bincount(plan.links.medium.astype(np.int64), minlength=len(plan.media)) if len(plan.links) \
        else np.zeros(len(plan.media), dtype=np.int64)
    out = {
        "name": spec.name,
        "fabric": spec.fabric,
        "addressing": "subnet-manager" if spec.infiniband else "ipv4-bgp",
        "tiers": plan.tiers,
        "planes": plan.planes,
        "gpus": plan.gpus,
        "servers": plan.servers,
        "gpus_per_server": spec.server.gpus,
        "rails": plan.rails,
        "rails_per_plane": plan.rails // plan.planes,
        "nic_split": spec.nic_split,
        "port_gbps": spec.port_gbps,
        "scale_up": scale_up_summary(spec, plan.servers).to_dict(),
        "su_servers": plan.su_servers,
        "leaf_uplinks": sz.leaf_uplinks if sz else None,
        "leaf_downlinks": leaf_downlinks(sz) if sz else plan.su_servers,
        "leaf_slots": sz.leaf_slots if sz else 0,
        "leaves_per_su": leaves_per_su(sz) if sz else plan.rails // plan.planes,
        "scale_units": plan.scale_units,
        "pods": plan.pods,
        "sus_per_pod": sz.sus_per_pod if sz else 0,
        "switches": {role: int(plan.switches.get(role, 0)) for role in ("leaf", "spine", "core")},
        "links": {name: int(plan.links_by_tier.get(name, 0)) for name in TIER_NAMES},
        "total_links": len(plan.links),
        "max_gpus": plan.max_gpus,
        "max_hops": plan.max_hops,
        "oversubscription": dict(plan.oversubscription),
        "bisection_gbps": plan.bisection_gbps,
        "free_ports": dict(plan.free_ports),
        "bom": [
            {"sku": line.sku, "description": line.description, "category": line.category, "qty": line.qty,
             "unit_price": line.unit_price, "total": line.total, "power_typical_w": round(line.power_typical_w, 1),
             "power_max_w": round(line.power_max_w, 1), "in_server_typical_w": round(line.in_server_typical_w, 1),
             "in_server_max_w": round(line.in_server_max_w, 1), "scope": line.scope, "spare": line.spare,
             "rack_units": line.rack_units, "power_published": line.power_published,
             "price_published": line.price_published}
            for line in plan.bom
        ],
        "subtotal": plan.subtotal,
        "discount": plan.discount,
        "discount_pct": spec.discount_pct,
        "total_cost": plan.total_cost,
        "total_includes_spares": True,
        # SKUs without a list price: their 0 is left out of the money above (see warning.price_not_published).
        "price_missing": price_missing(plan.bom),
        "spares": {
            "percent": {name: float(getattr(spec.spares, name)) for name in SPARE_CATEGORIES},
            "switches_per_spare": int(spec.spares.switches_per_spare),
            "lines": sum(1 for line in plan.bom if line.spare),
            "qty": sum(line.qty for line in plan.bom if line.spare),
            "subtotal": plan.spares_subtotal,
        },
        "currency": plan.currency,
        "power": {
            "network_typical_w": plan.power_typical_w, "network_max_w": plan.power_max_w,
            "in_server_typical_w": plan.in_server_typical_w, "in_server_max_w": plan.in_server_max_w,
            # SKUs whose vendor publishes no power: left out of the figures above (see warning.power_not_published).
            "missing": power_missing(plan.bom),
        },
        "power_w": plan.power_typical_w,
        "power_typical_w": plan.power_typical_w,
        "power_max_w": plan.power_max_w,
        "rack_units": plan.rack_units,
        "media": [
            {"key": m.key, "kind": m.kind, "fiber": m.fiber, "tier": TIER_NAMES[m.tier] if m.tier >= 0 else "",
             "length_m": m.length_m, "links": int(medium_links[i])}
            for i, m in enumerate(plan.media)
        ],
        "pools": plan.pools,
        "warnings": list(plan.warnings),
        "warning_codes": [note.to_dict() for note in plan.notes] if plan.notes
        else [as_message(text).to_dict() for text in plan.warnings],
        "wiring": wiring_dict(plan.wiring),
    }
    # The cluster's networks (engine.networks): each one's counts, cost and power; total_cost is their sum.
    out.update(cluster_report(plan))
    out["total_cost"] = out["cluster"]["total_cost"]
    out["hall"] = hall_dict(plan.hall, spec.layout)
    if alternatives is not None:
        out["alternatives"] = [alternative_dict(a) for a in alternatives]
    return out
