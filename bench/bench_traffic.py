"""Benchmark: traffic analysis (and RoCE checklist/configs) of 5,000-GPU fabrics.

    .venv/bin/python bench/bench_traffic.py [--repeat N] [--max-flows F] [--json]

Two designs of 5,000 GPUs (625 servers with 8x400G NICs) from the seed catalog:
- "64x400G, 3 tiers": DCS-7060DX5-64S (Tomahawk-4 class) in 1x400G, 5 pods;
- "128x400G, 2 tiers": DCS-7060X6-64PE (Tomahawk-5 class, 64x800G) in 2x400G.
For each, `analyze(plan)` routes Ring All-Reduce (in a scheduler's random order, the headline,
and in plan order) and All-to-All (sampled to --max-flows flows) with random ECMP and with
hash-aware source ports; the table shows each run's effective bandwidth, worst/mean link and time
(bandwidth + latency term, NCCL's per-step figure). Wall time is the median of --repeat runs after
a warm-up (plan built and modules imported before timing); memory is the tracemalloc peak of one
analysis. The RoCE checklist and the streaming of every device's config are timed once.

Exit status 0 when every analysis finishes in under 10 s; 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LIMIT_S = 10.0
DESIGNS = (
    ("64x400G, 3 tiers", {"sku": "DCS-7060DX5-64S", "breakout": "1x400G"}, 3),
    ("128x400G, 2 tiers", {"sku": "DCS-7060X6-64PE", "breakout": "2x400G"}, 2),
)


def design(leaf: dict, tiers: int):
    from apps.engine.plan import plan
    from apps.engine.specio import spec_from_dict

    # Third-party optics: the seed has no Arista twin-port 2x400G optic for the 7060X6's leaf-spine cages.
    spec = spec_from_dict({"name": "bench traffic", "gpus": 5_000,
                           "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400}, "leaf": leaf, "tiers": tiers,
                           "third_party_optics": True})
    return plan(spec)


def measure(label: str, leaf: dict, tiers: int, repeat: int, max_flows: int) -> dict:
    from apps.engine.roce import RoceSettings, roce_checklist, roce_configs
    from apps.engine.traffic import analyze

    p = design(leaf, tiers)
    analyze(p, max_flows=max_flows)  # warm-up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        report = analyze(p, max_flows=max_flows)
        times.append(time.perf_counter() - started)
    tracemalloc.start()
    analyze(p, max_flows=max_flows)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    settings = RoceSettings()
    started = time.perf_counter()
    findings = roce_checklist(p, settings)
    checklist_s = time.perf_counter() - started
    started = time.perf_counter()
    files = size = 0
    for _, text in roce_configs(p, settings):
        files += 1
        size += len(text)
    configs_s = time.perf_counter() - started

    row = {"design": label, "tiers": p.tiers, "switches": p.switches, "links": len(p.links),
           "analysis_s": round(statistics.median(times), 3), "analysis_peak_mb": round(peak / 2**20, 1),
           "checklist_s": round(checklist_s, 3), "checklist_errors": sum(f.severity == "error" for f in findings),
           "config_files": files, "config_mb": round(size / 2**20, 1), "configs_s": round(configs_s, 2),
           "patterns": {}}
    for name, pattern in report.patterns.items():
        for placement, strategies in pattern.runs():
            row["patterns"][f"{name} {placement}"] = {
                "flows": pattern.flows, "flows_total": pattern.flows_total, "sampled": pattern.sampled,
                **{strategy: {"effective_bw": round(r.effective_bandwidth, 3),
                              "worst_over_mean": round(r.worst_over_mean, 3), "max_util": round(r.max_util, 3),
                              "oversubscribed_share": round(r.oversubscribed_share, 3),
                              "total_ms": round(r.total_ms, 2), "latency_ms": round(r.latency_ms, 2)}
                   for strategy, r in strategies.items()},
            }
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-flows", type=int, default=None, help="default: the engine's DEFAULT_MAX_FLOWS")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args()
    from apps.engine.traffic import DEFAULT_MAX_FLOWS

    max_flows = args.max_flows or DEFAULT_MAX_FLOWS
    rows = [measure(label, leaf, tiers, max(1, args.repeat), max_flows) for label, leaf, tiers in DESIGNS]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"5,000 GPUs, max_flows {max_flows:,}, median of {args.repeat} runs\n")
        print(f"{'design':<20} {'links':>7} {'analysis s':>10} {'peak MB':>8} {'checklist s':>11} "
              f"{'configs s':>9} {'files':>6} {'MB':>6}")
        for r in rows:
            print(f"{r['design']:<20} {r['links']:>7,} {r['analysis_s']:>10.2f} {r['analysis_peak_mb']:>8.1f} "
                  f"{r['checklist_s']:>11.3f} {r['configs_s']:>9.2f} {r['config_files']:>6,} {r['config_mb']:>6.1f}")
        print(f"\n{'design':<20} {'pattern':<21} {'flows':>11} {'of':>12}  "
              f"{'ECMP eff':>8} {'w/mean':>6} {'ms':>7}  {'aware eff':>9} {'w/mean':>6} {'ms':>7}")
        for r in rows:
            for name, pt in r["patterns"].items():
                e, a = pt["ecmp"], pt["hash-aware"]
                print(f"{r['design']:<20} {name:<21} {pt['flows']:>11,} {pt['flows_total']:>12,}  "
                      f"{e['effective_bw']:>8.3f} {e['worst_over_mean']:>6.3f} {e['total_ms']:>7.1f}  "
                      f"{a['effective_bw']:>9.3f} {a['worst_over_mean']:>6.3f} {a['total_ms']:>7.1f}")
    slow = [r["design"] for r in rows if r["analysis_s"] >= LIMIT_S]
    if slow:
        print(f"\nFAIL: analysis took {LIMIT_S:g} s or more for {', '.join(slow)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
