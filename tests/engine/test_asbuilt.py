"""The as-built check: neighbour dumps in the tools' own formats against the planned links."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from apps.engine.asbuilt import DumpError, PlannedFabric, asbuilt_check, planned_from_plan, read_dumps
from apps.engine.asbuilt.parsers import parse_ibnetdiscover, parse_lldpcli_json, parse_sonic_lldp_table
from apps.engine.asbuilt.samples import adjacency_by_device, ibnetdiscover, lldpcli_json, sonic_lldp_table
from apps.engine.plan import plan
from apps.engine.specio import spec_from_dict

ROOT = Path(__file__).resolve().parents[2]

# As sonic-utilities' lldpshow prints it (tabulate "simple" under a capability legend).
SONIC_TABLE = """\
Capability codes: (R) Router, (B) Bridge, (O) Other
LocalPort    RemoteDevice    RemotePortID       Capability    RemotePortDescr
-----------  --------------  -----------------  ------------  -----------------
Ethernet0    srv-0000        eth0               O             eth0
Ethernet8    srv-0001        b8:3f:d2:00:00:01                eth0
Ethernet256  p0-spine-000    Ethernet0          BR            p0-su00-leaf-r0:Ethernet256
--------------------------------------------------
Total entries displayed:  3
"""

# As lldpd's integration tests pin `lldpcli -f json show neighbors details` (one neighbour: an object).
LLDPCLI_ONE = {"lldp": {"interface": {"eth0": {
    "via": "LLDP", "rid": "1", "age": "0 day, 00:00:13",
    "chassis": {"p0-su00-leaf-r0": {"id": {"type": "mac", "value": "00:00:00:00:00:02"}, "descr": "SONiC",
                                    "capability": [{"type": "Bridge", "enabled": True}]}},
    "port": {"id": {"type": "local", "value": "Ethernet0"}, "descr": "etp1", "ttl": "120"}}}}}

# `-f json0`: every value a list of {"value": ...}.
LLDPCLI_JSON0 = {"lldp": [{"interface": [{
    "name": "eth1", "via": "LLDP", "rid": "2",
    "chassis": [{"id": [{"type": "mac", "value": "00:00:00:00:00:03"}], "name": [{"value": "p0-su00-leaf-r1"}]}],
    "port": [{"id": [{"type": "mac", "value": "00:00:00:00:00:03"}], "descr": [{"value": "Ethernet0"}],
              "ttl": [{"value": "120"}]}]}]}]}

# As rdma-core's ibnetdiscover prints a switch and a CA (tabs, GUIDs, the remote's description after '#').
IBNETDISCOVER = """\
#
# Topology file: generated on Thu Dec  3 12:00:00 2026
#
# Initiated from node b83fd20300000002 port b83fd20300000002

vendid=0x2c9
devid=0xd2f0
sysimgguid=0xb83fd20300000001
switchguid=0xb83fd20300000001(b83fd20300000001)
Switch\t65 "S-b83fd20300000001"\t\t# "MF0;p0-su00-leaf-r0:MQM9700/U1" enhanced port 0 lid 1 lmc 0
[1]\t"H-b83fd20300000002"[1](b83fd20300000002) \t\t# "srv-0000 mlx5_0" lid 3 4xNDR
[2]\t"H-b83fd20300000003"[1](b83fd20300000003) \t\t# "srv-0001 mlx5_0" lid 4 4xNDR

