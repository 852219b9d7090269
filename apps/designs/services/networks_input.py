"""The `networks` input: a design's front-end, storage and out-of-band networks, cleaned and turned into
the engine's FrontendSpec / StorageSpec / OobSpec (apps.engine.networks).

    "networks": {
      "frontend": {"switch": <catalog id>, "breakout": "2x400G", "spine_switch": <id>, "spine_breakout": "",
                   "ports_per_server": 2, "oversubscription": 1, "pools": {"host": ..., "p2p": ..., "loopback": ...,
                   "asn_base": ...}},
      "storage": {"mode": "fabric" | "converged" | "none", "nodes": 32, "ports_per_node": 2, "ports_per_server": 2,
                  "switch": <id>, "breakout": "", "spine_switch": <id>, "spine_breakout": "", "oversubscription": 1,
                  "pools": {...}},
      "oob": {"switch": <catalog id>, "ports": 48, "gbps": 1, "uplinks": 2,
              "pools": {"host": "172.16.0.0/14", "p2p": "172.20.0.0/16"}}
    }

Rules (errors on dotted names such as "networks.frontend.ports_per_server"):
- A network is present when its switch (front-end, storage fabric) or its management switch or ports
  (out-of-band) is given; an empty object or blank values leave it out.
- Out-of-band: either a management-class catalog switch (its access ports and speed are the switch's; a port
  count or speed given beside it must match them; uplinks at most its uplink group) or a generic switch of
  `ports` ports at `gbps`. Storage "converged" rides on the front-end.
- Front-end: the server model must have front-end ports, at least ports_per_server of them, and the
  breakout's port speed may not exceed the server's front-end speed (default: the first mode at it).
- Storage ports per server, or storage nodes, without a storage network (mode "none") are refused,
  as is "converged" without a front-end network.
- Pools: no pool of a network may overlap any pool of another network, the backend's included
  (its defaults when not given).
- The rest (a management switch with fewer ports than a rack needs, speeds of spines, pools too
  small) is the engine's refusal while the design is checked, mapped back onto these names.
"""
from __future__ import annotations

import dataclasses
import ipaddress
from typing import Any

from django.utils.translation import gettext as _

from apps.catalog.models import ServerModel, SwitchModel, parse_breakout
from apps.catalog.selectors import PriceConverter, switch_hw
from apps.engine.networks.spec import FRONTEND_POOLS, STORAGE_POOLS, FrontendSpec, OobPools, OobSpec, StorageSpec
from apps.engine.spec import MAX_ASN, MAX_OVERSUBSCRIPTION, AddressPools, SwitchHw

KEYS = ("frontend", "storage", "oob")
STORAGE_MODES = ("none", "fabric", "converged")
OOB_SPEEDS = (1, 10)
FABRIC_FIELDS = ("switch", "breakout", "spine_switch", "spine_breakout", "oversubscription", "pools")
FIELDS = {
    "frontend": FABRIC_FIELDS + ("ports_per_server",),
    "storage": FABRIC_FIELDS + ("mode", "nodes", "ports_per_node", "ports_per_server"),
    "oob": ("switch", "ports", "gbps", "uplinks", "pools"),
}
DEFAULT_POOLS = {"frontend": FRONTEND_POOLS, "storage": STORAGE_POOLS, "oob": OobPools()}


def _blank(value: Any) -> bool:
    return value in (None, "")


