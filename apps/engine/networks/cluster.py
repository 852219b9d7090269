"""The whole cluster: the backend fabric (engine.plan) and the front-end, storage and OOB networks.

    plan_cluster(spec, *, progress=None) -> Plan     the backend plan, with plan.networks filled
    size_cluster(spec) -> Sizing                     the backend's sizing, every network planned and checked
                                                     (estimated_cost: the whole cluster's), for the live check

The backend is planned exactly as without the other networks (its devices, links, cabling and
addresses are the same, byte for byte, as long as its racks' room is the same: a management network
keeps the top of every rack); the other networks are planned after it, in this order:
storage nodes placed in storage racks after the backend's, the front-end fabric, the storage fabric (unless
converged onto the front-end: then the storage nodes are front-end endpoints), and last the
out-of-band network over every device the others have. All of them take their racks from one
hall grid (engine.hall.grid), and the hall plan (engine.hall.build) is made last. The cluster's cost is the sum of the
networks' total_cost (cluster_totals).
"""
from __future__ import annotations

import numpy as np

from ..model import Device, Plan, Progress, Sizing
from .. import plan as engine_plan  # through the module: a test or a caller may wrap plan()
from ..hall.build import STORAGE_NODE_U, add_hall_notes, device_u_height, place_hall
from ..hall.grid import HallGrid
from ..hall.structured import apply_structured_bom
from ..hall.rules import RackFill, top_reserve
from ..racks import rack_name
from ..spec import DesignSpec, SpecError
from .fabric import Endpoints, plan_fabric_network
from .model import PORT_BASE, NetworkLinks, NetworkPlan
from .oob import Managed, plan_oob
from .spec import has_networks, validate_networks


def _prefixed(exc: SpecError, key: str) -> SpecError:
    """The same error with every field named inside the network ("leaf.ports" -> "frontend.leaf.ports")."""
    cls = type(exc)
    return cls({(name if name.startswith(f"{key}.") else f"{key}.{name}"): list(items)
                for name, items in exc.details.items()})




