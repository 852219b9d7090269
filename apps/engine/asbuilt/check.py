"""The as-built check: every planned link classified once against the neighbour dumps.

For each planned link, looking only at the ends whose device was dumped:
- **ok**: every dumped end sees exactly the planned far device and port (one neighbour, that one);
- **missing**: every dumped end sees nothing, and no dumped device reports either end as its neighbour;
- **miswired**: anything else: a dumped end sees another port (or several), or another port claims
  one of its ends. Two miswired links whose ends are crossed (P1 sees Q2 and P2 sees Q1) are one
  swap, reported once with the two ports whose cables trade places;
- **unverified**: neither end's device was dumped.
An observed adjacency none of whose ends is an end of a planned link is **unexpected** (a cable
the plan does not have, or a device not in the plan); dumps of devices not in the plan are noted.

Every finding carries its fix as a Message (code, params, English text) and where the fix is done:
the rack of the device to work on, the link's plane and rail. Findings are sorted by rack, plane,
rail. Ports given by number (InfiniBand) are resolved through the plan's logical port indexes.
"""
from __future__ import annotations

import gc
import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..messages import Message
from .parsers import NO_INDEX, Dumps

OK, MISSING, MISWIRED, UNVERIFIED = "ok", "missing", "miswired", "unverified"
STATES = (OK, MISWIRED, MISSING, UNVERIFIED)
# One character per link in `AsBuiltResult.state_codes`, in link order.
STATE_CODE = {OK: "o", MISWIRED: "w", MISSING: "m", UNVERIFIED: "u"}
CODE_STATE = {v: k for k, v in STATE_CODE.items()}

TEMPLATES: dict[str, str] = {
    "asbuilt.connect": "connect {a} to {b}: no cable seen",
    "asbuilt.move": "move the cable at {near} to {far} (it reaches {found})",
    "asbuilt.move_claimed": "move the cable from {found} off {near}: {near} belongs to {far}",
    "asbuilt.swap": "swap the cables at {first} and {second}",
    "asbuilt.one_sided": "{far} sees {near}, but {near} reports no neighbour: check LLDP on {device}",
    "asbuilt.remove": "remove the cable between {a} and {b}: not in the plan",
    "asbuilt.unknown_device": "{device} (in {file}) is not a device of the plan",
}


def _msg(code: str, **params: Any) -> Message:
    return Message(code, params, TEMPLATES[code].format(**params))


@dataclass(slots=True)
class PlannedFabric:
    """The planned links, by name (column per field, one row per link), and where devices stand."""

    a_device: Sequence[str]
    a_port: Sequence[str]
    b_device: Sequence[str]
    b_port: Sequence[str]
    plane: Sequence[int]
    rail: Sequence[int]
    racks: dict[str, str]  # every planned device -> its rack
    # (device, logical port index) -> port name, for dumps that number ports (InfiniBand).
    port_names: dict[tuple[str, int], str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.a_device)


@dataclass(slots=True)
class Finding:
    state: str  # miswired, missing or unexpected
    kind: str  # connect, move, move_claimed, swap, one_sided, remove
    fix: Message
    rack: str
    plane: int
    rail: int
    link: int = -1  # planned link row, -1 for an unexpected adjacency
    other_link: int = -1  # the other link of a swap
    a: str = ""  # "device port" of the link's ends (or the adjacency's)
    b: str = ""
    seen: list[str] = field(default_factory=list)  # what the dumps report, "near -> far"

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "kind": self.kind, "link": self.link, "other_link": self.other_link,
                "a": self.a, "b": self.b, "rack": self.rack, "plane": self.plane, "rail": self.rail,
                "seen": self.seen, "fix": self.fix.text, "code": self.fix.code, "params": self.fix.params}


