"""Reading one NetBox device-type document as a switch: cages, class, fabric, power, and what was left out.

Rules (the import in apps.catalog.netbox applies them; tests/catalog/test_netbox_library.py pins them on
real library files):
- data ports are the interfaces that are physical, not marked `mgmt_only`, and not management ports by
  name or description (`mgmt`, `management`, `fnm1`, `fxp0`, `me0`, a lone `eth0` beside `swp` ports):
  the Q3400's in-band `fnm1` adds no cage;
- data ports are grouped by (speed, cage, fabric). The biggest group (in cages) is the access group.
  Access ports of 100G and more make a backend *fabric* switch, unless a smaller group of faster ports
  sits beside them: then the faster group is the uplink group of a *front-end* switch (28x100G + 8x400G).
  Access ports below 100G make a *front-end* switch (25G/50G access) or a *management* switch (1G/10G
  access), and the group with the most bandwidth among the faster ones is its uplink group;
- every interface left out (management ports, ports of other groups, backplane, stacking) is counted in a
  warning that names them;
- InfiniBand: `infiniband-*` types, or Ethernet types on a switch of an InfiniBand model family
  (SB7700/SB7800 EDR, QM8700 HDR, QM9700 NDR, Q3200/Q3400 XDR) or with IB-named ports (`IB1/1`): the
  library types the SB7800, QM8700 and QM9700 as Ethernet, which the import says. NDR and XDR ports pair
  up in twin-port OSFP cages (counted from the port names where they name the cage, e.g. P12.0/P12.1);
  an odd port count, or cages unlike the model's published layout, is a warning;
- a chassis whose ports sit in line-card module bays is refused: line cards are not supported;
- power: one or two supplies are redundant, so the largest `maximum_draw` is the switch's maximum and the
  largest `allocated_draw` its typical draw; with more than two supplies a supply's rating is not the
  switch's draw, so power is left empty and the warning says why. A file without draw values gives no
  power (an existing switch keeps its own);
- a cage the catalog does not stock (CFP, CFP2, CFP8, CXP, ...) is named in the refusal when it holds the
  access ports, and in the warning when it is left out.

Published layouts the warnings compare with (ports per switch):
- QM9700/QM9790: 32 OSFP cages of 2 NDR ports (NADDOD, "What is NDR OSFP?",
  https://www.naddod.com/blog/what-is-800g-ndr-osfp);
- Q3400: 72 OSFP cages of 2 XDR ports (NVIDIA Quantum-X800 product page,
  https://www.nvidia.com/en-us/networking/products/infiniband/quantum-x800/);
- QM8700/QM8790: 40 HDR QSFP56 ports; SB7800/SB7890: 36 EDR QSFP28 ports (NVIDIA Quantum / Switch-IB 2
  user manuals, https://docs.nvidia.com/networking/).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .netbox_types import BACKPLANE, DATA, ETHERNET, INFINIBAND, NOT_A_PORT, OTHER_MEDIUM, STACKING, port_type
from .services import ImportIssue

FABRIC_MIN_GBPS = 100
MANAGEMENT_MAX_GBPS = 10  # access ports up to 10G: an out-of-band management switch

STANDARD_BREAKOUTS: dict[int, list[str]] = {
    1600: ["1x1600G", "2x800G", "4x400G", "8x200G"],
    800: ["1x800G", "2x400G", "4x200G"],
    400: ["1x400G", "2x200G", "4x100G"],
    200: ["1x200G", "2x100G", "4x50G"],
    100: ["1x100G", "2x50G", "4x25G"],
    40: ["1x40G", "4x10G"],
}
# InfiniBand cages: EDR runs whole, HDR splits into 2 HDR100, NDR and XDR twin-port cages into their ports
# and each port into two (NDR200, XDR 400G).
INFINIBAND_BREAKOUTS: dict[int, list[str]] = {
    100: ["1x100G"], 200: ["1x200G", "2x100G"], 800: ["2x400G", "4x200G"], 1600: ["2x800G", "4x400G"],
}

MANAGEMENT_NAME = re.compile(r"mgmt|management|\b(fnm\d*|fxp\d+|me\d+|ipmi|bmc)\b", re.IGNORECASE)
LONE_ETH = re.compile(r"^eth\d+$", re.IGNORECASE)
IB_PORT_NAME = re.compile(r"^ib\s*\d", re.IGNORECASE)
# "P12.0", "sw12p1", "Ethernet1/12/2": everything before the last number names the cage.
CAGE_OF_PORT = re.compile(r"^(?P<cage>.*?\d+)\s*[./:p]\s*(?P<port>\d+)$", re.IGNORECASE)
LINE_CARD_BAY = re.compile(r"line\s*card|linecard|\blpu\b|-lpu|\bslot\s*\d", re.IGNORECASE)
NOT_LINE_CARD_BAY = re.compile(r"psu|power|pwr|fan|supervisor|\bsup\b|\bmpu\b|\bsfu\b|fabric|\bps\s*\d",
                               re.IGNORECASE)
URL = re.compile(r"https?://[^\s)\]>'\"]+")
SOURCE_LINE = re.compile(r"^Source: (?P<source>.+)$", re.MULTILINE)  # written by the catalog's export


@dataclass(frozen=True)
class InfinibandFamily:
    name: str  # what the warning calls it
    port_gbps: int
    cages: int | None  # published layout; None when not pinned
    ports: int | None


# Model families NVIDIA (Mellanox) sells as InfiniBand switches; the library types some of them as Ethernet.
INFINIBAND_FAMILIES: tuple[tuple[re.Pattern, InfinibandFamily], ...] = (
    (re.compile(r"\bM?SB7[78]\d\d", re.I), InfinibandFamily("Switch-IB 2 (EDR)", 100, 36, 36)),
    (re.compile(r"\bM?QM87\d\d", re.I), InfinibandFamily("Quantum (HDR)", 200, 40, 40)),
    (re.compile(r"\bM?QM97\d\d", re.I), InfinibandFamily("Quantum-2 (NDR)", 400, 32, 64)),
    (re.compile(r"\bQ3400", re.I), InfinibandFamily("Quantum-X800 (XDR)", 800, 72, 144)),
    (re.compile(r"\bQ3[0-9]{3}", re.I), InfinibandFamily("Quantum-X800 (XDR)", 800, None, None)),
)
TWIN_PORT_GBPS = {400, 800}  # NDR and XDR: two ports per OSFP cage


def infiniband_family(*texts: str) -> InfinibandFamily | None:
    for pattern, family in INFINIBAND_FAMILIES:
        if any(pattern.search(text or "") for text in texts):
            return family
    return None


@dataclass
class PortGroup:
    gbps: float
    form_factor: str
    fabric: str
    ports_per_cage: int
    unsupported_cage: str
    type_slug: str
    names: list[str] = field(default_factory=list)
    interfaces_are_cages: bool = False  # an IB switch typed one 800G interface per twin-port cage

    @property
    def ports(self) -> int:
        return len(self.names)

    @property
    def cages(self) -> int:
        if self.ports_per_cage == 1 or self.interfaces_are_cages:
            return self.ports
        named = _cages_from_names(self.names, self.ports_per_cage)
        return named or math.ceil(self.ports / self.ports_per_cage)

    @property
    def cage_gbps(self) -> int:
        return int(self.gbps) if self.interfaces_are_cages else int(self.gbps) * self.ports_per_cage

    @property
    def usable(self) -> bool:
        return bool(self.form_factor) and self.gbps >= 1 and float(self.gbps).is_integer()

    def label(self) -> str:
        cage = self.form_factor or self.unsupported_cage
        return f"{_speed(self.gbps)} {cage}".strip()


def _speed(gbps: float) -> str:
    return f"{int(gbps)}G" if float(gbps).is_integer() else f"{gbps:g}G"


def _cages_from_names(names: list[str], per_cage: int) -> int:
    """Cages named by the ports (P0.0 and P0.1 share cage P0); 0 when the names do not say."""
    cages: Counter[str] = Counter()
    for name in names:
        match = CAGE_OF_PORT.match(name.strip())
        if not match:
            return 0
        cages[match["cage"].lower()] += 1
    if not cages or max(cages.values()) > per_cage or len(cages) < len(names) / per_cage:
        return 0
    return len(cages)


def _names(names: list[str], limit: int = 3) -> str:
    shown = ", ".join(names[:limit])
    return shown + (", …" if len(names) > limit else "")


@dataclass
class Reading:
    """What one device-type document says about a switch, ready for the import to match and save."""

    source: str
    document: int
    manufacturer: str = ""
    model: str = ""
    part_number: str = ""
    slug: str = ""
    description: str = ""
    comments: str = ""
    source_note: str = ""  # the "Source: ..." line of a file the catalog exported
    values: dict[str, Any] = field(default_factory=dict)  # switch fields the file carries
    warnings: list[str] = field(default_factory=list)
    issues: list[ImportIssue] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.manufacturer} {self.model}".strip() or self.source

    @property
    def refused(self) -> bool:
        return bool(self.issues)

    def issue(self, key: str, message: str) -> None:
        self.issues.append(ImportIssue(self.source, self.document, key, message))


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer past the float range
        return None
    return number if math.isfinite(number) else None


def _text(value: Any) -> str:
    return str(value).strip() if isinstance(value, (str, int, float)) and not isinstance(value, bool) else ""


def device_type_reading(doc: dict, *, source: str, document: int) -> Reading:
    """Read one device-type mapping; the reading's issues say why it is refused (then `values` is empty)."""
    reading = Reading(source, document)
    for key in ("manufacturer", "model"):
        if not _text(doc.get(key)):
            reading.issue(key, _("Required: give the device type's %(key)s.") % {"key": key})
    reading.manufacturer, reading.model = _text(doc.get("manufacturer")), _text(doc.get("model"))
    reading.part_number, reading.slug = _text(doc.get("part_number")), _text(doc.get("slug"))
    reading.description, reading.comments = _text(doc.get("description")), _text(doc.get("comments"))
    note = SOURCE_LINE.search(reading.comments)
    if note:
        reading.source_note = note["source"].strip()
        reading.comments = SOURCE_LINE.sub("", reading.comments).strip()

    u_height = _number(doc.get("u_height", 1))
    if u_height is None or u_height <= 0:
        reading.issue("u_height", _("Give the height in rack units (a positive number)."))
    groups, left_out = _port_groups(doc, reading)
    power = _power(doc, reading)
    if reading.refused:
        return reading
    if not groups:
        bays = _line_card_bays(doc)
        if bays:
            reading.issue("module-bays", _(
                "Line cards are not supported: %(model)s is a modular chassis whose ports sit on line cards "
                "(%(bays)s). Add a fixed-configuration switch, or enter the chassis with its ports by hand.")
                % {"model": reading.model, "bays": _names(bays)})
        elif not doc.get("interfaces"):
            reading.issue("interfaces", _("Required: list the device's interfaces with name and type."))
        else:
            reading.issue("interfaces", _(
                "No data ports: every interface is management-only or not a port. The catalog needs the "
                "switch's data ports (e.g. 64 interfaces of type 800gbase-x-osfp)."))
        return reading
    _infiniband_typed_as_ethernet(reading, groups)
    _classify(reading, groups, left_out)
    if reading.refused:
        return reading
    bays = _line_card_bays(doc)
    if bays:
        reading.warnings.append(_("%(switch)s: the ports of %(n)s line-card bays (%(bays)s) are not counted.")
                                % {"switch": reading.label, "n": len(bays), "bays": _names(bays)})
    reading.values["rack_units"] = math.ceil(u_height)
    reading.values.update(power)
    return reading


