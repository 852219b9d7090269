"""Device names, SONiC port names and cable labels."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from apps.engine.model import ROLES
from apps.engine.names import lanes_per_port, link_labels, port_name, port_name_table
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
