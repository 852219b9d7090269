"""Side-by-side difference of two generated versions of one project.

What is compared (never per-link rows, so a diff of two 65,536-GPU versions reads a few dozen
rows): the inputs (catalog parts by name and SKU, breakouts, sizes, planes, tiers, rack layout,
address pools, RoCE overrides, discount, currency), headline figures and switches and links per
tier from the engine summary, the BOM aggregated by SKU in the database (added, removed, changed
quantity or unit price, unchanged), and the cost, power and rack-unit totals. Every delta is
b - a. Money stays Decimal; money deltas are None when the two versions are in different
currencies (a difference of amounts in two currencies means nothing).

The two versions may belong to different designs of the same project; each must be ready.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max, Min, Sum
from django.utils.translation import gettext as _

from apps.designs.models import BomLineRecord, DesignVersion
from apps.projects.models import Project

from .audit import version_label

CATEGORY_ORDER = ("switch", "nic", "transceiver", "cable", "fiber")
TIERS = ("leaf", "spine", "core")
LINK_TIERS = ("server-leaf", "leaf-spine", "spine-core")
ZERO = Decimal("0")


class BomStatus:
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"
    SAME = "same"


@dataclass(frozen=True)
class InputChange:
    field: str
    label: str
    a: str
    b: str


@dataclass(frozen=True)
class CountRow:
    key: str
    label: str
    a: Any
    b: Any

    @property
    def delta(self) -> Any:
        if self.a is None or self.b is None:
            return None
        return self.b - self.a

    @property
    def changed(self) -> bool:
        return self.a != self.b


@dataclass(frozen=True)
class BomLineDiff:
    sku: str
    description: str
    category: str
    status: str
    qty_a: int
    qty_b: int
    unit_price_a: Decimal | None
    unit_price_b: Decimal | None
    total_a: Decimal
    total_b: Decimal
    comparable: bool = True  # False when the versions are priced in different currencies

    @property
    def qty_delta(self) -> int:
        return self.qty_b - self.qty_a

    @property
    def total_delta(self) -> Decimal | None:
        return self.total_b - self.total_a if self.comparable else None

    @property
    def unit_price_delta(self) -> Decimal | None:
        if not self.comparable or self.unit_price_a is None or self.unit_price_b is None:
            return None
        return self.unit_price_b - self.unit_price_a


@dataclass(frozen=True)
class TotalRow:
    key: str
    label: str
    a: Any
    b: Any
    unit: str = ""
    money: bool = False
    comparable: bool = True

    @property
    def delta(self) -> Any:
        if not self.comparable or self.a is None or self.b is None:
            return None
        return self.b - self.a

    @property
    def changed(self) -> bool:
        return self.a != self.b

    @property
    def tone(self) -> str:
        """"better" or "worse" for the customer: a larger discount is a saving, a larger cost, power or
        height is not; "" when nothing comparable changed."""
        delta = self.delta
        if not delta:
            return ""
        higher_is_better = self.key in HIGHER_IS_BETTER
        return "better" if (delta > 0) == higher_is_better else "worse"


# Totals where more is better for the customer (every other total costs more when it grows).
HIGHER_IS_BETTER = frozenset({"discount"})


@dataclass
class VersionDiff:
    a: DesignVersion
    b: DesignVersion
    inputs: list[InputChange] = field(default_factory=list)
    figures: list[CountRow] = field(default_factory=list)
    switches: list[CountRow] = field(default_factory=list)
    links: list[CountRow] = field(default_factory=list)
    bom: list[BomLineDiff] = field(default_factory=list)
    totals: list[TotalRow] = field(default_factory=list)

    @property
    def same_currency(self) -> bool:
        return self.a.currency == self.b.currency

    @property
    def a_label(self) -> str:
        return version_label(self.a)

    @property
    def b_label(self) -> str:
        return version_label(self.b)

    def bom_with(self, status: str) -> list[BomLineDiff]:
        return [line for line in self.bom if line.status == status]

    @property
    def bom_counts(self) -> dict[str, int]:
        counts = {BomStatus.ADDED: 0, BomStatus.REMOVED: 0, BomStatus.CHANGED: 0, BomStatus.SAME: 0}
        for line in self.bom:
            counts[line.status] += 1
        return counts


# Versions -------------------------------------------------------------------------------------------


def diff_versions_clean(*, project: Project, a: Any, b: Any) -> tuple[DesignVersion, DesignVersion]:
    """The two versions named by ids `a` and `b`: ready versions of `project`, else errors on a / b."""
    errors: dict[str, list[str]] = {}
    found: dict[str, DesignVersion] = {}
    for name, value in (("a", a), ("b", b)):
        if value in (None, ""):
            errors[name] = [_("Choose a version.")]
            continue
        try:
            pk = int(value)
        except (TypeError, ValueError):
            errors[name] = [_("Give a version id (a whole number).")]
            continue
        version = _versions().filter(pk=pk, design__project=project).first()
        if version is None:
            errors[name] = [_("This project has no version %(id)s.") % {"id": pk}]
        elif version.status != DesignVersion.Status.READY:
            errors[name] = [_("%(version)s is %(status)s: only generated versions can be compared.")
                            % {"version": version_label(version), "status": version.get_status_display()}]
        else:
            found[name] = version
    if errors:
        raise ValidationError(errors)
    return found["a"], found["b"]


def _versions():
    return DesignVersion.objects.select_related(
        "design__project", "server__manufacturer", "nic__manufacturer", "leaf_switch__manufacturer",
        "spine_switch__manufacturer", "core_switch__manufacturer",
    )


def version_diff(*, a: DesignVersion, b: DesignVersion) -> VersionDiff:
    """Everything that differs from version `a` to version `b` (both ready, of one project)."""
    if a.design.project_id != b.design.project_id:
        raise ValidationError({"b": [_("Both versions must belong to the same project.")]})
    for name, version in (("a", a), ("b", b)):
        if version.status != DesignVersion.Status.READY:
            raise ValidationError({name: [_("Only generated versions can be compared.")]})
    a, b = _versions().get(pk=a.pk), _versions().get(pk=b.pk)
    summary_a, summary_b = a.summary or {}, b.summary or {}
    return VersionDiff(
        a=a,
        b=b,
        inputs=_inputs_changed(a, b),
        figures=_figures(summary_a, summary_b),
        switches=[
            CountRow(tier, label, int((summary_a.get("switches") or {}).get(tier, 0)),
                     int((summary_b.get("switches") or {}).get(tier, 0)))
            for tier, label in _tier_labels().items()
        ],
        links=[
            CountRow(tier, label, int((summary_a.get("links") or {}).get(tier, 0)),
                     int((summary_b.get("links") or {}).get(tier, 0)))
            for tier, label in _link_labels().items()
        ],
        bom=_bom_diff(a, b),
        totals=_totals(a, b),
    )


# Inputs ---------------------------------------------------------------------------------------------


def _item(obj: Any) -> str:
    if obj is None:
        return ""
    return f"{obj.manufacturer.name} {obj.model} ({obj.sku})"


def _tier_labels() -> dict[str, str]:
    return {"leaf": _("Leaf switches"), "spine": _("Spine switches"), "core": _("Core switches")}


def _link_labels() -> dict[str, str]:
    return {"server-leaf": _("Server–leaf links"), "leaf-spine": _("Leaf–spine links"),
            "spine-core": _("Spine–core links")}


def _layout_labels() -> dict[str, str]:
    return {
        "servers_per_rack": _("Servers per rack"),
        "racks_per_row": _("Racks per row"),
        "rack_width_m": _("Rack width (m)"),
        "row_pitch_m": _("Row pitch (m)"),
        "slack_m": _("Slack per link (m)"),
        "switches_per_rack": _("Switches per spine or core rack"),
        "rack_units": _("Rack height (U)"),
        "leaf_rack": _("Leaf rack position"),
        "spine_rows": _("Spine and core rows"),
    }


def _pool_labels() -> dict[str, str]:
    return {
        "host": _("Host address pool"),
        "p2p": _("Switch-to-switch address pool"),
        "loopback": _("Loopback address pool"),
        "asn_base": _("First ASN"),
    }


def _text(value: Any) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (dict, list)):
        items = (f"{k} {v}" for k, v in value.items()) if isinstance(value, dict) else map(str, value)
        return ", ".join(items)
    return str(value)


def _inputs_changed(a: DesignVersion, b: DesignVersion) -> list[InputChange]:
    rows: list[tuple[str, str, Any, Any]] = []
    if a.design_id != b.design_id:
        rows.append(("design", _("Design"), a.design.name, b.design.name))
    rows += [
        ("server", _("GPU server"), _item(a.server), _item(b.server)),
        ("nic", _("Backend NIC"), _item(a.nic), _item(b.nic)),
        ("leaf_switch", _("Leaf switch"), _item(a.leaf_switch), _item(b.leaf_switch)),
        ("leaf_breakout", _("Leaf breakout"), a.leaf_breakout, b.leaf_breakout),
        ("spine_switch", _("Spine switch"), _item(a.spine_switch), _item(b.spine_switch)),
        ("spine_breakout", _("Spine breakout"), a.spine_breakout, b.spine_breakout),
        ("core_switch", _("Core switch"), _item(a.core_switch), _item(b.core_switch)),
        ("core_breakout", _("Core breakout"), a.core_breakout, b.core_breakout),
        ("gpus", _("GPUs"), f"{a.gpus:,}", f"{b.gpus:,}"),
        ("planes", _("Planes"), a.planes, b.planes),
        ("nic_split", _("NIC port split"), a.nic_split, b.nic_split),
        ("oversubscription", _("Oversubscription at the leaf"), f"{a.oversubscription:g}:1",
         f"{b.oversubscription:g}:1"),
        ("tiers", _("Tiers"), a.get_tiers_display(), b.get_tiers_display()),
    ]
    # The spec holds the effective layout and pools (defaults filled in), so a default that was
    # typed explicitly in one version does not show as a change.
    for group, labels, fallback in (("layout", _layout_labels(), "layout"), ("pools", _pool_labels(), "pools")):
        values_a = (a.spec or {}).get(group) or getattr(a, fallback) or {}
        values_b = (b.spec or {}).get(group) or getattr(b, fallback) or {}
        for key in list(labels) + sorted((set(values_a) | set(values_b)) - set(labels)):
            if key in values_a or key in values_b:
                rows.append((f"{group}.{key}", labels.get(key, key.replace("_", " ")),
                             values_a.get(key), values_b.get(key)))
    roce_a, roce_b = a.roce or {}, b.roce or {}
    for key in sorted(set(roce_a) | set(roce_b)):
        rows.append((f"roce.{key}", _("RoCE: %(setting)s") % {"setting": key.replace("_", " ")},
                     roce_a.get(key, _("default")), roce_b.get(key, _("default"))))
    rows += [
        ("discount_pct", _("Discount (%)"), a.discount_pct, b.discount_pct),
        ("currency", _("Currency"), a.currency, b.currency),
    ]
    return [InputChange(name, label, _text(va), _text(vb)) for name, label, va, vb in rows if _text(va) != _text(vb)]


# Figures ----------------------------------------------------------------------------------------------


def _figures(sa: dict[str, Any], sb: dict[str, Any]) -> list[CountRow]:
    labels = {
        "gpus": _("GPUs"),
        "servers": _("Servers"),
        "tiers": _("Tiers"),
        "planes": _("Planes"),
        "scale_units": _("Scale units"),
        "pods": _("Pods"),
        "total_links": _("Links"),
        "max_gpus": _("Max GPUs (growth)"),
        "max_hops": _("Max switch hops"),
        "bisection_tbps": _("Bisection bandwidth (Tb/s)"),
    }
    # In Tb/s, as the design page shows it.
    sa, sb = ({**s, "bisection_tbps": s["bisection_gbps"] / 1000} if s.get("bisection_gbps") is not None else s
              for s in (sa, sb))
    return [CountRow(key, label, sa.get(key), sb.get(key)) for key, label in labels.items()
            if sa.get(key) is not None or sb.get(key) is not None]


# BOM ------------------------------------------------------------------------------------------------------


def _bom_by_sku(version: DesignVersion) -> dict[str, dict[str, Any]]:
    """The version's BOM aggregated by SKU in the database (one row per SKU, in BOM order)."""
    rows = (
        BomLineRecord.objects.filter(version=version)
        .values("sku")
        .annotate(qty_sum=Sum("qty"), total_sum=Sum("total"), price_max=Max("unit_price"),
                  price_min=Min("unit_price"), text=Max("description"), kind=Max("category"), first=Min("index"))
        .order_by("first")
    )
    return {
        row["sku"]: {"qty": row["qty_sum"], "total": row["total_sum"], "unit_price": row["price_max"],
                     "low_price": row["price_min"], "description": row["text"], "category": row["kind"],
                     "first": row["first"]}
        for row in rows
    }


