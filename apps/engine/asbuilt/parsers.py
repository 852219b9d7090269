"""Neighbour dumps read into (device, port) -> (remote device, remote port) observations.

Formats (as their tools print them):
- SONiC ``show lldp table`` (sonic-utilities scripts/lldpshow): a "Capability codes" line, the
  header ``LocalPort RemoteDevice RemotePortID Capability RemotePortDescr``, a dashed rule that
  gives the column widths (tabulate's "simple" layout), one row per neighbour, a dashed line and
  "Total entries displayed: N". The file is one switch's table, named after the switch.
- lldpd ``lldpcli show neighbors -f json`` (and ``-f json0``): {"lldp": {"interface": {...}}},
  where "interface" is an object keyed by local interface or, with several neighbours, a list of
  such one-key objects; the neighbour's name is the key of "chassis" (json0: chassis[0].name[0].value)
  and its port is port.id.value, or port.descr when the id is a MAC address or locally assigned
  (lldpd on Linux advertises the MAC as port id and the interface name as its description).
  The file is one host's or switch's dump, named after it.
- InfiniBand ``ibnetdiscover`` (rdma-core infiniband-diags): blocks ``Switch <n> "S-<guid>" # "<desc>" ...``
  or ``Ca <n> "H-<guid>" # "<desc>"``, each followed by one line per connected port:
  ``[<port>] "<remote node>"[<remote port>] ... # "<remote desc>" lid ...`` (switch ports) or
  ``[<port>](<guid>) "<remote node>"[<remote port>] # lid .. lmc .. "<remote desc>" lid ...`` (CA ports).
  One file covers the whole subnet: every node in it counts as dumped. A switch's node description
  is its hostname (also in the managed-switch form "MF0;<hostname>:<model>/U1"); an HCA's is
  "<hostname> mlx5_<i>" (the Linux default), mlx5_<i> being the host's backend port i. Port numbers
  are 1-based: switch port n is the plan's logical port n - 1.

A device's name is its file name up to the first dot (``p0-su00-leaf-r3.txt``). Any other text is
an error naming the file and line; nothing is read from a set of files with an error in it.
"""
from __future__ import annotations

import gc
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Iterable

# A port given by number (InfiniBand), resolved against the plan's logical port indexes.
NO_INDEX = -1

FORMAT_SONIC = "sonic-lldp-table"
FORMAT_LLDPCLI = "lldpcli-json"
FORMAT_IBNETDISCOVER = "ibnetdiscover"


@dataclass(slots=True)
class Neighbour:
    """One observation: `device` port `port` sees `remote_device` port `remote_port`.

    A port known only by its logical index (InfiniBand) has port "" and `port_index` >= 0."""

    device: str
    port: str
    remote_device: str
    remote_port: str
    source: str
    line: int
    port_index: int = NO_INDEX
    remote_index: int = NO_INDEX
    remote_alt: str = ""  # a second name of the remote port (id or description), tried when the first is unplanned


@dataclass(slots=True)
class DumpFile:
    name: str
    format: str
    devices: list[str]
    neighbours: int


@dataclass(slots=True)
class Dumps:
    neighbours: list[Neighbour] = field(default_factory=list)
    dumped: set[str] = field(default_factory=set)  # devices whose own view was dumped
    files: list[DumpFile] = field(default_factory=list)


class DumpError(ValueError):
    """Unreadable dumps: one (file, line, message) per problem; line 0 when it is about the whole file."""

    def __init__(self, errors: list[tuple[str, int, str]]):
        self.errors = errors
        super().__init__("; ".join(f"{f} line {n}: {m}" if n else f"{f}: {m}" for f, n, m in errors))


def device_from_filename(name: str) -> str:
    return PurePosixPath(name).name.split(".", 1)[0]


def _fail(source: str, line: int, message: str) -> DumpError:
    return DumpError([(source, line, message)])


def detect_format(text: str) -> str | None:
    head = text.lstrip()[:4096]
    if head.startswith("{") or head.startswith("["):
        return FORMAT_LLDPCLI
    if re.search(r"^\s*LocalPort\s+RemoteDevice\s+RemotePortID", head, re.M) or head.startswith("Capability codes"):
        return FORMAT_SONIC
    if re.search(r"^(#\s*Topology file|switchguid=|caguid=|Switch\s+\d+\s+\"|Ca\s+\d+\s+\")", head, re.M):
        return FORMAT_IBNETDISCOVER
    return None


