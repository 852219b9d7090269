"""The engine's sentences in the user's language.

The engine writes English and gives every sentence a stable `code` and its values in `params`
(apps.engine.messages). Here each code has a gettext message whose English text is exactly the
engine's template with named placeholders (``{gpus:,}`` becomes ``%(gpus)s``), so an English
page reads as the engine wrote it and a Chinese page reads as translated. Rules:
- A count (COUNTS: GPUs, servers, leaves, addresses, ...) and any number the engine's template
  groups (``{gpus:,}``) is grouped by thousands with the active locale's separator; otherwise a
  number is written as the template writes it (``{ratio:.2f}``, ``{reach_m:g}``). Port speeds,
  port counts per switch and prefix lengths are never grouped.
- Params naming a device role, a link class or a catalog kind are translated words; a nested
  message param (one end of a link class, what a pool holds) is translated on its own.
- An unknown code (a newer engine, plain text) or params that don't fit falls back to the
  English text the engine stored, so nothing is ever lost; stored summaries without codes
  (versions generated before codes existed) show their English warnings.
"""
from __future__ import annotations

import string
from functools import lru_cache
from typing import Any, Mapping

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

import apps.engine.networks.messages  # noqa: F401  (the network.* templates)
from apps.engine.messages import TEMPLATES, Message
from apps.engine.spec import SpecError

