"""Check a SONiC config_db.json against SONiC's YANG models (tests/engine/sonic_yang/) with libyang.

The translation is the one SONiC's own tooling makes (sonic-yang-mgmt's sonic_yang_ext), written here
from the models' shape:
- table T lives in the module whose top container `sonic-x` holds a container T;
- a row whose key names a container of T (DEVICE_METADATA "localhost") fills that container;
  otherwise the row is an entry of the list of T whose key has as many parts as the row's key split
  on "|", key leaves in the list's key order;
- a row field is the leaf (or leaf-list: a JSON list, or a comma-separated string) of that name; a
  list entry with a nested list of one key and one value (the QoS maps, CABLE_LENGTH) takes the row's
  remaining fields as {key: field, value: field value} entries;
- values are strings in config_db; the (u)int8-32 types (through leafrefs) are JSON numbers in YANG
  JSON, booleans JSON true/false.
Every table and field must be modelled: one that is not is an error, as for `config apply-patch`.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import libyang
from libyang.schema import SContainer, SLeaf, SLeafList, SList, Type

YANG_DIR = Path(__file__).resolve().parent / "sonic_yang"
NUMBERS = {Type.INT8, Type.INT16, Type.INT32, Type.UINT8, Type.UINT16, Type.UINT32}


@lru_cache(maxsize=1)
def _context():
    ctx = libyang.Context(str(YANG_DIR))
    # load every module first: libyang recompiles the context on each load, so schema nodes taken
    # before the last load would be stale
    names = [ctx.load_module(path.stem).name() for path in sorted(YANG_DIR.glob("*.yang"))]
    tables = {}
    for name in names:
        module = ctx.get_module(name)
        for top in module.children():
            if isinstance(top, SContainer):
                for table in top.children():
                    if isinstance(table, SContainer):
                        tables[table.name()] = (module.name(), table)
    return ctx, tables


def _bases(t: Type) -> set:
    if t.base() == Type.LEAFREF:
        return _bases(t.leafref_type())
    if t.base() == Type.UNION:
        return set().union(*(_bases(u) for u in t.union_types()))
    return {t.base()}


def _value(leaf, value):
    bases = _bases(leaf.type())
    if isinstance(value, str):
        if bases == {Type.BOOL} and value in ("true", "false"):
            return value == "true"
        if bases <= NUMBERS and value.lstrip("-").isdigit():
            return int(value)
    return value


def _fields(node, row: dict, where: str, errors: list[str]) -> dict:
    children = {c.name(): c for c in node.children()}
    nested = [c for c in children.values() if isinstance(c, SList)]
    out, rest = {}, {}
    for field, value in row.items():
        child = children.get(field)
        if isinstance(child, SLeafList):
            items = value if isinstance(value, list) else [v for v in str(value).split(",") if v]
            out[field] = [_value(child, v) for v in items]
        elif isinstance(child, SLeaf):
            out[field] = _value(child, value)
        else:
            rest[field] = value
    if rest:
        if len(nested) == 1 and len(list(nested[0].keys())) == 1:
            inner = nested[0]
            key = next(iter(inner.keys()))
            leaves = [c for c in inner.children() if isinstance(c, SLeaf) and not c.is_key()]
            if len(leaves) == 1:
                out[inner.name()] = [{key.name(): _value(key, k), leaves[0].name(): _value(leaves[0], v)}
                                     for k, v in rest.items()]
                return out
        errors.extend(f"{where}: field {field!r} is not in the model" for field in rest)
    return out


def to_yang(config: dict) -> tuple[dict, list[str]]:
    """config_db dict -> (YANG JSON instance, translation errors)."""
    _, tables = _context()
    errors: list[str] = []
    instance: dict = {}
    for table, rows in config.items():
        if table not in tables:
            errors.append(f"{table}: table is not modelled")
            continue
        module, schema = tables[table]
        top = instance.setdefault(f"{module}:{module}", {})
        body = top.setdefault(f"{module}:{table}", {})
        containers = {c.name(): c for c in schema.children() if isinstance(c, SContainer)}
        lists = [c for c in schema.children() if isinstance(c, SList)]
        for key, row in rows.items():
            where = f"{table}|{key}"
            if not isinstance(row, dict):
                errors.append(f"{where}: row is not an object")
                continue
            if key in containers:
                body[key] = _fields(containers[key], row, where, errors)
                continue
            parts = key.split("|")
            matching = [lst for lst in lists if len(list(lst.keys())) == len(parts)]
            if len(matching) != 1:
                errors.append(f"{where}: no list of {table} has a key of {len(parts)} part(s)")
                continue
            lst = matching[0]
            entry = {k.name(): _value(k, part) for k, part in zip(lst.keys(), parts)}
            entry.update(_fields(lst, row, where, errors))
            body.setdefault(lst.name(), []).append(entry)
    return instance, errors


def yang_errors(config: dict | str) -> list[str]:
    """Every error SONiC's models find in a config_db (translation errors, then libyang's); [] when it loads."""
    if isinstance(config, str):
        config = json.loads(config)
    ctx, _ = _context()
    instance, errors = to_yang(config)
    if errors:
        return errors
    try:
        tree = ctx.parse_data_mem(json.dumps(instance), "json", strict=True, validate_present=True)
    except libyang.LibyangError as exc:
        return [str(exc)] + [f"{e.path}: {e.msg}" if hasattr(e, "msg") else str(e) for e in ctx.errors()] if hasattr(ctx, "errors") else [str(exc)]
    if tree is not None:
        tree.free()
    return []
