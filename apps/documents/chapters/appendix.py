"""Appendix: the inputs the version was generated from (its frozen spec), in words and units.

Rules:
- Every input is named as the design form names it and every value carries its unit; catalog parts are
  described (ports, speeds, height, power), never dumped as keys. Prices are left out: the bill of materials
  states them with their discount and currency.
- The catalog parts offered to the engine (optics, cables, fibre cords) are counted by kind, not listed.
- A figure the spec lacks (a power not published) is written as such, never as 0.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.views.version import layout_rows, network_labels

from ..formatting import count
from ..model import Chapter, Heading, KeyValues, Paragraph
from ..source import DocumentSource

KEY = "appendix"
TITLE = gettext_lazy("Appendix: inputs")


def _watts(value: Any) -> str:
    if value is None:
        return _("not published")
    return _("%(watts)s W") % {"watts": f"{float(value):,.0f}"}


def _named(hw: dict[str, Any]) -> str:
    name, sku = str(hw.get("name") or ""), str(hw.get("sku") or "")
    if name and sku and sku not in name:
        return f"{name} ({sku})"
    return name or sku or _("unnamed part")


def switch_text(hw: dict[str, Any]) -> str:
    parts = [_named(hw)]
    if hw.get("cages"):
        parts.append(_("%(cages)s %(form)s cages of %(gbps)s Gb/s") % {
            "cages": count(hw["cages"]), "form": hw.get("form_factor") or "", "gbps": count(hw.get("cage_gbps"))})
    ports = _("%(ports)s ports of %(gbps)s Gb/s") % {"ports": count(hw.get("ports")), "gbps": count(hw.get("gbps"))}
    parts.append(ports + (f" ({hw['breakout']})" if hw.get("breakout") else ""))
    if hw.get("uplinks"):
        parts.append(_("%(ports)s uplinks of %(gbps)s Gb/s") % {"ports": count(hw["uplinks"]),
                                                                "gbps": count(hw.get("uplink_gbps"))})
    parts.append(_("%(units)s U") % {"units": count(hw.get("rack_units"))})
    parts.append(_("power %(typical)s typical, %(maximum)s maximum") % {
        "typical": _watts(hw.get("power_typical_w")), "maximum": _watts(hw.get("power_max_w"))})
    return ", ".join(parts)


def server_text(hw: dict[str, Any]) -> str:
    parts = [_named(hw), _("%(gpus)s GPUs") % {"gpus": count(hw.get("gpus"))},
             _("%(ports)s backend ports of %(gbps)s Gb/s") % {"ports": count(hw.get("nic_ports")),
                                                              "gbps": count(hw.get("nic_gbps"))},
             _("%(units)s U") % {"units": count(hw.get("rack_units"))},
             _("power %(watts)s") % {"watts": _watts(hw.get("power_w"))}]
    if hw.get("scale_up"):
        parts.append(_("scale-up: %(name)s") % {"name": hw["scale_up"]})
    return ", ".join(parts)


def nic_text(hw: dict[str, Any]) -> str:
    return ", ".join([_named(hw), _("%(ports)s ports of %(gbps)s Gb/s") % {
        "ports": count(hw.get("ports")), "gbps": count(hw.get("gbps"))}, str(hw.get("form_factor") or ""),
        _("power %(watts)s") % {"watts": _watts(hw.get("power_w"))}])


def _by_kind(parts: list[dict[str, Any]], key: str) -> str:
    kinds = Counter(str(part.get(key) or "–") for part in parts if isinstance(part, dict))
    return ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items()))


def _pool_rows(pools: dict[str, Any]) -> list[tuple[str, str]]:
    labels = {"host": _("Host pool (NIC /31s)"), "p2p": _("Switch-to-switch pool (/31s)"),
              "loopback": _("Loopback pool (/32s)"), "asn_base": _("First ASN")}
    return [(str(label), str(pools[key])) for key, label in labels.items() if pools.get(key) not in (None, "")]


def request_rows(spec: dict[str, Any]) -> list[tuple[str, str]]:
    tiers = spec.get("tiers")
    spares = spec.get("spares") or {}
    split = int(spec.get("nic_split") or 1)
    rows = [
        (_("Design name"), str(spec.get("name") or "–")),
        (_("GPUs"), count(spec.get("gpus"))),
        (_("Planes"), count(spec.get("planes") or 1)),
        (_("Tiers"), _("chosen by the engine") if tiers in (None, "auto") else count(tiers)),
        (_("Oversubscription at the leaf (o:1)"), f"{float(spec.get('oversubscription') or 1):g}:1"),
        (_("NIC port split"), _("whole ports") if split == 1 else _(
            "each port in %(parts)s parts, each on a plane of its own") % {"parts": split}),
        (_("Optics and cables"), _("third-party optics allowed (any vendor's parts qualified for the fabric)")
         if spec.get("third_party_optics") else _("the switch vendor's, or declared compatible with it")),
        (_("Currency"), str(spec.get("currency") or "–")),
        (_("Discount (%)"), f"{float(spec.get('discount_pct') or 0):g} %"),
    ]
    names = {"switches": _("Spare switches (%)"), "transceivers": _("Spare transceivers (%)"),
             "cables": _("Spare cables (%)"), "fibers": _("Spare fibre cords (%)")}
    rows += [(str(label), f"{float(spares.get(key) or 0):g} %") for key, label in names.items()]
    return rows


def hardware_rows(spec: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    if spec.get("server"):
        rows.append((_("GPU server"), server_text(spec["server"])))
    if spec.get("nic"):
        rows.append((_("Backend NIC"), nic_text(spec["nic"])))
    for role, label in (("leaf", _("Leaf switch")), ("spine", _("Spine switch")), ("core", _("Core switch"))):
        if spec.get(role):
            rows.append((label, switch_text(spec[role])))
    return rows


def network_rows(spec: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The other networks' inputs: (network label, rows)."""
    labels = network_labels()
    out = []
    for key in ("frontend", "storage", "oob"):
        net = spec.get(key)
        if not isinstance(net, dict):
            continue
        rows: list[tuple[str, str]] = []
        if net.get("converged"):
            rows.append((_("Switches"), _("converged onto the front-end")))
        elif isinstance(net.get("leaf"), dict):
            rows.append((_("Leaf switch") if key != "oob" else _("Management switch"), switch_text(net["leaf"])))
        if net.get("ports_per_server"):
            rows.append((_("Ports per GPU server"), count(net["ports_per_server"])))
        if net.get("nodes"):
            rows.append((_("Storage nodes"), _("%(nodes)s, %(ports)s ports each") % {
                "nodes": count(net["nodes"]), "ports": count(net.get("ports_per_node"))}))
        if net.get("uplinks"):
            rows.append((_("Uplinks per management switch"), count(net["uplinks"])))
        if net.get("gbps"):
            rows.append((_("Port speed"), _("%(gbps)s Gb/s") % {"gbps": count(net["gbps"])}))
        if net.get("oversubscription"):
            rows.append((_("Oversubscription at the leaf (o:1)"), f"{float(net['oversubscription']):g}:1"))
        rows += _pool_rows(net.get("pools") or {})
        out.append((str(labels[key]), rows))
    return out