vendid=0x2c9
devid=0x1021
sysimgguid=0xb83fd20300000002
caguid=0xb83fd20300000002
Ca\t1 "H-b83fd20300000002"\t\t# "srv-0000 mlx5_0"
[1](b83fd20300000002) \t"S-b83fd20300000001"[1]\t\t# lid 3 lmc 0 "MF0;p0-su00-leaf-r0:MQM9700/U1" lid 1 4xNDR
"""


def fabric() -> PlannedFabric:
    """Two servers on rail 0 and 1 leaves, each leaf up to one spine."""
    links = [
        ("srv-0000", "eth0", "p0-su00-leaf-r0", "Ethernet0", 0),
        ("srv-0001", "eth0", "p0-su00-leaf-r0", "Ethernet8", 0),
        ("srv-0000", "eth1", "p0-su00-leaf-r1", "Ethernet0", 1),
        ("srv-0001", "eth1", "p0-su00-leaf-r1", "Ethernet8", 1),
        ("p0-su00-leaf-r0", "Ethernet256", "p0-spine-000", "Ethernet0", 0),
        ("p0-su00-leaf-r1", "Ethernet256", "p0-spine-000", "Ethernet8", 1),
    ]
    racks = {"srv-0000": "R01", "srv-0001": "R01", "p0-su00-leaf-r0": "R02", "p0-su00-leaf-r1": "R02",
             "p0-spine-000": "R03"}
    names = {(d, int(p.removeprefix("Ethernet")) // 8 if p.startswith("Ethernet") else int(p[3:])): p
             for a, ap, b, bp, _ in links for d, p in ((a, ap), (b, bp))}
    return PlannedFabric([x[0] for x in links], [x[1] for x in links], [x[2] for x in links],
                         [x[3] for x in links], [0] * len(links), [x[4] for x in links], racks, names)


def cabled(pairs) -> list[tuple[str, bytes]]:
    """One SONiC table per switch for these cabled pairs."""
    by = adjacency_by_device(pairs)
    return [(f"{dev}.txt", sonic_lldp_table(rows).encode()) for dev, rows in by.items() if not dev.startswith("srv")]


def planned_pairs(f: PlannedFabric):
    return [((f.a_device[i], f.a_port[i]), (f.b_device[i], f.b_port[i])) for i in range(len(f))]


def test_sonic_table_reads_every_row_and_takes_the_description_when_the_port_id_is_a_mac():
    rows = parse_sonic_lldp_table("p0-su00-leaf-r0", SONIC_TABLE, "p0-su00-leaf-r0.txt")
    assert [(r.port, r.remote_device, r.remote_port, r.line) for r in rows] == [
        ("Ethernet0", "srv-0000", "eth0", 4), ("Ethernet8", "srv-0001", "eth0", 5),
        ("Ethernet256", "p0-spine-000", "Ethernet0", 6)]


def test_lldpcli_json_and_json0_name_the_neighbour_and_its_port():
    one = parse_lldpcli_json("srv-0000", json.dumps(LLDPCLI_ONE), "srv-0000.json")
    assert [(r.port, r.remote_device, r.remote_port, r.remote_alt) for r in one] == [
        ("eth0", "p0-su00-leaf-r0", "Ethernet0", "etp1")]
    zero = parse_lldpcli_json("srv-0000", json.dumps(LLDPCLI_JSON0), "srv-0000.json")
    assert [(r.port, r.remote_device, r.remote_port) for r in zero] == [("eth1", "p0-su00-leaf-r1", "Ethernet0")]


def test_ibnetdiscover_gives_switch_ports_by_number_and_hcas_by_mlx5_index():
    rows, dumped = parse_ibnetdiscover(IBNETDISCOVER, "fabric.topo")
    assert dumped == {"p0-su00-leaf-r0", "srv-0000"}
    assert [(r.device, r.port_index, r.remote_device, r.remote_index) for r in rows] == [
        ("p0-su00-leaf-r0", 0, "srv-0000", 0), ("p0-su00-leaf-r0", 1, "srv-0001", 0),
        ("srv-0000", 0, "p0-su00-leaf-r0", 0)]


def test_every_link_is_ok_when_the_cabling_is_the_plan():
    f = fabric()
    result = asbuilt_check(f, read_dumps(cabled(planned_pairs(f))))
    assert result.counts == {"ok": 6, "miswired": 0, "missing": 0, "unverified": 0, "unexpected": 0}
    assert result.verified_pct == 100.0 and result.findings == [] and result.state_codes == "oooooo"


def test_a_swapped_pair_is_one_swap_finding_with_both_ports():
    f = fabric()
    pairs = planned_pairs(f)
    pairs[0], pairs[1] = (pairs[0][0], pairs[1][1]), (pairs[1][0], pairs[0][1])
    result = asbuilt_check(f, read_dumps(cabled(pairs)))
    assert result.counts["miswired"] == 2 and result.counts["ok"] == 4
    [swap] = result.findings
    assert swap.kind == "swap" and {swap.link, swap.other_link} == {0, 1}
    assert swap.fix.text == "swap the cables at p0-su00-leaf-r0 Ethernet0 and Ethernet8"
    assert swap.rack == "R02" and swap.rail == 0


def test_an_unplugged_cable_is_missing_with_a_connect_fix():
    f = fabric()
    pairs = planned_pairs(f)
    del pairs[5]
    result = asbuilt_check(f, read_dumps(cabled(pairs)))
    assert result.counts["missing"] == 1 and result.state_codes[5] == "m"
    assert result.findings[0].fix.text == "connect p0-su00-leaf-r1 Ethernet256 to p0-spine-000 Ethernet8: no cable seen"


def test_a_cable_on_the_wrong_port_is_miswired_with_a_move_fix_and_the_unplanned_port_is_no_unexpected():
    f = fabric()
    pairs = planned_pairs(f)
    pairs[4] = (pairs[4][0], ("p0-spine-000", "Ethernet16"))  # spine port 2 is in no planned link
    result = asbuilt_check(f, read_dumps(cabled(pairs)))
    assert result.counts["miswired"] == 1 and result.counts["unexpected"] == 0
    [finding] = result.findings
    assert finding.fix.text == ("move the cable at p0-su00-leaf-r0 Ethernet256 to p0-spine-000 Ethernet0 "
                                "(it reaches p0-spine-000 Ethernet16)")


def test_links_of_devices_not_dumped_are_unverified():
    f = fabric()
    files = [x for x in cabled(planned_pairs(f)) if x[0].startswith("p0-su00-leaf-r0")]
    result = asbuilt_check(f, read_dumps(files))
    # leaf-r0's three links are ok; leaf-r1 <-> servers stays unverified (servers not dumped either).
    assert result.counts == {"ok": 3, "miswired": 0, "missing": 0, "unverified": 3, "unexpected": 0}


def test_a_cable_between_unplanned_ports_is_unexpected_and_an_unknown_device_is_noted():
    f = fabric()
    pairs = planned_pairs(f) + [(("p0-su00-leaf-r0", "Ethernet400"), ("ghost-01", "eth0"))]
    files = cabled(pairs)
    result = asbuilt_check(f, read_dumps(files))
    assert result.counts["unexpected"] == 1 and result.counts["ok"] == 6
    assert result.findings[0].fix.text == ("remove the cable between ghost-01 eth0 and p0-su00-leaf-r0 Ethernet400: "
                                           "not in the plan")
    assert [n.text for n in result.notes] == ["ghost-01 (in ghost-01.txt) is not a device of the plan"]


def test_an_unknown_format_is_refused_naming_file_and_line():
    with pytest.raises(DumpError) as exc:
        read_dumps([("p0-spine-000.txt", b"hello\nworld\n"), ("srv-0000.json", b'{"lldp": \n  [}')])
    assert exc.value.errors[0][:2] == ("p0-spine-000.txt", 1)
    assert "unknown format" in exc.value.errors[0][2]
    assert exc.value.errors[1][:2] == ("srv-0000.json", 2)


def test_a_sonic_row_that_cannot_be_read_names_its_line():
    broken = SONIC_TABLE.replace("Ethernet8    srv-0001", "Ethernet 8   srv-0001")
    with pytest.raises(DumpError) as exc:
        read_dumps([("p0-su00-leaf-r0.txt", broken.encode())])
    assert exc.value.errors[0][:2] == ("p0-su00-leaf-r0.txt", 5)


def test_infiniband_subnet_dump_checks_ports_by_number():
    f = fabric()
    pairs = [((f.a_device[i], int(f.a_port[i][3:]) if f.a_device[i].startswith("srv") else
               int(f.a_port[i][8:]) // 8, f.a_device[i].startswith("p")),
              (f.b_device[i], int(f.b_port[i][8:]) // 8, True)) for i in range(len(f))]
    pairs[0], pairs[1] = (pairs[0][0], pairs[1][1]), (pairs[1][0], pairs[0][1])
    text = ibnetdiscover(pairs)
    result = asbuilt_check(f, read_dumps([("subnet.topo", text.encode())]))
    assert result.counts["ok"] == 4 and result.counts["miswired"] == 2
    assert result.findings[0].kind == "swap"


def _plan_and_dumps(tmp_path: Path):
    spec = {"name": "t", "gpus": 64, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
            "leaf": {"ports": 64, "gbps": 400}}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    f = planned_from_plan(plan(spec_from_dict(spec)))
    pairs = planned_pairs(f)
    pairs[0], pairs[1] = (pairs[0][0], pairs[1][1]), (pairs[1][0], pairs[0][1])
    by = adjacency_by_device(pairs[:-1])
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        for dev, rows in by.items():
            if dev.startswith("srv"):
                z.writestr(f"dumps/{dev}.json", lldpcli_json(rows))
            else:
                z.writestr(f"dumps/{dev}.txt", sonic_lldp_table(rows))
    (tmp_path / "dumps.zip").write_bytes(archive.getvalue())
    return f


def test_cli_prints_the_counts_and_findings_of_a_zip(tmp_path):
    f = _plan_and_dumps(tmp_path)
    done = subprocess.run([sys.executable, "-m", "apps.engine", "asbuilt", str(tmp_path / "spec.json"),
                           str(tmp_path / "dumps.zip")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["planned"] == len(f)
    assert (out["ok"], out["miswired"], out["missing"], out["unverified"], out["unexpected"]) == (
        len(f) - 3, 2, 1, 0, 0)
    assert {x["kind"] for x in out["findings"]} == {"swap", "connect"}


def test_cli_reports_a_bad_dump_by_file_and_line_and_exits_2(tmp_path):
    _plan_and_dumps(tmp_path)
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "p0-spine-000.txt").write_text("no table here\n")
    done = subprocess.run([sys.executable, "-m", "apps.engine", "asbuilt", str(tmp_path / "spec.json"), str(folder)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("p0-spine-000.txt line 1: unknown format")


def _ib_plan():
    from dataclasses import replace

    from .builders import spec, switch
    qm9700 = replace(switch(64, twin=True, sku="QM9700"), fabric="infiniband")  # 32 twin-port cages, 2x400G
    return plan(spec(512, leaf=qm9700))


def _ib_pairs(p, links=None):
    """((device, port index, is switch), ...) per link, from the plan's numbers (not its names)."""
    names = [d.name for d in p.devices]
    switch = [d.role != "server" for d in p.devices]
    rows = range(len(p.links)) if links is None else links
    return [((names[a], int(ap), switch[a]), (names[b], int(bp), switch[b])) for a, ap, b, bp in (
        (int(p.links.a_dev[i]), p.links.a_port[i], int(p.links.b_dev[i]), p.links.b_port[i]) for i in rows)]


