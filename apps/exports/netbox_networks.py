"""The NetBox rows of the cluster's other networks (front-end, storage, out-of-band), added to the
same CSV files as the backend's (apps.exports.netbox).

Rules:
- Roles of their own, so an inventory tells the networks apart: "Front-end leaf switch",
  "Storage spine switch", "Management switch", "Management aggregation switch", "Storage node".
- Device types: a front-end or storage switch is its catalog model (by SKU); a management switch
  entered by port count and a storage node are of the manufacturer "Generic", the model as the design
  names it (no catalog part number).
- Interfaces: every used port of those networks (servers' fe*, st* and bmc ports too; a device's port
  into the out-of-band network is management-only), typed from the
  switch's speed and cage (the server end of a front-end or storage link "other": the catalog does
  not say its cage; management ports 1000base-t / 10gbase-t).
- Cables: one per link; copper management cords are cat6a; addresses as the design gives them,
  with the subnet's prefix (/31s; the management subnet of the rack).
- Their pools are prefixes in the design's VRF; the front-end and storage switches' loopbacks are
  addresses on a Loopback0 interface, their ASNs (their own RFC 7938 plan) ASN rows.
- A management switch's own address in its rack's subnet (the gateway of every device cabled to it)
  is one address on one interface, its management SVI (virtual interface `Vlan1`), never one copy per
  access port: NetBox refuses a duplicate address in the design's VRF.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.text import slugify

from apps.catalog.models import SwitchModel
from apps.designs.models import DesignVersion, PortRecord, record_id_range

from .selectors import version_network_device_rows, version_network_link_rows, version_network_port_count

NETWORKS = ("frontend", "storage", "oob")
LABELS = {"frontend": "Front-end", "storage": "Storage", "oob": "Management"}
COLORS = {"frontend": "00bcd4", "storage": "795548", "oob": "607d8b"}
COPPER_TYPES = {1: "1000base-t", 10: "10gbase-t"}
SVI = "Vlan1"  # a management switch's interface for its own address in the rack's subnet
LOOPBACK = "Loopback0"
POOL_DESCRIPTIONS = {
    "host": "host pool",
    "p2p": "switch-to-switch pool: one /31 per link",
    "loopback": "loopback pool: one /32 per switch",
}


def network_role(network: str, role: str) -> tuple[str, str, str]:
    """(name, slug, colour) of a NetBox device role for a device of `network`."""
    if role == "storage":
        return "Storage node", "storage-node", COLORS["storage"]
    if network == "oob":
        name = "Management switch" if role == "leaf" else "Management aggregation switch"
    else:
        name = f"{LABELS[network]} {role} switch"
    return name, slugify(name), COLORS[network]


class NetworkRows:
    """Everything the other networks add to the NetBox files of one version (read once)."""

    def __init__(self, version: DesignVersion, *, device_type_of, generic_type, interface_type, cable_type):
        self.version = version
        self.present = [n for n in NETWORKS if n in ((version.summary or {}).get("networks") or {})]
        self.devices: list[tuple] = []  # (network, name, role, sku, model, rack, unit, ports, loopback, asn)
        for network in self.present:
            for row in version_network_device_rows(version=version, network=network, fields=(
                    "name", "role", "sku", "model", "rack", "rack_unit", "ports", "loopback", "asn")):
                self.devices.append((network, *row))
        skus = {row[3] for row in self.devices if row[3]}
        models = {m.sku: m for m in SwitchModel.objects.select_related("manufacturer").filter(sku__in=skus)}
        self.types: dict[tuple[str, str], Any] = {}
        self.type_of: dict[str, Any] = {}
        for network, name, role, sku, model, *_rest in self.devices:
            if sku in models:
                device_type = device_type_of(models[sku], network)
            else:
                device_type = generic_type(model or name, 2 if role == "storage" else 1)
            self.type_of[name] = device_type
            self.types.setdefault((device_type.manufacturer, device_type.slug), device_type)
        self.switch_speed = {m.sku: m for m in models.values()}
        # Management switches whose own address is their rack subnet's gateway (an SVI, not a port).
        self.svi_address = {name: loopback for network, name, role, *_rest, loopback, _asn in self.devices
                            if network == "oob" and role == "leaf" and loopback}
        # Front-end and storage switches: a loopback and an ASN each (their own eBGP plan).
        self.loopbacks = {name: loopback for network, name, role, *_rest, loopback, _asn in self.devices
                          if network != "oob" and role != "storage" and loopback}
        self.asns = {name: asn for network, name, role, *_rest, asn in self.devices
                     if network != "oob" and role != "storage" and asn}
        self.interface_type = interface_type
        self.cable_type = cable_type

    def roles(self) -> list[tuple[str, str, str]]:
        return list(dict.fromkeys(network_role(n, r) for n, _name, r, *_rest in self.devices))

    def device_rows(self, site: str, origin: str) -> Iterable[tuple]:
        for network, name, role, _sku, _model, rack, unit, _ports, _loopback, _asn in self.devices:
            device_type = self.type_of[name]
            yield (name, network_role(network, role)[0], device_type.manufacturer, device_type.model, "planned", site,
                   rack, unit if rack and unit else "", "front" if rack and unit else "",
                   f"{origin}, {LABELS[network].lower()} network"[:200])

    def interface_rows(self) -> Iterable[tuple]:
        gbps = {n: int((((self.version.summary or {}).get("networks") or {}).get(n) or {}).get("gbps") or 0)
                for n in self.present}
        for network in self.present:
            first, last = record_id_range(self.version.pk, network)
            rows = (PortRecord.objects.filter(version=self.version, pk__gte=first, pk__lte=last)
                    .order_by("pk").values_list("device__name", "device__role", "device__network", "name",
                                                "speed_gbps").iterator(chunk_size=10_000))
            for device, role, device_network, port, speed in rows:
                speed = speed or gbps[network]
                if network == "oob":
                    kind = COPPER_TYPES.get(int(speed), "other")
                elif role in ("server", "storage") or device_network != network:
                    kind = "other"
                else:
                    kind = self.interface_type(speed, "OSFP")
                # a device's port into the out-of-band network (a server's bmc, a switch's mgmt0) is its
                # management-only port; the management switches' own ports are ordinary ones
                management = network == "oob" and device_network != "oob"
                yield device, port, kind, int(speed) * 1_000_000, "true" if management else "false"
        for device in self.svi_address:
            yield device, SVI, "virtual", "", "false"
        for device in self.loopbacks:
            yield device, LOOPBACK, "virtual", "", "false"

    def interface_count(self) -> int:
        """The rows interface_rows yields."""
        return (sum(version_network_port_count(version=self.version, network=n) for n in self.present)
                + len(self.svi_address) + len(self.loopbacks))

    def asn_holders(self) -> list[tuple[str, int]]:
        """(device, ASN) of the front-end and storage switches (their own eBGP plan, RFC 7938)."""
        return [(name, int(asn)) for name, asn in self.asns.items()]

    def prefix_rows(self) -> Iterable[tuple]:
        """(prefix, status, is_pool, description) of every pool of the other networks."""
        networks = (self.version.summary or {}).get("networks") or {}
        for network in self.present:
            pools = (networks.get(network) or {}).get("pools") or {}
            for name in ("host", "p2p", "loopback"):
                cidr = (pools.get(name) or {}).get("cidr")
                if cidr:
                    yield cidr, "reserved", "true", f"{LABELS[network]} network: {POOL_DESCRIPTIONS[name]}"

    def cable_rows(self, names: dict[int, str], *, counts: dict[str, int] | None = None) -> Iterable[tuple]:
        """One cable row per link of each network; `counts` (network -> rows) counts them as they go by."""
        counts = {} if counts is None else counts
        for network in self.present:
            counts.setdefault(network, 0)
            for a, a_port, b, b_port, kind, fiber, label, length in version_network_link_rows(
                    version=self.version, network=network,
                    fields=("a_device_id", "a_port", "b_device_id", "b_port", "medium_kind", "fiber", "label_a",
                            "length_m")):
                cable = "cat6a" if kind == "Cat6A" else self.cable_type(kind, fiber)
                counts[network] += 1
                yield (names[a], "dcim.interface", a_port, names[b], "dcim.interface", b_port, cable, "planned",
                       label[:100], "", "" if length is None else f"{length:g}", "m")

    def address_rows(self, names: dict[int, str]) -> Iterable[tuple]:
        svi_written: set[str] = set()
        for device, address in self.loopbacks.items():
            yield f"{address}/32", "reserved", "loopback", device, LOOPBACK, "loopback"
        for network in self.present:
            for a, a_port, a_ip, b, b_port, b_ip, subnet in version_network_link_rows(
                    version=self.version, network=network,
                    fields=("a_device_id", "a_port", "a_ip", "b_device_id", "b_port", "b_ip", "subnet")):
                prefix = subnet.rsplit("/", 1)[-1] if "/" in (subnet or "") else "32"
                for device, port, address in ((names[a], a_port, a_ip), (names[b], b_port, b_ip)):
                    if not address:
                        continue
                    if self.svi_address.get(device) == address:
                        if device in svi_written:
                            continue
                        svi_written.add(device)
                        port = SVI
                    yield f"{address}/{prefix}", "reserved", "", device, port, LABELS[network]
