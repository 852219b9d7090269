"""What engine.hall returns: the hall's grid, its racks and what each rack holds.

Conventions every consumer relies on:
- Rows and positions are 0-based here (`Rack.row`, `Rack.position`); names and the spec count from 1
  ("R012-05" is row 12, position 5, as engine.racks.rack_name writes it).
- Floor coordinates are metres from the hall's origin: x_m along a row (position x rack pitch), y_m
  across rows (row x row pitch), both for the rack's front-left corner.
- Rack units count from 1 at the bottom; `RackItem.u` is the lowest unit the item occupies and it
  fills u .. u + u_height - 1. No two items of a rack share a unit and none passes `Rack.units`.
- Power in watts; a rack's budget (`Rack.power_budget_w`, 0 = none) is held against `Rack.power_basis`
  ("typical" or "maximum") draw of its items. A device's power is its own plus the network-side optics and
  active cables plugged into it (`RackItem.pluggable_w`, the BOM's figures spread over the link ends; optics in a
  server's ports are inside the server's own rating, as engine.bom counts them).
- A figure nobody publishes is never a silent 0: the item names the part (`RackItem.power_missing`) and every
  total over it (`Rack.power_missing`, `HallPlan.power_missing`) lists it, so the total reads as a lower bound.
- `RackItem.device` is the cluster device index (Plan.devices, then every NetworkPlan's devices) or -1
  for passive items (patch panels, cable managers).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

U_M = 0.04445  # one rack unit, 1.75 in (EIA-310)

# RackItem.network: which network the item belongs to ("scale-up" for NVLink switch trays of a rack-scale
# system, "cabling" for patch panels and cable managers, "power" for a rack-scale rack's power shelves).
NETWORKS = ("backend", "frontend", "storage", "oob", "scale-up", "cabling", "power")
# Rack.kind: what the rack holds.
RACK_KINDS = ("compute", "network", "storage", "management")


@dataclass(slots=True)
class Hall:
    """The grid racks stand on: rows x positions cells, some reserved, rows grouped in zones."""

    rows: int
    positions: int
    rack_width_m: float  # pitch along a row
    row_pitch_m: float  # pitch between rows
    reserved: frozenset[tuple[int, int]] = frozenset()  # (row, position), 0-based
    zones: dict[int, str] = field(default_factory=dict)  # row (0-based) -> zone kind (compute, network, storage)
    # The footprint with its aisles and clearances (engine.hall.geometry); 0 = positions x rows of pitch.
    footprint_width_m: float = 0.0
    footprint_depth_m: float = 0.0
    # How the rows stand: {"paired": bool, "rack_depth_m", "cold_aisle_m", "hot_aisle_m", "cross_aisle_m",
    # "row_racks_max"} (the layout's figures, for drawings and documents).
    aisles: dict = field(default_factory=dict)

    @property
    def width_m(self) -> float:
        return self.footprint_width_m or self.positions * self.rack_width_m

    @property
    def depth_m(self) -> float:
        return self.footprint_depth_m or self.rows * self.row_pitch_m


@dataclass(slots=True)
class RackItem:
    device: int  # cluster device index; -1 for a passive item
    name: str  # device name ("leaf-p1-su01-r3", "pp-R001-09-1")
    role: str  # server, leaf, spine, core, storage, nvlink-switch, patch-panel, cable-manager
    network: str  # NETWORKS
    u: int  # lowest rack unit occupied (1-based)
    u_height: int
    face: str = "front"  # "front" or "rear": the side its ports face
    power_typical_w: float = 0.0
    power_max_w: float = 0.0
    sku: str = ""
    model: str = ""
    pluggable_w: float = 0.0  # network-side optics and active cables in its ports (included in the two figures)
    # The parts whose power is not published, e.g. ("SN2201",) or ("DGX GB200 NVL72 compute tray",): their watts
    # are not in the two figures above.
    power_missing: tuple[str, ...] = ()

    @property
    def top_u(self) -> int:
        return self.u + self.u_height - 1


@dataclass(slots=True)
class Rack:
    index: int
    name: str  # "R012-05"
    row: int  # 0-based
    position: int  # 0-based
    x_m: float
    y_m: float
    units: int  # usable height (U)
    power_budget_w: float  # 0 = no budget
    power_basis: str  # "typical" or "maximum"
    cooling: str  # air, rear-door, liquid: what the rack needs for its draw (engine.hall.cooling)
    zone: str  # compute, network, storage ("" = the hall has no zones there)
    kind: str  # RACK_KINDS
    items: list[RackItem] = field(default_factory=list)

    @property
    def power_typical_w(self) -> float:
        return sum([item.power_typical_w for item in self.items])

    @property
    def power_max_w(self) -> float:
        return sum([item.power_max_w for item in self.items])

    @property
    def power_w(self) -> float:
        """Draw against the budget's basis."""
        return self.power_max_w if self.power_basis == "maximum" else self.power_typical_w

    @property
    def used_units(self) -> int:
        return sum([item.u_height for item in self.items])

    @property
    def power_missing(self) -> list[str]:
        """The parts of this rack without a published power figure, once each: its power is at least its total."""
        return list(dict.fromkeys([part for item in self.items if item.power_missing for part in item.power_missing]))


@dataclass(slots=True)
class HallPlan:
    """The placement of a plan: every device of every network in a rack, racks on the hall's grid.

    `device_rack[i]` is the index into `racks` of cluster device i, `device_u[i]` its lowest unit,
    `device_u_height[i]` its height; with `rack_x_m` / `rack_y_m` / `rack_units` per rack they give
    every link's length (engine.hall.route) without touching the objects.
    """

    hall: Hall
    racks: list[Rack]
    device_rack: np.ndarray  # int32 per cluster device
    device_u: np.ndarray  # int32 per cluster device
    device_u_height: np.ndarray  # int32 per cluster device
    rack_x_m: np.ndarray  # float64 per rack
    rack_y_m: np.ndarray
    servers_per_rack: int = 0  # as placed (derived when the spec says 0)
    switches_per_rack: dict[str, int] = field(default_factory=dict)  # role -> as placed
    # Structured cabling (layout.structured_cabling): patch panels, trunks and cable managers, for the BOM.
    patch_panels: int = 0
    trunks: int = 0
    cable_managers: int = 0
    notes: list = field(default_factory=list)  # review points (engine.messages.Message): cooling, power not published

    def rack_of(self, device: int) -> Rack:
        return self.racks[int(self.device_rack[device])]

    @property
    def power_typical_w(self) -> float:
        return sum(rack.power_typical_w for rack in self.racks)

    @property
    def power_max_w(self) -> float:
        return sum(rack.power_max_w for rack in self.racks)

    @property
    def power_missing(self) -> list[str]:
        """The parts of the hall without a published power figure, once each."""
        # Each rack's parts in its order, racks in order: the items' parts in one pass give the same first ones.
        return list(dict.fromkeys([part for rack in self.racks for item in rack.items if item.power_missing
                                   for part in item.power_missing]))

    @property
    def power_missing_devices(self) -> int:
        """How many items leave a figure out of the hall's totals."""
        return sum([1 for rack in self.racks for item in rack.items if item.power_missing])