def _port_groups(doc: dict, reading: Reading) -> tuple[list[PortGroup], dict[str, list[str]]]:
    """Data port groups, and the interfaces left out: "management ports (mgmt0)" -> names."""
    interfaces = doc.get("interfaces")
    if interfaces is None:
        interfaces = []
    if not isinstance(interfaces, list):
        reading.issue("interfaces", _("Expected a list of interfaces with name and type."))
        return [], {}
    left_out: dict[str, list[str]] = {}
    entries = []
    for i, interface in enumerate(interfaces):
        key = f"interfaces[{i}]"
        if not isinstance(interface, dict):
            reading.issue(key, _("Each interface is a mapping with name and type."))
            continue
        name = _text(interface.get("name"))
        if not name:
            reading.issue(f"{key}.name", _("Required."))
        slug = interface.get("type")
        if not isinstance(slug, str) or not slug.strip():
            reading.issue(f"{key}.type", _("Required."))
            continue
        kind = port_type(slug)
        if kind is None:
            reading.issue(f"{key}.type", _(
                'Unknown interface type "%(type)s": expected a NetBox type such as 800gbase-x-osfp, '
                "400gbase-x-qsfpdd, 100gbase-x-qsfp28, 25gbase-x-sfp28, 1000base-t or infiniband-ndr.")
                % {"type": slug})
            continue
        entries.append((name, slug.strip().lower(), kind, interface))
    eth_names = [name for name, _slug, kind, _i in entries if kind.use == DATA and LONE_ETH.match(name)]
    other_data = any(kind.use == DATA and not LONE_ETH.match(name) for name, _s, kind, _i in entries)
    groups: dict[tuple, PortGroup] = {}
    for name, slug, kind, interface in entries:
        description = _text(interface.get("description")) + " " + _text(interface.get("label"))
        if kind.use != DATA:
            reason = {NOT_A_PORT: _("not physical ports"), OTHER_MEDIUM: _("not Ethernet or InfiniBand ports"),
                      STACKING: _("stacking ports"), BACKPLANE: _("backplane ports")}[kind.use]
            left_out.setdefault(reason, []).append(name)
        elif interface.get("mgmt_only") is True:
            left_out.setdefault(_("management ports"), []).append(name)
        elif MANAGEMENT_NAME.search(name) or MANAGEMENT_NAME.search(description) or (
                LONE_ETH.match(name) and other_data and len(eth_names) < 4):
            left_out.setdefault(_("management ports not marked mgmt_only"), []).append(name)
        else:
            key = (kind.gbps, kind.form_factor, kind.fabric, kind.ports_per_cage, kind.unsupported_cage)
            group = groups.setdefault(key, PortGroup(kind.gbps, kind.form_factor, kind.fabric, kind.ports_per_cage,
                                                     kind.unsupported_cage, slug))
            group.names.append(name)
    return list(groups.values()), left_out