@dataclass(slots=True)
class AsBuiltResult:
    planned: int
    counts: dict[str, int]  # ok, miswired, missing, unverified, unexpected
    state_codes: str  # one STATE_CODE character per planned link
    findings: list[Finding]
    notes: list[Message]
    dumped_devices: int

    @property
    def verified_pct(self) -> float:
        # Rounded down: 100 % only when every planned link is verified.
        return math.floor(10_000 * self.counts[OK] / self.planned) / 100 if self.planned else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"planned": self.planned, **self.counts, "verified_pct": self.verified_pct,
                "dumped_devices": self.dumped_devices, "findings": [f.to_dict() for f in self.findings],
                "notes": [n.text for n in self.notes]}


End = tuple[str, str]


def _text(end: End) -> str:
    return f"{end[0]} {end[1]}"


def asbuilt_check(fabric: PlannedFabric, dumps: Dumps) -> AsBuiltResult:
    # Hundreds of thousands of small tuples: the cyclic collector would only rescan them.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _check(fabric, dumps)
    finally:
        if enabled:
            gc.enable()


def _check(fabric: PlannedFabric, dumps: Dumps) -> AsBuiltResult:
    n = len(fabric)
    racks = fabric.racks
    names = fabric.port_names
    a_dev, a_port, b_dev, b_port = fabric.a_device, fabric.a_port, fabric.b_device, fabric.b_port
    # Planned ends are numbered: link i has ends 2i (a) and 2i + 1 (b).
    end_id: dict[End, int] = dict(zip(zip(a_dev, a_port), range(0, 2 * n, 2)))
    end_id.update(zip(zip(b_dev, b_port), range(1, 2 * n, 2)))

    def resolve(device: str, port: str, index: int) -> End:
        if device not in racks and "." in device and device.split(".", 1)[0] in racks:
            device = device.split(".", 1)[0]  # a fully qualified name
        if index != NO_INDEX:
            port = names.get((device, index)) or f"port {index + 1}"
        return device, port

    # Observations as end ids; an end outside the plan gets an id from 2n on.
    extra: dict[End, int] = {}
    extra_ends: list[End] = []

    def other_id(end: End) -> int:
        got = end_id.get(end)
        if got is None:
            got = extra.get(end)
            if got is None:
                got = extra[end] = 2 * n + len(extra_ends)
                extra_ends.append(end)
        return got

    near_ids: list[int] = []
    far_ids: list[int] = []
    get = end_id.get
    for nb in dumps.neighbours:
        near = get((nb.device, nb.port)) if nb.port_index == NO_INDEX else None
        if near is None:
            near = other_id(resolve(nb.device, nb.port, nb.port_index))
        far = get((nb.remote_device, nb.remote_port)) if nb.remote_index == NO_INDEX else None
        if far is None:
            far_end = resolve(nb.remote_device, nb.remote_port, nb.remote_index)
            if nb.remote_alt and far_end not in end_id and (far_end[0], nb.remote_alt) in end_id:
                far_end = (far_end[0], nb.remote_alt)
            far = other_id(far_end)
        near_ids.append(near)
        far_ids.append(far)
    dumped = {resolve(d, "", NO_INDEX)[0] for d in dumps.dumped}

    total = 2 * n + len(extra_ends)
    near_arr = np.asarray(near_ids, dtype=np.int64)
    far_arr = np.asarray(far_ids, dtype=np.int64)
    seen_count = np.bincount(near_arr, minlength=total)
    claim_count = np.bincount(far_arr, minlength=total)
    first_seen = np.full(total, -1, dtype=np.int64)
    first_seen[near_arr[::-1]] = far_arr[::-1]  # the first observation wins
    dev_dumped = {d: (d in dumped) for d in racks}
    da = np.fromiter((dev_dumped.get(d, False) for d in a_dev), dtype=bool, count=n)
    db = np.fromiter((dev_dumped.get(d, False) for d in b_dev), dtype=bool, count=n)
    a_ids = np.arange(0, 2 * n, 2)
    b_ids = a_ids + 1
    a_sees_b = (seen_count[a_ids] == 1) & (first_seen[a_ids] == b_ids)
    b_sees_a = (seen_count[b_ids] == 1) & (first_seen[b_ids] == a_ids)
    unverified = ~da & ~db
    ok = ~unverified & (~da | a_sees_b) & (~db | b_sees_a)
    silent = (seen_count[a_ids] == 0) & (seen_count[b_ids] == 0) & (claim_count[a_ids] == 0) & \
        (claim_count[b_ids] == 0)
    missing = ~unverified & ~ok & silent
    bad = ~unverified & ~ok & ~silent
    codes = np.full(n, ord("u"), dtype=np.uint8)
    codes[ok], codes[missing], codes[bad] = ord("o"), ord("m"), ord("w")
    counts = {OK: int(ok.sum()), MISWIRED: int(bad.sum()), MISSING: int(missing.sum()),
              UNVERIFIED: int(unverified.sum())}

    def end_of(e: int) -> End:
        if e >= 2 * n:
            return extra_ends[e - 2 * n]
        i = e >> 1
        return (a_dev[i], a_port[i]) if e % 2 == 0 else (b_dev[i], b_port[i])

    # What the dumps say about the ends of wrong links, and the unplanned adjacencies.
    bad_links = np.flatnonzero(bad)
    involved = np.zeros(total, dtype=bool)
    involved[a_ids[bad_links]] = involved[b_ids[bad_links]] = True
    seen: dict[End, list[End]] = {}
    claims: dict[End, list[End]] = {}
    adjacencies: dict[tuple[End, End], None] = {}
    touched = np.flatnonzero(involved[near_arr] | involved[far_arr] | ((near_arr >= 2 * n) & (far_arr >= 2 * n)))
    for k in touched.tolist():
        near, far = end_of(int(near_arr[k])), end_of(int(far_arr[k]))
        seen.setdefault(near, []).append(far)
        claims.setdefault(far, []).append(near)
        if near_arr[k] >= 2 * n and far_arr[k] >= 2 * n:
            adjacencies[(near, far) if near <= far else (far, near)] = None
    findings: list[Finding] = []
    for i in np.flatnonzero(missing).tolist():
        A, B = (a_dev[i], a_port[i]), (b_dev[i], b_port[i])
        findings.append(Finding(MISSING, "connect", _msg("asbuilt.connect", a=_text(A), b=_text(B)),
                                racks.get(B[0], ""), int(fabric.plane[i]), int(fabric.rail[i]), i, a=_text(A),
                                b=_text(B)))
    end_link = {end_of(e): e >> 1 for e in np.flatnonzero(involved).tolist()}
    findings += _miswired_findings(fabric, bad_links.tolist(), end_link, seen, claims, dumped, codes)

    for near, far in adjacencies:
        findings.append(Finding("unexpected", "remove", _msg("asbuilt.remove", a=_text(near), b=_text(far)),
                                racks.get(near[0], racks.get(far[0], "")), -1, -1, a=_text(near), b=_text(far),
                                seen=[f"{_text(near)} -> {_text(far)}"]))
    notes = []
    for file in dumps.files:
        for device in file.devices:
            if resolve(device, "", NO_INDEX)[0] not in racks:
                notes.append(_msg("asbuilt.unknown_device", device=device, file=file.name))
    findings.sort(key=lambda f: (f.rack, f.plane, f.rail, f.link))
    return AsBuiltResult(n, {**counts, "unexpected": len(adjacencies)}, codes.tobytes().decode("ascii"), findings,
                         notes, len(dumped & racks.keys()))


