"""Command line: plan a fabric from a JSON spec and print the report.

    python -m apps.engine plan SPEC.json [--links LINKS.csv] [--devices DEVICES.csv] [--alternatives] [--indent N]
    python -m apps.engine size SPEC.json
    python -m apps.engine explore EXPLORE.json
    python -m apps.engine simulate SPEC.json WORKLOAD.json [--alternatives] [--indent N]
    python -m apps.engine asbuilt SPEC.json DUMPS [--indent N]

`explore` prints {"candidates": [...]}: every feasible fabric of the catalog for the request, priced as
`plan` prices it, the Pareto frontier marked (engine.explore.io describes EXPLORE.json and the output).

`plan` prints the JSON report (engine.report) on stdout, the other networks (frontend, storage, oob)
included when the spec has them (engine.networks); --links also writes every link of every network
as CSV with columns a_device,a_role,a_port,b_device,b_role,b_port,plane,rail,medium,length_m,network
(medium is the kind: DAC, ACC, AEC, AOC, SR, DR, FR, or Cat6A / SMF for management links; network is
backend, frontend, storage or oob; the backend's rows come first and are the same with or without
the other networks). --devices writes every device of every network in its rack (engine.hall.devices_csv):
columns device,role,network,rack,u,u_height,face,x_m,y_m,power_typical_w,power_max_w,sku,model,zone (u = the
lowest rack unit it occupies, x_m,y_m = its rack's floor position in metres). `size` prints the counts
without building links.
`simulate` runs a collective or a training job (WORKLOAD.json, apps.engine.simulation.workload)
on the planned fabric and prints {"collectives": [{"collective", "bytes", "ranks", "algorithm",
"routing", "time_s", "algbw_gbps", "busbw_gbps", ...}], "step": {"comm_s", "exposed_s", ...} or
null, "table", "links", "scenarios", "notes", ...}; a bad workload is reported like a bad spec.
`asbuilt` checks neighbour dumps (a folder or a zip of SONiC `show lldp table` files, `lldpcli show
neighbors -f json` files and ibnetdiscover output; engine.asbuilt) against the planned links and prints
{"planned", "ok", "miswired", "missing", "unverified", "unexpected", "verified_pct", "findings", ...};
an unreadable dump prints "file line N: message" lines on stderr and exits with status 2.
SPEC.json "-" reads standard input. A malformed or infeasible spec prints "field: message" lines
on stderr, nothing on stdout, and exits with status 2.
"""
from __future__ import annotations

import argparse
import csv
import json
import sys
from itertools import repeat
from pathlib import Path

import numpy as np

from .explore import explore
from .hall.devices_csv import write_devices_csv
from .explore.io import exploration_dict, request_from_dict
from .asbuilt import DumpError, asbuilt_check, dumps_from_path, planned_from_plan, read_dumps
from .model import ROLES, Plan
from .names import device_name_array, device_role_codes, port_name_table
from .networks.cluster import plan_cluster
from .networks.csvrows import network_link_rows
from .plan import alternatives, plan, size
from .report import report, sizing_dict
from .seedcatalog import CatalogError
from .spec import SpecError
from .specio import spec_from_dict

CSV_COLUMNS = ("a_device", "a_role", "a_port", "b_device", "b_role", "b_port", "plane", "rail", "medium", "length_m",
               "network")
EXIT_BAD_SPEC = 2


def write_links_csv(plan_: Plan, path: Path | str) -> int:
    """Write every link of the plan to `path` as CSV; returns the number of links written."""
    links = plan_.links
    names = device_name_array(plan_)
    roles = device_role_codes(plan_)
    table = port_name_table(plan_)
    role_names = np.array(ROLES, dtype=object)
    kinds = np.array([m.kind for m in plan_.media] + [""], dtype=object)
    medium = links.medium.astype(np.int64)
    medium = np.where(medium < 0, len(plan_.media), medium)
    a_dev, b_dev = links.a_dev, links.b_dev
    lengths = [f"{v:g}" for v in links.length_m.astype(np.float64).tolist()]
    columns = (
        names[a_dev], role_names[roles[a_dev]], table[roles[a_dev], links.a_port],
        names[b_dev], role_names[roles[b_dev]], table[roles[b_dev], links.b_port],
        links.plane.tolist(), links.rail.tolist(), kinds[medium], lengths, repeat("backend", len(links)),
    )
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        writer.writerows(zip(*(c.tolist() if isinstance(c, np.ndarray) else c for c in columns)))
        rows = network_link_rows(plan_)
        writer.writerows(rows)
    return len(links) + len(rows)