def _infiniband_typed_as_ethernet(reading: Reading, groups: list[PortGroup]) -> None:
    """Turn Ethernet-typed ports of an InfiniBand switch into IB ports, saying why."""
    family = infiniband_family(reading.model, reading.part_number, reading.slug)
    fast = [g for g in groups if g.fabric == ETHERNET and g.gbps >= FABRIC_MIN_GBPS]
    if not fast:
        return
    named_ib = [g for g in fast if sum(bool(IB_PORT_NAME.match(n)) for n in g.names) > g.ports / 2]
    if family is None and not named_ib:
        return
    for group in fast:
        port_gbps = family.port_gbps if family else int(group.gbps)
        if family and group.gbps == 2 * family.port_gbps and family.port_gbps in TWIN_PORT_GBPS:
            group.interfaces_are_cages = True  # one interface per twin-port cage
            group.ports_per_cage = 2
        elif port_gbps in TWIN_PORT_GBPS and group.gbps == port_gbps:
            group.ports_per_cage = 2
        group.fabric = INFINIBAND
    evidence = (_("the %(family)s model family is an NVIDIA InfiniBand switch") % {"family": family.name}
                if family else _("its ports are named like InfiniBand ports (%(names)s)")
                % {"names": _names(named_ib[0].names, 2)})
    reading.warnings.append(_(
        "%(switch)s: the file types its ports as Ethernet (%(type)s), but %(evidence)s; it is imported as an "
        "InfiniBand switch. Change its fabric in the catalog if it is an Ethernet switch.")
        % {"switch": reading.label, "type": fast[0].type_slug, "evidence": evidence})