def _miswired_findings(fabric: PlannedFabric, links: list[int], end_link: dict[End, int], seen, claims, dumped,
                       codes) -> list[Finding]:
    """One finding per miswired link; two links whose ends are crossed make one swap."""
    a_dev, a_port, b_dev, b_port = fabric.a_device, fabric.a_port, fabric.b_device, fabric.b_port
    racks = fabric.racks
    swapped: set[int] = set()
    findings: list[Finding] = []

    def observed(end: End) -> list[End]:
        return seen.get(end, []) + claims.get(end, [])

    for i in links:
        if i in swapped:
            continue
        ends = ((a_dev[i], a_port[i]), (b_dev[i], b_port[i]))
        pair = None
        for k, X in enumerate(ends):
            Y = ends[1 - k]
            for O in observed(X):
                j = end_link.get(O)
                if j is None or j == i or j in swapped or codes[j] != ord("w"):
                    continue
                jends = ((a_dev[j], a_port[j]), (b_dev[j], b_port[j]))
                X2 = jends[1] if jends[0] == O else jends[0]
                if Y in observed(X2):
                    pair = (j, X, Y, X2, O)
                    break
            if pair:
                break
        if pair is None:
            findings.append(_miswired_finding(fabric, i, ends, seen, claims, dumped))
            continue
        j, X, Y, X2, O = pair
        swapped.update((i, j))
        first, second = (Y, O) if Y[0] == O[0] or X[0] != X2[0] else (X, X2)
        fix = _msg("asbuilt.swap", first=_text(first), second=second[1] if first[0] == second[0] else _text(second))
        findings.append(Finding(MISWIRED, "swap", fix, racks.get(first[0], ""), int(fabric.plane[i]),
                                int(fabric.rail[i]), i, j, _text(ends[0]), _text(ends[1]),
                                [f"{_text(X)} -> {_text(O)}", f"{_text(X2)} -> {_text(Y)}"]))
    return findings


