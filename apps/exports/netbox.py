"""NetBox handover: a zip of CSV files in NetBox's bulk-import format, so a won deal becomes inventory.

Files, in import order (README.txt in the zip says the same to whoever imports them):
  1 manufacturers.csv  name, slug
  2 device_roles.csv   name, slug, color
  3 sites.csv          name, slug, status                  (one site per project)
  4 racks.csv          site, name, status, width, u_height
  5 device_types.csv   manufacturer, model, slug, part_number, u_height, is_full_depth, airflow
  6 devices.csv        name, role, manufacturer, device_type, status, site, rack, position, face,
                       description
  7 interfaces.csv     device, name, type, speed           (every logical port, plus Loopback0)
  8 cables.csv         side_a_device, side_a_type, side_a_name, side_b_device, side_b_type,
                       side_b_name, type, status, label, color, length, length_unit
  9 ip_addresses.csv   address, status, role, device, interface, description

Rules:
- Objects refer to each other by name (NetBox's CSV import resolves names), never by id.
- A text field that starts with =, +, -, @, TAB, CR or NUL (a customer, project, design or
  catalog name) is written with a leading "'" (OWASP CSV Injection), so a spreadsheet shows it
  as text instead of running it; names the engine generates never start with one of those.
- Devices, racks and sites are "planned"; cables too; addresses "reserved" until the fabric is up.
- Device types carry no interface templates: interfaces.csv creates every logical port with
  the name the design uses (servers eth0..; switches SONiC "Ethernet{first lane}", so a
  2x400G cage gives Ethernet0 and Ethernet4), which is what cables.csv terminates on.
- Interface types are NetBox's slugs for (speed, cage): a 400G port of an 800G OSFP cage in
  2x400G is 400gbase-x-osfp; a speed a cage has no NetBox type for is "other".
- Cable types are NetBox's slugs: passive DAC -> dac-passive, ACC and AEC -> dac-active, AOC ->
  aoc, multimode optics -> mmf-om4, single-mode optics -> smf-os2. One cable row per link: a
  1:2 splitter or a twin-port assembly (one BOM item) is two NetBox cables, one per leg.
- The cluster's other networks (front-end, storage, out-of-band) are in the same files, with roles
  of their own (apps.exports.netbox_networks).
- ASNs stay in the workbook (NetBox ASNs need an RIR the customer chooses).
- Spares (BOM lines, stock on a shelf) are not devices: they never appear in these files.
- InfiniBand designs: every port (HCA and switch) is typed with NetBox's InfiniBand slug for
  its speed (400G NDR -> infiniband-ndr, 200G -> infiniband-hdr, 800G -> infiniband-xdr,
  100G -> infiniband-edr); switches get no Loopback0, and ip_addresses.csv holds only the
  hosts' IPoIB addresses (prefix of the host pool): the subnet manager assigns LIDs and routes.
"""
from __future__ import annotations

import csv
import io
import zipfile
from itertools import chain
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from django.utils import timezone
from django.utils.text import slugify

from apps.designs.models import DesignVersion, Role
from apps.designs.workbook import zip_entry
from apps.engine import names as engine_names
from apps.engine.safe_text import comment_text, csv_text
from apps.engine.specio import spec_from_dict

from .netbox_networks import NetworkRows
from .selectors import (version_cluster_device_map, version_device_map, version_device_rows, version_link_count,
                        version_link_rows)

Progress = Callable[[str, int], None]

FILES = (
    "manufacturers.csv", "device_roles.csv", "sites.csv", "racks.csv", "device_types.csv", "devices.csv",
    "interfaces.csv", "cables.csv", "ip_addresses.csv",
)
HEADERS: dict[str, tuple[str, ...]] = {
    "manufacturers.csv": ("name", "slug"),
    "device_roles.csv": ("name", "slug", "color"),
    "sites.csv": ("name", "slug", "status"),
    "racks.csv": ("site", "name", "status", "width", "u_height"),
    "device_types.csv": ("manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth", "airflow"),
    "devices.csv": ("name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face",
                    "description"),
    "interfaces.csv": ("device", "name", "type", "speed"),
    "cables.csv": ("side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
                   "type", "status", "label", "color", "length", "length_unit"),
    "ip_addresses.csv": ("address", "status", "role", "device", "interface", "description"),
}