def _classify(reading: Reading, groups: list[PortGroup], left_out: dict[str, list[str]]) -> None:
    """Choose the access and uplink groups and the switch class; count and name what is left out."""
    access = max(groups, key=lambda g: (g.cages, g.gbps))
    uplink = None
    if not access.usable:
        cage = access.unsupported_cage or access.form_factor or access.type_slug
        if access.fabric == INFINIBAND and not access.form_factor:
            message = _("Its %(n)s data ports are %(cage)s InfiniBand ports (%(gbps)s Gb/s): the catalog's "
                        "InfiniBand switches start at EDR (100 Gb/s).")
        elif not access.form_factor:
            message = _("Its %(n)s data ports sit in %(cage)s cages, which the catalog does not stock (it knows "
                        "OSFP, OSFP-RHS, QSFP-DD, QSFP112, QSFP56, QSFP28, QSFP+, SFP-DD, DSFP, SFP56, SFP28, "
                        "SFP+, SFP and RJ45).")
        else:
            message = _("Its %(n)s data ports run at %(gbps)s Gb/s, a speed the catalog cannot hold (whole "
                        "gigabits from 1G up).")
        reading.issue("interfaces", message % {"n": access.ports, "cage": cage, "gbps": f"{access.gbps:g}"})
        return
    if access.fabric == INFINIBAND:
        switch_class = "fabric"
    elif access.gbps >= FABRIC_MIN_GBPS:
        faster = [g for g in groups if g is not access and g.usable and g.fabric == ETHERNET
                  and g.gbps > access.gbps and g.cages < access.cages]
        uplink = max(faster, key=lambda g: (g.cages * g.gbps, g.gbps)) if faster else None
        switch_class = "frontend" if uplink else "fabric"
    else:
        faster = [g for g in groups if g is not access and g.usable and g.fabric == ETHERNET and g.gbps > access.gbps]
        uplink = max(faster, key=lambda g: (g.cages * g.gbps, g.gbps)) if faster else None
        switch_class = "management" if access.gbps <= MANAGEMENT_MAX_GBPS else "frontend"
    parts = [f"{reason} ({_names(names)})" for reason, names in left_out.items()]
    skipped = [group for group in groups if group is not access and group is not uplink]
    parts += [_("%(n)s × %(kind)s (%(names)s)") % {"n": g.ports, "kind": g.label(), "names": _names(g.names)}
              for g in skipped]
    total = sum(len(names) for names in left_out.values()) + sum(g.ports for g in skipped)
    if total:
        parts = "; ".join(parts)
        reading.warnings.append(ngettext(
            "%(switch)s: %(n)s interface is not modelled as a cage: %(parts)s.",
            "%(switch)s: %(n)s interfaces are not modelled as cages: %(parts)s.", total)
            % {"switch": reading.label, "n": total, "parts": parts})
    if access.fabric == INFINIBAND:
        _check_infiniband_layout(reading, access)
    cage_gbps = access.cage_gbps
    table = INFINIBAND_BREAKOUTS if access.fabric == INFINIBAND else STANDARD_BREAKOUTS
    breakouts = table.get(cage_gbps, [f"1x{cage_gbps}G"])
    reading.values.update({
        "fabric": access.fabric, "switch_class": switch_class, "cages": access.cages,
        "cage_form_factor": access.form_factor, "cage_gbps": cage_gbps, "breakouts": breakouts,
        "uplink_cages": uplink.cages if uplink else 0, "uplink_form_factor": uplink.form_factor if uplink else "",
        "uplink_gbps": int(uplink.gbps) if uplink else 0,
    })
    if switch_class != "fabric":
        reading.warnings.append(_(
            "%(switch)s: %(access)s access ports%(uplinks)s: imported as a %(class)s switch, not a backend "
            "fabric switch.") % {
            "switch": reading.label, "access": f"{access.cages} × {access.label()}",
            "uplinks": (_(" and %(n)s × %(kind)s uplinks") % {"n": uplink.cages, "kind": uplink.label()})
            if uplink else "",
            "class": _("front-end / storage") if switch_class == "frontend" else _("management")})


