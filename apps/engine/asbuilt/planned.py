"""The planned fabric of an engine Plan, by name, for the as-built check (and the dump builders of tests/bench)."""
from __future__ import annotations

import numpy as np

from ..model import Plan
from ..names import device_name_array, device_role_codes, port_name_table
from .check import PlannedFabric


def planned_from_plan(plan: Plan) -> PlannedFabric:
    links = plan.links
    names = device_name_array(plan)
    roles = device_role_codes(plan)
    table = port_name_table(plan)
    a_dev, b_dev = links.a_dev, links.b_dev
    a_port, b_port = links.a_port, links.b_port
    a_names, b_names = names[a_dev].tolist(), names[b_dev].tolist()
    a_ports, b_ports = table[roles[a_dev], a_port].tolist(), table[roles[b_dev], b_port].tolist()
    port_names = dict(zip(zip(a_names, a_port.tolist()), a_ports))
    port_names.update(zip(zip(b_names, b_port.tolist()), b_ports))
    return PlannedFabric(
        a_device=a_names, a_port=a_ports, b_device=b_names, b_port=b_ports,
        plane=links.plane.astype(np.int64).tolist(), rail=links.rail.astype(np.int64).tolist(),
        racks={d.name: d.rack for d in plan.devices}, port_names=port_names,
    )