# NetBox dcim InterfaceTypeChoices for (Gb/s, cage form factor).
INTERFACE_TYPES: dict[tuple[int, str], str] = {
    (25, "SFP28"): "25gbase-x-sfp28",
    (50, "SFP56"): "50gbase-x-sfp56",
    (100, "QSFP28"): "100gbase-x-qsfp28",
    (100, "QSFP-DD"): "100gbase-x-qsfpdd",
    (200, "QSFP56"): "200gbase-x-qsfp56",
    (200, "QSFP-DD"): "200gbase-x-qsfpdd",
    (400, "QSFP112"): "400gbase-x-qsfp112",
    (400, "QSFP-DD"): "400gbase-x-qsfpdd",
    (400, "OSFP"): "400gbase-x-osfp",
    (800, "QSFP-DD"): "800gbase-x-qsfpdd",
    (800, "OSFP"): "800gbase-x-osfp",
}
# NetBox dcim CableTypeChoices per engine medium kind (copper and AOC) or fibre (optics).
CABLE_TYPES = {"DAC": "dac-passive", "ACC": "dac-active", "AEC": "dac-active", "AOC": "aoc"}
FIBER_CABLE_TYPES = {"MMF": "mmf-om4", "SMF": "smf-os2"}
INTERFACE = "dcim.interface"
LOOPBACK = "Loopback0"
RACK_UNITS_DEFAULT = 48  # engine.spec.RackLayout.rack_units, for versions stored before it was an input
ROLES = {
    Role.SERVER: ("GPU server", "gpu-server", "4caf50"),
    Role.LEAF: ("Leaf switch", "leaf-switch", "2196f3"),
    Role.SPINE: ("Spine switch", "spine-switch", "9c27b0"),
    Role.CORE: ("Core switch", "core-switch", "ff9800"),
}


INFINIBAND_TYPES = {100: "infiniband-edr", 200: "infiniband-hdr", 400: "infiniband-ndr", 800: "infiniband-xdr"}


def interface_type(gbps: int, form_factor: str, *, infiniband: bool = False) -> str:
    if infiniband:
        return INFINIBAND_TYPES.get(int(gbps), "other")
    return INTERFACE_TYPES.get((int(gbps), (form_factor or "").upper()), "other")


def cable_type(kind: str, fiber: str) -> str:
    return CABLE_TYPES.get(kind) or FIBER_CABLE_TYPES.get(fiber, "")