def networks_input_clean(errors, data: dict, *, server: ServerModel | None, backend_pools: dict,
                         number, catalog_item) -> dict[str, Any]:
    """The cleaned `networks` input (see the module rules); problems go to `errors` (inputs.Errors)."""
    value = data.get("networks")
    if _blank(value):
        return {}
    if not isinstance(value, dict):
        errors.add("networks", _("Give the other networks as an object, e.g. {\"frontend\": {...}}."))
        return {}
    out: dict[str, Any] = {}
    for key, raw in value.items():
        if key not in KEYS:
            errors.add(f"networks.{key}", _("Unknown network; use %(keys)s.") % {"keys": ", ".join(KEYS)})
            continue
        if _blank(raw) or raw == {}:
            continue
        if not isinstance(raw, dict):
            errors.add(f"networks.{key}", _("Give the %(network)s network as an object.") % {"network": key})
            continue
        for name in raw:
            if name not in FIELDS[key]:
                errors.add(f"networks.{key}.{name}", _("Unknown setting; use %(keys)s.")
                           % {"keys": ", ".join(FIELDS[key])})

    def int_of(key: str, raw: dict, name: str, default, low: int, high: int):
        return number(errors, {f"networks.{key}.{name}": raw.get(name)}, f"networks.{key}.{name}", default, kind=int,
                      low=low, high=high, low_message=_("Must be at least %(low)s.") % {"low": low},
                      high_message=_("Must be at most %(high)s.") % {"high": high})

    def fabric(key: str, raw: dict, speed_default: int | None) -> dict[str, Any] | None:
        where = f"networks.{key}"
        switch = catalog_item(errors, {f"{where}.switch": raw.get("switch")}, f"{where}.switch", SwitchModel)
        spine = (catalog_item(errors, {f"{where}.spine_switch": raw.get("spine_switch")}, f"{where}.spine_switch",
                              SwitchModel, required=False) if not _blank(raw.get("spine_switch")) else None)
        for name, model in ((f"{where}.switch", switch), (f"{where}.spine_switch", spine)):
            if model is not None and model.switch_class == "management":
                errors.add(name, _("%(switch)s is an out-of-band management switch; the front-end and storage "
                                   "networks take front-end / storage or backend fabric switches.")
                           % {"switch": model.model})
        breakout = _breakout(errors, f"{where}.breakout", switch, raw.get("breakout"), speed_default)
        # A leaf with an uplink group reaches its spines at the uplink speed (a 25G leaf's 100G uplinks).
        spine_speed = (switch.uplink_gbps if switch is not None and switch.uplink_cages
                       else parse_breakout(breakout)[1] if breakout else speed_default)
        spine_breakout = _breakout(errors, f"{where}.spine_breakout", spine, raw.get("spine_breakout"), spine_speed)
        over = number(errors, {f"{where}.oversubscription": raw.get("oversubscription")}, f"{where}.oversubscription",
                      1.0, kind=float, low=1, high=MAX_OVERSUBSCRIPTION,
                      low_message=_("Oversubscription is a ratio o:1 with o at least 1 (1 = non-blocking)."),
                      high_message=_("At most %(max)s:1.") % {"max": MAX_OVERSUBSCRIPTION})
        pools = _pools(errors, raw.get("pools"), where, AddressPools, number)
        if switch is None or breakout is None:
            return None
        return {"switch": switch.pk, "breakout": breakout, "spine_switch": spine.pk if spine else None,
                "spine_breakout": spine_breakout or "", "oversubscription": over or 1.0, "pools": pools,
                "_switch": switch, "_spine": spine}

    fe_raw = value.get("frontend") if isinstance(value.get("frontend"), dict) else {}
    if fe_raw and not all(_blank(v) for v in fe_raw.values()):
        where = "networks.frontend"
        available = server.frontend_ports if server is not None else None
        speed = server.frontend_gbps if server is not None and server.frontend_gbps else None
        ports = int_of("frontend", fe_raw, "ports_per_server", min(2, available) if available else 2, 1, 16)
        if server is not None and not available:
            errors.add(f"{where}.ports_per_server", _(
                "%(server)s has no front-end ports: choose a server model with front-end ports, or leave the "
                "front-end network out.") % {"server": server.model})
        elif ports and available and ports > available:
            errors.add(f"{where}.ports_per_server", _("%(server)s has %(available)s front-end ports, not %(ports)s.")
                       % {"server": server.model, "available": available, "ports": ports})
        cleaned = fabric("frontend", fe_raw, speed)
        if cleaned is not None:
            gbps = parse_breakout(cleaned["breakout"])[1]
            if speed and gbps > speed:
                errors.add(f"{where}.breakout", _(
                    "%(server)s's front-end ports run at %(speed)s Gb/s; %(mode)s runs ports at %(gbps)s Gb/s.")
                    % {"server": server.model, "speed": speed, "mode": cleaned["breakout"], "gbps": gbps})
            cleaned.update(ports_per_server=ports, gbps=gbps)
            out["frontend"] = cleaned

    st_raw = value.get("storage") if isinstance(value.get("storage"), dict) else {}
    if st_raw and not all(_blank(v) for v in st_raw.values()):
        where = "networks.storage"
        mode = st_raw.get("mode")
        if _blank(mode):
            mode = "fabric" if not _blank(st_raw.get("switch")) else "none"
        if mode not in STORAGE_MODES:
            errors.add(f"{where}.mode", _("Choose one of: %(choices)s.") % {"choices": ", ".join(STORAGE_MODES)})
            mode = None
        nodes = int_of("storage", st_raw, "nodes", 0, 0, 100_000)
        per_node = int_of("storage", st_raw, "ports_per_node", 2, 1, 16)
        per_server = int_of("storage", st_raw, "ports_per_server", 0, 0, 16)
        if mode == "none":
            if per_server:
                errors.add(f"{where}.ports_per_server", _(
                    "Storage ports per server need a storage network: choose a storage switch, or storage converged "
                    "onto the front-end."))
            if nodes:
                errors.add(f"{where}.nodes", _("Storage nodes need a storage network: choose a storage switch, or "
                                               "storage converged onto the front-end."))
        elif mode == "converged":
            if "frontend" not in out and "networks.frontend.switch" not in errors:
                errors.add(f"{where}.mode", _("Storage converged onto the front-end needs a front-end network."))
            if per_server:
                errors.add(f"{where}.ports_per_server", _(
                    "Converged storage uses the front-end ports; leave storage ports per server at 0."))
            out["storage"] = {"mode": "converged", "nodes": nodes or 0, "ports_per_node": per_node or 2}
        elif mode == "fabric":
            cleaned = fabric("storage", st_raw, None)
            if not nodes and not per_server and f"{where}.nodes" not in errors:
                errors.add(f"{where}.nodes", _("Give storage nodes, storage ports per server, or both."))
            if cleaned is not None:
                cleaned.update(mode="fabric", nodes=nodes or 0, ports_per_node=per_node or 2,
                               ports_per_server=per_server or 0, gbps=parse_breakout(cleaned["breakout"])[1])
                out["storage"] = cleaned

    oob_raw = value.get("oob") if isinstance(value.get("oob"), dict) else {}
    if oob_raw and not all(_blank(v) for k, v in oob_raw.items() if k != "gbps"):
        where = "networks.oob"
        switch = None
        if not _blank(oob_raw.get("switch")):
            switch = catalog_item(errors, {f"{where}.switch": oob_raw.get("switch")}, f"{where}.switch", SwitchModel)
            if switch is not None and switch.switch_class != "management":
                errors.add(f"{where}.switch", _(
                    "%(switch)s is not a management switch; choose a management-class switch for the out-of-band "
                    "network.") % {"switch": switch.model})
                switch = None
        ports = int_of("oob", oob_raw, "ports", None, 4, 1024) if not _blank(oob_raw.get("ports")) else None
        gbps = (int_of("oob", oob_raw, "gbps", 1, 1, 10) if switch is None or not _blank(oob_raw.get("gbps"))
                else switch.cage_gbps)
        if switch is not None:
            if ports is not None and ports != switch.cages:
                errors.add(f"{where}.ports", _(
                    "%(switch)s has %(cages)s management ports; leave the port count empty or choose another "
                    "switch.") % {"switch": switch.model, "cages": switch.cages})
            if gbps is not None and gbps != switch.cage_gbps:
                errors.add(f"{where}.gbps", _("%(switch)s's ports run at %(speed)s Gb/s.")
                           % {"switch": switch.model, "speed": switch.cage_gbps})
            ports, gbps = switch.cages, switch.cage_gbps
        elif ports is None and f"{where}.ports" not in errors and f"{where}.switch" not in errors:
            errors.add(f"{where}.ports", _("Give the management switch's port count (e.g. 48), or choose a "
                                           "management switch."))
        if switch is None and gbps is not None and gbps not in OOB_SPEEDS:
            errors.add(f"{where}.gbps", _("Choose 1 or 10 Gb/s."))
        most = switch.uplink_cages if switch is not None and switch.uplink_cages else max(1, (ports or 2) - 1)
        uplinks = int_of("oob", oob_raw, "uplinks", min(2, most), 1, most)
        pools = _pools(errors, oob_raw.get("pools"), where, OobPools, number)
        if ports and gbps and uplinks:
            out["oob"] = {"ports": ports, "gbps": gbps, "uplinks": uplinks, "pools": pools}
            if switch is not None:
                out["oob"].update(switch=switch.pk, _switch=switch)

    _pools_overlap(errors, out, backend_pools)
    return out


