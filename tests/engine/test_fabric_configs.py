"""Configs that bring the fabric up: SONiC routing tables, the vendor's second NOS, host scripts, unsupported NICs."""
from __future__ import annotations

import dataclasses
import ipaddress
import json
import re
import shutil
import subprocess

import pytest
import yaml

from apps.engine.plan import plan
from apps.engine.roce import RoceSettings, roce_configs
from apps.engine.spec import NicHw

from .test_roce import FRAGMENT, make_spec

needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")


def _spec(gpus: int, vendor: str = "", *, nic: NicHw | None = None, **kwargs):
    spec = make_spec(gpus, third_party_optics=True, **kwargs)
    spec = dataclasses.replace(spec, leaf=dataclasses.replace(spec.leaf, vendor=vendor))
    return dataclasses.replace(spec, nic=nic) if nic is not None else spec


@pytest.fixture(scope="module")
def three_tier_files():
    p = plan(_spec(5000))
    return p, dict(roce_configs(p, FRAGMENT))


def _config_dbs(p, files):
    return {d.name: json.loads(files[f"{d.role}/{d.name}.config_db.fragment.json"]) for d in p.devices if d.role != "server"}


def _bash_ok(script: str) -> None:
    result = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
    assert result.returncode == 0, result.stderr


def test_every_switch_has_metadata_loopback_and_bgp_globals(three_tier_files):
    p, files = three_tier_files
    dbs = _config_dbs(p, files)
    loopbacks = set()
    for d in p.devices:
        if d.role == "server":
            continue
        db = dbs[d.name]
        meta = db["DEVICE_METADATA"]["localhost"]
        assert meta["hostname"] == d.name and meta["bgp_asn"] == str(d.asn)
        assert meta["type"] == {"leaf": "ToRRouter", "spine": "LeafRouter", "core": "SpineRouter"}[d.role]
        loopback = str(ipaddress.IPv4Address(d.loopback))
        assert db["LOOPBACK_INTERFACE"] == {"Loopback0": {}, f"Loopback0|{loopback}/32": {}}
        assert db["BGP_GLOBALS"]["default"] == {"local_asn": str(d.asn), "router_id": loopback,
                                                "load_balance_mp_relax": "true"}
        assert db["ROUTE_REDISTRIBUTE"] == {"default|connected|bgp|ipv4": {}}
        loopbacks.add(loopback)
    assert len(loopbacks) == len(dbs)


def test_every_31_pairs_with_its_neighbour_and_every_session_is_mirrored(three_tier_files):
    p, files = three_tier_files
    dbs = _config_dbs(p, files)
    address_owner = {}
    for name, db in dbs.items():
        for key in db["INTERFACE"]:
            if "|" in key:
                port, cidr = key.split("|")
                assert port in db["PORT"]
                assert cidr not in address_owner, f"{cidr} on {name} and {address_owner.get(cidr)}"
                address_owner[cidr] = name
    sessions = 0
    for name, db in dbs.items():
        asn = db["DEVICE_METADATA"]["localhost"]["bgp_asn"]
        for key, neighbor in db["BGP_NEIGHBOR"].items():
            vrf, peer_ip = key.split("|")
            local = neighbor["local_addr"]
            assert vrf == "default"
            # one /31: the two ends differ in the last bit only, and each end owns its address
            assert ipaddress.ip_network(f"{local}/31", strict=False) == ipaddress.ip_network(f"{peer_ip}/31",
                                                                                           strict=False)
            assert local != peer_ip
            assert address_owner[f"{local}/31"] == name
            peer = dbs[neighbor["name"]]
            assert address_owner[f"{peer_ip}/31"] == neighbor["name"]
            assert peer["DEVICE_METADATA"]["localhost"]["bgp_asn"] == neighbor["asn"]
            back = peer["BGP_NEIGHBOR"][f"default|{local}"]
            assert back["asn"] == asn and back["local_addr"] == peer_ip and back["name"] == name
            assert f"default|{peer_ip}|ipv4_unicast" in db["BGP_NEIGHBOR_AF"]
            sessions += 1
    tier_links = int((p.links.tier > 0).sum())
    assert sessions == 2 * tier_links


