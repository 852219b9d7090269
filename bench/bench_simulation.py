"""Benchmark: the training-job performance model (apps.engine.simulation) at 5,000 and 65,536 GPUs.

    .venv/bin/python bench/bench_simulation.py [--gpus 5000 65536] [--json]

Designs from the seed catalog: DGX H100 servers (8 x 400G, NVLink 4) on DCS-7060DX5-64S
(64 x 400G, Tomahawk-4 class) in 1x400G, 3 tiers. Workloads: Llama 3.1 405B (dense: TP 8, PP 16,
ZeRO-1) and DeepSeek-V3 (MoE: TP 1, PP 16, EP the default: the largest power of two up to 64
dividing DP), each with ECMP and with spraying. Every size runs in its own process (the plan is
built before timing): "s" is one `simulate()` of the step, "with spine down s" the same step plus
its failure scenario (two steps); the memory is the process's peak RSS.

Collectives: every collective (All-Reduce, All-Gather, Reduce-Scatter, All-to-All) of 1 GiB over every
GPU of the design, with ECMP and with spraying ("collective" rows; All-to-All above 150,000 flows is
sampled by pairwise-exchange steps with its error stated, simulate._sampled_estimate).

Exit status 0 when every step and every collective models in under 10 s at both sizes and every
process stays under 2 GB; 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LIMITS_S = {5000: 10.0, 65536: 10.0}
COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")
LIMIT_MB = 2048
WORKLOADS = (
    ("llama3-405b ecmp", {"model": "llama3-405b", "tp": 8, "pp": 16, "routing": "ecmp"}),
    ("llama3-405b spray", {"model": "llama3-405b", "tp": 8, "pp": 16, "routing": "spray"}),
    ("deepseek-v3 ecmp", {"model": "deepseek-v3", "tp": 1, "pp": 16, "routing": "ecmp"}),
    ("deepseek-v3 spray", {"model": "deepseek-v3", "tp": 1, "pp": 16, "routing": "spray"}),
)


def one(gpus: int) -> list[dict]:
    from apps.engine.plan import plan
    from apps.engine.simulation import simulate
    from apps.engine.specio import spec_from_dict

    spec = spec_from_dict({"gpus": gpus, "server": {"sku": "DGXH-G640F+P2EDI36"},
                           "leaf": {"sku": "DCS-7060DX5-64S", "breakout": "1x400G"}, "tiers": 3})
    p = plan(spec)
    rows = []
    for name, work in WORKLOADS:
        started = time.perf_counter()
        r = simulate(p, work)
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        failed = simulate(p, {**work, "failures": ["spine"]})
        with_failure = time.perf_counter() - started
        rows.append({"gpus": gpus, "workload": name, "seconds": round(seconds, 2),
                     "job_gpus": r.gpus, "exposed_s": round(r.step.exposed_s, 3), "step_s": round(r.step.step_s, 3),
                     "comm_share": round(r.step.comm_share, 3),
                     "failed_spine_exposed_s": round(failed.scenarios[0].step.exposed_s, 3),
                     "with_failure_s": round(with_failure, 2),
                     "sampled": [c.key for c in r.collectives if c.sampled],
                     "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)})
    for collective in COLLECTIVES:
        for routing in ("ecmp", "spray"):
            started = time.perf_counter()
            r = simulate(p, {"collective": collective, "bytes": 1 << 30, "ranks": "all", "routing": routing})
            c = r.collectives[0]
            rows.append({"gpus": gpus, "workload": f"{collective} {routing}", "seconds":
                         round(time.perf_counter() - started, 2), "busbw_GBps": round(c.busbw_gbps / 8, 1),
                         "algorithm": c.algorithm, "sampled": bool(c.sampled),
                         "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpus", type=int, nargs="*", default=[5000, 65536])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one)))
        return 0
    rows = []
    for gpus in args.gpus:
        out = subprocess.run([sys.executable, __file__, "--one", str(gpus)], capture_output=True, text=True,
                             check=True)
        rows += json.loads(out.stdout.strip().splitlines()[-1])
    ok = all(r["seconds"] < LIMITS_S.get(r["gpus"], 10.0) and r["rss_mb"] < LIMIT_MB for r in rows)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'GPUs':>7} {'workload':<20} {'s':>6} {'RSS MB':>7} {'exposed s':>10} {'step s':>8} {'share':>6} "
              f"{'spine down s':>12} {'with spine down s':>17}")
        for r in rows:
            if "busbw_GBps" in r:
                print(f"{r['gpus']:>7} {r['workload']:<20} {r['seconds']:>6} {r['rss_mb']:>7}   busbw "
                      f"{r['busbw_GBps']} GB/s ({r['algorithm']}{', sampled' if r['sampled'] else ''})")
                continue
            print(f"{r['gpus']:>7} {r['workload']:<20} {r['seconds']:>6} {r['rss_mb']:>7} {r['exposed_s']:>10} "
                  f"{r['step_s']:>8} {r['comm_share']:>6} {r['failed_spine_exposed_s']:>12} {r['with_failure_s']:>17}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
