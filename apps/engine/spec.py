"""What the engine is asked to plan: hardware, sizes, rack layout and address pools.

These dataclasses are the engine's whole input. They hold plain numbers and strings
(no Django, no ORM rows) so the engine can be used from the CLI, the web app, tests
and benchmarks alike. Validation of one field at a time lives in `DesignSpec.validate`;
feasibility of the whole (radix, speeds, pools) is decided while planning and raised
as `InfeasibleSpec` naming the field to change.
"""
from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from .messages import Message, MessageError, as_message, message
Tiers = Literal["auto", 2, 3]

MAX_GPUS = 1_000_000
MAX_ASN = 4_294_967_294  # 4-byte ASNs; 4294967295 is reserved (RFC 7300)
MAX_OVERSUBSCRIPTION = 16.0
TIER_ROLES = ("leaf", "spine", "core")
ETHERNET, INFINIBAND = "ethernet", "infiniband"
FABRICS = (ETHERNET, INFINIBAND)
FABRIC_NAMES = {ETHERNET: "Ethernet", INFINIBAND: "InfiniBand"}  # proper nouns, the same in every language
MAX_PORTS_PER_CAGE = 2  # server backend cages: single or twin-port (OSFP 2x400G)
NIC_SPLITS = (1, 2, 4)  # ways a NIC port can be split: whole, 2 x half speed, 4 x quarter speed


class SpecError(ValueError):
    """A spec the engine cannot plan. `errors` maps a spec field (dotted path) to messages.

    `errors` holds the English texts ({field: [str]}); `details` the same messages as Message
    objects ({field: [Message]}) with their codes and params, for a user interface to translate.
    Messages may be given as Message or plain text (a Message without a code).
    """

    def __init__(self, errors: Mapping[str, list[str | Message]] | str | Message, field_name: str = "spec") -> None:
        if isinstance(errors, (str, Message)):
            errors = {field_name: [errors]}
        self.details: dict[str, list[Message]] = {
            name: [as_message(item) for item in items] for name, items in errors.items()}
        self.errors: dict[str, list[str]] = {
            name: [item.text for item in items] for name, items in self.details.items()}
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in self.errors.items()))


class InfeasibleSpec(SpecError):
    """Well-formed, but no fabric with these parts meets it (radix too small, speeds differ, pool too small)."""