def test_asns_follow_rfc_7938_and_max_paths_cover_the_uplinks(three_tier_files):
    p, files = three_tier_files
    dbs = _config_dbs(p, files)
    leaves = [d for d in p.devices if d.role == "leaf"]
    assert len({d.asn for d in leaves}) == len(leaves)  # every leaf its own ASN
    for role in ("spine", "core"):
        groups = {}
        for d in p.devices:
            if d.role == role:
                groups.setdefault((d.plane, d.pod if role == "spine" else -1), set()).add(d.asn)
        assert all(len(asns) == 1 for asns in groups.values())  # a spine group / a plane's cores share one
    leaf = leaves[0]
    db = dbs[leaf.name]
    uplinks = sum(1 for n in db["BGP_NEIGHBOR"].values() if dbs[n["name"]]["DEVICE_METADATA"]["localhost"]["type"]
                  == "LeafRouter")
    assert int(db["BGP_GLOBALS_AF"]["default|ipv4_unicast"]["max_ebgp_paths"]) == uplinks > 1
    # the leaf's server ports are routed /31s with no BGP session
    server_ports = [k for k in db["INTERFACE"] if "|" in k and k.split("|")[1].startswith("10.0.")]
    assert server_ports and all(n["name"].startswith("p") for n in db["BGP_NEIGHBOR"].values())


@needs_bash
def test_host_script_discovers_ports_sets_ethernet_addresses_and_prints_nccl(three_tier_files):
    p, files = three_tier_files
    server = p.devices[0]
    script = files[f"server/{server.name}.roce.sh"]
    _bash_ok(script)
    for text in ("ibdev2netdev", 'rdma link show "$dev/1"', "LINK_TYPE_P1=2", "/etc/netplan/60-fabricweb-backend.yaml",
                 "netplan apply", "export NCCL_IB_HCA==", "export NCCL_IB_GID_INDEX=", 'export NCCL_IB_TC=$TOS',
                 "export NCCL_IB_QPS_PER_CONNECTION=4", "TOS=106", "RAILS=8", "GBPS=400", "routing-policy"):
        assert text in script, text
    ips = re.search(r"^RAIL_IP=\((.*)\)$", script, re.M).group(1).split()
    gws = re.search(r"^RAIL_GW=\((.*)\)$", script, re.M).group(1).split()
    links = p.links
    mine = [i for i in range(len(links)) if links.tier[i] == 0 and links.a_dev[i] == server.index]
    expected = [str(ipaddress.IPv4Address(int(links.subnet[i]) + 1)) for i in mine]
    assert ips == expected
    assert gws == [str(ipaddress.IPv4Address(int(links.subnet[i]))) for i in mine]


def test_nic_without_a_renderer_gets_not_supported_never_an_nvidia_script():
    broadcom = NicHw(ports=1, gbps=400, sku="BCM957608", name="Broadcom Thor2 400G", vendor="Broadcom")
    p = plan(_spec(64, nic=broadcom))
    files = dict(roce_configs(p, FRAGMENT))
    servers = [name for name in files if name.startswith("server/")]
    assert servers and all(name.endswith(".not-supported.txt") for name in servers)
    text = files[servers[0]]
    assert text.startswith("Host script not supported for this NIC: Broadcom Broadcom Thor2 400G.")
    assert "mlnx_qos -i" not in text and "mlxconfig -y" not in text
    assert "10.0.0.1/31 via 10.0.0.0" in text


def test_nic_stored_without_a_vendor_is_recognised_by_its_model():
    legacy = NicHw(ports=1, gbps=400, sku="MCX75310AAS-NEAT", name="NVIDIA ConnectX-7 400G OSFP")
    p = plan(_spec(64, nic=legacy))
    assert f"server/{p.devices[0].name}.roce.sh" in dict(roce_configs(p, FRAGMENT))


@needs_bash
def test_nvidia_switches_get_nvue_with_the_same_sessions_as_sonic():
    p = plan(_spec(1024, "NVIDIA"))
    files = dict(roce_configs(p, FRAGMENT))
    leaf = next(d for d in p.devices if d.role == "leaf")
    nvue = files[f"leaf/{leaf.name}.nvue.sh"]
    _bash_ok(nvue)
    db = json.loads(files[f"leaf/{leaf.name}.config_db.fragment.json"])
    for key, neighbor in db["BGP_NEIGHBOR"].items():
        assert f"nv set vrf default router bgp neighbor {key.split('|')[1]} remote-as {neighbor['asn']}" in nvue
    assert f"nv set router bgp autonomous-system {leaf.asn}" in nvue
    assert "nv set vrf default router bgp path-selection multipath aspath-ignore on" in nvue
    assert "nv set qos pfc default-global switch-priority 3" in nvue and nvue.rstrip().endswith("nv config apply -y")
    assert "nv set interface swp1 ip address 10.0.0.0/31" in nvue
    assert not any(name.endswith(".eos.cfg") for name in files)


