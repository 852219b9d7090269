"""The host pre-check: a script that passes `bash -n` with hostile design names, and the comparison."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from apps.engine.precheck import PrecheckDesign, PrecheckError, parse_precheck, precheck_compare, precheck_script

DESIGN = PrecheckDesign(name="Fabric A", version=3, backend_ports=2, speed_gbps=400, roce=True, pfc_priority=3,
                        trust="dscp", ecn=True)


def report(host, *, fw="28.39.1002", rate=400, trust="dscp", pfc=(3,), ecn=1, ports=2):
    return json.dumps({"precheck": 1, "host": host, "ports": [
        {"rdma": f"mlx5_{i}", "netdev": f"eth{i}", "link_layer": "Ethernet", "driver": "mlx5_core",
         "driver_version": "24.10-1.1.4", "firmware": fw, "rate_gbps": rate, "trust": trust, "pfc": list(pfc),
         "ecn_np": ecn, "ecn_rp": ecn} for i in range(ports)]})


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("name", ["Fabric A", "x'; rm -rf / #", "$(reboot) `id`", "two\nlines\u202e"])
def test_script_passes_bash_n_and_keeps_the_name_literal(tmp_path, name):
    script = precheck_script(PrecheckDesign(name=name, version=1, backend_ports=8, speed_gbps=400, roce=True,
                                            pfc_priority=3, trust="dscp", ecn=True))
    path = tmp_path / "precheck.sh"
    path.write_text(script)
    assert subprocess.run(["bash", "-n", str(path)], capture_output=True).returncode == 0
    assert "\nrm -rf" not in script and "\n$(reboot)" not in script


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_script_prints_a_report_the_parser_reads_on_a_host_without_rdma(tmp_path):
    path = tmp_path / "precheck.sh"
    path.write_text(precheck_script(DESIGN))
    done = subprocess.run(["bash", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    parsed = parse_precheck(done.stdout, "host.json")
    assert parsed.host


def test_hosts_differing_from_the_majority_and_from_the_design_are_reported():
    reports = [parse_precheck(report(f"srv-000{i}"), "x") for i in range(3)]
    reports.append(parse_precheck(report("srv-0003", fw="28.36.1010"), "x"))
    reports.append(parse_precheck(report("srv-0004", rate=200, trust="pcp", pfc=(), ecn=0), "x"))
    found = {(d.host, d.field, d.against) for d in precheck_compare(reports, DESIGN)}
    assert found == {("srv-0003", "firmware", "majority"), ("srv-0004", "rate_gbps", "design"),
                     ("srv-0004", "trust", "design"), ("srv-0004", "pfc", "design"), ("srv-0004", "ecn", "design")}


def test_a_report_that_is_not_one_names_file_and_line():
    with pytest.raises(PrecheckError) as exc:
        parse_precheck('{"precheck": 1,\n "host": }', "srv-0001.json")
    assert (exc.value.source, exc.value.line) == ("srv-0001.json", 2)
    with pytest.raises(PrecheckError):
        parse_precheck('{"lldp": {}}', "srv-0001.json")