def storage_nodes(spec: DesignSpec, *, base: int, grid: HallGrid) -> list[Device]:
    """The storage nodes as devices (role "storage") in storage racks (rows of the storage zone, engine.hall.grid):
    `servers_per_rack` to a rack, or as many as the rack's height holds when it is 0."""
    st = spec.storage
    if st is None or not st.nodes:
        return []
    layout = spec.layout
    fill = rack_fill_for_nodes(spec)
    per_rack = fill.per_rack(STORAGE_NODE_U, 0.0, layout.servers_per_rack or st.nodes)
    racks = -(-st.nodes // max(1, per_rack))
    rows, cols = grid.block("storage", racks)
    out = []
    width = max(3, len(str(st.nodes)))
    for k in range(st.nodes):
        rack_index = k // per_rack
        row, col = int(rows[rack_index]), int(cols[rack_index])
        out.append(Device(index=base + k, name=f"stor-{k + 1:0{width}d}", role="storage", sku="", model=st.node_name,
                          ports=st.ports_per_node, row=row, rack=rack_name(row, col),
                          rack_unit=1 + (k % per_rack) * STORAGE_NODE_U, col=col))
    return out


def rack_fill_for_nodes(spec: DesignSpec) -> RackFill:
    layout = spec.layout
    basis = layout.rack_power_basis
    top_u, top_w = top_reserve(spec, basis)
    return RackFill(units=layout.rack_units, budget_w=float(layout.rack_power_kw) * 1000.0, basis=basis, top_u=top_u,
                    top_w=top_w, server_u=STORAGE_NODE_U, server_w=0.0, servers_per_rack=1)


def size_cluster(spec: DesignSpec) -> Sizing:
    """Counts and the cluster's price without the backend's addresses; raises what plan_cluster would."""
    if not has_networks(spec):
        return engine_plan._plan(spec, progress=None, address=False).sizing
    result = _cluster(spec, progress=None, address=False)
    sz = result.sizing
    sz.estimated_cost = cluster_totals(result)["total_cost"]
    return sz


def plan_cluster(spec: DesignSpec, *, progress: Progress | None = None) -> Plan:
    """The backend plan with every other network the spec asks for (Plan.networks)."""
    if not has_networks(spec):
        return engine_plan.plan(spec, progress=progress)
    return _cluster(spec, progress=progress, address=True)


def _cluster(spec: DesignSpec, *, progress: Progress | None, address: bool) -> Plan:
    report = progress or (lambda stage, percent: None)
    validate_networks(spec)
    grid = HallGrid(spec.layout)
    backend = engine_plan._plan(spec, progress=lambda stage, percent: report(stage, percent * 80 // 100),
                                address=address, grid=grid)
    report("networks", 80)
    devices = backend.devices
    servers = backend.servers
    base = len(devices)
    nodes = storage_nodes(spec, base=base, grid=grid)
    base += len(nodes)
    nets: dict[str, NetworkPlan] = {}
    server_row = np.array([d.row for d in devices[:servers]], dtype=np.int64)
    server_col = np.array([d.col for d in devices[:servers]], dtype=np.int64)
    server_u = np.array([d.rack_unit for d in devices[:servers]], dtype=np.int64)
    server_h = np.full(servers, max(1, spec.server.rack_units), dtype=np.int64)
    node_row = np.array([d.row for d in nodes], dtype=np.int64)
    node_col = np.array([d.col for d in nodes], dtype=np.int64)
    node_u = np.array([d.rack_unit for d in nodes], dtype=np.int64)
    node_h = np.full(len(nodes), STORAGE_NODE_U, dtype=np.int64)
    node_idx = np.array([d.index for d in nodes], dtype=np.int64)
    fe, st, oob = spec.frontend, spec.storage, spec.oob
    converged = st is not None and st.converged

    def endpoints(ports_per_server: int, with_nodes: bool) -> Endpoints:
        take_servers = ports_per_server > 0
        parts_dev = [np.arange(servers, dtype=np.int64)] if take_servers else []
        parts_row = [server_row] if take_servers else []
        parts_col = [server_col] if take_servers else []
        parts_ports = [np.full(servers, ports_per_server, dtype=np.int64)] if take_servers else []
        parts_u = [server_u] if take_servers else []
        parts_h = [server_h] if take_servers else []
        if with_nodes and len(nodes):
            parts_dev.append(node_idx)
            parts_row.append(node_row)
            parts_col.append(node_col)
            parts_ports.append(np.full(len(nodes), st.ports_per_node, dtype=np.int64))
            parts_u.append(node_u)
            parts_h.append(node_h)
        return Endpoints(device=np.concatenate(parts_dev), row=np.concatenate(parts_row),
                         col=np.concatenate(parts_col), ports=np.concatenate(parts_ports),
                         u=np.concatenate(parts_u), u_height=np.concatenate(parts_h),
                         servers=servers if take_servers else 0)

    if fe is not None:
        try:
            net = plan_fabric_network(
                spec, "frontend", endpoints=endpoints(fe.ports_per_server, converged), gbps=fe.gbps, leaf=fe.leaf,
                spine=fe.spine, oversubscription=fe.oversubscription, pools=fe.pools, switch_base=base, grid=grid)
        except SpecError as exc:
            raise _prefixed(exc, "frontend") from None
        nets["frontend"] = net
        base += len(net.devices)
    report("networks", 87)
    if st is not None:
        if converged:
            nets["storage"] = _converged_storage(spec, nodes)
        else:
            try:
                net = plan_fabric_network(
                    spec, "storage", endpoints=endpoints(st.ports_per_server, True), gbps=st.gbps, leaf=st.leaf,
                    spine=st.spine, oversubscription=st.oversubscription, pools=st.pools, switch_base=base,
                    grid=grid)
            except SpecError as exc:
                raise _prefixed(exc, "storage") from None
            net.devices[:0] = nodes
            nets["storage"] = net
            base += len(net.devices) - len(nodes)
    report("networks", 93)
    if oob is not None:
        managed_devices = list(devices) + nodes + [d for key in ("frontend", "storage") if key in nets
                                                    for d in nets[key].devices if d.role != "storage"]
        endpoint = np.array([d.role in ("server", "storage") for d in managed_devices])
        ports = np.array([d.ports for d in managed_devices], dtype=np.int64)
        managed = Managed(
            device=np.array([d.index for d in managed_devices], dtype=np.int64),
            row=np.array([d.row for d in managed_devices], dtype=np.int64),
            col=np.array([d.col for d in managed_devices], dtype=np.int64),
            u=np.array([d.rack_unit for d in managed_devices], dtype=np.int64),
            u_height=np.array([device_u_height(spec, d, nets) for d in managed_devices], dtype=np.int64),
            port=np.where(endpoint, PORT_BASE["oob"], ports),
            port_name=np.where(endpoint, "bmc", "mgmt0").astype(object),
            servers=servers, storage_nodes=len(nodes), switches=int((~endpoint).sum()),
        )
        net = plan_oob(spec, oob, managed=managed, switch_base=base, grid=grid)
        nets["oob"] = net
    backend.networks = nets
    backend.hall = place_hall(spec, backend, grid)
    add_hall_notes(backend)
    apply_structured_bom(spec, backend)
    report("networks", 100)
    return backend


def _converged_storage(spec: DesignSpec, nodes: list[Device]) -> NetworkPlan:
    """Storage on the front-end fabric: the nodes (if any) are front-end endpoints; nothing of its own to buy."""
    empty_i = np.zeros(0, dtype=np.int32)
    links = NetworkLinks(a_dev=empty_i, a_port=empty_i, a_port_name=np.zeros(0, dtype=object), b_dev=empty_i,
                         b_port=empty_i, b_port_name=np.zeros(0, dtype=object), tier=np.zeros(0, dtype=np.int8),
                         rail=np.zeros(0, dtype=np.int16), length_m=np.zeros(0, dtype=np.float32),
                         medium=np.zeros(0, dtype=np.int16), subnet=np.zeros(0, dtype=np.uint32),
                         a_ip=np.zeros(0, dtype=np.uint32), b_ip=np.zeros(0, dtype=np.uint32),
                         prefix=np.zeros(0, dtype=np.int8))
    return NetworkPlan(key="storage", devices=list(nodes), links=links, media=[], bom=[], subtotal=0.0, discount=0.0,
                       total_cost=0.0, spares_subtotal=0.0, power_typical_w=0.0, power_max_w=0.0,
                       in_server_typical_w=0.0, in_server_max_w=0.0, rack_units=0,
                       switches={"leaf": 0, "spine": 0, "core": 0},
                       links_by_tier={"server-leaf": 0, "leaf-spine": 0, "spine-core": 0}, pools={},
                       endpoints={"servers": 0, "storage_nodes": len(nodes)}, converged=True)


def cluster_totals(result: Plan) -> dict[str, float]:
    """The whole cluster's money and power: the backend's plus every other network's."""
    nets = list(result.networks.values())
    return {
        "subtotal": round(result.subtotal + sum(n.subtotal for n in nets), 2),
        "discount": round(result.discount + sum(n.discount for n in nets), 2),
        "total_cost": round(result.total_cost + sum(n.total_cost for n in nets), 2),
        "spares_subtotal": round(result.spares_subtotal + sum(n.spares_subtotal for n in nets), 2),
        "power_typical_w": result.power_typical_w + sum(n.power_typical_w for n in nets),
        "power_max_w": result.power_max_w + sum(n.power_max_w for n in nets),
        "in_server_typical_w": result.in_server_typical_w + sum(n.in_server_typical_w for n in nets),
        "in_server_max_w": result.in_server_max_w + sum(n.in_server_max_w for n in nets),
        "rack_units": result.rack_units + sum(n.rack_units for n in nets),
    }
