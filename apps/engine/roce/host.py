"""Per-server host script: find the backend ports, make them Ethernet, lossless, addressed, and print NCCL's settings.

Rules:
- The renderer is chosen by the NIC's vendor (NicHw.vendor; for specs stored before NICs carried
  one, a ConnectX / BlueField / Mellanox model or an MCX part number counts as NVIDIA). Only NVIDIA
  ConnectX / BlueField NICs have a renderer (mlnx_qos, mlxconfig, mlx5 sysfs, from NVIDIA's
  MLNX_OFED / DOCA-OFED tools); any other NIC gets "<name>.not-supported.txt" that says so and
  lists the values to apply with the vendor's own tools, never an NVIDIA script.
- Discovery, not assumed names (a DGX names its ports ibp*/enp*, not eth<i>): the backend RDMA
  devices are the mlx5 devices whose port 1 runs at the design's backend speed, in PCI address
  order (rail i = the i-th); BACKEND_RDMA_DEVS="mlx5_0 mlx5_3 ..." overrides that. Each one's net
  device comes from ibdev2netdev, else `rdma link show <dev>/1`, else sysfs. The script stops,
  changing nothing, when it finds another count than the design's rails.
- A port whose link layer is InfiniBand (VPI NICs such as ConnectX-7 ship in IB mode) is set to
  Ethernet in firmware (mlxconfig LINK_TYPE_P1=2, NVIDIA mlxconfig docs); the script then asks for
  a reboot (or mlxfwreset) and a second run.
- QoS per port as before: trust, PFC, DSCP -> priority, cable length (mlnx_qos), RoCE v2 and TOS
  for RDMA-CM (cma_roce_mode / cma_roce_tos), DCQCN knobs in sysfs; --firmware also stores the
  CNP settings in NIC firmware.
- Addresses: netplan file /etc/netplan/60-fabricweb-backend.yaml, each port its /31 (the odd
  address of its link; the leaf holds the even one), the MTU, and a route to the host pool via
  its leaf in a table of its own, chosen by source address (one table per rail, 100 + rail), so
  traffic leaves by the port whose address it carries.
- NCCL environment printed at the end: NCCL_IB_HCA (the discovered devices, exact match),
  NCCL_IB_GID_INDEX (the RoCE v2 GID holding the port's IPv4 address, found in sysfs),
  NCCL_IB_TC = RoCE DSCP << 2 | ECT(0) (the traffic-class byte NCCL puts in the GRH, so data is
  marked with the RoCE DSCP), NCCL_IB_QPS_PER_CONNECTION = 4 (each connection on 4 queue pairs, so
  ECMP hashes it onto several paths; NCCL's default is 1) and NCCL_IB_ROCE_VERSION_NUM=2.
  Sources: NCCL environment variables (docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html).
- Every design value is one shell-quoted word, every comment goes through comment_text.
"""
from __future__ import annotations

from dataclasses import fields

from ..safe_text import comment_text, shell_quote
from ..spec import NicHw
from .routing import dotted
from .settings import Dcqcn

NVIDIA = "NVIDIA"
NVIDIA_MARKERS = ("connectx", "bluefield", "mellanox", "supernic")
NETPLAN_FILE = "/etc/netplan/60-fabricweb-backend.yaml"
QPS_PER_CONNECTION = 4
ROUTE_TABLE_BASE = 100


def nic_vendor(nic: NicHw) -> str:
    """The NIC's vendor, inferred for NICs stored without one."""
    if nic.vendor:
        return nic.vendor
    text = f"{nic.name} {nic.sku}".lower()
    if any(marker in text for marker in NVIDIA_MARKERS) or nic.sku.upper().startswith("MCX"):
        return NVIDIA
    return ""


def host_supported(nic: NicHw) -> bool:
    return nic_vendor(nic).strip().lower() in ("nvidia", "mellanox")


def host_file_name(name: str, nic: NicHw) -> str:
    return f"server/{name}.roce.sh" if host_supported(nic) else f"server/{name}.not-supported.txt"