def _breakout(errors, name: str, switch: SwitchModel | None, value: Any, gbps: int | None) -> str | None:
    if switch is None:
        return None
    modes = list(switch.breakouts or [])
    if _blank(value):
        matching = [m for m in modes if gbps is not None and parse_breakout(m)[1] == gbps]
        return matching[0] if matching else (modes[0] if modes else "")
    value = str(value).strip()
    if value not in modes:
        errors.add(name, _("%(switch)s does not offer breakout %(mode)s; choose one of %(modes)s.")
                   % {"switch": switch.model, "mode": value, "modes": ", ".join(modes)})
        return None
    return value


def _pools(errors, value: Any, where: str, cls, number) -> dict[str, Any]:
    if _blank(value):
        return {}
    if not isinstance(value, dict):
        errors.add(f"{where}.pools", _("Give the address pools as an object, e.g. {\"host\": \"10.48.0.0/14\"}."))
        return {}
    known = [f.name for f in dataclasses.fields(cls)]
    out: dict[str, Any] = {}
    for key, raw in value.items():
        name = f"{where}.pools.{key}"
        if key not in known:
            errors.add(name, _("Unknown address pool; use %(keys)s.") % {"keys": ", ".join(known)})
        elif _blank(raw):
            continue
        elif key == "asn_base":
            asn = number(errors, {name: raw}, name, None, kind=int, low=1, high=MAX_ASN,
                         low_message=_("An ASN is at least 1."),
                         high_message=_("An ASN is at most %(max)s.") % {"max": MAX_ASN})
            if asn is not None:
                out[key] = asn
        else:
            try:
                network = ipaddress.ip_network(str(raw).strip(), strict=True)
            except ValueError:
                errors.add(name, _("Give an IPv4 network such as 10.0.0.0/16 (host bits zero)."))
                continue
            if network.version != 4:
                errors.add(name, _("Only IPv4 pools are supported."))
                continue
            out[key] = str(network)
    return out