def _miswired_finding(fabric: PlannedFabric, i: int, ends: tuple[End, End], seen, claims, dumped) -> Finding:
    racks = fabric.racks
    plane, rail = int(fabric.plane[i]), int(fabric.rail[i])
    a, b = _text(ends[0]), _text(ends[1])
    saw = [f"{_text(x)} -> {_text(o)}" for x in ends for o in seen.get(x, [])]
    saw += [f"{_text(c)} -> {_text(x)}" for x in ends for c in claims.get(x, []) if c not in ends]
    # A dumped end that sees something else: the cable plugged there goes elsewhere.
    for k, X in enumerate(ends):
        Y = ends[1 - k]
        wrong = [o for o in seen.get(X, []) if o != Y] if X[0] in dumped else []
        if wrong:
            fix = _msg("asbuilt.move", near=_text(X), far=_text(Y), found=", ".join(_text(o) for o in wrong))
            return Finding(MISWIRED, "move", fix, racks.get(X[0], ""), plane, rail, i, a=a, b=b, seen=saw)
    # Another port claims an end: a cable from elsewhere lands on it.
    for k, X in enumerate(ends):
        Y = ends[1 - k]
        intruders = [c for c in claims.get(X, []) if c != Y]
        if intruders:
            fix = _msg("asbuilt.move_claimed", near=_text(X), far=_text(Y), found=", ".join(map(_text, intruders)))
            return Finding(MISWIRED, "move_claimed", fix, racks.get(X[0], ""), plane, rail, i, a=a, b=b, seen=saw)
    # Only the far end sees it: LLDP is off or filtered on the silent end.
    for k, X in enumerate(ends):
        Y = ends[1 - k]
        if X[0] in dumped and not seen.get(X) and Y in seen and X in seen.get(Y, []):
            fix = _msg("asbuilt.one_sided", near=_text(X), far=_text(Y), device=X[0])
            return Finding(MISWIRED, "one_sided", fix, racks.get(X[0], ""), plane, rail, i, a=a, b=b, seen=saw)
    fix = _msg("asbuilt.move", near=a, far=b, found=", ".join(saw) or "?")
    return Finding(MISWIRED, "move", fix, racks.get(ends[0][0], ""), plane, rail, i, a=a, b=b, seen=saw)
