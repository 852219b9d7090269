"""What the engine returns: devices, a columnar link table, cabling, BOM and addressing.

Links are stored column-wise in numpy arrays (one row per link) because the largest
fabrics have ~200,000 links: per-link Python objects would cost more time and memory
than planning them. Devices are few enough (tens of thousands) to be objects.

Conventions every consumer relies on:
- Link row i connects (a_dev[i], a_port[i]) to (b_dev[i], b_port[i]); the a end is the
  lower tier (server for tier 0, leaf for tier 1, spine for tier 2).
- Ports are logical port indexes, 0-based, on that device; `port_name()` gives the name.
- `plane` is 0-based; `rail` is the server NIC port index for tier 0 and the rail of
  the leaf for tier 1, -1 where a link belongs to no single rail.
- Addresses are IPv4 as unsigned 32-bit integers; `subnet[i]` is the /31 of link i,
  the a end holds subnet+1 for tier 0 (the NIC) and subnet for tiers 1 and 2.
- The model knows no reader: its JSON report is engine.report.report(plan), which reads it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .messages import Message
from .spec import DesignSpec

ROLES = ("server", "leaf", "spine", "core")
TIER_NAMES = ("server-leaf", "leaf-spine", "spine-core")

# Progress callback: (stage, percent 0-100) -> None.
Progress = Callable[[str, int], None]


@dataclass(slots=True)
class Device:
    index: int
    name: str
    role: str  # one of ROLES
    sku: str
    model: str
    ports: int  # logical ports (switch) or backend NIC ports (server)
    plane: int = -1  # -1 for servers, which span every plane
    pod: int = -1
    su: int = -1
    rail: int = -1  # leaves only
    group: int = -1  # spine group (pod) or core group
    row: int = 0
    rack: str = ""
    rack_unit: int = 0
    asn: int = 0
    loopback: int = 0  # IPv4 as int, 0 for servers
    col: int = 0  # rack position in its row (0-based); `row` is the row
    ports_per_cage: int = 1  # logical ports sharing one cage (2 for a twin-port 800G cage in 2x400G)
    lanes_per_port: int = 0  # serdes lanes per logical port: port p is named Ethernet{p * lanes_per_port}
    infiniband: bool = False  # ports take InfiniBand names (engine.names)
    nvos: bool = False  # an InfiniBand switch run by NVOS (Quantum-X800): "sw<cage>p<port>" port names


@dataclass(slots=True)
class LinkTable:
    a_dev: np.ndarray  # int32
    a_port: np.ndarray  # int32
    b_dev: np.ndarray  # int32
    b_port: np.ndarray  # int32
    tier: np.ndarray  # int8: 0 server-leaf, 1 leaf-spine, 2 spine-core
    plane: np.ndarray  # int16
    rail: np.ndarray  # int16
    length_m: np.ndarray  # float32, rounded up to a standard length
    medium: np.ndarray  # int16 index into Cabling.media
    subnet: np.ndarray  # uint32 /31 network

    def __len__(self) -> int:
        return int(self.a_dev.shape[0])


@dataclass(slots=True)
class Medium:
    """How one kind of link is built: a cable assembly, or optics at both ends plus a fibre."""

    key: str  # e.g. "DAC splitter 2m" / "SR twin-port + OM4 10m"
    kind: str  # DAC, ACC, AEC, AOC, SR, DR, FR
    fiber: str  # MMF, SMF or "" for copper and AOC
    a_sku: str  # module or cable assembly at the a end
    b_sku: str  # module at the b end ("" for a cable assembly)
    cable_sku: str  # fibre cord or cable assembly
    length_m: float
    tier: int = -1  # the link tier it serves
    legs: int = 1  # links one cable assembly carries (2 for a 1:2 splitter, 2 for a straight twin-port cable)


@dataclass(slots=True)
class BomLine:
    """One SKU of the bill of materials; power and rack units are for the whole line (qty units).

    `in_server_typical_w` / `in_server_max_w` are the part of the line's power drawn inside the
    servers (NIC cards, server-side optics, the server half of an active server-leaf cable): the
    server's own power budget, not the network's. A spare line (`spare`) is unpowered stock on a shelf.
    """

    sku: str
    description: str
    category: str  # switch, nic, transceiver, cable, fiber
    qty: int
    unit_price: float
    total: float
    power_typical_w: float = 0.0
    power_max_w: float = 0.0
    rack_units: int = 0
    in_server_typical_w: float = 0.0
    in_server_max_w: float = 0.0
    # Whose power the line draws: "network", "in-server", "both" (a SKU used at both ends, or an active
    # server-leaf cable) or "spare" (unpowered stock).
    scope: str = "network"
    spare: bool = False
    # False when the vendor publishes no power for the part: the line's watts leave it out (counted as 0),
    # and the plan's totals name it among the parts missing power.
    power_published: bool = True
    # False when the part has no list price (a cord the catalog does not sell, a part entered without a price):
    # its 0 is not a price, and every total over it names the part among those missing a price.
    price_published: bool = True

    @property
    def network_typical_w(self) -> float:
        return self.power_typical_w - self.in_server_typical_w

    @property
    def network_max_w(self) -> float:
        return self.power_max_w - self.in_server_max_w


SCOPE_NETWORK, SCOPE_IN_SERVER, SCOPE_BOTH, SCOPE_SPARE = "network", "in-server", "both", "spare"


def power_missing(lines: list[BomLine]) -> list[str]:
    """The SKUs of the lines whose power is not published (left out of the power totals), once each."""
    return list(dict.fromkeys(line.sku for line in lines if not line.spare and not line.power_published))


def price_missing(lines: list[BomLine]) -> list[str]:
    """The SKUs of the lines without a list price (left out of the money totals), once each."""
    return list(dict.fromkeys(line.sku for line in lines if not line.price_published))


@dataclass(slots=True)
class Sizing:
    """The counts of a fabric, computed without building it (see engine.topology for the rules)."""

    tiers: int
    planes: int
    rails: int
    rails_per_plane: int
    servers: int
    gpus: int  # requested GPUs
    gpus_per_server: int
    su_servers: int  # servers per scale unit (= leaf downlinks d, unless leaves are shared by tray slot)
    leaf_uplinks: int  # u
    scale_units: int
    leaves_per_plane: int
    spines_per_plane: int
    cores_per_plane: int
    sus_per_pod: int  # 0 for 2 tiers
    pods: int  # per plane (every plane has the same pods); 0 for 2 tiers
    spines_per_pod: int  # in a full pod; 0 for 2 tiers
    spines_last_pod: int  # in the last pod (fewer when it is partly filled); 0 for 2 tiers
    spine_downlinks: int  # spine ports towards leaves (all ports in 2 tiers, half in 3 tiers)
    spine_uplinks: int  # uplinks of a spine of a full pod (3 tiers: its leaf links, at most half its ports), 0 in 2
    switches: dict[str, int]  # leaf, spine, core (all planes)
    links_by_tier: dict[str, int]  # keys TIER_NAMES
    max_gpus: int
    max_hops: int
    oversubscription: dict[str, float]
    bisection_gbps: float
    free_ports: dict[str, int]
    estimated_cost: float = 0.0  # the plan's total (engine.plan.size prices it as plan() does)
    currency: str = "USD"
    # A leaf with an uplink group (front-end / management switches): its first uplink port (its access port
    # count); 0 = uplinks follow the downlinks on the same ports (fabric switches).
    leaf_uplink_port: int = 0
    spine_uplinks_last_pod: int = 0  # uplinks of a spine of the last pod (3 tiers; fewer when it is partly filled)
    # Rack-scale leaves shared by tray slot (engine.topology): the trays per domain D, so an SU has D leaves per
    # plane, leaf t taking tray t of each of the SU's K racks; 0 = one leaf per rail of the plane.
    leaf_slots: int = 0
    leaf_downlinks: int = 0  # downlinks of a full SU's leaf when shared (K x r/p); 0 = su_servers
    leaf_downlinks_last_su: int = 0  # a partly filled last SU's shared leaves: downlinks, 0 = as a full SU's
    leaf_uplinks_last_su: int = 0  # ... and uplinks, 0 = leaf_uplinks


@dataclass(slots=True)
class Wiring:
    """The wiring proof of a plan (engine.wiring): the worst leaf pair against the stated oversubscription."""

    worst_pair_fraction: float  # lowest leaf-pair max-flow / leaf downlinks, capped at 1
    as_stated: bool  # worst_pair_fraction >= stated_fraction (within 1e-9)
    stated_fraction: float  # min(1, leaf uplinks / leaf downlinks): 1.0 at 1:1, 0.333 at 3:1
    worst_pair_links: int  # that max-flow, in links (0 when a plane has a single leaf)
    leaf_uplinks: int
    leaf_downlinks: int
    worst_pair: tuple[int, int] | None = None  # device indexes of the worst pair, None without a pair
    worst_pair_names: tuple[str, ...] = ()  # their device names (filled by plan())
    leaf_pairs: int = 0  # leaf pairs covered, all planes
    flows_solved: int = 0  # layered max-flows solved for pairs across pods (3 tiers)
    # The top tier (3 tiers, several pods): the worst pod pair's core links shared, against the smaller pod's leaf
    # uplinks; below 1 the fabric is blocking between those pods whatever a single leaf pair gets.
    worst_pod_pair_fraction: float = 1.0
    worst_pod_pair_links: int = 0
    pod_pair_uplinks: int = 0
    worst_pod_pair: tuple[int, int, int] | None = None  # (plane, pod, pod), None without two pods
    # Links per connected pair, [fewest, most], by tier: "leaf-spine" (a leaf and a spine of its pod),
    # "spine-core" (a spine and a core it reaches), "core-pod" (a core and a pod); equal when spread evenly.
    spread: dict[str, list[int]] = field(default_factory=dict)


@dataclass(slots=True)
class Alternative:
    """One structure for the same request, for a side-by-side comparison."""

    label: str  # e.g. "2 tiers", "3 tiers", "8 planes, 2 tiers"
    planes: int
    tiers: int  # resolved tiers (the requested 2 or 3 when infeasible)
    feasible: bool
    reason: str = ""  # why not, "field: message", when infeasible
    reason_details: dict[str, list[Message]] = field(default_factory=dict)  # the same, {field: [Message]}
    sizing: Sizing | None = None
    total_cost: float = 0.0
    currency: str = "USD"
    power_typical_w: float = 0.0
    power_max_w: float = 0.0
    rack_units: int = 0
    cheapest: bool = False  # the cheapest feasible alternative (never a blocking one)
    current: bool = False  # the structure the spec asks for
    wiring: Wiring | None = None  # the wiring proof of the planned alternative
    blocking: bool = False  # the fewest-spines wiring with uneven uplinks: below its stated oversubscription
    notes: list[Message] = field(default_factory=list)  # why it is blocking (uneven uplinks, worst pair)

    @property
    def reason_messages(self) -> list[tuple[str, Message]]:
        """(field, Message) of every reason, in order."""
        return [(name, msg) for name, items in self.reason_details.items() for msg in items]

    @property
    def reason_code(self) -> str:
        """The code of the (first) reason, "" when feasible."""
        reasons = self.reason_messages
        return reasons[0][1].code if reasons else ""

    @property
    def reason_params(self) -> dict:
        """The params of the (first) reason as plain JSON."""
        reasons = self.reason_messages
        return reasons[0][1].to_dict()["params"] if reasons else {}


@dataclass(slots=True)
class Plan:
    spec: DesignSpec
    tiers: int
    planes: int
    servers: int
    gpus: int
    rails: int
    su_servers: int  # servers per scale unit (leaf downlinks)
    scale_units: int
    pods: int  # 0 for 2 tiers
    switches: dict[str, int]  # leaf, spine, core (all planes)
    links_by_tier: dict[str, int]  # keys TIER_NAMES
    max_gpus: int
    max_hops: int
    oversubscription: dict[str, float]  # per tier, e.g. {"leaf": 1.0, "spine": 1.0}
    bisection_gbps: float
    free_ports: dict[str, int]  # per role, all devices of the role
    devices: list[Device]
    links: LinkTable
    media: list[Medium]
    bom: list[BomLine]
    subtotal: float
    discount: float
    total_cost: float
    currency: str
    power_typical_w: float  # the network's: switches and switch-side optics (see engine.bom)
    power_max_w: float
    rack_units: int
    pools: dict[str, dict]  # per pool: cidr, used, size
    warnings: list[str] = field(default_factory=list)  # English sentences, one per note
    sizing: Sizing | None = None
    notes: list[Message] = field(default_factory=list)  # the warnings with their codes and params
    wiring: Wiring | None = None  # the wiring proof of the links above
    in_server_typical_w: float = 0.0  # NIC cards and server-side optics: inside the servers' power budget
    in_server_max_w: float = 0.0
    spares_subtotal: float = 0.0  # the spare lines' totals, included in subtotal and total_cost
    # The cluster's other networks (engine.networks: "frontend", "storage", "oob" -> NetworkPlan), planned by
    # engine.networks.plan_cluster; the fields above are the backend's alone.
    networks: dict = field(default_factory=dict)
    # Every device of every network in a rack on the hall's grid (engine.hall.HallPlan); None until placed.
    hall: object = None