def parts_rows(spec: dict[str, Any]) -> list[tuple[str, str]]:
    optics, cables, fibers = (list(spec.get(key) or []) for key in ("optics", "cables", "fibers"))
    rows = []
    if optics:
        rows.append((_("Transceivers"), _("%(n)s, by medium: %(kinds)s") % {
            "n": count(len(optics)), "kinds": _by_kind(optics, "media")}))
    if cables:
        rows.append((_("Cables"), _("%(n)s, by medium: %(kinds)s") % {
            "n": count(len(cables)), "kinds": _by_kind(cables, "media")}))
    if fibers:
        rows.append((_("Fibre cords"), _("%(n)s, by fibre: %(kinds)s") % {
            "n": count(len(fibers)), "kinds": _by_kind(fibers, "fiber")}))
    return rows


def build(source: DocumentSource) -> Chapter:
    spec = source.version.spec or {}
    blocks: list = [
        Paragraph(_("The inputs frozen on version %(number)s, with the catalog parts as they were when it was "
                    "generated. The same inputs generate the same design; prices are those of the bill of "
                    "materials.") % {"number": source.version.number}),
        Heading(_("Request")), KeyValues(request_rows(spec)),
        Heading(_("Hardware")), KeyValues(hardware_rows(spec)),
    ]
    layout = layout_rows(spec.get("layout") or {})
    if layout:
        blocks += [Heading(_("Rack layout")), KeyValues(layout)]
    pools = [] if source.version.is_infiniband else _pool_rows(spec.get("pools") or {})
    if pools:
        blocks += [Heading(_("Address pools")), KeyValues(pools)]
    for label, rows in network_rows(spec):
        blocks += [Heading(label), KeyValues(rows)]
    parts = parts_rows(spec)
    if parts:
        blocks += [Heading(_("Catalog parts offered to the engine")),
                   Paragraph(_("The parts the engine could choose from for the links; the bill of materials lists "
                               "the ones it chose."), style="note"),
                   KeyValues(parts)]
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
