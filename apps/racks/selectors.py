"""Reading a version's hall, racks and rack contents (callers pass a version the user sees).

The drawing functions (apps.racks.svg) and the documents take plain data: HallPlan, RackSummary
and RackContent, read here in one query each (a version's racks by primary-key range).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, Q

from apps.designs.models import DesignVersion

from .models import Hall, Rack, RackItem, rack_row_id_range

RACK_FIELDS = ("name", "kind", "zone", "row", "position", "x_m", "y_m", "u_height", "used_u", "power_typical_w",
               "power_max_w", "budget_w", "cooling", "pod", "su", "items", "power_missing")
ITEM_FIELDS = ("name", "kind", "role", "network", "sku", "model", "u", "u_height", "face", "full_depth",
               "power_typical_w", "power_max_w", "power_missing")


@dataclass(frozen=True, slots=True)
class HallPlan:
    rows: int
    positions: int
    rack_width_m: float
    row_pitch_m: float
    rack_units: int
    budget_w: float | None
    power_basis: str
    cooling: str
    structured_cabling: bool = False
    reserved: list[dict[str, Any]] = field(default_factory=list)
    zones: list[dict[str, Any]] = field(default_factory=list)
    racks: int = 0
    power_typical_w: float = 0.0
    power_max_w: float = 0.0
    power_missing: list[str] = field(default_factory=list)  # parts without a power figure, left out of the totals
    footprint_width_m: float = 0.0
    footprint_depth_m: float = 0.0
    aisles: dict[str, Any] = field(default_factory=dict)

    @property
    def width_m(self) -> float:
        return self.footprint_width_m or self.positions * self.rack_width_m

    @property
    def depth_m(self) -> float:
        return self.footprint_depth_m or self.rows * self.row_pitch_m

    @property
    def paired(self) -> bool:
        """Rows in hot/cold aisle pairs (halls placed before aisles: a uniform row pitch)."""
        return bool(self.aisles.get("paired"))


@dataclass(frozen=True, slots=True)
class RackSummary:
    name: str
    kind: str
    zone: str
    row: int
    position: int
    x_m: float
    y_m: float
    u_height: int
    used_u: int
    power_typical_w: float
    power_max_w: float
    budget_w: float | None
    cooling: str
    pod: int | None
    su: int | None
    items: int
    power_missing: str = ""  # "SN2201, NVLink switch tray": parts without a power figure, left out of its totals

    def power_w(self, basis: str) -> float:
        return self.power_max_w if basis == "maximum" else self.power_typical_w

    def over_budget(self, basis: str) -> bool:
        return bool(self.budget_w) and self.power_w(basis) > self.budget_w + 1e-6


@dataclass(frozen=True, slots=True)
class RackContent:
    name: str
    kind: str
    role: str
    network: str
    sku: str
    model: str
    u: int
    u_height: int
    face: str
    full_depth: bool
    power_typical_w: float
    power_max_w: float
    power_missing: str = ""

    @property
    def top_u(self) -> int:
        return self.u + self.u_height - 1


def hall_get(*, version: DesignVersion) -> Hall | None:
    return Hall.objects.filter(version=version).first()


def hall_plan(*, version: DesignVersion) -> HallPlan | None:
    """The version's hall as the drawings take it, or None (a version generated before halls)."""
    hall = hall_get(version=version)
    if hall is None:
        return None
    return HallPlan(rows=hall.rows, positions=hall.positions, rack_width_m=hall.rack_width_m,
                    row_pitch_m=hall.row_pitch_m, rack_units=hall.rack_units, budget_w=hall.budget_w,
                    power_basis=hall.power_basis, cooling=hall.cooling, structured_cabling=hall.structured_cabling,
                    reserved=list(hall.reserved or []), zones=list(hall.zones or []), racks=hall.racks,
                    power_typical_w=hall.power_typical_w, power_max_w=hall.power_max_w,
                    power_missing=list(hall.power_missing or []),

                    footprint_width_m=hall.footprint_width_m, footprint_depth_m=hall.footprint_depth_m,
                    aisles=dict(hall.aisles or {}))


