"""The design page of one version (for review meetings) and its topology with the cabling table."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views import View

from apps.projects.views import ProjectScopedViewMixin

from ..api.topology import LEVELS
from ..api.topology.drawing import PLANE_COLOURS, RAIL_COLOURS, ROLE_FILL
from ..engine_text import (alternative_label, alternative_notes, alternative_reason, summary_bom_notes,
                           summary_warnings, wiring_verdict)
from ..fabric_text import reach_margin_rule, underlay_not_applicable
from ..job_text import job_error
from ..models import DesignVersion
from ..scaleup_text import scale_up_notes, scale_up_rows, split_rows
from ..panels import design_panels_render, device_links
from ..services.design import version_alternative_use
from ..services.layout_input import cells_text, rows_text
from ..missing import bom_missing, bom_missing_text, missing_sentence
from ..selectors import (bom_lines_with_spares, version_bom_list, version_bom_totals, version_latest_job,
                         version_list_for_design)
from .common import project_design, project_version

CATEGORY_ORDER = ("switch", "nic", "transceiver", "cable", "fiber")


def category_labels() -> dict[str, str]:
    return {
        "switch": _("Switches"),
        "nic": _("NICs"),
        "transceiver": _("Transceivers"),
        "cable": _("Cables"),
        "fiber": _("Fibre cords"),
        "server": _("Servers"),
    }


def scope_labels() -> dict[str, str]:
    """Whose power a BOM line draws (engine.bom); "" for lines generated before the split."""
    return {
        "network": _("Network"),
        "in-server": _("In-server"),
        "both": _("Network and in-server"),
        "spare": _("Spare, unpowered"),
        "": _("not computed"),
    }


def tier_labels() -> dict[str, str]:
    return {"server-leaf": _("server–leaf"), "leaf-spine": _("leaf–spine"), "spine-core": _("spine–core")}


def level_labels() -> dict[str, str]:
    """Which groups the topology starts from (the same words mean counts elsewhere, hence the context)."""
    return {
        "auto": pgettext("topology level", "Automatic"), "plane": pgettext("topology level", "Planes"),
        "overview": pgettext("topology level", "Overview"),
        "pod": pgettext("topology level", "Pods"), "su": pgettext("topology level", "Scale units"),
        "device": pgettext("topology level", "Switches"),
    }


def network_labels() -> dict[str, str]:
    return {"backend": _("Backend (scale-out)"), "frontend": _("Front-end (in-band)"), "storage": _("Storage"),
            "oob": _("Out-of-band management")}


def network_rows(version: DesignVersion) -> list[dict[str, Any]]:
    """The design page's headline per network and for the whole cluster (summary["networks"], engine.networks)."""
    s = version.summary or {}
    nets = s.get("networks") or {}
    if len(nets) < 2:
        return []
    labels = network_labels()
    rows = []
    for key in ("backend", "frontend", "storage", "oob"):
        net = nets.get(key)
        if net is None:
            continue
        switches = net.get("switches") or {}
        power = net.get("power") or {}
        rows.append({
            "key": key, "label": labels[key], "switches": sum(int(v or 0) for v in switches.values()),
            "switch_detail": " · ".join(f"{label} {int(switches.get(role) or 0):,}" for role, label in (
                ("leaf", _("leaf")), ("spine", _("spine")), ("core", _("core"))) if switches.get(role)),
            "links": int(net.get("total_links") or 0), "cost": float((net.get("cost") or {}).get("total_cost") or 0),
            "power_kw": float(power.get("network_typical_w") or 0) / 1000,
            "converged": bool(net.get("converged")),
            "cost_missing": missing_sentence((net.get("cost") or {}).get("missing")),
            "power_missing": missing_sentence(power.get("missing")),
            "cost_parts": list((net.get("cost") or {}).get("missing") or []),
            "power_parts": list(power.get("missing") or []),
        })
    cluster = s.get("cluster") or {}
    rows.append({"key": "cluster", "label": _("Whole cluster"), "switches": sum(r["switches"] for r in rows),
                 "switch_detail": "", "links": sum(r["links"] for r in rows),
                 "cost": float(cluster.get("total_cost") or sum(r["cost"] for r in rows)),
                 "power_kw": float(cluster.get("power_typical_w") or 0) / 1000, "converged": False,
                 "cost_missing": missing_sentence(cluster.get("price_missing")),
                 "power_missing": missing_sentence(cluster.get("power_missing")),
                 "cost_parts": list(cluster.get("price_missing") or []),
                 "power_parts": list(cluster.get("power_missing") or [])})
    return rows