def test_arista_switches_get_eos_and_other_vendors_sonic_only():
    p = plan(_spec(1024, "Arista"))
    files = dict(roce_configs(p, FRAGMENT))
    spine = next(d for d in p.devices if d.role == "spine")
    eos = files[f"spine/{spine.name}.eos.cfg"]
    db = json.loads(files[f"spine/{spine.name}.config_db.fragment.json"])
    assert f"router bgp {spine.asn}" in eos and "   bgp bestpath as-path multipath-relax" in eos
    paths = db["BGP_GLOBALS_AF"]["default|ipv4_unicast"]["max_ebgp_paths"]
    assert f"   maximum-paths {paths} ecmp {paths}" in eos
    assert eos.count(" remote-as ") == len(db["BGP_NEIGHBOR"])
    assert "   priority-flow-control priority 3 no-drop" in eos and "qos map dscp 26 to traffic-class 3" in eos
    dell = dict(roce_configs(plan(_spec(64, "Dell")), FRAGMENT))
    assert all(name.endswith((".config_db.fragment.json", ".roce.sh")) for name in dell)


def _fake_host(root, rails: list[str], *, infiniband: str = "") -> dict[str, str]:
    """A sysfs tree with 8 backend ConnectX ports (400G, PCI order unlike mlx5 order) and 2 storage ports (200G).

    Returns mlx5 device -> net device of the backend ports, in rail (PCI) order.
    """
    sysfs = root / "sys"
    backend = {}
    # mlx5_0.. in an order unlike their PCI buses, as on a DGX; two 200G storage ports in between
    layout = [("mlx5_3", "0000:1a", 400), ("mlx5_0", "0000:0c", 400), ("mlx5_8", "0000:9d", 200),
              ("mlx5_1", "0000:2a", 400), ("mlx5_2", "0000:3a", 400), ("mlx5_9", "0000:9e", 200),
              ("mlx5_4", "0000:5d", 400), ("mlx5_5", "0000:9a", 400), ("mlx5_6", "0000:ba", 400),
              ("mlx5_7", "0000:da", 400)]
    order = sorted((pci, dev) for dev, pci, gbps in layout if gbps == 400)
    for dev, pci, gbps in layout:
        netdev = f"ibp{pci[5:]}s0"
        pci_dir = root / "devices" / f"{pci}:00.0"
        (pci_dir / "net" / netdev).mkdir(parents=True)
        ib = sysfs / "class" / "infiniband" / dev
        (ib / "ports" / "1" / "gids").mkdir(parents=True)
        (ib / "ports" / "1" / "gid_attrs" / "types").mkdir(parents=True)
        (ib / "tc" / "1").mkdir(parents=True)
        (ib / "device").symlink_to(pci_dir)
        (ib / "ports" / "1" / "rate").write_text(f"{gbps} Gb/sec (4X NDR)\n")
        (ib / "ports" / "1" / "link_layer").write_text("InfiniBand\n" if dev == infiniband else "Ethernet\n")
        net = sysfs / "class" / "net" / netdev / "ecn"
        for point in ("roce_np", "roce_rp"):
            (net / point / "enable").mkdir(parents=True)
        if gbps == 400:
            rail = [d for _pci, d in order].index(dev)
            a, b, c, e = (int(x) for x in rails[rail].split("."))
            for idx, (gid, kind) in enumerate([("fe80:0000:0000:0000:0000:0000:0000:0001", "IB/RoCE v1"),
                                               ("fe80:0000:0000:0000:0000:0000:0000:0001", "RoCE v2"),
                                               (f"0000:0000:0000:0000:0000:ffff:{a:02x}{b:02x}:{c:02x}{e:02x}",
                                                "IB/RoCE v1"),
                                               (f"0000:0000:0000:0000:0000:ffff:{a:02x}{b:02x}:{c:02x}{e:02x}",
                                                "RoCE v2")]):
                (ib / "ports" / "1" / "gids" / str(idx + 2)).write_text(gid + "\n")
                (ib / "ports" / "1" / "gid_attrs" / "types" / str(idx + 2)).write_text(kind + "\n")
            backend[dev] = netdev
    return {dev: backend[dev] for _pci, dev in order}


def _stubs(root):
    """mlnx_qos, mlxconfig, ... that only log their arguments; ibdev2netdev answering like the real one."""
    bin_dir = root / "bin"
    bin_dir.mkdir()
    log = root / "calls.log"
    for tool in ("mlnx_qos", "cma_roce_mode", "cma_roce_tos", "mlxconfig", "ip", "netplan"):
        (bin_dir / tool).write_text(f'#!/usr/bin/env bash\necho "{tool} $*" >> "{log}"\n')
        (bin_dir / tool).chmod(0o755)
    lines = "".join(f"echo '{dev.name} port 1 ==> "
                    f"{(dev / 'device').resolve().joinpath('net').iterdir().__next__().name} (Up)'\n"
                    for dev in sorted((root / "sys" / "class" / "infiniband").iterdir()))
    (bin_dir / "ibdev2netdev").write_text("#!/usr/bin/env bash\n" + lines)
    (bin_dir / "ibdev2netdev").chmod(0o755)
    return bin_dir, log


