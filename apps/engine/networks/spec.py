"""What a design asks of its front-end, storage and out-of-band networks.

Rules (each a field-level SpecError / InfeasibleSpec naming the dotted field):
- frontend: every server brings `ports_per_server` ports of `gbps`; its leaf (and spine, default the
  leaf's model) run at `gbps`. `server_ports` is the server model's front-end port count (-1: not
  stated, an inline server): 0 means the model has none, so a front-end cannot be asked of it.
- storage: `nodes` storage nodes with `ports_per_node` ports and `ports_per_server` ports on each
  server, all at `gbps`, on a leaf-spine of their own; or `converged`: the nodes attach to the
  front-end fabric (they take its speed, and servers use their front-end ports for storage).
- oob: one management switch (`leaf`, 1G/10G) per rack with `uplinks` of its ports towards the
  aggregation switches (`spine`, default the leaf's model); every rack's devices must fit its ports.
  A management switch with an uplink group (48x1G + 4x10G) keeps all its access ports for devices and
  takes `uplinks` (1 to its uplink ports) from the group.
- switch classes: front-end and storage networks take front-end or fabric switches, the management
  network management or front-end switches (an inline switch of no stated class fits any); a leaf with
  an uplink group needs its own spine model whose ports run at the uplink speed.
- pools: each network has its own; no pool of any network may overlap another's, the backend's
  included (parse_cidr / the backend's AddressPools).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..messages import Message, MessageError, as_message, message
from ..spec import (CLASS_WORDS, MAX_OVERSUBSCRIPTION, AddressPools, DesignSpec, InfeasibleSpec, SpecError, SwitchHw,
                    parse_cidr, switch_label)
from ..spec import _check_int, _check_number, _check_switch  # one rule set for every switch and number
from . import messages as _messages  # noqa: F401  (registers the network.* templates)

NETWORKS = ("backend", "frontend", "storage", "oob")

FRONTEND_POOLS = AddressPools(host="10.48.0.0/14", p2p="10.52.0.0/14", loopback="10.56.0.0/16",
                              asn_base=4_200_100_000)
STORAGE_POOLS = AddressPools(host="10.64.0.0/14", p2p="10.68.0.0/14", loopback="10.72.0.0/16",
                             asn_base=4_200_200_000)


@dataclass(frozen=True, slots=True)
class OobPools:
    """Management addresses: one subnet per management switch from `host`; /31s for its uplinks from `p2p`."""

    host: str = "172.16.0.0/14"
    p2p: str = "172.20.0.0/16"


@dataclass(frozen=True, slots=True)
class FrontendSpec:
    ports_per_server: int
    gbps: int
    leaf: SwitchHw
    spine: SwitchHw | None = None
    oversubscription: float = 1.0
    pools: AddressPools = field(default_factory=lambda: FRONTEND_POOLS)
    server_ports: int = -1  # the server model's front-end ports; -1 = not stated

    @property
    def spine_hw(self) -> SwitchHw:
        return self.spine or self.leaf


@dataclass(frozen=True, slots=True)
class StorageSpec:
    nodes: int = 0
    ports_per_node: int = 2
    gbps: int = 0
    ports_per_server: int = 0
    leaf: SwitchHw | None = None
    spine: SwitchHw | None = None
    oversubscription: float = 1.0
    pools: AddressPools = field(default_factory=lambda: STORAGE_POOLS)
    converged: bool = False  # on the front-end fabric ("storage": "frontend")
    node_name: str = "storage node"

    @property
    def spine_hw(self) -> SwitchHw | None:
        return self.spine or self.leaf


@dataclass(frozen=True, slots=True)
class OobSpec:
    leaf: SwitchHw
    spine: SwitchHw | None = None
    uplinks: int = 2
    pools: OobPools = field(default_factory=OobPools)

    @property
    def spine_hw(self) -> SwitchHw:
        return self.spine or self.leaf


def _pool_list(spec: DesignSpec) -> list[tuple[str, str]]:
    """(field, cidr) of every address pool of every network the spec has."""
    out = [(f"pools.{name}", getattr(spec.pools, name)) for name in ("host", "p2p", "loopback")]
    for key in ("frontend", "storage"):
        net = getattr(spec, key, None)
        if net is not None and not getattr(net, "converged", False):
            out += [(f"{key}.pools.{name}", getattr(net.pools, name)) for name in ("host", "p2p", "loopback")]
    if getattr(spec, "oob", None) is not None:
        out += [(f"oob.pools.{name}", getattr(spec.oob.pools, name)) for name in ("host", "p2p")]
    return out


def validate_networks(spec: DesignSpec) -> None:
    """Raise SpecError naming every malformed field of frontend/storage/oob, then InfeasibleSpec
    for parts that cannot work together (speeds, a server without front-end ports, overlapping pools)."""
    errors: dict[str, list[Message]] = {}

    def bad(name: str, msg: Message) -> None:
        errors.setdefault(name, []).append(msg)

    fe, st, oob = spec.frontend, spec.storage, spec.oob
    if fe is not None:
        if not isinstance(fe, FrontendSpec):
            bad("frontend", message("spec.expected_object", type=type(fe).__name__))
            fe = None
        else:
            _check_int(bad, "frontend.ports_per_server", fe.ports_per_server, 1, 16)
            _check_int(bad, "frontend.gbps", fe.gbps, 1, 3200)
            _check_number(bad, "frontend.oversubscription", fe.oversubscription, 1.0, MAX_OVERSUBSCRIPTION,
                          hint=message("hint.oversubscription"))
            _check_int(bad, "frontend.server_ports", fe.server_ports, -1, 64)
            for role, hw in (("leaf", fe.leaf), ("spine", fe.spine)):
                if hw is not None:
                    _check_switch(bad, f"frontend.{role}", hw)
    if st is not None:
        if not isinstance(st, StorageSpec):
            bad("storage", message("spec.expected_object", type=type(st).__name__))
            st = None
        else:
            _check_int(bad, "storage.nodes", st.nodes, 0, 100_000)
            _check_int(bad, "storage.ports_per_node", st.ports_per_node, 1, 16)
            _check_int(bad, "storage.ports_per_server", st.ports_per_server, 0, 16)
            if not st.converged:
                _check_int(bad, "storage.gbps", st.gbps, 1, 3200)
                _check_number(bad, "storage.oversubscription", st.oversubscription, 1.0, MAX_OVERSUBSCRIPTION,
                              hint=message("hint.oversubscription"))
                if st.leaf is None:
                    bad("storage.leaf", message("spec.give_switch"))
                for role, hw in (("leaf", st.leaf), ("spine", st.spine)):
                    if hw is not None:
                        _check_switch(bad, f"storage.{role}", hw)
    if oob is not None:
        if not isinstance(oob, OobSpec):
            bad("oob", message("spec.expected_object", type=type(oob).__name__))
            oob = None
        else:
            for role, hw in (("leaf", oob.leaf), ("spine", oob.spine)):
                if hw is not None:
                    _check_switch(bad, f"oob.{role}", hw)
            if isinstance(oob.leaf, SwitchHw) and isinstance(oob.leaf.ports, int):
                group = oob.leaf.uplinks if isinstance(oob.leaf.uplinks, int) else 0
                high = group if group > 0 else max(1, oob.leaf.ports - 1)
                if not isinstance(oob.uplinks, int) or isinstance(oob.uplinks, bool) or not 1 <= oob.uplinks <= high:
                    code = "network.oob_uplink_group" if group > 0 else "network.oob_uplinks"
                    bad("oob.uplinks", message(code, high=high, value=repr(oob.uplinks)))
    nets = {}
    for name, cidr in _pool_list(spec):
        if name.startswith("pools."):
            continue  # the backend's own pools: DesignSpec.validate
        try:
            nets[name] = parse_cidr(cidr)
        except ValueError as exc:
            bad(name, exc.message if isinstance(exc, MessageError) else as_message(str(exc)))
    if errors:
        raise SpecError(errors)

    # Well-formed: do the parts work together?
    _class_checks(bad, fe, st, oob)
    server = spec.server
    server_name = server.name or server.sku or f"{server.gpus}-GPU server"
    if fe is not None:
        if fe.server_ports == 0:
            bad("frontend.ports_per_server", message("network.no_frontend_ports", server=server_name))
        elif 0 < fe.server_ports < fe.ports_per_server:
            bad("frontend.ports_per_server", message("network.too_many_ports", server=server_name,
                                                     available=fe.server_ports, ports=fe.ports_per_server))
        _speed_checks(bad, "frontend", fe.leaf, fe.spine, fe.gbps)
    if st is not None:
        if st.converged:
            if fe is None:
                bad("storage", message("network.converged_without_frontend"))
            if st.ports_per_server:
                bad("storage.ports_per_server", message("network.storage_converged_ports"))
        else:
            if not st.nodes and not st.ports_per_server:
                bad("storage.nodes", message("network.storage_empty"))
            _speed_checks(bad, "storage", st.leaf, st.spine, st.gbps)
    pools = _pool_list(spec)
    parsed = []
    for name, cidr in pools:
        try:
            parsed.append((name, cidr, parse_cidr(cidr)))
        except ValueError:
            continue  # the backend's own, reported by DesignSpec.validate
    for i, (name, cidr, (a0, alen)) in enumerate(parsed):
        for other, other_cidr, (b0, blen) in parsed[:i]:
            if name.startswith("pools.") and other.startswith("pools."):
                continue  # the backend's own: DesignSpec.validate
            if a0 < b0 + blen and b0 < a0 + alen:
                bad(name, message("network.pool_overlap", cidr=cidr, other=other, other_cidr=other_cidr))
                break
    if errors:
        raise InfeasibleSpec(errors)


def _speed_checks(bad, key: str, leaf: SwitchHw | None, spine: SwitchHw | None, gbps: int) -> None:
    """The leaf runs at the network's speed; the spine at it too, or at the uplink speed of a leaf with an
    uplink group (which then needs a spine model of its own)."""
    if leaf is not None and leaf.gbps != gbps:
        bad(f"{key}.leaf", message("network.speed", role="leaf", gbps=leaf.gbps, network_gbps=gbps))
    upper = leaf.uplink_gbps if leaf is not None and leaf.uplinks else gbps
    if leaf is not None and leaf.uplinks and spine is None:
        bad(f"{key}.spine", message("network.uplink_spine", uplink_gbps=upper))
    elif spine is not None and spine.gbps != upper:
        bad(f"{key}.spine", message("network.speed", role="spine", gbps=spine.gbps, network_gbps=upper))


# Classes each network takes; "" (not stated) fits any.
NETWORK_CLASSES = {"frontend": ("fabric", "frontend"), "storage": ("fabric", "frontend"),
                   "oob": ("management", "frontend")}
NETWORK_WORDS = {"frontend": "front-end", "storage": "storage", "oob": "out-of-band management"}
ALLOWED_WORDS = {"frontend": "front-end / storage or backend fabric", "storage": "front-end / storage or backend fabric",
                 "oob": "out-of-band management or front-end / storage"}


def _class_checks(bad, fe, st, oob) -> None:
    """A management switch cannot carry the front-end or storage network, nor a fabric switch the management one."""
    for key, net in (("frontend", fe), ("storage", st), ("oob", oob)):
        if net is None or getattr(net, "converged", False):
            continue
        for role in ("leaf", "spine"):
            hw = getattr(net, role)
            if not isinstance(hw, SwitchHw) or hw.switch_class in ("",) + NETWORK_CLASSES[key]:
                continue
            bad(f"{key}.{role}", message(
                "network.switch_class", switch=switch_label(hw),
                switch_class=CLASS_WORDS.get(hw.switch_class, hw.switch_class), network=NETWORK_WORDS[key],
                allowed=ALLOWED_WORDS[key]))


def has_networks(spec: DesignSpec) -> bool:
    return any(getattr(spec, key, None) is not None for key in ("frontend", "storage", "oob"))


__all__ = ["FrontendSpec", "StorageSpec", "OobSpec", "OobPools", "FRONTEND_POOLS", "STORAGE_POOLS", "NETWORKS",
           "validate_networks", "has_networks", "SpecError", "InfeasibleSpec"]
