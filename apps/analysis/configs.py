"""Per-device RoCE configuration files of a version: one device's file, or all of them as a streamed zip.

Rules:
- Files are the engine's (apps.engine.roce.roce_configs): "<role>/<name>.config_db.json" for
  switches (SONiC; ".config_db.fragment.json" or ".config_db.missing-platform.txt" for a switch model
  without SONiC platform data), "<name>.nvue.sh" / "<name>.eos.cfg" for NVIDIA / Arista switches, and
  "server/<name>.roce.sh" (or ".not-supported.txt") for servers.
- In the zip every NOS has its folder (sonic/, nvue/, eos/, then <role>/<name>...; server/ as it is), and
  each NOS folder starts with APPLY.txt: the commands in order and what needs a reload, in English and
  in Simplified Chinese; sonic/APPLY.txt also states each switch role's platform, HWSKU, breakout mode
  name and the buffer pool arithmetic (config_db.json itself has no comments).
- The zip is written into a sink that is emptied after every file, so only one device's text
  and its compressed bytes are held at a time: a 65,536-GPU design (13,312 files, ~450 MB of
  text) streams in constant memory. The zip is not seekable while written, so every entry
  carries a data descriptor (zipfile does this by itself for unseekable targets).
- The zip also carries the day-2 starter pack (apps.engine.day2): Prometheus targets and alert
  rules and a Grafana dashboard, under monitoring/.
- Deflate level 1: several times faster than level 6 on these repetitive files, slightly larger.
- One device's file is produced by the same generator run over that device alone, so the
  preview is byte for byte the file in the zip.
"""
from __future__ import annotations

import dataclasses
import zipfile
from collections.abc import Iterator
from datetime import datetime

from django.utils import translation
from django.utils.translation import gettext as _

from apps.engine.day2 import day2_files
from apps.engine.model import Plan
from apps.engine.roce import RoceSettings, nos_for_vendor, roce_configs, sonic_roles
from apps.engine.safe_text import comment_text

from .text import class_label, link_class_label

COMPRESS_LEVEL = 1
CHUNK_BYTES = 256 * 1024


class _Sink:
    """A write-only file object that remembers its position and hands out what was written."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._size = 0
        self._position = 0

    def write(self, data) -> int:
        data = bytes(data)
        self._parts.append(data)
        self._size += len(data)
        self._position += len(data)
        return len(data)

    def tell(self) -> int:
        return self._position

    def flush(self) -> None:
        pass

    @property
    def pending(self) -> int:
        return self._size

    def take(self) -> bytes:
        data = b"".join(self._parts)
        self._parts.clear()
        self._size = 0
        return data


class _OneDevice(list):
    """The plan's device list, complete for lookups and lengths, that iterates over one device only."""

    def __init__(self, devices, index: int) -> None:
        super().__init__(devices)
        self._index = index

    def __iter__(self):
        yield list.__getitem__(self, self._index)


def device_index(plan: Plan, name: str) -> int | None:
    for device in plan.devices:
        if device.name == name:
            return device.index
    return None


def device_config(*, plan: Plan, settings: RoceSettings, name: str, nos: bool = False) -> tuple[str, str] | None:
    """(file name, text) of one device's config, or None when the plan has no such device.

    `nos`: a switch's file for its vendor's own NOS (NVUE / EOS) instead of its SONiC config_db;
    None when the switch's vendor has no such renderer.
    """
    index = device_index(plan, name)
    if index is None:
        return None
    alone = dataclasses.replace(plan, devices=_OneDevice(plan.devices, index))
    files = list(roce_configs(alone, settings))
    if nos:
        return files[1] if len(files) > 1 else None
    return files[0]


# engine file suffix -> the zip's NOS folder
NOS_FOLDERS = ((".config_db.json", "sonic"), (".config_db.fragment.json", "sonic"),
               (".config_db.missing-platform.txt", "sonic"), (".nvue.sh", "nvue"), (".eos.cfg", "eos"))
LANGUAGES = (("en", "English"), ("zh-hans", "简体中文"))


def zip_name(name: str) -> str:
    """Where an engine file goes in the zip: under its NOS's folder (servers' scripts stay in server/)."""
    for suffix, folder in NOS_FOLDERS:
        if name.endswith(suffix):
            return f"{folder}/{name}"
    return name


def _mib(value: int) -> str:
    return _("%(bytes)s bytes (%(mib)s MiB)") % {"bytes": f"{value:,}", "mib": f"{value / 2**20:.2f}"}