MESSAGES = {
    # One spec field at a time.
    "value.whole_number": gettext_lazy("must be a whole number, not %(value)s"),
    "value.int_at_least": gettext_lazy("must be at least %(low)s, not %(value)s"),
    "value.int_at_most": gettext_lazy("must be at most %(high)s, not %(value)s"),
    "value.number": gettext_lazy("must be a number, not %(value)s"),
    "value.at_least": gettext_lazy("must be at least %(low)s, not %(value)s"),
    "value.more_than": gettext_lazy("must be more than %(low)s, not %(value)s"),
    "value.at_most": gettext_lazy("must be at most %(high)s, not %(value)s"),
    "value.at_least_hint": gettext_lazy("must be at least %(low)s, not %(value)s (%(hint)s)"),
    "value.at_most_hint": gettext_lazy("must be at most %(high)s, not %(value)s (%(hint)s)"),
    "value.boolean": gettext_lazy("must be true or false, not %(value)s"),
    "hint.oversubscription": gettext_lazy("o in o:1 at the leaf, from 1 (non-blocking) to 16"),
    "spec.give_server": gettext_lazy("give a server model"),
    "spec.give_switch": gettext_lazy("give a switch model"),
    "spec.give_nic": gettext_lazy("give a NIC model"),
    "spec.give_currency": gettext_lazy("give a currency code such as USD"),
    "spec.give_optic": gettext_lazy("give a transceiver"),
    "spec.give_cable": gettext_lazy("give a cable assembly"),
    "spec.give_fiber": gettext_lazy("give a fibre cord"),
    "spec.give_spares": gettext_lazy("give spare percentages per category (switches, transceivers, cables, fibers)"),
    "spec.tiers_choice": gettext_lazy('must be "auto", 2 or 3, not %(value)s'),
    "spec.placement_choice": gettext_lazy('must be "middle" or "end", not %(value)s'),
    "spec.fiber_choice": gettext_lazy("must be MMF or SMF, not %(value)s"),
    "spec.planes_divide": gettext_lazy(
        "%(planes)s planes don't divide the server's %(rails)s backend ports (rails); choose one of %(choices)s"),
    "spec.cages_split": gettext_lazy("%(ports)s logical ports don't split evenly over %(cages)s cages"),
    "spec.server_cages_split": gettext_lazy(
        "the server's %(ports)s backend ports don't split evenly into cages of %(ports_per_cage)s"),
    "pool.not_cidr": gettext_lazy("%(value)s is not an IPv4 CIDR such as 10.0.0.0/16"),
    "pool.host_bits": gettext_lazy("%(value)s has host bits set; did you mean %(network)s?"),
    "pool.not_ipv4": gettext_lazy("%(value)s is not IPv4"),
    "pool.overlap": gettext_lazy("%(cidr)s overlaps pools.%(other)s %(other_cidr)s"),
    "spec.json_object": gettext_lazy("expected a JSON object"),
    "spec.expected_object": gettext_lazy("expected an object, got %(type)s"),
    "spec.expected_list": gettext_lazy("expected a list"),
    "spec.unknown_field": gettext_lazy("unknown field"),
    "spec.unknown_field_of": gettext_lazy("unknown field; expected one of %(fields)s"),
    "spec.required": gettext_lazy("required"),
    "spec.sku_or_inline": gettext_lazy("give either a catalog sku (with breakout) or the hardware inline"),
    "catalog.unknown_sku": gettext_lazy("no %(kind)s %(sku)s in the seed catalog"),
    "catalog.breakout_not_offered": gettext_lazy("%(switch)s offers %(modes)s, not %(breakout)s"),
    "spec.fabric_choice": gettext_lazy("must be \"ethernet\" or \"infiniband\", not %(value)s"),
    "spec.backend_switch_class": gettext_lazy(
        "%(switch)s is a switch of class %(switch_class)s; the backend fabric takes fabric-class switches"),
    "warning.power_not_published": gettext_lazy(
        "%(skus)s: the vendor publishes no power figure, so the power totals leave out %(count)s device(s); ask "
        "the vendor for typical and maximum power"),
    "warning.price_not_published": gettext_lazy(
        "%(skus)s: no list price in the catalog, so the cost totals leave out %(count)s item(s) and are a lower "
        "bound; add the price to the catalog or the quote"),
    "warning.hall_power_not_published": gettext_lazy(
        "%(parts)s: no published power figure, so the rack and hall power totals leave out %(count)s device(s) and "
        "are a lower bound; ask the vendor for the figure"),
    "warning.rack_over_budget_optics": gettext_lazy(
        "rack %(rack)s draws %(power_kw)s kW with the optics and active cables in its switches, more than its "
        "%(budget_kw)s kW budget: lower switches_per_rack or raise the budget"),
    "warning.reach_margin": gettext_lazy(
        "%(links)s %(tier)s links get fibre closer than %(margin_m)s m to their optics' %(reach_m)s m reach (the "
        "margin plans at most %(usable_m)s m) and no qualified part reaches further; measure those runs before "
        "ordering, or add a longer-reach part"),
    "spec.switch_class_choice": gettext_lazy("must be \"fabric\", \"frontend\" or \"management\", not %(value)s"),
    "spec.fabrics_list": gettext_lazy(
        'must list the fabrics the part is qualified for ("ethernet", "infiniband"), not %(value)s'),
    "spec.vendor_name": gettext_lazy("must be the vendor's name, not %(value)s"),
    "spec.vendor_names": gettext_lazy("must be a list of vendor names, not %(value)s"),
    # Parts that don't work together.
    "fabric.mixed": gettext_lazy(
        "the %(role)s switch %(switch)s is %(fabric)s but the %(other_role)s switch %(other_switch)s is "
        "%(other_fabric)s; one fabric can't mix Ethernet and InfiniBand switches"),
    "speed.choose_breakout": gettext_lazy(
        "ports run at %(gbps)sG in %(mode)s but the server NICs are %(nic_gbps)sG; "
        "choose breakout %(count)sx%(nic_gbps)sG"),
    "speed.every_tier": gettext_lazy(
        "ports run at %(gbps)sG in %(mode)s but the server NICs are %(nic_gbps)sG; "
        "every tier must run the NICs' %(nic_gbps)sG"),
    "nic.speed": gettext_lazy("the NIC runs at %(gbps)sG but the server's backend ports are %(server_gbps)sG"),
    "nic.ports": gettext_lazy("%(ports)s backend ports can't be made of %(nic_ports)s-port NICs"),
    "nic.split_mode": gettext_lazy(
        "the NIC %(nic)s publishes no %(split)s-way split of its %(gbps)sG port; its modes: %(modes)s"),
    "nic.split_planes": gettext_lazy(
        "each part of a split NIC port lands on its own plane: with ports split in %(split)s, "
        "planes must be a multiple of %(split)s, not %(planes)s"),
    "nic.split_speed": gettext_lazy("a %(gbps)sG port doesn't split evenly in %(split)s"),
    "spec.nic_splits": gettext_lazy("must list the ways a port splits (1, 2 or 4), not %(value)s"),
    "scaleup.kind_choice": gettext_lazy("must be \"in-server\", \"rack-scale\" or empty, not %(value)s"),
    "scaleup.domain_gpus": gettext_lazy(
        "a rack-scale domain of %(domain_gpus)s GPUs doesn't hold whole %(gpus)s-GPU trays"),
    "scaleup.whole_domains": gettext_lazy(
        "%(system)s comes in whole scale-up domains of %(domain_gpus)s GPUs; ask for %(lower)s or %(upper)s GPUs"),
    # Structure.
    "topology.no_downlinks": gettext_lazy(
        "%(ports)s-port leaves at %(oversubscription)s:1 leave no port for servers"),
    "topology.no_uplinks": gettext_lazy(
        "%(ports)s-port leaves at %(oversubscription)s:1 leave no uplink; lower the oversubscription"),
    "topology.two_tiers_limit": gettext_lazy(
        "2 tiers of %(spine_ports)s-port spines hold at most %(max_gpus)s GPUs (%(scale_units)s scale units of "
        "%(su_servers)s servers); %(gpus)s GPUs need %(leaves)s leaves per plane. Use 3 tiers, more planes or "
        "larger switches"),
    "topology.spine_ports_odd": gettext_lazy(
        "3 tiers split spine ports in halves (down and up); %(ports)s ports is odd"),
    "topology.spine_cage_halves": gettext_lazy(
        "3 tiers split spine ports in halves on cage boundaries; %(cages)s cages can't"),
    "topology.spine_half_too_small": gettext_lazy(
        "half of %(ports)s spine ports can't reach one scale unit's %(leaves)s leaves per plane"),
    "topology.three_tiers_limit": gettext_lazy(
        "3 tiers of these switches hold at most %(max_gpus)s GPUs (%(pods)s pods of %(sus_per_pod)s scale units of "
        "%(su_servers)s servers); %(gpus)s GPUs need %(needed_pods)s pods. Use more planes or larger switches"),
    # Cabling.
    "cabling.end_cages": gettext_lazy(
        "%(role)s %(form_factor)s %(native_gbps)sG cages in %(ports_per_cage)sx%(link_gbps)sG"),
    "cabling.end_ports": gettext_lazy("%(role)s %(form_factor)s %(link_gbps)sG ports"),
    "cabling.no_way": gettext_lazy("no cable assembly or transceiver pair in the catalog joins %(a)s to %(b)s"),
    "cabling.too_long": gettext_lazy(
        "the longest %(tier)s run is %(longest_m)s m but the catalog's ways of joining %(a)s to %(b)s reach at "
        "most %(reach_m)s m; add a longer-reach optic (and fibre cords) to the catalog or lay out the hall more "
        "compactly (layout.racks_per_row, layout.row_pitch_m)"),
    "cabling.no_qualified_way": gettext_lazy(
        "no cable assembly or transceiver pair qualified for %(fabric)s and made by %(vendors)s (or declared "
        "compatible) joins %(a)s to %(b)s"),
    "cabling.no_fabric_way": gettext_lazy(
        "no cable assembly or transceiver pair qualified for %(fabric)s joins %(a)s to %(b)s"),
    "cabling.qualified_too_long": gettext_lazy(
        "the longest %(tier)s run is %(longest_m)s m but nothing qualified for %(fabric)s and made by %(vendors)s "
        "(or declared compatible) reaches it: the qualified ways of joining %(a)s to %(b)s reach at most "
        "%(reach_m)s m; add a qualified part of %(longest_m)s m reach to the catalog or lay out the hall more "
        "compactly"),
    "cabling.fabric_too_long": gettext_lazy(
        "the longest %(tier)s run is %(longest_m)s m but nothing qualified for %(fabric)s reaches it: the "
        "qualified ways of joining %(a)s to %(b)s reach at most %(reach_m)s m; add a qualified part of "
        "%(longest_m)s m reach to the catalog or lay out the hall more compactly"),
    "cabling.third_party_reach": gettext_lazy(
        "other vendors' parts qualified for %(fabric)s reach %(reach_m)s m: allowing third-party optics on the "
        "design would use them"),
    # Addresses.
    "addressing.pool_too_small": gettext_lazy(
        "needs %(needed)s addresses (%(what)s) but %(cidr)s holds %(size)s; use a /%(prefix)s or larger"),
    "addressing.what_host": gettext_lazy("a /31 per NIC port"),
    "addressing.what_p2p": gettext_lazy("a /31 per switch-to-switch link"),
    "addressing.what_loopback": gettext_lazy("a /32 per switch"),
    "addressing.what_ipoib_host": gettext_lazy("an IPoIB address per NIC port"),
    "addressing.asn_range": gettext_lazy(
        "needs %(count)s ASNs from %(asn_base)s, past the last 4-byte ASN %(max_asn)s; start at %(start)s or lower"),
    "addressing.asn_reserved": gettext_lazy(
        "the %(count)s ASNs from %(asn_base)s to %(last)s include the reserved ASN %(reserved)s; start at "
        "%(start)s (the private 4-byte range) or keep a 2-byte range within 64,512 to 65,534"),
    # Points to raise in a review.
    "warning.spare_gpu_slots": gettext_lazy(
        "%(gpus)s GPUs need %(servers)s servers of %(gpus_per_server)s: %(spare)s GPU slots spare"),
    "warning.partial_scale_unit": gettext_lazy(
        "the last scale unit has %(servers)s of %(su_servers)s servers; its leaves still cable all %(uplinks)s "
        "uplinks"),
    "warning.partial_scale_unit_shared": gettext_lazy(
        "the last scale unit has %(servers)s of %(su_servers)s servers; its leaves carry %(downlinks)s downlinks each "
        "and cable %(uplinks)s uplinks"),
    "warning.leaf_split": gettext_lazy(
        "%(ports)s-port leaves at %(oversubscription)s:1 use %(downlinks)s downlinks and %(uplinks)s uplinks "
        "(%(ratio)s:1)"),
    "warning.rack_servers_height": gettext_lazy(
        "%(servers)s servers of %(server_ru)sU per rack need %(needed)sU, more than the %(rack_units)sU racks hold: "
        "put at most %(fit)s in a rack"),
    "warning.rack_domain_height": gettext_lazy(
        "a %(system)s rack holds %(trays)s compute trays of %(server_ru)sU and %(switch_trays)s NVLink switch trays "
        "of 1U: %(needed)sU, more than the %(rack_units)sU racks hold"),
    "warning.rack_leaves_height": gettext_lazy(
        "each scale unit's %(leaves)s leaves of %(switch_ru)sU share one rack and need %(needed)sU, more than the "
        "%(rack_units)sU racks hold"),
    "warning.rack_switches_height": gettext_lazy(
        "%(switches)s %(role)s switches of %(switch_ru)sU per rack need %(needed)sU, more than the %(rack_units)sU "
        "racks hold: put at most %(fit)s in a rack"),
    "warning.partial_pod": gettext_lazy(
        "the last pod is partly filled and has %(spines)s spines instead of %(spines_per_pod)s"),
    "warning.uneven_uplinks": gettext_lazy(
        "%(uplinks)s leaf uplinks over %(spines)s spines: each leaf has %(fewer)s or %(more)s links to each spine, "
        "so All-to-All traffic meets spine hotspots that no routing removes; %(even)s spines would spread the "
        "uplinks evenly"),
    "wiring.blocking": gettext_lazy(
        "the worst leaf pair (%(leaf_a)s and %(leaf_b)s) can exchange %(links)s links' worth of traffic, "
        "%(percent)s per cent of a leaf's %(downlinks)s downlinks, below the %(stated)s per cent the "
        "oversubscription states: the fabric is blocking"),
    "wiring.blocking_pods": gettext_lazy(
        "pods %(pod_a)s and %(pod_b)s of plane %(plane)s meet on the cores with %(links)s links, %(percent)s per "
        "cent of the %(uplinks)s leaf uplinks of the smaller pod: between those pods the fabric is blocking"),
    "fabric.infiniband_subnet_manager": gettext_lazy(
        "InfiniBand fabric: the subnet manager (OpenSM or UFM, fat-tree routing) assigns LIDs and computes the "
        "routes, and credit-based flow control makes it lossless; no point-to-point /31s, loopbacks, BGP ASNs, "
        "PFC/ECN or ECMP hashing to plan. Hosts get one IPoIB address per NIC port from %(cidr)s"),
    "note.nics_built_in": gettext_lazy(
        "the %(ports)s backend NIC ports (%(nic)s) are built into the %(servers)s %(server)s servers and included "
        "in their price and power: the BOM lists no NIC cards"),
    # The other networks (engine.networks).
    "network.no_frontend_ports": gettext_lazy(
        "the server model %(server)s has no front-end ports; choose a server with front-end ports or leave "
        "the front-end network out"),
    "network.too_many_ports": gettext_lazy(
        "the server model %(server)s has %(available)s front-end ports, not %(ports)s"),
    "network.speed": gettext_lazy(
        "%(role)s ports run at %(gbps)s Gb/s; this network's ports run at %(network_gbps)s Gb/s (choose the "
        "switch's breakout at %(network_gbps)sG)"),
    "network.storage_empty": gettext_lazy(
        "give storage nodes or storage ports per server (or none: no storage network)"),
    "network.storage_converged_ports": gettext_lazy(
        "storage converged onto the front-end has no storage ports of its own; set them to 0"),
    "network.converged_without_frontend": gettext_lazy(
        "storage converged onto the front-end needs a front-end network"),
    "network.pool_overlap": gettext_lazy(
        "%(cidr)s overlaps %(other)s %(other_cidr)s"),
    "network.oob_rack_ports": gettext_lazy(
        "rack %(rack)s needs %(needed)s management ports; the management switch has %(ports)s ports, "
        "%(uplinks)s of them uplinks, so %(access)s for devices"),
    "network.oob_uplinks": gettext_lazy(
        "a management switch needs at least one uplink and keeps a device port: 1 to %(high)s, not %(value)s"),
    "network.what_oob_host": gettext_lazy(
        "a subnet per management switch (network, gateway, devices, broadcast)"),
    "network.choice": gettext_lazy(
        "must be one of %(choices)s, not %(value)s"),
    # Racks and the data hall (engine.hall).
    "layout.leaf_rack_choice": gettext_lazy('must be "middle", "end" or "server", not %(value)s'),
    "layout.power_basis_choice": gettext_lazy('must be "typical" or "maximum", not %(value)s'),
    "layout.cooling_choice": gettext_lazy('must be "air", "rear-door" or "liquid", not %(value)s'),
    "hall.reserved_cells": gettext_lazy("must be a list of [row, position] cells counted from 1, not %(value)s"),
    "hall.reserved_outside": gettext_lazy(
        "cell [%(row)s, %(position)s] is outside the hall of %(rows)s rows of %(positions)s positions"),
    "hall.zone_kind": gettext_lazy(
        'zones are "compute", "network" or "storage", each with its rows, not %(value)s'),
    "hall.zone_rows": gettext_lazy("must be a list of rows counted from 1, not %(value)s"),
    "hall.zone_row_outside": gettext_lazy("row %(row)s is outside the hall of %(rows)s rows"),
    "hall.zone_row_twice": gettext_lazy("row %(row)s is already in the %(other)s zone"),
    "rack.too_low": gettext_lazy("%(units)sU racks can't hold the %(role)s %(model)s of %(height)sU"),
    "rack.budget_one_server": gettext_lazy(
        "a %(budget_kw)s kW rack can't hold one %(server)s drawing %(power_kw)s kW (%(basis)s); raise the budget "
        "to at least %(power_kw)s kW"),
    "rack.budget_one_switch": gettext_lazy(
        "a %(budget_kw)s kW rack can't hold one %(role)s switch %(switch)s drawing %(power_kw)s kW (%(basis)s)"),
    "rack.budget_domain": gettext_lazy(
        "a %(system)s rack draws %(power_kw)s kW, more than the %(budget_kw)s kW budget per rack"),
    "rack.cooling_required": gettext_lazy(
        "%(system)s racks need %(required)s cooling (%(power_kw)s kW a rack), not %(cooling)s"),
    "rack.nothing_fits": gettext_lazy(
        "a %(units)sU rack of %(budget_kw)s kW has no room for one %(server)s beside the %(reserved)sU and "
        "%(reserved_kw)s kW its network devices take"),
    "rack.overfull": gettext_lazy("rack %(rack)s would hold %(used)sU of devices in %(units)sU"),
    "rack.over_budget": gettext_lazy(
        "rack %(rack)s would draw %(power_kw)s kW, more than its %(budget_kw)s kW budget"),
    "hall.too_small": gettext_lazy(
        "the design needs %(needed_rows)s rows of %(positions)s positions (%(racks)s racks) but the hall has "
        "%(rows)s rows: %(missing)s rows missing"),
    "hall.zone_too_small": gettext_lazy(
        "the %(zone)s racks need %(needed_rows)s rows of %(positions)s positions but the %(zone)s zone has "
        "%(rows)s: %(missing)s rows missing"),
    "warning.rack_scale_cooling": gettext_lazy(
        "%(system)s racks are built for direct liquid cooling, but the layout's racks are %(cooling)s-cooled"),
    "warning.rack_cooling": gettext_lazy(
        "%(racks)s racks draw up to %(power_kw)s kW, above the %(air_kw)s kW air-cooling limit (rear-door heat "
        "exchangers up to %(rear_door_kw)s kW): they need %(needed)s cooling, but the site offers %(cooling)s"),
    "warning.rack_servers_power": gettext_lazy(
        "%(servers)s servers of %(server_kw)s kW per rack draw %(needed_kw)s kW, more than the %(budget_kw)s kW "
        "budget: %(fit)s placed per rack"),
    "network.switch_class": gettext_lazy(
        "%(switch)s is a switch of class %(switch_class)s; the %(network)s network takes %(allowed)s switches"),
    "network.uplink_spine": gettext_lazy(
        "the leaf's uplinks run at %(uplink_gbps)s Gb/s; give a spine switch whose ports run at %(uplink_gbps)s Gb/s"),
    "network.oob_uplink_group": gettext_lazy(
        "the management switch has %(high)s uplink ports: give 1 to %(high)s uplinks, not %(value)s"),
}

