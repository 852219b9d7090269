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
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import libyang
from libyang.schema import SContainer, SLeaf, SLeafList, SList, Type

YANG_DIR = Path(__file__).resolve().parent / "sonic_yang"
NUMBERS = {Type.INT8, Type.INT16, Type.INT32, Type.UINT8, Type.UINT16, Type.UINT32}


@dataclass(frozen=True)
class _Node:
    """What the translation needs of a container or list entry: its leaves, leaf-lists and one nested map."""

    leaves: dict  # name -> kind ("int", "bool", "str")
    leaf_lists: dict
    nested: tuple | None  # (list name, key name, key kind, value name, value kind)


@dataclass(frozen=True)
class _Table:
    module: str
    containers: dict  # name -> _Node
    lists: tuple  # (list name, ((key name, kind), ...), _Node)


def _kind(leaf) -> str:
    bases = _bases(leaf.type())
    if bases == {Type.BOOL}:
        return "bool"
    if bases <= NUMBERS:
        return "int"
    return "str"


def _node(schema) -> _Node:
    leaves, leaf_lists, lists = {}, {}, []
    for child in schema.children():
        if isinstance(child, SLeafList):
            leaf_lists[child.name()] = _kind(child)
        elif isinstance(child, SLeaf):
            leaves[child.name()] = _kind(child)
        elif isinstance(child, SList):
            lists.append(child)
    nested = None
    if len(lists) == 1 and len(list(lists[0].keys())) == 1:
        inner = lists[0]
        key = next(iter(inner.keys()))
        values = [c for c in inner.children() if isinstance(c, SLeaf) and not c.is_key()]
        if len(values) == 1:
            nested = (inner.name(), key.name(), _kind(key), values[0].name(), _kind(values[0]))
    return _Node(leaves, leaf_lists, nested)


@lru_cache(maxsize=1)
def _context():
    ctx = libyang.Context(str(YANG_DIR))
    # load every module first: libyang recompiles the context on each load, so schema nodes taken
    # before the last load would be stale
    names = [ctx.load_module(path.stem).name() for path in sorted(YANG_DIR.glob("*.yang"))]
    tables = {}
    for name in names:
        for top in ctx.get_module(name).children():
            if not isinstance(top, SContainer):
                continue
            for table in top.children():
                if isinstance(table, SContainer):
                    tables[table.name()] = _Table(
                        module=name,
                        containers={c.name(): _node(c) for c in table.children() if isinstance(c, SContainer)},
                        lists=tuple((c.name(), tuple((k.name(), _kind(k)) for k in c.keys()), _node(c))
                                    for c in table.children() if isinstance(c, SList)))
    return ctx, tables


def _bases(t: Type) -> set:
    if t.base() == Type.LEAFREF:
        return _bases(t.leafref_type())
    if t.base() == Type.UNION:
        return set().union(*(_bases(u) for u in t.union_types()))
    return {t.base()}


def _value(kind: str, value):
    if isinstance(value, str):
        if kind == "bool" and value in ("true", "false"):
            return value == "true"
        if kind == "int" and value.lstrip("-").isdigit():
            return int(value)
    return value


def _fields(node: _Node, row: dict, where: str, errors: list[str]) -> dict:
    out, rest = {}, {}
    for field, value in row.items():
        if field in node.leaf_lists:
            items = value if isinstance(value, list) else [v for v in str(value).split(",") if v]
            out[field] = [_value(node.leaf_lists[field], v) for v in items]
        elif field in node.leaves:
            out[field] = _value(node.leaves[field], value)
        else:
            rest[field] = value
    if rest:
        if node.nested is not None:
            inner, key, key_kind, leaf, leaf_kind = node.nested
            out[inner] = [{key: _value(key_kind, k), leaf: _value(leaf_kind, v)} for k, v in rest.items()]
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
        schema = tables[table]
        top = instance.setdefault(f"{schema.module}:{schema.module}", {})
        body = top.setdefault(f"{schema.module}:{table}", {})
        for key, row in rows.items():
            where = f"{table}|{key}"
            if not isinstance(row, dict):
                errors.append(f"{where}: row is not an object")
                continue
            if key in schema.containers:
                body[key] = _fields(schema.containers[key], row, where, errors)
                continue
            parts = key.split("|")
            matching = [lst for lst in schema.lists if len(lst[1]) == len(parts)]
            if len(matching) != 1:
                errors.append(f"{where}: no list of {table} has a key of {len(parts)} part(s)")
                continue
            name, keys, node = matching[0]
            entry = {k: _value(kind, part) for (k, kind), part in zip(keys, parts)}
            entry.update(_fields(node, row, where, errors))
            body.setdefault(name, []).append(entry)
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
        return [str(exc)]
    if tree is not None:
        tree.free()
    return []