def effective_pools(key: str, cleaned: dict) -> dict[str, str]:
    """A network's pools (CIDRs only) with its defaults for those not given."""
    defaults = dataclasses.asdict(DEFAULT_POOLS[key])
    return {name: cleaned.get("pools", {}).get(name, cidr) for name, cidr in defaults.items() if name != "asn_base"}


def _pools_overlap(errors, networks: dict, backend_pools: dict) -> None:
    backend = {f.name: backend_pools.get(f.name, f.default) for f in dataclasses.fields(AddressPools)
               if f.name != "asn_base"}
    seen = [(f"pools.{name}", cidr) for name, cidr in backend.items()]
    for key in KEYS:
        cleaned = networks.get(key)
        if cleaned is None or cleaned.get("mode") == "converged":
            continue
        for name, cidr in effective_pools(key, cleaned).items():
            field_name = f"networks.{key}.pools.{name}"
            if field_name in errors:
                continue
            net = ipaddress.ip_network(cidr)
            for other, other_cidr in seen:
                if other.startswith(f"networks.{key}.") or other in errors:
                    continue
                if net.overlaps(ipaddress.ip_network(other_cidr)):
                    errors.add(field_name, _("%(pool)s overlaps the %(other)s pool %(net)s.")
                               % {"pool": cidr, "other": other, "net": other_cidr})
                    break
            seen.append((field_name, cidr))


