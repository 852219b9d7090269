"""What the engine is asked to plan: hardware, sizes, rack layout and address pools.

These dataclasses are the engine's whole input. They hold plain numbers and strings
(no Django, no ORM rows) so the engine can be used from the CLI, the web app, tests
and benchmarks alike. Validation of one field at a time lives in `DesignSpec.validate`;
feasibility of the whole (radix, speeds, pools) is decided while planning and raised
as `InfeasibleSpec` naming the field to change.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Tiers = Literal["auto", 2, 3]


class SpecError(ValueError):
    """A spec the engine cannot plan. `errors` maps a spec field (dotted path) to messages."""

    def __init__(self, errors: dict[str, list[str]] | str, field_name: str = "spec") -> None:
        if isinstance(errors, str):
            errors = {field_name: [errors]}
        self.errors: dict[str, list[str]] = errors
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))


class InfeasibleSpec(SpecError):
    """Well-formed, but no fabric with these parts meets it (radix too small, speeds differ, pool too small)."""


@dataclass(frozen=True, slots=True)
class SwitchHw:
    """A switch model in one breakout mode.

    `ports` are logical ports after breakout (a 64-cage 800G switch in 2x400G has 128),
    `gbps` is the logical port speed. `cages`/`cage_gbps` describe the physical cages;
    `ports_per_cage` > 1 means two (or four) logical ports share a cage and its module.
    """

    ports: int
    gbps: int
    cages: int = 0
    cage_gbps: int = 0
    form_factor: str = "OSFP"
    sku: str = ""
    name: str = ""
    breakout: str = ""
    rack_units: int = 1
    power_typical_w: float = 0.0
    power_max_w: float = 0.0
    price: float = 0.0

    @property
    def physical_cages(self) -> int:
        return self.cages or self.ports

    @property
    def ports_per_cage(self) -> int:
        return max(1, self.ports // self.physical_cages)

    @property
    def native_gbps(self) -> int:
        return self.cage_gbps or self.gbps * self.ports_per_cage


@dataclass(frozen=True, slots=True)
class ServerHw:
    """A GPU server: `nic_ports` backend (scale-out) ports of `nic_gbps` each = rails."""

    gpus: int
    nic_ports: int
    nic_gbps: int
    sku: str = ""
    name: str = ""
    scale_up: str = ""
    rack_units: int = 1
    power_w: float = 0.0
    price: float = 0.0


@dataclass(frozen=True, slots=True)
class NicHw:
    """A backend NIC card; a server carries nic_ports / ports of them."""

    ports: int
    gbps: int
    form_factor: str = "OSFP"
    sku: str = ""
    name: str = ""
    power_w: float = 0.0
    price: float = 0.0


@dataclass(frozen=True, slots=True)
class Optic:
    """A pluggable transceiver. `ports` = 2 is a twin-port module (one cage, two links, two fibres)."""

    sku: str
    form_factor: str
    gbps: int
    port_gbps: int
    ports: int
    media: str  # SR, DR or FR
    fiber: str  # MMF or SMF
    reach_m: float
    name: str = ""
    power_w: float = 0.0
    price: float = 0.0


@dataclass(frozen=True, slots=True)
class CableAssembly:
    """A cable with its ends built in (DAC, ACC, AEC, AOC); `legs` = 2 is a 1:2 splitter."""

    sku: str
    media: str  # DAC, ACC, AEC or AOC
    form_factor_a: str
    form_factor_b: str
    gbps: int
    leg_gbps: int
    legs: int
    length_m: float
    name: str = ""
    power_w: float = 0.0
    price: float = 0.0


@dataclass(frozen=True, slots=True)
class FiberCord:
    """A fibre patch cord of one length; every optical link has its own."""

    sku: str
    fiber: str  # MMF or SMF
    length_m: float
    connector: str = "MPO-12"
    name: str = ""
    price: float = 0.0


@dataclass(frozen=True, slots=True)
class RackLayout:
    """Where racks stand, from which every link gets a length (see engine.cabling)."""

    servers_per_rack: int = 4
    racks_per_row: int = 16
    rack_width_m: float = 0.6
    row_pitch_m: float = 2.4
    slack_m: float = 3.0


@dataclass(frozen=True, slots=True)
class AddressPools:
    """Pools the plan draws from; a pool too small is an InfeasibleSpec on that field."""

    host: str = "10.0.0.0/12"  # one /31 per NIC port (NIC gets the odd address)
    p2p: str = "10.16.0.0/12"  # one /31 per switch-to-switch link
    loopback: str = "10.32.0.0/16"  # one /32 per switch
    asn_base: int = 4_200_000_000  # RFC 6996 private 4-byte range


@dataclass(frozen=True, slots=True)
class DesignSpec:
    gpus: int
    server: ServerHw
    leaf: SwitchHw
    spine: SwitchHw | None = None  # defaults to leaf
    core: SwitchHw | None = None  # defaults to spine
    nic: NicHw | None = None  # defaults to one single-port NIC per backend port
    planes: int = 1
    oversubscription: float = 1.0  # o in o:1 at the leaf
    tiers: Tiers = "auto"
    layout: RackLayout = field(default_factory=RackLayout)
    pools: AddressPools = field(default_factory=AddressPools)
    optics: tuple[Optic, ...] = ()
    cables: tuple[CableAssembly, ...] = ()
    fibers: tuple[FiberCord, ...] = ()
    discount_pct: float = 0.0
    currency: str = "USD"
    name: str = ""
