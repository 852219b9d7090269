"""Device names, SONiC port names and cable labels."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from apps.engine.model import ROLES
from apps.engine.names import (infiniband_switch_port, is_nvos, lanes_per_port, link_labels, port_name, port_name_table,
                               server_port_names, switch_port_names)
from apps.engine.spec import SwitchHw
from apps.engine.plan import plan

from .builders import spec, switch


def test_device_names_by_role():
    p = plan(spec(5_000, leaf=switch(64)))
    names = {d.role: [] for d in p.devices}
    for d in p.devices:
        names[d.role].append(d.name)
    assert names["server"][:2] == ["srv-0000", "srv-0001"] and names["server"][-1] == "srv-0624"
    assert names["leaf"][:2] == ["p0-su00-leaf-r0", "p0-su00-leaf-r1"]
    assert names["leaf"][-1] == "p0-su19-leaf-r7"
    assert names["spine"][0] == "p0-spine-000" and names["spine"][-1] == "p0-spine-159"
    assert names["core"][0] == "p0-core-000" and names["core"][-1] == "p0-core-127"
    assert len(set(d.name for d in p.devices)) == len(p.devices)


def test_names_widen_so_they_still_sort():
    p = plan(spec(110 * 32 * 8, leaf=switch(64), planes=8))  # 110 SUs
    leaves = [d.name for d in p.devices if d.role == "leaf"]
    assert "p7-su109-leaf-r7" in leaves and "p0-su000-leaf-r0" in leaves


def test_switch_ports_are_named_by_their_first_lane():
    p = plan(spec(512, leaf=switch(64, twin=True)))
    leaf = next(d for d in p.devices if d.role == "leaf")
    assert [port_name(leaf, i) for i in range(4)] == ["Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"]
    single = next(d for d in plan(spec(512, leaf=switch(64))).devices if d.role == "leaf")
    assert [port_name(single, i) for i in range(3)] == ["Ethernet0", "Ethernet8", "Ethernet16"]
    server = p.devices[0]
    assert [port_name(server, i) for i in range(2)] == ["eth0", "eth1"]


@pytest.mark.parametrize("form_factor, ports, cages, names", [
    ("QSFP112", 64, 0, ["Ethernet0", "Ethernet4"]),
    ("OSFP", 256, 64, ["Ethernet0", "Ethernet2"]),  # 4x200G on 8-lane cages
])
def test_lane_step_follows_the_cage(form_factor, ports, cages, names):
    hw = replace(switch(ports), form_factor=form_factor, cages=cages)
    assert [port_name("leaf", i, lanes_per_port=lanes_per_port(hw)) for i in range(2)] == names


def test_a_role_without_its_lane_step_is_refused():
    with pytest.raises(TypeError):
        port_name("spine", 3)
    assert port_name("server", 3) == "eth3"


def test_port_name_table_agrees_with_port_name_for_every_link_end():
    p = plan(spec(1_024, leaf=switch(64, twin=True), spine=switch(64)))
    table = port_name_table(p)
    code = {role: i for i, role in enumerate(ROLES)}
    for i in np.linspace(0, len(p.links) - 1, 60).astype(int).tolist():
        for dev, port in ((p.links.a_dev[i], p.links.a_port[i]), (p.links.b_dev[i], p.links.b_port[i])):
            device = p.devices[int(dev)]
            assert table[code[device.role], int(port)] == port_name(device, int(port))


def test_each_cable_end_carries_a_label_naming_both_ends():
    p = plan(spec(512, leaf=switch(64, twin=True)))
    a_label, b_label = link_labels(p, 1)
    assert a_label == "srv-0000:eth1 > p0-su00-leaf-r1:Ethernet0"
    assert b_label == "p0-su00-leaf-r1:Ethernet0 > srv-0000:eth1"
    near = np.array(["a:eth0", "b:eth1"], dtype=object)
    far = np.array(["x:Ethernet0", "y:Ethernet4"], dtype=object)
    assert link_labels(near, far).tolist() == ["a:eth0 > x:Ethernet0", "b:eth1 > y:Ethernet4"]


def _ib(hw):
    return replace(hw, fabric="infiniband")


def test_infiniband_ports_take_the_switch_os_and_hca_names():
    """QM9700 (MLNX-OS): <asic>/<cage>/<port>, two NDR ports per twin-port cage; hosts by HCA mlx5_<rail>."""
    p = plan(spec(512, leaf=_ib(switch(64, twin=True))))
    leaf = next(d for d in p.devices if d.role == "leaf")
    assert [port_name(leaf, i) for i in range(4)] == ["1/1/1", "1/1/2", "1/2/1", "1/2/2"]
    assert port_name(leaf, 63) == "1/32/2"
    assert [port_name(p.devices[0], i) for i in (0, 7)] == ["mlx5_0", "mlx5_7"]
    table = port_name_table(p)
    for i in range(len(p.links)):
        a, b = p.devices[int(p.links.a_dev[i])], p.devices[int(p.links.b_dev[i])]
        assert table[ROLES.index(a.role), int(p.links.a_port[i])] == port_name(a, int(p.links.a_port[i]))
        assert table[ROLES.index(b.role), int(p.links.b_port[i])] == port_name(b, int(p.links.b_port[i]))
    assert link_labels(p, 0) == ("srv-0000:mlx5_0 > p0-su00-leaf-r0:1/1/1", "p0-su00-leaf-r0:1/1/1 > srv-0000:mlx5_0")


@pytest.mark.parametrize("ports_per_cage, names", [
    (1, ["1/1", "1/2", "1/3"]),  # one port per cage (unsplit QSFP56 HDR): 1/<port>
    (2, ["1/1/1", "1/1/2", "1/2/1"]),  # Quantum-2 NDR twin-port cage
    (4, ["1/1/1/1", "1/1/1/2", "1/1/2/1", "1/1/2/2", "1/2/1/1"]),  # NDR200: each port split in two
])
def test_mlnx_os_names_by_cage_port_and_split(ports_per_cage, names):
    assert [infiniband_switch_port(i, ports_per_cage) for i in range(len(names))] == names


def test_an_xdr_switch_is_named_as_nvos_names_its_front_panel():
    """Quantum-X800 Q3400 (NVOS): 72 twin-port 2x800G cages, ports sw<cage>p<port>."""
    q3400 = _ib(SwitchHw(ports=144, gbps=800, cages=72, cage_gbps=1600, form_factor="OSFP", breakout="2x800G"))
    assert is_nvos(q3400)
    assert switch_port_names(q3400, infiniband=True)[:3] == ["sw1p1", "sw1p2", "sw2p1"]
    assert switch_port_names(q3400, infiniband=True)[-1] == "sw72p2"
    assert infiniband_switch_port(5, 4, nvos=True) == "sw2p1s2"
    qm9700 = _ib(switch(64, twin=True))
    assert not is_nvos(qm9700)


def test_ethernet_names_are_unchanged_by_the_infiniband_rules():
    hw = switch(64, twin=True)
    assert switch_port_names(hw, infiniband=False)[:2] == ["Ethernet0", "Ethernet4"]
    assert server_port_names(2, infiniband=False) == ["eth0", "eth1"]
