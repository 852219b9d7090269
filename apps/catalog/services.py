"""Writing the catalog: upserting rows from the seed files, Excel workbooks and NetBox YAML.

Every import goes through `catalog_rows_upsert`, which implements one rule: all rows are
checked (types, choices, references by name/SKU, the model's `full_clean`) inside one
transaction, and if any row is bad every problem is reported by sheet, row and column and
nothing is kept. Rows are upserted by their natural key (SKU; name for manufacturers).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Iterable

import yaml
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .kinds import ITEM_KINDS, KIND_BY_KEY, KINDS, MANUFACTURERS, NICS, CatalogKind
from .models import ExchangeRate, Manufacturer

SEED_DIR = Path(__file__).resolve().parent / "seed"
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader parses the seed ~10x faster


@dataclass(frozen=True)
class ImportIssue:
    """One problem with one imported value: where it is (sheet, row, column) and what is wrong."""

    sheet: str
    row: int | None
    column: str
    message: str
    cell: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"sheet": self.sheet, "row": self.row, "column": self.column, "cell": self.cell,
                "message": self.message}

    def __str__(self) -> str:
        where = [self.sheet]
        if self.row is not None:
            where.append(_("row %(row)s") % {"row": self.row})
        if self.column:
            where.append(_("column %(column)s") % {"column": self.cell_label})
        return f"{', '.join(where)}: {self.message}"

    @property
    def cell_label(self) -> str:
        letter = re.sub(r"\d+", "", self.cell)
        return f"{letter} ({self.column})" if letter else self.column


class CatalogImportError(ValidationError):
    """An import refused as a whole; `issues` says where every problem is."""

    def __init__(self, issues: list[ImportIssue]):
        self.issues = list(issues)
        super().__init__([str(issue) for issue in self.issues] or [_("Nothing to import.")])


@dataclass
class ImportResult:
    created: Counter = field(default_factory=Counter)
    updated: Counter = field(default_factory=Counter)
    unchanged: Counter = field(default_factory=Counter)
    warnings: list[str] = field(default_factory=list)
    skus: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "created": dict(self.created), "updated": dict(self.updated), "unchanged": dict(self.unchanged),
            "total_created": sum(self.created.values()), "total_updated": sum(self.updated.values()),
            "warnings": list(self.warnings),
        }


@dataclass
class CatalogRow:
    """One row to upsert: `values` by column name, `cells` the spreadsheet cell of each column."""

    kind: CatalogKind
    sheet: str
    row: int | None
    values: dict[str, Any]
    cells: dict[str, str] = field(default_factory=dict)


def _blank(raw: Any) -> bool:
    return raw is None or (isinstance(raw, str) and not raw.strip())


def _coerce(model_field: models.Field, raw: Any) -> Any:
    """A raw cell/YAML value as the Python value of `model_field`; ValidationError when it cannot be."""
    if _blank(raw):
        if model_field.null:
            return None
        if model_field.has_default():
            return model_field.get_default()
        if isinstance(model_field, (models.CharField, models.TextField)) and model_field.blank:
            return ""
        raise ValidationError(_("This field is required."))
    if isinstance(model_field, models.JSONField):
        return _coerce_list(model_field.name, raw)
    if isinstance(model_field, models.BooleanField):
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in {"true", "yes", "y", "1", "x"}:
            return True
        if text in {"false", "no", "n", "0"}:
            return False
        raise ValidationError(_("Enter true or false."))
    if model_field.choices:
        text = str(raw).strip()
        for value, _label in model_field.choices:
            if text.lower() == str(value).lower():
                return value
        raise ValidationError(
            _("%(value)s is not one of %(choices)s.")
            % {"value": text, "choices": ", ".join(str(v) for v, _l in model_field.choices)}
        )
    if isinstance(model_field, (models.CharField, models.TextField)):
        if isinstance(raw, float) and raw.is_integer():
            raw = int(raw)
        return str(raw).strip()
    if isinstance(model_field, models.IntegerField):
        if isinstance(raw, bool):
            raise ValidationError(_("Enter a whole number."))
        if isinstance(raw, float):
            if not raw.is_integer():
                raise ValidationError(_("Enter a whole number."))
            raw = int(raw)
        if isinstance(raw, str):
            raw = raw.strip()
            if re.fullmatch(r"[+-]?\d+(\.0+)?", raw):
                raw = int(float(raw))
        return model_field.to_python(raw)
    if isinstance(model_field, models.DecimalField):
        if isinstance(raw, bool):
            raise ValidationError(_("Enter a number."))
        try:
            return Decimal(str(raw).strip().replace(",", ""))  # str(): 49.2 stays 49.2, not its binary expansion
        except InvalidOperation:
            raise ValidationError(_("Enter a number.")) from None
    if isinstance(model_field, models.FloatField):
        if isinstance(raw, bool):
            raise ValidationError(_("Enter a number."))
        return model_field.to_python(raw)
    return model_field.to_python(raw)


# List columns, as typed in a cell: how items are separated, how each is written, and an example.
LIST_COLUMNS: dict[str, tuple[str, Any, str]] = {
    "breakouts": (r"[\s,;]+", str.strip, "1x800G, 2x400G"),
    "uplink_breakouts": (r"[\s,;]+", str.strip, "1x100G, 4x25G"),
    "fabrics": (r"[\s,;]+", lambda part: part.strip().lower(), "ethernet, infiniband"),
    "compatible_vendors": (r"\s*[,;]\s*", str.strip, "NVIDIA, Arista"),  # names may hold spaces
}


def _coerce_list(column: str, raw: Any) -> list[str]:
    """A list column (breakouts, fabrics, compatible_vendors): a list, or its items typed in one cell."""
    separator, clean, example = LIST_COLUMNS.get(column, (r"[\s,;]+", str.strip, "a, b"))
    if isinstance(raw, str):
        return [clean(part) for part in re.split(separator, raw.strip()) if part.strip()]
    if isinstance(raw, (list, tuple)):
        return [clean(str(part)) for part in raw]
    raise ValidationError(_("Give a list such as %(example)s.") % {"example": example})


class _Upserter:
    """Applies rows in one transaction, collecting issues instead of stopping at the first."""

    def __init__(self, *, create_manufacturers: bool):
        self.create_manufacturers = create_manufacturers
        self.result = ImportResult()
        self.issues: list[ImportIssue] = []
        self.manufacturers = {m.name.lower(): m for m in Manufacturer.objects.all()}
        self.seen: dict[tuple[str, str], int | None] = {}
        self.by_sku: dict[str, dict[str, Any]] = {}

    def existing(self, kind: CatalogKind) -> dict[str, Any]:
        """Current rows of a kind by SKU, read once; rows saved during the import are added."""
        if kind.key not in self.by_sku:
            self.by_sku[kind.key] = {item.sku: item for item in kind.model.objects.all()}
        return self.by_sku[kind.key]

    def issue(self, row: CatalogRow, column: str, message: str) -> None:
        self.issues.append(ImportIssue(row.sheet, row.row, column, str(message), row.cells.get(column, "")))

    def manufacturer(self, row: CatalogRow, name: str) -> Manufacturer | None:
        found = self.manufacturers.get(name.lower())
        max_length = Manufacturer._meta.get_field("name").max_length
        if found is None and len(name) > max_length:
            self.issue(row, "manufacturer", _("Ensure this value has at most %(max)s characters.") % {"max": max_length})
            return None
        if found is None and self.create_manufacturers:
            found = _manufacturer_create(name=name)
            self.manufacturers[name.lower()] = found
            self.result.created[MANUFACTURERS.key] += 1
        if found is None:
            self.issue(row, "manufacturer", _('Unknown manufacturer "%(name)s": add it to the Manufacturers sheet.')
                       % {"name": name})
        return found

    def apply(self, row: CatalogRow) -> None:
        kind = row.kind
        key_column = kind.lookup
        key = row.values.get(key_column)
        key = "" if _blank(key) else str(int(key) if isinstance(key, float) and key.is_integer() else key).strip()
        if not key:
            self.issue(row, key_column, _("This field is required."))
            return
        if (kind.key, key.lower()) in self.seen:
            self.issue(row, key_column, _('"%(key)s" appears twice (also row %(row)s).')
                       % {"key": key, "row": self.seen[(kind.key, key.lower())]})
            return
        self.seen[(kind.key, key.lower())] = row.row
        if kind is MANUFACTURERS:
            self._apply_manufacturer(row, key)
            return

        instance = self.existing(kind).get(key)
        created = instance is None
        if created:
            instance = kind.model(sku=key)
            missing = [c for c in kind.required if c not in row.values]
            for column in missing:
                self.issue(row, column, _("This field is required."))
            if missing:
                return
        before = _snapshot(instance, kind)
        bad: set[str] = set()
        for column, raw in row.values.items():
            if column not in kind.columns or column == "sku":
                continue
            bad_here = self._assign(row, instance, column, raw)
            if bad_here:
                bad.add(column)
        try:
            # SKU uniqueness is settled by the lookup above; skipping validate_unique saves a query per row.
            instance.full_clean(exclude=sorted(bad) or None, validate_unique=False)
        except ValidationError as exc:
            for column, messages in exc.message_dict.items():
                if column in bad:
                    continue
                for message in messages:
                    self.issue(row, "" if column == NON_FIELD_ERRORS else column, message)
            return
        if bad:
            return
        if created:
            instance.save()
            self.existing(kind)[instance.sku] = instance
            self.result.created[kind.key] += 1
        elif _snapshot(instance, kind) != before:
            instance.save()
            self.result.updated[kind.key] += 1
        else:
            self.result.unchanged[kind.key] += 1
        self.result.skus.append(instance.sku)

    def _assign(self, row: CatalogRow, instance, column: str, raw: Any) -> bool:
        """Set one column on the instance; True when the value is bad (an issue is recorded)."""
        if column == "manufacturer":
            if _blank(raw):
                self.issue(row, column, _("This field is required."))
                return True
            found = self.manufacturer(row, str(raw).strip())
            if found is None:
                return True
            instance.manufacturer = found
            return False
        if column == "default_nic":
            if _blank(raw):
                instance.default_nic = None
                return False
            sku = str(raw).strip()
            nic = self.existing(NICS).get(sku)
            if nic is None:
                self.issue(row, column, _('Unknown NIC SKU "%(sku)s".') % {"sku": sku})
                return True
            instance.default_nic = nic
            return False
        model_field = instance._meta.get_field(column)
        try:
            value = _coerce(model_field, raw)
        except ValidationError as exc:
            for message in exc.messages:
                self.issue(row, column, message)
            return True
        setattr(instance, model_field.attname, value)
        return False

    def _apply_manufacturer(self, row: CatalogRow, name: str) -> None:
        slug = row.values.get("slug")
        slug = "" if _blank(slug) else str(slug).strip()
        found = self.manufacturers.get(name.lower())
        if found is None:
            found = Manufacturer(name=name, slug=slug or _free_slug(name))
            try:
                found.full_clean()
            except ValidationError as exc:
                for column, messages in exc.message_dict.items():
                    for message in messages:
                        self.issue(row, column, message)
                return
            found.save()
            self.manufacturers[name.lower()] = found
            self.result.created[MANUFACTURERS.key] += 1
        elif slug and slug != found.slug:
            found.slug = slug
            try:
                found.full_clean()
            except ValidationError as exc:
                for message in exc.message_dict.get("slug", exc.messages):
                    self.issue(row, "slug", message)
                return
            found.save()
            self.result.updated[MANUFACTURERS.key] += 1
        else:
            self.result.unchanged[MANUFACTURERS.key] += 1


def _snapshot(instance, kind: CatalogKind) -> dict[str, Any]:
    # A spreadsheet keeps 15 significant digits: a float compares at 12, so an unchanged export is no change.
    return {
        column: float(f"{value:.12g}") if isinstance(value, float) else value
        for column in kind.columns if column != "sku"
        for value in [getattr(instance, instance._meta.get_field(column).attname)]
    }


def _free_slug(name: str) -> str:
    base = slugify(name)[:90] or "manufacturer"
    slug, n = base, 2
    while Manufacturer.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _manufacturer_create(*, name: str) -> Manufacturer:
    return Manufacturer.objects.create(name=name, slug=_free_slug(name))


def catalog_rows_upsert(*, rows: Iterable[CatalogRow], create_manufacturers: bool) -> ImportResult:
    """Upsert rows (any kinds, applied in load order) all or nothing; CatalogImportError lists every bad value."""
    order = {kind.key: i for i, kind in enumerate(KINDS)}
    ordered = sorted(rows, key=lambda r: order[r.kind.key])  # stable: keeps row order within a kind
    with transaction.atomic():
        upserter = _Upserter(create_manufacturers=create_manufacturers)
        for row in ordered:
            upserter.apply(row)
        if upserter.issues:
            raise CatalogImportError(upserter.issues)  # leaving the block rolls everything back
    return upserter.result


def _has_source(value: Any) -> bool:
    """A seed item's `source` names a data sheet or reference architecture (non-blank text)."""
    return isinstance(value, str) and bool(value.strip())


