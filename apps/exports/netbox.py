"""NetBox handover: a zip of files in NetBox's bulk-import formats, so a won deal becomes inventory.

Files, in import order (README.txt in the zip says the same to whoever imports them); NN is the
step, big files come in parts "-partKK" (apps.exports.netbox_parts: each part imports within
NetBox's 120 s web timeout):
  01-manufacturers-<slug>.csv   name, slug                           (one file per manufacturer)
  02-device_roles-<slug>.csv    name, slug, color                    (one file per role)
  02-tenants.csv         name, slug, description                    (the customer)
  03-sites.csv           name, slug, status, tenant                 (one site per project)
  04-locations.csv       site, name, slug, status, tenant           (one location per design: the prefix)
  05-racks.csv           site, location, name, status, width, u_height, tenant  (every rack of the hall)
  06-device_types-<slug>.yaml   one YAML document per file: a device type with its interface templates
  07-devices-partKK.csv  name, role, manufacturer, device_type, status, site, location, rack, position, face,
                         description, tenant
  08-cables-partKK.csv   side_a_device, side_a_type, side_a_name, side_b_device, side_b_type, side_b_name,
                         type, status, label, color, length, length_unit
  09-rirs-<slug>.csv     name, slug, is_private                     (Ethernet: the ASNs' registry, one per file)
  10-asns-<asn>.csv      asn, rir, description                      (Ethernet: the RFC 7938 plan, one per file)
  11-vrfs.csv            name, rd, enforce_unique, tenant, description  (one VRF per design: the prefix)
  12-prefixes.csv        prefix, vrf, status, is_pool, description, tenant  (the design's pools)
  13-ip_addresses-partKK.csv  address, vrf, status, role, device, interface, description, tenant

Field names are those of NetBox's import forms (netbox-community/netbox: dcim/forms/bulk_import.py
LocationImportForm, RackImportForm, DeviceImportForm; ipam/forms/bulk_import.py RIRImportForm,
ASNImportForm, VRFImportForm, PrefixImportForm, IPAddressImportForm; dcim/views.py
DeviceTypeImportView with its `interfaces` related forms, InterfaceTemplateImportForm).

Rules:
- Objects refer to each other by name (NetBox's CSV import resolves names), never by id.
- Safe to import twice and side by side. NetBox refuses a whole import file at its first refused row,
  so every file is either wholly the design's own or holds one shared object:
  - the design's own objects carry its prefix: device names ("<prefix>-srv-0000",
    apps.exports.netbox_parts), the location its racks live in (NetBox refuses a second rack of the
    same name in a location), its VRF (name and a unique route distinguisher "fw:<prefix>": VRF
    names are not unique in NetBox, a second import would make a second VRF that prefixes and
    addresses could no longer name), its prefixes and addresses (the VRF enforces unique addresses);
  - objects another design may share (manufacturers, device roles, device types, RIRs, ASNs) come
    one per file, so a file is refused only when its object exists, and a new object never waits
    behind an existing one; the tenant (the customer) and the site (the project) are one-row files.
  A second import of the same files is refused file by file and creates nothing; another design of
  the same project (another prefix) imports beside it in the same site and tenant.
- Device types are named by what sets their port templates apart: a server's by its backend fabric
  ("DGX H100 (Ethernet)" / "DGX H100 (InfiniBand)"), a split switch by its breakout ("SN5600
  2x400G"), a catalog switch of another network by that network ("SN2201 (management network)").
- Interfaces come from the device types' interface templates, so each device gets every logical
  port when it is created: the design's names on Ethernet (servers eth<i>, switches SONiC
  Ethernet<first lane>, Loopback0 on switches) except that an Arista switch's ports take EOS's names
  (Ethernet<cage>/<first lane>, engine.names.eos_port_name), as its EOS configuration names them, in its
  templates, cables, cable labels and addresses; a Dell switch's configuration is SONiC's config_db, so its
  ports keep SONiC's names; the design's InfiniBand names on InfiniBand (hosts by
  HCA mlx5_<i>, switches as their OS names them: MLNX-OS 1/<cage>/<port>, NVOS sw<cage>p<port>;
  engine.names). A model split into several ports per cage is its own device type
  ("<model> 2x400G"), so templates always match the ports.
- A text field that starts with =, +, -, @, TAB, CR or NUL (a customer, project, design or
  catalog name) is written with a leading "'" (OWASP CSV Injection); YAML is written by a YAML
  emitter (quoted where needed), README lines through comment_text.
- Devices, racks, sites, locations and cables are "planned"; addresses and prefixes "reserved".
- Racks and positions come from the version's data hall (apps.racks): every rack with its height, every
  device with its rack, lowest unit (NetBox's position) and the face it is mounted from. A device on a
  rack's rear face is full depth in its device type, so NetBox keeps both faces of those units for it.
- The cluster's other networks (front-end, storage, out-of-band; apps.exports.netbox_networks) have
  roles of their own and device types without port templates: their devices and ports come in files
  of their own after the backend's devices (07-devices_other_networks, 07-interfaces), their cables
  and addresses in the same files as the backend's.
- Interface types are NetBox's slugs for (speed, cage); cable types per medium (see cable_type).
  One cable row per link: a 1:2 splitter or a twin-port assembly is two NetBox cables.
- Spares (BOM lines, stock on a shelf) are not devices: they never appear in these files.
- InfiniBand designs: ports typed with NetBox's InfiniBand slug for their speed, no Loopback0,
  no ASNs; addresses are the hosts' IPoIB addresses in the host pool (never its network or
  broadcast address, engine.addressing); the subnet manager assigns LIDs and routes.
"""
from __future__ import annotations