# Params whose value is a word the engine uses as a name (translated), by param name.
WORDS = {
    "role": {
        "server": gettext_lazy("server"), "leaf": gettext_lazy("leaf"), "spine": gettext_lazy("spine"),
        "core": gettext_lazy("core"),
        "frontend leaf": gettext_lazy("frontend leaf"), "frontend spine": gettext_lazy("frontend spine"),
        "storage leaf": gettext_lazy("storage leaf"), "storage spine": gettext_lazy("storage spine"),
        "management aggregation": gettext_lazy("management aggregation"),
        "rack-scale system": gettext_lazy("rack-scale system"),
    },
    "basis": {"typical": pgettext_lazy("power basis", "typical"), "maximum": pgettext_lazy("power basis", "maximum")},
    "cooling": {"air": pgettext_lazy("cooling", "air"), "rear-door": pgettext_lazy("cooling", "rear-door"),
                "liquid": pgettext_lazy("cooling", "liquid")},
    "zone": {"compute": pgettext_lazy("hall zone", "compute"), "network": pgettext_lazy("hall zone", "network"),
             "storage": pgettext_lazy("hall zone", "storage")},
    "tier": {
        "server-leaf": gettext_lazy("server-leaf"), "leaf-spine": gettext_lazy("leaf-spine"),
        "spine-core": gettext_lazy("spine-core"),
    },
    "kind": {
        "switch": pgettext_lazy("catalog kind", "switch"), "server": pgettext_lazy("catalog kind", "server"),
        "NIC": pgettext_lazy("catalog kind", "NIC"), "optic": pgettext_lazy("catalog kind", "optic"),
        "cable": pgettext_lazy("catalog kind", "cable"), "fiber": pgettext_lazy("catalog kind", "fiber"),
    },
}