def not_supported_text(ctx, device: int) -> str:
    """What a user of a NIC without a renderer is told, with the values to apply by hand."""
    d = ctx.plan.devices[device]
    s, nic_cls = ctx.s, ctx.cls["nic"]
    nic = ctx.plan.spec.nic_hw
    vendor = nic_vendor(nic) or "unknown vendor"
    lines = [
        f"Host script not supported for this NIC: {comment_text(vendor)} {comment_text(nic.name or nic.sku)}.",
        "fabricweb renders host scripts for NVIDIA ConnectX / BlueField NICs only (mlnx_qos, mlxconfig, mlx5 sysfs).",
        f"Apply these settings on {comment_text(d.name)} with the NIC vendor's own tools:",
        f"  trust {nic_cls.trust}; PFC on priorities {','.join(map(str, nic_cls.pfc_priorities)) or 'none'}; "
        f"RoCE DSCP {s.roce_dscp} -> priority {nic_cls.roce_priority}; CNP DSCP {s.cnp_dscp} -> priority "
        f"{nic_cls.cnp_priority}; ECN/DCQCN {'on' if nic_cls.ecn_enabled else 'off'}; MTU {nic_cls.mtu}.",
        "Backend addresses (/31, the leaf holds the other address of each pair):",
    ]
    for rail, ip, gw, peer in _rails(ctx, device):
        lines.append(f"  rail {rail}: {ip}/31 via {gw} ({comment_text(peer)})")
    lines.append(f"NCCL: NCCL_IB_TC={(s.roce_dscp << 2) | 2}, NCCL_IB_QPS_PER_CONNECTION={QPS_PER_CONNECTION}.")
    return "\n".join(lines) + "\n"


def _rails(ctx, device: int) -> list[tuple[int, str, str, str]]:
    """(rail, host address, leaf address, "leaf:port") per backend port of the server, port order."""
    out = []
    ports, links, sides = ctx.ends(device)
    for port, link, side in zip(ports.tolist(), links.tolist(), sides.tolist()):
        if side != 0:
            continue
        subnet = int(ctx.plan.links.subnet[link])
        peer_dev, peer_port = ctx.peer(link, side)
        out.append((int(ctx.plan.links.rail[link]), dotted(subnet + 1), dotted(subnet), f"{peer_dev}:{peer_port}"))
    return out


