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
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Callable, Iterable, Sequence

import numpy as np
from django.db import connection

from apps.engine import names as engine_names
from apps.engine.model import ROLES, Plan

from .models import BomLineRecord, DesignVersion, DeviceRecord, LinkRecord, PortRecord
from .models.records import ID_SHIFT

INSERT_BATCH_ROWS = 50_000
_OCTETS = np.array([str(i) for i in range(256)], dtype=object)
_CENTS = Decimal("0.01")

Progress = Callable[[str, int], None]


@dataclass(slots=True)
class Column:
    """One column of a table: `values` is a numpy array (numbers) or an object array of str/None."""

    name: str
    values: np.ndarray
    null: np.ndarray | None = None  # bool mask of NULLs for numeric columns

    def python_values(self) -> list:
        """Plain Python values (None for NULL) for the database driver."""
        if self.values.dtype == object:
            return self.values.tolist()
        values = self.values.tolist()
        if self.null is not None and self.null.any():
            for i in np.flatnonzero(self.null).tolist():
                values[i] = None
        return values


@dataclass(slots=True)
class Table:
    model: type
    columns: list[Column] = field(default_factory=list)

    def add(self, name: str, values, null: np.ndarray | None = None) -> None:
        if not isinstance(values, np.ndarray):
            values = np.array(values, dtype=object)
        self.columns.append(Column(name, values, null))

    def __len__(self) -> int:
        return int(self.columns[0].values.shape[0]) if self.columns else 0


@dataclass(slots=True)
class SaveReport:
    devices: int
    ports: int
    links: int
    bom_lines: int
    seconds: float


def ipv4_text(addresses: np.ndarray) -> np.ndarray:
    """uint32 addresses -> object array of dotted quads (vectorised over octets)."""
    a = addresses.astype(np.uint32)
    return (
        _OCTETS[(a >> 24) & 255] + "." + _OCTETS[(a >> 16) & 255] + "." + _OCTETS[(a >> 8) & 255] + "."
        + _OCTETS[a & 255]
    )


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


