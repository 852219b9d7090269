"""Every sentence the engine writes for a person, with a stable code and the values in it.

A Message is the English text plus `code` (which sentence) and `params` (the values the sentence
names), so a user interface can show the same sentence in another language without parsing it.
Rules:
- TEMPLATES holds each code's English wording as a str.format template; a Message's text is
  always TEMPLATES[code].format(**params), a nested Message param giving its own text. Format
  specs in a template (`{gpus:,}`, `{ratio:.2f}`) say how the English text writes the number.
- Params are plain JSON values: numbers as numbers, names as strings; a value the sentence
  quotes as Python would (`not 'abc'`) is stored already quoted (repr). A param may itself be
  a Message: a part of the sentence that is translated on its own (one end of a link class).
- Codes never change meaning once released (stored design summaries keep them); a new wording
  gets a new code. A Message built from plain text (code "") is shown as the engine wrote it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

TEMPLATES: dict[str, str] = {
    # One spec field at a time (DesignSpec.validate, specio, seed catalog).
    "value.whole_number": "must be a whole number, not {value}",
    "value.int_at_least": "must be at least {low:,}, not {value:,}",
    "value.int_at_most": "must be at most {high:,}, not {value:,}",
    "value.number": "must be a number, not {value}",
    "value.at_least": "must be at least {low:g}, not {value:g}",
    "value.more_than": "must be more than {low:g}, not {value:g}",
    "value.at_most": "must be at most {high:g}, not {value:g}",
    "value.at_least_hint": "must be at least {low:g}, not {value:g} ({hint})",
    "value.boolean": "must be true or false, not {value}",
    "value.at_most_hint": "must be at most {high:g}, not {value:g} ({hint})",
    "hint.oversubscription": "o in o:1 at the leaf, from 1 (non-blocking) to 16",
    "spec.give_server": "give a server model",
    "spec.give_switch": "give a switch model",
    "spec.give_nic": "give a NIC model",
    "spec.give_currency": "give a currency code such as USD",
    "spec.give_optic": "give a transceiver",
    "spec.give_cable": "give a cable assembly",
    "spec.give_fiber": "give a fibre cord",
    "spec.give_spares": "give spare percentages per category (switches, transceivers, cables, fibers)",
    "spec.tiers_choice": "must be \"auto\", 2 or 3, not {value}",
    "spec.placement_choice": "must be \"middle\" or \"end\", not {value}",
    "layout.leaf_rack_choice": "must be \"middle\", \"end\" or \"server\", not {value}",
    "layout.power_basis_choice": "must be \"typical\" or \"maximum\", not {value}",
    "layout.cooling_choice": "must be \"air\", \"rear-door\" or \"liquid\", not {value}",
    "hall.reserved_cells": "must be a list of [row, position] cells counted from 1, not {value}",
    "hall.reserved_outside": "cell [{row}, {position}] is outside the hall of {rows} rows of {positions} positions",
    "hall.zone_kind": "zones are \"compute\", \"network\" or \"storage\", each with its rows, not {value}",
    "hall.zone_rows": "must be a list of rows counted from 1, not {value}",
    "hall.zone_row_outside": "row {row} is outside the hall of {rows} rows",
    "hall.zone_row_twice": "row {row} is already in the {other} zone",
    # What the racks can hold (engine.hall, InfeasibleSpec on the layout field to change).
    "rack.too_low": "{units}U racks can't hold the {role} {model} of {height}U",
    "rack.budget_one_server": "a {budget_kw:g} kW rack can't hold one {server} drawing {power_kw:g} kW ({basis}); "
                              "raise the budget to at least {power_kw:g} kW",
    "rack.budget_one_switch": "a {budget_kw:g} kW rack can't hold one {role} switch {switch} drawing {power_kw:g} kW "
                              "({basis})",
    "rack.budget_domain": "a {system} rack draws {power_kw:g} kW, more than the {budget_kw:g} kW budget per rack",
    "rack.cooling_required": "{system} racks need {required} cooling ({power_kw:g} kW a rack), not {cooling}",
    "rack.nothing_fits": "a {units}U rack of {budget_kw:g} kW has no room for one {server} beside the {reserved}U "
                         "and {reserved_kw:g} kW its network devices take",
    "rack.overfull": "rack {rack} would hold {used}U of devices in {units}U",
    "rack.over_budget": "rack {rack} would draw {power_kw:g} kW, more than its {budget_kw:g} kW budget",
    "hall.too_small": "the design needs {needed_rows} rows of {positions} positions ({racks:,} racks) but the hall "
                      "has {rows} rows: {missing} rows missing",
    "hall.zone_too_small": "the {zone} racks need {needed_rows} rows of {positions} positions but the {zone} zone has "
                           "{rows}: {missing} rows missing",
    "warning.rack_scale_cooling": "{system} racks are built for direct liquid cooling, but the layout's racks are "
                                  "{cooling}-cooled",
    "warning.rack_cooling": "{racks:,} racks draw up to {power_kw:g} kW, above the {air_kw:g} kW air-cooling limit "
                            "(rear-door heat exchangers up to {rear_door_kw:g} kW): they need {needed} cooling, but "
                            "the site offers {cooling}",
    "warning.rack_servers_power": "{servers} servers of {server_kw:g} kW per rack draw {needed_kw:g} kW, more than "
                                  "the {budget_kw:g} kW budget: {fit} placed per rack",
    "spec.fiber_choice": "must be MMF or SMF, not {value}",
    "spec.fabric_choice": "must be \"ethernet\" or \"infiniband\", not {value}",
    "spec.backend_switch_class": "{switch} is a switch of class {switch_class}; the backend fabric takes "
                                 "fabric-class switches",
    "warning.power_not_published": "{skus}: the vendor publishes no power figure, so the power totals leave out "
                                   "{count} device(s); ask the vendor for typical and maximum power",
    "warning.price_not_published": "{skus}: no list price in the catalog, so the cost totals leave out {count} "
                                   "item(s) and are a lower bound; add the price to the catalog or the quote",
    "warning.hall_power_not_published": "{parts}: no published power figure, so the rack and hall power totals "
                                        "leave out {count} device(s) and are a lower bound; ask the vendor for "
                                        "the figure",
    "warning.rack_over_budget_optics": "rack {rack} draws {power_kw:g} kW with the optics and active cables in its "
                                       "switches, more than its {budget_kw:g} kW budget: lower switches_per_rack "
                                       "or raise the budget",
    "warning.reach_margin": "{links:,} {tier} links get fibre closer than {margin_m:g} m to their optics' "
                            "{reach_m:g} m reach (the margin plans at most {usable_m:g} m) and no qualified part "
                            "reaches further; measure those runs before ordering, or add a longer-reach part",
    "spec.switch_class_choice": "must be \"fabric\", \"frontend\" or \"management\", not {value}",
    "spec.fabrics_list": "must list the fabrics the part is qualified for (\"ethernet\", \"infiniband\"), "
                         "not {value}",
    "spec.vendor_name": "must be the vendor's name, not {value}",
    "spec.vendor_names": "must be a list of vendor names, not {value}",
    "spec.planes_divide": "{planes} planes don't divide the server's {rails} backend ports (rails); "
                          "choose one of {choices}",
    "spec.server_cages_split": "the server's {ports} backend ports don't split evenly into cages of {ports_per_cage}",
    "spec.cages_split": "{ports} logical ports don't split evenly over {cages} cages",
    "pool.not_cidr": "{value} is not an IPv4 CIDR such as 10.0.0.0/16",
    "pool.host_bits": "{value} has host bits set; did you mean {network}?",
    "pool.not_ipv4": "{value} is not IPv4",
    "pool.overlap": "{cidr} overlaps pools.{other} {other_cidr}",
    "spec.json_object": "expected a JSON object",
    "spec.expected_object": "expected an object, got {type}",
    "spec.expected_list": "expected a list",
    "spec.unknown_field": "unknown field",
    "spec.unknown_field_of": "unknown field; expected one of {fields}",
    "spec.required": "required",
    "spec.sku_or_inline": "give either a catalog sku (with breakout) or the hardware inline",
    "catalog.unknown_sku": "no {kind} {sku} in the seed catalog",
    "catalog.breakout_not_offered": "{switch} offers {modes}, not {breakout}",
    # Parts that don't work together (DesignSpec.validate, InfeasibleSpec).
    "speed.choose_breakout": "ports run at {gbps}G in {mode} but the server NICs are {nic_gbps}G; "
                             "choose breakout {count}x{nic_gbps}G",
    "speed.every_tier": "ports run at {gbps}G in {mode} but the server NICs are {nic_gbps}G; "
                        "every tier must run the NICs' {nic_gbps}G",
    "nic.speed": "the NIC runs at {gbps}G but the server's backend ports are {server_gbps}G",
    "nic.ports": "{ports} backend ports can't be made of {nic_ports}-port NICs",
    # Planes from a split NIC port and scale-up domains (DesignSpec.validate).
    "nic.split_mode": "the NIC {nic} publishes no {split}-way split of its {gbps}G port; its modes: {modes}",
    "nic.split_planes": "each part of a split NIC port lands on its own plane: with ports split in {split}, "
                        "planes must be a multiple of {split}, not {planes}",
    "nic.split_speed": "a {gbps}G port doesn't split evenly in {split}",
    "spec.nic_splits": "must list the ways a port splits (1, 2 or 4), not {value}",
    "scaleup.kind_choice": "must be \"in-server\", \"rack-scale\" or empty, not {value}",
    "scaleup.domain_gpus": "a rack-scale domain of {domain_gpus} GPUs doesn't hold whole {gpus}-GPU trays",
    "scaleup.whole_domains": "{system} comes in whole scale-up domains of {domain_gpus} GPUs; "
                             "ask for {lower:,} or {upper:,} GPUs",
    "fabric.mixed": "the {role} switch {switch} is {fabric} but the {other_role} switch {other_switch} is "
                    "{other_fabric}; one fabric can't mix Ethernet and InfiniBand switches",
    # Structure (engine.topology).
    "topology.no_downlinks": "{ports}-port leaves at {oversubscription:g}:1 leave no port for servers",
    "topology.no_uplinks": "{ports}-port leaves at {oversubscription:g}:1 leave no uplink; "
                           "lower the oversubscription",
    "topology.two_tiers_limit": "2 tiers of {spine_ports}-port spines hold at most {max_gpus:,} GPUs "
                                "({scale_units} scale units of {su_servers} servers); {gpus:,} GPUs need "
                                "{leaves} leaves per plane. Use 3 tiers, more planes or larger switches",
    "topology.spine_ports_odd": "3 tiers split spine ports in halves (down and up); {ports} ports is odd",
    "topology.spine_cage_halves": "3 tiers split spine ports in halves on cage boundaries; {cages} cages can't",
    "topology.spine_half_too_small": "half of {ports} spine ports can't reach one scale unit's {leaves} leaves "
                                     "per plane",
    "topology.three_tiers_limit": "3 tiers of these switches hold at most {max_gpus:,} GPUs ({pods} pods of "
                                  "{sus_per_pod} scale units of {su_servers} servers); {gpus:,} GPUs need "
                                  "{needed_pods} pods. Use more planes or larger switches",
    # Cabling (engine.cabling); {a} and {b} are cabling.end_* messages, {tier} a link class name.
    "cabling.end_cages": "{role} {form_factor} {native_gbps}G cages in {ports_per_cage}x{link_gbps}G",
    "cabling.end_ports": "{role} {form_factor} {link_gbps}G ports",
    "cabling.no_way": "no cable assembly or transceiver pair in the catalog joins {a} to {b}",
    "cabling.too_long": "the longest {tier} run is {longest_m:.1f} m but the catalog's ways of joining {a} to "
                        "{b} reach at most {reach_m:g} m; add a longer-reach optic (and fibre cords) to the "
                        "catalog or lay out the hall more compactly (layout.racks_per_row, layout.row_pitch_m)",
    # Qualification (engine.cabling): {fabric} is a fabric's name, {vendors} the switch vendors of the tier.
    "cabling.no_qualified_way": "no cable assembly or transceiver pair qualified for {fabric} and made by "
                                "{vendors} (or declared compatible) joins {a} to {b}",
    "cabling.no_fabric_way": "no cable assembly or transceiver pair qualified for {fabric} joins {a} to {b}",
    "cabling.qualified_too_long": "the longest {tier} run is {longest_m:.1f} m but nothing qualified for {fabric} "
                                  "and made by {vendors} (or declared compatible) reaches it: the qualified ways "
                                  "of joining {a} to {b} reach at most {reach_m:g} m; add a qualified part of "
                                  "{longest_m:.1f} m reach to the catalog or lay out the hall more compactly",
    "cabling.fabric_too_long": "the longest {tier} run is {longest_m:.1f} m but nothing qualified for {fabric} "
                               "reaches it: the qualified ways of joining {a} to {b} reach at most {reach_m:g} m; "
                               "add a qualified part of {longest_m:.1f} m reach to the catalog or lay out the "
                               "hall more compactly",
    "cabling.third_party_reach": "other vendors' parts qualified for {fabric} reach {reach_m:g} m: allowing "
                                 "third-party optics on the design would use them",
    # Addresses (engine.addressing); {what} is an addressing.what_* message.
    "addressing.pool_too_small": "needs {needed:,} addresses ({what}) but {cidr} holds {size:,}; "
                                 "use a /{prefix} or larger",
    "addressing.what_host": "a /31 per NIC port",
    "addressing.what_ipoib_host": "an IPoIB address per NIC port",
    "addressing.what_p2p": "a /31 per switch-to-switch link",
    "addressing.what_loopback": "a /32 per switch",
    "addressing.asn_range": "needs {count:,} ASNs from {asn_base:,}, past the last 4-byte ASN {max_asn:,}; "
                            "start at {start:,} or lower",
    "addressing.asn_reserved": "the {count:,} ASNs from {asn_base:,} to {last:,} include the reserved ASN "
                               "{reserved:,}; start at {start:,} (the private 4-byte range) or keep a 2-byte "
                               "range within 64,512 to 65,534",
    # Points to raise in a review (engine.plan.warnings).
    "warning.spare_gpu_slots": "{gpus:,} GPUs need {servers:,} servers of {gpus_per_server}: "
                               "{spare} GPU slots spare",
    "warning.partial_scale_unit": "the last scale unit has {servers} of {su_servers} servers; its leaves still "
                                  "cable all {uplinks} uplinks",
    "warning.partial_scale_unit_shared": "the last scale unit has {servers} of {su_servers} servers; its leaves "
                                         "carry {downlinks} downlinks each and cable {uplinks} uplinks",
    "warning.leaf_split": "{ports}-port leaves at {oversubscription:g}:1 use {downlinks} downlinks and {uplinks} "
                          "uplinks ({ratio:.2f}:1)",
    "warning.rack_servers_height": "{servers} servers of {server_ru}U per rack need {needed}U, more than the "
                                   "{rack_units}U racks hold: put at most {fit} in a rack",
    "warning.rack_domain_height": "a {system} rack holds {trays} compute trays of {server_ru}U and {switch_trays} "
                                  "NVLink switch trays of 1U: {needed}U, more than the {rack_units}U racks hold",
    "warning.rack_leaves_height": "each scale unit's {leaves} leaves of {switch_ru}U share one rack and need "
                                  "{needed}U, more than the {rack_units}U racks hold",
    "warning.rack_switches_height": "{switches} {role} switches of {switch_ru}U per rack need {needed}U, more than "
                                    "the {rack_units}U racks hold: put at most {fit} in a rack",
    "warning.partial_pod": "the last pod is partly filled and has {spines} spines instead of {spines_per_pod}",
    "warning.uneven_uplinks": "{uplinks} leaf uplinks over {spines} spines: each leaf has {fewer} or {more} links "
                              "to each spine, so All-to-All traffic meets spine hotspots that no routing removes; "
                              "{even} spines would spread the uplinks evenly",
    "wiring.blocking": "the worst leaf pair ({leaf_a} and {leaf_b}) can exchange {links} links' worth of traffic, "
                       "{percent:.1f} per cent of a leaf's {downlinks} downlinks, below the {stated:.1f} per cent "
                       "the oversubscription states: the fabric is blocking",
    "wiring.blocking_pods": "pods {pod_a} and {pod_b} of plane {plane} meet on the cores with {links} links, "
                            "{percent:.1f} per cent of the {uplinks} leaf uplinks of the smaller pod: between "
                            "those pods the fabric is blocking",
    "fabric.infiniband_subnet_manager": "InfiniBand fabric: the subnet manager (OpenSM or UFM, fat-tree routing) "
                                      "assigns LIDs and computes the routes, and credit-based flow control makes "
                                      "it lossless; no point-to-point /31s, loopbacks, BGP ASNs, PFC/ECN or ECMP "
                                      "hashing to plan. Hosts get one IPoIB address per NIC port from {cidr}",
    "note.nics_built_in": "the {ports:,} backend NIC ports ({nic}) are built into the {servers:,} {server} servers "
                          "and included in their price and power: the BOM lists no NIC cards",
}

# Codes the engine no longer writes (kept so stored design summaries still read): an SU's leaves now take as many
# leaf racks as they need, and a rack-scale system's rack too low for it is refused (rack.too_low).
RETIRED = frozenset({"warning.rack_leaves_height", "warning.rack_domain_height"})


@dataclass(frozen=True, slots=True)
class Message:
    """One sentence: `text` in English, `code` (a TEMPLATES key, or "" for plain text) and its `params`."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        """{"code", "params"} as plain JSON (nested Messages as their own dicts)."""
        return {"code": self.code, "params": {
            key: value.to_dict() if isinstance(value, Message) else value for key, value in self.params.items()}}


def message(code: str, **params: Any) -> Message:
    """The Message `code` with these params; its text is TEMPLATES[code] filled in."""
    return Message(code, params, fill(TEMPLATES[code], params))


def fill(template: str, params: Mapping[str, Any]) -> str:
    return template.format(**{key: value.text if isinstance(value, Message) else value
                              for key, value in params.items()})


def as_message(value: str | Message) -> Message:
    """A Message as is; plain text as a Message without a code (shown as written)."""
    return value if isinstance(value, Message) else Message("", {}, str(value))


class MessageError(ValueError):
    """A ValueError whose reason is a Message, so whoever reports it keeps the code."""

    def __init__(self, msg: Message) -> None:
        super().__init__(msg.text)
        self.message = msg
