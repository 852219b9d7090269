"""Host pre-check (the environment pre-check idea of EasyRoCE): a script that reports a host's RDMA
ports as JSON, and the comparison of the uploaded reports with each other and with the design.

The script (bash, read-only) lists every RDMA device under /sys/class/infiniband with its net device,
link layer, driver and driver version and firmware (ethtool -i; the firmware falls back to the
device's fw_ver), active rate (ports/1/rate, "400 Gb/sec (4X NDR)"), and on Ethernet the QoS state
NVIDIA's mlnx_qos prints (the "Priority trust state" and the PFC "enabled" row) and the mlx5 ECN
switches (/sys/class/net/<dev>/ecn/roce_np|roce_rp/enable/<priority>). It prints one JSON object:
{"precheck": 1, "host": ..., "ports": [{"rdma", "netdev", "link_layer", "driver", "driver_version",
"firmware", "rate_gbps", "trust", "pfc": [priorities], "ecn_np", "ecn_rp"}]}. Missing tools leave
their fields empty (null). Design names reach the script only in comments (safe_text.comment_text)
and quoted words (safe_text.shell_quote).

Comparison rules: a host differs from the majority when its driver version or firmware (the value
most of its ports report) is not the one most hosts report; it differs from the design when a port's
rate is not the NIC speed, when it has fewer RDMA ports than the server's backend ports, and on a
RoCE design when a port's trust mode, PFC priorities or ECN switches are not the design's.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .safe_text import comment_text, shell_quote


@dataclass(slots=True)
class PrecheckDesign:
    name: str
    version: int
    backend_ports: int
    speed_gbps: int
    roce: bool  # Ethernet with RoCE settings; False on InfiniBand
    pfc_priority: int | None = None
    trust: str | None = None
    ecn: bool | None = None


@dataclass(slots=True)
class PortReport:
    rdma: str
    netdev: str = ""
    link_layer: str = ""
    driver: str = ""
    driver_version: str = ""
    firmware: str = ""
    rate_gbps: float | None = None
    trust: str = ""
    pfc: list[int] | None = None
    ecn_np: int | None = None
    ecn_rp: int | None = None


@dataclass(slots=True)
class HostReport:
    host: str
    ports: list[PortReport] = field(default_factory=list)

    def usual(self, attribute: str) -> str:
        values = Counter(getattr(p, attribute) for p in self.ports if getattr(p, attribute))
        return values.most_common(1)[0][0] if values else ""


@dataclass(slots=True)
class Deviation:
    host: str
    field: str  # driver_version, firmware, rate_gbps, ports, trust, pfc, ecn
    port: str  # RDMA device, "" for the host
    value: Any
    expected: Any
    against: str  # "majority" or "design"


class PrecheckError(ValueError):
    def __init__(self, source: str, line: int, message: str):
        self.source, self.line, self.message = source, line, message
        super().__init__(f"{source} line {line}: {message}")


SCRIPT = r"""#!/usr/bin/env bash
# Host pre-check for fabricweb design {design} v{version}.
# Read-only: reports this host's RDMA ports (driver, firmware, rate, trust, PFC, ECN) as JSON on stdout.
# Run on every GPU server (e.g. with pdsh or clush), save each output as <hostname>.json and upload them.
set -u
DESIGN={design_q}
PFC_PRIORITY={pfc_priority}

js() {{
  local s=${{1-}}
  s=${{s//\\/\\\\}}; s=${{s//\"/\\\"}}; s=${{s//$'\t'/ }}; s=${{s//$'\n'/ }}; s=${{s//$'\r'/ }}
  printf '"%s"' "$s"
}}
num() {{
  case "${{1-}}" in ''|*[!0-9.]*) printf 'null' ;; *) printf '%s' "$1" ;; esac
}}
field() {{
  # field LABEL < "ethtool -i" output
  awk -F': ' -v k="$1" '$1 == k {{ print $2; exit }}'
}}