def bom_sections(lines) -> list[dict[str, Any]]:
    """BOM lines by network (its own section and subtotal, spares included), backend first."""
    labels = network_labels()
    sections: dict[str, dict[str, Any]] = {}
    for line in lines:
        key = getattr(line, "network", "backend") or "backend"
        section = sections.setdefault(key, {"key": key, "label": labels.get(key, key), "lines": [],
                                            "subtotal": Decimal("0"), "power_typical_w": 0.0, "rack_units": 0,
                                            "price_missing": [], "power_missing": []})
        section["lines"].append(line)
        section["subtotal"] += line.total
        section["power_typical_w"] += line.power_typical_w or 0
        section["rack_units"] += line.rack_units or 0
        if not line.price_published and line.sku not in section["price_missing"]:
            section["price_missing"].append(line.sku)
        if not line.spare and not line.power_published and line.sku not in section["power_missing"]:
            section["power_missing"].append(line.sku)
    order = {key: i for i, key in enumerate(("backend", "frontend", "storage", "oob"))}
    return sorted(sections.values(), key=lambda section: order.get(section["key"], 9))


def cost_breakdown(lines) -> list[dict[str, Any]]:
    """BOM totals per category, largest first, with the category's label."""
    labels = {**category_labels(), "spares": _("Spares")}
    totals: dict[str, Decimal] = {}
    for line in lines:
        key = "spares" if line.spare else line.category
        totals[key] = totals.get(key, Decimal("0")) + line.total
    ordered = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    return [{"category": key, "label": labels.get(key, key), "total": float(value)} for key, value in ordered]


def version_kpis(version: DesignVersion) -> list[dict[str, Any]]:
    """The headline figures of a generated version, in the order a review walks through them."""
    s = version.summary or {}
    switches = s.get("switches") or {}
    links = s.get("links") or {}
    kpis = [
        {"key": "gpus", "label": _("GPUs"), "value": s.get("gpus"), "format": "int"},
        {"key": "servers", "label": _("Servers"), "value": s.get("servers"), "format": "int"},
        {"key": "tiers", "label": _("Tiers"), "value": s.get("tiers"), "format": "int"},
        {"key": "planes", "label": _("Planes"), "value": s.get("planes"), "format": "int"},
        {"key": "leaf", "label": _("Leaf switches"), "value": switches.get("leaf"), "format": "int"},
        {"key": "spine", "label": _("Spine switches"), "value": switches.get("spine"), "format": "int"},
    ]
    if switches.get("core"):
        kpis.append({"key": "core", "label": _("Core switches"), "value": switches.get("core"), "format": "int"})
    kpis += [_switches_kpi(s), _optics_kpi(s)]
    kpis += [
        {"key": "links", "label": _("Links"), "value": s.get("total_links"), "format": "int",
         "detail": " · ".join(f"{label} {links.get(key, 0):,}" for key, label in tier_labels().items()
                              if links.get(key))},
        {"key": "max_gpus", "label": _("Max GPUs (growth)"), "value": s.get("max_gpus"), "format": "int"},
        {"key": "hops", "label": _("Max switch hops"), "value": s.get("max_hops"), "format": "int"},
        {"key": "cost", "label": _("Total cost, whole cluster") if len(s.get("networks") or {}) > 1
         else _("Total cost"), "value": version.total_cost, "format": "money",
         "unit": version.currency, "detail": _spares_detail(version),
         "missing": missing_sentence((s.get("cluster") or {}).get("price_missing", s.get("price_missing")))},
        _power_kpi(version),
        {"key": "rack_units", "label": _("Rack units (network)"), "value": version.rack_units, "format": "int"},
        {"key": "bisection", "label": _("Bisection bandwidth (Tb/s)"),
         "value": (s.get("bisection_gbps") or 0) / 1000, "format": "float"},
    ]
    wiring = wiring_verdict(s)
    kpis.append({"key": "wiring", "label": _("Wiring proof: worst leaf pair"), "value": wiring["text"],
                 "format": "text", "detail": wiring["detail"], "state": {True: "ok", False: "bad"}.get(
                     wiring["as_stated"], "unknown")})
    return kpis