WORDS["switch_class"] = {
    "backend fabric": gettext_lazy("backend fabric"), "front-end / storage": gettext_lazy("front-end / storage"),
    "out-of-band management": gettext_lazy("out-of-band management"),
}
WORDS["network"] = {
    "front-end": gettext_lazy("front-end"), "storage": gettext_lazy("storage"),
    "out-of-band management": gettext_lazy("out-of-band management"),
}
WORDS["allowed"] = {
    "front-end / storage or backend fabric": gettext_lazy("front-end / storage or backend fabric"),
    "out-of-band management or front-end / storage": gettext_lazy("out-of-band management or front-end / storage"),
}
WORDS["other_role"] = WORDS["role"]
WORDS["required"] = WORDS["cooling"]
WORDS["needed"] = WORDS["cooling"]
WORDS["other"] = WORDS["zone"]

# Params that count things: grouped by thousands even where the engine's English doesn't ("3128 leaves").
COUNTS = frozenset({
    "gpus", "servers", "spare", "su_servers", "uplinks", "downlinks", "spines", "spines_per_pod", "fewer", "more",
    "even", "leaves", "scale_units", "pods", "sus_per_pod", "needed_pods", "max_gpus", "needed", "size", "count",
    "start", "asn_base", "max_asn", "planes", "rails", "switches", "links",
})


