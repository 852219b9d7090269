"""Benchmark: export a design version as the Excel workbook and as the NetBox import zip.

    .venv/bin/python bench/bench_exports.py [--gpus N] [--reuse] [--keep DIR] [--only workbook|netbox] [--json]
    .venv/bin/python bench/bench_exports.py --gpus 1000000 --switch DCS-7060X6-64PE --breakout 2x400G --planes 2 \
        --tiers auto [--networks all]

Runs against the PostgreSQL database in BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/fabricweb_bench; created and migrated when missing), loads the
seed catalog and generates the version through the designs service (`design_create`, the task run in
this process when the transaction commits), as the web app does. By default DGX H100 servers (8x400G)
on the seed's 64x400G QSFP-DD Tomahawk-4 class switch in 1x400G, 3 tiers: for 65,536 GPUs 8,192
servers, 5,120 switches and 196,608 links. --switch/--breakout/--planes/--tiers choose the backend as
bench_designs.py does (the 1,000,000-GPU design above: 128x400G in 2 planes, 3,000,896 links); above
262,144 GPUs every network gets /10 pools; --networks all adds bench_designs.py's front-end, storage and
out-of-band networks. Then each export runs in a fresh process (so its peak RSS is the export's):

- `workbook`: apps.exports.excel.version_workbook_write to a file (every sheet); the file is checked:
  every zip entry reads back (CRC), every sheet's rows are counted (at most 1,048,576 each);
- `netbox`: apps.exports.netbox.version_netbox_write to a zip; files and parts per logical file counted,
  the README's "Links:" line shown.

--reuse exports the last version generated with the same inputs instead of generating again. Exit
status 1 when the workbook takes WORKBOOK_LIMIT_S (60 s) or more up to 65,536 GPUs, a file is broken,
or an export peaks at RSS_LIMIT_MB (4 GB) or more.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKBOOK_LIMIT_S = 60.0
RSS_LIMIT_MB = 4096  # a worker's memory (issue 33)
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fabricweb_bench"
SERVER_SKU = "DGXH-G640F+P2EDI36"  # DGX H100, 8x 400G ConnectX-7
SWITCH_SKU = "DCS-7060DX5-64S"  # 64x400G QSFP-DD, Tomahawk 4


def _max_rss_mb() -> float:
    """This process's peak RSS. On Linux VmHWM: getrusage's ru_maxrss survives exec, so a child started by a
    parent that generated a design would report the generation's peak."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def _database_ready(url: str) -> None:
    """Create the benchmark database when it does not exist."""
    import psycopg
    from psycopg import sql

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _setup(media_root: str) -> None:
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    _database_ready(url)
    os.environ["DATABASE_URL"] = url
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
    os.environ["CELERY_BROKER_URL"] = ""
    os.environ["FABRICWEB_MEDIA_ROOT"] = media_root
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fabricweb.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_seed_catalog", verbosity=0, stdout=io.StringIO())


NETWORK_SWITCH_SKU = "920-9N42F-00RI-7C0"  # SN5600, 2x400G for the front-end and storage fabrics
WIDE_GPUS = 262_144  # above this the default /12 pools are too small (bench_designs.py gives the same pools)


def design_arguments(parser: argparse.ArgumentParser, *, gpus_nargs: str | None = None) -> None:
    """The design options bench_exports.py and bench_documents.py share (the 1,000,000-GPU design of
    bench_designs.py: --gpus 1000000 --switch DCS-7060X6-64PE --breakout 2x400G --planes 2 --tiers auto)."""
    parser.add_argument("--gpus", type=int, nargs=gpus_nargs, default=[5_000, 65_536] if gpus_nargs else 65_536)
    parser.add_argument("--switch", default=SWITCH_SKU, help=f"backend switch SKU (default {SWITCH_SKU})")
    parser.add_argument("--breakout", default="1x400G", help="backend switch breakout (default 1x400G)")
    parser.add_argument("--planes", type=int, default=None, help="backend planes (default: the form's)")
    parser.add_argument("--tiers", default="3", choices=("auto", "2", "3"), help="backend tiers (default 3)")
    parser.add_argument("--networks", default="backend", choices=("backend", "all"),
                        help="all: the front-end, storage and out-of-band networks too (as bench_designs.py)")
    parser.add_argument("--reuse", action="store_true", help="use the last version generated with these inputs")