def _switches_kpi(s: dict[str, Any]) -> dict[str, Any]:
    """All backend switches; the whole cluster's in the detail when there are other networks."""
    switches = s.get("switches") or {}
    total = sum(int(v or 0) for v in switches.values())
    detail = " · ".join(f"{label} {int(switches.get(role) or 0):,}" for role, label in (
        ("leaf", _("leaf")), ("spine", _("spine")), ("core", _("core"))) if switches.get(role))
    others = {k: v for k, v in (s.get("networks") or {}).items() if k != "backend"}
    if others:
        cluster = total + sum(int(n or 0) for net in others.values() for n in (net.get("switches") or {}).values())
        detail += " · " + _("whole cluster %(n)s") % {"n": f"{cluster:,}"}
    return {"key": "switches", "label": _("Switches (backend)") if others else _("Switches"), "value": total,
            "format": "int", "detail": detail}


def _optics_kpi(s: dict[str, Any]) -> dict[str, Any]:
    """Transceivers on the bill of materials (every network), spares in the detail."""
    lines = list(s.get("bom") or [])
    for key, net in (s.get("networks") or {}).items():
        if key != "backend":
            lines += net.get("bom") or []
    optics = [line for line in lines if line.get("category") == "transceiver"]
    used = sum(int(line.get("qty") or 0) for line in optics if not line.get("spare"))
    spare = sum(int(line.get("qty") or 0) for line in optics if line.get("spare"))
    return {"key": "optics", "label": _("Transceivers"), "value": used, "format": "int",
            "detail": _("plus %(n)s spares") % {"n": f"{spare:,}"} if spare else ""}


def _spares_detail(version: DesignVersion) -> str:
    if version.spares_subtotal is None:
        return _("spares: not computed")
    return _("includes spares: %(amount)s %(currency)s") % {
        "amount": f"{version.spares_subtotal:,.0f}", "currency": version.currency}


def _power_kpi(version: DesignVersion) -> dict[str, Any]:
    """The network's power (switches, switch-side optics), with the in-server part beside it."""
    kpi = {"key": "power", "label": _("Network power, typical / max (kW)"),
           "value": (version.power_typical_w or 0) / 1000, "value_max": (version.power_max_w or 0) / 1000,
           "format": "power"}
    if version.in_server_typical_w is None:
        # Generated before the split: the figure counts NICs and server-side optics too.
        kpi["label"] = _("Power, typical / max (kW)")
        kpi["detail"] = _("in-server part: not computed")
    else:
        kpi["detail"] = _("plus in-server (NICs, server-side optics): %(typical)s / %(max)s kW") % {
            "typical": f"{version.in_server_typical_w / 1000:,.1f}", "max": f"{(version.in_server_max_w or 0) / 1000:,.1f}"}
        kpi["in_server"] = version.in_server_typical_w / 1000
    s = version.summary or {}
    cluster = s.get("cluster") or {}
    kpi["missing"] = missing_sentence(cluster.get("power_missing", (s.get("power") or {}).get("missing")))
    return kpi