def _check_infiniband_layout(reading: Reading, group: PortGroup) -> None:
    family = infiniband_family(reading.model, reading.part_number, reading.slug)
    if (group.ports_per_cage > 1 and not group.interfaces_are_cages
            and group.ports != group.cages * group.ports_per_cage):
        missing = group.cages * group.ports_per_cage - group.ports
        reading.warnings.append(ngettext(
            "%(switch)s: %(n)s InfiniBand ports in %(cages)s twin-port cages: %(missing)s port of these cages "
            "is missing from the file; counted as %(cages)s cages.",
            "%(switch)s: %(n)s InfiniBand ports in %(cages)s twin-port cages: %(missing)s ports of these cages "
            "are missing from the file; counted as %(cages)s cages.", missing)
            % {"switch": reading.label, "n": group.ports, "cages": group.cages, "missing": missing})
    if family and family.cages and group.cages != family.cages:
        reading.warnings.append(_(
            "%(switch)s: the file gives %(cages)s cages; the %(family)s model has %(published)s cages "
            "(%(ports)s ports). Check the file against the data sheet.")
            % {"switch": reading.label, "cages": group.cages, "family": family.name,
               "published": family.cages, "ports": family.ports})


def _power(doc: dict, reading: Reading) -> dict[str, float | None]:
    """Power fields the file gives (none when it gives no draw values)."""
    ports = doc.get("power-ports")
    if ports is None:
        ports = []
    if not isinstance(ports, list):
        reading.issue("power-ports", _("Expected a list of power ports."))
        return {}
    typical = maximum = 0.0
    for i, port in enumerate(ports):
        if not isinstance(port, dict):
            reading.issue(f"power-ports[{i}]", _("Each power port is a mapping."))
            continue
        for key in ("maximum_draw", "allocated_draw"):
            if port.get(key) is None:
                continue
            watts = _number(port[key])
            if watts is None or watts < 0:
                reading.issue(f"power-ports[{i}].{key}", _("Give watts as a number."))
            elif key == "maximum_draw":
                maximum = max(maximum, watts)
            else:
                typical = max(typical, watts)
    label = reading.label
    if not maximum and not typical:
        reading.warnings.append(_("%(switch)s: the file gives no power draw.") % {"switch": label})
        return {}
    if len(ports) > 2:
        reading.warnings.append(_(
            "%(switch)s: %(n)s power supplies of up to %(w)s W each: one supply's rating is not the switch's "
            "draw, so its power is left empty; enter it from the data sheet.")
            % {"switch": label, "n": len(ports), "w": f"{max(maximum, typical):g}"})
        return {"power_typical_w": None, "power_max_w": None}
    return {"power_typical_w": typical or None, "power_max_w": maximum or None}


def _line_card_bays(doc: dict) -> list[str]:
    bays = doc.get("module-bays")
    names = []
    for bay in bays if isinstance(bays, list) else []:
        if not isinstance(bay, dict):
            continue
        text = " ".join(_text(bay.get(key)) for key in ("name", "label", "description"))
        if LINE_CARD_BAY.search(text) and not NOT_LINE_CARD_BAY.search(text):
            names.append(_text(bay.get("name")) or text.strip())
    return names