def _sonic_apply(roles) -> list[str]:
    lines = [
        _("SONiC: one config_db.json per switch, complete: it loads as it is on a freshly installed switch."),
        "",
        _("1. Copy the file to the switch: scp <role>/<name>.config_db.json admin@<switch>:/tmp/"),
        _("2. Keep the switch's own base MAC and management port (the file has neither; each switch has its own): "
          "sudo config save -y, then copy DEVICE_METADATA|localhost mac and the MGMT_INTERFACE / MGMT_PORT rows of "
          "/etc/sonic/config_db.json into /tmp/<name>.config_db.json."),
        _("3. sudo config reload /tmp/<name>.config_db.json -y: it replaces the configuration and restarts swss, "
          "syncd and the bgp container (traffic stops for a minute or two). A new HWSKU, breakout mode or "
          "buffer pool needs this reload; frr_mgmt_framework_config is read only when the bgp container starts, "
          "so frrcfgd takes over BGP here."),
        _("   On a running switch whose HWSKU and breakout already match: sudo config load "
          "/tmp/<name>.config_db.json -y (merges the tables), then sudo systemctl restart bgp."),
        _("4. Check: show interfaces status, show ip bgp summary, show pfc counters, show queue counters, "
          "show buffer information (do not run config qos reload: it would rewrite the buffer tables from the "
          "platform's templates)."),
        _("5. sudo config save -y"),
        _("Switch models without SONiC platform data get <name>.config_db.missing-platform.txt instead, or "
          "<name>.config_db.fragment.json when the RoCE setting sonic_fragment is on: a fragment is merged with "
          "config load over the switch's running configuration, never loaded with config reload."),
        "",
    ]
    for r in roles:
        lines.append(_("%(role)s switches (%(switch)s):") % {"role": class_label(r.role),
                                                             "switch": comment_text(r.switch)})
        if r.platform:
            lines.append(_("  platform %(platform)s, HWSKU %(hwsku)s, BREAKOUT_CFG mode %(mode)s (from %(source)s)")
                         % {"platform": r.platform, "hwsku": r.hwsku, "mode": r.breakout or "-",
                            "source": r.platform_source})
        else:
            lines.append(_("  no SONiC platform data in the catalog: no loadable config_db for this model."))
        b = r.buffers
        if b.total is None:
            lines.append(_("  buffer pools not sized: the switch model's packet buffer is not published and the RoCE "
                           "settings state none, so the files write no BUFFER_POOL / BUFFER_PROFILE / BUFFER_PG / "
                           "BUFFER_QUEUE rows and the platform's own buffer configuration stays in force."))
        else:
            source = _("the RoCE settings") if b.source == "settings" else _("the switch model's published figure")
            lines.append(_("  packet buffer B = %(total)s, from %(source)s") % {"total": _mib(b.total),
                                                                             "source": source})
            for name, ports, prios, size in b.reserve:
                lines.append(_("  lossless headroom, %(links)s: %(ports)s ports x %(prios)s priority x %(size)s bytes "
                               "(xon + xoff) = %(bytes)s bytes") % {"links": link_class_label(name), "ports": ports,
                                                                     "prios": prios,
                                                                     "size": f"{size:,}",
                                                                     "bytes": f"{ports * prios * size:,}"})
            lines.append(_("  reserved R = %(reserved)s; ingress_lossless_pool = egress_lossy_pool = B - R = "
                           "%(shared)s (dynamic); egress_lossless_pool = B (static)") % {
                "reserved": _mib(b.reserved), "shared": _mib(b.shared)})
    return lines


def _nvue_apply() -> list[str]:
    return [
        _("NVIDIA Cumulus Linux (NVUE): one script per switch, <role>/<name>.nvue.sh."),
        "",
        _("1. Copy the script to the switch: scp <role>/<name>.nvue.sh cumulus@<switch>:"),
        _("2. Run it as a user allowed to use nv: bash <name>.nvue.sh. It stages every setting with nv set and "
          "applies them at once with nv config apply -y; QoS changes reload switchd by themselves, a breakout "
          "change restarts it (the ports flap)."),
        _("3. nv config save, so the configuration survives a reboot."),
        _("4. Check: nv show interface, nv show qos, nv show vrf default router bgp neighbor."),
        _("Cumulus restores a queue its PFC watchdog turned lossy by its own polling; the restoration time of "
          "the SONiC file has no NVUE equivalent."),
    ]


def _eos_apply() -> list[str]:
    return [
        _("Arista EOS: one configuration per switch, <role>/<name>.eos.cfg, without management settings."),
        "",
        _("1. Copy the file to flash: scp <role>/<name>.eos.cfg admin@<switch>:/mnt/flash/"),
        _("2. configure session fabric, copy flash:<name>.eos.cfg session-config, show session-config diffs, "
          "commit: merges it over the running configuration (management address and users stay)."),
        _("   configure replace flash:<name>.eos.cfg would remove everything the file does not hold, the "
          "management settings included: only use it with a file that has them added."),
        _("3. service routing protocols model multi-agent takes effect after a reload: write memory, then "
          "reload on a switch that ran another model."),
        _("4. Check: show interfaces status, show ip bgp summary, show priority-flow-control, show qos "
          "interfaces."),
        _("5. write memory"),
    ]