def link_tables(*, version_id: int, plan: Plan) -> tuple[Table, Table]:
    """The link table and the used-port table (two ends per link), built column-wise."""
    links = plan.links
    count = len(links)
    devices = plan.devices
    role_code = np.array([ROLES.index(d.role) for d in devices], dtype=np.int64)
    device_pod = np.array([d.pod for d in devices], dtype=np.int64)
    names = np.array([d.name for d in devices], dtype=object)
    port_names = engine_names.port_name_table(plan)

    a_dev = links.a_dev.astype(np.int64)
    b_dev = links.b_dev.astype(np.int64)
    a_port = links.a_port.astype(np.int64)
    b_port = links.b_port.astype(np.int64)
    tier = links.tier.astype(np.int64)
    a_port_name = port_names[role_code[a_dev], a_port]
    b_port_name = port_names[role_code[b_dev], b_port]
    base = np.int64(version_id) << np.int64(ID_SHIFT)

    table = Table(LinkRecord)
    link_ids = _ids(version_id, count)
    table.add("id", link_ids)
    table.add("version_id", np.full(count, version_id, dtype=np.int64))
    table.add("index", np.arange(count, dtype=np.int64))
    table.add("tier", tier)
    table.add("a_device_id", base + a_dev)
    table.add("a_port", a_port_name)
    table.add("b_device_id", base + b_dev)
    table.add("b_port", b_port_name)
    plane, plane_null = _nullable_int(links.plane)
    table.add("plane", plane, plane_null)
    rail, rail_null = _nullable_int(links.rail)
    table.add("rail", rail, rail_null)
    # A server-leaf link belongs to its leaf's pod; higher links to their lower (a) end's pod.
    pod = np.where(tier == 0, device_pod[b_dev], device_pod[a_dev])
    table.add("pod", pod, pod < 0)

    media = plan.media
    medium = links.medium.astype(np.int64)
    for column, attr in (
        ("medium", "key"), ("medium_kind", "kind"), ("fiber", "fiber"), ("a_sku", "a_sku"), ("b_sku", "b_sku"),
        ("cable_sku", "cable_sku"),
    ):
        lookup = np.array([getattr(m, attr) for m in media] + [""], dtype=object)
        table.add(column, lookup[np.where(medium < 0, len(media), medium)])
    table.add("length_m", np.round(links.length_m.astype(np.float64), 2))
    a_label = names[a_dev] + ":" + a_port_name
    b_label = names[b_dev] + ":" + b_port_name
    table.add("label_a", engine_names.link_labels(a_label, b_label))
    table.add("label_b", engine_names.link_labels(b_label, a_label))

    subnet = links.subnet.astype(np.uint32)
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
        subnet_text = ipv4_text(subnet) + "/31"
        a_ip_text, b_ip_text = ipv4_text(a_ip), ipv4_text(b_ip)
        for text in (subnet_text, a_ip_text, b_ip_text):
            text[unaddressed] = None
        subnet_text[unaddressed] = ""
    table.add("subnet", subnet_text)
    table.add("a_ip", a_ip_text)
    table.add("b_ip", b_ip_text)

    ports = Table(PortRecord)
    port_device = np.concatenate([a_dev, b_dev])
    port_number = np.concatenate([a_port, b_port])
    port_link = np.concatenate([link_ids, link_ids])
    order = np.lexsort((port_number, port_device))
    port_device, port_number, port_link = port_device[order], port_number[order], port_link[order]
    duplicate = (np.diff(port_device) == 0) & (np.diff(port_number) == 0)
    if duplicate.any():
        where = int(np.flatnonzero(duplicate)[0])
        raise ValueError(
            f"port {int(port_number[where])} of device {devices[int(port_device[where])].name} is used twice"
        )
    port_count = 2 * count
    port_role = role_code[port_device]
    ports.add("id", _ids(version_id, port_count))
    ports.add("version_id", np.full(port_count, version_id, dtype=np.int64))
    ports.add("index", np.arange(port_count, dtype=np.int64))
    ports.add("device_id", base + port_device)
    ports.add("number", port_number)
    ports.add("name", port_names[port_role, port_number])
    ports.add("speed_gbps", _role_speed(plan)[port_role])
    ports.add("link_id", port_link)
    return table, ports


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
    rows = zip(*(c.python_values() for c in table.columns))
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            with cursor.connection.cursor() as raw:
                # psycopg formats and escapes each row in C; rows stream while the server parses.
                with raw.copy(f"COPY {db_table} ({columns}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
        return
    placeholders = ", ".join(["%s"] * len(table.columns))
    rows = list(rows)
    with connection.cursor() as cursor:
        for start in range(0, len(rows), INSERT_BATCH_ROWS):
            cursor.executemany(
                f"INSERT INTO {db_table} ({columns}) VALUES ({placeholders})", rows[start:start + INSERT_BATCH_ROWS]
            )


def version_records_write(*, version: DesignVersion, plan: Plan, progress: Progress | None = None) -> SaveReport:
    """Write all rows of a generated version. Call inside the transaction that marks it ready."""
    started = time.perf_counter()
    report = progress or (lambda stage, percent: None)
    devices = device_table(version_id=version.pk, plan=plan)
    links, ports = link_tables(version_id=version.pk, plan=plan)
    bom = bom_table(version_id=version.pk, plan=plan)
    tables: Iterable[tuple[str, Table, int]] = (
        ("saving_devices", devices, 10), ("saving_links", links, 30), ("saving_ports", ports, 70),
        ("saving_bom", bom, 95),
    )
    for stage, table, percent in tables:
        report(stage, percent)
        table_write(table)
    return SaveReport(
        devices=len(devices), ports=len(ports), links=len(links), bom_lines=len(bom),
        seconds=time.perf_counter() - started,
    )