def parse_sonic_lldp_table(device: str, text: str, source: str) -> list[Neighbour]:
    """Rows of one switch's `show lldp table`; columns are cut at the dashed rule under the header."""
    lines = text.splitlines()
    header_at = next((i for i, line in enumerate(lines) if line.lstrip().startswith("LocalPort")), None)
    if header_at is None:
        raise _fail(source, 1, "no \"LocalPort RemoteDevice RemotePortID\" header: not a SONiC show lldp table")
    header = lines[header_at]
    rule_at = header_at + 1
    if rule_at >= len(lines) or not re.fullmatch(r"[\s-]+", lines[rule_at] or " ") or "-" not in lines[rule_at]:
        raise _fail(source, rule_at + 1, "expected the dashed rule under the header")
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", lines[rule_at])]
    names = [header[a:b].strip() or header[a:].split()[0] for a, b in spans]
    try:
        col_port, col_dev, col_rport = (names.index(n) for n in ("LocalPort", "RemoteDevice", "RemotePortID"))
    except ValueError:
        raise _fail(source, header_at + 1, "the header lacks LocalPort, RemoteDevice or RemotePortID") from None
    col_descr = names.index("RemotePortDescr") if "RemotePortDescr" in names else None
    out: list[Neighbour] = []
    starts = [a for a, _ in spans] + [None]
    # Each wanted column runs from its start to the next column's start (the last to the line's end).
    cut_port = slice(starts[col_port], starts[col_port + 1])
    cut_dev = slice(starts[col_dev], starts[col_dev + 1])
    cut_rport = slice(starts[col_rport], starts[col_rport + 1])
    cut_descr = slice(starts[col_descr], starts[col_descr + 1]) if col_descr is not None else None
    append = out.append
    for number, line in enumerate(lines[rule_at + 1:], start=rule_at + 2):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] == "-" and not stripped.strip("-"):
            continue
        if stripped.startswith("Total entries displayed"):
            break
        port, remote, rport = line[cut_port].strip(), line[cut_dev].strip(), line[cut_rport].strip()
        if not port or " " in port or not rport or " " in rport:
            raise _fail(source, number, f"cannot read a neighbour from {stripped[:80]!r}")
        descr = line[cut_descr].strip() if cut_descr is not None else ""
        if len(rport) == 17 and _MAC.match(rport) and descr:
            append(Neighbour(device, port, remote, descr, source, number))
        else:
            append(Neighbour(device, port, remote, rport, source, number, remote_alt=descr))
    return out


_MAC = re.compile(r"^[0-9a-fA-F]{2}([:-][0-9a-fA-F]{2}){5}$")


def _looks_like_port(value: str) -> bool:
    return bool(value) and not _MAC.match(value)


def _one(value):
    """json0 wraps every value in a one-element list of {"value": ...}; json gives it bare."""
    while isinstance(value, list) and value:
        value = value[0]
    if isinstance(value, dict) and set(value) <= {"value"}:
        return value.get("value")
    return value


