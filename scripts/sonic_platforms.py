"""Write apps/engine/roce/platforms/<platform>.json from a sonic-buildimage git checkout.

    python scripts/sonic_platforms.py /path/to/sonic-buildimage.git [COMMIT]

For each platform below, reads (at COMMIT, default HEAD) device/<vendor>/<platform>/platform.json
(front-panel ports: lanes, breakout modes and the aliases of their sub-ports), default_sku, and each
HWSKU's port_config.ini (port count and speed) and hwsku.json (default breakout mode, FEC). Only the
facts are kept, with the source path and commit; the files are SONiC's (Apache-2.0).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "apps" / "engine" / "roce" / "platforms"
# platform -> (vendor folder, catalog SKUs of the switch models that run it, front-panel cages)
PLATFORMS = {
    "x86_64-nvidia_sn5600-r0": ("mellanox", ["920-9N42F-00RI-7C0"], 64),
    "x86_64-arista_7060x6_64pe": ("arista", ["DCS-7060X6-64PE"], 64),
    "x86_64-dell_z9864f-r0": ("dell", ["Z9864F-ON"], 64),
    "x86_64-arista_7060dx5_64s": ("arista", ["DCS-7060DX5-64S"], 64),
}
SPEED = re.compile(r"^(\d+)x(\d+)G")


def show(repo: str, commit: str, path: str) -> str | None:
    done = subprocess.run(["git", "--git-dir", repo, "show", f"{commit}:{path}"], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def tree(repo: str, commit: str, path: str) -> list[str]:
    done = subprocess.run(["git", "--git-dir", repo, "ls-tree", "--name-only", f"{commit}:{path}"],
                          capture_output=True, text=True, check=True)
    return done.stdout.split()


def port_config(text: str) -> list[dict]:
    rows, header = [], None
    for line in text.splitlines():
        if line.startswith("#"):
            words = line.lstrip("#").split()
            if words[:1] == ["name"]:
                header = words
            continue
        if line.strip():
            header = header or ["name", "lanes", "alias", "index", "speed"]
            rows.append(dict(zip(header, line.split())))
    return rows


def platform(repo: str, commit: str, name: str, vendor: str, skus: list[str], cages: int) -> dict:
    base = f"device/{vendor}/{name}"
    interfaces = json.loads(show(repo, commit, f"{base}/platform.json"))["interfaces"]
    cage_ports = [(k, v) for k, v in interfaces.items() if len(v["lanes"].split(",")) == 8][:cages]
    modes = {json.dumps(v["breakout_modes"], sort_keys=True) for _, v in cage_ports}
    shared = len(modes) == 1
    ports = []
    for key, value in cage_ports:
        first = next(iter(value["breakout_modes"].values()))
        row = {"name": key, "lanes": [int(x) for x in value["lanes"].split(",")],
               "index": int(value["index"].split(",")[0]), "alias": first[0]}
        if not shared:
            row["breakout_modes"] = value["breakout_modes"]
        ports.append(row)
    hwskus = {}
    for sku in tree(repo, commit, base):
        config = show(repo, commit, f"{base}/{sku}/port_config.ini")
        if config is None:
            continue
        hw = json.loads(show(repo, commit, f"{base}/{sku}/hwsku.json") or "{}").get("interfaces", {})
        rows = [r for r in port_config(config) if int(r["lanes"].split(",")[0]) in
                {lane for p in ports for lane in p["lanes"]}]
        first_mode = next((v.get("default_brkout_mode") for v in hw.values() if v.get("default_brkout_mode")), None)
        speeds = {int(r["speed"]) // 1000 for r in rows if r.get("speed")}
        if not speeds and first_mode:
            speeds = {int(SPEED.match(first_mode).group(2))}
        fec = sorted({r["fec"] for r in rows if r.get("fec")} | {v["fec"] for v in hw.values() if v.get("fec")})
        hwskus[sku] = {"ports": len(rows), "gbps": sorted(speeds), "default_breakout_mode": first_mode, "fec": fec,
                       "source": f"{base}/{sku}/port_config.ini, hwsku.json"}
    default_sku = (show(repo, commit, f"{base}/default_sku") or "").split()
    return {
        "platform": name,
        "source": f"sonic-net/sonic-buildimage {base}/platform.json, default_sku and <HWSKU>/port_config.ini, "
                  f"hwsku.json at commit {commit} (Apache-2.0)",
        "commit": commit,
        "catalog_skus": skus,
        "default_hwsku": default_sku[0] if default_sku else None,
        "hwskus": hwskus,
        "breakout_modes": json.loads(modes.pop()) if shared else None,
        "ports": ports,
    }


def main(argv: list[str]) -> None:
    repo = argv[1]
    commit = subprocess.run(["git", "--git-dir", repo, "rev-parse", argv[2] if len(argv) > 2 else "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (vendor, skus, cages) in PLATFORMS.items():
        data = platform(repo, commit, name, vendor, skus, cages)
        ports = data.pop("ports")
        head = json.dumps(data, indent=1, separators=(",", ": "))[:-2]
        # one port per line keeps the file short and readable
        body = ",\n".join("  " + json.dumps(port) for port in ports)
        (OUT / f"{name}.json").write_text(f'{head},\n "ports": [\n{body}\n ]\n}}\n', encoding="utf-8")
        print(name, len(ports), "ports,", len(data["hwskus"]), "HWSKUs")


if __name__ == "__main__":
    main(sys.argv)