def _bom_diff(a: DesignVersion, b: DesignVersion) -> list[BomLineDiff]:
    lines_a, lines_b = _bom_by_sku(a), _bom_by_sku(b)
    order = {sku: (0, row["first"]) for sku, row in lines_b.items()}
    for sku, row in lines_a.items():
        order.setdefault(sku, (1, row["first"]))
    category_rank = {category: rank for rank, category in enumerate(CATEGORY_ORDER)}
    out: list[BomLineDiff] = []
    for sku in order:
        row_a, row_b = lines_a.get(sku), lines_b.get(sku)
        either = row_b or row_a
        if row_a is None:
            status = BomStatus.ADDED
        elif row_b is None:
            status = BomStatus.REMOVED
        elif (row_a["qty"], row_a["unit_price"], row_a["total"]) != (row_b["qty"], row_b["unit_price"], row_b["total"]):
            status = BomStatus.CHANGED
        else:
            status = BomStatus.SAME
        out.append(BomLineDiff(
            sku=sku,
            description=either["description"],
            category=either["category"],
            status=status,
            qty_a=int(row_a["qty"]) if row_a else 0,
            qty_b=int(row_b["qty"]) if row_b else 0,
            unit_price_a=_unit_price(row_a),
            unit_price_b=_unit_price(row_b),
            total_a=row_a["total"] if row_a else ZERO,
            total_b=row_b["total"] if row_b else ZERO,
            comparable=a.currency == b.currency,
        ))
    out.sort(key=lambda line: (category_rank.get(line.category, len(CATEGORY_ORDER)), order[line.sku]))
    return out