def test_an_infiniband_subnet_dump_of_the_planned_cabling_is_all_ok_under_infiniband_names():
    p = _ib_plan()
    f = planned_from_plan(p)
    assert (f.a_device[0], f.a_port[0], f.b_device[0], f.b_port[0]) == ("srv-0000", "mlx5_0", "p0-su00-leaf-r0",
                                                                        "1/1/1")
    text = ibnetdiscover(_ib_pairs(p))
    result = asbuilt_check(f, read_dumps([("subnet.topo", text.encode())]))
    assert result.counts["ok"] == len(p.links) and not result.findings


def test_an_infiniband_swap_is_reported_with_the_switch_os_port_names():
    p = _ib_plan()
    f = planned_from_plan(p)
    pairs = _ib_pairs(p)
    # the cables of srv-0000 mlx5_0 and srv-0001 mlx5_0 are crossed at their leaf
    pairs[0], pairs[8] = (pairs[0][0], pairs[8][1]), (pairs[8][0], pairs[0][1])
    result = asbuilt_check(f, read_dumps([("subnet.topo", ibnetdiscover(pairs).encode())]))
    assert result.counts["miswired"] == 2
    swap = result.findings[0]
    assert swap.kind == "swap"
    assert {f.a_port[0], f.b_port[0], f.a_port[8], f.b_port[8]} <= {"mlx5_0", "1/1/1", "1/1/2"}
    assert swap.fix.text == "swap the cables at p0-su00-leaf-r0 1/1/1 and 1/1/2"  # the two ports of cage 1
    assert swap.seen == ["srv-0000 mlx5_0 -> p0-su00-leaf-r0 1/1/2", "srv-0001 mlx5_0 -> p0-su00-leaf-r0 1/1/1"]
