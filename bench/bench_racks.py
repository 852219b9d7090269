"""Benchmark: the floor plan and a rack elevation of a 65,536-GPU design, in headless Chromium.

    .venv/bin/python bench/bench_racks.py [--gpus N] [--reuse] [--repeat N] [--json]

Runs against the PostgreSQL database in BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/fabricweb_bench; created and migrated when missing), loads the
seed catalog and generates the version through the designs service, as the web app does: DGX H100
servers (8x400G, 8U, 10.2 kW) on the seed's 64x400G Tomahawk-4 class switch in 1x400G, 3 tiers, racks
of 48U with a 45 kW budget (against typical draw) in a hall of 48 positions per row: 65,536 GPUs are
8,192 servers in 2,048 compute racks plus the network racks. --reuse takes the last version generated
with the same inputs.
Then, served by a threaded WSGI server in this process:

- `hall page ms` (server): GET of the floor plan page (SVG drawn on the server), median of --repeat;
- `floor plan draw ms`: in headless Chromium (/usr/bin/chromium), from navigation start to the page
  painted with the plan fitted (static/js/racks.js: two animation frames after it ran), first load and
  median of --repeat loads; with the number of racks drawn and the page's size;
- `zoom ms`: ten zoom steps of the plan in the page (racks.js `zoom`), each painted;
- `rack page ms` (server) and `rack draw ms` (Chromium, navigation start to painted) of the fullest
  compute rack's elevation page.

Exit status 1 when the floor plan's first draw takes FLOORPLAN_LIMIT_MS (2,000 ms) or more, the rack
elevation page RACK_LIMIT_MS (500 ms) or more in the browser, or the pages log a console error.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The benchmark database, Django set-up and the threaded server are the topology benchmark's.
from bench_topology import CHROMIUM, PASSWORD, _serve, _setup  # noqa: E402

SERVER_SKU = "DGXH-G640F+P2EDI36"  # DGX H100, 8x 400G ConnectX-7, 8U, 10.2 kW
SWITCH_SKU = "DCS-7060DX5-64S"  # 64x400G QSFP-DD, Tomahawk 4
LAYOUT = {"rack_power_kw": 45, "hall": {"positions": 48}}
FLOORPLAN_LIMIT_MS = 2000
RACK_LIMIT_MS = 500


def _version(gpus: int, reuse: bool):
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from apps.catalog.models import ServerModel, SwitchModel
    from apps.designs.models import Design, DesignVersion
    from apps.designs.services.design import design_create
    from apps.projects.models import Customer, Project, ProjectMembership

    user, _ = get_user_model().objects.get_or_create(username="bench-racks")
    user.set_password(PASSWORD)
    user.save()
    customer, _ = Customer.objects.get_or_create(name="Benchmark customer")
    project, _ = Project.objects.get_or_create(customer=customer, name="Racks benchmark", defaults={"owner": user})
    ProjectMembership.objects.get_or_create(project=project, user=user)
    name = f"{gpus} GPUs in a hall"
    if reuse:
        version = (DesignVersion.objects.filter(design__project=project, design__name=name, status="ready",
                                                hall__isnull=False).order_by("-pk").first())
        if version is not None:
            return version, user, None
    Design.objects.filter(project=project, name=name).delete()
    data = {
        "server": ServerModel.objects.get(sku=SERVER_SKU).pk,
        "leaf_switch": SwitchModel.objects.get(sku=SWITCH_SKU).pk,
        "leaf_breakout": "1x400G",
        "tiers": "3",
        "gpus": gpus,
        "layout": LAYOUT,
    }
    started = time.perf_counter()
    with transaction.atomic():
        job = design_create(project=project, user=user, name=name, data=data)
    job.refresh_from_db()
    if job.status != "succeeded":
        raise SystemExit(f"generation failed: {job.error}")
    return DesignVersion.objects.get(pk=job.version_id), user, time.perf_counter() - started




def bench_server(version, user, rack_name: str, repeat: int) -> dict:
    """The pages' server time alone (Django test client in this process)."""
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(user)
    keys = {"project_pk": version.design.project_id, "version_pk": version.pk}
    out = {}
    for key, url in (("hall_page", reverse("racks:hall", kwargs=keys)),
                     ("rack_page", reverse("racks:rack", kwargs={**keys, "name": rack_name}))):
        times = []
        size = 0
        for _ in range(repeat + 1):
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
            if response.status_code != 200:
                raise SystemExit(f"GET {url} answered {response.status_code}")
            size = len(response.content)
        out[f"{key}_server_ms"] = round(statistics.median(times[1:]))
        out[f"{key}_kb"] = round(size / 1024)
    return out


