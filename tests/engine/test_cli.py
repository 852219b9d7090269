"""`python -m apps.engine plan SPEC.json` as people and checks run it."""
from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from apps.engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
SERVER = {"gpus": 8, "nic_ports": 8, "nic_gbps": 400}


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "apps.engine", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=120)


def write_spec(tmp_path: Path, data: dict) -> str:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize("leaf, planes, expected", [
    ({"ports": 128, "gbps": 400}, 1,
     dict(tiers=2, switches={"leaf": 80, "spine": 64, "core": 0}, max_gpus=8_192,
          links={"server-leaf": 5_000, "leaf-spine": 5_120, "spine-core": 0})),
    ({"ports": 64, "gbps": 400}, 1,
     dict(tiers=3, switches={"leaf": 160, "spine": 160, "core": 128}, max_gpus=65_536)),
    ({"ports": 64, "gbps": 400}, 8,
     dict(tiers=2, switches={"leaf": 160, "spine": 128, "core": 0}, max_gpus=16_384)),
])
def test_cli_plans_the_worked_examples_from_inline_hardware(tmp_path, leaf, planes, expected):
    result = run(["plan", write_spec(tmp_path, {"gpus": 5000, "server": SERVER, "leaf": leaf, "planes": planes})])
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    for key, value in expected.items():
        assert report[key] == value
    assert report["planes"] == planes
    assert report["servers"] == 625
    assert report["wiring"]["worst_pair_fraction"] == 1.0 and report["wiring"]["as_stated"] is True
    assert report["max_hops"] in (3, 5)
    assert report["total_cost"] > 0 and report["power_w"] > 0
    for line in report["bom"]:
        assert {"sku", "qty", "unit_price", "total"} <= set(line)
        assert line["total"] == pytest.approx(line["qty"] * line["unit_price"], abs=0.01)


def test_cli_writes_every_link_to_csv_with_the_documented_columns(tmp_path):
    out = tmp_path / "links.csv"
    spec = {"gpus": 512, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}}
    result = run(["plan", write_spec(tmp_path, spec), "--links", str(out)])
    assert result.returncode == 0, result.stderr
    with out.open() as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
    assert reader.fieldnames == ["a_device", "a_role", "a_port", "b_device", "b_role", "b_port", "plane", "rail",
                                 "medium", "length_m", "network"]
    assert {r["network"] for r in rows} == {"backend"}
    assert len(rows) == json.loads(result.stdout)["total_links"] == 512 + 512
    first = rows[0]
    assert (first["a_device"], first["a_role"], first["a_port"]) == ("srv-0000", "server", "eth0")
    assert (first["b_device"], first["b_role"], first["b_port"]) == ("p0-su00-leaf-r0", "leaf", "Ethernet0")
    assert {r["medium"] for r in rows} <= {"DAC", "ACC", "AEC", "AOC", "SR", "DR", "FR"}
    assert all(float(r["length_m"]) > 0 for r in rows)
    ends = [(r["a_device"], r["a_port"]) for r in rows] + [(r["b_device"], r["b_port"]) for r in rows]
    assert len(ends) == len(set(ends))


def test_cli_takes_switches_by_seed_sku_and_breakout(tmp_path):
    spec = {"gpus": 1024, "server": {"sku": "DGXH-G640F+P2EDI36"},
            "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}}
    result = run(["plan", write_spec(tmp_path, spec)])
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    skus = {line["sku"]: line for line in report["bom"] if not line["spare"]}
    assert skus["920-9N42F-00RI-7C0"]["qty"] == report["switches"]["leaf"] + report["switches"]["spine"]
    # The DGX's ConnectX-7s are built in: no NIC cards; its 4 twin-port cages take flat-top modules.
    assert not [line for line in report["bom"] if line["category"] == "nic"]
    assert skus["MMA4Z00-NS-FLT"]["qty"] == 128 * 4
    assert any(w["code"] == "note.nics_built_in" for w in report["warning_codes"])


def test_cli_alternatives_list_structures_and_mark_the_cheapest(tmp_path):
    spec = {"gpus": 5000, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}}
    result = run(["plan", write_spec(tmp_path, spec), "--alternatives"])
    assert result.returncode == 0, result.stderr
    alts = json.loads(result.stdout)["alternatives"]
    labels = [a["label"] for a in alts]
    assert labels[:2] == ["2 tiers", "3 tiers"] and "8 planes, 2 tiers" in labels
    assert not alts[0]["feasible"] and alts[0]["reason"].startswith("tiers:")
    feasible = [a for a in alts if a["feasible"]]
    cheapest = [a for a in feasible if a["cheapest"]]
    assert len(cheapest) == 1
    assert cheapest[0]["total_cost"] == min(a["total_cost"] for a in feasible)
    assert [a["label"] for a in alts if a["current"]] == ["3 tiers"]