def spares_row(version: DesignVersion) -> tuple[str, str]:
    """The spare percentages a version was quoted with, as an inputs row."""
    if version.spares is None:
        return _("Spares (%)"), _("none (generated before spares)")
    names = {"switches": _("switches"), "transceivers": _("transceivers"), "cables": _("cables"),
             "fibers": _("fibre cords")}
    text = ", ".join(f"{label} {float(version.spares.get(key, 0)):g}" for key, label in names.items())
    if "switches_per_spare" in version.spares:
        per_spare = int(version.spares["switches_per_spare"] or 0)
        text += "; " + (_("one spare switch per %(count)s installed, per model") % {"count": per_spare} if per_spare
                        else _("no spare switches by count"))
    return _("Spares (%)"), text


def layout_rows(layout: dict[str, Any]) -> list[tuple[str, str]]:
    """The stored `layout` input in the design form's own words: ("Rack width (m)", "0.6"), ("Cooling", "Air")."""
    from apps.designs.forms import DesignInputsForm

    fields = DesignInputsForm.base_fields
    special = {"servers_per_rack": _("as many as the rack's height and power budget allow"),
               "rack_power_kw": _("no budget"), "hall_rows": _("as many as the racks need"),
               "hall_positions": _("the racks per row")}
    rows: list[tuple[str, str]] = []

    def add(key: str, value: Any) -> None:
        field = fields.get(f"layout_{key}")
        if field is None or value in (None, ""):
            return
        if isinstance(value, bool):
            text = _("yes") if value else _("no")
        elif getattr(field, "choices", None) and not isinstance(value, (int, float)):
            text = str(dict(field.choices).get(value, value))
        elif isinstance(value, (int, float)) and not value and key in special:
            text = str(special[key])
        elif isinstance(value, float):
            text = f"{value:g}"
        else:
            text = str(value)
        rows.append((str(field.label), text))

    for key, value in layout.items():
        if key != "hall":
            add(key, value)
    hall = layout.get("hall") or {}
    for key in ("rows", "positions"):
        add(f"hall_{key}", hall.get(key))
    if hall.get("reserved"):
        add("hall_reserved", cells_text(hall["reserved"]))
    for kind, zone_rows in (hall.get("zones") or {}).items():
        if zone_rows:
            add(f"hall_zones_{kind}", rows_text(zone_rows))
    return rows


def layout_text(layout: dict[str, Any]) -> str:
    """The stored `layout` input as one line in words: "Racks per row: 16; Cooling: Air; Reserved cells: 3:5-6"."""
    return "; ".join(f"{label}: {value}" for label, value in layout_rows(layout))


def version_inputs(version: DesignVersion) -> list[tuple[str, Any]]:
    """The inputs the version was generated from, as (label, value) rows."""
    same = _("same as leaf")
    rows = [
        (_("Fabric"), _("InfiniBand") if version.is_infiniband else _("Ethernet (RoCEv2)")),
        (_("GPU server"), f"{version.server.manufacturer.name} {version.server.model} ({version.server.sku})"),
        (_("Backend NIC"), f"{version.nic.manufacturer.name} {version.nic.model} ({version.nic.sku})"),
        (_("Leaf switch"), f"{version.leaf_switch.model} ({version.leaf_switch.sku}), {version.leaf_breakout}"),
        (_("Spine switch"), f"{version.spine_switch.model}, {version.spine_breakout}"
         if (version.spine_switch_id, version.spine_breakout) != (version.leaf_switch_id, version.leaf_breakout)
         else same),
        (_("Core switch"), f"{version.core_switch.model}, {version.core_breakout}"
         if (version.core_switch_id, version.core_breakout) != (version.spine_switch_id, version.spine_breakout)
         else _("same as spine")),
        (_("GPUs"), f"{version.gpus:,}"),
        (_("Planes"), version.planes),
        (_("NIC port split"), _("whole ports") if version.nic_split == 1 else _(
            "each port in %(parts)s parts, each on a plane of its own") % {"parts": version.nic_split}),
        (_("Oversubscription at the leaf (o:1)"), f"{version.oversubscription:g}:1"),
        (_("Tiers"), version.get_tiers_display()),
        (_("Optics and cables"), _("third-party optics allowed (any vendor's parts qualified for the fabric)")
         if version.third_party_optics else _("the switch vendor's, or declared compatible with it")),
        (_("Rack layout"), layout_text(version.layout or {}) or _("defaults")),
        (_("Address pools"), ", ".join(f"{k} {v}" for k, v in (version.pools or {}).items()) or _("defaults"))
        if not version.is_infiniband else (_("Addressing and routing"), underlay_not_applicable()),
        (_("Discount (%)"), version.discount_pct),
        (_("Currency"), version.currency),
        spares_row(version),
    ]
    rows += network_input_rows(version)
    return rows


