"""Benchmark: the generation stages "traffic" and "roce", and streaming the RoCE configs zip.

    .venv/bin/python bench/bench_analysis.py                  # 5,000 and 65,536 GPUs
    .venv/bin/python bench/bench_analysis.py --gpus 5000 --json

What runs (in this process, tasks eager, against PostgreSQL BENCH_DATABASE, default
fabricweb_bench_analysis on 127.0.0.1, migrated and loaded with the seed catalog):
- per size, design_create -> the generation job runs; every job progress write is timestamped, so
  the "traffic" stage (ring All-Reduce and All-to-All, ECMP and hash-aware, default sampling of
  1,000,000 flows) and the "roce" stage (checklist and headroom) are timed as the job page sees
  them, next to the seconds the analysis itself stored (TrafficAnalysis.seconds, RoceReview.seconds);
- GET /api/versions/{id}/roce/configs.zip through Django's test client, consuming the stream
  chunk by chunk: time to the first byte and to the last, bytes, files, chunks, and the growth of
  the process's resident memory while streaming (sampled per chunk; the zip itself is not kept);
- the rebuild of the Plan from the frozen spec that the zip and on-demand analyses start with.
Design: DGX H100 (8x400G) on 64x400G switches (Tomahawk-4 class), 1:1, tiers automatic.

Exit status 0 when the 5,000-GPU traffic stage takes under 10 s (the issue's limit); 1 otherwise.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
import uuid
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SERVER_SKU = "DGXH-G640F+P2EDI36"
SWITCH_SKU = "DCS-7060DX5-64S"
LIMIT_S = 10.0
PAGE = os.sysconf("SC_PAGE_SIZE")


def _setup(database: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fabricweb.settings")
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{database}"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
    os.environ["CELERY_BROKER_URL"] = ""
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz")
    exists = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc",
                             f"SELECT 1 FROM pg_database WHERE datname='{database}'"],
                            capture_output=True, text=True, check=True).stdout.strip()
    if not exists:
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {database}"], check=True)
    import django

    warnings.filterwarnings("ignore", message="No directory at")  # static files are not collected for a bench
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_seed_catalog", verbosity=0, stdout=io.StringIO())


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 2**20


def _project():
    from apps.projects.models import Customer, Project
    from tests.factories import UserFactory

    user = UserFactory(username=f"bench-{uuid.uuid4().hex[:8]}")
    customer = Customer.objects.create(name=f"Bench {uuid.uuid4().hex[:6]}", created_by=user)
    return user, Project.objects.create(customer=customer, name="Bench analysis", owner=user)


def measure(gpus: int, zip_too: bool) -> dict:
    from django.test import Client
    from django.urls import reverse

    from apps.catalog.models import ServerModel, SwitchModel
    from apps.analysis.models import RoceReview, TrafficAnalysis
    from apps.analysis.selectors import version_plan
    from apps.designs.models import DesignVersion
    from apps.designs.services import design as design_services
    from apps.designs.services import job as job_services
    from apps.designs.services.design import design_create

    user, project = _project()
    marks: list[tuple[str, float]] = []
    real_progress = job_services.job_progress

    def timed(*, job_id, stage, percent):
        if not marks or marks[-1][0] != stage:
            marks.append((stage, time.perf_counter()))
        real_progress(job_id=job_id, stage=stage, percent=percent)

    job_services.job_progress = design_services.job_progress = timed
    data = {"server": ServerModel.objects.get(sku=SERVER_SKU).pk, "leaf_switch": SwitchModel.objects.get(
        sku=SWITCH_SKU).pk, "leaf_breakout": "1x400G", "gpus": gpus}
    started = time.perf_counter()
    try:
        job = design_create(project=project, user=user, name=f"Bench {gpus}", data=data)
    finally:
        job_services.job_progress = design_services.job_progress = real_progress
    total = time.perf_counter() - started
    job.refresh_from_db()
    version = DesignVersion.objects.get(pk=job.version_id)
    assert version.is_ready, job.error

    def stage_s(name: str, after: str) -> float:
        at = {stage: t for stage, t in marks}
        return round(at[after] - at[name], 3)

    traffic = TrafficAnalysis.objects.get(version=version)
    review = RoceReview.objects.get(version=version)
    row = {
        "gpus": gpus, "servers": version.summary["servers"], "tiers": version.summary["tiers"],
        "devices": sum(version.summary["devices"].values()), "generation_s": round(total, 2),
        "stage_traffic_s": stage_s("traffic", "roce"), "stage_roce_s": stage_s("roce", "saving"),
        "traffic_stored_s": traffic.seconds, "roce_stored_s": review.seconds,
        "flows": {p: v["flows"] for p, v in traffic.report["patterns"].items()},
        "sampled": {p: v["sampled"] for p, v in traffic.report["patterns"].items()},
        "effective_bw": {f"{p}/{s}": round(r["effective_bandwidth"], 3) for p, v in traffic.report["patterns"].items()
                         for s, r in v["strategies"].items()},
        "checklist": {"errors": review.errors, "warnings": review.warnings},
    }
    started = time.perf_counter()
    version_plan(version=version)
    row["plan_rebuild_s"] = round(time.perf_counter() - started, 3)

    if zip_too:
        client = Client()
        client.force_login(user)
        base = _rss_mb()
        peak = base
        started = time.perf_counter()
        response = client.get(reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk}))
        first = None
        size = chunks = 0
        tail = b""
        for chunk in response.streaming_content:
            if first is None:
                first = time.perf_counter() - started
            size += len(chunk)
            chunks += 1
            tail = (tail + chunk)[-(1 << 20):]  # keep only the end: the central directory
            peak = max(peak, _rss_mb())
        seconds = time.perf_counter() - started
        files = _count_entries(tail)
        row["zip"] = {"seconds": round(seconds, 2), "first_byte_s": round(first or 0, 3),
                      "mb": round(size / 2**20, 1), "files": files, "chunks": chunks,
                      "rss_growth_mb": round(peak - base, 1)}
    return row


def _count_entries(tail: bytes) -> int:
    """Entries in the zip's central directory, read from its end record (zip64 when needed)."""
    end = tail.rfind(b"PK\x05\x06")
    entries = int.from_bytes(tail[end + 10:end + 12], "little")
    if entries == 0xFFFF:
        locator = tail.rfind(b"PK\x06\x06")
        entries = int.from_bytes(tail[locator + 32:locator + 40], "little")
    return entries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gpus", type=int, action="append", help="sizes (default 5000 and 65536)")
    parser.add_argument("--no-zip", action="store_true", help="skip the zip streaming")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    _setup(os.environ.get("BENCH_DATABASE", "fabricweb_bench_analysis"))
    sizes = args.gpus or [5000, 65536]
    rows = [measure(gpus, zip_too=not args.no_zip and gpus == max(sizes)) for gpus in sizes]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['gpus']:>6,} GPUs  {r['servers']:,} servers, {r['tiers']} tiers, {r['devices']:,} devices: "
                  f"generation {r['generation_s']} s; stage traffic {r['stage_traffic_s']} s "
                  f"(analysis {r['traffic_stored_s']} s), stage roce {r['stage_roce_s']} s "
                  f"(review {r['roce_stored_s']} s); plan rebuild {r['plan_rebuild_s']} s")
            print(f"        flows {r['flows']} sampled {r['sampled']}")
            print(f"        effective bandwidth {r['effective_bw']}; checklist {r['checklist']}")
            if "zip" in r:
                z = r["zip"]
                print(f"        configs.zip: {z['files']:,} files, {z['mb']} MB in {z['seconds']} s "
                      f"(first byte {z['first_byte_s']} s, {z['chunks']} chunks), RSS growth {z['rss_growth_mb']} MB")
    small = [r for r in rows if r["gpus"] <= 5000]
    return 0 if all(r["stage_traffic_s"] < LIMIT_S for r in small) else 1


if __name__ == "__main__":
    sys.exit(main())
