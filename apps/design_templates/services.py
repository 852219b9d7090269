"""Templates in and out: the seed file, starting a design from a template, saving a version as one.

Rules:
- A template's `inputs` are the design API's inputs (apps.designs.services.inputs) with catalog items
  named by SKU (server, nic, leaf_switch, spine_switch, core_switch, networks.frontend/storage .switch and
  .spine_switch). Starting from a template turns each SKU into the catalog's id; a SKU the catalog lacks
  or no longer offers is an error on that input's own name, and nothing is created.
- Built-in templates come from seed/templates.yaml, upserted by slug (running the load twice changes
  nothing); a built-in template is never deleted by the load, and a staff-saved one is never touched.
- Only staff save templates, from a design version they can see (404 otherwise); a saved template keeps
  the version's inputs, not its project's discount or currency (the new design's project sets those).
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from apps.catalog.models import NicModel, ServerModel, SwitchModel
from apps.designs.models import DesignVersion
from apps.designs.services.design import design_create, design_spec_build
from apps.engine.plan import plan, size
from apps.engine.scaleup import RACK_SCALE, scale_up_summary
from apps.designs.services.inputs import design_inputs_from_version
from apps.projects.models import Project
from fabricweb.validators import DESCRIPTION_MAX_LENGTH, validate_single_line_name

from .models import TRANSLATED_FIELDS, DesignTemplate

SEED_FILE = Path(__file__).resolve().parent / "seed" / "templates.yaml"
CATALOG_INPUTS: dict[str, type] = {
    "server": ServerModel, "nic": NicModel, "leaf_switch": SwitchModel, "spine_switch": SwitchModel,
    "core_switch": SwitchModel,
}
NETWORK_CATALOG_INPUTS = {"frontend": ("switch", "spine_switch"), "storage": ("switch", "spine_switch")}
# Inputs a template never carries: the project of the new design sets them.
PROJECT_INPUTS = ("discount_pct", "currency")
NAME_MAX_LENGTH = DesignTemplate._meta.get_field("name").max_length
LANGUAGES = ("zh-hans",)


class TemplateSeedError(ValueError):
    """A seed file that can't be read: names the template and the key."""


# Seed ------------------------------------------------------------------------------------------

