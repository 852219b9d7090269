"""Benchmark: the as-built check of neighbour dumps against the planned links.

    .venv/bin/python bench/bench_asbuilt.py [--repeat N] [--json]

Plans 5,000 and 65,536 GPUs (the bench_engine spec: 8-GPU servers with 8x400G, 64x400G switches,
3 tiers; 196,608 links and 5,120 switches at 65,536 GPUs), cables them as planned except for
faults (0.5 % of the links swapped in pairs at the switch end, 0.2 % unplugged, one stray cable per
100 switches), and renders every switch's SONiC `show lldp table` (engine.asbuilt.samples). Timed,
median of --repeat runs after a warm-up: `read s` (parsing every dump, engine.asbuilt.read_dumps)
and `check s` (engine.asbuilt.asbuilt_check: every link classified, findings with their fixes);
`total s` is their sum, what `python -m apps.engine asbuilt` spends after planning.

Exit status 0 when the 65,536-GPU total is under 10 s and the counts match the faults; 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GPU_COUNTS = (5_000, 65_536)
LIMIT_SECONDS = 10.0


def bench_spec(gpus: int) -> dict:
    return {"name": f"bench {gpus} GPUs", "gpus": gpus, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
            "leaf": {"sku": "DCS-7060DX5-64S", "breakout": "1x400G"}, "tiers": 3}


def faulty_dumps(fabric, seed: int = 7):
    from apps.engine.asbuilt.samples import adjacency_by_device, sonic_lldp_table

    rng = random.Random(seed)
    n = len(fabric)
    pairs = [((fabric.a_device[i], fabric.a_port[i]), (fabric.b_device[i], fabric.b_port[i])) for i in range(n)]
    chosen = rng.sample(range(n - 1), int(n * 0.0075))
    swaps = chosen[: int(n * 0.005) // 2]
    unplug = set(chosen[int(n * 0.005) // 2:])
    by_switch: dict[str, list[int]] = {}
    for k, (_a, b) in enumerate(pairs):
        by_switch.setdefault(b[0], []).append(k)
    touched: set[int] = set()
    swapped = 0
    for i in swaps:
        same = by_switch[pairs[i][1][0]]
        j = same[(same.index(i) + 1) % len(same)]  # the next planned port of the same switch
        if j == i or {i, j} & touched or j in unplug or i in unplug:
            continue
        touched |= {i, j}
        (a1, b1), (a2, b2) = pairs[i], pairs[j]
        pairs[i], pairs[j] = (a1, b2), (a2, b1)
        swapped += 1
    unplug -= touched
    cabled = [p for k, p in enumerate(pairs) if k not in unplug]
    switches = sorted({d for d in fabric.racks if not d.startswith("srv")})
    strays = [((dev, "Ethernet9999"), ("stray-host", f"eth{k}")) for k, dev in enumerate(switches[::100])]
    by = adjacency_by_device(cabled + strays)
    files = [(f"{dev}.txt", sonic_lldp_table(rows).encode()) for dev, rows in by.items()
             if not dev.startswith("srv") and dev != "stray-host"]
    expected = {"miswired": 2 * swapped, "missing": len(unplug), "unexpected": len(strays)}
    return files, expected


def run(gpus: int, repeat: int) -> dict:
    from apps.engine.asbuilt import asbuilt_check, planned_from_plan, read_dumps
    from apps.engine.plan import plan
    from apps.engine.specio import spec_from_dict

    started = time.perf_counter()
    result = plan(spec_from_dict(bench_spec(gpus)))
    plan_s = time.perf_counter() - started
    fabric = planned_from_plan(result)
    files, expected = faulty_dumps(fabric)
    size = sum(len(c) for _n, c in files)
    check = asbuilt_check(fabric, read_dumps(files))  # warm-up
    reads, checks = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        dumps = read_dumps(files)
        t1 = time.perf_counter()
        check = asbuilt_check(fabric, dumps)
        t2 = time.perf_counter()
        reads.append(t1 - t0)
        checks.append(t2 - t1)
    got = {k: check.counts[k] for k in expected}
    return {"gpus": gpus, "links": len(fabric), "dumps": len(files), "dump_mb": size / 2**20, "plan_s": plan_s,
            "read_s": statistics.median(reads), "check_s": statistics.median(checks),
            "total_s": statistics.median(r + c for r, c in zip(reads, checks)), "counts": check.counts,
            "findings": len(check.findings), "expected": expected, "counts_match": got == expected}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [run(g, args.repeat) for g in GPU_COUNTS]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'GPUs':>7} {'links':>8} {'dumps':>6} {'MB':>6} {'read s':>7} {'check s':>8} {'total s':>8} "
              f"{'miswired':>8} {'missing':>8} {'unexp.':>7} match")
        for r in rows:
            c = r["counts"]
            print(f"{r['gpus']:>7,} {r['links']:>8,} {r['dumps']:>6,} {r['dump_mb']:>6.1f} {r['read_s']:>7.2f} "
                  f"{r['check_s']:>8.2f} {r['total_s']:>8.2f} {c['miswired']:>8,} {c['missing']:>8,} "
                  f"{c['unexpected']:>7,} {r['counts_match']}")
    big = rows[-1]
    return 0 if big["total_s"] < LIMIT_SECONDS and all(r["counts_match"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
