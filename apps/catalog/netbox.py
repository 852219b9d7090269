"""Switch models from and to the NetBox device-type library YAML format.

Import rules (how one document becomes a switch: apps.catalog.netbox_reading):
- an import is previewed first: `netbox_import_plan` reads every file and says, per file and switch, what
  would be created or changed (field, catalog value, file value), what is refused and why, and gives a
  digest of that plan; nothing is saved. `netbox_import_apply` saves only when it is given the digest of
  the plan it recomputes, so the user saves what they saw (the catalog or the files changed since: the
  plan is shown again);
- an existing switch is found by SKU (the file's `part_number`, then its `slug`), else by manufacturer
  and model (Mellanox is NVIDIA; "SN5600" is the seed's "Spectrum-4 SN5600"); it keeps what the file does
  not carry: model, description, price, ASIC, source, breakout modes of unchanged cages, its class where
  the ports allow it, and its power when the file gives none (or more than two supplies);
- a new switch gets SKU = `part_number`, else `slug`; price 0 marked "price missing" (not an example),
  ASIC capacity empty, and the library file as its source;
- a batch is reported per file; a file with any refused document is refused whole. Nothing is saved
  while a file is refused, unless the user chooses to skip the refused files: then the good ones are
  imported and the skipped ones listed;
- malformed YAML, missing keys and unknown interface types are errors naming the file, the document and
  the key.

Export writes the access cages, then the uplink cages, as NetBox interface types, two power supplies
with the draw values the catalog knows (none of 0 W, which the library's schema refuses), and stays
valid against the library's JSON schema; an InfiniBand switch lists one interface per IB port.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import yaml
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .kinds import SWITCHES
from .models import Fabric, SwitchModel, parse_breakout
from .netbox_reading import URL, Reading, device_type_reading
from .netbox_types import INFINIBAND_TYPE_BY_GBPS, netbox_slug
from .services import CatalogImportError, CatalogRow, ImportIssue, ImportResult, _coerce, catalog_rows_upsert

CREATE, UPDATE, UNCHANGED, REFUSED = "create", "update", "unchanged", "refused"
LIBRARY = "NetBox device-type library (github.com/netbox-community/devicetype-library)"
# Where a model field came from in the YAML, to point errors at the user's key.
FIELD_TO_KEY = {
    "sku": "part_number", "rack_units": "u_height", "cages": "interfaces", "cage_gbps": "interfaces",
    "cage_form_factor": "interfaces", "breakouts": "interfaces", "asic_tbps": "interfaces",
    "uplink_cages": "interfaces", "uplink_gbps": "interfaces", "uplink_form_factor": "interfaces",
    "switch_class": "interfaces", "fabric": "interfaces",
    "power_typical_w": "power-ports", "power_max_w": "power-ports", "description": "comments",
}
MANUFACTURER_ALIASES = {"mellanox": "nvidia", "mellanox technologies": "nvidia", "nvidia networking": "nvidia",
                        "dell emc": "dell", "dell technologies": "dell", "edge-core": "edgecore", "fs.com": "fs"}
# Classes a file's ports allow: uplinks or access below 100G rule out the backend fabric.
PORT_CLASSES = {"fabric": {"fabric", "frontend"}, "frontend": {"frontend", "management"},
                "management": {"management", "frontend"}}


@dataclass
class NetboxSource:
    name: str  # file name, for error messages
    text: str


@dataclass(frozen=True)
class FieldChange:
    field: str
    label: str
    old: str
    new: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "label": self.label, "old": self.old, "new": self.new}


@dataclass
class SwitchPlan:
    source: str
    document: int
    label: str
    action: str = REFUSED
    sku: str = ""
    matched_by: str = ""  # "part_number", "slug", "model" or "" for a new switch
    changes: list[FieldChange] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    issues: list[ImportIssue] = field(default_factory=list)
    row: CatalogRow | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"document": self.document, "switch": self.label, "action": self.action, "sku": self.sku,
                "matched_by": self.matched_by, "changes": [c.as_dict() for c in self.changes],
                "warnings": list(self.warnings), "errors": [i.as_dict() for i in self.issues]}


@dataclass
class FilePlan:
    name: str
    switches: list[SwitchPlan] = field(default_factory=list)
    issues: list[ImportIssue] = field(default_factory=list)  # the file's own (YAML) problems

    @property
    def refused(self) -> bool:
        return bool(self.issues) or any(s.action == REFUSED for s in self.switches)

    @property
    def all_issues(self) -> list[ImportIssue]:
        return self.issues + [i for s in self.switches for i in s.issues]

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.name, "status": REFUSED if self.refused else "ok",
                "errors": [i.as_dict() for i in self.issues], "switches": [s.as_dict() for s in self.switches]}


@dataclass
class ImportPlan:
    files: list[FilePlan]
    digest: str = ""

    @property
    def refused_files(self) -> list[FilePlan]:
        return [f for f in self.files if f.refused]

    @property
    def good_files(self) -> list[FilePlan]:
        return [f for f in self.files if not f.refused]

    def count(self, action: str) -> int:
        return sum(s.action == action for f in self.good_files for s in f.switches)

    def as_dict(self) -> dict[str, Any]:
        return {"digest": self.digest, "files": [f.as_dict() for f in self.files],
                "refused_files": len(self.refused_files), "to_create": self.count(CREATE),
                "to_update": self.count(UPDATE), "unchanged": self.count(UNCHANGED)}


class NetboxPlanChanged(Exception):
    """The digest the user confirmed is not the plan's any more; `plan` is the plan as it is now."""

    def __init__(self, plan: ImportPlan):
        self.plan = plan
        super().__init__(_("The catalog or the files changed since the preview: check the changes and confirm "
                           "again."))