def bench_browser(version, user, rack_name: str, repeat: int) -> dict:
    from django.urls import reverse
    from playwright.sync_api import sync_playwright

    server, base = _serve()
    keys = {"project_pk": version.design.project_id, "version_pk": version.pk}
    hall_url = base + reverse("racks:hall", kwargs=keys)
    rack_url = base + reverse("racks:rack", kwargs={**keys, "name": rack_name})
    probe = """() => ({draw: window.fabricwebRacks.firstDrawMs,
                       racks: document.querySelectorAll('#floorplan svg rect.rack').length,
                       html: performance.getEntriesByType('navigation')[0].responseEnd})"""
    zoom = """async () => {
        const started = performance.now();
        const box = document.querySelector('#floorplan svg').getBoundingClientRect();
        for (let i = 0; i < 10; i++) {
            window.fabricwebRacks.zoom(1.25, box.left + box.width / 2, box.top + box.height / 3);
            await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        }
        return (performance.now() - started) / 10;
    }"""
    errors: list[str] = []
    hall_runs, rack_runs, zoom_ms = [], [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
            page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(base + reverse("login"))
            page.fill("input[name=username]", user.username)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_load_state("networkidle")
            for _ in range(repeat + 1):
                page.goto(hall_url)
                page.wait_for_function("() => window.fabricwebRacks && window.fabricwebRacks.ready", timeout=60_000)
                hall_runs.append(page.evaluate(probe))
                zoom_ms.append(page.evaluate(zoom))
            for _ in range(repeat + 1):
                page.goto(rack_url)
                page.wait_for_function("() => window.fabricwebRacks && window.fabricwebRacks.ready", timeout=60_000)
                rack_runs.append(page.evaluate(probe))
            browser.close()
    finally:
        server.shutdown()
    return {
        "racks_drawn": hall_runs[0]["racks"],
        "floorplan_draw_first_ms": round(hall_runs[0]["draw"]),
        "floorplan_draw_ms": round(statistics.median(r["draw"] for r in hall_runs[1:])),
        "floorplan_html_ms": round(statistics.median(r["html"] for r in hall_runs[1:])),
        "zoom_step_ms": round(statistics.median(zoom_ms)),
        "rack_draw_first_ms": round(rack_runs[0]["draw"]),
        "rack_draw_ms": round(statistics.median(r["draw"] for r in rack_runs[1:])),
        "console_errors": errors,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", type=int, default=65_536)
    parser.add_argument("--reuse", action="store_true", help="use the last version generated with these inputs")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    _setup()
    from apps.racks.models import Hall, Rack

    version, user, generate_s = _version(args.gpus, args.reuse)
    hall = Hall.objects.get(version=version)
    rack = Rack.objects.filter(version=version, kind="compute").order_by("-power_typical_w", "id").first()
    summary = version.summary
    result = {
        "gpus": args.gpus,
        "servers": summary["servers"],
        "switches": sum(summary["switches"].values()),
        "racks": hall.racks,
        "hall": f"{hall.rows} rows x {hall.positions} positions",
        "generate_s": round(generate_s, 1) if generate_s is not None else None,
        "timings_s": summary.get("timings_s"),
        "rack": rack.name,
        **bench_server(version, user, rack.name, args.repeat),
        **bench_browser(version, user, rack.name, args.repeat),
        "floorplan_limit_ms": FLOORPLAN_LIMIT_MS,
        "rack_limit_ms": RACK_LIMIT_MS,
    }
    ok = (result["floorplan_draw_first_ms"] < FLOORPLAN_LIMIT_MS and result["floorplan_draw_ms"] < FLOORPLAN_LIMIT_MS
          and result["rack_draw_ms"] < RACK_LIMIT_MS and result["racks_drawn"] == hall.racks
          and not result["console_errors"])
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        r = result
        print(f"{r['gpus']:,} GPUs: {r['servers']:,} servers, {r['switches']:,} switches, {r['racks']:,} racks in "
              f"{r['hall']}" + (f" (generated in {r['generate_s']} s)" if r["generate_s"] is not None else ""))
        print("| measure | value |\n| --- | ---: |")
        for label, key, unit in (
                ("hall page, server (Django)", "hall_page_server_ms", "ms"), ("hall page size", "hall_page_kb", "KB"),
                ("floor plan drawn in Chromium, first load", "floorplan_draw_first_ms", "ms"),
                ("floor plan drawn in Chromium, median", "floorplan_draw_ms", "ms"),
                ("  of which the HTML received", "floorplan_html_ms", "ms"),
                ("one zoom step, painted", "zoom_step_ms", "ms"),
                ("rack page, server (Django)", "rack_page_server_ms", "ms"), ("rack page size", "rack_page_kb", "KB"),
                ("rack elevation drawn in Chromium, first load", "rack_draw_first_ms", "ms"),
                ("rack elevation drawn in Chromium, median", "rack_draw_ms", "ms")):
            print(f"| {label} | {r[key]:,} {unit} |")
        print(f"limits: floor plan < {FLOORPLAN_LIMIT_MS} ms, rack page < {RACK_LIMIT_MS} ms, every rack drawn: "
              f"{'ok' if ok else 'FAILED'}"
              + (f"; console errors: {r['console_errors']}" if r["console_errors"] else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
