"""Write an engine Plan as rows: devices, used ports, links and BOM lines of one version.

Rules:
- The caller holds the transaction: the rows and the version's status flip commit together,
  or nothing stays.
- Rows are built column-wise from the plan's numpy LinkTable (no per-link Python objects),
  then written with PostgreSQL COPY; other databases (SQLite, the first-run default) get one
  executemany per table.
- Device, port and link ids are ``version_id << 32 | index`` (models.records.record_id), so
  foreign keys are computed here, never looked up.
- Ports are the link ends (two per link), sorted by device then port number; a port used
  twice would be an engine bug and is refused.
- Addresses: Ethernet links carry their /31 and both ends' addresses; on InfiniBand only a
  server-leaf link has one, the NIC port's IPoIB address (a_ip) with the host pool as its
  subnet, and switches have no loopback or ASN (NULL).
- COPY text is built a chunk at a time (at most CHUNK_ROWS rows): each column's values become
  text column-wise (small integers and repeated lengths from lookup tables, runs of consecutive
  ids from one range), the rows are joined once, and the chunk is checked to need no escaping
  (its tabs, newlines and backslashes are only the separators and NULL markers) or escaped value
  by value. A writer thread sends a chunk while the next is built (issue 33: 9 M rows took 5 us
  a row through psycopg's write_row).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np
from django.db import connection
from psycopg.copy import QueuedLibpqWriter

from apps.engine import names as engine_names
from apps.engine.model import ROLES, Plan

from .models import BomLineRecord, DesignVersion, DeviceRecord, LinkRecord, PortRecord
from .models.records import ID_SHIFT

INSERT_BATCH_ROWS = 50_000
# Rows per chunk of a big table: its Python values are built, written and dropped before the next.
CHUNK_ROWS = 100_000
_OCTETS = np.array([str(i) for i in range(256)], dtype=object)
_CENTS = Decimal("0.01")
NULL = "\\N"  # COPY text's NULL
# Integers 0..SMALL_INTS-1 as text, looked up rather than formatted (tiers, planes, rails, ports, speeds).
SMALL_INTS = 1 << 16
_SMALL_TEXT: list[np.ndarray] = []
_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})

Progress = Callable[[str, int], None]


@dataclass(slots=True)
class Column:
    """One column of a table: `values` is a numpy array (numbers) or an object array of str/None."""

    name: str
    values: np.ndarray
    null: np.ndarray | None = None  # bool mask of NULLs for numeric columns

    def python_values(self, start: int = 0, stop: int | None = None) -> list:
        """Plain Python values (None for NULL) of rows [start, stop) for the database driver."""
        if self.values.dtype == object:
            return self.values[start:stop].tolist()
        values = self.values[start:stop].tolist()
        null = self.null[start:stop] if self.null is not None else None
        if null is not None and null.any():
            for i in np.flatnonzero(null).tolist():
                values[i] = None
        return values

    def copy_text(self, start: int, stop: int) -> tuple[list[str], int]:
        """COPY text of rows [start, stop), unescaped, and how many of them are NULL."""
        values = self.values[start:stop]
        kind = values.dtype.kind
        if kind == "O":
            null = np.equal(values, None)
            nulls = int(null.sum())
            if nulls:
                values = values.copy()
                values[null] = NULL
            if values.size and isinstance(values[0], bool):
                return [("t" if v else "f") if v is not NULL else v for v in values.tolist()], nulls
            return values.tolist(), nulls
        null = self.null[start:stop] if self.null is not None else None
        nulls = int(null.sum()) if null is not None else 0
        if nulls:
            values = np.where(null, values.dtype.type(0), values)  # written as NULL below
        if kind == "b":
            text = np.where(values, "t", "f").astype(object)
        elif kind == "f":
            text = _float_text(values)
        else:
            text = _int_text(values)
        if nulls:
            if isinstance(text, list):
                text = np.array(text, dtype=object)
            text[null] = NULL
        return (text.tolist() if isinstance(text, np.ndarray) else text), nulls


@dataclass(slots=True)
class Table:
    model: type
    columns: list[Column] = field(default_factory=list)

    def add(self, name: str, values, null: np.ndarray | None = None) -> None:
        if not isinstance(values, np.ndarray):
            values = np.array(values, dtype=bool if values and all(isinstance(v, bool) for v in values)
                              else object)
        self.columns.append(Column(name, values, null))

    def __len__(self) -> int:
        return int(self.columns[0].values.shape[0]) if self.columns else 0


def _small_text() -> np.ndarray:
    if not _SMALL_TEXT:
        _SMALL_TEXT.append(np.array([str(i) for i in range(SMALL_INTS)], dtype=object))
    return _SMALL_TEXT[0]


def _int_text(values: np.ndarray) -> np.ndarray | list[str]:
    """Integers as text: looked up when small, one range when consecutive (ids, indexes), else formatted."""
    if not values.size:
        return []
    first, last = int(values[0]), int(values[-1])
    low, high = int(values.min()), int(values.max())
    if low >= 0 and high < SMALL_INTS:
        return _small_text()[values]
    if last - first == values.size - 1 and low == first and high == last and (
            values.size < 2 or bool((np.diff(values) == 1).all())):
        return list(map(str, range(first, last + 1)))
    if low == high:
        return [str(low)] * values.size
    return list(map(str, values.tolist()))


def _float_text(values: np.ndarray) -> np.ndarray:
    """Floats as Python writes them (repr: what the driver sends), each distinct value formatted once."""
    distinct, inverse = np.unique(values, return_inverse=True)
    return np.array(list(map(repr, distinct.tolist())), dtype=object)[inverse.reshape(-1)]


def copy_text(table: Table, start: int, stop: int) -> str:
    """Rows [start, stop) of `table` in COPY's text format (module rules: escaped only where needed)."""
    rows = stop - start
    if rows <= 0:
        return ""
    texts, nulls = zip(*(column.copy_text(start, stop) for column in table.columns))
    text = "\n".join(map("\t".join, zip(*texts))) + "\n"
    width = len(texts)
    # Plain when every tab, newline and backslash is a separator or a NULL marker and no value holds a CR.
    if (text.count("\t") == rows * (width - 1) and text.count("\n") == rows and text.count("\\") == sum(nulls)
            and "\r" not in text):
        return text
    # Only text columns can hold those characters (numbers and booleans never do): escape their values.
    texts = [[v if v is NULL else v.translate(_ESCAPES) for v in values] if column.values.dtype.kind == "O"
             else values for column, values in zip(table.columns, texts)]
    return "\n".join(map("\t".join, zip(*texts))) + "\n"