def _seed_read(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise TemplateSeedError(f"{path.name}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("templates"), list):
        raise TemplateSeedError(f"{path.name}: expected a mapping with a list of templates")
    for i, row in enumerate(data["templates"]):
        where = f"{path.name} templates[{i}]"
        if not isinstance(row, dict):
            raise TemplateSeedError(f"{where}: expected a mapping")
        for key in ("slug", "name", "inputs", "reference", "published"):
            if not row.get(key):
                raise TemplateSeedError(f"{where} ({row.get('slug', '?')}).{key}: missing")
        if not isinstance(row["inputs"], dict) or not isinstance(row["published"], dict):
            raise TemplateSeedError(f"{where} ({row['slug']}): inputs and published are mappings")
    return data


def design_templates_seed_load(*, path: Path = SEED_FILE) -> dict[str, int]:
    """Upsert the built-in templates of `path` by slug, all or nothing; {"created": n, "updated": n, "unchanged": n}."""
    data = _seed_read(path)
    counts = {"created": 0, "updated": 0, "unchanged": 0}
    with transaction.atomic():
        for row in data["templates"]:
            reference = row.get("reference") or {}
            values = {
                "name": str(row["name"]).strip(),
                "description": str(row.get("description") or "").strip(),
                "leaves_out": str(row.get("leaves_out") or "").strip(),
                "reference_title": str(reference.get("title") or "").strip(),
                "reference_url": str(reference.get("url") or "").strip(),
                "inputs": row["inputs"],
                "published_counts": row["published"],
                "translations": {lang: {k: str(v).strip() for k, v in (row.get(lang) or {}).items()
                                        if k in TRANSLATED_FIELDS}
                                 for lang in LANGUAGES if row.get(lang)},
                "origin": DesignTemplate.Origin.BUILTIN,
            }
            template = DesignTemplate.objects.filter(slug=row["slug"]).first()
            if template is None:
                DesignTemplate.objects.create(slug=row["slug"], **values)
                counts["created"] += 1
            elif any(getattr(template, key) != value for key, value in values.items()):
                for key, value in values.items():
                    setattr(template, key, value)
                template.save()
                counts["updated"] += 1
            else:
                counts["unchanged"] += 1
    return counts


def references_not_offered(*, path: Path = SEED_FILE, language: str = "") -> list[dict[str, str]]:
    """The references the seed file explains it cannot express: name, reference title and URL, reason."""
    out = []
    for row in _seed_read(path).get("not_offered") or []:
        translated = row.get(language.lower()) or {}
        reference = row.get("reference") or {}
        out.append({"name": translated.get("name") or row.get("name", ""),
                    "reason": translated.get("reason") or row.get("reason", ""),
                    "reference_title": reference.get("title", ""), "reference_url": reference.get("url", "")})
    return out


# From a template to design inputs --------------------------------------------------------------

def _by_sku(model: type, sku: Any, field: str, errors: dict[str, list[str]]) -> int | None:
    if sku in (None, ""):
        return None
    item = model.objects.filter(sku=str(sku)).only("pk", "active").first()
    if item is None:
        errors.setdefault(field, []).append(
            _("The template names %(kind)s %(sku)s, which is not in the catalog.")
            % {"kind": model._meta.verbose_name, "sku": sku})
        return None
    if not item.active:
        errors.setdefault(field, []).append(
            _("The template names %(kind)s %(sku)s, which is no longer offered (inactive in the catalog).")
            % {"kind": model._meta.verbose_name, "sku": sku})
        return None
    return item.pk


def template_inputs(*, template: DesignTemplate) -> dict[str, Any]:
    """The template's inputs with catalog ids for SKUs; ValidationError on the input names it can't resolve."""
    errors: dict[str, list[str]] = {}
    data = {key: value for key, value in (template.inputs or {}).items() if key not in PROJECT_INPUTS}
    for field, model in CATALOG_INPUTS.items():
        if field in data:
            data[field] = _by_sku(model, data[field], field, errors) or ""
    networks = {key: dict(value) for key, value in (data.get("networks") or {}).items() if isinstance(value, dict)}
    for key, names in NETWORK_CATALOG_INPUTS.items():
        for name in names:
            if key in networks and name in networks[key]:
                networks[key][name] = _by_sku(SwitchModel, networks[key][name], f"networks.{key}.{name}", errors)
    if networks:
        data["networks"] = networks
    if errors:
        raise ValidationError(errors)
    return data


def _sku(item: Any) -> str:
    return item.sku if item is not None else ""


def template_inputs_from_version(*, version: DesignVersion) -> dict[str, Any]:
    """A version's inputs as a template keeps them: catalog items by SKU, no project terms, JSON values."""
    data = design_inputs_from_version(version=version)
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in PROJECT_INPUTS:
            continue
        if key in CATALOG_INPUTS:
            out[key] = _sku(value)
        elif isinstance(value, Decimal):
            out[key] = f"{value:f}"
        else:
            out[key] = value
    networks = {key: dict(value) for key, value in (out.get("networks") or {}).items()}
    switch_ids = {value.get(name) for key, names in NETWORK_CATALOG_INPUTS.items()
                  for name in names for value in [networks.get(key) or {}] if value.get(name)}
    skus = dict(SwitchModel.objects.filter(pk__in=switch_ids).values_list("pk", "sku"))
    for key, names in NETWORK_CATALOG_INPUTS.items():
        for name in names:
            if networks.get(key, {}).get(name):
                networks[key][name] = skus.get(networks[key][name], "")
    out["networks"] = networks
    return {key: value for key, value in out.items() if value not in (None, "", {})}


def template_form_initial(*, template: DesignTemplate) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The new-design form's initial values for a template (field names of DesignCreateForm), and the
    inputs it could not fill in (input name -> messages)."""
    errors: dict[str, list[str]] = {}
    try:
        data = template_inputs(template=template)
    except ValidationError as exc:
        errors = exc.message_dict
        data = {key: value for key, value in (template.inputs or {}).items()
                if key not in CATALOG_INPUTS and key != "networks" and key not in PROJECT_INPUTS}
    initial: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("layout", "pools", "spares") and isinstance(value, dict):
            for name, item in value.items():
                initial[f"{key}_{name}"] = item
        elif key == "networks" and isinstance(value, dict):
            for network, fields in value.items():
                for name, item in (fields or {}).items():
                    if name == "pools" and isinstance(item, dict):
                        if item.get("host"):
                            initial[f"networks_{network}_pools_host"] = item["host"]
                    elif item not in (None, ""):
                        initial[f"networks_{network}_{name}"] = item
        elif key in ("roce",):
            continue  # not a field of the form: the defaults apply
        elif key == "tiers" or key == "nic_split":
            initial[key] = str(value)
        elif key == "oversubscription":
            initial[key] = f"{float(value):g}"
        else:
            initial[key] = value
    if initial.get("server") and not initial.get("nic"):
        # The form may hold another server's NIC: the template's server brings its own default.
        initial["nic"] = ServerModel.objects.filter(pk=initial["server"]).values_list("default_nic", flat=True).first()
    initial.setdefault("name", template.display_name[:NAME_MAX_LENGTH])
    return initial, errors


# Designs from templates, templates from designs -------------------------------------------------

def design_create_from_template(*, project: Project, user: Any, template: DesignTemplate | None, name: Any,
                                description: Any = "", changes: dict[str, Any] | None = None):
    """A new design in `project` from the template's inputs (with `changes` on top); its generation job.

    ValidationError with field-level messages (template, name, or the input names), nothing created.
    """
    if template is None:
        raise ValidationError({"template": [_("Choose one of the design templates.")]})
    data = template_inputs(template=template)
    data.update(changes or {})
    return design_create(project=project, user=user, name=name, description=description or "", data=data)


def _unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "template"
    slug, n = base, 2
    while DesignTemplate.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def design_template_save(*, user: Any, version: DesignVersion, name: Any, description: Any = "",
                         leaves_out: Any = "", reference_title: Any = "", reference_url: Any = "") -> DesignTemplate:
    """Staff save a design version's inputs as a template; ValidationError per field, PermissionDenied else."""
    if not getattr(user, "is_staff", False):
        raise PermissionDenied(_("Only staff can save design templates."))
    errors: dict[str, list[str]] = {}
    name = str(name or "").strip()
    if not name:
        errors["name"] = [_("Give the template a name.")]
    elif len(name) > NAME_MAX_LENGTH:
        errors["name"] = [_("At most %(max)s characters.") % {"max": NAME_MAX_LENGTH}]
    else:
        try:
            validate_single_line_name(name)
        except ValidationError as exc:
            errors["name"] = exc.messages
        if "name" not in errors and DesignTemplate.objects.filter(name__iexact=name).exists():
            errors["name"] = [_("A template named “%(name)s” already exists.") % {"name": name}]
    texts = {"description": description, "leaves_out": leaves_out, "reference_title": reference_title,
             "reference_url": reference_url}
    limits = {"description": DESCRIPTION_MAX_LENGTH, "leaves_out": 4000, "reference_title": 300,
              "reference_url": 500}
    for key, value in list(texts.items()):
        texts[key] = str(value or "").strip()
        if len(texts[key]) > limits[key]:
            errors[key] = [_("At most %(max)s characters.") % {"max": limits[key]}]
    url = texts["reference_url"]
    if url and not url.lower().startswith(("https://", "http://")):
        errors["reference_url"] = [_("Give a web address starting with https:// or http://.")]
    if errors:
        raise ValidationError(errors)
    return DesignTemplate.objects.create(
        slug=_unique_slug(name), name=name, inputs=template_inputs_from_version(version=version),
        origin=DesignTemplate.Origin.SAVED, source_version=version, created_by=user, **texts,
    )


# What a template generates ----------------------------------------------------------------------

COUNT_KEYS = ("gpus", "servers", "scale_units", "planes", "tiers", "leaf", "spine", "core", "switches",
              "server_leaf_links", "leaf_spine_links", "spine_core_links", "racks", "nvlink_switch_trays")


def design_template_counts(*, template: DesignTemplate, full: bool = False) -> dict[str, int]:
    """The headline counts the engine gives for the template's inputs, on the catalog as it is now.

    full=False sizes the fabric (engine.plan.size, what the live check uses); full=True plans every
    device and link (engine.plan.plan, what generating a version runs). ValidationError as
    template_inputs, or on the input the engine refuses.
    """
    # A project the template is not in: its defaults (no discount, the default currency) price nothing
    # the counts depend on.
    spec = design_spec_build(project=Project(), data=template_inputs(template=template))
    result = plan(spec) if full else size(spec)
    links = result.links_by_tier
    counts = {
        "gpus": result.gpus, "servers": result.servers, "scale_units": result.scale_units,
        "planes": result.planes, "tiers": result.tiers, **result.switches,
        "switches": sum(result.switches.values()),
        "server_leaf_links": links.get("server-leaf", 0), "leaf_spine_links": links.get("leaf-spine", 0),
        "spine_core_links": links.get("spine-core", 0),
    }
    scale_up = scale_up_summary(spec, result.servers)
    if scale_up.domain.kind == RACK_SCALE:
        counts["racks"] = scale_up.racks
        counts["nvlink_switch_trays"] = scale_up.switch_trays
    return counts
