"""The procurement workbook of a design version.

Sheets, in registry order (`workbook_sheet_register` adds more without editing this module):
   0 Summary    customer, project, design, version, who exported it and when; inputs; headline
                figures (tiers, planes, servers, GPUs, switches and links per tier, max GPUs,
                hops, bisection, oversubscription, free ports, the wiring proof (worst leaf
                pair, whether it delivers the stated oversubscription; "not computed" for
                versions generated before it), power, rack units, cost);
                validation (engine warnings, address-pool and ASN usage); notes.
  10 BOM        one row per SKU, then the spare lines (marked in the Spare column): part number,
                description, category, quantity, unit price and extended price = quantity x unit
                price as a live formula; per-category subtotals of the base lines (SUMIFS), the
                spares subtotal (SUMIF on the Spare column), subtotal (spares included), discount %
                (an input cell), discount = ROUND(subtotal x % / 100, 2) and total as formulas, so
                procurement can change a quantity, a price or the discount and every total follows.
                The rounding is the engine's, so the total equals the API's BOM total to the cent.
                Lines whose catalog price is an example are marked. Power per line with its scope
                (network, in-server); below the totals, the spares policy as input cells (one spare
                switch per N installed, percentages per category) and the network's and the
                in-server power as formulas. A spare line's quantity is a formula of its base line's
                quantity and the policy (engine.bom's rule), and each base line shows the spares
                ordered of it (Spares ordered column), so changing a quantity or the policy moves the
                spares and every total.
  20 Cabling    every link: both ends (rack, device, port, label), medium, kind, fibre, modules,
                cable or cord, length in metres, tier, plane, rail, pod.
  30 IP plan    every link: both ends (device, port, address) and its /31.
  40 Loopbacks  every switch: its /32 loopback.
  50 ASN plan   every switch: role, plane, pod, scale unit, rail, group and eBGP ASN.
An InfiniBand design (the subnet manager assigns LIDs and routes) has no /31s, loopbacks or ASNs:
its IP plan lists each NIC port's IPoIB address (server-leaf links only) under a line saying so,
and the Loopbacks and ASN plan sheets hold one line saying they don't apply, not an empty table.

Every table has a styled, frozen header row, an auto-filter, set column widths and number
formats (#,##0 counts, #,##0.00 money, 0.0 metres; ASNs and indexes without separators).
Large sheets are streamed (apps.designs.workbook) from `values_list` tuples. A table
longer than a worksheet (1,048,576 rows: Cabling and IP plan from about 350,000 GPUs) goes on
numbered sheets, "Cabling 1", "Cabling 2", ..., and the Summary lists each part's rows.

Other apps add sheets through designs' registry (apps.designs.sheets.workbook_sheet_register,
from their AppConfig.ready()); this module registers the sheets above the same way and writes
whatever is registered. A registered sheet whose writer raises is left out (logged, and named on
the Summary) so the procurement sheets still go out; the built-in sheets' failures fail the export.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import IO, Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.designs.engine_text import summary_bom_notes, summary_warnings, wiring_verdict
from apps.designs.fabric_text import roce_not_applicable, underlay_not_applicable
from apps.designs.job_text import sheet_stage
from apps.designs.missing import bom_missing, bom_missing_text, missing_sentence
from apps.designs.models import BomLineRecord, DesignVersion, Role, Tier
from apps.designs.services.layout_input import cells_text, rows_text
from apps.designs.sheets import (SheetWriter, not_applicable_sheet, sheet_key, workbook_sheet_list,  # noqa: F401
                                 workbook_sheet_register, workbook_sheet_unregister)
from apps.designs import workbook as _workbook
from apps.designs.workbook import (Column, Formula, Sheet, StreamingWorkbook, Styled, flat_items, safe_sheet_title,
                                   sheet_ref)

from .selectors import (
    catalog_example_price_skus,
    version_bom_lines,
    version_device_map,
    version_device_rows,
    version_link_count,
    version_link_rows,
)

logger = logging.getLogger(__name__)

Progress = Callable[[str, int], None]

_CENTS = Decimal("0.01")


_BUILTIN: set[str] = set()  # keys of this module's sheets: their failures fail the export


# Context --------------------------------------------------------------------------------------------

CATEGORY_LABELS = {
    "switch": gettext_lazy("Switches"),
    "nic": gettext_lazy("NICs"),
    "transceiver": gettext_lazy("Transceivers"),
    "cable": gettext_lazy("Cables"),
    "fiber": gettext_lazy("Fibre cords"),
}


def _money(value: Decimal) -> Decimal:
    return value.quantize(_CENTS, rounding=ROUND_HALF_UP)


@dataclass
class BomLayout:
    """Where the BOM sheet puts its lines and totals, so the Summary can refer to them."""

    lines: list[BomLineRecord]
    example_skus: set[str]
    discount_pct: Decimal
    title: str = ""
    spares_policy: dict[str, Any] | None = None  # the version's spares input; None: generated before spares

    FIRST = 2  # row of the first line (row 1 is the header)

    @property
    def last(self) -> int:
        return self.FIRST + max(len(self.lines), 1) - 1

    @property
    def categories(self) -> list[str]:
        """Categories of the base (not spare) lines, in BOM order."""
        seen: list[str] = []
        for line in self.lines:
            if line.category not in seen and not line.spare:
                seen.append(line.category)
        return seen

    @property
    def has_spares(self) -> bool:
        return any(line.spare for line in self.lines)

    @property
    def category_first(self) -> int:
        return self.last + 2

    @property
    def spares_row(self) -> int:
        """The spares subtotal's row (only written when there are spare lines)."""
        return self.category_first + len(self.categories)

    @property
    def spares_subtotal(self) -> Decimal:
        return sum((line.qty * line.unit_price for line in self.lines if line.spare), Decimal("0"))

    @property
    def subtotal_row(self) -> int:
        return self.spares_row + (1 if self.has_spares else 0)

    @property
    def percent_row(self) -> int:
        return self.subtotal_row + 1

    @property
    def discount_row(self) -> int:
        return self.subtotal_row + 2

    @property
    def total_row(self) -> int:
        return self.subtotal_row + 3

    @property
    def currency_row(self) -> int:
        return self.total_row + 1

    @property
    def policy_rows(self) -> dict[str, int]:
        """Row of each spares policy input cell (column F), below the currency; none before spares."""
        if self.spares_policy is None:
            return {}
        return {key: self.currency_row + 2 + i for i, key in enumerate(SPARE_POLICY_KEYS)}

    def base_rows(self) -> dict[tuple, int]:
        """(network, category, SKU) -> the row of its base line."""
        return {(line.network, line.category, line.sku): row for row, line in enumerate(self.lines, start=self.FIRST)
                if not line.spare}

    def spare_rows(self) -> dict[tuple, int]:
        return {(line.network, line.category, line.sku): row for row, line in enumerate(self.lines, start=self.FIRST)
                if line.spare}

    def spare_qty_formula(self, line: BomLineRecord, base_row: int | None) -> str | None:
        """The spare line's quantity from its base line's quantity and the policy cells (engine.bom's rules:
        percent rounded up, at least one when above 0; switches one per N, or their percent if more)."""
        rows = self.policy_rows
        key = SPARE_POLICY_OF.get(line.category)
        if base_row is None or key not in rows:
            return None
        pct = f"$F${rows[key]}"
        by_pct = f"IF({pct}>0,MAX(1,ROUNDUP(D{base_row}*{pct}/100,0)),0)"
        if line.category != "switch":
            return by_pct
        per = f"$F${rows['switches_per_spare']}"
        return f"MAX(IF({per}>0,ROUNDUP(D{base_row}/{per},0),0),{by_pct})"

    @property
    def subtotal(self) -> Decimal:
        return sum((line.qty * line.unit_price for line in self.lines), Decimal("0"))

    @property
    def discount(self) -> Decimal:
        return _money(self.subtotal * self.discount_pct / 100)

    @property
    def total(self) -> Decimal:
        return self.subtotal - self.discount

    def ref(self, row: int, column: str = "F") -> str:
        return sheet_ref(self.title, f"${column}${row}")