def _apply(kind: str, roles) -> str:
    """APPLY.txt of a NOS folder: the same procedure in English, then in Simplified Chinese."""
    parts = []
    for code, label in LANGUAGES:
        with translation.override(code):
            body = {"sonic": lambda: _sonic_apply(roles), "nvue": _nvue_apply, "eos": _eos_apply}[kind]()
        parts.append("\n".join([f"== {label} ==", "", *body, ""]))
    return "\n".join(parts)


def _readme(title: str) -> str:
    return "\n".join([
        comment_text(title),
        "",
        _("One file per device, generated by fabricweb from the design's RoCE settings."),
        "",
        _("Switches (SONiC): sonic/<role>/<name>.config_db.json is the switch's complete config_db: platform and "
          "HWSKU, hostname and BGP ASN (DEVICE_METADATA), every port with its lanes and the platform's breakout "
          "mode, Loopback0, a /31 on every cabled port, eBGP to every neighbour switch with the design's ASNs "
          "(RFC 7938; multipath relax, maximum paths), QoS, buffers sized from the switch's own buffer, PFC and ECN. "
          "It passes SONiC's YANG models. sonic/APPLY.txt says how to load it and shows the buffer arithmetic."),
        _("NVIDIA switches also get nvue/<role>/<name>.nvue.sh (Cumulus Linux NVUE commands), Arista switches "
          "eos/<role>/<name>.eos.cfg (EOS configuration): the same addresses, sessions, maps, PFC, ECN and "
          "watchdog, under the NOS's own port names (each port's description names the SONiC port); each folder's "
          "APPLY.txt gives the commands in order."),
        _("Servers: server/<name>.roce.sh finds each backend port's RDMA and net device (ibdev2netdev, `rdma link`), "
          "sets ports shipped in InfiniBand mode to Ethernet (then asks for a reboot and a second run), sets trust "
          "mode, PFC, DSCP mapping and DCQCN, writes the /31 addresses with netplan and prints the NCCL "
          "environment. Run it as root after every boot (with --firmware it also stores the CNP settings through "
          "mlxconfig). A NIC without a renderer gets server/<name>.not-supported.txt with the values instead."),
        "",
        _("Day-2 starter pack (monitoring/): prometheus/fabric-targets.json lists every device with its tier, plane, "
          "rail and scale unit as labels (a file_sd file: relabel each name to its management address); "
          "prometheus/fabric-alerts.yml holds alert rules for PFC pause storms, ECN marking, link flaps, CRC errors "
          "and optics temperature and power (switches through snmp_exporter with IF-MIB and ENTITY-SENSOR-MIB, "
          "servers through rdma_exporter and node_exporter; check them with `promtool check rules`); "
          "grafana/fabric-dashboard.json is a dashboard organised by tier, plane and rail (Dashboards > Import)."),
        "",
    ])


def configs_zip_stream(*, plan: Plan, settings: RoceSettings, root: str, title: str,
                       when: datetime | None = None) -> Iterator[bytes]:
    """The zip of every device's config (plus a README) under `root/`, yielded in chunks."""
    stamp = (when or datetime.now()).timetuple()[:6]
    stamp = max(stamp, (1980, 1, 1, 0, 0, 0))
    sink = _Sink()
    archive = zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL)

    def entry(name: str, text: str, mode: int) -> None:
        info = zipfile.ZipInfo(f"{root}/{name}", date_time=stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (0o100000 | mode) << 16
        archive.writestr(info, text.encode("utf-8"), compresslevel=COMPRESS_LEVEL)

    try:
        entry("README.txt", _readme(title), 0o644)
        for name, text in day2_files(plan, settings):
            entry(name, text, 0o644)
        roles = sonic_roles(plan, settings)
        if roles:
            entry("sonic/APPLY.txt", _apply("sonic", roles), 0o644)
        kinds = {nos.key for r in roles if (nos := nos_for_vendor(plan.spec.switch_hw(r.role).vendor)) is not None}
        for kind in sorted(kinds):
            entry(f"{kind}/APPLY.txt", _apply(kind, roles), 0o644)
        for name, text in roce_configs(plan, settings):
            entry(zip_name(name), text, 0o755 if name.endswith(".sh") else 0o644)
            if sink.pending >= CHUNK_BYTES:
                yield sink.take()
    finally:
        archive.close()
    yield sink.take()