def design_data(gpus: int, args: argparse.Namespace) -> dict:
    """The design form's data (as the API takes it) for `gpus` GPUs and the bench's options."""
    from apps.catalog.models import ServerModel, SwitchModel

    server = ServerModel.objects.get(sku=SERVER_SKU)
    data = {"server": server.pk, "leaf_switch": SwitchModel.objects.get(sku=args.switch).pk,
            "leaf_breakout": args.breakout, "tiers": args.tiers, "gpus": gpus}
    if args.planes:
        data["planes"] = args.planes
    wide = gpus > WIDE_GPUS
    if wide:  # /10 pools: 4,194,304 addresses each
        data["pools"] = {"host": "10.0.0.0/10", "p2p": "10.64.0.0/10", "loopback": "10.128.0.0/16"}
    if args.networks == "all":
        sn5600 = SwitchModel.objects.get(sku=NETWORK_SWITCH_SKU).pk
        servers = -(-gpus // server.gpus)
        data["networks"] = {
            "frontend": {"switch": sn5600, "breakout": "2x400G", "ports_per_server": 2,
                         **({"pools": {"host": "10.192.0.0/12", "p2p": "10.208.0.0/12", "loopback": "10.224.0.0/16"}}
                            if wide else {})},
            "storage": {"mode": "fabric", "switch": sn5600, "breakout": "2x400G", "nodes": max(1, servers // 20),
                        "ports_per_node": 2, "ports_per_server": 2,
                        **({"pools": {"host": "100.64.0.0/12", "p2p": "100.96.0.0/11", "loopback": "100.80.0.0/16"}}
                           if wide else {})},
            "oob": {"ports": 48, "gbps": 1,
                    **({"pools": {"host": "172.16.0.0/13", "p2p": "172.24.0.0/14"}} if wide else {})},
        }
    return data


def design_name(gpus: int, args: argparse.Namespace) -> str:
    """The bench design's name: the default design keeps its old name ("65536 GPUs") so --reuse finds it."""
    parts = [f"{gpus} GPUs"]
    if args.switch != SWITCH_SKU or args.breakout != "1x400G":
        parts.append(f"{args.switch} {args.breakout}")
    if args.planes:
        parts.append(f"{args.planes} planes")
    if args.tiers != "3":
        parts.append(f"tiers {args.tiers}")
    if args.networks != "backend":
        parts.append("all networks")
    return ", ".join(parts)


def _version(gpus: int, args: argparse.Namespace):
    """The ready version of the bench's design: generated through the designs service (design_create, the task
    run in this process when the transaction commits), as the web app's request and job do."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from apps.designs.models import Design, DesignVersion
    from apps.designs.services.design import design_create
    from apps.projects.models import Customer, Project

    user, _ = get_user_model().objects.get_or_create(username="bench")
    customer, _ = Customer.objects.get_or_create(name="Benchmark customer")
    project, _ = Project.objects.get_or_create(customer=customer, name="Benchmark", defaults={"owner": user})
    name = design_name(gpus, args)
    if args.reuse:
        version = (DesignVersion.objects.filter(design__project=project, design__name=name, status="ready")
                   .order_by("-pk").first())
        if version is not None:
            return version, user, None
    Design.objects.filter(project=project, name=name).delete()
    data = design_data(gpus, args)
    started = time.perf_counter()
    with transaction.atomic():
        job = design_create(project=project, user=user, name=name, data=data)
    job.refresh_from_db()  # the task ran when the transaction committed
    seconds = time.perf_counter() - started
    if job.status != "succeeded":
        raise SystemExit(f"generation failed: {job.error}")
    return DesignVersion.objects.get(pk=job.version_id), user, seconds


def _workbook_facts(path: Path) -> dict:
    """The workbook's sheets and each sheet's rows (the <dimension> openpyxl's streaming writer leaves is not
    trusted: rows are counted in the sheet XML), and whether every zip entry reads back (CRC)."""
    import re
    import zipfile

    with zipfile.ZipFile(path) as archive:
        bad = archive.testzip()
        book = archive.read("xl/workbook.xml").decode()
        sheets = re.findall(r'<sheet [^>]*name="([^"]+)"[^>]*r:id="([^"]+)"', book)
        titles = [title for title, _rid in sheets]
        targets = dict(re.findall(r'<Relationship [^>]*Id="([^"]+)"[^>]*Target="([^"]+)"',
                                  archive.read("xl/_rels/workbook.xml.rels").decode()))
        targets |= {rid: target for target, rid in re.findall(
            r'<Relationship [^>]*Target="([^"]+)"[^>]*Id="([^"]+)"', archive.read("xl/_rels/workbook.xml.rels").decode())}
        rows = []
        for _title, rid in sheets:
            count, tail = 0, b""
            with archive.open("xl/" + targets[rid].lstrip("/").removeprefix("xl/")) as raw:
                while chunk := raw.read(1 << 22):
                    count += (tail + chunk).count(b"<row ")
                    tail = chunk[-4:]
            rows.append(count)
    return {"sheets": len(titles), "titles": titles, "sheet_rows": rows, "max_sheet_rows": max(rows, default=0),
            "zip_ok": bad is None}


def _netbox_facts(path: Path) -> dict:
    import zipfile

    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        readme = archive.read("README.txt").decode()
    parted = {}
    for name in names:
        if "-part" in name:
            key = name.split("-", 1)[1].rsplit("-part", 1)[0]
            parted[key] = parted.get(key, 0) + 1
    return {"files": len(names), "parts": parted,
            "readme_links": [line for line in readme.splitlines() if line.startswith(("Links:", "  "))
                             and ("links" in line.lower() or line.startswith("Links:"))][:6]}


def export(kind: str, version_id: int, out: Path) -> dict:
    """In this process: write one export of a version and report its time and this process's peak RSS."""
    from django.contrib.auth import get_user_model

    from apps.designs.models import DesignVersion
    from apps.exports.excel import version_workbook_write
    from apps.exports.netbox import version_netbox_write

    version = DesignVersion.objects.get(pk=version_id)
    user = get_user_model().objects.get(username="bench")
    stages: list[tuple[float, str]] = []
    started = time.perf_counter()

    def progress(stage: str, percent: int) -> None:
        stages.append((round(time.perf_counter() - started, 2), stage))

    rows = None
    if kind == "workbook":
        version_workbook_write(version=version, path_or_stream=str(out), user=user, progress=progress)
    else:
        rows = version_netbox_write(version=version, path_or_stream=str(out), user=user, progress=progress)
    seconds = time.perf_counter() - started
    return {"kind": kind, "seconds": round(seconds, 2), "mb": round(out.stat().st_size / 1e6, 1),
            "rss_mb": round(_max_rss_mb()), "rows": rows, "stages": stages}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    design_arguments(parser)
    parser.add_argument("--only", choices=("workbook", "netbox"), help="one export instead of both")
    parser.add_argument("--keep", metavar="DIR", help="keep the exported files in DIR")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--export", choices=("workbook", "netbox"), help=argparse.SUPPRESS)
    parser.add_argument("--version", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-exports-") as scratch:
        _setup(os.path.join(scratch, "media"))
        if args.export:
            print(json.dumps(export(args.export, args.version, Path(args.out))))
            return 0
        version, _user, generate_s = _version(args.gpus, args)
        out = Path(args.keep) if args.keep else Path(scratch)
        out.mkdir(parents=True, exist_ok=True)
        files = {"workbook": out / f"bench-{args.gpus}.xlsx", "netbox": out / f"bench-{args.gpus}-netbox.zip"}
        summary = version.summary
        result = {
            "gpus": args.gpus,
            "design": version.design.name,
            "servers": summary["servers"],
            "switches": sum(summary["switches"].values()),
            "links": summary["total_links"],
            "networks": sorted(summary.get("networks") or {"backend": {}}),
            "generate_s": round(generate_s, 2) if generate_s is not None else None,
            "load": os.getloadavg()[0],
            "workbook_limit_s": WORKBOOK_LIMIT_S,
            "rss_limit_mb": RSS_LIMIT_MB,
        }
        for kind in ("workbook", "netbox"):
            if args.only and kind != args.only:
                continue
            # A fresh process per export, so the peak RSS is the export's, not the generation's.
            child = subprocess.run([sys.executable, __file__, "--export", kind, "--version", str(version.pk),
                                    "--out", str(files[kind])], capture_output=True, text=True, env={**os.environ})
            if child.returncode:
                raise SystemExit(f"{kind} export failed:\n{child.stderr[-4000:]}")
            result[kind] = json.loads(child.stdout.strip().splitlines()[-1])
            result[kind].update(_workbook_facts(files[kind]) if kind == "workbook" else _netbox_facts(files[kind]))
        result["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['design']}: {result['servers']:,} servers, {result['switches']:,} switches, "
              f"{result['links']:,} links, networks {', '.join(result['networks'])}"
              + (f" (generated in {result['generate_s']} s)" if result["generate_s"] is not None else "")
              + f"; load average {result['load']:.1f} -> {result['load_after']:.1f}")
        print("| export | seconds | MB | peak RSS MB | sheets / files | rows |\n| --- | ---: | ---: | ---: | --- | ---: |")
        if "workbook" in result:
            w = result["workbook"]
            print(f"| workbook (.xlsx) | {w['seconds']} | {w['mb']} | {w['rss_mb']} | {w['sheets']} sheets, "
                  f"largest {w['max_sheet_rows']:,} rows{'' if w['zip_ok'] else ', BAD ZIP'} | "
                  f"{sum(w['sheet_rows']):,} |")
        if "netbox" in result:
            n = result["netbox"]
            print(f"| NetBox (.zip) | {n['seconds']} | {n['mb']} | {n['rss_mb']} | {n['files']:,} files "
                  f"({', '.join(f'{k} {v:,}' for k, v in n['parts'].items())} parts) | {sum(n['rows'].values()):,} |")
            print("README: " + " / ".join(n["readme_links"]))
        for kind in ("workbook", "netbox"):
            if kind in result:
                print(f"{kind} progress: " + ", ".join(f"{stage} @ {at} s" for at, stage in result[kind]["stages"]))
        if "workbook" in result:
            print("sheets: " + ", ".join(f"{t} ({r:,})" for t, r in zip(result["workbook"]["titles"],
                                                                       result["workbook"]["sheet_rows"])))
    ok = all(result[kind]["rss_mb"] < RSS_LIMIT_MB for kind in ("workbook", "netbox") if kind in result)
    if "workbook" in result:
        ok = ok and (args.gpus > 65_536 or result["workbook"]["seconds"] < WORKBOOK_LIMIT_S) and \
            result["workbook"]["zip_ok"] and \
            result["workbook"]["max_sheet_rows"] <= 1_048_576
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