def network_input_rows(version: DesignVersion) -> list[tuple[str, str]]:
    """The other networks the version was asked for, one row each (switch ids are shown by the summary's counts)."""
    stored = version.networks or {}
    labels = network_labels()
    out = []
    fe = stored.get("frontend")
    if fe:
        out.append((labels["frontend"], _("%(ports)s ports per server, %(mode)s, %(ratio)s:1") % {
            "ports": fe.get("ports_per_server"), "mode": fe.get("breakout"), "ratio": f"{float(fe.get('oversubscription') or 1):g}"}))
    st = stored.get("storage")
    if st:
        if st.get("mode") == "converged":
            text = _("converged onto the front-end, %(nodes)s storage nodes") % {"nodes": st.get("nodes") or 0}
        else:
            text = _("%(nodes)s storage nodes × %(node_ports)s ports, %(ports)s ports per server, %(mode)s") % {
                "nodes": st.get("nodes") or 0, "node_ports": st.get("ports_per_node"),
                "ports": st.get("ports_per_server"), "mode": st.get("breakout")}
        out.append((labels["storage"], text))
    oob = stored.get("oob")
    if oob:
        out.append((labels["oob"], _("%(ports)s-port %(gbps)sG management switch per rack, %(uplinks)s uplinks") % {
            "ports": oob.get("ports"), "gbps": oob.get("gbps"), "uplinks": oob.get("uplinks")}))
    return out


def structure_rows(version: DesignVersion) -> list[tuple[str, str]]:
    """Oversubscription per tier, free ports per role and the scale units / pods of the structure."""
    s = version.summary or {}
    rows: list[tuple[str, str]] = []
    ratio_labels = {"leaf": _("Oversubscription at the leaf"), "spine": _("Oversubscription at the spine")}
    for tier, ratio in (s.get("oversubscription") or {}).items():
        rows.append((ratio_labels.get(tier, tier), f"{float(ratio):g}:1"))
    rows.append((_("Servers per scale unit"), f"{s.get('su_servers', 0):,}"))
    if s.get("leaf_slots"):  # rack-scale leaves shared by tray slot (engine.topology)
        rows.append((_("Leaves per scale unit"), _(
            "%(leaves)s per plane, one per tray slot: leaf t takes tray t of every domain of the scale unit, "
            "%(downlinks)s downlinks") % {"leaves": f"{int(s['leaf_slots']):,}",
                                         "downlinks": f"{int(s.get('leaf_downlinks') or 0):,}"}))
    rows.append((_("Scale units"), f"{s.get('scale_units', 0):,}"))
    if s.get("pods"):
        rows.append((_("Pods"), f"{s['pods']:,}"))
    port_labels = {"leaf": _("Free leaf ports"), "spine": _("Free spine ports"), "core": _("Free core ports")}
    for role, ports in (s.get("free_ports") or {}).items():
        if role in port_labels and (ports or role != "core"):
            rows.append((port_labels[role], f"{int(ports):,}"))
    return rows


