"""Names, port names and file parts of the NetBox handover (apps.exports.netbox).

Rules:
- Name prefix: every device name is "<prefix>-<design name>" and the design's location and VRF are
  "<prefix>", so two designs of one project import side by side. The user chooses the prefix
  (letters, digits, "-", "_", "."; at most PREFIX_MAX characters, so a prefixed device name stays
  within NetBox's 64); empty means the default, the design's name as a slug.
- Port names NetBox should carry: Ethernet designs keep the design's (servers eth<i>, switches SONiC
  Ethernet<first lane>); InfiniBand designs use the InfiniBand names: hosts ib<i>, switches the
  NVIDIA Quantum (MLNX-OS) names "IB1/<cage>" or, on a split cage, "IB1/<cage>/<port>" (MLNX-OS
  "InfiniBand Interface Commands": interface ib 1/<port>, split ports 1/<port>/<sub-port>).
- Parts: each file is cut into parts a NetBox import page finishes within gunicorn's 120 s timeout
  (NetBox contrib/gunicorn.py: timeout = 120) with half of it to spare. Rates measured on a real
  NetBox 4.6 import: about 30 interfaces/s (4,000 rows in 115-131 s) and 6 cables/s (2,040 rows in
  219-340 s). A device costs 1 + its interfaces (created from its type's interface templates), an
  address one interface's time (not measured: the same cost as an interface is assumed).
- Part numbers have at least two digits and as many as the file's last part needs ("-part0001" ...
  "-part8336" for the 3.0 M cables of a 1,000,000-GPU design), so the files sort by name in import order;
  the writer is told how many parts a file may need (parts_bound) before it streams them.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from django.utils.text import slugify

PREFIX_MAX = 20
PREFIX_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
PART_SECONDS = 60  # half of NetBox's 120 s gunicorn timeout
INTERFACES_PER_SECOND = 30
CABLES_PER_SECOND = 6
INTERFACE_BUDGET = PART_SECONDS * INTERFACES_PER_SECOND  # 1,800 interface-equivalents per part
CABLE_ROWS_PER_PART = PART_SECONDS * CABLES_PER_SECOND  # 360 cables per part


def prefix_default(design_name: str, design_pk: int) -> str:
    slug = slugify(design_name)[:PREFIX_MAX].strip("-_.")
    return slug or f"design-{design_pk}"


def prefix_error(prefix: str) -> str | None:
    """Why `prefix` is not a valid name prefix, or None (English; the caller translates the message key)."""
    if len(prefix) > PREFIX_MAX:
        return "too_long"
    if not PREFIX_PATTERN.match(prefix):
        return "characters"
    return None


def vrf_rd(prefix: str) -> str:
    """The design's VRF route distinguisher (NetBox: unique, at most 21 characters): the prefix (at most
    PREFIX_MAX characters), which already scopes device names and the location, so one design's VRF is
    one row in any NetBox however often its files are imported."""
    return f"fw:{prefix}"[:21]


def prefixed(prefix: str, name: str) -> str:
    return f"{prefix}-{name}"


def weighted_parts(rows: Iterable[tuple], weight, budget: int) -> Iterator[list[tuple]]:
    """Consecutive runs of `rows` whose weights add up to at most `budget` (a heavier row stands alone)."""
    part: list[tuple] = []
    used = 0
    for row in rows:
        w = weight(row)
        if part and used + w > budget:
            yield part
            part, used = [], 0
        part.append(row)
        used += w
    if part:
        yield part


def row_parts(rows: Iterable[tuple], size: int) -> Iterator[list[tuple]]:
    return weighted_parts(rows, lambda row: 1, size)


def parts_bound(weights: Iterable[int], budget: int) -> int:
    """How many parts weighted_parts cuts rows of these weights into (row_parts: weights of 1)."""
    parts = used = 0
    for w in weights:
        if parts and used + w > budget:
            parts, used = parts + 1, 0
        parts = parts or 1
        used += w
    return parts


def rows_parts_bound(rows: int, size: int) -> int:
    """Parts of at most `size` rows that `rows` rows need."""
    return -(-max(rows, 0) // size)


def part_name(step: str, key: str, number: int, parts: int) -> str:
    """File name of part `number` of a file of (at most) `parts` parts: numbers of at least two digits, all of
    one width, so names sort in import order."""
    return f"{step}-{key}-part{number:0{max(2, len(str(max(parts, number))))}d}.csv"