def _staff(user) -> None:
    if not getattr(user, "is_staff", False):
        raise PermissionDenied(_("Only staff can change the catalog."))


def _documents(source: NetboxSource, file_plan: FilePlan) -> list[tuple[int, Any]]:
    try:
        documents = list(yaml.safe_load_all(source.text))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = _(" (line %(line)s)") % {"line": mark.line + 1} if mark else ""
        file_plan.issues.append(ImportIssue(source.name, None, "", _("Not valid YAML%(where)s: %(problem)s")
                                            % {"where": where, "problem": getattr(exc, "problem", None) or exc}))
        return []
    except (ValueError, RecursionError) as exc:  # past int()'s digit limit, or nested past the stack
        problem = _("nested too deeply") if isinstance(exc, RecursionError) else _("a number has too many digits")
        file_plan.issues.append(ImportIssue(source.name, None, "", _("Not valid YAML%(where)s: %(problem)s")
                                            % {"where": "", "problem": problem}))
        return []
    flat: list[Any] = []
    for document in documents:
        flat.extend(document if isinstance(document, list) else [document])
    flat = [d for d in flat if d is not None]
    if not flat:
        file_plan.issues.append(ImportIssue(source.name, None, "", _("No device type in this file.")))
    return list(enumerate(flat, start=1))


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _maker(name: str) -> str:
    name = name.strip().lower()
    return MANUFACTURER_ALIASES.get(name, name)


def _model_keys(model: str) -> set[str]:
    words = model.split()
    return {k for k in (_key(model), _key(words[-1]) if words else "") if k}


class _Catalog:
    """The catalog's switches, read once, to match files against."""

    def __init__(self):
        self.switches = list(SwitchModel.objects.select_related("manufacturer"))
        self.by_sku = {s.sku.lower(): s for s in self.switches}

    def match(self, reading: Reading) -> tuple[SwitchModel | None, str, list[SwitchModel]]:
        for key, how in ((reading.part_number, "part_number"), (reading.slug, "slug")):
            if key and key.lower() in self.by_sku:
                return self.by_sku[key.lower()], how, []
        keys = _model_keys(reading.model)
        found = [s for s in self.switches
                 if _maker(s.manufacturer.name) == _maker(reading.manufacturer) and keys & _model_keys(s.model)]
        if len(found) == 1:
            return found[0], "model", []
        return None, "", found