@needs_bash
def test_host_script_runs_against_a_dgx_like_host(three_tier_files, tmp_path):
    p, files = three_tier_files
    script = files[f"server/{p.devices[0].name}.roce.sh"]
    rails = re.search(r"^RAIL_IP=\((.*)\)$", script, re.M).group(1).split()
    gws = re.search(r"^RAIL_GW=\((.*)\)$", script, re.M).group(1).split()
    backend = _fake_host(tmp_path, rails, infiniband="mlx5_2")
    bin_dir, log = _stubs(tmp_path)
    path = tmp_path / "roce.sh"
    path.write_text(script)
    netplan = tmp_path / "backend.yaml"
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "FABRICWEB_SYSFS": str(tmp_path / "sys"),
           "FABRICWEB_NETPLAN_FILE": str(netplan)}

    # A port shipped in InfiniBand mode: set to Ethernet in firmware, then stop for a reboot.
    first = subprocess.run(["bash", str(path)], env=env, capture_output=True, text=True)
    assert first.returncode == 3, first.stderr
    assert "mlxconfig -y -d mlx5_2 set LINK_TYPE_P1=2" in log.read_text()
    assert "reboot" in first.stdout and not netplan.exists()

    # After the reboot: every backend port in rail (PCI) order, storage ports left alone.
    (tmp_path / "sys/class/infiniband/mlx5_2/ports/1/link_layer").write_text("Ethernet\n")
    log.unlink()
    second = subprocess.run(["bash", str(path)], env=env, capture_output=True, text=True)
    assert second.returncode == 0, second.stderr
    devs = list(backend)
    assert devs == ["mlx5_0", "mlx5_3", "mlx5_1", "mlx5_2", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7"]
    for rail, dev in enumerate(devs):
        assert f"rail {rail}: {dev} {backend[dev]} {rails[rail]}/31 via {gws[rail]}" in second.stdout
    calls = log.read_text()
    assert "mlx5_8" not in calls and "mlx5_9" not in calls
    assert f"mlnx_qos -i {backend['mlx5_0']} --pfc 0,0,0,1,0,0,0,0" in calls
    assert "LINK_TYPE_P1" not in calls and "netplan apply" in calls
    roce_np = tmp_path / "sys/class/net" / backend["mlx5_0"] / "ecn/roce_np"
    assert (roce_np / "cnp_dscp").read_text().strip() == "48"
    plan_doc = yaml.safe_load(netplan.read_text())
    eth = plan_doc["network"]["ethernets"]
    assert list(eth) == [backend[d] for d in devs]
    first_port = eth[backend["mlx5_0"]]
    assert first_port["addresses"] == [f"{rails[0]}/31"] and first_port["mtu"] == 9000
    assert first_port["routes"] == [{"to": p.spec.pools.host, "via": gws[0], "table": 100}]
    assert first_port["routing-policy"] == [{"from": f"{rails[0]}/32", "table": 100}]
    env_lines = dict(line.split(" ", 1)[1].split("=", 1) for line in second.stdout.splitlines()
                     if line.startswith("export "))
    assert env_lines["NCCL_IB_HCA"] == "=" + ",".join(f"{d}:1" for d in devs)
    assert env_lines["NCCL_IB_GID_INDEX"] == "5"  # the RoCE v2 GID holding rail 0's IPv4 address
    assert env_lines["NCCL_IB_TC"] == "106" and env_lines["NCCL_IB_QPS_PER_CONNECTION"] == "4"


def test_config_formats_name_the_second_nos_and_an_unsupported_nic():
    from apps.engine.roce import config_formats

    broadcom = NicHw(ports=1, gbps=400, sku="BCM957608", name="Broadcom Thor2 400G", vendor="Broadcom")
    assert config_formats(_spec(64, "Arista", nic=broadcom)) == {
        "second_nos": ["Arista EOS"], "host_supported": False, "nic": "Broadcom Thor2 400G", "nic_vendor": "Broadcom",
        "sonic_missing": ["SW-64x400G"]}  # an inline switch: no SONiC platform data
    formats = config_formats(_spec(64, "NVIDIA"))
    assert formats["second_nos"] == ["NVIDIA Cumulus Linux (NVUE)"] and formats["host_supported"]
    assert config_formats(_spec(64, "Dell"))["second_nos"] == []