def cheaper_alternative_points(version: DesignVersion) -> list[str]:
    """A review point when another structure meets the same request (feasible, not blocking) for less."""
    alternatives = (version.summary or {}).get("alternatives") or []
    current = next((a for a in alternatives if a.get("current") and a.get("feasible")), None)
    if current is None:
        return []
    cheaper = [a for a in alternatives if a.get("feasible") and not a.get("blocking") and not a.get("current")
               and float(a.get("total_cost") or 0) < float(current.get("total_cost") or 0)]
    if not cheaper:
        return []
    best = min(cheaper, key=lambda a: float(a["total_cost"]))
    saving = float(current["total_cost"]) - float(best["total_cost"])
    label = alternative_label(best.get("planes"), best.get("tiers"), str(best.get("label") or ""), blocking=False)
    return [_("A cheaper structure meets the same request: %(label)s costs %(saving)s %(currency)s less "
              "(%(percent)s %%). Use it from the table of alternatives.") % {
        "label": label, "saving": f"{saving:,.0f}", "currency": version.currency,
        "percent": f"{100 * saving / max(1.0, float(current['total_cost'])):.1f}",
    }]


def _alternatives(version: DesignVersion) -> list[dict[str, Any]]:
    alternatives = [dict(alt) for alt in (version.summary or {}).get("alternatives") or []]
    for alt in alternatives:
        alt["links_total"] = sum((alt.get("links") or {}).values())
        alt["power_kw"] = (alt.get("power_w") or 0) / 1000
        alt["label_text"] = alternative_label(alt.get("planes"), alt.get("tiers"), str(alt.get("label") or ""),
                                              blocking=bool(alt.get("blocking")))
        alt["wiring_text"] = wiring_verdict(alt)["text"] if alt.get("feasible") else ""
        alt["notes_text"] = alternative_notes(alt)
        alt["usable"] = bool(alt.get("feasible") and not alt.get("blocking") and not alt.get("current"))
        if not alt.get("feasible"):
            alt["reason_text"] = alternative_reason(alt)
    return alternatives


class DesignDetailView(ProjectScopedViewMixin, View):
    """A design's page is its latest generated version (else its latest version)."""

    def get(self, request, project_pk, design_pk):
        design = project_design(project=self.project, pk=design_pk)
        versions = design.versions.order_by("-number")
        version = versions.filter(status=DesignVersion.Status.READY).first() or versions.first()
        if version is None:
            return redirect(self.project)
        return redirect("designs:version-detail", project_pk=self.project.pk, version_pk=version.pk)


class VersionPageMixin(ProjectScopedViewMixin):
    panel_slots: tuple[str, ...] = ("header", "nav", "section")

    def version_context(self, version: DesignVersion) -> dict[str, Any]:
        return {
            "project": self.project,
            "design": version.design,
            "version": version,
            "versions": version_list_for_design(design=version.design).order_by("-number"),
            "job": version_latest_job(version=version),
            "can_manage": self.can_manage(),
            "panels": design_panels_render(request=self.request, version=version, slots=self.panel_slots),
        }


class VersionDetailView(VersionPageMixin, View):
    template_name = "designs/version_detail.html"

    def get(self, request, project_pk, version_pk):
        version = project_version(project=self.project, pk=version_pk)
        context = self.version_context(version)
        if version.is_ready:
            lines = bom_lines_with_spares(version_bom_list(version=version))
            totals = version_bom_totals(version=version)
            missing = bom_missing(lines)
            totals.update(price_missing=missing["price"], power_missing=missing["power"],
                          missing_text=bom_missing_text(missing))
            context.update(
                kpis=version_kpis(version),
                bom_lines=[line for line in lines if not line.spare],
                bom_spare_lines=[line for line in lines if line.spare],
                bom_totals=totals,
                category_labels=category_labels(),
                scope_labels=scope_labels(),
                cost_breakdown=cost_breakdown(lines),
                alternatives=_alternatives(version),
                warnings=summary_warnings(version.summary) + cheaper_alternative_points(version),
                bom_notes=summary_bom_notes(version.summary),
                structure_rows=structure_rows(version),
                scale_up_rows=scale_up_rows(version.summary) + split_rows(version.summary),
                scale_up_notes=scale_up_notes(version.summary),
                network_rows=network_rows(version),
                bom_sections=bom_sections(lines),
                reach_margin_rule=reach_margin_rule(),
            )
        context["inputs"] = version_inputs(version)
        if context["job"] is not None:
            context["job_error"] = job_error(context["job"])
        return render(request, self.template_name, context)