def networks_stored(networks: dict) -> dict:
    """What a version stores (catalog rows as ids)."""
    return {key: {k: v for k, v in value.items() if not k.startswith("_")} for key, value in networks.items()}


def networks_spec(networks: dict, *, server: ServerModel, prices: PriceConverter | None) -> dict[str, Any]:
    """{"frontend": FrontendSpec, "storage": StorageSpec, "oob": OobSpec} for DesignSpec (absent ones left out)."""
    out: dict[str, Any] = {}

    def switches(cleaned: dict) -> tuple[SwitchHw, SwitchHw | None]:
        leaf_model = cleaned.get("_switch") or SwitchModel.objects.select_related("manufacturer").get(
            pk=cleaned["switch"])
        leaf = switch_hw(switch=leaf_model, breakout=cleaned["breakout"], prices=prices)
        spine = None
        if cleaned.get("spine_switch"):
            spine_model = cleaned.get("_spine") or SwitchModel.objects.select_related("manufacturer").get(
                pk=cleaned["spine_switch"])
            spine = switch_hw(switch=spine_model, breakout=cleaned["spine_breakout"], prices=prices)
        return leaf, spine

    fe = networks.get("frontend")
    if fe:
        leaf, spine = switches(fe)
        out["frontend"] = FrontendSpec(
            ports_per_server=fe["ports_per_server"], gbps=fe["gbps"], leaf=leaf, spine=spine,
            oversubscription=float(fe["oversubscription"]),
            pools=dataclasses.replace(FRONTEND_POOLS, **fe.get("pools", {})), server_ports=int(server.frontend_ports))
    st = networks.get("storage")
    if st:
        if st.get("mode") == "converged":
            out["storage"] = StorageSpec(converged=True, nodes=st.get("nodes", 0), ports_per_node=st.get(
                "ports_per_node", 2))
        else:
            leaf, spine = switches(st)
            out["storage"] = StorageSpec(
                nodes=st["nodes"], ports_per_node=st["ports_per_node"], gbps=st["gbps"],
                ports_per_server=st["ports_per_server"], leaf=leaf, spine=spine,
                oversubscription=float(st["oversubscription"]),
                pools=dataclasses.replace(STORAGE_POOLS, **st.get("pools", {})))
    oob = networks.get("oob")
    if oob:
        if oob.get("switch"):
            model = oob.get("_switch") or SwitchModel.objects.select_related("manufacturer").get(pk=oob["switch"])
            modes = [m for m in (model.breakouts or []) if parse_breakout(m)[1] == model.cage_gbps]
            leaf = switch_hw(switch=model, breakout=(modes or model.breakouts or [""])[0], prices=prices)
        else:
            # No catalog model: neither its power nor its price is known; the BOM and the hall name it as missing.
            leaf = SwitchHw(ports=oob["ports"], gbps=oob["gbps"], form_factor="RJ45",
                            name=f"{oob['ports']}-port {oob['gbps']}G management switch", power_typical_w=None,
                            power_max_w=None)
        out["oob"] = OobSpec(leaf=leaf, uplinks=oob["uplinks"],
                             pools=dataclasses.replace(OobPools(), **oob.get("pools", {})))
    return out
