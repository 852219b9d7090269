"""README.txt of the NetBox handover zip (apps.exports.netbox): import order, parts, re-import, notes.

Rules: every file of the zip is listed in import order with the NetBox page that imports it (parts of
one file in their order); user text (customer, project, design, prefix) goes through comment_text.
"""
from __future__ import annotations

from typing import Any

from django.utils import timezone

from apps.designs.models import DesignVersion
from apps.engine.safe_text import comment_text

from .netbox_networks import LABELS as NETWORK_LABELS
from .netbox_parts import vrf_rd
from .selectors import version_link_count

NETWORK_NAMES = {"backend": "backend", **{key: label.lower() for key, label in NETWORK_LABELS.items()}}

# (step, logical file, NetBox page), in import order; ASN files only on Ethernet.
STEPS = (
    ("01", "manufacturers", "Devices > Manufacturers"),
    ("02", "device_roles", "Devices > Device Roles"),
    ("02", "tenants", "Organization > Tenants"),
    ("03", "sites", "Organization > Sites"),
    ("04", "locations", "Organization > Locations"),
    ("05", "racks", "Racks > Racks"),
    ("06", "device_types", "Devices > Device Types (YAML)"),
    ("07", "devices", "Devices > Devices"),
    ("07", "devices_other_networks", "Devices > Devices (front-end, storage, out-of-band)"),
    ("07", "interfaces", "Devices > Interfaces (ports of the front-end, storage and out-of-band networks)"),
    ("08", "cables", "Connections > Cables"),
    ("09", "rirs", "IPAM > RIRs"),
    ("10", "asns", "IPAM > ASNs"),
    ("11", "vrfs", "IPAM > VRFs"),
    ("12", "prefixes", "IPAM > Prefixes"),
    ("13", "ip_addresses", "IPAM > IP Addresses"),
)


def links_text(cables: dict[str, int]) -> str:
    """The README's "Links:" value: every cable row of the zip, and per network when there are several."""
    total = f"{sum(cables.values()):,}"
    if len(cables) < 2:
        return total
    return total + " (" + ", ".join(f"{NETWORK_NAMES.get(network, network)} {n:,}" for network, n in cables.items()) + ")"


def readme_text(*, version: DesignVersion, site: str, prefix: str, files: dict[str, list[str]],
                cables: dict[str, int] | None = None, user: Any = None) -> str:
    """The README; `cables` are the cable rows written per network (default: the backend's stored links)."""
    design = version.design
    project = design.project
    links = links_text(cables if cables is not None else {"backend": version_link_count(version=version)})
    lines = [
        "NetBox import files for a fabricweb design",
        "==========================================",
        "",
        f"Customer: {comment_text(project.customer.name)}",
        f"Project:  {comment_text(project.name)}",
        f"Design:   {comment_text(design.name)}, version {version.number}",
        f"Site:     {comment_text(site)}",
        f"Prefix:   {comment_text(prefix)}  (device names, the location of its racks, its VRF)",
        f"Links:    {links}",
        f"Written:  {timezone.now():%Y-%m-%d %H:%M %Z}" + (f" for {user.get_username()}" if user is not None else ""),
        "",
        "Import the files in this order (NetBox: the object's list page -> Import -> upload the file;",
        "06-device_types-*.yaml as YAML, every other file as CSV). Parts of one file go in their order:",
        "",
    ]
    for step, key, page in STEPS:
        for name in files.get(key, []):
            lines.append(f"  {name:<34} {page}")
    lines += [
        "",
        "Large files are cut into parts that each import within NetBox's 120 s web-server timeout",
        "(gunicorn, NetBox's contrib/gunicorn.py). To import a whole file at once instead, tick",
        "\"Background job\" on the import page: NetBox runs it as a job (the netbox-rq worker must be",
        "running; RQ_DEFAULT_TIMEOUT, 300 s by default, bounds it) and shows the result under Jobs.",
        "",
        "Importing again, and several designs side by side:",
        f"- Every device name starts with the prefix \"{comment_text(prefix)}-\"; the racks are in the location",
        f"  \"{comment_text(prefix)}\" of the site, the addresses in the VRF \"{comment_text(prefix)}\" (route",
        f"  distinguisher \"{comment_text(vrf_rd(prefix))}\", unique in NetBox; unique addresses). Another design of the",
        "  same project, exported with another prefix, imports beside this one. Every object is assigned",
        "  to the customer's tenant.",
        "- NetBox refuses a whole file at its first refused row. So every object that another design may",
        "  share (a manufacturer, a device role, a device type, a RIR, an ASN) comes in a file of its own:",
        "  such a file is refused only when its one object exists already, and then the existing object",
        "  serves (expected; go on with the next file). The tenant and the site files hold one row each",
        "  and are refused the same way when another design of this customer or project brought them.",
        "- A second import of these files creates nothing twice: every file is then refused as a whole",
        "  because its rows exist (the location, racks in the location, devices, interfaces, cables on",
        "  cabled interfaces, the VRF by its route distinguisher, prefixes and addresses in the VRF).",
        "  Those refusals are expected. Any other refusal is a real error: read NetBox's message.",
        "- Device types are named by what sets their ports apart: a server's type by its backend",
        "  fabric (\"(Ethernet)\" / \"(InfiniBand)\"), a split switch by its breakout (\"2x400G\"), a switch",
        "  of another network by that network (its ports come from the interfaces file).",
        "",
        "Notes:",
        "- Every object refers to others by name. Device types carry interface templates, so each",
        "  device gets all its ports when it is created; cables and addresses use those names.",
        "  If a device type of the same name already exists WITHOUT these templates, add them (or",
        "  delete the type) before importing devices.",
        "- One cable row per link. A 1:2 splitter or a twin-port cable (one item on the bill of",
        "  materials) is two NetBox cables, one per leg; both carry the design's label.",
        "- Status is 'planned' (devices, racks, site, location, cables) and 'reserved' (prefixes,",
        "  addresses) until the fabric is built.",
    ]
    if not version.is_infiniband:
        lines += [
            "- ASNs: private ASNs (RFC 6996) under the RIR \"RFC 6996 private ASNs\"; a public ASN goes",
            "  under \"Public ASNs (rename to your RIR)\": rename that RIR to yours.",
            "- Prefixes: the host, switch-to-switch and loopback pools, in the design's VRF.",
        ]
    else:
        lines += [
            "- InfiniBand fabric: hosts' ports are their HCAs (mlx5_0..), switch ports the names the",
            "  switch OS gives them (MLNX-OS 1/<cage>/<port>, NVOS sw<cage>p<port>), the same names as",
            "  the design's cabling and labels, typed infiniband-ndr (or the IB type of their speed);",
            "  there are no switch loopbacks, /31 links or ASNs (the subnet manager, OpenSM or UFM,",
            "  assigns LIDs and routes). The addresses are the hosts' IPoIB addresses, never the",
            "  subnet's network or broadcast address.",
        ]
    lines.append("")
    return "\n".join(lines)