def server_script(ctx, device: int) -> str:
    d = ctx.plan.devices[device]
    s, nic = ctx.s, ctx.cls["nic"]
    spec = ctx.plan.spec
    dc: Dcqcn = s.dcqcn
    lc = ctx.by_tier.get(0)
    pfc = ",".join("1" if p in nic.pfc_priorities else "0" for p in range(8))
    tos = (s.roce_dscp << 2) | 2  # DSCP in the upper six bits, ECT(0) for ECN-capable transport
    ecn_on = 1 if nic.ecn_enabled else 0
    rp = 1 if (dc.rp_enable and nic.ecn_enabled) else 0
    np_ = 1 if (dc.np_enable and nic.ecn_enabled) else 0
    rp_knobs = [f.name for f in fields(Dcqcn) if f.name not in ("rp_enable", "np_enable", "min_time_between_cnps")]
    rails = _rails(ctx, device)
    lines = [
        "#!/usr/bin/env bash",
        f"# Backend ports of {comment_text(d.name)} (fabricweb design {comment_text(spec.name) or 'unnamed'}): "
        "Ethernet link type, RoCE lossless settings, /31 addresses, NCCL environment.",
        "# Run as root after every boot: mlnx_qos, cma_roce_* and sysfs settings do not persist.",
        "# Run once with --firmware to also store the CNP settings in NIC firmware (after a reboot).",
        "# Needs NVIDIA's MLNX_OFED / DOCA-OFED tools (mlnx_qos, cma_roce_mode, cma_roce_tos, mlxconfig,",
        "# ibdev2netdev), iproute2 (rdma) and netplan.",
        "# BACKEND_RDMA_DEVS=\"mlx5_0 mlx5_3 ...\" names the backend RDMA devices in rail order when the",
        "# discovery (mlx5 devices at the backend speed, in PCI order) would pick others.",
        "set -euo pipefail",
        "",
        f"RAILS={shell_quote(len(rails))}",
        f"GBPS={shell_quote(spec.server.nic_gbps)}",
        f"TRUST={shell_quote(nic.trust)}",
        f"PFC={shell_quote(pfc)}  # PFC on priorities 0..7",
        f"ROCE_DSCP={shell_quote(s.roce_dscp)}",
        f"ROCE_PRIO={shell_quote(nic.roce_priority)}",
        f"CNP_DSCP={shell_quote(s.cnp_dscp)}",
        f"CNP_PRIO={shell_quote(nic.cnp_priority)}",
        f"TOS={shell_quote(tos)}  # RoCE DSCP {comment_text(s.roce_dscp)} << 2 | ECT(0)",
        f"MTU={shell_quote(nic.mtu)}",
        f"CABLE_M={shell_quote(lc.cable_m if lc else 3)}"
        "  # longest server-leaf cable (m), sizes the NIC's PFC headroom",
        f"HOST_POOL={shell_quote(spec.pools.host)}",
        f"NETPLAN_FILE=\"${{FABRICWEB_NETPLAN_FILE:-{NETPLAN_FILE}}}\"",
        "SYS=\"${FABRICWEB_SYSFS:-/sys}\"  # another root only to test the script against a copied sysfs tree",
        "# Per rail: this host's address, its leaf's address (the /31 pair), the leaf port.",
        "RAIL_IP=(" + " ".join(shell_quote(ip) for _, ip, _, _ in rails) + ")",
        "RAIL_GW=(" + " ".join(shell_quote(gw) for _, _, gw, _ in rails) + ")",
    ]
    lines += [f"#   rail {rail}: {ip}/31 -> {comment_text(peer)}" for rail, ip, _, peer in rails]
    lines += [
        "",
        "die() { echo \"error: $*\" >&2; exit 1; }",
        "",
        "pci_of() { basename \"$(readlink -f \"${SYS}/class/infiniband/$1/device\")\"; }",
        "",
        "discover() {",
        "  if [[ -n \"${BACKEND_RDMA_DEVS:-}\" ]]; then",
        "    read -r -a DEVS <<< \"$BACKEND_RDMA_DEVS\"",
        "    return",
        "  fi",
        "  local dev rate found=()",
        "  for dev in \"${SYS}/class/infiniband/\"mlx5_*; do",
        "    [[ -e \"$dev\" ]] || continue",
        "    dev=$(basename \"$dev\")",
        "    rate=$(cat \"${SYS}/class/infiniband/$dev/ports/1/rate\" 2>/dev/null || true)",
        "    [[ \"$rate\" == \"$GBPS Gb/sec\"* ]] && found+=(\"$(pci_of \"$dev\") $dev\")",
        "  done",
        "  mapfile -t DEVS < <(printf '%s\\n' \"${found[@]}\" | sort | awk 'NF {print $2}')",
        "}",
        "",
        "netdev_of() {",
        "  local dev=\"$1\" name=\"\"",
        "  if command -v ibdev2netdev >/dev/null; then",
        "    name=$(ibdev2netdev | awk -v d=\"$dev\" '$1 == d && $2 == \"port\" && $3 == \"1\" {print $5}' || true)",
        "  fi",
        "  if [[ -z \"$name\" ]] && command -v rdma >/dev/null; then",
        "    name=$(rdma link show \"$dev/1\" 2>/dev/null | awk '{for (i = 1; i < NF; i++) if ($i == \"netdev\") print $(i + 1)}' "
        "|| true)",
        "  fi",
        "  if [[ -z \"$name\" ]]; then",
        "    name=$(ls \"${SYS}/class/infiniband/$dev/device/net\" 2>/dev/null | head -n 1)",
        "  fi",
        "  [[ -n \"$name\" ]] || die \"no net device for $dev\"",
        "  echo \"$name\"",
        "}",
        "",
        "ensure_ethernet() {",
        "  local dev=\"$1\"",
        "  if [[ \"$(cat \"${SYS}/class/infiniband/$dev/ports/1/link_layer\")\" == \"InfiniBand\" ]]; then",
        "    echo \"$dev runs InfiniBand: setting its port to Ethernet in firmware (LINK_TYPE_P1=2)\"",
        "    mlxconfig -y -d \"$dev\" set LINK_TYPE_P1=2",
        "    NEED_RESET=1",
        "  fi",
        "}",
        "",
        "roce_port() {",
        '  local ifname="$1" dev="$2"',
        '  local ecn="${SYS}/class/net/${ifname}/ecn"',
        '  ip link set dev "$ifname" mtu "$MTU"',
        '  mlnx_qos -i "$ifname" --trust "$TRUST"',
        '  mlnx_qos -i "$ifname" --pfc "$PFC"',
    ]
    if nic.trust == "dscp":
        lines += [
            '  mlnx_qos -i "$ifname" --dscp2prio "set,${ROCE_DSCP},${ROCE_PRIO}"',
            '  mlnx_qos -i "$ifname" --dscp2prio "set,${CNP_DSCP},${CNP_PRIO}"',
        ]
    lines += [
        '  mlnx_qos -i "$ifname" --cable_len "$CABLE_M"',
        '  cma_roce_mode -d "$dev" -p 1 -m 2',
        '  cma_roce_tos -d "$dev" -t "$TOS"',
        '  echo "$TOS" > "${SYS}/class/infiniband/${dev}/tc/1/traffic_class"',
        "  # DCQCN: notification point (receiver sends CNPs) and reaction point (sender slows down)",
        f'  echo {shell_quote(np_)} > "$ecn/roce_np/enable/${{ROCE_PRIO}}"',
        f'  echo {shell_quote(rp)} > "$ecn/roce_rp/enable/${{ROCE_PRIO}}"',
        '  echo "$CNP_DSCP" > "$ecn/roce_np/cnp_dscp"',
        '  echo "$CNP_PRIO" > "$ecn/roce_np/cnp_802p_prio"',
        f'  echo {shell_quote(dc.min_time_between_cnps)} > "$ecn/roce_np/min_time_between_cnps"',
    ]
    for knob in rp_knobs:
        value = getattr(dc, knob)
        value = int(value) if isinstance(value, bool) else value
        lines.append(f'  echo {shell_quote(value)} > "$ecn/roce_rp/{knob}"')
    lines += [
        "}",
        "",
        "firmware() {",
        '  local dev="$1"',
        f'  mlxconfig -y -d "$dev" set ROCE_CC_PRIO_MASK_P1={shell_quote(1 << nic.roce_priority if ecn_on else 0)} '
        f'CNP_DSCP_P1="$CNP_DSCP" CNP_802P_PRIO_P1="$CNP_PRIO"',
        "}",
        "",
        "write_netplan() {",
        "  local i tmp",
        "  tmp=$(mktemp)",
        "  {",
        "    echo 'network:'",
        "    echo '  version: 2'",
        "    echo '  ethernets:'",
        "    for i in \"${!DEVS[@]}\"; do",
        "      echo \"    ${NETDEVS[$i]}:\"",
        "      echo \"      mtu: $MTU\"",
        "      echo \"      addresses: [${RAIL_IP[$i]}/31]\"",
        "      echo '      routes:'",
        "      echo \"        - to: $HOST_POOL\"",
        "      echo \"          via: ${RAIL_GW[$i]}\"",
        f"      echo \"          table: $(({ROUTE_TABLE_BASE} + i))\"",
        "      echo '      routing-policy:'",
        "      echo \"        - from: ${RAIL_IP[$i]}/32\"",
        f"      echo \"          table: $(({ROUTE_TABLE_BASE} + i))\"",
        "    done",
        "  } > \"$tmp\"",
        "  install -m 600 \"$tmp\" \"$NETPLAN_FILE\"",
        "  rm -f \"$tmp\"",
        "  netplan apply",
        "}",
        "",
        "gid_index() {",
        "  local dev=\"$1\" ip=\"$2\" want gid path idx a b c e",
        "  IFS=. read -r a b c e <<< \"$ip\"",
        "  want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \"$a\" \"$b\" \"$c\" \"$e\")",
        "  for path in \"${SYS}/class/infiniband/$dev/ports/1/gids/\"*; do",
        "    idx=$(basename \"$path\")",
        "    gid=$(cat \"$path\" 2>/dev/null || true)",
        "    if [[ \"$gid\" == \"$want\" ]] && \\",
        "       [[ \"$(cat \"${SYS}/class/infiniband/$dev/ports/1/gid_attrs/types/$idx\" 2>/dev/null)\" == \"RoCE v2\" ]]; then",
        "      echo \"$idx\"",
        "      return",
        "    fi",
        "  done",
        "  echo 3  # the usual RoCE v2 IPv4 index when the address is not up yet",
        "}",
        "",
        "NEED_RESET=0",
        "discover",
        "(( ${#DEVS[@]} == RAILS )) || die \"found ${#DEVS[@]} backend RDMA devices (${DEVS[*]:-none}), the design has "
        "$RAILS rails: set BACKEND_RDMA_DEVS\"",
        "for dev in \"${DEVS[@]}\"; do ensure_ethernet \"$dev\"; done",
        "if (( NEED_RESET )); then",
        "  echo 'Link type changed in firmware: reboot (or mlxfwreset) and run this script again.'",
        "  exit 3",
        "fi",
        "NETDEVS=()",
        "for i in \"${!DEVS[@]}\"; do",
        "  NETDEVS[i]=$(netdev_of \"${DEVS[$i]}\")",
        "  roce_port \"${NETDEVS[$i]}\" \"${DEVS[$i]}\"",
        "  echo \"rail $i: ${DEVS[$i]} ${NETDEVS[$i]} ${RAIL_IP[$i]}/31 via ${RAIL_GW[$i]}\"",
        "done",
        'if [[ "${1:-}" == "--firmware" ]]; then',
        '  for dev in "${DEVS[@]}"; do firmware "$dev"; done',
        "fi",
        "write_netplan",
        "",
        "HCAS=$(printf '%s:1,' \"${DEVS[@]}\")",
        "echo",
        "echo '# NCCL environment for this design (add it to the job environment):'",
        "echo \"export NCCL_IB_HCA==${HCAS%,}\"",
        "echo \"export NCCL_IB_GID_INDEX=$(gid_index \"${DEVS[0]}\" \"${RAIL_IP[0]}\")\"",
        "echo \"export NCCL_IB_TC=$TOS\"",
        f"echo 'export NCCL_IB_QPS_PER_CONNECTION={QPS_PER_CONNECTION}'",
        "echo 'export NCCL_IB_ROCE_VERSION_NUM=2'",
    ]
    return "\n".join(lines) + "\n"