@dataclass(slots=True)
class SaveReport:
    devices: int
    ports: int
    links: int
    bom_lines: int
    seconds: float


_HALVES: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _ipv4_halves(suffix: str) -> tuple[np.ndarray, np.ndarray]:
    """"a.b." for every high 16 bits and "c.d<suffix>" for every low 16 bits (built once, 2 x 65,536 strings)."""
    if suffix not in _HALVES:
        high = np.add.outer(np.add(_OCTETS, "."), np.add(_OCTETS, ".")).ravel()
        low = np.add.outer(np.add(_OCTETS, "."), np.add(_OCTETS, suffix)).ravel()
        _HALVES[suffix] = (high, low)
    return _HALVES[suffix]


def ipv4_text(addresses: np.ndarray, suffix: str = "") -> np.ndarray:
    """uint32 addresses -> object array of dotted quads, `suffix` appended (one concatenation per address)."""
    a = np.asarray(addresses).astype(np.uint32)
    high, low = _ipv4_halves(suffix)
    return high[a >> 16] + low[a & 0xFFFF]


def _nullable_int(values: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Engine ints use -1 for "none"; the database uses NULL."""
    array = np.asarray(values, dtype=np.int64)
    return array, array < 0


def _ids(version_id: int, count: int) -> np.ndarray:
    return (np.int64(version_id) << np.int64(ID_SHIFT)) + np.arange(count, dtype=np.int64)


def _role_speed(plan: Plan) -> np.ndarray:
    spec = plan.spec
    spine = spec.spine or spec.leaf
    core = spec.core or spine
    return np.array([spec.port_gbps, spec.leaf.gbps, spine.gbps, core.gbps], dtype=np.int64)


def device_table(*, version_id: int, plan: Plan) -> Table:
    devices = plan.devices
    return device_rows_table(ids=_ids(version_id, len(devices)), version_id=version_id,
                             index=np.array([d.index for d in devices], dtype=np.int64), devices=devices)


def device_rows_table(*, ids: np.ndarray, version_id: int, index: np.ndarray, devices: list) -> Table:
    """The DeviceRecord columns of engine devices (any network's), with the ids and indexes given."""
    count = len(devices)
    table = Table(DeviceRecord)
    table.add("id", ids)
    table.add("version_id", np.full(count, version_id, dtype=np.int64))
    table.add("index", index)
    table.add("name", [d.name for d in devices])
    table.add("role", [d.role for d in devices])
    table.add("sku", [d.sku for d in devices])
    table.add("model", [d.model for d in devices])
    table.add("ports", np.array([d.ports for d in devices], dtype=np.int64))
    for attr in ("plane", "pod", "su", "rail", "group"):
        values, null = _nullable_int([getattr(d, attr) for d in devices])
        table.add(attr, values, null)
    table.add("row", np.array([d.row for d in devices], dtype=np.int64))
    table.add("rack", [d.rack for d in devices])
    table.add("rack_unit", np.array([d.rack_unit for d in devices], dtype=np.int64))
    asn = np.array([d.asn for d in devices], dtype=np.int64)
    table.add("asn", asn, asn <= 0)
    loopback = np.array([d.loopback for d in devices], dtype=np.uint32)
    loopback_text = ipv4_text(loopback)
    loopback_text[loopback == 0] = None
    table.add("loopback", loopback_text)
    return table


class _LinkRows:
    """What every chunk of a plan's link and port rows needs, computed once per plan (per device, not per link)."""

    def __init__(self, *, version_id: int, plan: Plan):
        self.plan = plan
        self.version_id = version_id
        devices = plan.devices
        self.devices = devices
        self.count = len(plan.links)
        self.role_code = np.array([ROLES.index(d.role) for d in devices], dtype=np.int64)
        self.device_pod = np.array([d.pod for d in devices], dtype=np.int64)
        self.names = np.array([d.name for d in devices], dtype=object)
        self.port_names = engine_names.port_name_table(plan)
        self.base = np.int64(version_id) << np.int64(ID_SHIFT)
        media = plan.media
        self.media_lookup = {
            attr: np.array([getattr(m, attr) for m in media] + [""], dtype=object)
            for attr in ("key", "kind", "fiber", "a_sku", "b_sku", "cable_sku")
        }
        self.speeds = _role_speed(plan)

    def links(self, start: int, stop: int) -> Table:
        """LinkRecord rows of links [start, stop)."""
        links, plan = self.plan.links, self.plan
        count = stop - start
        a_dev = links.a_dev[start:stop].astype(np.int64)
        b_dev = links.b_dev[start:stop].astype(np.int64)
        a_port = links.a_port[start:stop].astype(np.int64)
        b_port = links.b_port[start:stop].astype(np.int64)
        tier = links.tier[start:stop].astype(np.int64)
        role_code, port_names, base = self.role_code, self.port_names, self.base
        a_port_name = port_names[role_code[a_dev], a_port]
        b_port_name = port_names[role_code[b_dev], b_port]

        table = Table(LinkRecord)
        table.add("id", base + np.arange(start, stop, dtype=np.int64))
        table.add("version_id", np.full(count, self.version_id, dtype=np.int64))
        table.add("index", np.arange(start, stop, dtype=np.int64))
        table.add("tier", tier)
        table.add("a_device_id", base + a_dev)
        table.add("a_port", a_port_name)
        table.add("b_device_id", base + b_dev)
        table.add("b_port", b_port_name)
        plane, plane_null = _nullable_int(links.plane[start:stop])
        table.add("plane", plane, plane_null)
        rail, rail_null = _nullable_int(links.rail[start:stop])
        table.add("rail", rail, rail_null)
        # A server-leaf link belongs to its leaf's pod; higher links to their lower (a) end's pod.
        pod = np.where(tier == 0, self.device_pod[b_dev], self.device_pod[a_dev])
        table.add("pod", pod, pod < 0)

        medium = links.medium[start:stop].astype(np.int64)
        medium = np.where(medium < 0, len(plan.media), medium)
        for column, attr in (
            ("medium", "key"), ("medium_kind", "kind"), ("fiber", "fiber"), ("a_sku", "a_sku"), ("b_sku", "b_sku"),
            ("cable_sku", "cable_sku"),
        ):
            table.add(column, self.media_lookup[attr][medium])
        table.add("length_m", np.round(links.length_m[start:stop].astype(np.float64), 2))
        a_label = self.names[a_dev] + ":" + a_port_name
        b_label = self.names[b_dev] + ":" + b_port_name
        table.add("label_a", engine_names.link_labels(a_label, b_label))
        table.add("label_b", engine_names.link_labels(b_label, a_label))

        subnet = links.subnet[start:stop].astype(np.uint32)
        unaddressed = subnet == 0
        if plan.spec.infiniband:
            # The NIC port's IPoIB address itself (engine.addressing), in the host pool's subnet; the
            # switch end and switch-to-switch links have none (the subnet manager routes by LID).
            a_ip_text = ipv4_text(subnet)
            a_ip_text[unaddressed] = None
            b_ip_text = np.full(count, None, dtype=object)
            subnet_text = np.full(count, plan.spec.pools.host, dtype=object)
            subnet_text[unaddressed] = ""
        else:
            # Tier 0: the NIC (a end) holds the odd address; switch-to-switch links give it to the b end.
            a_ip = np.where(tier == 0, subnet + 1, subnet).astype(np.uint32)
            b_ip = np.where(tier == 0, subnet, subnet + 1).astype(np.uint32)
            subnet_text = ipv4_text(subnet, "/31")
            a_ip_text, b_ip_text = ipv4_text(a_ip), ipv4_text(b_ip)
            for text in (subnet_text, a_ip_text, b_ip_text):
                text[unaddressed] = None
            subnet_text[unaddressed] = ""
        table.add("subnet", subnet_text)
        table.add("a_ip", a_ip_text)
        table.add("b_ip", b_ip_text)
        return table

    def port_order(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every link end (device, port number, link index), sorted by device then port; refuses a port used twice."""
        links = self.plan.links
        port_device = np.concatenate([links.a_dev.astype(np.int64), links.b_dev.astype(np.int64)])
        port_number = np.concatenate([links.a_port.astype(np.int64), links.b_port.astype(np.int64)])
        order = np.lexsort((port_number, port_device))
        port_device, port_number = port_device[order], port_number[order]
        port_link = np.where(order < self.count, order, order - self.count)
        duplicate = (np.diff(port_device) == 0) & (np.diff(port_number) == 0)
        if duplicate.any():
            where = int(np.flatnonzero(duplicate)[0])
            raise ValueError(
                f"port {int(port_number[where])} of device {self.devices[int(port_device[where])].name} is used twice"
            )
        return port_device, port_number, port_link

    def ports(self, order: tuple[np.ndarray, np.ndarray, np.ndarray], start: int, stop: int) -> Table:
        """PortRecord rows [start, stop) of the sorted link ends `order` (port_order())."""
        port_device, port_number, port_link = (column[start:stop] for column in order)
        count = stop - start
        port_role = self.role_code[port_device]
        ports = Table(PortRecord)
        ports.add("id", self.base + np.arange(start, stop, dtype=np.int64))
        ports.add("version_id", np.full(count, self.version_id, dtype=np.int64))
        ports.add("index", np.arange(start, stop, dtype=np.int64))
        ports.add("device_id", self.base + port_device)
        ports.add("number", port_number)
        ports.add("name", self.port_names[port_role, port_number])
        ports.add("speed_gbps", self.speeds[port_role])
        ports.add("link_id", self.base + port_link)
        return ports


def link_tables(*, version_id: int, plan: Plan) -> tuple[Table, Table]:
    """The link table and the used-port table (two ends per link), built column-wise."""
    rows = _LinkRows(version_id=version_id, plan=plan)
    order = rows.port_order()
    return rows.links(0, rows.count), rows.ports(order, 0, 2 * rows.count)


def link_table_chunks(*, version_id: int, plan: Plan, chunk_rows: int = CHUNK_ROWS) -> Iterator[Table]:
    """link_tables() as consecutive tables of at most `chunk_rows` rows: every link chunk, then every port chunk.

    Written one after the other, they give the same rows as link_tables(); only one chunk's Python
    values exist at a time, so the worker's memory does not grow with the fabric (issue 33:
    3.0 M links at 1,000,000 GPUs).
    """
    rows = _LinkRows(version_id=version_id, plan=plan)
    order = rows.port_order()  # before any row is written: a port used twice writes nothing
    for start in range(0, rows.count, chunk_rows):
        yield rows.links(start, min(start + chunk_rows, rows.count))
    for start in range(0, 2 * rows.count, chunk_rows):
        yield rows.ports(order, start, min(start + chunk_rows, 2 * rows.count))


def _money(value: float) -> Decimal:
    return Decimal(str(value)).quantize(_CENTS, rounding=ROUND_HALF_UP)


def bom_table(*, version_id: int, plan: Plan) -> Table:
    lines = plan.bom
    table = Table(BomLineRecord)
    table.add("version_id", np.full(len(lines), version_id, dtype=np.int64))
    table.add("index", np.arange(len(lines), dtype=np.int64))
    table.add("sku", [line.sku for line in lines])
    table.add("description", [line.description[:300] for line in lines])
    table.add("category", [line.category for line in lines])
    table.add("qty", np.array([line.qty for line in lines], dtype=np.int64))
    table.add("unit_price", [str(_money(line.unit_price)) for line in lines])
    table.add("total", [str(_money(line.total)) for line in lines])
    table.add("power_typical_w", np.array([line.power_typical_w for line in lines], dtype=np.float64))
    table.add("power_max_w", np.array([line.power_max_w for line in lines], dtype=np.float64))
    table.add("rack_units", np.array([line.rack_units for line in lines], dtype=np.int64))
    table.add("in_server_typical_w", np.array([line.in_server_typical_w for line in lines], dtype=np.float64))
    table.add("in_server_max_w", np.array([line.in_server_max_w for line in lines], dtype=np.float64))
    table.add("scope", [line.scope for line in lines])
    table.add("spare", [bool(line.spare) for line in lines])
    table.add("power_published", [bool(line.power_published) for line in lines])
    table.add("price_published", [bool(line.price_published) for line in lines])
    return table


def _quoted(name: str) -> str:
    return connection.ops.quote_name(name)


def table_write(table: Table) -> None:
    """Write every row of `table` with one COPY (PostgreSQL) or one executemany per batch (elsewhere)."""
    if not len(table):
        return
    db_table = _quoted(table.model._meta.db_table)
    columns = ", ".join(_quoted(c.name) for c in table.columns)

    def rows(start: int, stop: int):
        # Python values of one slice at a time: a million-row table never exists as Python objects.
        return zip(*(c.python_values(start, stop) for c in table.columns))

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            with cursor.connection.cursor() as raw:
                # A writer thread sends each chunk while the next is built; the server parses meanwhile.
                with raw.copy(f"COPY {db_table} ({columns}) FROM STDIN",
                              writer=QueuedLibpqWriter(raw)) as copy:
                    for start in range(0, len(table), CHUNK_ROWS):
                        copy.write(copy_text(table, start, min(start + CHUNK_ROWS, len(table))))
        return
    placeholders = ", ".join(["%s"] * len(table.columns))
    with connection.cursor() as cursor:
        for start in range(0, len(table), INSERT_BATCH_ROWS):
            cursor.executemany(
                f"INSERT INTO {db_table} ({columns}) VALUES ({placeholders})", list(rows(start, start + INSERT_BATCH_ROWS))
            )


def version_records_write(*, version: DesignVersion, plan: Plan, progress: Progress | None = None) -> SaveReport:
    """Write all rows of a generated version. Call inside the transaction that marks it ready."""
    started = time.perf_counter()
    report = progress or (lambda stage, percent: None)
    devices = device_table(version_id=version.pk, plan=plan)
    report("saving_devices", 10)
    table_write(devices)
    del devices
    # Links then ports in chunks (link_table_chunks): built, written and dropped one at a time.
    written = {LinkRecord: 0, PortRecord: 0}
    chunks: Iterable[Table] = link_table_chunks(version_id=version.pk, plan=plan)
    for chunk in chunks:
        if not written[chunk.model]:
            report("saving_links" if chunk.model is LinkRecord else "saving_ports",
                   30 if chunk.model is LinkRecord else 70)
        table_write(chunk)
        written[chunk.model] += len(chunk)
    bom = bom_table(version_id=version.pk, plan=plan)
    report("saving_bom", 95)
    table_write(bom)
    return SaveReport(
        devices=len(plan.devices), ports=written[PortRecord], links=written[LinkRecord], bom_lines=len(bom),
        seconds=time.perf_counter() - started,
    )