@lru_cache(maxsize=None)
def _formats(code: str) -> dict[str, str]:
    """Param name -> the format spec the engine's English template gives it."""
    return {name: spec for _, name, spec, _ in string.Formatter().parse(TEMPLATES.get(code, "")) if name}


def _value(code: str, name: str, value: Any) -> str:
    if isinstance(value, (Message, Mapping)):
        return message_text(value)
    if isinstance(value, str):
        words = WORDS.get(name)
        return str(words[value]) if words and value in words else value
    spec = _formats(code).get(name, "")
    if isinstance(value, int) and not isinstance(value, bool) and name in COUNTS:
        return number_format(value, force_grouping=True)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and "," in spec:
        decimals = spec.split(".", 1)[1].rstrip("f") if "." in spec else None
        return number_format(value, decimal_pos=int(decimals) if decimals else None, force_grouping=True)
    return format(value, spec)


def engine_text(code: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
    """The sentence `code` with `params` in the active language; `fallback` (the engine's English) if unknown."""
    template = MESSAGES.get(code)
    if template is None:
        return fallback
    params = params or {}
    try:
        return str(template) % {name: _value(code, name, value) for name, value in params.items()}
    except (KeyError, TypeError, ValueError):
        return fallback


def message_text(item: Message | Mapping[str, Any]) -> str:
    """A Message, or its stored dict {code, params[, text]}, in the active language."""
    if isinstance(item, Message):
        return engine_text(item.code, item.params, item.text)
    return engine_text(str(item.get("code") or ""), item.get("params") or {}, str(item.get("text") or ""))


def spec_error_messages(exc: SpecError) -> dict[str, list[str]]:
    """The engine's errors {dotted spec field: [sentence]} in the active language."""
    return {path: [message_text(msg) for msg in messages] for path, messages in exc.details.items()}


def spec_error_details(exc: SpecError) -> dict[str, list[dict[str, Any]]]:
    """The engine's errors as plain JSON {dotted spec field: [{code, params, text}]}, for storing."""
    return {path: [dict(msg.to_dict(), text=msg.text) for msg in messages] for path, messages in exc.details.items()}


def summary_bom_notes(summary: Mapping[str, Any] | None) -> list[str]:
    """The engine's notes about what the BOM leaves out on purpose ("note.*" codes), in the active language."""
    codes = (summary or {}).get("warning_codes")
    if not isinstance(codes, list):
        return []
    return [engine_text(str(item["code"]), item.get("params") or {}) for item in codes
            if isinstance(item, Mapping) and str(item.get("code") or "").startswith("note.")]


def summary_warnings(summary: Mapping[str, Any] | None) -> list[str]:
    """A stored version summary's points to raise in the review, in the active language.

    Summaries written before codes existed (no "warning_codes") show their English warnings.
    """
    summary = summary or {}
    texts = [str(text) for text in summary.get("warnings") or []]
    codes = summary.get("warning_codes")
    if not isinstance(codes, list) or len(codes) != len(texts):
        return texts
    return [engine_text(str(item.get("code") or ""), item.get("params") or {}, text) if isinstance(item, Mapping)
            else text for item, text in zip(codes, texts)]


def alternative_reason(alternative: Mapping[str, Any]) -> str:
    """Why an alternative structure is not feasible, in the active language (its stored English if no codes)."""
    reasons = alternative.get("reason_codes")
    if not reasons:
        return str(alternative.get("reason") or "")
    texts = [message_text(item) if isinstance(item, Mapping) else "" for item in reasons]
    if not all(texts):
        return str(alternative.get("reason") or "")
    return "; ".join(texts)


def alternative_label(planes: Any, tiers: Any, fallback: str = "", *, blocking: bool = False) -> str:
    """An alternative's name ("3 tiers", "8 planes, 2 tiers": the engine stores it in English) in the active language.

    blocking: the fewest-spines wiring with uneven uplinks ("2 tiers, fewest spines (blocking)").
    """
    try:
        planes, tiers = int(planes), int(tiers)
    except (TypeError, ValueError):
        return fallback
    if planes == 1:
        label = _("%(tiers)s tiers") % {"tiers": tiers}
    else:
        label = _("%(planes)s planes, %(tiers)s tiers") % {"planes": planes, "tiers": tiers}
    if blocking:
        return _("%(structure)s, fewest spines (blocking)") % {"structure": label}
    return label


def alternative_notes(alternative: Mapping[str, Any]) -> list[str]:
    """Why a blocking alternative is blocking (its stored notes), in the active language."""
    notes = alternative.get("notes")
    if not isinstance(notes, list):
        return []
    return [text for text in (message_text(item) for item in notes if isinstance(item, Mapping)) if text]


def wiring_verdict(summary: Mapping[str, Any] | None) -> dict[str, Any]:
    """The wiring proof of a stored version summary (or an alternative), as a page or sheet shows it.

    {"computed", "as_stated", "fraction", "stated", "text", "detail"}: text is the worst leaf pair's
    share of a leaf's downlinks ("100.0 %"), detail says whether that is the stated oversubscription.
    Versions generated before the proof existed have none: "not computed".
    """
    wiring = (summary or {}).get("wiring")
    if not isinstance(wiring, Mapping) or not isinstance(wiring.get("worst_pair_fraction"), (int, float)):
        return {"computed": False, "as_stated": None, "fraction": None, "stated": None, "text": _("not computed"),
                "detail": _("generated before the wiring proof existed; generate a new version to compute it")}
    fraction = float(wiring["worst_pair_fraction"])
    stated = float(wiring.get("stated_fraction") or 0.0)
    as_stated = bool(wiring.get("as_stated"))
    percent = _("%(percent)s %%") % {"percent": number_format(100 * fraction, decimal_pos=1)}
    stated_percent = _("%(percent)s %%") % {"percent": number_format(100 * stated, decimal_pos=1)}
    pair = wiring.get("worst_pair") or []
    if as_stated:
        detail = _("as stated (%(stated)s of a leaf's downlinks for its worst leaf pair)") % {"stated": stated_percent}
    else:
        detail = _("blocking: below the stated %(stated)s") % {"stated": stated_percent}
    if isinstance(pair, list) and len(pair) == 2:
        detail += " · " + _("worst pair %(a)s – %(b)s") % {"a": pair[0], "b": pair[1]}
    return {"computed": True, "as_stated": as_stated, "fraction": fraction, "stated": stated, "text": percent,
            "detail": detail}
