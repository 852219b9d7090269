"""Benchmark: the fabric engine against building the bare networkx graph of the same fabric.

    .venv/bin/python bench/bench_engine.py [--repeat N] [--json]

Plans 5,000 and 65,536 GPUs (8-GPU servers with 8x400G, Tomahawk-4 class 64x400G switches from the
seed catalog, 3 tiers) with cabling, BOM and addressing, and in the same run builds the bare
networkx graph (nx.Graph, nodes = devices, edges = links, no attributes) of the same fabric.
Each measurement runs in its own process: wall time is the median of --repeat runs after a warm-up
(imports and the seed catalog are loaded before timing); memory is the tracemalloc peak of one
plan() and the process's peak RSS. plan() includes the wiring proof (engine.wiring); the proof is
also timed on its own (median of 5 x --repeat runs on the plan's links) and given as a share of the
rest of plan().

Exit status 0 when, for 65,536 GPUs, plan() is faster than building the networkx graph, its
process stays under 1 GB and the wiring proof adds under 10 % to the plan time; 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GPU_COUNTS = (5_000, 65_536)
MEMORY_LIMIT_MB = 1024
WIRING_SHARE_LIMIT = 0.10


def bench_spec(gpus: int) -> dict:
    return {
        "name": f"bench {gpus} GPUs",
        "gpus": gpus,
        "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
        "leaf": {"sku": "DCS-7060DX5-64S", "breakout": "1x400G"},  # 64x400G QSFP-DD, Tomahawk 4
        "tiers": 3,
    }


def _max_rss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def child_engine(gpus: int, repeat: int) -> dict:
    from apps.engine.plan import plan
    from apps.engine.seedcatalog import seed_catalog
    from apps.engine.specio import spec_from_dict
    from apps.engine.topology import build_links, device_layout
    from apps.engine.wiring import prove

    seed_catalog()
    spec = spec_from_dict(bench_spec(gpus))
    plan(spec)  # warm-up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = plan(spec)
        times.append(time.perf_counter() - started)
    lay = device_layout(result.sizing)
    links = build_links(result.sizing, lay)
    proofs = []
    for _ in range(5 * repeat):
        started = time.perf_counter()
        prove(result.sizing, lay, links)
        proofs.append(time.perf_counter() - started)
    del result, links
    tracemalloc.start()
    result = plan(spec)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    wiring = statistics.median(proofs)
    return {
        "seconds": statistics.median(times), "runs": times, "wiring_seconds": wiring,
        "wiring_share": wiring / max(statistics.median(times) - wiring, 1e-9),
        "worst_pair_fraction": result.wiring.worst_pair_fraction, "as_stated": result.wiring.as_stated,
        "traced_peak_mb": peak / 2**20,
        "max_rss_mb": _max_rss_mb(), "tiers": result.tiers, "switches": result.switches,
        "links": len(result.links), "devices": len(result.devices), "total_cost": result.total_cost,
    }


def child_networkx(gpus: int, repeat: int) -> dict:
    import networkx as nx

    from apps.engine.plan import plan
    from apps.engine.specio import spec_from_dict

    result = plan(spec_from_dict(bench_spec(gpus)))
    nodes = list(range(len(result.devices)))
    edges = list(zip(result.links.a_dev.tolist(), result.links.b_dev.tolist()))
    del result

    def build():
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        graph.add_edges_from(edges)
        return graph

    build()  # warm-up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        graph = build()
        times.append(time.perf_counter() - started)
    return {"seconds": statistics.median(times), "runs": times, "nodes": graph.number_of_nodes(),
            "edges": graph.number_of_edges(), "max_rss_mb": _max_rss_mb()}


def run_child(kind: str, gpus: int, repeat: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, __file__, "--child", kind, "--gpus", str(gpus), "--repeat", str(repeat)],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{kind} {gpus} failed:\n{out.stderr}")
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--child", choices=("engine", "networkx"), help=argparse.SUPPRESS)
    parser.add_argument("--gpus", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        fn = child_engine if args.child == "engine" else child_networkx
        print(json.dumps(fn(args.gpus, args.repeat)))
        return 0

    rows = []
    for gpus in GPU_COUNTS:
        engine = run_child("engine", gpus, args.repeat)
        graph = run_child("networkx", gpus, args.repeat)
        rows.append({"gpus": gpus, "engine": engine, "networkx": graph})
    if args.json:
        print(json.dumps(rows, indent=2))
    header = (f"{'GPUs':>7} {'tiers':>5} {'devices':>8} {'links':>8} {'plan s':>8} {'wiring s':>8} {'share':>6} "
              f"{'networkx s':>10} {'ratio':>6} {'plan peak MB':>12} {'RSS MB':>7}")
    print(header)
    print("-" * len(header))
    for row in rows:
        e, g = row["engine"], row["networkx"]
        print(f"{row['gpus']:>7,} {e['tiers']:>5} {e['devices']:>8,} {e['links']:>8,} {e['seconds']:>8.3f} "
              f"{e['wiring_seconds']:>8.4f} {e['wiring_share']:>6.1%} "
              f"{g['seconds']:>10.3f} {e['seconds'] / g['seconds']:>6.2f} {e['traced_peak_mb']:>12.1f} "
              f"{e['max_rss_mb']:>7.0f}")
    big = rows[-1]
    ok_time = big["engine"]["seconds"] < big["networkx"]["seconds"]
    ok_memory = big["engine"]["max_rss_mb"] < MEMORY_LIMIT_MB
    ok_wiring = big["engine"]["wiring_share"] < WIRING_SHARE_LIMIT and big["engine"]["as_stated"]
    assert big["engine"]["links"] == big["networkx"]["edges"]
    print(f"\n65,536 GPUs: plan (wiring proof included) {'<' if ok_time else '>='} networkx graph "
          f"({big['engine']['seconds']:.3f} s vs {big['networkx']['seconds']:.3f} s); "
          f"peak RSS {big['engine']['max_rss_mb']:.0f} MB {'<' if ok_memory else '>='} {MEMORY_LIMIT_MB} MB; "
          f"wiring proof {big['engine']['wiring_seconds'] * 1000:.1f} ms = {big['engine']['wiring_share']:.1%} of "
          f"the rest of plan() ({'<' if ok_wiring else '>='} {WIRING_SHARE_LIMIT:.0%}), worst leaf pair "
          f"{big['engine']['worst_pair_fraction']:.3f}")
    return 0 if ok_time and ok_memory and ok_wiring else 1


if __name__ == "__main__":
    sys.exit(main())
