"""What engine.networks returns per network: its own devices and links, BOM, power and pools.

Device indexes are the cluster's: the backend plan's devices keep 0..N-1 (servers first), then
the storage nodes, then each other network's switches (frontend, storage, oob), so a link of any
network names its ends by one index space (`Plan.devices` + every `NetworkPlan.devices`).
Port names are given (object arrays of str): server ends use the network's own ports ("fe0",
"st1", "bmc"), switch ends Ethernet<lane>, the management port "mgmt0".
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..messages import Message
from ..model import BomLine, Device, Medium, Wiring

# Port numbers of a server's or storage node's non-backend ports (backend NIC ports are 0..63).
PORT_BASE = {"frontend": 1000, "storage": 2000, "oob": 3000}
PORT_PREFIX = {"frontend": "fe", "storage": "st"}
DEVICE_PREFIX = {"frontend": "fe-", "storage": "st-", "oob": "oob-"}


@dataclass(slots=True)
class NetworkLinks:
    a_dev: np.ndarray  # int32, cluster device index (the lower end: server, storage node or leaf)
    a_port: np.ndarray  # int32 port number on that device
    a_port_name: np.ndarray  # object (str)
    b_dev: np.ndarray
    b_port: np.ndarray
    b_port_name: np.ndarray
    tier: np.ndarray  # int8: 0 endpoint-leaf, 1 leaf-spine, 2 spine-core
    rail: np.ndarray  # int16: the endpoint port's index for tier 0, -1 else
    length_m: np.ndarray  # float32
    medium: np.ndarray  # int16 index into NetworkPlan.media
    subnet: np.ndarray  # uint32 network of the link's subnet, 0 = none
    a_ip: np.ndarray  # uint32, 0 = none
    b_ip: np.ndarray
    prefix: np.ndarray  # int8 prefix length of the subnet (31 for /31s, the management subnet's for OOB)

    def __len__(self) -> int:
        return int(self.a_dev.shape[0])


@dataclass(slots=True)
class NetworkPlan:
    key: str  # "frontend", "storage" or "oob"
    devices: list[Device]  # the network's own devices (switches; storage nodes in "storage")
    links: NetworkLinks
    media: list[Medium]
    bom: list[BomLine]
    subtotal: float
    discount: float
    total_cost: float
    spares_subtotal: float
    power_typical_w: float  # the network's (switches, switch-side optics)
    power_max_w: float
    in_server_typical_w: float
    in_server_max_w: float
    rack_units: int
    switches: dict[str, int]  # leaf, spine, core
    links_by_tier: dict[str, int]
    pools: dict[str, dict]
    tiers: int = 2
    oversubscription: dict[str, float] = field(default_factory=dict)
    endpoints: dict[str, int] = field(default_factory=dict)  # servers, storage nodes, managed devices
    gbps: int = 0
    wiring: Wiring | None = None
    notes: list[Message] = field(default_factory=list)
    converged: bool = False  # storage on the front-end fabric: no devices or links of its own
