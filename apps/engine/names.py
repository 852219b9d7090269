"""Device names, port names and cable labels.

Devices (numbers zero-padded to a width fixed per plan so names sort; at least the widths shown):
- servers      "srv-0123"          (server index, 0-based)
- leaves       "p0-su03-leaf-r5"   (plane, scale unit, rail; the rail is the global NIC port index)
- spines       "p0-spine-012"      (plane, spine index within the plane; its pod is Device.pod)
- cores        "p0-core-007"       (plane, core index within the plane)

Ports:
- server backend NIC ports are "eth{i}", i = the backend port = the rail (the Linux netdev name;
  the RDMA device of the same port is mlx5_{i} on ConnectX NICs).
- switch ports are SONiC style "Ethernet{first lane}": the first serdes lane of the logical port,
  lane = port * lanes_per_port, lanes_per_port = lanes of the cage / logical ports per cage.
  An 8-lane cage (OSFP, QSFP-DD) in 2x400G gives cage k the ports Ethernet{8k} and Ethernet{8k+4};
  in 1x400G the ports are Ethernet0, Ethernet8, ...; 4-lane cages (QSFP112, QSFP56) step by 4.

Labels: each end of a cable carries "near-device:port > far-device:port", near end first.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, overload

import numpy as np

from .model import ROLES, Device
from .spec import SwitchHw

if TYPE_CHECKING:
    from .model import Plan

LANES_PER_CAGE = {"OSFP": 8, "OSFP112": 8, "QSFP-DD": 8, "QSFP-DD800": 8, "QSFP112": 4, "QSFP56": 4, "QSFP28": 4,
                  "QSFP": 4, "SFP56": 1, "SFP28": 1, "SFP+": 1}


def lanes_per_cage(form_factor: str) -> int:
    return LANES_PER_CAGE.get((form_factor or "").upper(), 8)


def lanes_per_port(hw: SwitchHw) -> int:
    """Lane step between consecutive logical ports of a switch model in its breakout mode."""
    return max(1, lanes_per_cage(hw.form_factor) // hw.ports_per_cage)


def width(count: int, minimum: int) -> int:
    """Digits for numbers 0..count-1, at least `minimum`."""
    return max(minimum, len(str(max(count - 1, 0))))


def server_name(index: int, digits: int = 4) -> str:
    return f"srv-{index:0{digits}d}"


def leaf_name(plane: int, su: int, rail: int, su_digits: int = 2, rail_digits: int = 1) -> str:
    return f"p{plane}-su{su:0{su_digits}d}-leaf-r{rail:0{rail_digits}d}"


def spine_name(plane: int, index: int, digits: int = 3) -> str:
    return f"p{plane}-spine-{index:0{digits}d}"


def core_name(plane: int, index: int, digits: int = 3) -> str:
    return f"p{plane}-core-{index:0{digits}d}"


def port_name(device: Device | str, port: int, *, lanes_per_port: int | None = None) -> str:
    """Name of logical port `port` (0-based) of `device`.

    Pass a Device (it knows its lane step), or a role with `lanes_per_port` for switches;
    `port_name_table(plan)` names every port of every role of a plan at once.
    """
    if isinstance(device, Device):
        role, step = device.role, device.lanes_per_port
    else:
        role, step = device, lanes_per_port
    if role == "server":
        return f"eth{port}"
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; one of {', '.join(ROLES)}")
    if step is None:
        raise TypeError("switch port names depend on the model's cages: pass a Device, lanes_per_port=, "
                        "or use port_name_table(plan)")
    return f"Ethernet{port * step}"


def role_lanes_per_port(plan: Plan) -> dict[str, int]:
    """Lane step per switch role in this plan (every device of a role is the same model)."""
    spec = plan.spec
    return {role: lanes_per_port(spec.switch_hw(role)) for role in ("leaf", "spine", "core")}


def port_name_table(plan: Plan) -> np.ndarray:
    """Object array names[role code (ROLES index), port] covering every port number of the plan's models."""
    steps = role_lanes_per_port(plan)
    spec = plan.spec
    max_ports = max(spec.rails, spec.leaf.ports, spec.spine_hw.ports, spec.core_hw.ports)
    numbers = np.arange(max_ports + 1)
    table = np.empty((len(ROLES), max_ports + 1), dtype=object)
    table[0] = np.char.add("eth", numbers.astype(str)).astype(object)
    for code, role in enumerate(ROLES[1:], start=1):
        table[code] = np.char.add("Ethernet", (numbers * steps[role]).astype(str)).astype(object)
    return table


def device_name_array(plan: Plan) -> np.ndarray:
    return np.array([d.name for d in plan.devices], dtype=object)


def device_role_codes(plan: Plan) -> np.ndarray:
    """ROLES index of every device, from the contiguous role blocks of the device list."""
    codes = np.empty(len(plan.devices), dtype=np.int8)
    code_of = {role: i for i, role in enumerate(ROLES)}
    for i, device in enumerate(plan.devices):
        codes[i] = code_of[device.role]
    return codes


def end_names(plan: Plan, dev: np.ndarray, port: np.ndarray, *, names: np.ndarray | None = None,
              roles: np.ndarray | None = None, table: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(device names, port names) of link ends, vectorised."""
    names = device_name_array(plan) if names is None else names
    roles = device_role_codes(plan) if roles is None else roles
    table = port_name_table(plan) if table is None else table
    return names[dev], table[roles[dev], port]


@overload
def link_labels(plan: Plan, i: int) -> tuple[str, str]: ...


@overload
def link_labels(plan: np.ndarray, i: np.ndarray) -> np.ndarray: ...


def link_labels(plan, i):
    """Cable labels.

    link_labels(plan, i) -> (label at the a end, label at the b end) of link i;
    link_labels(near_ends, far_ends) -> labels for the near ends, vectorised over arrays of
    "device:port" strings ("srv-0001:eth3 > p0-su00-leaf-r3:Ethernet8").
    """
    from .model import Plan

    if isinstance(plan, Plan):
        links = plan.links
        a = plan.devices[int(links.a_dev[i])]
        b = plan.devices[int(links.b_dev[i])]
        a_end = f"{a.name}:{port_name(a, int(links.a_port[i]))}"
        b_end = f"{b.name}:{port_name(b, int(links.b_port[i]))}"
        return f"{a_end} > {b_end}", f"{b_end} > {a_end}"
    near = np.asarray(plan, dtype=object)
    far = np.asarray(i, dtype=object)
    return near + " > " + far