@dataclass(frozen=True, slots=True)
class SwitchHw:
    """A switch model in one breakout mode.

    `ports` are logical ports after breakout (a 64-cage 800G switch in 2x400G has 128),
    `gbps` is the logical port speed. `cages`/`cage_gbps` describe the physical cages;
    `ports_per_cage` > 1 means two (or four) logical ports share a cage and its module.
    `fabric` is "ethernet" (RoCEv2) or "infiniband"; every tier of a design runs the same fabric.

    `switch_class` says what the switch is for (SWITCH_CLASSES): "fabric" (backend leaf, spine, core),
    "frontend" (front-end / storage leaves and spines) or "management" (out-of-band). `ports` / `gbps` /
    `cages` are its access ports; front-end and management switches may have an uplink group beside them:
    `uplinks` ports of `uplink_gbps` in `uplink_cages` cages of `uplink_form_factor` (0 = none; the
    access ports carry the uplinks too). `power_typical_w` / `power_max_w` are None when the vendor does
    not publish them: the BOM then names the switch among those missing power instead of counting 0 W.
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
    power_typical_w: float | None = 0.0
    power_max_w: float | None = 0.0
    price: float = 0.0
    fabric: str = ETHERNET
    # Who makes it ("NVIDIA", "Arista"): optics and cables in its cages must be made by them or declared
    # compatible with them (see engine.cabling); "" = unknown, any vendor's parts qualify.
    vendor: str = ""
    switch_class: str = ""  # "" = not stated (an inline switch): any network may use it
    uplinks: int = 0
    uplink_gbps: int = 0
    uplink_cages: int = 0
    uplink_form_factor: str = ""
    # Packet buffer of the switch ASIC in MiB (2**20 bytes) as published for the model; None: not published
    # (the SONiC buffer pools are then left unsized, see engine.roce.configs).
    buffer_mb: float | None = None

    @property
    def power_published(self) -> bool:
        return self.power_typical_w is not None and self.power_max_w is not None

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
    """A GPU server: `nic_ports` backend (scale-out) ports of `nic_gbps` each = rails.

    `nics_built_in`: the backend NICs come with the server (DGX, HGX baseboard NICs): its price and
    power include them, so the BOM buys no NIC cards. `ports_per_cage` = 2: two backend ports share
    one twin-port cage (DGX H100/B200: 8 ports in 4 OSFP cages), rails 2k and 2k+1 in cage k; the two
    ports go to two different leaves, so such a cage takes a twin-port optic, never copper or a splitter.

    Scale-up domain (engine.scaleup): `scale_up_kind` "in-server" (HGX / DGX NVLink + NVSwitch, AMD
    Infinity Fabric: the domain is the server) or "rack-scale" (GB200 / GB300 NVL72: the server is a
    compute tray and `scale_up_gpus` GPUs in `scale_up_racks` racks share one NVLink domain through
    `scale_up_switch_trays` NVLink switch trays); "" = not stated (treated as in-server).
    `scale_up_gb_s` is the published scale-up bandwidth per GPU in GB/s (both directions, as NVIDIA and
    AMD publish it: 900 for NVLink 4, 1,800 for NVLink 5); 0 = not published.
    """

    gpus: int
    nic_ports: int
    nic_gbps: int
    sku: str = ""
    name: str = ""
    scale_up: str = ""
    rack_units: int = 1
    power_w: float = 0.0
    price: float = 0.0
    nics_built_in: bool = False
    ports_per_cage: int = 1
    scale_up_kind: str = ""  # SCALE_UP_KINDS or ""
    scale_up_gpus: int = 0  # GPUs per scale-up domain; 0 = the server's own GPUs
    scale_up_gb_s: float = 0.0  # per GPU, both directions; 0 = not published
    scale_up_racks: int = 0  # racks one rack-scale domain fills (1 for NVL72, 2 for NVL36x2)
    scale_up_switch_trays: int = 0  # NVLink switch trays per rack-scale domain (inside its racks)
    # Rack-scale only, as published (None = not published): one NVLink switch tray's draw, one whole rack's draw.
    scale_up_switch_tray_power_w: float | None = None
    scale_up_rack_power_w: float | None = None
    # What a rack-scale system's racks need ("liquid" for NVL72; "" = any cooling).
    cooling: str = ""


SCALE_UP_KINDS = ("in-server", "rack-scale")
SWITCH_CLASSES = ("fabric", "frontend", "management")
# How a message names a class (translated by the web app from these English words).
CLASS_WORDS = {"fabric": "backend fabric", "frontend": "front-end / storage", "management": "out-of-band management"}


def switch_label(hw: "SwitchHw") -> str:
    return hw.name or hw.sku or f"{hw.ports}x{hw.gbps}G switch"


def backend_class_check(spec: "DesignSpec") -> None:
    """The backend fabric takes fabric-class switches (or ones of no stated class); SpecError names the tier."""
    errors: dict[str, list[Message]] = {}
    for role, hw in (("leaf", spec.leaf), ("spine", spec.spine), ("core", spec.core)):
        if hw is not None and hw.switch_class not in ("", "fabric"):
            errors.setdefault(f"{role}.switch_class", []).append(message(
                "spec.backend_switch_class", switch=switch_label(hw),
                switch_class=CLASS_WORDS.get(hw.switch_class, hw.switch_class)))
    if errors:
        raise SpecError(errors)


@dataclass(frozen=True, slots=True)
class NicHw:
    """A backend NIC card; a server carries nic_ports / ports of them.

    `splits`: the ways the NIC's published breakout modes divide one port (1 = whole, 2 = 2 x half
    speed, 4 = 4 x quarter speed; ConnectX-8 800G: 1x800G or 2x400G). A design's `nic_split` must be
    one of them.
    `vendor` is who makes it ("NVIDIA"): it picks the host script renderer (engine.roce.host).
    """

    ports: int
    gbps: int
    form_factor: str = "OSFP"
    sku: str = ""
    name: str = ""
    power_w: float | None = 0.0  # None: not published
    price: float = 0.0
    splits: tuple[int, ...] = (1,)
    vendor: str = ""


@dataclass(frozen=True, slots=True)
class Optic:
    """A pluggable transceiver. `ports` = 2 is a twin-port module (one cage, two links, two fibres).

    Qualification (Optic, CableAssembly and FiberCord alike): `fabrics` lists the fabrics the vendor
    qualifies the part for ("ethernet", "infiniband"); `vendor` is who makes it and `compatible_vendors`
    the switch vendors it is declared compatible with besides its own. An item written inline without
    them counts as qualified for both fabrics and of unknown vendor; the catalog and the seed state them.
    """

    sku: str
    form_factor: str
    gbps: int
    port_gbps: int
    ports: int
    media: str  # SR, DR or FR
    fiber: str  # MMF or SMF
    reach_m: float
    name: str = ""
    power_w: float | None = 0.0  # None: not published
    price: float = 0.0
    # e.g. "MPO-12/APC" or "2x MPO-12/APC" (one per port); "" = match fibre cords by fibre type only.
    connector: str = ""
    # Flat top for server cages with a riding heat sink (DGX twin-port cages); never in a switch cage.
    flat_top: bool = False
    fabrics: tuple[str, ...] = FABRICS
    vendor: str = ""
    compatible_vendors: tuple[str, ...] = ()

    @property
    def port_connector(self) -> str:
        """The connector of one port ("2x MPO-12/APC" -> "MPO-12/APC"): what each fibre cord must have."""
        return _per_port_connector(self.connector)


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
    power_w: float | None = 0.0  # None: not published
    price: float = 0.0
    fabrics: tuple[str, ...] = FABRICS
    vendor: str = ""
    compatible_vendors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FiberCord:
    """A fibre patch cord of one length; every optical link has its own.

    Passive glass: qualified by `fabrics` only, whoever makes it (no switch reads a cord's vendor).
    """

    sku: str
    fiber: str  # MMF or SMF
    length_m: float
    connector: str = "MPO-12"
    name: str = ""
    price: float = 0.0
    fabrics: tuple[str, ...] = FABRICS
    vendor: str = ""


LEAF_RACKS = ("middle", "end", "server")  # an SU's leaves: a network rack in the middle / at the end of its server
#                                         racks, or spread over the server racks themselves
SPINE_ROWS = ("middle", "end")
COOLING = ("air", "rear-door", "liquid")  # air, rear-door heat exchanger, direct liquid cooling
POWER_BASIS = ("typical", "maximum")
ZONE_KINDS = ("compute", "network", "storage")


@dataclass(frozen=True, slots=True)
class HallLayout:
    """The data hall's grid (engine.hall): rows of rack positions, reserved cells and zones.

    `rows` = 0: as many rows as the racks need; `positions` = 0: `RackLayout.racks_per_row` per row, or (0 too)
    a near-square hall from the rack count (engine.hall.geometry).
    `reserved`: cells (row, position), 1-based as people count them, where no rack stands (building
    columns, cooling units, CDUs). `zones`: (kind, rows) pairs, kind one of ZONE_KINDS: the rows (1-based)
    where that kind of rack stands; kinds without a zone take the rows no zone names.
    """

    rows: int = 0
    positions: int = 0
    # The room the user gives (metres, 0 = none): the hall's width (along the rows) and depth (across them).
    # Positions per row and rows then follow from it (engine.hall.geometry); a room too small is a field error.
    width_m: float = 0.0
    depth_m: float = 0.0
    reserved: tuple[tuple[int, int], ...] = ()
    zones: tuple[tuple[str, tuple[int, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class PatchPanelHw:
    """A fibre patch panel for structured cabling: `ports` front adapters of `connector` on `fiber`.

    `connector` is one of PANEL_CONNECTOR_FIBERS ("MPO-16", "MPO-24", "LC duplex", ...); `fibers` is what the
    panel terminates (ports x fibres per connector). MPO trunks between rows end on panels; cords run to devices.
    """

    sku: str
    ports: int
    connector: str
    fiber: str  # MMF or SMF
    rack_units: int = 1
    name: str = ""
    price: float = 0.0
    vendor: str = ""

    @property
    def fibers_per_port(self) -> int:
        return PANEL_CONNECTOR_FIBERS.get(self.connector, 0)

    @property
    def fibers(self) -> int:
        return self.ports * self.fibers_per_port


PANEL_CONNECTOR_FIBERS = {"MPO-8": 8, "MPO-12": 12, "MPO-16": 16, "MPO-24": 24, "LC duplex": 2, "SN duplex": 2,
                          "MDC duplex": 2}


@dataclass(frozen=True, slots=True)
class RackLayout:
    """Where racks stand and what they hold, from which every link gets a length (engine.hall, engine.cabling).

    Rack rules: `rack_units` high; `rack_power_kw` the budget per rack (0 = none) against the devices' typical
    draw, or their maximum with `rack_power_basis` "maximum"; `cooling` the racks' cooling (a rack-scale
    system that needs liquid refuses anything else). `servers_per_rack` = 0 derives it from height and power.
    Spine / core racks hold at most `switches_per_rack` switches, fewer when height or power says so.
    """

    servers_per_rack: int = 4  # 0 = as many as the rack's height and power budget allow
    racks_per_row: int = 0  # 0 = a near-square hall from the rack count (engine.hall.geometry)
    rack_width_m: float = 0.6  # rack pitch along a row
    row_pitch_m: float = 0.0  # 0 = rows in pairs facing a cold aisle (the aisles below); > 0: one pitch for all rows
    # Hot/cold aisle containment (engine.hall.geometry; figures and their sources there): racks of two rows face
    # each other across a cold aisle, their backs face the next pair across a hot aisle; rows are cut into
    # segments of at most `row_racks_max` racks with cross aisles between them and around the hall.
    rack_depth_m: float = 1.2
    cold_aisle_m: float = 1.2
    hot_aisle_m: float = 0.9
    cross_aisle_m: float = 1.2
    row_racks_max: int = 20  # racks in one row segment; 0 = no limit
    max_aspect: float = 3.0  # a derived hall's longer side at most this many times its shorter
    # Cooling by density (engine.hall.cooling): a rack up to air_limit_kw is air-cooled, up to rear_door_limit_kw
    # takes a rear-door heat exchanger, above that direct liquid cooling; `cooling` is the most the site offers.
    air_limit_kw: float = 20.0
    rear_door_limit_kw: float = 55.0
    slack_m: float = 3.0  # service loops at both ends of every link
    switches_per_rack: int = 16  # spine and core racks (at most); an SU's leaves share its leaf rack(s)
    leaf_rack: str = "middle"  # LEAF_RACKS
    spine_rows: str = "middle"  # spine/core rows "middle" (between compute rows) or "end" (after them)
    rack_units: int = 48  # usable height of every rack (U)
    rack_power_kw: float = 0.0  # budget per rack in kW; 0 = no budget
    rack_power_basis: str = "typical"  # POWER_BASIS: what the budget is held against
    cooling: str = "air"  # COOLING
    tray_height_m: float = 0.3  # overhead cable tray above the rack tops
    structured_cabling: bool = False  # MPO trunks and patch panels between network and compute rows
    hall: HallLayout = field(default_factory=HallLayout)


@dataclass(frozen=True, slots=True)
class SparesPolicy:
    """How many spares the BOM orders, per category (engine.bom turns them into spare lines).

    - Optics, cables and fibre cords (and switches, if asked): a percentage, 0 to 100, of each SKU in
      use, rounded up, at least one per SKU when above 0. Default 2 %.
    - Switches: one cold spare per switch model for every `switches_per_spare` installed, rounded up
      (20 leaves of a model: 1 spare; 21: 2), 0 = none. Default 20 (5 %: at least one spare of every
      model on site, so a failed leaf or spine is swapped without waiting for a replacement).
      A switch model gets the larger of this and its percentage.
    These defaults are ours: no vendor or reference architecture we found publishes a spares ratio for
    AI fabrics; the right figure follows from each part's failure rate and the replacement time the
    customer's support contract gives, and the inputs let the engineer set it per quote.
    """

    switches: float = 0.0
    transceivers: float = 2.0
    cables: float = 2.0
    fibers: float = 2.0
    switches_per_spare: int = 20


# The percentage fields and the BOM category each applies to.
SPARE_CATEGORIES = {"switches": "switch", "transceivers": "transceiver", "cables": "cable", "fibers": "fiber"}
MAX_SWITCHES_PER_SPARE = 10_000


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
    spares: SparesPolicy = field(default_factory=SparesPolicy)
    # Off: a switch's cages take only optics and cables made by the switch's vendor or declared compatible
    # with it. On: any vendor's, still only those qualified for the fabric. Off unless a user turns it on,
    # for InfiniBand as for Ethernet (engine.cabling).
    third_party_optics: bool = False
    # Parts each backend NIC port is split into (engine.topology, "Planes from a split NIC port"): 1, 2 or 4,
    # one of the NIC's `splits`; every part is a rail of its own at nic_gbps / nic_split on its own plane.
    nic_split: int = 1
    # The other networks of the cluster (engine.networks.spec: FrontendSpec, StorageSpec, OobSpec), planned
    # beside the backend by engine.networks; None = the design has no such network.
    frontend: Any = None
    storage: Any = None
    oob: Any = None

    @property
    def spine_hw(self) -> SwitchHw:
        return self.spine or self.leaf

    @property
    def core_hw(self) -> SwitchHw:
        return self.core or self.spine or self.leaf

    @property
    def nic_hw(self) -> NicHw:
        """The backend NIC; without one, a single-port NIC per backend port at the server's speed."""
        return self.nic or NicHw(ports=1, gbps=self.server.nic_gbps, sku=f"NIC-{self.server.nic_gbps}G",
                                 name=f"{self.server.nic_gbps}G backend NIC port")

    @property
    def rails(self) -> int:
        """Logical backend ports per server: NIC ports x nic_split (each part of a split port is a rail)."""
        return self.server.nic_ports * self.nic_split

    @property
    def port_gbps(self) -> int:
        """The speed of one rail: the NIC port's, divided by nic_split."""
        return self.server.nic_gbps // self.nic_split

    @property
    def server_ports_per_cage(self) -> int:
        """Logical ports sharing one server cage: twin-port cages x the parts of each split port."""
        return self.server.ports_per_cage * self.nic_split

    @property
    def rails_per_plane(self) -> int:
        return self.rails // self.planes if self.planes else 0

    @property
    def servers_per_rack(self) -> int:
        """Servers per compute rack: a rack-scale system's trays per rack (its domain fixes them), else the layout's."""
        server = self.server
        per_domain = self.servers_per_domain
        if per_domain > 1:
            return max(1, per_domain // max(1, server.scale_up_racks))
        return self.layout.servers_per_rack

    @property
    def servers_per_domain(self) -> int:
        """Servers (compute trays) that share one scale-up domain: 1 unless the server is rack-scale."""
        server = self.server
        if server.scale_up_kind == "rack-scale" and server.scale_up_gpus and server.gpus:
            return max(1, server.scale_up_gpus // server.gpus)
        return 1

    @property
    def servers(self) -> int:
        return -(-self.gpus // self.server.gpus)

    @property
    def fabric(self) -> str:
        """"ethernet" or "infiniband": the leaf's, which validate() makes every tier's."""
        return self.leaf.fabric

    @property
    def infiniband(self) -> bool:
        return self.leaf.fabric == INFINIBAND

    def switch_hw(self, role: str) -> SwitchHw:
        return {"leaf": self.leaf, "spine": self.spine_hw, "core": self.core_hw}[role]

    def validate(self) -> None:
        """Raise SpecError naming every malformed field, then InfeasibleSpec for parts that can't work together.

        Field names are dotted paths into the spec ("leaf.ports", "pools.p2p", "layout.row_pitch_m").
        """
        errors: dict[str, list[Message]] = {}

        def bad(name: str, msg: Message) -> None:
            errors.setdefault(name, []).append(msg)

        _check_int(bad, "gpus", self.gpus, 1, MAX_GPUS)
        server = self.server
        if not isinstance(server, ServerHw):
            bad("server", message("spec.give_server"))
        else:
            _check_int(bad, "server.gpus", server.gpus, 1, 256)
            _check_int(bad, "server.nic_ports", server.nic_ports, 1, 64)
            _check_int(bad, "server.nic_gbps", server.nic_gbps, 1, 3200)
            _check_number(bad, "server.price", server.price, 0)
            _check_number(bad, "server.power_w", server.power_w, 0)
            for name in ("scale_up_switch_tray_power_w", "scale_up_rack_power_w"):
                if getattr(server, name) is not None:
                    _check_number(bad, f"server.{name}", getattr(server, name), 0)
            if not isinstance(server.nics_built_in, bool):
                bad("server.nics_built_in", message("value.boolean", value=repr(server.nics_built_in)))
            _check_scale_up(bad, server)
            if _check_int(bad, "server.ports_per_cage", server.ports_per_cage, 1, MAX_PORTS_PER_CAGE) and _is_int(
                    server.nic_ports) and server.nic_ports >= 1 and server.nic_ports % server.ports_per_cage:
                bad("server.ports_per_cage", message("spec.server_cages_split", ports=server.nic_ports,
                                                     ports_per_cage=server.ports_per_cage))
        for role, hw in (("leaf", self.leaf), ("spine", self.spine), ("core", self.core)):
            if hw is None and role != "leaf":
                continue
            if not isinstance(hw, SwitchHw):
                bad(role, message("spec.give_switch"))
                continue
            _check_switch(bad, role, hw)
        if self.nic is not None:
            if not isinstance(self.nic, NicHw):
                bad("nic", message("spec.give_nic"))
            else:
                _check_int(bad, "nic.ports", self.nic.ports, 1, 16)
                _check_int(bad, "nic.gbps", self.nic.gbps, 1, 3200)
                _check_number(bad, "nic.price", self.nic.price, 0)
                if self.nic.power_w is not None:
                    _check_number(bad, "nic.power_w", self.nic.power_w, 0)
                splits = self.nic.splits
                if not isinstance(splits, (tuple, list)) or not splits or not all(
                        _is_int(v) and v in NIC_SPLITS for v in splits):
                    bad("nic.splits", message("spec.nic_splits", value=_short_repr(splits)))
        split_ok = _check_int(bad, "nic_split", self.nic_split, 1, max(NIC_SPLITS))
        if split_ok and self.nic_split not in NIC_SPLITS:
            bad("nic_split", message("spec.nic_splits", value=_short_repr(self.nic_split)))
            split_ok = False
        if _check_int(bad, "planes", self.planes, 1, 64) and isinstance(server, ServerHw) \
                and _is_int(server.nic_ports) and server.nic_ports >= 1 and split_ok:
            rails = server.nic_ports * self.nic_split
            if rails % self.planes:
                bad("planes", message("spec.planes_divide", planes=self.planes, rails=rails,
                                      choices=", ".join(str(p) for p in _divisors(rails)
                                                        if p % self.nic_split == 0)))
            elif self.planes % self.nic_split:
                bad("planes", message("nic.split_planes", split=self.nic_split, planes=self.planes))
        _check_number(bad, "oversubscription", self.oversubscription, 1.0, MAX_OVERSUBSCRIPTION,
                      hint=message("hint.oversubscription"))
        if self.tiers not in ("auto", 2, 3) or isinstance(self.tiers, bool):
            bad("tiers", message("spec.tiers_choice", value=repr(self.tiers)))
        layout = self.layout
        _check_int(bad, "layout.servers_per_rack", layout.servers_per_rack, 0, 512)
        _check_int(bad, "layout.racks_per_row", layout.racks_per_row, 0, 10_000)
        _check_int(bad, "layout.switches_per_rack", layout.switches_per_rack, 1, 512)
        _check_int(bad, "layout.rack_units", layout.rack_units, 1, 100)
        _check_number(bad, "layout.rack_width_m", layout.rack_width_m, 0.0, 100.0, open_low=True)
        _check_number(bad, "layout.row_pitch_m", layout.row_pitch_m, 0.0, 100.0)
        for name in ("rack_depth_m", "cold_aisle_m", "hot_aisle_m", "cross_aisle_m"):
            _check_number(bad, f"layout.{name}", getattr(layout, name), 0.0, 20.0)
        _check_int(bad, "layout.row_racks_max", layout.row_racks_max, 0, 10_000)
        _check_number(bad, "layout.max_aspect", layout.max_aspect, 1.0, 100.0)
        _check_number(bad, "layout.air_limit_kw", layout.air_limit_kw, 0.0, 10_000.0)
        _check_number(bad, "layout.rear_door_limit_kw", layout.rear_door_limit_kw, 0.0, 10_000.0)
        _check_number(bad, "layout.slack_m", layout.slack_m, 0.0, 1000.0)
        if layout.spine_rows not in SPINE_ROWS:
            bad("layout.spine_rows", message("spec.placement_choice", value=_short_repr(layout.spine_rows)))
        if layout.leaf_rack not in LEAF_RACKS:
            bad("layout.leaf_rack", message("layout.leaf_rack_choice", value=_short_repr(layout.leaf_rack)))
        _check_hall_fields(bad, layout)
        pools = self.pools
        nets = {}
        for name in ("host", "p2p", "loopback"):
            value = getattr(pools, name)
            try:
                nets[name] = parse_cidr(value)
            except ValueError as exc:
                bad(f"pools.{name}", exc.message if isinstance(exc, MessageError) else as_message(str(exc)))
        names = list(nets)
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                (a0, alen), (b0, blen) = nets[first], nets[second]
                if a0 < b0 + blen and b0 < a0 + alen:
                    bad(f"pools.{second}", message("pool.overlap", cidr=getattr(pools, second), other=first,
                                                   other_cidr=getattr(pools, first)))
        _check_int(bad, "pools.asn_base", pools.asn_base, 1, MAX_ASN)
        _check_number(bad, "discount_pct", self.discount_pct, 0.0, 100.0)
        if not isinstance(self.spares, SparesPolicy):
            bad("spares", message("spec.give_spares"))
        else:
            for name in SPARE_CATEGORIES:
                _check_number(bad, f"spares.{name}", getattr(self.spares, name), 0.0, 100.0)
            _check_int(bad, "spares.switches_per_spare", self.spares.switches_per_spare, 0, MAX_SWITCHES_PER_SPARE)
        if not isinstance(self.currency, str) or not 1 <= len(self.currency.strip()) <= 8:
            bad("currency", message("spec.give_currency"))
        for i, optic in enumerate(self.optics):
            where = f"optics[{i}]"
            if not isinstance(optic, Optic):
                bad(where, message("spec.give_optic"))
                continue
            for attr in ("gbps", "port_gbps", "ports"):
                _check_int(bad, f"{where}.{attr}", getattr(optic, attr), 1, 3200)
            _check_number(bad, f"{where}.reach_m", optic.reach_m, 0.0, 100_000.0, open_low=True)
            _check_number(bad, f"{where}.price", optic.price, 0)
            if optic.power_w is not None:
                _check_number(bad, f"{where}.power_w", optic.power_w, 0)
            if optic.fiber not in ("MMF", "SMF"):
                bad(f"{where}.fiber", message("spec.fiber_choice", value=repr(optic.fiber)))
            if not isinstance(optic.flat_top, bool):
                bad(f"{where}.flat_top", message("value.boolean", value=repr(optic.flat_top)))
            _check_qualification(bad, where, optic)
        for i, cable in enumerate(self.cables):
            where = f"cables[{i}]"
            if not isinstance(cable, CableAssembly):
                bad(where, message("spec.give_cable"))
                continue
            for attr in ("gbps", "leg_gbps", "legs"):
                _check_int(bad, f"{where}.{attr}", getattr(cable, attr), 1, 3200)
            _check_number(bad, f"{where}.length_m", cable.length_m, 0.0, 100_000.0, open_low=True)
            _check_number(bad, f"{where}.price", cable.price, 0)
            if cable.power_w is not None:
                _check_number(bad, f"{where}.power_w", cable.power_w, 0)
            _check_qualification(bad, where, cable)
        for i, fiber in enumerate(self.fibers):
            where = f"fibers[{i}]"
            if not isinstance(fiber, FiberCord):
                bad(where, message("spec.give_fiber"))
                continue
            _check_number(bad, f"{where}.length_m", fiber.length_m, 0.0, 100_000.0, open_low=True)
            _check_number(bad, f"{where}.price", fiber.price, 0)
            if fiber.fiber not in ("MMF", "SMF"):
                bad(f"{where}.fiber", message("spec.fiber_choice", value=repr(fiber.fiber)))
            _check_qualification(bad, where, fiber)
        if not isinstance(self.third_party_optics, bool):
            bad("third_party_optics", message("value.boolean", value=_short_repr(self.third_party_optics)))
        if errors:
            raise SpecError(errors)

        # Well-formed: do the parts work together?
        below = ("leaf", self.leaf)
        for role, hw in (("spine", self.spine), ("core", self.core)):
            if hw is None:
                continue
            if hw.fabric != below[1].fabric:
                bad(role, message("fabric.mixed", role=role, switch=hw.name or hw.sku,
                                  fabric=FABRIC_NAMES.get(hw.fabric, hw.fabric), other_role=below[0],
                                  other_switch=below[1].name or below[1].sku,
                                  other_fabric=FABRIC_NAMES.get(below[1].fabric, below[1].fabric)))
            below = (role, hw)
        nic_gbps = server.nic_gbps
        nic = self.nic_hw
        split = self.nic_split
        if split > 1 and nic_gbps % split:
            bad("nic_split", message("nic.split_speed", gbps=nic_gbps, split=split))
        elif split not in (self.nic.splits if self.nic is not None else (1,)):
            splits = self.nic.splits if self.nic is not None else (1,)
            bad("nic_split", message("nic.split_mode", nic=nic.name or nic.sku, split=split, gbps=nic.gbps,
                                     modes=", ".join(f"{n}x{nic.gbps // n}G" for n in splits)))
        port_gbps = nic_gbps // split
        # Tiers above a leaf with an uplink group run at its uplink speed (a 25G leaf's 100G uplinks).
        upper_gbps = self.leaf.uplink_gbps if self.leaf.uplinks else port_gbps
        for role, hw in (("leaf", self.leaf), ("spine", self.spine), ("core", self.core)):
            # A tier without its own model uses the tier below it, already reported.
            expected = port_gbps if role == "leaf" else upper_gbps
            if hw is not None and hw.gbps != expected:
                bad(*_speed_mismatch(role, hw, expected))
        if nic.gbps != nic_gbps:
            bad("nic.gbps", message("nic.speed", gbps=nic.gbps, server_gbps=nic_gbps))
        elif server.nic_ports % nic.ports:
            bad("nic.ports", message("nic.ports", ports=server.nic_ports, nic_ports=nic.ports))
        per_domain = self.servers_per_domain
        if per_domain > 1 and self.gpus % server.scale_up_gpus:
            size = server.scale_up_gpus
            lower = max(size, self.gpus // size * size)
            bad("gpus", message("scaleup.whole_domains", system=server.name or server.sku, domain_gpus=size,
                                lower=lower, upper=lower + size))
        if errors:
            raise InfeasibleSpec(errors)


def parse_cidr(value: Any) -> tuple[int, int]:
    """An IPv4 CIDR -> (first address as int, number of addresses); MessageError (a ValueError) saying why not."""
    if not isinstance(value, str) or "/" not in value:
        raise MessageError(message("pool.not_cidr", value=repr(value)))
    try:
        net = ipaddress.ip_network(value.strip(), strict=True)
    except ValueError as exc:
        text = str(exc)
        if "host bits set" in text:
            raise MessageError(message("pool.host_bits", value=value,
                                       network=str(ipaddress.ip_network(value.strip(), strict=False)))) from None
        raise MessageError(message("pool.not_cidr", value=repr(value))) from None
    if net.version != 4:
        raise MessageError(message("pool.not_ipv4", value=value))
    return int(net.network_address), int(net.num_addresses)


def _per_port_connector(connector: str) -> str:
    text = (connector or "").strip()
    head, _, rest = text.partition(" ")
    if rest and head[:-1].isdigit() and head[-1:].lower() == "x":
        text = rest.strip()
    return text.upper()


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(bad, name: str, value: Any, low: int, high: int) -> bool:
    if not _is_int(value):
        bad(name, message("value.whole_number", value=_short_repr(value)))
        return False
    if value < low:
        bad(name, message("value.int_at_least", low=low, value=value))
        return False
    if value > high:
        bad(name, message("value.int_at_most", high=high, value=value))
        return False
    return True


def _finite(value: int | float) -> bool:
    """Whether `value` is a finite number a float can hold (JSON allows integers of any size)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _short_repr(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}…"


def _check_number(bad, name: str, value: Any, low: float, high: float = math.inf, *, open_low: bool = False,
                  hint: Message | None = None) -> bool:
    """Whether `value` is a finite number in range; else reports why (`hint` explains the range, not for open_low)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value):
        bad(name, message("value.number", value=_short_repr(value)))
        return False
    extra = {"hint": hint} if hint is not None else {}
    suffix = "_hint" if hint is not None else ""
    if value < low or (open_low and value == low):
        if open_low:  # lengths, which need no hint
            bad(name, message("value.more_than", low=low, value=value))
        else:
            bad(name, message("value.at_least" + suffix, low=low, value=value, **extra))
        return False
    if value > high:
        bad(name, message("value.at_most" + suffix, high=high, value=value, **extra))
        return False
    return True


def _check_scale_up(bad, server: ServerHw) -> None:
    """The scale-up fields of a server: kind, domain size (whole trays for rack-scale), bandwidth, racks, trays."""
    if server.scale_up_kind not in ("",) + SCALE_UP_KINDS:
        bad("server.scale_up_kind", message("scaleup.kind_choice", value=_short_repr(server.scale_up_kind)))
    gpus_ok = _check_int(bad, "server.scale_up_gpus", server.scale_up_gpus, 0, 100_000)
    _check_number(bad, "server.scale_up_gb_s", server.scale_up_gb_s, 0.0, 1_000_000.0)
    _check_int(bad, "server.scale_up_racks", server.scale_up_racks, 0, 64)
    _check_int(bad, "server.scale_up_switch_trays", server.scale_up_switch_trays, 0, 10_000)
    if (gpus_ok and server.scale_up_kind == "rack-scale" and _is_int(server.gpus) and server.gpus >= 1
            and (server.scale_up_gpus < server.gpus or server.scale_up_gpus % server.gpus)):
        bad("server.scale_up_gpus", message("scaleup.domain_gpus", domain_gpus=server.scale_up_gpus,
                                            gpus=server.gpus))


def _check_hall_fields(bad, layout: RackLayout) -> None:
    """The rack and hall rules of `layout`, one field at a time (engine.hall checks what they hold)."""
    _check_number(bad, "layout.rack_power_kw", layout.rack_power_kw, 0.0, 10_000.0)
    if layout.rack_power_basis not in POWER_BASIS:
        bad("layout.rack_power_basis", message("layout.power_basis_choice", value=_short_repr(layout.rack_power_basis)))
    if layout.cooling not in COOLING:
        bad("layout.cooling", message("layout.cooling_choice", value=_short_repr(layout.cooling)))
    _check_number(bad, "layout.tray_height_m", layout.tray_height_m, 0.0, 10.0)
    if not isinstance(layout.structured_cabling, bool):
        bad("layout.structured_cabling", message("value.boolean", value=_short_repr(layout.structured_cabling)))
    hall = layout.hall
    if not isinstance(hall, HallLayout):
        bad("layout.hall", message("spec.expected_object", type=type(hall).__name__))
        return
    rows_ok = _check_int(bad, "layout.hall.rows", hall.rows, 0, 10_000)
    positions_ok = _check_int(bad, "layout.hall.positions", hall.positions, 0, 10_000)
    _check_number(bad, "layout.hall.width_m", hall.width_m, 0.0, 100_000.0)
    _check_number(bad, "layout.hall.depth_m", hall.depth_m, 0.0, 100_000.0)
    reserved = hall.reserved
    if not isinstance(reserved, (tuple, list)) or len(reserved) > 100_000:
        bad("layout.hall.reserved", message("hall.reserved_cells", value=_short_repr(reserved)))
    else:
        for cell in reserved:
            if not (isinstance(cell, (tuple, list)) and len(cell) == 2 and all(_is_int(v) and v >= 1 for v in cell)):
                bad("layout.hall.reserved", message("hall.reserved_cells", value=_short_repr(cell)))
                break
            row, position = cell
            if rows_ok and hall.rows and row > hall.rows or positions_ok and hall.positions and \
                    position > hall.positions:
                bad("layout.hall.reserved", message("hall.reserved_outside", row=row, position=position,
                                                    rows=hall.rows, positions=hall.positions))
                break
    zones = hall.zones
    if not isinstance(zones, (tuple, list)):
        bad("layout.hall.zones", message("hall.zone_kind", value=_short_repr(zones)))
        return
    seen: dict[int, str] = {}
    for entry in zones:
        if not (isinstance(entry, (tuple, list)) and len(entry) == 2) or entry[0] not in ZONE_KINDS:
            value = entry[0] if isinstance(entry, (tuple, list)) and entry else entry
            bad("layout.hall.zones", message("hall.zone_kind", value=_short_repr(value)))
            continue
        kind, rows = entry
        if not isinstance(rows, (tuple, list)) or not rows or not all(_is_int(r) and r >= 1 for r in rows):
            bad(f"layout.hall.zones.{kind}", message("hall.zone_rows", value=_short_repr(rows)))
            continue
        for row in rows:
            if rows_ok and hall.rows and row > hall.rows:
                bad(f"layout.hall.zones.{kind}", message("hall.zone_row_outside", row=row, rows=hall.rows))
                break
            if seen.get(row, kind) != kind:
                bad(f"layout.hall.zones.{kind}", message("hall.zone_row_twice", row=row, other=seen[row]))
                break
            seen[row] = kind


def _check_switch(bad, role: str, hw: SwitchHw) -> None:
    if not _check_int(bad, f"{role}.ports", hw.ports, 2, 4096):
        return
    _check_int(bad, f"{role}.gbps", hw.gbps, 1, 3200)
    if _check_int(bad, f"{role}.cages", hw.cages, 0, 4096) and hw.cages:
        if hw.ports % hw.cages:
            bad(f"{role}.ports", message("spec.cages_split", ports=hw.ports, cages=hw.cages))
    _check_int(bad, f"{role}.cage_gbps", hw.cage_gbps, 0, 6400)
    if hw.fabric not in FABRICS:
        bad(f"{role}.fabric", message("spec.fabric_choice", value=_short_repr(hw.fabric)))
    if not isinstance(hw.vendor, str):
        bad(f"{role}.vendor", message("spec.vendor_name", value=_short_repr(hw.vendor)))
    _check_int(bad, f"{role}.rack_units", hw.rack_units, 0, 64)
    _check_number(bad, f"{role}.price", hw.price, 0)
    for name in ("power_typical_w", "power_max_w", "buffer_mb"):
        if getattr(hw, name) is not None:  # None: not published (the BOM says so)
            _check_number(bad, f"{role}.{name}", getattr(hw, name), 0)
    if hw.switch_class not in SWITCH_CLASSES + ("",):
        bad(f"{role}.switch_class", message("spec.switch_class_choice", value=_short_repr(hw.switch_class)))
    _check_int(bad, f"{role}.uplinks", hw.uplinks, 0, 4096)
    _check_int(bad, f"{role}.uplink_gbps", hw.uplink_gbps, 0, 3200)


def _check_qualification(bad, where: str, item: Optic | CableAssembly | FiberCord) -> None:
    """`fabrics`: a non-empty list of known fabrics; `vendor` and `compatible_vendors`: names."""
    fabrics = item.fabrics
    if not isinstance(fabrics, (tuple, list)) or not fabrics:
        bad(f"{where}.fabrics", message("spec.fabrics_list", value=_short_repr(fabrics)))
    else:
        for value in fabrics:
            if value not in FABRICS:
                bad(f"{where}.fabrics", message("spec.fabric_choice", value=_short_repr(value)))
    if not isinstance(item.vendor, str):
        bad(f"{where}.vendor", message("spec.vendor_name", value=_short_repr(item.vendor)))
    compatible = getattr(item, "compatible_vendors", ())
    if not isinstance(compatible, (tuple, list)) or not all(isinstance(v, str) and v.strip() for v in compatible):
        bad(f"{where}.compatible_vendors", message("spec.vendor_names", value=_short_repr(compatible)))


def _speed_mismatch(role: str, hw: SwitchHw, nic_gbps: int) -> tuple[str, Message]:
    native = hw.native_gbps
    mode = hw.breakout or f"{hw.ports}x{hw.gbps}G"
    if native % nic_gbps == 0 and native >= nic_gbps:
        msg = message("speed.choose_breakout", gbps=hw.gbps, mode=mode, nic_gbps=nic_gbps, count=native // nic_gbps)
    else:
        msg = message("speed.every_tier", gbps=hw.gbps, mode=mode, nic_gbps=nic_gbps)
    return (f"{role}.breakout" if hw.breakout else f"{role}.gbps"), msg