def _display(value: Any) -> str:
    if value is None or value == "":
        return "-"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return str(value)


def _switch_plan(reading: Reading, catalog: _Catalog) -> SwitchPlan:
    plan = SwitchPlan(reading.source, reading.document, reading.label, warnings=list(reading.warnings))
    if reading.refused:
        plan.issues = list(reading.issues)
        return plan
    existing, matched_by, several = catalog.match(reading)
    if several:
        plan.issues.append(ImportIssue(reading.source, reading.document, "model", _(
            "%(switch)s matches several catalog switches (%(skus)s): give the file the part_number of one of "
            "them.") % {"switch": reading.label, "skus": ", ".join(s.sku for s in several)}))
        return plan
    values = dict(reading.values)
    if existing is None:
        _new_switch_values(reading, values, plan)
    else:
        plan.sku, plan.matched_by = existing.sku, matched_by
        _kept_values(reading, existing, values, plan)
    plan.row = CatalogRow(SWITCHES, reading.source, reading.document, values)
    return plan


def _new_switch_values(reading: Reading, values: dict[str, Any], plan: SwitchPlan) -> None:
    sku = reading.part_number or reading.slug or slugify(f"{reading.manufacturer}-{reading.model}")
    urls = URL.findall(reading.comments)
    values.update({
        "sku": sku, "manufacturer": reading.manufacturer, "model": reading.model,
        "description": reading.description or reading.comments
        or _("Imported from the NetBox device-type library (%(slug)s).") % {"slug": reading.slug or sku},
        "source": reading.source_note or f"{LIBRARY}: {reading.source}" + (f"; {urls[0]}" if urls else ""),
        "asic_tbps": None, "list_price": 0, "price_is_example": False,
        "power_typical_w": values.get("power_typical_w"), "power_max_w": values.get("power_max_w"),
    })
    plan.sku, plan.action = sku, CREATE
    plan.warnings.append(_("%(switch)s (%(sku)s): price missing; set its list price before quoting.")
                         % {"switch": reading.label, "sku": sku})
    plan.changes = [FieldChange(column, _label(column), "-", _display(values[column]))
                    for column in SWITCHES.columns if column in values and column != "sku"]


def _kept_values(reading: Reading, existing: SwitchModel, values: dict[str, Any], plan: SwitchPlan) -> None:
    """Keep what the file does not say; list what it changes."""
    values["sku"] = existing.sku
    if (existing.cage_gbps, existing.cage_form_factor) == (values["cage_gbps"], values["cage_form_factor"]) \
            and existing.breakouts:
        values["breakouts"] = existing.breakouts
    same_uplinks = (existing.uplink_gbps, existing.uplink_form_factor) == (values["uplink_gbps"],
                                                                           values["uplink_form_factor"])
    values["uplink_breakouts"] = existing.uplink_breakouts if same_uplinks and values["uplink_cages"] else []
    if values["fabric"] == Fabric.ETHERNET and existing.switch_class in PORT_CLASSES[values["switch_class"]] \
            and not (existing.switch_class == "fabric" and values["uplink_cages"]):
        values["switch_class"] = existing.switch_class
    for column in ("power_typical_w", "power_max_w"):
        if values.get(column) is None:
            values.pop(column, None)  # a file without a usable draw never empties the catalog's figure
    if "power_max_w" not in values and (existing.power_typical_w or existing.power_max_w):
        plan.warnings.append(_("%(switch)s: the catalog's power (%(typical)s / %(max)s W) is kept.")
                             % {"switch": reading.label, "typical": _display(existing.power_typical_w),
                                "max": _display(existing.power_max_w)})
    bandwidth = Decimal(values["cages"] * values["cage_gbps"] + values["uplink_cages"] * values["uplink_gbps"])
    if existing.asic_tbps and bandwidth / 1000 > existing.asic_tbps * Decimal("1.05"):
        values["asic_tbps"] = None
        plan.warnings.append(_("%(switch)s: its ports need more than the catalog's %(tbps)s Tb/s ASIC; the ASIC "
                               "capacity is emptied, enter it from the data sheet.")
                             % {"switch": reading.label, "tbps": _display(existing.asic_tbps)})
    for column, value in values.items():
        if column == "sku":
            continue
        model_field = SwitchModel._meta.get_field(column)
        try:
            new = _coerce(model_field, value)
        except ValidationError:  # a bad value is reported by the validation pass
            new = value
        old = getattr(existing, model_field.attname)
        if _display(old) != _display(new):
            plan.changes.append(FieldChange(column, _label(column), _display(old), _display(new)))
    plan.action = UPDATE if plan.changes else UNCHANGED
    if not existing.list_price:
        plan.warnings.append(_("%(switch)s (%(sku)s): price missing; set its list price before quoting.")
                             % {"switch": reading.label, "sku": existing.sku})