def seed_rows(*, path: Path) -> list[CatalogRow]:
    """Rows from seed YAML files: `path` is a directory of <kind>.yaml files or one such file.

    Every seed item must name its `source` (the seed is the catalog a presales engineer trusts without
    checking): an item without one is refused like any bad row, by file, row and column.
    """
    files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    issues: list[ImportIssue] = []
    rows: list[CatalogRow] = []
    known = [f for f in files if f.stem in KIND_BY_KEY]
    if not path.exists():
        raise CatalogImportError([ImportIssue(str(path), None, "", _("No such file or directory."))])
    if not known:
        raise CatalogImportError([ImportIssue(
            str(path), None, "",
            _("No seed files found; expected %(names)s.") % {"names": ", ".join(f"{k.key}.yaml" for k in ITEM_KINDS)},
        )])
    for file in known:
        kind = KIND_BY_KEY[file.stem]
        try:
            data = yaml.load(file.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
        except yaml.YAMLError as exc:
            issues.append(ImportIssue(file.name, None, "", _("Not valid YAML: %(error)s") % {"error": exc}))
            continue
        if data is None:
            continue
        if not isinstance(data, list):
            issues.append(ImportIssue(file.name, None, "", _("Expected a list of items.")))
            continue
        for number, item in enumerate(data, start=1):
            if not isinstance(item, dict):
                issues.append(ImportIssue(file.name, number, "", _("Expected a mapping of field: value.")))
                continue
            unknown = sorted(set(item) - set(kind.columns))
            for column in unknown:
                issues.append(ImportIssue(file.name, number, column, _("Unknown field.")))
            if kind.key != "manufacturers" and not _has_source(item.get("source")):
                issues.append(ImportIssue(file.name, number, "source", _(
                    "Name where this item's figures come from: the data sheet or reference architecture, its "
                    "title and URL.")))
            rows.append(CatalogRow(kind, file.name, number, {k: v for k, v in item.items() if k in kind.columns}))
    if issues:
        raise CatalogImportError(issues)
    return rows


def catalog_seed_load(*, path: Path | None = None) -> ImportResult:
    """Load (upsert by SKU) the seed catalog; idempotent. Nothing is saved when any row is bad."""
    return catalog_rows_upsert(rows=seed_rows(path=Path(path) if path else SEED_DIR), create_manufacturers=True)


EXCHANGE_RATES_SEED = SEED_DIR / "exchange_rates.yaml"
EXCHANGE_RATE_COLUMNS = ("from_currency", "to_currency", "rate", "rate_is_example")


def exchange_rates_seed_load(*, path: Path | None = None) -> int:
    """Add the seed's currency pairs that the catalog lacks (rates staff set are kept); how many were added.

    All or nothing: a bad row raises CatalogImportError naming the file, row and column.
    """
    path = Path(path) if path else EXCHANGE_RATES_SEED
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    except OSError:
        raise CatalogImportError([ImportIssue(path.name, None, "", _("No such file or directory."))]) from None
    except yaml.YAMLError as exc:
        raise CatalogImportError([ImportIssue(path.name, None, "", _("Not valid YAML: %(error)s") % {"error": exc})]) \
            from None
    if data is None:
        return 0
    if not isinstance(data, list):
        raise CatalogImportError([ImportIssue(path.name, None, "", _("Expected a list of items."))])
    issues: list[ImportIssue] = []
    pairs: set[frozenset[str]] = set()  # every row's pair, either way round, to find one given twice
    new: list[ExchangeRate] = []  # rows whose pair the catalog lacks
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            issues.append(ImportIssue(path.name, number, "", _("Expected a mapping of field: value.")))
            continue
        for column in sorted(set(item) - set(EXCHANGE_RATE_COLUMNS)):
            issues.append(ImportIssue(path.name, number, str(column), _("Unknown field.")))
        try:
            rate = Decimal(str(item.get("rate")))
            if not rate.is_finite():
                raise InvalidOperation
        except InvalidOperation:
            issues.append(ImportIssue(path.name, number, "rate", _("Enter a number.")))
            continue
        candidate = ExchangeRate(
            from_currency=str(item.get("from_currency") or ""), to_currency=str(item.get("to_currency") or ""),
            rate=rate, rate_is_example=bool(item.get("rate_is_example", False)),
        )
        pair = frozenset((candidate.from_currency, candidate.to_currency))
        if pair in pairs:
            issues.append(ImportIssue(path.name, number, "to_currency", _("This currency pair is given twice.")))
            continue
        pairs.add(pair)
        known = ExchangeRate.objects.filter(
            models.Q(from_currency=candidate.from_currency, to_currency=candidate.to_currency)
            | models.Q(from_currency=candidate.to_currency, to_currency=candidate.from_currency))
        if known.exists():
            continue  # kept as staff set it
        try:
            candidate.full_clean()
        except ValidationError as exc:
            for column, messages in exc.message_dict.items():
                issues.extend(ImportIssue(path.name, number, column, message) for message in messages)
        new.append(candidate)
    if issues:
        raise CatalogImportError(issues)
    with transaction.atomic():
        for candidate in new:
            candidate.save()
    return len(new)