class VersionTopologyView(VersionPageMixin, View):
    """The topology (cytoscape.js, fed by /api/versions/{id}/topology/) beside the cabling table."""

    template_name = "designs/version_topology.html"
    panel_slots = ("header", "nav")

    def get(self, request, project_pk, version_pk):
        version = project_version(project=self.project, pk=version_pk)
        if not version.is_ready:
            return redirect("designs:version-detail", project_pk=self.project.pk, version_pk=version.pk)
        summary = version.summary or {}
        tiers = int(summary.get("tiers") or 2)
        media_kinds = sorted({m.get("kind") for m in summary.get("media") or [] if m.get("kind")})
        levels = [("auto", level_labels()["auto"])] + [
            (level, level_labels()[level]) for level in LEVELS if tiers == 3 or level != "pod"
        ]
        context = self.version_context(version)
        context.update(
            topology_config={
                "version": version.pk,
                "topologyUrl": reverse("api-version-topology", kwargs={"pk": version.pk}),
                "expandUrl": reverse("api-version-topology-expand", kwargs={"pk": version.pk}),
                "linksUrl": reverse("api-version-link-list", kwargs={"pk": version.pk}),
                "schematicUrl": reverse("api-version-topology-schematic", kwargs={"pk": version.pk}),
                "title": _("%(design)s · version %(number)s") % {"design": version.design.name,
                                                                  "number": version.number},
                "exportName": f"{slugify(version.design.name) or 'design'}-v{version.number}",
                "railColours": RAIL_COLOURS,
                "planeColours": PLANE_COLOURS,
                "roleFill": ROLE_FILL,
                "tiers": tiers,
                "planes": int(summary.get("planes") or 1),
                "rails": int(summary.get("rails") or 0),
                # Other apps' links from a selected device (apps.designs.panels.device_link_register).
                "deviceLinks": device_links(version),
            },
            levels=levels,
            tier_choices=[(0, tier_labels()["server-leaf"]), (1, tier_labels()["leaf-spine"])]
            + ([(2, tier_labels()["spine-core"])] if tiers == 3 else []),
            plane_choices=list(range(int(summary.get("planes") or 1))),
            rail_choices=list(range(int(summary.get("rails") or 0))),
            pod_count=int(summary.get("pods") or 0),
            media_kinds=media_kinds,
            network_choices=[(key, network_labels()[key]) for key in ("backend", "frontend", "storage", "oob")
                             if key in (summary.get("networks") or {})] if len(summary.get("networks") or {}) > 1
            else [],
        )
        return render(request, self.template_name, context)


class VersionAlternativeUseView(VersionPageMixin, View):
    """POST: a new version with this version's inputs built as one of its alternatives (planes, tiers)."""

    def post(self, request, project_pk, version_pk):
        version = project_version(project=self.project, pk=version_pk)
        try:
            job = version_alternative_use(version=version, user=request.user, planes=request.POST.get("planes"),
                                          tiers=request.POST.get("tiers"))
        except ValidationError as exc:
            for messages_ in exc.message_dict.values():
                for message in messages_:
                    messages.error(request, message)
            return redirect("designs:version-detail", project_pk=self.project.pk, version_pk=version.pk)
        return redirect("designs:job-detail", project_pk=self.project.pk, job_pk=job.pk)