printf '{{"precheck": 1, "design": %s, "host": %s, "ports": [' "$(js "$DESIGN")" "$(js "$(hostname -s 2>/dev/null || hostname)")"
first=1
for dev_path in /sys/class/infiniband/*; do
  [ -e "$dev_path" ] || continue
  dev=$(basename "$dev_path")
  netdev=$(ls "$dev_path/device/net" 2>/dev/null | head -n 1)
  layer=$(cat "$dev_path/ports/1/link_layer" 2>/dev/null)
  rate=$(awk '{{print $1; exit}}' "$dev_path/ports/1/rate" 2>/dev/null)
  driver=""; driver_version=""; firmware=""
  if [ -n "$netdev" ] && command -v ethtool >/dev/null 2>&1; then
    info=$(ethtool -i "$netdev" 2>/dev/null)
    driver=$(printf '%s\n' "$info" | field driver)
    driver_version=$(printf '%s\n' "$info" | field version)
    firmware=$(printf '%s\n' "$info" | field firmware-version)
  fi
  [ -n "$firmware" ] || firmware=$(cat "$dev_path/fw_ver" 2>/dev/null)
  trust=""; pfc=""; ecn_np=""; ecn_rp=""
  if [ "$layer" = "Ethernet" ] && [ -n "$netdev" ]; then
    if command -v mlnx_qos >/dev/null 2>&1; then
      qos=$(mlnx_qos -i "$netdev" 2>/dev/null)
      trust=$(printf '%s\n' "$qos" | awk -F': *' '/Priority trust state/ {{ print $2; exit }}')
      pfc=$(printf '%s\n' "$qos" | awk '/PFC configuration/ {{ f = 1 }} f && $1 == "enabled" {{ s = ""; for (i = 2; i <= NF; i++) if ($i == 1) s = s (s == "" ? "" : ",") (i - 2); print s; exit }}')
    fi
    ecn_np=$(cat "/sys/class/net/$netdev/ecn/roce_np/enable/$PFC_PRIORITY" 2>/dev/null)
    ecn_rp=$(cat "/sys/class/net/$netdev/ecn/roce_rp/enable/$PFC_PRIORITY" 2>/dev/null)
  fi
  [ $first -eq 1 ] || printf ', '
  first=0
  printf '{{"rdma": %s, "netdev": %s, "link_layer": %s, "driver": %s, "driver_version": %s, "firmware": %s, ' \
    "$(js "$dev")" "$(js "$netdev")" "$(js "$layer")" "$(js "$driver")" "$(js "$driver_version")" "$(js "$firmware")"
  printf '"rate_gbps": %s, "trust": %s, "pfc": [%s], "ecn_np": %s, "ecn_rp": %s}}' \
    "$(num "$rate")" "$(js "$trust")" "$pfc" "$(num "$ecn_np")" "$(num "$ecn_rp")"
done
printf ']}}\n'
"""


def precheck_script(design: PrecheckDesign) -> str:
    return SCRIPT.format(design=comment_text(design.name), version=int(design.version),
                         design_q=shell_quote(f"{design.name} v{design.version}"),
                         pfc_priority=int(design.pfc_priority if design.pfc_priority is not None else 3))


def _text(value: Any) -> str:
    return "" if value is None else str(value)[:200]


def parse_precheck(text: str, source: str) -> HostReport:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PrecheckError(source, exc.lineno, f"not valid JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise PrecheckError(source, 1, f"not valid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("precheck") != 1:
        raise PrecheckError(source, 1, "not a host pre-check report (no \"precheck\": 1)")
    host = data.get("host")
    ports = data.get("ports")
    if not isinstance(host, str) or not host.strip() or not isinstance(ports, list):
        raise PrecheckError(source, 1, "a report needs \"host\" and a \"ports\" list")
    report = HostReport(host.strip()[:100])
    for k, port in enumerate(ports):
        if not isinstance(port, dict) or not isinstance(port.get("rdma"), str):
            raise PrecheckError(source, 1, f"port {k + 1}: needs an \"rdma\" device name")
        pfc = port.get("pfc")
        rate = port.get("rate_gbps")
        report.ports.append(PortReport(
            rdma=_text(port["rdma"]), netdev=_text(port.get("netdev")), link_layer=_text(port.get("link_layer")),
            driver=_text(port.get("driver")), driver_version=_text(port.get("driver_version")),
            firmware=_text(port.get("firmware")),
            rate_gbps=float(rate) if isinstance(rate, (int, float)) and not isinstance(rate, bool) else None,
            trust=_text(port.get("trust")).lower(),
            pfc=sorted(int(p) for p in pfc if isinstance(p, int) and not isinstance(p, bool))
            if isinstance(pfc, list) else None,
            ecn_np=port.get("ecn_np") if isinstance(port.get("ecn_np"), int) else None,
            ecn_rp=port.get("ecn_rp") if isinstance(port.get("ecn_rp"), int) else None,
        ))
    return report


def precheck_compare(reports: list[HostReport], design: PrecheckDesign) -> list[Deviation]:
    out: list[Deviation] = []
    for attribute in ("driver_version", "firmware"):
        values = Counter(r.usual(attribute) for r in reports if r.usual(attribute))
        if len(values) < 2:
            continue
        majority = values.most_common(1)[0][0]
        out += [Deviation(r.host, attribute, "", r.usual(attribute), majority, "majority")
                for r in reports if r.usual(attribute) and r.usual(attribute) != majority]
    for r in reports:
        backend = [p for p in r.ports if p.rate_gbps]
        if len(r.ports) < design.backend_ports:
            out.append(Deviation(r.host, "ports", "", len(r.ports), design.backend_ports, "design"))
        for p in backend:
            if p.rate_gbps != design.speed_gbps:
                out.append(Deviation(r.host, "rate_gbps", p.rdma, p.rate_gbps, design.speed_gbps, "design"))
        if not design.roce:
            continue
        for p in r.ports:
            if p.link_layer and p.link_layer != "Ethernet":
                continue
            if design.trust and p.trust != design.trust:
                out.append(Deviation(r.host, "trust", p.rdma, p.trust or None, design.trust, "design"))
            if design.pfc_priority is not None and p.pfc != [design.pfc_priority]:
                out.append(Deviation(r.host, "pfc", p.rdma, p.pfc, [design.pfc_priority], "design"))
            if design.ecn is not None:
                want = 1 if design.ecn else 0
                if p.ecn_np != want or p.ecn_rp != want:
                    out.append(Deviation(r.host, "ecn", p.rdma, [p.ecn_np, p.ecn_rp], [want, want], "design"))
    out.sort(key=lambda d: (d.host, d.field, d.port))
    return out
