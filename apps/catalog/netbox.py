"""Switch models from and to the NetBox device-type library YAML format.

Import rules:
- each YAML document is one device type (`manufacturer`, `model` required; `slug`,
  `part_number`, `u_height`, `interfaces`, `power-ports` read; other keys ignored);
- interface type slugs are normalised to (speed, cage form factor): the official NetBox
  slugs ("800gbase-x-osfp", "400gbase-x-qsfpdd", ...) and spellings seen in other files
  ("800gbase-osfp800", "400gbase-x-osfp-rhs", ...) both work;
- management-only interfaces, non-physical ones (virtual, lag, ...) and ports below 100G
  (1000base-t management, 10/25G SFP) are not fabric ports and are skipped;
- InfiniBand slugs (`infiniband-edr`, `-hdr`, `-ndr`, `-xdr`) make an InfiniBand switch: NetBox
  lists IB ports, not cages, and NDR/XDR switches (Quantum-2, Quantum-X800) carry two ports per
  OSFP cage, so 64 `infiniband-ndr` ports are 32 800G OSFP cages split 2x400G; HDR is one port
  per QSFP56 cage, EDR one per QSFP28. Export writes one interface per port the same way, so a
  switch imports back to the same cages; older generations (SDR..FDR) are below 100G, not fabric ports;
- cages = the number of interfaces of the most common high-speed (speed, form factor);
  other high-speed interfaces are reported as a warning;
- breakouts = the native mode plus the standard splits for that speed;
- power: the PSUs are redundant, so the largest `allocated_draw` is the typical draw and
  the largest `maximum_draw` the maximum;
- SKU = `part_number`, else `slug`; a new switch gets price 0 marked "price missing"
  (not an example), an existing one keeps its price;
- any unknown interface type, missing key or malformed YAML is an error naming the file,
  document and key, and nothing is saved.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import yaml
from django.core.exceptions import PermissionDenied
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .kinds import SWITCHES
from .models import Fabric, FormFactor, SwitchModel, parse_breakout
from .services import CatalogImportError, CatalogRow, ImportIssue, ImportResult, catalog_rows_upsert

MIN_FABRIC_GBPS = 100

STANDARD_BREAKOUTS: dict[int, list[str]] = {
    1600: ["1x1600G", "2x800G", "4x400G", "8x200G"],
    800: ["1x800G", "2x400G", "4x200G"],
    400: ["1x400G", "2x200G", "4x100G"],
    200: ["1x200G", "2x100G", "4x50G"],
    100: ["1x100G", "2x50G", "4x25G"],
}

# NetBox's own slugs, for export; import also accepts spellings matched by _parse_type.
NETBOX_TYPE: dict[tuple[int, str], str] = {
    (800, FormFactor.OSFP): "800gbase-x-osfp",
    (800, FormFactor.QSFP_DD): "800gbase-x-qsfpdd",
    (400, FormFactor.OSFP): "400gbase-x-osfp",
    (400, FormFactor.QSFP_DD): "400gbase-x-qsfpdd",
    (400, FormFactor.QSFP112): "400gbase-x-qsfp112",
    (200, FormFactor.QSFP56): "200gbase-x-qsfp56",
    (200, FormFactor.QSFP_DD): "200gbase-x-qsfpdd",
    (100, FormFactor.QSFP28): "100gbase-x-qsfp28",
    (100, FormFactor.QSFP_DD): "100gbase-x-qsfpdd",
}

NOT_PORTS = {"virtual", "bridge", "lag", "other", "other-wireless"}
NOT_PORT_PREFIXES = ("ieee802.11", "gsm", "cdma", "lte", "4g", "5g", "t1", "e1", "t3", "e3", "xdsl", "docsis",
                     "bpon", "epon", "gpon", "xg-pon", "xgs-pon", "ng-pon", "10g-epon", "cisco-stackwise",
                     "juniper-vcp", "extreme-summitstack", "sonet-", "1gfc", "2gfc", "4gfc", "8gfc", "16gfc",
                     "32gfc", "64gfc", "128gfc", "moca", "bluetooth")
# NetBox InfiniBand slugs: (port Gb/s, cage form factor, ports per cage). Names carry no cage.
INFINIBAND_TYPES: dict[str, tuple[float, str, int]] = {
    "infiniband-sdr": (10, "", 1), "infiniband-ddr": (20, "", 1), "infiniband-qdr": (40, "", 1),
    "infiniband-fdr10": (40, "", 1), "infiniband-fdr": (56, "", 1), "infiniband-edr": (100, FormFactor.QSFP28, 1),
    "infiniband-hdr": (200, FormFactor.QSFP56, 1), "infiniband-ndr": (400, FormFactor.OSFP, 2),
    "infiniband-xdr": (800, FormFactor.OSFP, 2),
}
INFINIBAND_TYPE_BY_GBPS = {gbps: slug for slug, (gbps, _ff, _n) in INFINIBAND_TYPES.items() if gbps >= 100}
SPEED_RE = re.compile(r"^(?P<num>\d+(?:\.\d+)?)(?P<unit>[gtm]?)base", re.IGNORECASE)
# Longest first: "qsfpdd" must win over a bare "qsfp", "qsfp112" over "qsfp".
FORM_FACTOR_TOKENS = (
    ("qsfpdd", FormFactor.QSFP_DD), ("qsfp-dd", FormFactor.QSFP_DD), ("qsfp112", FormFactor.QSFP112),
    ("qsfp56", FormFactor.QSFP56), ("qsfp28", FormFactor.QSFP28), ("osfp", FormFactor.OSFP),
)


@dataclass(frozen=True)
class InterfaceKind:
    gbps: float  # 0 when the interface is not a physical port
    form_factor: str  # "" when the cage is not one the catalog knows
    fabric: str = Fabric.ETHERNET
    ports_per_cage: int = 1


def _parse_type(slug: str) -> InterfaceKind | None:
    """(speed, form factor) of a NetBox interface type slug; None if the slug means nothing to us."""
    text = slug.strip().lower()
    if text in INFINIBAND_TYPES:
        gbps, form_factor, per_cage = INFINIBAND_TYPES[text]
        return InterfaceKind(gbps, form_factor, Fabric.INFINIBAND, per_cage)
    if text.startswith("infiniband-"):
        return None
    if text in NOT_PORTS or text.startswith(NOT_PORT_PREFIXES):
        return InterfaceKind(0, "")
    match = SPEED_RE.match(text)
    if not match:
        return None
    number = float(match["num"])
    gbps = {"g": number, "t": number * 1000, "m": number / 1000, "": number / 1000}[match["unit"]]
    rest = text[match.end():]
    form_factor = next((ff for token, ff in FORM_FACTOR_TOKENS if token in rest), "")
    return InterfaceKind(gbps, form_factor)


def netbox_interface_kind(slug: str) -> tuple[int, str] | None:
    """Public helper: ("800gbase-osfp800") -> (800, "OSFP"); None for non-fabric or unknown types."""
    kind = _parse_type(slug)
    if kind is None or kind.gbps < MIN_FABRIC_GBPS or not kind.form_factor:
        return None
    return int(kind.gbps), kind.form_factor


@dataclass
class NetboxSource:
    name: str  # file name, for error messages
    text: str


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer past the float range
        return None
    return number if math.isfinite(number) else None


def _document_row(doc: dict, where: str, number: int, issues: list[ImportIssue],
                  warnings: list[str]) -> CatalogRow | None:
    start = len(issues)

    def issue(key: str, message: str) -> None:
        issues.append(ImportIssue(where, number, key, message))

    for key in ("manufacturer", "model"):
        if not isinstance(doc.get(key), (str, int, float)) or not str(doc.get(key)).strip():
            issue(key, _("Required: give the device type's %(key)s.") % {"key": key})
    manufacturer = str(doc.get("manufacturer") or "").strip()
    model = str(doc.get("model") or "").strip()

    interfaces = doc.get("interfaces")
    counts: Counter[tuple[int, str, str, int]] = Counter()
    if not isinstance(interfaces, list) or not interfaces:
        issue("interfaces", _("Required: list the device's interfaces with name and type."))
        interfaces = []
    for i, interface in enumerate(interfaces):
        key = f"interfaces[{i}]"
        if not isinstance(interface, dict):
            issue(key, _("Each interface is a mapping with name and type."))
            continue
        if not str(interface.get("name") or "").strip():
            issue(f"{key}.name", _("Required."))
        slug = interface.get("type")
        if not isinstance(slug, str) or not slug.strip():
            issue(f"{key}.type", _("Required."))
            continue
        if interface.get("mgmt_only") is True:
            continue
        kind = _parse_type(slug)
        if kind is None or (kind.gbps >= MIN_FABRIC_GBPS and not kind.form_factor):
            issue(f"{key}.type", _('Unknown interface type "%(type)s": expected a type such as 800gbase-x-osfp, '
                                   '400gbase-x-qsfpdd, 400gbase-x-qsfp112 or infiniband-ndr.') % {"type": slug})
            continue
        if kind.gbps < MIN_FABRIC_GBPS:
            continue  # management, console-speed and non-physical ports are not fabric ports
        counts[(int(kind.gbps), kind.form_factor, kind.fabric, kind.ports_per_cage)] += 1
    if interfaces and not counts and len(issues) == start:
        issue("interfaces", _("No data interfaces of %(gbps)sG or faster.") % {"gbps": MIN_FABRIC_GBPS})

    u_height = doc.get("u_height", 1)
    rack_units = _number(u_height)
    if rack_units is None or rack_units <= 0:
        issue("u_height", _("Give the height in rack units (a positive number)."))
        rack_units = 1

    power_ports = doc.get("power-ports") or []
    typical = maximum = 0.0
    if not isinstance(power_ports, list):
        issue("power-ports", _("Expected a list of power ports."))
        power_ports = []
    for i, port in enumerate(power_ports):
        if not isinstance(port, dict):
            issue(f"power-ports[{i}]", _("Each power port is a mapping."))
            continue
        for key in ("maximum_draw", "allocated_draw"):
            if port.get(key) is None:
                continue
            watts = _number(port[key])
            if watts is None or watts < 0:
                issue(f"power-ports[{i}].{key}", _("Give watts as a number."))
            elif key == "maximum_draw":
                maximum = max(maximum, watts)
            else:
                typical = max(typical, watts)

    part_number = str(doc.get("part_number") or "").strip()
    slug = str(doc.get("slug") or "").strip()
    if len(issues) > start:
        return None

    (port_gbps, form_factor, fabric, per_cage), ports = max(counts.items(), key=lambda item: (item[1], item[0][0]))
    others = sum(counts.values()) - ports
    cages, gbps = math.ceil(ports / per_cage), port_gbps * per_cage
    label = f"{manufacturer} {model}"
    if others:
        warnings.append(_("%(switch)s: %(n)s interface(s) of other types were not counted as cages.")
                        % {"switch": label, "n": others})
    if not maximum and not typical:
        warnings.append(_("%(switch)s: no power draw in the file; power left empty (not published).")
                        % {"switch": label})
    sku = part_number or slug or slugify(f"{manufacturer}-{model}")
    breakouts = STANDARD_BREAKOUTS.get(gbps, [f"1x{gbps}G"])
    if per_cage > 1:  # a twin-port cage never runs as one port; its native mode is the split
        breakouts = [mode for mode in breakouts if not mode.startswith("1x")]
    values: dict[str, Any] = {
        "sku": sku, "manufacturer": manufacturer, "model": model, "fabric": fabric,
        "description": str(doc.get("comments") or "").strip()
        or _("Imported from the NetBox device-type library (%(slug)s).") % {"slug": slug or sku},
        "asic_tbps": Decimal(cages * gbps) / 1000, "cages": cages, "cage_form_factor": form_factor,
        "cage_gbps": gbps, "breakouts": breakouts, "rack_units": math.ceil(rack_units),
        "power_typical_w": typical or maximum or None, "power_max_w": maximum or typical or None,
    }
    existing = SwitchModel.objects.filter(sku=sku).only("list_price").first()
    if existing is None:
        values.update(list_price=0, price_is_example=False)
        warnings.append(_("%(switch)s (%(sku)s): price missing; set its list price before quoting.")
                        % {"switch": label, "sku": sku})
    elif not existing.list_price:
        warnings.append(_("%(switch)s (%(sku)s): price missing; set its list price before quoting.")
                        % {"switch": label, "sku": sku})
    return CatalogRow(SWITCHES, where, number, values)


# Where a model field came from in the YAML, to point errors at the user's key.
FIELD_TO_KEY = {
    "sku": "part_number", "rack_units": "u_height", "cages": "interfaces", "cage_gbps": "interfaces",
    "cage_form_factor": "interfaces", "breakouts": "interfaces", "asic_tbps": "interfaces",
    "power_typical_w": "power-ports", "power_max_w": "power-ports", "description": "comments",
}


def netbox_rows(*, sources: list[NetboxSource]) -> tuple[list[CatalogRow], list[str]]:
    """Switch rows from NetBox device-type YAML texts; CatalogImportError naming file, document and key."""
    issues: list[ImportIssue] = []
    warnings: list[str] = []
    rows: list[CatalogRow] = []
    for source in sources:
        try:
            documents = list(yaml.safe_load_all(source.text))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = _(" (line %(line)s)") % {"line": mark.line + 1} if mark else ""
            issues.append(ImportIssue(source.name, None, "", _("Not valid YAML%(where)s: %(problem)s")
                                      % {"where": where, "problem": getattr(exc, "problem", None) or exc}))
            continue
        except (ValueError, RecursionError) as exc:  # past int()'s digit limit, or nested past the stack
            problem = (_("nested too deeply") if isinstance(exc, RecursionError)
                       else _("a number has too many digits"))
            issues.append(ImportIssue(source.name, None, "", _("Not valid YAML%(where)s: %(problem)s")
                                      % {"where": "", "problem": problem}))
            continue
        flat: list[Any] = []
        for document in documents:
            flat.extend(document if isinstance(document, list) else [document])
        flat = [d for d in flat if d is not None]
        if not flat:
            issues.append(ImportIssue(source.name, None, "", _("No device type in this file.")))
        for number, document in enumerate(flat, start=1):
            if not isinstance(document, dict):
                issues.append(ImportIssue(source.name, number, "", _("Expected a device type (a mapping of keys).")))
                continue
            row = _document_row(document, source.name, number, issues, warnings)
            if row is not None:
                rows.append(row)
    if issues:
        raise CatalogImportError(issues)
    return rows, warnings


def netbox_device_types_import(*, sources: list[NetboxSource], user) -> ImportResult:
    """Upsert switch models from NetBox device-type YAML (staff only), all or nothing."""
    if not getattr(user, "is_staff", False):
        raise PermissionDenied(_("Only staff can change the catalog."))
    rows, warnings = netbox_rows(sources=sources)
    try:
        result = catalog_rows_upsert(rows=rows, create_manufacturers=True)
    except CatalogImportError as exc:
        raise CatalogImportError([
            ImportIssue(i.sheet, i.row, FIELD_TO_KEY.get(i.column, i.column), i.message) for i in exc.issues
        ]) from None
    result.warnings.extend(warnings)
    return result


def netbox_device_type_yaml(*, switch: SwitchModel) -> str:
    """The switch as a NetBox device-type library YAML document (imports back to the same cages and power)."""
    interface_type = NETBOX_TYPE.get(
        (switch.cage_gbps, switch.cage_form_factor),
        f"{switch.cage_gbps}gbase-x-{switch.cage_form_factor.lower().replace('-', '')}",
    )
    interfaces = [{"name": f"Ethernet{i}", "type": interface_type} for i in range(1, switch.cages + 1)]
    if switch.fabric == Fabric.INFINIBAND:
        interfaces = _infiniband_interfaces(switch)
    document: dict[str, Any] = {
        "manufacturer": switch.manufacturer.name,
        "model": switch.model,
        "slug": slugify(f"{switch.manufacturer.name}-{switch.model}"),
        "part_number": switch.sku,
        "u_height": switch.rack_units,
        "is_full_depth": True,
        "comments": switch.description,
        "interfaces": interfaces,
        "power-ports": [
            {"name": f"PSU{i}", "type": "iec-60320-c20"}
            | ({"maximum_draw": round(switch.power_max_w)} if switch.power_max_w else {})
            | ({"allocated_draw": round(switch.power_typical_w)} if switch.power_typical_w else {})
            for i in (1, 2)
        ],
    }
    if not switch.description:
        del document["comments"]
    return "---\n" + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=120)


def _infiniband_interfaces(switch: SwitchModel) -> list[dict[str, str]]:
    """One NetBox interface per IB port of the native mode (QM9700: IB1/1, IB1/2, ... infiniband-ndr)."""
    try:
        per_cage, port_gbps = parse_breakout(switch.native_breakout)
    except ValueError:
        per_cage, port_gbps = 1, switch.cage_gbps
    slug = INFINIBAND_TYPE_BY_GBPS.get(port_gbps, "infiniband-ndr")
    if per_cage == 1:
        return [{"name": f"IB{i}", "type": slug} for i in range(1, switch.cages + 1)]
    return [{"name": f"IB{cage}/{port}", "type": slug}
            for cage in range(1, switch.cages + 1) for port in range(1, per_cage + 1)]
