"""Benchmark: export a 65,536-GPU design version as the Excel workbook and as the NetBox import zip.

    .venv/bin/python bench/bench_exports.py [--gpus N] [--reuse] [--keep DIR] [--json]

Runs against the PostgreSQL database in BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/fabricweb_bench; created and migrated when missing), loads the
seed catalog and generates the version through the designs service (`design_create`, tasks
in-process), as the web app does: DGX H100 servers (8x400G) on the seed's 64x400G QSFP-DD
Tomahawk-4 class switch in 1x400G, 3 tiers. For 65,536 GPUs that is 8,192 servers, 5,120
switches and 196,608 links. Then it times, once each, after the version is ready:

- `workbook s`: apps.exports.excel.version_workbook_write to a file (every sheet);
- `netbox s`: apps.exports.netbox.version_netbox_write to a zip (every CSV file);

and prints the rows and file sizes with the process's peak RSS. --reuse exports the last version
generated with the same inputs instead of generating again. Exit status 1 when the workbook takes
WORKBOOK_LIMIT_S (60 s) or more.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKBOOK_LIMIT_S = 60.0
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fabricweb_bench"
SERVER_SKU = "DGXH-G640F+P2EDI36"  # DGX H100, 8x 400G ConnectX-7
SWITCH_SKU = "DCS-7060DX5-64S"  # 64x400G QSFP-DD, Tomahawk 4


def _max_rss_mb() -> float:
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


def _version(gpus: int, reuse: bool):
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from apps.catalog.models import ServerModel, SwitchModel
    from apps.designs.models import Design, DesignVersion
    from apps.designs.services.design import design_create
    from apps.projects.models import Customer, Project

    user, _ = get_user_model().objects.get_or_create(username="bench")
    customer, _ = Customer.objects.get_or_create(name="Benchmark customer")
    project, _ = Project.objects.get_or_create(customer=customer, name="Benchmark", defaults={"owner": user})
    name = f"{gpus} GPUs"
    if reuse:
        version = (DesignVersion.objects.filter(design__project=project, design__name=name, status="ready")
                   .order_by("-pk").first())
        if version is not None:
            return version, user, None
    Design.objects.filter(project=project, name=name).delete()
    data = {
        "server": ServerModel.objects.get(sku=SERVER_SKU).pk,
        "leaf_switch": SwitchModel.objects.get(sku=SWITCH_SKU).pk,
        "leaf_breakout": "1x400G",
        "tiers": "3",
        "gpus": gpus,
    }
    started = time.perf_counter()
    with transaction.atomic():
        job = design_create(project=project, user=user, name=name, data=data)
    job.refresh_from_db()  # the task ran when the transaction committed
    seconds = time.perf_counter() - started
    if job.status != "succeeded":
        raise SystemExit(f"generation failed: {job.error}")
    return DesignVersion.objects.get(pk=job.version_id), user, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", type=int, default=65_536)
    parser.add_argument("--reuse", action="store_true", help="export the last version with these inputs")
    parser.add_argument("--keep", metavar="DIR", help="keep the exported files in DIR")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-exports-") as scratch:
        _setup(os.path.join(scratch, "media"))
        from apps.exports.excel import version_workbook_write
        from apps.exports.netbox import version_netbox_write

        version, user, generate_s = _version(args.gpus, args.reuse)
        out = Path(args.keep) if args.keep else Path(scratch)
        out.mkdir(parents=True, exist_ok=True)
        workbook = out / f"bench-{args.gpus}.xlsx"
        netbox = out / f"bench-{args.gpus}-netbox.zip"

        stages: list[tuple[float, str]] = []
        started = time.perf_counter()
        version_workbook_write(version=version, path_or_stream=str(workbook), user=user,
                               progress=lambda stage, percent: stages.append((time.perf_counter() - started, stage)))
        workbook_s = time.perf_counter() - started
        started = time.perf_counter()
        rows = version_netbox_write(version=version, path_or_stream=str(netbox), user=user)
        netbox_s = time.perf_counter() - started

        summary = version.summary
        result = {
            "gpus": args.gpus,
            "servers": summary["servers"],
            "switches": sum(summary["switches"].values()),
            "links": summary["total_links"],
            "generate_s": round(generate_s, 2) if generate_s is not None else None,
            "workbook_s": round(workbook_s, 2),
            "workbook_mb": round(workbook.stat().st_size / 1e6, 1),
            "workbook_sheets_s": {stage: round(at, 2) for at, stage in stages},
            "netbox_s": round(netbox_s, 2),
            "netbox_mb": round(netbox.stat().st_size / 1e6, 1),
            "netbox_rows": rows,
            "rss_mb": round(_max_rss_mb()),
            "workbook_limit_s": WORKBOOK_LIMIT_S,
        }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['gpus']:,} GPUs: {result['servers']:,} servers, {result['switches']:,} switches, "
              f"{result['links']:,} links"
              + (f" (generated in {result['generate_s']} s)" if result["generate_s"] is not None else ""))
        print("| export | seconds | MB | rows |\n| --- | ---: | ---: | ---: |")
        print(f"| workbook (.xlsx) | {result['workbook_s']} | {result['workbook_mb']} | "
              f"{2 * result['links'] + 2 * result['switches']:,} data rows |")
        print(f"| NetBox (.zip) | {result['netbox_s']} | {result['netbox_mb']} | {sum(rows.values()):,} CSV rows |")
        print("workbook progress: " + ", ".join(f"{stage} @ {at} s" for stage, at in
                                               result["workbook_sheets_s"].items()))
        print(f"peak RSS {result['rss_mb']} MB; workbook limit {WORKBOOK_LIMIT_S:.0f} s")
    return 0 if result["workbook_s"] < WORKBOOK_LIMIT_S else 1


if __name__ == "__main__":
    sys.exit(main())