def _version_racks(version_id: int):
    first, last = rack_row_id_range(version_id)
    return Rack.objects.filter(pk__gte=first, pk__lte=last)


def rack_summaries(*, version: DesignVersion) -> list[RackSummary]:
    """Every rack of the version in hall order (row, position), one query."""
    rows = _version_racks(version.pk).order_by("pk").values_list(*RACK_FIELDS)
    return [RackSummary(*row) for row in rows.iterator(chunk_size=5000)]


def rack_list(*, version: DesignVersion):
    """The version's racks as a queryset (the API pages it)."""
    return _version_racks(version.pk).order_by("pk")


def rack_get(*, version: DesignVersion, name: str) -> Rack | None:
    return Rack.objects.filter(version=version, name=name).first()


def rack_summary(rack: Rack) -> RackSummary:
    return RackSummary(*(getattr(rack, name) for name in RACK_FIELDS))


def rack_contents(*, rack: Rack) -> list[RackContent]:
    """What a rack holds, bottom to top (front before rear at the same unit), one query."""
    rows = RackItem.objects.filter(rack_id=rack.pk).order_by("u", "face", "pk").values_list(*ITEM_FIELDS)
    return [RackContent(*row) for row in rows]


def rack_of_device(*, version: DesignVersion, name: str) -> str | None:
    """The name of the rack holding the device called `name`, or None."""
    first, last = rack_row_id_range(version.pk)
    return (RackItem.objects.filter(version=version, name=name, pk__gte=first, pk__lte=last)
            .values_list("rack__name", flat=True).first())


def device_placements(*, version: DesignVersion) -> dict[str, tuple[str, int, str]]:
    """{device name: (rack, lowest U, face)} of every device of the version in a rack (one query; {} without a hall)."""
    first, last = rack_row_id_range(version.pk)
    rows = (RackItem.objects.filter(pk__gte=first, pk__lte=last, kind="device")
            .values_list("name", "rack__name", "u", "face").iterator(chunk_size=10_000))
    return {name: (rack, u, face) for name, rack, u, face in rows}


def rack_heights(*, version: DesignVersion) -> list[tuple[str, int]]:
    """(name, height in U) of every rack of the version, in hall order (one query)."""
    return list(_version_racks(version.pk).order_by("pk").values_list("name", "u_height"))


def rack_blocks(*, version: DesignVersion):
    """(rack, its contents top to bottom) for every rack of the version in hall order: two queries, streamed."""
    first, last = rack_row_id_range(version.pk)
    racks = (_version_racks(version.pk).order_by("pk").values_list("pk", *RACK_FIELDS)
             .iterator(chunk_size=5000))
    items = (RackItem.objects.filter(pk__gte=first, pk__lte=last).order_by("rack_id", "-u", "face", "pk")
             .values_list("rack_id", *ITEM_FIELDS).iterator(chunk_size=10_000))
    pending = next(items, None)
    for pk, *fields in racks:
        contents = []
        while pending is not None and pending[0] == pk:
            contents.append(RackContent(*pending[1:]))
            pending = next(items, None)
        yield RackSummary(*fields), contents


def hall_rack_counts(*, version: DesignVersion, basis: str) -> tuple[dict[str, int], int]:
    """Racks per kind and the number over their budget (on `basis`), in one query."""
    power = F("power_max_w") if basis == "maximum" else F("power_typical_w")
    rows = (_version_racks(version.pk).values("kind")
            .annotate(n=Count("pk"), over=Count("pk", filter=Q(budget_w__gt=0, budget_w__lt=power - 1e-6)))
            .order_by("kind"))
    by_kind = {row["kind"]: row["n"] for row in rows}
    return by_kind, sum(row["over"] for row in rows)