import csv
import io
import zipfile
from itertools import chain
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

import yaml
from django.utils.text import slugify

from apps.designs.models import DesignVersion, Role
from apps.designs.workbook import zip_entry
from apps.engine import names as engine_names
from apps.engine.roce.nos import EOS, nos_for_vendor
from apps.engine.safe_text import csv_text
from apps.engine.specio import spec_from_dict
from apps.racks.selectors import device_placements, rack_heights

from .netbox_readme import readme_text
from .netbox_parts import (CABLE_ROWS_PER_PART, INTERFACE_BUDGET, part_name, parts_bound, prefix_default, prefixed,
                           row_parts, rows_parts_bound, vrf_rd, weighted_parts)
from .netbox_networks import LABELS as NETWORK_LABELS, NetworkRows
from .selectors import (version_cluster_device_map, version_device_map, version_device_rows, version_link_count,
                        version_link_rows, version_network_link_count)

Progress = Callable[[str, int], None]

HEADERS: dict[str, tuple[str, ...]] = {
    "manufacturers": ("name", "slug"),
    "device_roles": ("name", "slug", "color"),
    "tenants": ("name", "slug", "description"),
    "sites": ("name", "slug", "status", "tenant"),
    "locations": ("site", "name", "slug", "status", "tenant"),
    "racks": ("site", "location", "name", "status", "width", "u_height", "tenant"),
    "devices": ("name", "role", "manufacturer", "device_type", "status", "site", "location", "rack", "position",
                "face", "description", "tenant"),
    # the other networks' ports (front-end, storage, out-of-band): their types carry no templates
    "interfaces": ("device", "name", "type", "speed", "mgmt_only"),
}
HEADERS["devices_other_networks"] = HEADERS["devices"]
HEADERS |= {
    "cables": ("side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
               "type", "status", "label", "color", "length", "length_unit"),
    "rirs": ("name", "slug", "is_private"),
    "asns": ("asn", "rir", "description"),
    "vrfs": ("name", "rd", "enforce_unique", "tenant", "description"),
    "prefixes": ("prefix", "vrf", "status", "is_pool", "description", "tenant"),
    "ip_addresses": ("address", "vrf", "status", "role", "device", "interface", "description", "tenant"),
}
PARTED = {"devices", "devices_other_networks", "interfaces", "cables", "ip_addresses"}

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
INFINIBAND_TYPES = {100: "infiniband-edr", 200: "infiniband-hdr", 400: "infiniband-ndr", 800: "infiniband-xdr"}
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
# RFC 6996 private ASNs (2-byte and 4-byte blocks).
PRIVATE_ASNS = ((64_512, 65_534), (4_200_000_000, 4_294_967_294))
PRIVATE_RIR = ("RFC 6996 private ASNs", "rfc-6996", "true")
PUBLIC_RIR = ("Public ASNs (rename to your RIR)", "public-asns", "false")
POOL_DESCRIPTIONS = {
    "host": "host pool: one /31 per NIC port",
    "p2p": "switch-to-switch pool: one /31 per link",
    "loopback": "loopback pool: one /32 per switch",
}


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
    """How a role's logical ports are named (the design's names and NetBox's) and typed."""

    design_names: tuple[str, ...]  # Ethernet names: eth<i> / Ethernet<first lane> (old IB versions stored them)
    # The same on Ethernet, but EOS's Ethernet<cage>/<lane> on an Arista switch; the engine's InfiniBand names on
    # InfiniBand
    netbox_names: tuple[str, ...]
    type: str
    mode: str  # breakout mode of a split switch ("2x400G"), else ""
    loopback: bool = True  # a switch's Loopback0 (not on InfiniBand)

    @property
    def rename(self) -> dict[str, str]:
        return dict(zip(self.design_names, self.netbox_names))


