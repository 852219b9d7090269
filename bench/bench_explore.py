"""The design-space explorer over the whole seed catalog, timed (issue: 5,000 GPUs < 2 s, 65,536 < 5 s).

    .venv/bin/python bench/bench_explore.py [--gpus N ...] [--repeat N] [--json]

Explores every seed switch model in every breakout at the NIC speed (leaf x spine x core models, 1, 2,
4 and 8 planes, 2 and 3 tiers, 1:1) for DGX H100 servers (8x400G, twin-port cages), as
`python -m apps.engine explore` does, after a warm-up (imports, the seed catalog read). Prints, per
size: structures explored, feasible fabrics, candidates on the frontier and the median wall time;
exits 1 when a size misses its target (5,000 GPUs: 2 s; 65,536 GPUs: 5 s; other sizes: 5 s).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apps.engine.explore import explore  # noqa: E402
from apps.engine.explore.io import request_from_dict  # noqa: E402

TARGETS = {5000: 2.0, 65536: 5.0}


def measure(gpus: int, repeat: int) -> dict:
    request = request_from_dict({"gpus": gpus, "server": "DGXH-G640F+P2EDI36"})
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = explore(request)
        times.append(time.perf_counter() - started)
    seconds = statistics.median(times)
    return {"gpus": gpus, "explored": result.explored, "feasible": result.feasible,
            "frontier": sum(1 for c in result.candidates if c.pareto), "seconds": round(seconds, 3),
            "target_s": TARGETS.get(gpus, 5.0), "ok": seconds < TARGETS.get(gpus, 5.0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", type=int, nargs="*", default=[5000, 65536])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    explore(request_from_dict({"gpus": 64, "server": "DGXH-G640F+P2EDI36"}))  # warm-up
    rows = [measure(gpus, args.repeat) for gpus in args.gpus]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'GPUs':>7} {'explored':>8} {'feasible':>8} {'frontier':>8} {'s':>7} {'target':>6}")
        for row in rows:
            print(f"{row['gpus']:>7,} {row['explored']:>8} {row['feasible']:>8} {row['frontier']:>8} "
                  f"{row['seconds']:>7.3f} {row['target_s']:>6g} {'ok' if row['ok'] else 'MISSED'}")
    return 0 if all(row["ok"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
