"""COPY text built column-wise (apps.designs.persistence.copy_text): what the driver would send, row for row."""
from __future__ import annotations

import numpy as np
import pytest
from django.db import connection, transaction

from apps.designs.models import DeviceRecord
from apps.designs.persistence import CHUNK_ROWS, Table, copy_text, device_rows_table, table_write
from apps.engine.model import Device


def _reference(table: Table, start: int, stop: int) -> str:
    """COPY text value by value: NULL as \\N, booleans t/f, numbers as Python writes them, text escaped."""
    def text(value) -> str:
        if value is None:
            return "\\N"
        if isinstance(value, bool):
            return "t" if value else "f"
        if isinstance(value, str):
            return (value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r"))
        return repr(value) if isinstance(value, float) else str(value)

    rows = zip(*(column.python_values(start, stop) for column in table.columns))
    return "".join("\t".join(map(text, row)) + "\n" for row in rows)


def _mixed(count: int, *, special: bool) -> Table:
    rng = np.random.default_rng(7)
    table = Table(DeviceRecord)
    table.add("id", (np.int64(5) << np.int64(32)) + np.arange(count, dtype=np.int64))  # consecutive ids
    table.add("version_id", np.full(count, 5, dtype=np.int64))
    table.add("small", rng.integers(0, 300, count))
    plane = rng.integers(-1, 4, count)
    table.add("plane", plane, plane < 0)  # NULLs among small numbers
    big = rng.integers(-(1 << 40), 1 << 40, count)
    table.add("big", big, big % 7 == 0)
    table.add("length", np.round(rng.random(count) * 30, 2))
    table.add("flag", [bool(v) for v in rng.integers(0, 2, count)])
    names = np.array([f"srv-{i:04d}" for i in range(count)], dtype=object)
    names[::5] = None
    if special:
        names[3] = "tab\there"
        names[7] = "back\\slash \\N"
        names[11] = "new\nline\rcr"
        names[13] = "上海-机柜"
    table.add("name", names)
    return table


@pytest.mark.parametrize("special", [False, True], ids=["plain", "values-to-escape"])
def test_copy_text_is_what_the_driver_would_send_value_by_value(special):
    table = _mixed(1_000, special=special)
    assert copy_text(table, 0, 1_000) == _reference(table, 0, 1_000)
    assert copy_text(table, 100, 357) == _reference(table, 100, 357)


def test_copy_text_of_no_rows_is_empty():
    assert copy_text(_mixed(10, special=False), 4, 4) == ""


def test_rows_with_characters_copy_must_escape_are_stored_as_given(db):
    names = ["tab\there", "back\\slash \\N", "new\nline", "cr\rhere", "上海-机柜", "plain"]
    devices = [Device(index=i, name=name, role="server", sku="SKU", model="", ports=8) for i, name in enumerate(names)]
    table = device_rows_table(ids=(np.int64(999_999) << np.int64(32)) + np.arange(len(devices), dtype=np.int64),
                              version_id=999_999, index=np.arange(len(devices), dtype=np.int64), devices=devices)
    assert connection.vendor == "postgresql"
    with transaction.atomic():
        table_write(table)
        stored = list(DeviceRecord.objects.filter(version_id=999_999).order_by("index").values_list(
            "name", "plane", "loopback", "asn"))
        transaction.set_rollback(True)
    assert stored == [(name, None, None, None) for name in names]


def test_a_table_larger_than_a_chunk_is_written_whole(db):
    count = CHUNK_ROWS + 17
    devices = [Device(index=i, name=f"srv-{i:06d}", role="server", sku="SKU", model="", ports=8, plane=i % 3 - 1)
               for i in range(count)]
    table = device_rows_table(ids=(np.int64(999_998) << np.int64(32)) + np.arange(count, dtype=np.int64),
                              version_id=999_998, index=np.arange(count, dtype=np.int64), devices=devices)
    with transaction.atomic():
        table_write(table)
        rows = DeviceRecord.objects.filter(version_id=999_998)
        assert rows.count() == count
        last = rows.get(index=count - 1)
        assert (last.name, last.plane) == (f"srv-{count - 1:06d}", (count - 1) % 3 - 1 if (count - 1) % 3 else None)
        transaction.set_rollback(True)