def _length(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


@dataclass(frozen=True)
class DeviceType:
    manufacturer: str
    manufacturer_slug: str
    model: str
    slug: str
    part_number: str
    u_height: int


@dataclass(frozen=True)
class PortPlan:
    """How a role's logical ports are named and typed."""

    count: int
    step: int  # name = prefix + str(port * step)
    prefix: str
    type: str
    speed_kbps: int
    loopback: bool = True  # a switch's Loopback0 (not on InfiniBand)

    def names(self, count: int | None = None) -> Iterable[str]:
        return (f"{self.prefix}{port * self.step}" for port in range(self.count if count is None else count))


def _device_type(item: Any) -> DeviceType:
    manufacturer = item.manufacturer
    return DeviceType(
        manufacturer=manufacturer.name,
        manufacturer_slug=manufacturer.slug or slugify(manufacturer.name) or f"manufacturer-{manufacturer.pk}",
        model=item.model,
        slug=slugify(f"{manufacturer.name}-{item.model}")[:100] or f"device-type-{item.pk}",
        part_number=item.sku,
        u_height=int(item.rack_units),
    )


def _generic_type(model: str, u_height: int) -> DeviceType:
    """A device without a catalog model (a management switch given by its ports, a storage node)."""
    return DeviceType(manufacturer="Generic", manufacturer_slug="generic", model=model[:100],
                      slug=slugify(f"generic-{model}")[:100] or "generic-device", part_number="", u_height=u_height)


def _port_plans(version: DesignVersion) -> dict[str, PortPlan]:
    spec = spec_from_dict(version.spec)
    nic = spec.nic_hw
    ib = spec.infiniband
    plans = {
        Role.SERVER: PortPlan(spec.rails, 1, "eth",
                              interface_type(spec.port_gbps, nic.form_factor, infiniband=ib),
                              spec.port_gbps * 1_000_000),
    }
    for role in (Role.LEAF, Role.SPINE, Role.CORE):
        hw = spec.switch_hw(role.value)
        plans[role] = PortPlan(hw.ports, engine_names.lanes_per_port(hw), "Ethernet",
                               interface_type(hw.gbps, hw.form_factor, infiniband=ib), hw.gbps * 1_000_000,
                               loopback=not ib)
    return plans


def _site(version: DesignVersion) -> tuple[str, str]:
    project = version.design.project
    name = f"{project.customer.name} - {project.name}"[:100]
    return name, slugify(name)[:100] or f"fabricweb-project-{project.pk}"


def _csv_entry(archive: zipfile.ZipFile, name: str, rows: Iterable[Sequence[Any]]) -> int:
    count = 0
    with archive.open(zip_entry(name), "w", force_zip64=True) as raw, \
            io.TextIOWrapper(raw, encoding="utf-8", newline="") as text:
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(HEADERS[name])
        for row in rows:
            writer.writerow([csv_text(value) for value in row])
            count += 1
    return count


def version_netbox_write(
    *, version: DesignVersion, path_or_stream: str | IO[bytes], progress: Progress | None = None, user: Any = None
) -> dict[str, int]:
    """Write the NetBox import zip of a generated version; returns rows written per file."""
    report = progress or (lambda stage, percent: None)
    version = DesignVersion.objects.select_related(
        "design__project__customer", "server__manufacturer", "leaf_switch__manufacturer",
        "spine_switch__manufacturer", "core_switch__manufacturer",
    ).get(pk=version.pk)
    report("reading_devices", 5)
    types = {
        Role.SERVER: _device_type(version.server),
        Role.LEAF: _device_type(version.leaf_switch),
        Role.SPINE: _device_type(version.spine_switch),
        Role.CORE: _device_type(version.core_switch),
    }
    plans = _port_plans(version)
    devices = version_device_rows(version=version, fields=("name", "role", "rack", "rack_unit", "ports", "plane",
                                                            "su", "rail", "loopback"))
    used_roles = [role for role in ROLES if any(d[1] == role for d in devices)]
    used_types: dict[str, DeviceType] = {}
    for role in used_roles:
        used_types.setdefault(types[role].slug, types[role])
    # The other networks (front-end, storage, out-of-band): their own roles, types, devices, ports and cables.
    others = NetworkRows(version, device_type_of=_device_type, generic_type=_generic_type,
                         interface_type=interface_type, cable_type=cable_type)
    for device_type in others.types.values():
        used_types.setdefault(device_type.slug, device_type)
    site_name, site_slug = _site(version)
    design = version.design
    origin = f"{design.project.name} / {design.name} v{version.number}"

    rack_top: dict[str, int] = {}
    # The layout's rack height; a rack the review points say overflows is declared as high as its devices reach.
    rack_height = int(((version.spec or {}).get("layout") or {}).get("rack_units") or RACK_UNITS_DEFAULT)
    for _name, role, rack, unit, *_rest in devices:
        if rack:
            rack_top[rack] = max(rack_top.get(rack, 0), unit + types[role].u_height - 1 if unit else 0)
    for _network, name, _role, _sku, _model, rack, unit, *_rest in others.devices:
        if rack:
            rack_top[rack] = max(rack_top.get(rack, 0), unit + others.type_of[name].u_height - 1 if unit else 0)

    counts: dict[str, int] = {}
    with zipfile.ZipFile(path_or_stream, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr(zip_entry("README.txt"), readme_text(version=version, site=site_name, user=user))
        manufacturers = {t.manufacturer: t.manufacturer_slug for t in used_types.values()}
        counts["manufacturers.csv"] = _csv_entry(archive, "manufacturers.csv", sorted(manufacturers.items()))
        counts["device_roles.csv"] = _csv_entry(archive, "device_roles.csv",
                                                 [ROLES[role] for role in used_roles] + others.roles())
        counts["sites.csv"] = _csv_entry(archive, "sites.csv", [(site_name, site_slug, "planned")])
        counts["racks.csv"] = _csv_entry(archive, "racks.csv", (
            (site_name, rack, "planned", 19, max(rack_height, top)) for rack, top in sorted(rack_top.items())))
        counts["device_types.csv"] = _csv_entry(archive, "device_types.csv", (
            (t.manufacturer, t.model, t.slug, t.part_number, t.u_height, "true", "") for t in used_types.values()))
        counts["devices.csv"] = _csv_entry(archive, "devices.csv", chain((
            (name, ROLES[role][0], types[role].manufacturer, types[role].model, "planned", site_name, rack,
             unit if rack and unit else "", "front" if rack and unit else "",
             _device_description(origin, role, plane, su, rail))
            for name, role, rack, unit, ports, plane, su, rail, _loopback in devices),
            others.device_rows(site_name, origin)))
        report("writing_interfaces", 20)
        counts["interfaces.csv"] = _csv_entry(archive, "interfaces.csv", chain(_interface_rows(devices, plans),
                                                                              others.interface_rows()))
        report("writing_cables", 45)
        device_names = {pk: ref.name for pk, ref in version_device_map(version=version).items()}
        if others.present:
            device_names = {pk: ref.name for pk, ref in version_cluster_device_map(version=version).items()}
        counts["cables.csv"] = _csv_entry(archive, "cables.csv", chain((
            (device_names[a], INTERFACE, a_port, device_names[b], INTERFACE, b_port, cable_type(kind, fiber),
             "planned", label[:100], "", _length(length), "m")
            for a, a_port, b, b_port, kind, fiber, label, length in version_link_rows(
                version=version,
                fields=("a_device_id", "a_port", "b_device_id", "b_port", "medium_kind", "fiber", "label_a",
                        "length_m"))), others.cable_rows(device_names)))
        report("writing_addresses", 70)
        counts["ip_addresses.csv"] = _csv_entry(archive, "ip_addresses.csv", chain(
            _address_rows(version, devices, device_names), others.address_rows(device_names)))
    report("netbox_written", 99)
    return counts


def _device_description(origin: str, role: str, plane: int | None, su: int | None, rail: int | None) -> str:
    parts = [origin]
    if plane is not None and role != Role.SERVER:
        parts.append(f"plane {plane}")
    if su is not None:
        parts.append(f"SU {su}")
    if rail is not None:
        parts.append(f"rail {rail}")
    return ", ".join(parts)[:200]


def _interface_rows(devices: list[tuple], plans: dict[str, PortPlan]) -> Iterable[tuple]:
    for name, role, _rack, _unit, ports, *_rest in devices:
        plan = plans[role]
        for port in plan.names(ports):
            yield name, port, plan.type, plan.speed_kbps
        if role != Role.SERVER and plan.loopback:
            yield name, LOOPBACK, "virtual", ""


def _address_rows(version: DesignVersion, devices: list[tuple], device_names: dict[int, str]) -> Iterable[tuple]:
    if version.is_infiniband:
        # IPoIB host addresses only, in the host pool's subnet; no switch addresses on InfiniBand.
        for a, a_port, a_ip, subnet in version_link_rows(
            version=version, fields=("a_device_id", "a_port", "a_ip", "subnet")
        ):
            if a_ip:
                prefix = subnet.rsplit("/", 1)[-1] if "/" in (subnet or "") else "32"
                yield f"{a_ip}/{prefix}", "reserved", "", device_names[a], a_port, "IPoIB"
        return
    for a, a_port, a_ip, b, b_port, b_ip in version_link_rows(
        version=version, fields=("a_device_id", "a_port", "a_ip", "b_device_id", "b_port", "b_ip")
    ):
        if a_ip:
            yield f"{a_ip}/31", "reserved", "", device_names[a], a_port, ""
        if b_ip:
            yield f"{b_ip}/31", "reserved", "", device_names[b], b_port, ""
    for name, role, *_rest, loopback in devices:
        if loopback and role != Role.SERVER:
            yield f"{loopback}/32", "reserved", "loopback", name, LOOPBACK, ""


def readme_text(*, version: DesignVersion, site: str, user: Any = None) -> str:
    design = version.design
    project = design.project
    links = version_link_count(version=version)
    lines = [
        "NetBox import files for a fabricweb design",
        "==========================================",
        "",
        f"Customer: {comment_text(project.customer.name)}",
        f"Project:  {comment_text(project.name)}",
        f"Design:   {comment_text(design.name)}, version {version.number}",
        f"Site:     {comment_text(site)}",
        f"Links:    {links:,}",
        f"Written:  {timezone.now():%Y-%m-%d %H:%M %Z}" + (f" for {user.get_username()}" if user is not None else ""),
        "",
        "Import the files in this order (NetBox: the object's list page -> Import -> upload the CSV):",
        "",
        "  1. manufacturers.csv  Devices > Manufacturers",
        "  2. device_roles.csv   Devices > Device Roles",
        "  3. sites.csv          Organization > Sites",
        "  4. racks.csv          Racks > Racks",
        "  5. device_types.csv   Devices > Device Types",
        "  6. devices.csv        Devices > Devices",
        "  7. interfaces.csv     Devices > Interfaces",
        "  8. cables.csv         Connections > Cables",
        "  9. ip_addresses.csv   IPAM > IP Addresses",
        "",
        "Notes:",
        "- Every object refers to others by name. Device names must be unique in your NetBox",
        "  (interfaces, cables and addresses find their device by name alone).",
        "- Manufacturers, roles, sites or device types that already exist: drop those rows",
        "  (NetBox refuses duplicates) or skip the file.",
        "- The device types here have no interface templates: interfaces.csv creates every port",
        "  under the name the design and the cable labels use (eth0.. on servers, SONiC",
        "  Ethernet<first lane> on switches). If a device type already exists in NetBox WITH",
        "  interface templates, its devices get those interfaces too: remove them, or rename them",
        "  to the design's names, before importing interfaces.csv.",
        "- One cable row per link. A 1:2 splitter or a twin-port cable (one item on the bill of",
        "  materials) is two NetBox cables, one per leg; both carry the design's label.",
        "- Status is 'planned' (devices, racks, site, cables) and 'reserved' (addresses) until the",
        "  fabric is built.",
    ]
    if not version.is_infiniband:
        lines.append("- ASNs are in the Excel workbook (NetBox ASNs need your RIR).")
    else:
        lines += [
            "- InfiniBand fabric: ports are typed infiniband-ndr (or the IB type of their speed);",
            "  there are no switch loopbacks, /31 links or ASNs (the subnet manager, OpenSM or UFM,",
            "  assigns LIDs and routes). ip_addresses.csv holds the hosts' IPoIB addresses only.",
        ]
    lines += [
        "- Large files: NetBox's import page may time out on hundreds of thousands of rows; split",
        "  the file (keep the header line) or load it through the REST API.",
        "",
    ]
    return "\n".join(lines)