def _label(column: str) -> str:
    return str(SwitchModel._meta.get_field(column).verbose_name)


class _DryRun(Exception):
    pass


def _validate(plans: list[SwitchPlan]) -> None:
    """Run the rows through the catalog's checks and roll back; a row's problems refuse its document."""
    rows = [p.row for p in plans if p.row is not None and p.action in (CREATE, UPDATE)]
    if not rows:
        return
    try:
        with transaction.atomic():
            catalog_rows_upsert(rows=rows, create_manufacturers=True)
            raise _DryRun
    except _DryRun:
        return
    except CatalogImportError as exc:
        by_document: dict[tuple[str, int | None], list[ImportIssue]] = {}
        for issue in exc.issues:
            key = ImportIssue(issue.sheet, issue.row, FIELD_TO_KEY.get(issue.column, issue.column), issue.message)
            by_document.setdefault((issue.sheet, issue.row), []).append(key)
        for plan in plans:
            found = by_document.get((plan.source, plan.document))
            if found:
                plan.issues.extend(found)
                plan.action = REFUSED


def _digest(files: list[FilePlan]) -> str:
    """What the user confirms: per file and switch, the action and every change (language-independent)."""
    data = [[f.name, f.refused, [(i.row, i.column) for i in f.all_issues],
             [[s.document, s.sku, s.action, [[c.field, c.old, c.new] for c in s.changes]] for s in f.switches]]
            for f in files]
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=True).encode()).hexdigest()[:32]


def netbox_import_plan(*, sources: list[NetboxSource], user) -> ImportPlan:
    """What importing these files would do, per file and switch; saves nothing (staff only)."""
    _staff(user)
    catalog = _Catalog()
    files: list[FilePlan] = []
    plans: list[SwitchPlan] = []
    seen: dict[str, SwitchPlan] = {}
    for source in sources:
        # A browser posts the preview's hidden copy back with CRLF line ends: the plan must not change for that.
        source = NetboxSource(source.name, source.text.replace("\r\n", "\n"))
        file_plan = FilePlan(source.name)
        files.append(file_plan)
        for number, document in _documents(source, file_plan):
            if not isinstance(document, dict):
                file_plan.issues.append(ImportIssue(source.name, number, "", _("Expected a device type (a mapping "
                                                                                "of keys).")))
                continue
            plan = _switch_plan(device_type_reading(document, source=source.name, document=number), catalog)
            other = seen.get(plan.sku.lower()) if plan.sku else None
            if other is not None and plan.action != REFUSED:
                plan.action, plan.row = REFUSED, None
                plan.issues.append(ImportIssue(source.name, number, "part_number", _(
                    "The same switch (%(sku)s) as %(other)s, document %(document)s.")
                    % {"sku": plan.sku, "other": other.source, "document": other.document}))
            elif plan.sku:
                seen[plan.sku.lower()] = plan
            file_plan.switches.append(plan)
            plans.append(plan)
    _validate(plans)
    return ImportPlan(files, _digest(files))