@dataclass
class WorkbookContext:
    """What every sheet writer gets: the version, its summary and spec, the BOM layout, sheet titles."""

    version: DesignVersion
    user_name: str
    generated_at: datetime
    bom: BomLayout
    titles: dict[str, str]  # registry key (untranslated name) -> this workbook's sheet title
    progress: Progress

    @property
    def design(self):
        return self.version.design

    @property
    def project(self):
        return self.version.design.project

    @property
    def summary(self) -> dict[str, Any]:
        return self.version.summary or {}

    @property
    def spec(self) -> dict[str, Any]:
        return self.version.spec or {}

    @property
    def currency(self) -> str:
        return self.version.currency

    def title(self, name: Any) -> str:
        """This workbook's title of the sheet registered as `name`."""
        return self.titles[sheet_key(name)]


def _user_name(user: Any) -> str:
    if user is None:
        return ""
    full = (user.get_full_name() or "").strip() if hasattr(user, "get_full_name") else ""
    return f"{full} ({user.get_username()})" if full else str(user.get_username())


def version_workbook_write(
    *, version: DesignVersion, path_or_stream: str | IO[bytes], progress: Progress | None = None, user: Any = None
) -> None:
    """Write the workbook of a generated version to a path or a binary stream."""
    report = progress or (lambda stage, percent: None)
    version = DesignVersion.objects.select_related(
        "design__project__customer", "server__manufacturer", "nic__manufacturer", "leaf_switch__manufacturer",
        "spine_switch__manufacturer", "core_switch__manufacturer", "created_by",
    ).get(pk=version.pk)
    report("reading_bom", 2)
    lines = version_bom_lines(version=version)
    bom = BomLayout(lines=lines, example_skus=catalog_example_price_skus(skus=[line.sku for line in lines]),
                    discount_pct=version.discount_pct or Decimal("0"), spares_policy=version.spares)
    design = version.design
    book = StreamingWorkbook(title=f"{design.project.name} - {design.name} v{version.number}")
    entries = workbook_sheet_list()
    titles: dict[str, str] = {}
    for entry in entries:
        titles[entry.key] = safe_sheet_title(str(entry.name), taken={t.lower() for t in titles.values()})
    bom.title = titles.get(sheet_key(BOM_NAME), "")
    context = WorkbookContext(
        version=version, user_name=_user_name(user), generated_at=timezone.now(), bom=bom, titles=titles,
        progress=report,
    )
    left_out: list[tuple[str, str]] = []
    for entry in entries:
        sheet = book.add_sheet(titles[entry.key])
        if entry.key in _BUILTIN:
            keep = entry.writer(context, sheet)
        else:
            try:
                with transaction.atomic():  # a failed query must not spoil the connection for the others
                    keep = entry.writer(context, sheet)
            except Exception as exc:
                logger.exception("workbook sheet %r failed for version %s; left out", entry.key, version.pk)
                left_out.append((sheet.title, str(exc) or type(exc).__name__))
                keep = False
        if keep is False:
            book.remove_sheet(sheet)
    summary_sheet = next((s for s in book.sheets if s.title == titles.get(sheet_key(SUMMARY_NAME))), None)
    if left_out and summary_sheet is not None:
        summary_sheet.append([])
        summary_sheet.append([Styled(_("Sheets left out"), "section"), Styled("", "section"), Styled("", "section")])
        for title, error in left_out:
            summary_sheet.append([title, Styled(_("could not be written: %(error)s") % {"error": error[:200]},
                                                "warning")])
    split = [sheet for sheet in book.sheets if sheet.parts]
    if split and summary_sheet is not None:
        summary_sheet.append([])
        summary_sheet.append([Styled(_("Tables split over several sheets"), "section"), Styled("", "section"),
                              Styled("", "section")])
        for sheet in split:
            total = sheet.parts[-1][2]
            for part, first, last in sheet.parts:
                summary_sheet.append([part.title, _("rows %(first)s to %(last)s of %(total)s") % {
                    "first": f"{first:,}", "last": f"{last:,}", "total": f"{total:,}"}, Styled(
                    _("a worksheet holds at most %(rows)s rows") % {"rows": f"{_workbook.MAX_SHEET_ROWS:,}"}, "note")])
    written = [0]
    count = len(book.sheets)

    def on_sheet(sheet: Sheet) -> None:
        report(sheet_stage(sheet.title), 5 + 90 * written[0] // max(count, 1))
        written[0] += 1

    book.save(path_or_stream, on_sheet=on_sheet)
    report("workbook_written", 99)


# Summary ----------------------------------------------------------------------------------------------

LAYOUT_LABELS = {
    "servers_per_rack": gettext_lazy("Servers per rack"),
    "racks_per_row": gettext_lazy("Racks per row"),
    "rack_width_m": gettext_lazy("Rack width (m)"),
    "row_pitch_m": gettext_lazy("Row pitch (m)"),
    "slack_m": gettext_lazy("Slack per link (m)"),
    "switches_per_rack": gettext_lazy("Switches per spine or core rack"),
    "rack_units": gettext_lazy("Rack height (U)"),
    "leaf_rack": gettext_lazy("Leaf rack position"),
    "spine_rows": gettext_lazy("Spine and core rows"),
    "rack_power_kw": gettext_lazy("Power budget per rack (kW, 0: none)"),
    "rack_power_basis": gettext_lazy("Budget against"),
    "cooling": gettext_lazy("Cooling"),
    "tray_height_m": gettext_lazy("Cable tray above the racks (m)"),
    "structured_cabling": gettext_lazy("Structured cabling"),
    "hall": gettext_lazy("Data hall"),
}
# The data hall's settings (engine HallLayout), one Summary row each.
HALL_LABELS = {
    "rows": gettext_lazy("Hall rows (0: as many as needed)"),
    "positions": gettext_lazy("Rack positions per row (0: racks per row)"),
    "reserved": gettext_lazy("Reserved cells (row:position)"),
    "compute": gettext_lazy("Compute zone rows"),
    "network": gettext_lazy("Network zone rows"),
    "storage": gettext_lazy("Storage zone rows"),
}
POOL_LABELS = {
    "host": gettext_lazy("Host pool (a /31 per NIC port)"),
    "p2p": gettext_lazy("Switch-to-switch pool (a /31 per link)"),
    "loopback": gettext_lazy("Loopback pool (a /32 per switch)"),
    "asn_base": gettext_lazy("First ASN"),
}
IPOIB_POOL_LABEL = gettext_lazy("Host pool (an IPoIB address per NIC port)")
# The spares policy's input cells on the BOM sheet, in order, and which one a category's spare line follows.
SPARE_POLICY_KEYS = ("switches_per_spare", "switches", "transceivers", "cables", "fibers")
SPARE_POLICY_OF = {"switch": "switches", "transceiver": "transceivers", "cable": "cables", "fiber": "fibers"}
SPARE_POLICY_LABELS = {
    "switches_per_spare": gettext_lazy("Spare switches: one per N installed, per model (0: none) — change it here"),
    "switches": gettext_lazy("Spare switches (%) — the larger of this and one per N"),
    "transceivers": gettext_lazy("Spare transceivers (%)"),
    "cables": gettext_lazy("Spare cables (%)"),
    "fibers": gettext_lazy("Spare fibre cords (%)"),
}

SPARE_LABELS = {
    "switches": gettext_lazy("switches"),
    "transceivers": gettext_lazy("transceivers"),
    "cables": gettext_lazy("cables"),
    "fibers": gettext_lazy("fibre cords"),
}
SCOPE_LABELS = {
    "network": gettext_lazy("network"),
    "in-server": gettext_lazy("in-server"),
    "both": gettext_lazy("network and in-server"),
    "spare": gettext_lazy("spare, unpowered"),
    "": gettext_lazy("not computed"),
}


def _layout_words() -> dict[str, str]:
    """The rack rules' values in the reader's language (engine RackLayout: power basis, cooling)."""
    return {"typical": _("typical draw"), "maximum": _("maximum draw"), "air": _("air"),
            "rear-door": _("rear-door heat exchanger"), "liquid": _("direct liquid cooling")}


def _hall_rows(hall: dict) -> list[tuple[Any, Any]]:
    """The hall's settings as Summary rows: rows and positions as numbers, cells and zone rows as text."""
    rows: list[tuple[Any, Any]] = [(HALL_LABELS[key], int(hall[key])) for key in ("rows", "positions")
                                   if isinstance(hall.get(key), int)]
    if hall.get("reserved"):
        rows.append((HALL_LABELS["reserved"], cells_text(hall["reserved"])))
    for kind, zone_rows in sorted((hall.get("zones") or {}).items()):
        if zone_rows:
            rows.append((HALL_LABELS.get(kind, kind), rows_text(zone_rows)))
    return rows


def _ordered(values: dict, labels: dict) -> list[str]:
    """Known keys in label order, then any others (JSON columns do not keep key order)."""
    return [key for key in labels if key in values] + sorted(key for key in values if key not in labels)


def _item(obj: Any, breakout: str = "") -> str:
    if obj is None:
        return ""
    text = f"{obj.manufacturer.name} {obj.model} ({obj.sku})"
    return f"{text}, {breakout}" if breakout else text


def _when(value: datetime | None) -> str:
    if value is None:
        return ""
    return date_format(timezone.localtime(value), "Y-m-d H:i T")


def _summary_sheet(ctx: WorkbookContext, sheet: Sheet) -> None:
    version, design, project, summary = ctx.version, ctx.design, ctx.project, ctx.summary
    sheet.set_widths([38, 52, 44])
    sheet.ws.freeze_panes = "A2"

    def section(title: str) -> None:
        sheet.append([])
        sheet.append([Styled(title, "section"), Styled("", "section"), Styled("", "section")])

    def pair(label: Any, value: Any, style: str = "text", note: Any = None) -> None:
        if isinstance(value, str) or value is None:
            style = "text" if style not in ("bold", "warning", "ok", "note") else style
        sheet.append([str(label), Styled(value, style), Styled(str(note), "note") if note else None])

    sheet.append([Styled(_("Fabric design %(design)s, version %(number)s") % {
        "design": design.name, "number": version.number}, "title")])

    section(_("Project"))
    pair(_("Customer"), project.customer.name)
    pair(_("Project"), project.name)
    pair(_("Design"), design.name)
    pair(_("Version"), version.number, "id")
    pair(_("Status"), version.get_status_display())
    pair(_("Design generated at"), _when(version.generated_at))
    pair(_("Exported by"), ctx.user_name)
    pair(_("Exported at"), _when(ctx.generated_at))
    pair(_("Currency"), ctx.currency)
    for source, used in sorted((version.exchange_rates or {}).items()):
        if isinstance(used, dict):
            pair(_("Exchange rate"), f"1 {source} = {used.get('rate')} {ctx.currency}",
                 note=_("The rate is an example: set the day's rate in the catalog before quoting.")
                 if used.get("example") else None)

    section(_("Inputs"))
    pair(_("GPU server"), _item(version.server))
    pair(_("Backend NIC"), _item(version.nic))
    pair(_("Fabric"), _("InfiniBand") if version.is_infiniband else _("Ethernet (RoCEv2)"))
    pair(_("Leaf switch"), _item(version.leaf_switch, version.leaf_breakout))
    planned = summary.get("switches") or {}
    if planned.get("spine", 1):
        pair(_("Spine switch"), _item(version.spine_switch, version.spine_breakout))
    if planned.get("core", 1):
        pair(_("Core switch"), _item(version.core_switch, version.core_breakout))
    pair(_("GPUs requested"), version.gpus, "int")
    pair(_("Planes"), version.planes, "int")
    pair(_("Oversubscription at the leaf"), f"{version.oversubscription:g}:1")
    pair(_("Tiers requested"), version.get_tiers_display())
    layout = ctx.spec.get("layout") or version.layout or {}
    for key in _ordered(layout, LAYOUT_LABELS):
        value = layout[key]
        if key == "hall" and isinstance(value, dict):
            for label, text in _hall_rows(value):
                pair(label, text, "int" if isinstance(text, int) else "text")
        elif isinstance(value, bool):
            pair(LAYOUT_LABELS.get(key, key), _("yes") if value else _("no"))
        elif key in ("rack_power_basis", "cooling") and isinstance(value, str):
            pair(LAYOUT_LABELS[key], str(_layout_words().get(value, value)))
        elif isinstance(value, (dict, list)):
            pair(LAYOUT_LABELS.get(key, key), str(value))
        else:
            pair(LAYOUT_LABELS.get(key, key), value, "decimal" if isinstance(value, float) else "int")
    pools = ctx.spec.get("pools") or version.pools or {}
    for key in _ordered(pools, POOL_LABELS):
        if version.is_infiniband and key != "host":
            continue  # the subnet manager routes: no p2p, loopback or ASN pool is used
        label = IPOIB_POOL_LABEL if version.is_infiniband else POOL_LABELS.get(key, key)
        pair(label, pools[key], "id")
    if version.is_infiniband:
        pair(_("Addressing and routing"), underlay_not_applicable(), "note")
        pair(_("RoCE settings"), roce_not_applicable(), "note")
    for key, value in ([] if version.is_infiniband else flat_items("", version.roce or {})):
        pair(_("RoCE: %(setting)s") % {"setting": key}, value if isinstance(value, (int, float)) else str(value),
             "decimal" if isinstance(value, float) else "int")
    pair(_("Discount (%)"), version.discount_pct, "ratio")
    spares = version.spares
    spares_text = _("none (generated before spares)")
    if spares is not None:
        spares_text = ", ".join(f"{label} {float(spares.get(key, 0)):g}" for key, label in SPARE_LABELS.items())
        if "switches_per_spare" in spares:
            per_spare = int(spares["switches_per_spare"] or 0)
            spares_text += "; " + (_("one spare switch per %(count)s installed, per model") % {"count": per_spare}
                                   if per_spare else _("no spare switches by count"))
    pair(_("Spares (%)"), spares_text)

    section(_("Headline figures"))
    pair(_("Tiers"), summary.get("tiers"), "int")
    pair(_("Planes"), summary.get("planes"), "int")
    pair(_("Servers"), summary.get("servers"), "int")
    pair(_("GPUs"), summary.get("gpus"), "int")
    pair(_("GPUs per server"), summary.get("gpus_per_server"), "int")
    pair(_("Rails (backend NIC ports per server)"), summary.get("rails"), "int")
    pair(_("Scale units"), summary.get("scale_units"), "int", _("%(n)s servers each") % {
        "n": summary.get("su_servers", "")})
    if summary.get("pods"):
        pair(_("Pods per plane"), summary.get("pods"), "int")
    switches = summary.get("switches") or {}
    for role, label in (("leaf", _("Leaf switches")), ("spine", _("Spine switches")), ("core", _("Core switches"))):
        if switches.get(role):
            pair(label, switches[role], "int")
    links = summary.get("links") or {}
    for tier in Tier:
        name = ("server-leaf", "leaf-spine", "spine-core")[tier.value]
        if links.get(name):
            pair(_("Links %(tier)s") % {"tier": tier.label}, links[name], "int")
    pair(_("Links in total"), summary.get("total_links"), "int")
    pair(_("Maximum GPUs this design can grow to"), summary.get("max_gpus"), "int")
    pair(_("Maximum switch hops between GPUs"), summary.get("max_hops"), "int")
    bisection = summary.get("bisection_gbps")
    pair(_("Bisection bandwidth (Tb/s)"), bisection / 1000 if isinstance(bisection, (int, float)) else None,
         "decimal")
    for tier, ratio in (summary.get("oversubscription") or {}).items():
        pair(_("Oversubscription at the %(tier)s") % {"tier": tier}, f"{ratio:g}:1")
    for role, free in (summary.get("free_ports") or {}).items():
        if switches.get(role):
            pair(_("Free %(role)s ports") % {"role": role}, free, "int")
    wiring = wiring_verdict(summary)
    label = _("Wiring proof: worst leaf pair (share of a leaf's downlinks)")
    if wiring["computed"]:
        pair(label, wiring["fraction"], "ratio", wiring["detail"])
        pair(_("Delivers the stated oversubscription"), _("yes") if wiring["as_stated"] else _("no: blocking"),
             "ok" if wiring["as_stated"] else "warning")
    else:
        pair(label, wiring["text"], "note", wiring["detail"])
    power_typical = version.power_typical_w if version.power_typical_w is not None else summary.get("power_typical_w")
    power_max = version.power_max_w if version.power_max_w is not None else summary.get("power_max_w")
    split = version.in_server_typical_w is not None
    # Before the scope split the figures counted NICs and server-side optics too: say so, not "network".
    scope_note = None if split else _("in-server part not computed: counted in this figure")
    cluster = summary.get("cluster") or {}
    power_missing = missing_sentence(cluster.get("power_missing", (summary.get("power") or {}).get("missing")))
    price_missing = missing_sentence(cluster.get("price_missing", summary.get("price_missing")))
    if power_missing:  # a lower bound: the parts without a published figure are named beside it
        scope_note = "; ".join(str(n) for n in (scope_note, _("at least: %(missing)s") % {"missing": power_missing})
                               if n)
    pair(_("Network power, typical (kW)") if split else _("Power, typical (kW)"),
         power_typical / 1000 if power_typical is not None else None, "decimal", scope_note)
    pair(_("Network power, maximum (kW)") if split else _("Power, maximum (kW)"),
         power_max / 1000 if power_max is not None else None, "decimal",
         _("at least: %(missing)s") % {"missing": power_missing} if power_missing else None)
    hall = summary.get("hall") or {}
    if hall:
        hall_missing = missing_sentence(hall.get("power_missing"))
        pair(_("Hall power, typical (kW): every rack's devices"), (hall.get("power_typical_w") or 0) / 1000,
             "decimal", _("at least: %(missing)s") % {"missing": hall_missing} if hall_missing else None)
    if split:
        in_server_note = _("NICs and server-side optics: inside the servers' own power budget, do not add again")
        pair(_("In-server power, typical (kW)"), version.in_server_typical_w / 1000, "decimal", in_server_note)
        pair(_("In-server power, maximum (kW)"), (version.in_server_max_w or 0) / 1000, "decimal")
    else:
        pair(_("In-server power (kW)"), _("not computed"), "note")
    pair(_("Network rack units"), version.rack_units if version.rack_units is not None else summary.get("rack_units"),
         "int")
    bom = ctx.bom
    if bom.title:
        note = _("from the BOM sheet; follows its quantities and prices")
        if bom.has_spares:
            pair(_("Spares (%(currency)s)") % {"currency": ctx.currency},
                 Formula(bom.ref(bom.spares_row), bom.spares_subtotal), "money", _("included in the subtotal"))
        elif version.spares is None:
            pair(_("Spares (%(currency)s)") % {"currency": ctx.currency}, _("not computed"), "note")
        pair(_("Subtotal (%(currency)s)") % {"currency": ctx.currency},
             Formula(bom.ref(bom.subtotal_row), bom.subtotal), "money", note)
        pair(_("Discount (%(currency)s)") % {"currency": ctx.currency},
             Formula(bom.ref(bom.discount_row), bom.discount), "money")
        total_note = "; ".join(str(n) for n in (_("spares included") if bom.has_spares else None,
                                                 _("at least: %(missing)s") % {"missing": price_missing}
                                                 if price_missing else None) if n)
        pair(_("Total (%(currency)s)") % {"currency": ctx.currency}, Formula(bom.ref(bom.total_row), bom.total),
             "money_bold", total_note or None)

    section(_("Validation"))
    warnings = summary_warnings(summary)
    for warning in warnings:
        pair(_("Engine warning"), warning, "warning")
    if not warnings:
        pair(_("Engine warnings"), _("none"), "ok")
    pools_used = summary.get("pools") or {}
    for key in ("host", "p2p", "loopback"):
        usage = pools_used.get(key)
        if not usage:
            continue
        size = usage.get("size") or 0
        share = 100 * usage.get("used", 0) / size if size else 0
        label = IPOIB_POOL_LABEL if version.is_infiniband and key == "host" else POOL_LABELS.get(key, key)
        pair(label, _("%(cidr)s: %(used)s of %(size)s addresses used (%(share).1f%%)") % {
            "cidr": usage.get("cidr", ""), "used": f"{usage.get('used', 0):,}", "size": f"{size:,}", "share": share})
    asn = pools_used.get("asn")
    if asn:
        pair(_("ASN range"), _("%(first)s to %(last)s (%(used)s ASNs)") % {
            "first": asn.get("first"), "last": asn.get("last"), "used": f"{asn.get('used', 0):,}"})

    section(_("Notes"))
    if bom.example_skus:
        pair(_("Prices"), _("Some list prices are catalog examples, not quotes (marked on the BOM sheet)."), "warning")
    pair(_("Totals"), _("Extended prices and totals are formulas: change a quantity, a unit price or the discount "
                        "on the BOM sheet and they follow."), "note")


# BOM -----------------------------------------------------------------------------------------------------


def _formula_text(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _bom_sheet(ctx: WorkbookContext, sheet: Sheet) -> None:
    bom, currency = ctx.bom, ctx.currency
    spare_word = _("spare")
    sheet.columns([
        Column(_("Part number"), 26),
        Column(_("Description"), 58),
        Column(_("Category"), 14),
        Column(_("Quantity"), 11, "input_int"),
        Column(_("Unit price (%(currency)s)") % {"currency": currency}, 16, "input_money"),
        Column(_("Extended price (%(currency)s)") % {"currency": currency}, 19, "money"),
        Column(_("Typical power per unit (W)"), 14, "decimal"),
        Column(_("Typical power (W)"), 14, "int"),
        Column(_("Rack units per unit"), 11, "int"),
        Column(_("Rack units"), 10, "int"),
        Column(_("Example price"), 10),
        Column(_("Spare"), 9),
        Column(_("Power scope"), 16),
        Column(_("In-server power per unit (W)"), 14, "decimal"),
        Column(_("In-server power (W)"), 14, "int"),
        Column(_("Spares ordered"), 11, "int"),
        Column(_("Missing figure"), 24),
    ])
    base_rows, spare_rows = bom.base_rows(), bom.spare_rows()
    for row, line in enumerate(bom.lines, start=bom.FIRST):
        unit_power = line.power_typical_w / line.qty if line.qty else 0.0
        unit_in_server = (line.in_server_typical_w or 0.0) / line.qty if line.qty else 0.0
        unit_ru = line.rack_units // line.qty if line.qty else 0
        # A part without a list price or a power figure leaves its input cell empty (never a 0 that reads as a
        # value): its extended cell stays empty too, the SUMs skip it, and the last column says which is missing.
        priced, powered = line.price_published, line.power_published or line.spare
        missing = [text for known, text in ((priced, _("no list price")), (powered, _("no published power")))
                   if not known]
        key = (line.network, line.category, line.sku)
        qty: Any = line.qty
        spares: Any = None
        if line.spare:
            formula = bom.spare_qty_formula(line, base_rows.get(key))
            qty = Formula(formula, line.qty) if formula else line.qty
        elif bom.spares_policy is not None:
            spare_row = spare_rows.get(key)
            spares = Formula(f"D{spare_row}", next(ln.qty for ln in bom.lines if ln.spare and
                                                   (ln.network, ln.category, ln.sku) == key)) if spare_row else 0
        sheet.append([
            line.sku, line.description, str(CATEGORY_LABELS.get(line.category, line.category)), qty,
            line.unit_price if priced else None,
            Formula(f"D{row}*E{row}", line.qty * line.unit_price) if priced
            else Formula(f'IF(ISBLANK(E{row}),"",D{row}*E{row})', ""),
            unit_power if powered else None,
            Formula(f"D{row}*G{row}", line.qty * unit_power) if powered
            else Formula(f'IF(ISBLANK(G{row}),"",D{row}*G{row})', ""),
            unit_ru, Formula(f"D{row}*I{row}", line.qty * unit_ru),
            _("yes") if line.sku in bom.example_skus else None,
            spare_word if line.spare else None, str(SCOPE_LABELS.get(line.scope, line.scope)),
            unit_in_server if line.in_server_typical_w is not None else None,
            Formula(f"D{row}*N{row}", line.qty * unit_in_server) if line.in_server_typical_w is not None else None,
            spares,
            Styled("; ".join(missing), "warning") if missing else None,
        ])
    sheet.end_table()
    first, last = bom.FIRST, bom.last
    spare_range, price_range = f"$L${first}:$L${last}", f"$F${first}:$F${last}"
    sheet.append([])
    for category in bom.categories:
        label = str(CATEGORY_LABELS.get(category, category))
        cached = sum((ln.qty * ln.unit_price for ln in bom.lines if ln.category == category and not ln.spare),
                     Decimal("0"))
        sheet.append([None, _("Subtotal: %(category)s") % {"category": label}, None, None, None,
                      Formula(f"SUMIFS({price_range},$C${first}:$C${last},{_formula_text(label)},"
                              f"{spare_range},{_formula_text('<>' + spare_word)})", cached)])
    if bom.has_spares:
        sheet.append([None, Styled(_("Subtotal: spares"), "bold"), None, None, None,
                      Styled(Formula(f"SUMIF({spare_range},{_formula_text(spare_word)},{price_range})",
                                     bom.spares_subtotal), "money_bold")])
    power = sum((line.power_typical_w for line in bom.lines), 0.0)
    rack_units = sum(line.rack_units for line in bom.lines)
    subtotal_label = _("Subtotal, spares included") if bom.has_spares else _("Subtotal")
    sheet.append([None, Styled(subtotal_label, "bold"), None, None, None,
                  Styled(Formula(f"SUM(F{first}:F{last})", bom.subtotal), "money_bold"), None,
                  Formula(f"SUM(H{first}:H{last})", power), None, Formula(f"SUM(J{first}:J{last})", rack_units)])
    sheet.append([None, _("Discount (%) — change it here"), None, None, None,
                  Styled(bom.discount_pct, "input_percent")])
    sheet.append([None, _("Discount"), None, None, None,
                  Styled(Formula(f"ROUND(F{bom.subtotal_row}*F{bom.percent_row}/100,2)", bom.discount), "money")])
    total_label = _("Total (%(currency)s)") % {"currency": currency}
    sheet.append([None, Styled(total_label, "bold"), None, None, None,
                  Styled(Formula(f"F{bom.subtotal_row}-F{bom.discount_row}", bom.total), "money_bold"),
                  Styled(_("spares included"), "note") if bom.has_spares else None])
    sheet.append([None, _("Currency"), None, None, None, currency])
    if bom.spares_policy is not None:
        # The spares policy as input cells: the spare lines' quantities are formulas of them and of their base lines.
        sheet.append([None, Styled(_("Spares policy"), "bold")])
        for key in SPARE_POLICY_KEYS:
            value = bom.spares_policy.get(key, 0)  # a version from before a rule was quoted without it
            style = "input_int" if key == "switches_per_spare" else "input_percent"
            sheet.append([None, str(SPARE_POLICY_LABELS[key]), None, None, None,
                          Styled(int(value or 0) if key == "switches_per_spare" else Decimal(str(value or 0)), style)])
    if all(line.in_server_typical_w is not None for line in bom.lines):
        in_server = sum((line.in_server_typical_w or 0.0 for line in bom.lines), 0.0)
        sheet.append([None, _("Network power, typical (W): switches and switch-side optics"), None, None, None, None,
                      None, Formula(f"SUM(H{first}:H{last})-SUM(O{first}:O{last})", power - in_server)])
        sheet.append([None, _("In-server power, typical (W): NICs and server-side optics, in the servers' budget"),
                      None, None, None, None, None, Formula(f"SUM(O{first}:O{last})", in_server)])
    else:
        sheet.append([None, _("Power by scope (network, in-server): not computed for this version"), None])
    sheet.append([])
    missing_text = bom_missing_text(bom_missing(bom.lines), marked=False)
    if missing_text:
        sheet.append([Styled(missing_text, "warning")])
    if bom.example_skus:
        sheet.append([Styled(_("Lines marked under “Example price” carry catalog example prices, not quotes: "
                               "confirm them with the vendor before ordering."), "warning")])
    if bom.has_spares:
        sheet.append([Styled(_("Lines marked “%(spare)s” are spares: stock priced like their base line, "
                               "included in the subtotal and the total.") % {"spare": spare_word}, "note")])
        if bom.policy_rows:
            sheet.append([Styled(_("Spare quantities follow the spares policy above and their base line's quantity: "
                                   "a percentage rounded up (at least one when above 0); switches one per N "
                                   "installed of a model, or their percentage if that gives more."), "note")])
    sheet.append([Styled(_("Quantities, unit prices and the discount (shaded) may be changed: extended prices, "
                           "subtotals and totals are formulas and follow."), "note")])
    for note in summary_bom_notes(ctx.summary):  # e.g. NICs that come with the servers, so no NIC line
        sheet.append([Styled(capfirst(note) + ".", "note")])


# Cabling, IP plan, loopbacks, ASN plan ---------------------------------------------------------------------

LINK_CABLING_FIELDS = (
    "index", "tier", "plane", "rail", "pod", "a_device_id", "a_port", "label_a", "b_device_id", "b_port", "label_b",
    "medium", "medium_kind", "fiber", "a_sku", "b_sku", "cable_sku", "length_m",
)
LINK_ADDRESS_FIELDS = ("index", "tier", "plane", "a_device_id", "a_port", "a_ip", "b_device_id", "b_port", "b_ip",
                       "subnet")


def _tier_labels() -> dict[int, str]:
    return {tier.value: str(tier.label) for tier in Tier}


def _role_labels() -> dict[str, str]:
    return {role.value: str(role.label) for role in Role}


def _cabling_sheet(ctx: WorkbookContext, sheet: Sheet) -> None:
    sheet.columns([
        Column(_("Link index"), 10, "id"), Column(_("Tier"), 12), Column(_("Plane"), 7, "id"),
        Column(_("Rail"), 6, "id"), Column(_("Pod"), 6, "id"),
        Column(_("A rack"), 10), Column(_("A device"), 20), Column(_("A port"), 13), Column(_("A label"), 46),
        Column(_("B rack"), 10), Column(_("B device"), 20), Column(_("B port"), 13), Column(_("B label"), 46),
        Column(_("Medium"), 50), Column(_("Kind"), 7), Column(_("Fibre"), 7), Column(_("A-end module or cable"), 26),
        Column(_("B-end module"), 22), Column(_("Cable or fibre cord"), 26), Column(_("Length (m)"), 11, "metres"),
    ])
    version = ctx.version

    def rows() -> Iterator[tuple]:
        devices = version_device_map(version=version)
        tiers = _tier_labels()
        for (index, tier, plane, rail, pod, a_id, a_port, label_a, b_id, b_port, label_b, medium, kind, fiber,
             a_sku, b_sku, cable_sku, length) in version_link_rows(version=version, fields=LINK_CABLING_FIELDS):
            a, b = devices[a_id], devices[b_id]
            yield (index, tiers[tier], plane, rail, pod, a.rack, a.name, a_port, label_a, b.rack, b.name, b_port,
                   label_b, medium, kind, fiber, a_sku, b_sku, cable_sku, length)

    sheet.stream(rows(), count=version_link_count(version=version))


def _ipoib_plan_sheet(ctx: WorkbookContext, sheet: Sheet) -> None:
    sheet.set_widths([140])
    sheet.append([Styled(underlay_not_applicable(), "note")])
    sheet.columns([
        Column(_("Link index"), 10, "id"), Column(_("Plane"), 7, "id"), Column(_("Server"), 20),
        Column(_("Port"), 13), Column(_("IPoIB address"), 15), Column(_("Leaf"), 20), Column(_("Leaf port"), 13),
    ])
    version = ctx.version

    def rows() -> Iterator[tuple]:
        devices = version_device_map(version=version)
        for index, tier, plane, a_id, a_port, a_ip, b_id, b_port, _b_ip, _subnet in version_link_rows(
            version=version, fields=LINK_ADDRESS_FIELDS
        ):
            if tier == Tier.SERVER_LEAF:
                yield index, plane, devices[a_id].name, a_port, a_ip, devices[b_id].name, b_port

    host_links = int((ctx.summary.get("links") or {}).get("server-leaf") or 0)
    sheet.stream(rows(), count=host_links)


def _ip_plan_sheet(ctx: WorkbookContext, sheet: Sheet) -> None:
    if ctx.version.is_infiniband:
        return _ipoib_plan_sheet(ctx, sheet)
    sheet.columns([
        Column(_("Link index"), 10, "id"), Column(_("Tier"), 12), Column(_("Plane"), 7, "id"),
        Column(_("A device"), 20), Column(_("A port"), 13), Column(_("A address"), 15),
        Column(_("B device"), 20), Column(_("B port"), 13), Column(_("B address"), 15),
        Column(_("Subnet (/31)"), 17),
    ])
    version = ctx.version

    def rows() -> Iterator[tuple]:
        devices = version_device_map(version=version)
        tiers = _tier_labels()
        for index, tier, plane, a_id, a_port, a_ip, b_id, b_port, b_ip, subnet in version_link_rows(
            version=version, fields=LINK_ADDRESS_FIELDS
        ):
            yield (index, tiers[tier], plane, devices[a_id].name, a_port, a_ip, devices[b_id].name, b_port, b_ip,
                   subnet)

    sheet.stream(rows(), count=version_link_count(version=version))


def _loopback_sheet(ctx: WorkbookContext, sheet: Sheet) -> None:
    if ctx.version.is_infiniband:
        return not_applicable_sheet(sheet, underlay_not_applicable())
    sheet.columns([
        Column(_("Device"), 20), Column(_("Role"), 9), Column(_("Plane"), 7, "id"), Column(_("Pod"), 6, "id"),
        Column(_("Group"), 7, "id"), Column(_("Rack"), 10), Column(_("Loopback (/32)"), 18),
    ])
    switches = version_device_rows(version=ctx.version, fields=("name", "role", "plane", "pod", "group", "rack",
                                                                 "loopback"), switches_only=True)
    roles = _role_labels()
    sheet.stream(
        ((name, roles.get(role, role), plane, pod, group, rack, f"{loopback}/32" if loopback else None)
         for name, role, plane, pod, group, rack, loopback in switches),
        count=len(switches),
    )


def _asn_sheet(ctx: WorkbookContext, sheet: Sheet) -> None:
    if ctx.version.is_infiniband:
        return not_applicable_sheet(sheet, underlay_not_applicable())
    sheet.columns([
        Column(_("Device"), 20), Column(_("Role"), 9), Column(_("Plane"), 7, "id"), Column(_("Pod"), 6, "id"),
        Column(_("Scale unit"), 10, "id"), Column(_("Rail"), 6, "id"), Column(_("Group"), 7, "id"),
        Column(_("ASN"), 13, "id"),
    ])
    switches = version_device_rows(version=ctx.version, fields=("name", "role", "plane", "pod", "su", "rail", "group",
                                                                 "asn"), switches_only=True)
    roles = _role_labels()
    sheet.stream(
        ((name, roles.get(role, role), plane, pod, su, rail, group, asn)
         for name, role, plane, pod, su, rail, group, asn in switches),
        count=len(switches),
    )


SUMMARY_NAME = gettext_lazy("Summary")
BOM_NAME = gettext_lazy("BOM")


def _builtin_sheets_register() -> None:
    for name, writer, order in (
        (SUMMARY_NAME, _summary_sheet, 0), (BOM_NAME, _bom_sheet, 10), (gettext_lazy("Cabling"), _cabling_sheet, 20),
        (gettext_lazy("IP plan"), _ip_plan_sheet, 30), (gettext_lazy("Loopbacks"), _loopback_sheet, 40),
        (gettext_lazy("ASN plan"), _asn_sheet, 50),
    ):
        workbook_sheet_register(name, writer, order=order)
        _BUILTIN.add(sheet_key(name))


_builtin_sheets_register()
