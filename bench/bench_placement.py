"""Benchmark: placing a 65,536-GPU cluster in the hall (engine.hall), without the rest of planning.

    .venv/bin/python bench/bench_placement.py [--repeat N] [--json]

The design: 65,536 GPUs of DGX H100 (8 x 400G, 10.2 kW), SN5600 leaves in 2x400G, 3 tiers, with an
out-of-band network and structured cabling, racks of 48U under a 45 kW budget with servers per rack
derived from it, a hall of 24 positions per row with reserved cells and a network zone. Timed (median
of --repeat runs after a warm-up, imports and the seed catalog loaded first):
- place: the backend placement (engine.racks.place on the hall grid) and every link's route length;
- hall: building the hall plan of the whole cluster (racks, items, power, checks, structured cabling);
- total: the two together, the engine's part of issue 19's "placement under 2 s".
At several sizes (4,096 / 16,384 / 65,536 GPUs) so growth worse than linear shows.

Then the default hall (issue 32: no layout given, a near-square hall of row pairs round cold aisles) at
65,536 and 200,000 GPUs of DGX H100 on SN5600 2x400G: the placement time as above, the hall's size and shape,
the longest raw run (route length before rounding) and, from one whole plan, the longest cable as bought and
the mix of media (SR multimode / DR single-mode optics).

Exit status 0 when placement of 65,536 GPUs takes under 2 s; 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from apps.engine.hall.build import place_hall  # noqa: E402
from apps.engine.hall.grid import HallGrid  # noqa: E402
from apps.engine.networks.cluster import plan_cluster  # noqa: E402
from apps.engine.racks import place, raw_lengths  # noqa: E402
from apps.engine.specio import spec_from_dict  # noqa: E402
from apps.engine.topology import build_links, device_layout, size_fabric  # noqa: E402

LIMIT_S = 2.0
SIZES = (4_096, 16_384, 65_536)


def bench_spec(gpus: int) -> dict:
    return {
        "name": f"placement {gpus} GPUs", "gpus": gpus, "server": "DGXH-G640F+P2EDI36",
        "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}, "tiers": 3,
        "oob": {"leaf": {"ports": 48, "gbps": 1}},
        "layout": {"servers_per_rack": 0, "rack_power_kw": 45, "rack_units": 48, "structured_cabling": True,
                   "hall": {"positions": 24, "reserved": [[1, 12], [5, 12], [9, 12]], "zones": {"network": [50, 51, 52, 53, 54, 55]}}},
    }


DEFAULT_SIZES = (65_536, 200_000)


def default_spec(gpus: int) -> dict:
    return {"name": f"default hall {gpus} GPUs", "gpus": gpus, "server": "DGXH-G640F+P2EDI36",
            "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}}


def measure_default(gpus: int, repeat: int) -> dict:
    """The default hall: placement time, size, longest raw run, and the whole plan's longest cable and media."""
    from collections import Counter

    import numpy as np

    from apps.engine.hall.geometry import aspect
    from apps.engine.plan import plan

    spec = spec_from_dict(default_spec(gpus))
    sz = size_fabric(spec)
    lay = device_layout(sz)
    links = build_links(sz, lay)
    t0 = time.perf_counter()
    planned = plan(spec)
    plan_s = time.perf_counter() - t0
    times, longest_raw = [], 0.0
    for k in range(repeat + 1):
        t0 = time.perf_counter()
        placement = place(spec, sz, lay, HallGrid(spec.layout))
        raw = raw_lengths(spec, placement, links.a_dev, links.b_dev)
        hall = place_hall(spec, planned, HallGrid(spec.layout))
        if k:
            times.append(time.perf_counter() - t0)
        longest_raw = float(raw.max())
    kinds: Counter = Counter()
    media, counts = np.unique(planned.links.medium, return_counts=True)
    for m, n in zip(media.tolist(), counts.tolist()):
        kinds[planned.media[m].kind] += n
    h = hall.hall
    return {"gpus": gpus, "racks": len(hall.racks), "rows": h.rows, "positions": h.positions,
            "width_m": round(h.width_m, 1), "depth_m": round(h.depth_m, 1), "aspect": round(aspect(h.width_m, h.depth_m), 2),
            "place_s": round(statistics.median(times), 4), "plan_s": round(plan_s, 2),
            "longest_raw_m": round(longest_raw, 1), "longest_cable_m": float(planned.links.length_m.max()),
            "media": dict(kinds)}


def measure(gpus: int, repeat: int) -> dict:
    spec = spec_from_dict(bench_spec(gpus))
    sz = size_fabric(spec)
    lay = device_layout(sz)
    links = build_links(sz, lay)
    cluster = plan_cluster(spec)  # the networks whose devices the hall holds
    place_times, hall_times = [], []
    for k in range(repeat + 1):
        t0 = time.perf_counter()
        placement = place(spec, sz, lay, HallGrid(spec.layout))
        raw_lengths(spec, placement, links.a_dev, links.b_dev)
        t1 = time.perf_counter()
        hall = place_hall(spec, cluster, HallGrid(spec.layout))
        t2 = time.perf_counter()
        if k:  # the first run warms up
            place_times.append(t1 - t0)
            hall_times.append(t2 - t1)
    return {"gpus": gpus, "devices": int(hall.device_rack.shape[0]), "racks": len(hall.racks),
            "links": len(links), "place_s": round(statistics.median(place_times), 4),
            "hall_s": round(statistics.median(hall_times), 4),
            "total_s": round(statistics.median(p + h for p, h in zip(place_times, hall_times)), 4)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = [measure(gpus, args.repeat) for gpus in SIZES]
    defaults = [measure_default(gpus, args.repeat) for gpus in DEFAULT_SIZES]
    ok = results[-1]["total_s"] < LIMIT_S
    if args.json:
        print(json.dumps({"results": results, "default_halls": defaults, "limit_s": LIMIT_S, "ok": ok}, indent=2))
    else:
        for r in results:
            print(f"{r['gpus']:>7,} GPUs  {r['racks']:>5,} racks  {r['devices']:>6,} devices  {r['links']:>7,} links  "
                  f"place {r['place_s']:.3f} s  hall {r['hall_s']:.3f} s  total {r['total_s']:.3f} s")
        for r in defaults:
            print(f"default hall {r['gpus']:>7,} GPUs  {r['racks']:>5,} racks  {r['rows']} rows x {r['positions']} "
                  f"positions  {r['width_m']} m x {r['depth_m']} m (aspect {r['aspect']})  place+hall "
                  f"{r['place_s']:.3f} s  longest run {r['longest_raw_m']} m (cable {r['longest_cable_m']:g} m)  "
                  f"media {r['media']}  whole plan {r['plan_s']} s")
        print(f"65,536 GPUs placed in {results[-1]['total_s']:.3f} s (limit {LIMIT_S} s): {'ok' if ok else 'TOO SLOW'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
