"""A version's scale-up domains and NIC port split, as the design page and the workbook show them.

Read from the stored summary (the engine's report: "scale_up", "nic_split", "port_gbps"); a version
generated before domains were reported shows none. Rules stated to the reader:
- Rack-scale systems (NVL72): NVLink switch trays, their copper spine and power shelves are part of
  the rack system, counted here and in its racks, never in the network BOM or the network power.
- In-server domains (HGX / DGX NVLink, Infinity Fabric) live on the server's baseboard.
- Traffic between GPUs of one domain crosses NVLink, not the backend fabric (the traffic analysis
  models it so).
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .workbook import Column, Sheet, Styled

SHEET_NAME = gettext_lazy("Scale-up and planes")


def _int(value: Any) -> str:
    return f"{int(value):,}" if isinstance(value, (int, float)) else "-"


def scale_up_rows(summary: dict | None) -> list[dict[str, Any]]:
    """(key, label, value text, raw value) rows of the version's scale-up domains; [] when not reported."""
    up = (summary or {}).get("scale_up")
    if not isinstance(up, dict):
        return []
    rack_scale = up.get("kind") == "rack-scale"
    gb_s = up.get("gb_s_per_gpu")
    rows = [
        ("kind", _("Scale-up domain"), _("rack-scale (one NVLink domain across compute trays)") if rack_scale
         else _("in the server")),
        ("interconnect", _("Interconnect"), up.get("interconnect") or _("not stated")),
        ("domains", _("Domains"), _int(up.get("domains"))),
        ("gpus_per_domain", _("GPUs per domain"), _int(up.get("gpus_per_domain"))),
        ("gb_s_per_gpu", _("Scale-up bandwidth per GPU (GB/s, both directions)"),
         _int(gb_s) if gb_s else _("not published")),
    ]
    if rack_scale:
        rows += [
            ("servers_per_domain", _("Compute trays per domain"), _int(up.get("servers_per_domain"))),
            ("racks_per_domain", _("Racks per domain"), _int(up.get("racks_per_domain"))),
            ("racks", _("Compute racks"), _int(up.get("racks"))),
            ("rack_units_per_rack", _("Rack units per compute rack (compute and NVLink switch trays)"),
             _int(up.get("rack_units_per_rack"))),
            ("switch_trays", _("NVLink switch trays"), _("%(total)s (%(each)s per domain)") % {
                "total": _int(up.get("switch_trays")), "each": _int(up.get("switch_trays_per_domain"))}),
        ]
    else:
        rows.append(("racks_per_domain", _("Racks per domain"), _("part of one server")))
    return [{"key": key, "label": label, "value": value, "raw": up.get(key)} for key, label, value in rows]


def scale_up_notes(summary: dict | None) -> list[str]:
    """How the domain is counted (no double counting) and what it means for traffic."""
    up = (summary or {}).get("scale_up")
    if not isinstance(up, dict):
        return []
    notes = [_("Traffic between GPUs of one domain crosses the scale-up network (NVLink, PXN), never the backend "
               "fabric; the traffic analysis sends only traffic between domains over the fabric.")]
    if up.get("kind") == "rack-scale":
        notes.insert(0, _("The NVLink switch trays, their copper spine and the power shelves are part of the "
                          "rack-scale system and its published rack power: counted here and in the compute racks, "
                          "never in the network BOM or the network power. Scale units hold whole domains."))
        if (summary or {}).get("leaf_slots"):
            notes.insert(1, _("The domains of a scale unit share their leaves by tray slot: leaf t takes the NIC "
                              "ports of tray t of every domain, so GPUs at the same position of different racks "
                              "meet on one leaf; this needs fewer switches than a leaf per rail of each rack."))
    return notes


def split_rows(summary: dict | None) -> list[dict[str, Any]]:
    """The NIC port split: parts per port and the speed of one part (a row only when ports are split)."""
    s = summary or {}
    split = int(s.get("nic_split") or 1)
    if split == 1:
        return []
    return [
        {"key": "nic_split", "label": _("NIC port split"), "value": _(
            "each port in %(parts)s parts of %(gbps)s Gb/s, each on a plane of its own") % {
            "parts": split, "gbps": s.get("port_gbps", "-")}, "raw": split},
        {"key": "rails", "label": _("Rails (NIC port parts per server)"), "value": _int(s.get("rails")),
         "raw": s.get("rails")},
    ]


def scale_up_sheet_write(context, sheet: Sheet) -> bool | None:
    """The workbook's "Scale-up and planes" sheet: the domains, how they are counted, and the NIC port split."""
    summary = context.version.summary or {}
    rows = scale_up_rows(summary) + split_rows(summary)
    if not rows:
        return False
    sheet.columns([Column(_("Figure"), 48), Column(_("Value"), 48), Column(_("Key"), 22)])
    for row in rows:
        raw = row["raw"]
        numeric = isinstance(raw, (int, float)) and not isinstance(raw, bool) and float(raw).is_integer()
        value = int(raw) if numeric and row["key"] not in ("kind", "switch_trays") else row["value"]
        sheet.append([row["label"], Styled(value, "int" if isinstance(value, int) else "text"), row["key"]])
    sheet.append([])
    for note in scale_up_notes(summary):
        sheet.append([Styled(note, "note")])
    return True