def _device_type(item: Any, mode: str) -> DeviceType:
    manufacturer = item.manufacturer
    model = f"{item.model} {mode}" if mode else item.model
    return DeviceType(
        manufacturer=manufacturer.name,
        manufacturer_slug=manufacturer.slug or slugify(manufacturer.name) or f"manufacturer-{manufacturer.pk}",
        model=model,
        slug=slugify(f"{manufacturer.name}-{model}")[:100] or f"device-type-{item.pk}",
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
    count = spec.server.nic_ports
    # Versions stored before InfiniBand port names hold the Ethernet names: renamed to the engine's IB names.
    eth = tuple(engine_names.server_port_names(count, infiniband=False))
    plans = {Role.SERVER: PortPlan(
        eth, tuple(engine_names.server_port_names(count, infiniband=True)) if ib else eth,
        interface_type(spec.server.nic_gbps, nic.form_factor, infiniband=ib), "", loopback=False)}
    for role in (Role.LEAF, Role.SPINE, Role.CORE):
        hw = spec.switch_hw(role.value)
        design = tuple(engine_names.switch_port_names(hw, infiniband=False))
        if ib:
            netbox = tuple(engine_names.switch_port_names(hw, infiniband=True))
        elif nos_for_vendor(hw.vendor) is EOS:  # Arista: EOS's names, as its EOS configuration has them
            netbox = tuple(engine_names.switch_port_names(hw, infiniband=False, eos=True))
        else:
            netbox = design
        mode = (hw.breakout or f"{hw.ports_per_cage}x{hw.gbps}G") if hw.ports_per_cage > 1 else ""
        plans[role] = PortPlan(design, netbox, interface_type(hw.gbps, hw.form_factor, infiniband=ib), mode,
                               loopback=not ib)
    return plans


def _tenant(version: DesignVersion) -> tuple[str, str]:
    """The customer as NetBox's tenant: every object of the design is assigned to it."""
    customer = version.design.project.customer
    name = customer.name[:100]
    return name, slugify(name)[:100] or f"fabricweb-customer-{customer.pk}"


def _site(version: DesignVersion) -> tuple[str, str]:
    project = version.design.project
    name = f"{project.customer.name} - {project.name}"[:100]
    return name, slugify(name)[:100] or f"fabricweb-project-{project.pk}"


class _Writer:
    """Writes the numbered files of the zip, cutting the big ones into parts."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.counts: dict[str, int] = {}
        self.files: dict[str, list[str]] = {}

    def _one(self, file_name: str, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
        count = 0
        with self.archive.open(zip_entry(file_name), "w", force_zip64=True) as raw, \
                io.TextIOWrapper(raw, encoding="utf-8", newline="") as text:
            writer = csv.writer(text, lineterminator="\n")
            writer.writerow(header)
            for row in rows:
                writer.writerow([csv_text(value) for value in row])
                count += 1
        return count

    def csv(self, step: str, key: str, rows: Iterable[Sequence[Any]], *, weight=None, parts: int = 0) -> None:
        """One file, or a parted one (PARTED) in parts of `weight` or of CABLE_ROWS_PER_PART rows; `parts` is at
        least the number of parts it will need (the width of the part numbers)."""
        header = HEADERS[key]
        if key not in PARTED:
            name = f"{step}-{key}.csv"
            self.counts[key] = self._one(name, header, rows)
            self.files[key] = [name]
            return
        cut = weighted_parts(rows, weight, INTERFACE_BUDGET) if weight else row_parts(rows, CABLE_ROWS_PER_PART)
        self.counts[key], self.files[key] = 0, []
        for number, part in enumerate(cut, start=1):
            name = part_name(step, key, number, parts)
            self.counts[key] += self._one(name, header, part)
            self.files[key].append(name)
        if not self.files[key]:
            name = part_name(step, key, 1, 1)
            self._one(name, header, [])
            self.files[key].append(name)

    def each(self, step: str, key: str, rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
        """One file per shared object: `rows` are (file suffix, row)."""
        header = HEADERS[key]
        self.counts[key], self.files[key] = 0, []
        for suffix, row in rows:
            name = f"{step}-{key}-{suffix}.csv"
            self.counts[key] += self._one(name, header, [row])
            self.files[key].append(name)

    def texts(self, step: str, key: str, documents: Iterable[tuple[str, str]]) -> None:
        """One YAML file per object: `documents` are (file suffix, text)."""
        self.counts[key], self.files[key] = 0, []
        for suffix, text in documents:
            file_name = f"{step}-{key}-{suffix}.yaml"
            self.archive.writestr(zip_entry(file_name), text)
            self.counts[key] += 1
            self.files[key].append(file_name)



def version_netbox_write(
    *, version: DesignVersion, path_or_stream: str | IO[bytes], progress: Progress | None = None, user: Any = None,
    prefix: str = "",
) -> dict[str, int]:
    """Write the NetBox import zip of a generated version; returns rows written per logical file."""
    report = progress or (lambda stage, percent: None)
    version = DesignVersion.objects.select_related(
        "design__project__customer", "server__manufacturer", "leaf_switch__manufacturer",
        "spine_switch__manufacturer", "core_switch__manufacturer",
    ).get(pk=version.pk)
    prefix = prefix or prefix_default(version.design.name, version.design_id)
    report("reading_devices", 5)
    plans = _port_plans(version)
    items = {Role.SERVER: version.server, Role.LEAF: version.leaf_switch, Role.SPINE: version.spine_switch,
             Role.CORE: version.core_switch}
    # A server's type is named by its backend fabric: the same model on InfiniBand and on Ethernet has other
    # port templates (ib<i> vs eth<i>), and NetBox keeps one type per model name.
    fabric = "InfiniBand" if version.is_infiniband else "Ethernet"
    types = {role: _device_type(items[role], f"({fabric})" if role == Role.SERVER else plans[role].mode)
             for role in ROLES}
    devices = version_device_rows(version=version, fields=("name", "role", "rack", "rack_unit", "ports", "plane",
                                                            "su", "rail", "loopback", "asn"))
    used_roles = [role for role in ROLES if any(d[1] == role for d in devices)]
    used_types: dict[str, tuple[DeviceType, PortPlan]] = {}
    for role in used_roles:
        used_types.setdefault(types[role].slug, (types[role], plans[role]))
    # The other networks (front-end, storage, out-of-band): roles, types (without port templates: their
    # ports come from the interfaces file), devices, ports, cables and addresses of their own.
    others = NetworkRows(version, device_type_of=lambda item, network: _device_type(item, network_type_mode(network)),
                         generic_type=_generic_type, interface_type=interface_type, cable_type=cable_type)
    for device_type in others.types.values():
        used_types.setdefault(device_type.slug, (device_type, None))
    site_name, site_slug = _site(version)
    tenant, tenant_slug = _tenant(version)
    design = version.design
    origin = f"{design.project.name} / {design.name} v{version.number}"
    location = prefix
    ib = version.is_infiniband

    rack_top: dict[str, int] = {}
    # The layout's rack height; a rack the review points say overflows is declared as high as its devices reach.
    rack_height = int(((version.spec or {}).get("layout") or {}).get("rack_units") or RACK_UNITS_DEFAULT)
    # The hall's placement (apps.racks): every rack with its own height, every device's rack, lowest unit and
    # face; versions generated before halls keep the devices' rack and unit, front face.
    placed = device_placements(version=version)
    hall_racks = dict(rack_heights(version=version))
    for name, role, rack, unit, *_rest in devices:
        rack, unit, _face = placed.get(name, (rack, unit, "front"))
        if rack:
            rack_top[rack] = max(rack_top.get(rack, 0), unit + types[role].u_height - 1 if unit else 0)
    for _network, name, _role, _sku, _model, rack, unit, *_rest in others.devices:
        rack, unit, _face = placed.get(name, (rack, unit, "front"))
        if rack:
            rack_top[rack] = max(rack_top.get(rack, 0), unit + others.type_of[name].u_height - 1 if unit else 0)
    for rack, height in hall_racks.items():
        rack_top.setdefault(rack, 0)

    def place(name: str, rack: str, unit: int) -> tuple[str, Any, str]:
        """(rack, position, face) of a device for the devices file ("" when it stands in no rack)."""
        rack, unit, face = placed.get(name, (rack, unit, "front"))
        return (rack, unit, face) if rack and unit else (rack, "", "")

    with zipfile.ZipFile(path_or_stream, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        out = _Writer(archive)
        manufacturers = {t.manufacturer: t.manufacturer_slug for t, _plan in used_types.values()}
        out.each("01", "manufacturers", ((slug, (name, slug)) for name, slug in sorted(manufacturers.items())))
        out.each("02", "device_roles", ((role[1], role) for role in
                                        dict.fromkeys([ROLES[role] for role in used_roles] + others.roles())))
        out.csv("02", "tenants", [(tenant, tenant_slug, "fabricweb customer")])
        out.csv("03", "sites", [(site_name, site_slug, "planned", tenant)])
        out.csv("04", "locations", [(site_name, location, slugify(location) or "design", "planned", tenant)])
        out.csv("05", "racks", (
            (site_name, location, rack, "planned", 19, max(hall_racks.get(rack, rack_height), top), tenant)
            for rack, top in sorted(rack_top.items())))
        out.texts("06", "device_types", _device_types_yaml(used_types.values()))
        report("writing_devices", 15)
        device_weight = {role: 1 + len(plans[role].netbox_names) + 1 for role in ROLES}
        out.csv("07", "devices", (
            (prefixed(prefix, name), ROLES[role][0], types[role].manufacturer, types[role].model, "planned", site_name,
             location if rack else "", *place(name, rack, unit), _device_description(origin, role, plane, su, rail),
             tenant)
            for name, role, rack, unit, ports, plane, su, rail, _loopback, _asn in devices),
            weight=lambda row: device_weight[_role_of(row[1])],
            parts=parts_bound((device_weight[row[1]] for row in devices), INTERFACE_BUDGET))
        if others.present:
            out.csv("07", "devices_other_networks", (
                (prefixed(prefix, name), role, manufacturer, model, status, site, location if rack else "",
                 *place(name, rack, position or 0), description, tenant)
                for name, role, manufacturer, model, status, site, rack, position, _face, description
                in others.device_rows(site_name, origin)), parts=rows_parts_bound(len(others.devices),
                                                                                  CABLE_ROWS_PER_PART))
            out.csv("07", "interfaces", ((prefixed(prefix, device), name, kind, speed, management)
                                         for device, name, kind, speed, management in others.interface_rows()),
                    parts=rows_parts_bound(others.interface_count(), CABLE_ROWS_PER_PART))
        report("writing_cables", 35)
        device_refs = version_cluster_device_map(version=version) if others.present else \
            version_device_map(version=version)
        role_of = {name: role for name, role, *_rest in devices}
        device_names = {pk: ref.name for pk, ref in device_refs.items()}

        renames = {role: plan.rename for role, plan in plans.items()}

        def port(device: str, name: str) -> str:
            role = role_of.get(device)
            return renames[role].get(name, name) if role else name

        def cable(a: str, a_port: str, b: str, b_port: str, kind: str, fiber: str, label: str, length) -> tuple:
            """A backend cable between its ends' NetBox ports; its label names those ports where they differ from
            the stored ones (an EOS switch's, an old InfiniBand version's), as engine.names.link_labels writes it."""
            a_name, b_name = port(a, a_port), port(b, b_port)
            if (a_name, b_name) != (a_port, b_port):
                label = f"{a}:{a_name} > {b}:{b_name}"
            return (prefixed(prefix, a), INTERFACE, a_name, prefixed(prefix, b), INTERFACE, b_name,
                    cable_type(kind, fiber), "planned", label[:100], "", _length(length), "m")

        cables: dict[str, int] = {}  # cable rows written per network, for the README
        links = _link_count(version)
        out.csv("08", "cables", parts=rows_parts_bound(links, CABLE_ROWS_PER_PART), rows=chain(_counted((
            cable(device_names[a], a_port, device_names[b], b_port, kind, fiber, label, length)
            for a, a_port, b, b_port, kind, fiber, label, length in version_link_rows(
                version=version,
                fields=("a_device_id", "a_port", "b_device_id", "b_port", "medium_kind", "fiber", "label_a",
                        "length_m"))), cables, "backend"),
            ((prefixed(prefix, a), a_type, a_port, prefixed(prefix, b), *rest)
             for a, a_type, a_port, b, *rest in others.cable_rows(device_names, counts=cables))))
        report("writing_addresses", 70)
        # ASNs of the backend's switches (Ethernet: RFC 7938) and of the other networks' switches
        asn_rows, rirs = _asn_rows(
            [] if ib else [(name, asn) for name, role, *_rest, asn in devices if role != Role.SERVER],
            others.asn_holders())
        if asn_rows:
            out.each("09", "rirs", ((rir[1], rir) for rir in rirs))
            out.each("10", "asns", ((str(row[0]), row) for row in asn_rows))
        # The route distinguisher is unique in NetBox (VRF names are not): a second import of this file is
        # refused instead of making a second VRF of the same name that prefixes and addresses could not name.
        out.csv("11", "vrfs", [(prefix, vrf_rd(prefix), "true", tenant, f"{origin} ({prefix})"[:200])])
        out.csv("12", "prefixes", (row + (tenant,) for row in chain(
            _prefix_rows(version, prefix, ib),
            ((cidr, prefix, status, pool, description) for cidr, status, pool, description in others.prefix_rows()))))
        # at most both ends of every link and a loopback per device
        addresses = 2 * links + len(devices) + len(others.devices)
        out.csv("13", "ip_addresses", parts=rows_parts_bound(addresses, CABLE_ROWS_PER_PART), rows=(
            row + (tenant,) for row in chain(
                _address_rows(version, devices, device_names, prefix, port),
                ((address, prefix, status, role, prefixed(prefix, device), interface, description)
                 for address, status, role, device, interface, description in others.address_rows(device_names)))))
        archive.writestr(zip_entry("README.txt"), readme_text(version=version, site=site_name, prefix=prefix,
                                                              files=out.files, cables=cables, user=user))
    report("netbox_written", 99)
    return out.counts


def _link_count(version: DesignVersion) -> int:
    """Every network's links (the summary's counts; the backend's alone for a version without other networks)."""
    summary = version.summary or {}
    networks = summary.get("networks") or {}
    if networks and all(isinstance((networks[n] or {}).get("total_links"), int) for n in networks):
        return sum(networks[n]["total_links"] for n in networks)
    return version_link_count(version=version) + sum(
        version_network_link_count(version=version, network=n) for n in networks if n != "backend")


def _counted(rows: Iterable[tuple], counts: dict[str, int], network: str) -> Iterator[tuple]:
    """`rows` as they are, counted under `network` in `counts` as they go by."""
    counts.setdefault(network, 0)
    for row in rows:
        counts[network] += 1
        yield row


def network_type_mode(network: str) -> str:
    """Model suffix of a catalog switch's device type in another network ("(management network)"): a type
    without port templates (its ports are in the interfaces file), kept apart from the backend's type."""
    return f"({NETWORK_LABELS[network].lower()} network)"


def _role_of(label: str) -> str:
    return next(role for role, values in ROLES.items() if values[0] == label)


def _device_types_yaml(types: Iterable[tuple[DeviceType, PortPlan]]) -> list[tuple[str, str]]:
    """(slug, YAML document) per device type: one file each, so a type that exists already is refused alone."""
    documents = []
    for t, plan in types:
        interfaces = [{"name": name, "type": plan.type} for name in plan.netbox_names] if plan else []
        if plan and plan.loopback:
            interfaces.append({"name": LOOPBACK, "type": "virtual"})
        document = {"manufacturer": t.manufacturer, "model": t.model, "slug": t.slug,
                    "part_number": t.part_number, "u_height": t.u_height, "is_full_depth": True,
                    "interfaces": interfaces}
        documents.append((t.slug, yaml.safe_dump(document, sort_keys=False, allow_unicode=True, explicit_start=True)))
    return documents


def _asn_rows(backend: list[tuple[str, int]], others: list[tuple[str, int]]) -> tuple[list[tuple], list[tuple]]:
    """(ASN rows, RIR rows) for the switches' ASNs: (device name, ASN) of the backend and the other networks."""
    holders: dict[int, list[str]] = {}
    for name, asn in chain(backend, others):
        if asn:
            holders.setdefault(int(asn), []).append(name)
    rows, rirs = [], set()
    for asn, names in sorted(holders.items()):
        private = any(lo <= asn <= hi for lo, hi in PRIVATE_ASNS)
        rir = PRIVATE_RIR if private else PUBLIC_RIR
        rirs.add(rir)
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        rows.append((asn, rir[0], shown[:200]))
    return rows, sorted(rirs)


def _prefix_rows(version: DesignVersion, vrf: str, ib: bool) -> list[tuple]:
    pools = (version.spec or {}).get("pools") or {}
    if ib:
        host = pools.get("host")
        return [(host, vrf, "reserved", "false", "IPoIB host subnet")] if host else []
    return [(pools[name], vrf, "reserved", "true", POOL_DESCRIPTIONS[name])
            for name in ("host", "p2p", "loopback") if pools.get(name)]


def _device_description(origin: str, role: str, plane: int | None, su: int | None, rail: int | None) -> str:
    parts = [origin]
    if plane is not None and role != Role.SERVER:
        parts.append(f"plane {plane}")
    if su is not None:
        parts.append(f"SU {su}")
    if rail is not None:
        parts.append(f"rail {rail}")
    return ", ".join(parts)[:200]


def _address_rows(version: DesignVersion, devices: list[tuple], device_names: dict[int, str], vrf: str,
                  port: Callable[[str, str], str]) -> Iterable[tuple]:
    if version.is_infiniband:
        # IPoIB host addresses only, in the host pool's subnet; no switch addresses on InfiniBand.
        for a, a_port, a_ip, subnet in version_link_rows(
            version=version, fields=("a_device_id", "a_port", "a_ip", "subnet")
        ):
            if a_ip:
                length = subnet.rsplit("/", 1)[-1] if "/" in (subnet or "") else "32"
                name = device_names[a]
                yield f"{a_ip}/{length}", vrf, "reserved", "", prefixed(vrf, name), port(name, a_port), "IPoIB"
        return
    for a, a_port, a_ip, b, b_port, b_ip in version_link_rows(
        version=version, fields=("a_device_id", "a_port", "a_ip", "b_device_id", "b_port", "b_ip")
    ):
        if a_ip:
            yield f"{a_ip}/31", vrf, "reserved", "", prefixed(vrf, device_names[a]), port(device_names[a], a_port), ""
        if b_ip:
            yield f"{b_ip}/31", vrf, "reserved", "", prefixed(vrf, device_names[b]), port(device_names[b], b_port), ""
    for name, role, *_rest, loopback, _asn in devices:
        if loopback and role != Role.SERVER:
            yield f"{loopback}/32", vrf, "reserved", "loopback", prefixed(vrf, name), LOOPBACK, ""