def parse_lldpcli_json(device: str, text: str, source: str) -> list[Neighbour]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(source, exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise _fail(source, 1, f"not valid JSON: {exc}") from None
    lldp = _one(data.get("lldp")) if isinstance(data, dict) else None
    if lldp is None or not isinstance(lldp, (dict, list)):
        raise _fail(source, 1, "no \"lldp\" object: not lldpcli show neighbors -f json output")
    if isinstance(lldp, dict) and not lldp:
        return []
    interfaces = lldp.get("interface") if isinstance(lldp, dict) else None
    entries: list[tuple[str, dict]] = []
    if isinstance(interfaces, dict):  # json, one neighbour
        entries = [(k, v) for k, v in interfaces.items()]
    elif isinstance(interfaces, list):
        for item in interfaces:
            if isinstance(item, dict) and "name" in item:  # json0
                entries.append((str(_one(item["name"])), item))
            elif isinstance(item, dict) and len(item) == 1:  # json, several neighbours
                entries.extend(item.items())
            else:
                raise _fail(source, 1, "an \"interface\" entry is neither {name: ...} nor a json0 object")
    elif interfaces is not None:
        raise _fail(source, 1, "\"interface\" must be an object or a list")
    out: list[Neighbour] = []
    for local, body in entries:
        if not isinstance(body, dict):
            raise _fail(source, 1, f"interface {local}: expected an object")
        chassis = body.get("chassis")
        remote = ""
        if isinstance(chassis, list):  # json0
            chassis = chassis[0] if chassis else {}
            remote = str(_one(chassis.get("name")) or "") if isinstance(chassis, dict) else ""
        elif isinstance(chassis, dict):
            named = [k for k, v in chassis.items() if isinstance(v, dict)]
            remote = named[0] if named else str(_one(chassis.get("name")) or "")
        port = body.get("port")
        port = port[0] if isinstance(port, list) and port else port
        if not isinstance(port, dict):
            raise _fail(source, 1, f"interface {local}: no \"port\" object")
        pid = port.get("id")
        pid = pid[0] if isinstance(pid, list) and pid else pid
        ptype = str(pid.get("type", "")) if isinstance(pid, dict) else ""
        pvalue = str(_one(pid.get("value")) if isinstance(pid, dict) else (_one(pid) or ""))
        descr = str(_one(port.get("descr")) or "")
        # A MAC says nothing about the port: then the description names it. A locally assigned id
        # (SONiC advertises the port's alias) and the description are both tried against the plan.
        if ptype == "mac" or not _looks_like_port(pvalue):
            rport, alt = descr, ""
        else:
            rport, alt = pvalue, descr
        if not remote or not rport:
            raise _fail(source, _line_of(text, str(local)),
                        f"interface {local}: the neighbour has no system name or port")
        out.append(Neighbour(device, str(local), remote, rport, source, _line_of(text, str(local)), remote_alt=alt))
    return out


def _line_of(text: str, key: str) -> int:
    at = text.find(f"\"{key}\"")
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


_IB_NODE = re.compile(r'^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]+)"\s*#\s*"([^"]*)"')
_IB_PORT = re.compile(r'^\[(\d+)\](?:\[ext \d+\])?(?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]')


def ib_device_port(description: str) -> tuple[str, int]:
    """(hostname, port index) from a node description: "srv-0001 mlx5_3" -> ("srv-0001", 3);
    a switch "MF0;p0-spine-001:MQM9700/U1" or "p0-spine-001" -> ("p0-spine-001", -1)."""
    text = description.strip()
    if ";" in text:
        text = text.split(";", 1)[1].split(":", 1)[0]
    match = re.match(r"^(\S+)\s+mlx\d+_(\d+)$", text)
    if match:
        return match.group(1), int(match.group(2))
    return text.split()[0] if text else "", NO_INDEX


def parse_ibnetdiscover(text: str, source: str) -> tuple[list[Neighbour], set[str]]:
    nodes: dict[str, tuple[str, bool, int]] = {}  # node id -> (host, is switch, index of a CA)
    blocks: list[tuple[str, int, str]] = []  # (node id, line number, port line)
    current: str | None = None
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or re.match(r"^[a-z]+guid=|^vendid=|^devid=", stripped):
            continue
        node = _IB_NODE.match(stripped)
        if node:
            kind, _ports, node_id, desc = node.groups()
            host, index = ib_device_port(desc)
            nodes[node_id] = (host, kind == "Switch", index)
            current = node_id
            continue
        if stripped.startswith("["):
            if current is None or not _IB_PORT.match(stripped):
                raise _fail(source, number, f"cannot read a port line from {stripped[:80]!r}")
            blocks.append((current, number, stripped))
            continue
        if stripped.startswith(("Chassis", "Non-Chassis", "Hostname:")):
            continue
        raise _fail(source, number, f"not ibnetdiscover output: {stripped[:80]!r}")
    if not nodes:
        raise _fail(source, 1, "no Switch or Ca node: not ibnetdiscover output")
    out: list[Neighbour] = []
    for node_id, number, line in blocks:
        port, remote_id, remote_port = _IB_PORT.match(line).groups()  # type: ignore[union-attr]
        host, is_switch, ca_index = nodes[node_id]
        if remote_id in nodes:
            rhost, r_switch, r_index = nodes[remote_id]
        else:  # the remote node's own block is missing: its description follows '#'
            desc = re.search(r'#\s*(?:lid \d+ lmc \d+\s*)?"([^"]*)"', line)
            rhost, r_index = ib_device_port(desc.group(1) if desc else remote_id)
            r_switch = r_index == NO_INDEX
        local_index = int(port) - 1 if is_switch else max(ca_index, 0)
        remote_index = int(remote_port) - 1 if r_switch else max(r_index, 0)
        out.append(Neighbour(host, "", rhost, "", source, number, port_index=local_index, remote_index=remote_index))
    dumped = {host for host, _s, _i in nodes.values() if host}
    return out, dumped


def read_dumps(files: Iterable[tuple[str, bytes]]) -> Dumps:
    """Every (file name, content) parsed; raises DumpError listing each bad file (nothing is read then)."""
    enabled = gc.isenabled()
    gc.disable()  # hundreds of thousands of small objects, no cycles
    try:
        return _read(files)
    finally:
        if enabled:
            gc.enable()


def _read(files: Iterable[tuple[str, bytes]]) -> Dumps:
    dumps = Dumps()
    errors: list[tuple[str, int, str]] = []
    for name, content in files:
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = content[:exc.start].count(b"\n") + 1
            errors.append((name, line, "not UTF-8 text"))
            continue
        fmt = detect_format(text)
        try:
            if fmt == FORMAT_IBNETDISCOVER:
                found, dumped = parse_ibnetdiscover(text, name)
                devices = sorted(dumped)
            elif fmt in (FORMAT_SONIC, FORMAT_LLDPCLI):
                device = device_from_filename(name)
                if not device:
                    raise _fail(name, 0, "the file name must be the device's name")
                parse = parse_sonic_lldp_table if fmt == FORMAT_SONIC else parse_lldpcli_json
                found, devices = parse(device, text, name), [device]
                dumped = {device}
            else:
                raise _fail(name, 1, "unknown format: expected SONiC show lldp table, lldpcli show neighbors "
                                     "-f json or ibnetdiscover output")
        except DumpError as exc:
            errors.extend(exc.errors)
            continue
        dumps.neighbours.extend(found)
        dumps.dumped |= dumped
        dumps.files.append(DumpFile(name, fmt, devices, len(found)))
    if errors:
        raise DumpError(errors)
    if not dumps.files:
        raise DumpError([("", 0, "no dump files")])
    return dumps


class UploadLimits:
    """Guards against zip bombs and oversized folders."""

    def __init__(self, max_files: int = 20_000, max_bytes: int = 512 * 1024 * 1024):
        self.max_files = max_files
        self.max_bytes = max_bytes


def zip_members(data: bytes, source: str, limits: UploadLimits | None = None) -> list[tuple[str, bytes]]:
    """The files of a zip archive (folders and hidden files skipped), within the limits."""
    limits = limits or UploadLimits()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise _fail(source, 0, "not a zip archive") from None
    infos = [i for i in archive.infolist() if not i.is_dir() and not PurePosixPath(i.filename).name.startswith(".")
             and "__MACOSX" not in i.filename]
    if len(infos) > limits.max_files:
        raise _fail(source, 0, f"{len(infos):,} files; at most {limits.max_files:,}")
    if sum(i.file_size for i in infos) > limits.max_bytes:
        raise _fail(source, 0, f"unpacks to more than {limits.max_bytes:,} bytes")
    out = []
    for info in infos:
        try:
            out.append((info.filename, archive.read(info)))
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as exc:
            raise _fail(f"{source}/{info.filename}", 0, f"cannot be unpacked: {exc}") from None
    return out


def dumps_from_path(path: str | Path, limits: UploadLimits | None = None) -> list[tuple[str, bytes]]:
    """(name, content) of every file in a folder (recursively) or a zip archive."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
        limits = limits or UploadLimits()
        if len(files) > limits.max_files:
            raise _fail(str(path), 0, f"{len(files):,} files; at most {limits.max_files:,}")
        return [(str(p.relative_to(path)), p.read_bytes()) for p in files]
    return zip_members(path.read_bytes(), path.name, limits)