def netbox_import_apply(*, sources: list[NetboxSource], digest: str, skip_refused: bool, user) -> tuple[
        ImportResult, ImportPlan]:
    """Save the plan the user confirmed (its digest); the refused files are skipped only when asked."""
    plan = netbox_import_plan(sources=sources, user=user)
    if plan.digest != (digest or "").strip():
        raise NetboxPlanChanged(plan)
    refused = plan.refused_files
    if refused and not skip_refused:
        raise CatalogImportError([issue for f in refused for issue in f.all_issues])
    rows = [s.row for f in plan.good_files for s in f.switches if s.action in (CREATE, UPDATE) and s.row]
    try:
        result = catalog_rows_upsert(rows=rows, create_manufacturers=True)
    except CatalogImportError as exc:  # the catalog changed between the plan and now
        raise CatalogImportError([ImportIssue(i.sheet, i.row, FIELD_TO_KEY.get(i.column, i.column), i.message)
                                  for i in exc.issues]) from None
    result.unchanged["switches"] += plan.count(UNCHANGED)
    result.skus = [s.sku for f in plan.good_files for s in f.switches]
    result.warnings.extend(w for f in plan.good_files for s in f.switches for w in s.warnings)
    for file_plan in refused:
        result.warnings.append(_("%(file)s skipped: %(reason)s") % {
            "file": file_plan.name, "reason": file_plan.all_issues[0].message if file_plan.all_issues else ""})
    return result, plan


def netbox_device_type_yaml(*, switch: SwitchModel) -> str:
    """The switch as a NetBox device-type library document (valid against the library's JSON schema)."""
    if switch.fabric == Fabric.INFINIBAND:
        interfaces = _infiniband_interfaces(switch)
    else:
        interfaces = [{"name": f"Ethernet{i}", "type": netbox_slug(switch.cage_gbps, switch.cage_form_factor)}
                      for i in range(1, switch.cages + 1)]
        uplink_type = netbox_slug(switch.uplink_gbps, switch.uplink_form_factor)
        interfaces += [{"name": f"Ethernet{switch.cages + i}", "type": uplink_type}
                       for i in range(1, (switch.uplink_cages or 0) + 1)]
    power = {}
    if switch.power_max_w:
        power["maximum_draw"] = max(1, round(switch.power_max_w))
    if switch.power_typical_w:
        power["allocated_draw"] = max(1, round(switch.power_typical_w))
    comments = "\n\n".join(part for part in (switch.description.strip(), _source_line(switch)) if part)
    document: dict[str, Any] = {
        "manufacturer": switch.manufacturer.name[:100],
        "model": switch.model[:100],
        "slug": (slugify(f"{switch.manufacturer.name}-{switch.model}") or slugify(f"switch-{switch.pk}"))[:100],
        "part_number": switch.sku,
        "u_height": switch.rack_units,
        "is_full_depth": True,
        "comments": comments,
        "interfaces": interfaces,
        "power-ports": [{"name": f"PSU{i}", "type": "iec-60320-c20"} | power for i in (1, 2)],
    }
    if len(switch.sku) > 50:  # the library's limit; the import then matches by manufacturer and model
        del document["part_number"]
    if not comments:
        del document["comments"]
    return "---\n" + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=120)


def _source_line(switch: SwitchModel) -> str:
    """A "Source: ..." line the import reads back (a key of the file, not translated)."""
    source = " ".join((getattr(switch, "source", "") or "").split())
    return f"Source: {source}" if source else ""


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