@pytest.mark.parametrize("spec, field", [
    ({"gpus": 0, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}}, "gpus"),
    ({"gpus": 100, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, "planes": 3}, "planes"),
    ({"gpus": 100, "server": SERVER, "leaf": {"ports": 64, "gbps": 800}}, "leaf.gbps"),
    ({"gpus": 100, "server": SERVER, "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "1x800G"}}, "leaf.breakout"),
    ({"gpus": 100, "server": SERVER, "leaf": {"ports": 64}}, "leaf.gbps"),
    ({"gpus": 100, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, "pools": {"p2p": "10.0.0.0/8"}},
     "pools.p2p"),
    ({"gpus": 100, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, "pools": {"host": "10.0.0.0/30"}},
     "pools.host"),
    ({"gpus": 100_000, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}}, "gpus"),
    ({"gpus": 5000, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, "tiers": 2}, "tiers"),
    ({"gpus": 100, "server": SERVER, "leaf": {"ports": 64, "gbps": 400}, "layout": {"row_pitch_m": -1}},
     "layout.row_pitch_m"),
    ({"gpus": 100, "server": SERVER, "leaf": {"sku": "NO-SUCH-SWITCH"}}, "leaf.sku"),
    ({"server": SERVER, "leaf": {"ports": 64, "gbps": 400}}, "gpus"),
])
def test_cli_rejects_a_bad_spec_naming_the_field_with_no_report(tmp_path, capsys, spec, field):
    # In-process (same entry point as python -m apps.engine) to keep the suite fast.
    assert main(["plan", write_spec(tmp_path, spec)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert any(line.startswith(f"{field}: ") for line in err.splitlines()), err


def test_cli_process_exits_2_for_an_infeasible_spec_with_nothing_on_stdout(tmp_path):
    spec = {"gpus": 100, "server": SERVER, "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "1x800G"}}
    result = run(["plan", write_spec(tmp_path, spec)])
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("leaf.breakout: ports run at 800G in 1x800G but the server NICs are 400G; "
                                    "choose breakout 2x400G")


def test_cli_rejects_malformed_json_and_a_missing_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{gpus: 5}")
    result = run(["plan", str(bad)])
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("spec: not valid JSON")
    missing = run(["plan", str(tmp_path / "missing.json")])
    assert missing.returncode == 2 and missing.stdout == "" and missing.stderr.startswith("spec: ")


def test_cli_reads_stdin_and_size_prints_counts_without_links():
    spec = json.dumps({"gpus": 5000, "server": SERVER, "leaf": {"ports": 128, "gbps": 400}})
    result = run(["size", "-"], stdin=spec)
    assert result.returncode == 0, result.stderr
    sizing = json.loads(result.stdout)
    assert sizing["switches"] == {"leaf": 80, "spine": 64, "core": 0}
    assert sizing["max_gpus"] == 8_192


@pytest.mark.parametrize("content", [
    b'{"gpus": ' + b"1" * 5000 + b"}",  # past Python's digit limit for int()
    b"\xff\xfe{}",  # not UTF-8
    b"[" * 100_000 + b"]" * 100_000,  # deeper than the JSON decoder's recursion limit
], ids=["huge-integer", "not-utf8", "deep-nesting"])
def test_cli_rejects_unreadable_spec_files_without_a_traceback(tmp_path, content):
    path = tmp_path / "spec.json"
    path.write_bytes(content)
    result = run(["plan", str(path)])
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("spec: ") and "Traceback" not in result.stderr