def _load(path: str) -> object:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError({"spec": [f"not UTF-8 text: byte {exc.start} cannot be decoded"]}) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError({"spec": [f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"]}) from None
    except ValueError as exc:  # e.g. an integer longer than Python converts (4,300 digits)
        raise SpecError({"spec": [f"not valid JSON: {exc}"]}) from None
    except RecursionError:
        raise SpecError({"spec": ["not valid JSON: nested too deeply"]}) from None


def _simulate(spec, workload: object, *, alternatives: bool) -> dict:
    from .simulation import simulate, simulate_alternatives

    result = simulate(plan(spec), workload)
    out = result.to_dict()
    out["table"] = out.pop("tables")
    if alternatives:
        out["alternatives"] = simulate_alternatives(spec, workload)
    return out


def _fail(errors: dict[str, list[str]]) -> int:
    for name, messages in errors.items():
        for message in messages:
            print(f"{name}: {message}", file=sys.stderr)
    return EXIT_BAD_SPEC


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m apps.engine", description="Plan AI-cluster backend fabrics.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_plan = sub.add_parser("plan", help="plan every device and link; print the JSON report")
    p_plan.add_argument("spec", help="SPEC.json, or - for standard input")
    p_plan.add_argument("--links", metavar="FILE.csv", help="also write every link to this CSV file")
    p_plan.add_argument("--devices", metavar="FILE.csv",
                        help="also write every device with its rack, rack unit and floor position to this CSV file")
    p_plan.add_argument("--alternatives", action="store_true",
                        help="add 2-tier, 3-tier and multi-plane alternatives, priced side by side")
    p_plan.add_argument("--indent", type=int, default=2)
    p_size = sub.add_parser("size", help="counts and limits only, without links")
    p_size.add_argument("spec")
    p_size.add_argument("--indent", type=int, default=2)
    p_explore = sub.add_parser("explore", help="every feasible fabric of the catalog, the cost-growth frontier")
    p_explore.add_argument("spec", help="EXPLORE.json (a spec with switches, oversubscriptions, bar), or -")
    p_explore.add_argument("--indent", type=int, default=2)
    p_sim = sub.add_parser("simulate", help="time a collective or a training step on the planned fabric")
    p_sim.add_argument("spec")
    p_sim.add_argument("workload", help="WORKLOAD.json, or - for standard input")
    p_sim.add_argument("--alternatives", action="store_true", help="also run it on the design's alternatives")
    p_sim.add_argument("--indent", type=int, default=2)
    p_asbuilt = sub.add_parser("asbuilt", help="check LLDP / ibnetdiscover dumps against the planned links")
    p_asbuilt.add_argument("spec")
    p_asbuilt.add_argument("dumps", help="a folder or a zip of dump files (one per switch or host, named after it)")
    p_asbuilt.add_argument("--indent", type=int, default=2)
    args = parser.parse_args(argv)

    try:
        if args.command == "explore":
            out = exploration_dict(explore(request_from_dict(_load(args.spec))))
            return _print(out, args.indent)
        spec = spec_from_dict(_load(args.spec))
        if args.command == "size":
            out = sizing_dict(size(spec))
        elif args.command == "simulate":
            out = _simulate(spec, _load(args.workload), alternatives=args.alternatives)
        elif args.command == "asbuilt":
            dumps = read_dumps(dumps_from_path(args.dumps))
            out = asbuilt_check(planned_from_plan(plan(spec)), dumps).to_dict()
        else:
            result = plan_cluster(spec)
            alts = alternatives(spec) if args.alternatives else None
            out = report(result, alternatives=alts)
            if args.links:
                write_links_csv(result, args.links)
            if args.devices:
                write_devices_csv(result.hall, args.devices)
    except SpecError as exc:
        return _fail(exc.errors)
    except DumpError as exc:
        for name, line, message in exc.errors:
            print(f"{name} line {line}: {message}" if line else f"{name}: {message}", file=sys.stderr)
        return EXIT_BAD_SPEC
    except (OSError, CatalogError) as exc:
        return _fail({"spec": [str(exc)]})
    return _print(out, args.indent)


def _print(out: dict, indent: int) -> int:
    text = json.dumps(out, indent=indent or None) + "\n"
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head
        pass
    return 0
