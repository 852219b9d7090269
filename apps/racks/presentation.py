"""Words and figures of the racks pages and sheet: the hall's facts, a rack's facts, the rack table."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from apps.designs.missing import at_least, not_published

from .models import Cooling, RackKind
from .selectors import HallPlan, RackSummary
from .svg import COOLING_ORDER, basis_label, cooling_short, zone_label  # noqa: F401  (zone_label: pages' and sheet's)


def kw(watts: float | None) -> str:
    return "–" if watts is None else number_format(round(watts / 1000, 1), decimal_pos=1, force_grouping=True)


def cooling_label(value: str) -> str:
    return str(dict(Cooling.choices).get(value, value))


def kind_label(value: str) -> str:
    return str(dict(RackKind.choices).get(value, value))


def hall_facts(hall: HallPlan, racks: Sequence[RackSummary]) -> list[tuple[str, str]]:
    basis = hall.power_basis
    by_kind: dict[str, int] = {}
    for rack in racks:
        by_kind[rack.kind] = by_kind.get(rack.kind, 0) + 1
    over = [r for r in racks if r.over_budget(basis)]
    fullest_rack = max(racks, key=lambda r: r.power_w(basis), default=None)
    fullest = fullest_rack.power_w(basis) if fullest_rack is not None else 0.0
    facts = [
        (_("Racks"), f"{len(racks):,}" + (" (" + ", ".join(f"{kind_label(k)} {n:,}" for k, n in sorted(by_kind.items()))
                                          + ")" if by_kind else "")),
        (_("Hall"), _("%(rows)s rows × %(positions)s positions, %(width)s m × %(depth)s m") % {
            "rows": hall.rows, "positions": hall.positions,
            "width": number_format(round(hall.width_m, 1), decimal_pos=1),
            "depth": number_format(round(hall.depth_m, 1), decimal_pos=1)}),
        (_("Rack height"), f"{hall.rack_units} U"),
        (_("Power budget per rack"), (_("%(kw)s kW against %(basis)s") % {"kw": kw(hall.budget_w),
                                                                         "basis": basis_label(basis)})
         if hall.budget_w else _("none set")),
        (_("Cooling the site offers"), cooling_label(hall.cooling)),
        (_("Cooling the racks need"), ", ".join(f"{cooling_label(kind)} {n:,}" for kind, n in cooling_mix(racks))),
        (_("Racks needing more cooling than the site offers"), f"{sum(cooling_short(hall, r) for r in racks):,}"),
        (_("Fullest rack"), at_least(f"{kw(fullest)} kW", fullest_rack.power_missing if fullest_rack else "")),
        (_("Racks over the budget"), f"{len(over):,}"),
        (_("Power of the hall (typical / maximum)"),
         at_least(f"{kw(hall.power_typical_w)} / {kw(hall.power_max_w)} kW", hall.power_missing)),
        (_("Structured cabling"), _("yes") if hall.structured_cabling else _("no")),
    ]
    if hall.paired:
        a = hall.aisles
        facts.insert(2, (_("Aisles"), _(
            "rows in pairs round a %(cold)s m cold aisle, %(hot)s m hot aisles between pairs, %(cross)s m cross "
            "aisles every %(segment)s racks and round the hall (TIA-942 and BICSI guidance)") % {
            "cold": _m(a.get("cold_aisle_m")), "hot": _m(a.get("hot_aisle_m")), "cross": _m(a.get("cross_aisle_m")),
            "segment": a.get("row_racks_max") or "–"}))
        if a.get("air_limit_kw") is not None:
            facts.append((_("Cooling limits per rack"), _(
                "air up to %(air)s kW, rear-door heat exchanger up to %(door)s kW, direct liquid above") % {
                "air": _m(a.get("air_limit_kw")), "door": _m(a.get("rear_door_limit_kw"))}))
    if hall.reserved:
        facts.append((_("Reserved cells"), f"{len(hall.reserved):,}"))
    return facts


def _m(value: Any) -> str:
    return number_format(round(float(value or 0), 2), decimal_pos=None) if value is not None else "–"


def cooling_mix(racks: Sequence[RackSummary]) -> list[tuple[str, int]]:
    """(cooling, racks) for every cooling the racks need, air first."""
    counts: dict[str, int] = {}
    for rack in racks:
        counts[rack.cooling] = counts.get(rack.cooling, 0) + 1
    return sorted(counts.items(), key=lambda pair: COOLING_ORDER.get(pair[0], 9))


def rack_facts(rack: RackSummary, basis: str) -> list[tuple[str, str]]:
    share = rack.power_w(basis) / rack.budget_w * 100 if rack.budget_w else None
    facts = [
        (_("Kind"), kind_label(rack.kind)),
        (_("Row and position"), _("row %(row)s, position %(position)s") % {"row": rack.row + 1,
                                                                            "position": rack.position + 1}),
        (_("Floor position (m)"),
         f"x {number_format(rack.x_m, decimal_pos=1)}, y {number_format(rack.y_m, decimal_pos=1)}"),
        (_("Height"), _("%(used)s of %(units)s U used") % {"used": rack.used_u, "units": rack.u_height}),
        (_("Power (typical / maximum)"),
         at_least(f"{kw(rack.power_typical_w)} / {kw(rack.power_max_w)} kW", rack.power_missing)),
        (_("Power budget"), (_("%(kw)s kW against %(basis)s (%(share)s %% used)") % {
            "kw": kw(rack.budget_w), "basis": basis_label(basis),
            "share": number_format(round(share or 0), decimal_pos=0)}) if rack.budget_w else _("none set")),
        (_("Cooling"), cooling_label(rack.cooling)),
    ]
    if rack.pod is not None:
        facts.append((_("Pod"), str(rack.pod)))
    if rack.su is not None:
        facts.append((_("Scale unit"), str(rack.su)))
    return facts


def rack_table_rows(hall: HallPlan, racks: Sequence[RackSummary], *, limit: int = 0) -> list[dict[str, Any]]:
    """The hall page's table of racks (the fullest first), `limit` rows at most (0: all)."""
    basis = hall.power_basis
    ordered = sorted(racks, key=lambda r: (-r.power_w(basis), r.row, r.position))
    shown = ordered[:limit] if limit else ordered
    return [{"rack": r, "kind": kind_label(r.kind), "power_kw": at_least(kw(r.power_w(basis)), r.power_missing),
             "budget_kw": kw(r.budget_w), "over": r.over_budget(basis)} for r in shown]


def item_power(watts: float, missing: str) -> str:
    """An item's own power cell: its watts, "≥ watts (missing: ...)" when an optic in it has no figure, or
    "not published" when the item itself has none."""
    if missing and not watts:
        return not_published()
    return at_least(number_format(round(watts), decimal_pos=0, force_grouping=True), missing)


def role_labels() -> dict[str, str]:
    return {
        "server": _("server"), "leaf": _("leaf"), "spine": _("spine"), "core": _("core"),
        "storage": _("storage node"), "nvlink-switch": _("NVLink switch tray"), "patch-panel": _("patch panel"),
        "cable-manager": _("cable manager"), "power-shelf": _("power shelf"),
    }


def network_labels() -> dict[str, str]:
    return {
        "backend": _("backend"), "frontend": _("front-end"), "storage": _("storage"),
        "oob": _("out-of-band management"), "scale-up": _("scale-up (NVLink)"), "cabling": _("structured cabling"),
        "power": _("rack power"),
    }


def face_label(face: str) -> str:
    return _("rear") if face == "rear" else _("front")
