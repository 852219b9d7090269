"""Device names, port names and cable labels.

Devices (numbers zero-padded to a width fixed per plan so names sort; at least the widths shown):
- servers      "srv-0123"          (server index, 0-based)
- leaves       "p0-su03-leaf-r5"   (plane, scale unit, rail; the rail is the global NIC port index)
                 "p0-su01-leaf-t07"  (rack-scale leaves shared by tray slot, engine.topology: plane, scale unit,
                                      tray slot t, the leaf taking tray t of each of the SU's racks)
- spines       "p0-spine-012"      (plane, spine index within the plane; its pod is Device.pod)
- cores        "p0-core-007"       (plane, core index within the plane)

Ports on Ethernet (RoCE):
- server backend NIC ports are "eth{i}", i = the backend port = the rail (the Linux netdev name;
  the RDMA device of the same port is mlx5_{i} on ConnectX NICs).
- switch ports are SONiC style "Ethernet{first lane}": the first serdes lane of the logical port,
  lane = port * lanes_per_port, lanes_per_port = lanes of the cage / logical ports per cage.
  An 8-lane cage (OSFP, QSFP-DD) in 2x400G gives cage k the ports Ethernet{8k} and Ethernet{8k+4};
  in 1x400G the ports are Ethernet0, Ethernet8, ...; 4-lane cages (QSFP112, QSFP56) step by 4.

Ports on InfiniBand (the names the switch OS and the host tools print; cages and ports 1-based):
- server backend ports are HCAs "mlx5_{i}", i = the backend port = the rail: the RDMA device name
  ibstat, ibnetdiscover ("<host> mlx5_<i>", the Linux node description) and NCCL_IB_HCA use; the
  IPoIB netdev on it (ib<i> / ibp<bus>s<slot>) is the host's udev choice and not named here.
- MLNX-OS switches (Quantum-2 QM97x0, NDR; NVIDIA MLNX-OS User Manual, "InfiniBand Interface": an
  interface is <asic>/<cage>/<port> on Quantum-2, e.g. "1/3/1" and "1/3/2" are the two ports of
  cage 3; splitting a port appends the sub-port "/1", "/2"; a one-port cage is "1/<cage>"):
  twin-port cage k gives "1/k/1" and "1/k/2"; in 4x200G (NDR200) "1/k/1/1", "1/k/1/2", "1/k/2/1", ...
- NVOS switches (Quantum-X800 Q3x00, XDR: a twin-port cage of 2x800G, cage_gbps >= 1600): the
  front-panel cage and its logical port, "sw{cage}p{port}" (split: "...s{sub-port}"), as the NVOS
  manual names front-panel ports and NetBox's device-type library names the Q3400-RA's interfaces.
- Logical port p (0-based) is port p + 1 in ibnetdiscover's numbering (engine.asbuilt.parsers).

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


def server_names(count: int, digits: int = 4) -> list[str]:
    """server_name(i, digits) for i in 0..count-1, formatted in one pass."""
    return list(map(f"srv-{{:0{digits}d}}".format, range(count)))


def leaf_name(plane: int, su: int, rail: int, su_digits: int = 2, rail_digits: int = 1) -> str:
    return f"p{plane}-su{su:0{su_digits}d}-leaf-r{rail:0{rail_digits}d}"


def leaf_names(planes: list[int], sus: list[int], rails: list[int], su_digits: int = 2, rail_digits: int = 1
               ) -> list[str]:
    """leaf_name(plane, su, rail, su_digits, rail_digits) of each (planes[i], sus[i], rails[i]), in one pass."""
    return list(map(f"p{{}}-su{{:0{su_digits}d}}-leaf-r{{:0{rail_digits}d}}".format, planes, sus, rails))


def spine_names(planes: list[int], indexes: list[int], digits: int = 3) -> list[str]:
    """spine_name(plane, index, digits) of each (planes[i], indexes[i]), in one pass."""
    return list(map(f"p{{}}-spine-{{:0{digits}d}}".format, planes, indexes))


def core_names(planes: list[int], indexes: list[int], digits: int = 3) -> list[str]:
    """core_name(plane, index, digits) of each (planes[i], indexes[i]), in one pass."""
    return list(map(f"p{{}}-core-{{:0{digits}d}}".format, planes, indexes))


def slot_leaf_name(plane: int, su: int, slot: int, su_digits: int = 2, slot_digits: int = 2) -> str:
    return f"p{plane}-su{su:0{su_digits}d}-leaf-t{slot:0{slot_digits}d}"


def spine_name(plane: int, index: int, digits: int = 3) -> str:
    return f"p{plane}-spine-{index:0{digits}d}"


def core_name(plane: int, index: int, digits: int = 3) -> str:
    return f"p{plane}-core-{index:0{digits}d}"


# A cage this fast (a twin-port 2x800G XDR cage) belongs to an NVOS switch (Quantum-X800); slower
# InfiniBand cages to MLNX-OS ones (Quantum-2 and older).
NVOS_CAGE_GBPS = 1600


def infiniband_server_port(port: int) -> str:
    return f"mlx5_{port}"


def infiniband_switch_port(port: int, ports_per_cage: int, *, nvos: bool = False) -> str:
    """Name of logical port `port` (0-based) of an InfiniBand switch with `ports_per_cage` ports per cage."""
    ppc = max(1, int(ports_per_cage))
    cage, within = port // ppc + 1, port % ppc
    # Two physical ports per cage (Quantum-2 / X800 twin-port OSFP) once a cage carries two or more logical
    # ports; a split (4 per cage) halves each of them into sub-ports.
    if ppc == 1:
        parts: tuple[int, ...] = (cage,)
    elif ppc == 2 or ppc % 2:
        parts = (cage, within + 1)
    else:
        half = ppc // 2
        parts = (cage, within // half + 1, within % half + 1)
    if nvos:
        return "sw{}".format(parts[0]) + "".join(f"{tag}{n}" for tag, n in zip(("p", "s"), parts[1:]))
    return "1/" + "/".join(str(n) for n in parts)


def is_nvos(hw: SwitchHw) -> bool:
    return hw.native_gbps >= NVOS_CAGE_GBPS


def eos_port_name(port: int, ports_per_cage: int, lanes_per_port: int) -> str:
    """Arista EOS's name of logical port `port` (0-based): Ethernet<cage>/<first lane of the port>, both 1-based,
    so an unsplit cage is Ethernet<cage>/1 and a cage in 2x400G on 8 lanes has Ethernet<cage>/1 and /5 (Arista EOS
    User Manual, "Layer 1 Profiles": an OSFP cage numbered 1 exposes one interface per lane, Ethernet1/1 to
    Ethernet1/8; a port of several lanes takes its first lane's). The EOS
    configuration (engine.roce.nos) and the NetBox export name an EOS switch's ports by this one rule."""
    ppc = max(int(ports_per_cage), 1)
    cage, lane = divmod(int(port), ppc)
    return f"Ethernet{cage + 1}/{lane * max(int(lanes_per_port), 1) + 1}"


def switch_port_names(hw: SwitchHw, *, infiniband: bool, count: int | None = None, eos: bool = False) -> list[str]:
    """Names of the first `count` (default: all) logical ports of a switch model in its breakout mode: SONiC's
    Ethernet<first lane>, InfiniBand's (MLNX-OS / NVOS), or with `eos` Arista EOS's Ethernet<cage>/<lane>."""
    count = hw.ports if count is None else count
    if infiniband:
        nvos = is_nvos(hw)
        return [infiniband_switch_port(p, hw.ports_per_cage, nvos=nvos) for p in range(count)]
    step = lanes_per_port(hw)
    if eos:
        return [eos_port_name(p, hw.ports_per_cage, step) for p in range(count)]
    return [f"Ethernet{p * step}" for p in range(count)]


def server_port_names(count: int, *, infiniband: bool) -> list[str]:
    return [infiniband_server_port(i) if infiniband else f"eth{i}" for i in range(count)]


def port_name(device: Device | str, port: int, *, lanes_per_port: int | None = None) -> str:
    """Name of logical port `port` (0-based) of `device`.

    Pass a Device (it knows its lane step and fabric), or a role with `lanes_per_port` for Ethernet
    switches; `port_name_table(plan)` names every port of every role of a plan at once.
    """
    if isinstance(device, Device):
        role, step = device.role, device.lanes_per_port
        if device.infiniband:
            if role == "server":
                return infiniband_server_port(port)
            return infiniband_switch_port(port, device.ports_per_cage, nvos=device.nvos)
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
    if spec.infiniband:
        table[0] = np.array(server_port_names(max_ports + 1, infiniband=True), dtype=object)
        for code, role in enumerate(ROLES[1:], start=1):
            table[code] = np.array(switch_port_names(spec.switch_hw(role), infiniband=True, count=max_ports + 1),
                                   dtype=object)
        return table
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