def _unit_price(row: dict[str, Any] | None) -> Decimal | None:
    if row is None:
        return None
    # Lines of one SKU share a price; if they ever differ, the average is what the total implies.
    if row["unit_price"] == row["low_price"] or not row["qty"]:
        return row["unit_price"]
    return (row["total"] / row["qty"]).quantize(Decimal("0.01"))


# Totals ---------------------------------------------------------------------------------------------------


def _totals(a: DesignVersion, b: DesignVersion) -> list[TotalRow]:
    same = a.currency == b.currency
    currency = a.currency if same else ""
    return [
        TotalRow("subtotal", _("Subtotal (list)"), a.subtotal, b.subtotal, currency, True, same),
        TotalRow("discount", _("Discount"), a.discount, b.discount, currency, True, same),
        TotalRow("total_cost", _("Total cost"), a.total_cost, b.total_cost, currency, True, same),
        TotalRow("power_typical_w", _("Power, typical"), _watts(a.power_typical_w), _watts(b.power_typical_w), "W"),
        TotalRow("power_max_w", _("Power, maximum"), _watts(a.power_max_w), _watts(b.power_max_w), "W"),
        TotalRow("rack_units", _("Network rack units"), a.rack_units, b.rack_units, "RU"),
    ]


def _watts(value: float | None) -> Decimal | None:
    # Power is summed in floating point by the engine; one decimal is what the BOM shows.
    return None if value is None else Decimal(str(round(float(value), 1)))
