"""Benchmark: the topology API and the first draw in headless Chromium for a 65,536-GPU design.

    .venv/bin/python bench/bench_topology.py [--gpus N] [--reuse] [--repeat N] [--json]

Runs against the PostgreSQL database in BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/fabricweb_bench; created and migrated when missing), loads the
seed catalog and generates the version through the designs service, as the web app does: DGX
H100 servers (8x400G) on the seed's 64x400G Tomahawk-4 class switch in 1x400G, 3 tiers (65,536
GPUs: 8,192 servers, 5,120 switches, 196,608 links). --reuse takes the last version generated
with the same inputs. Then, in this process (cache: local memory, cleared for "cold"):

- `view s`: apps.designs.api.topology.Topology(version).view() alone (queries and Python);
- `api cold / warm ms`: GET /api/versions/{id}/topology/ with an empty cache, then cached
  (median of --repeat);
- `expand pod ms`: GET .../topology/expand/ of a pod's leaves, then its spines;
  `expand switch ms`: a leaf down to its ports;
- `schematic ms`: GET .../topology/schematic/ (SVG) with an empty cache, then in the browser from
  asking for it to having it in the page (cold: the first page load);
- `first draw ms` in headless Chromium (/usr/bin/chromium): from navigation start to the first
  frame cytoscape.js draws of the topology page, served by a threaded WSGI server in this
  process; the first load with an empty cache ("cold"), then the median of --repeat loads;
- `svg export ms`: window.fabricwebExport.viewSvg() of the first view in the page.

Exit status 1 when the cold first draw takes FIRST_DRAW_LIMIT_MS (2,000 ms) or more, the first
view has more than ELEMENT_LIMIT (3,000) elements, the cold schematic takes SCHEMATIC_LIMIT_MS
(1,000 ms) or more in the browser, or the SVG export SVG_EXPORT_LIMIT_MS (2,000 ms) or more.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fabricweb_bench"
SERVER_SKU = "DGXH-G640F+P2EDI36"  # DGX H100, 8x 400G ConnectX-7
SWITCH_SKU = "DCS-7060DX5-64S"  # 64x400G QSFP-DD, Tomahawk 4
CHROMIUM = os.environ.get("FABRICWEB_CHROMIUM", "/usr/bin/chromium")
FIRST_DRAW_LIMIT_MS = 2000
SCHEMATIC_LIMIT_MS = 1000
SVG_EXPORT_LIMIT_MS = 2000
ELEMENT_LIMIT = 3000
PASSWORD = "bench-password-0123"


def _database_ready(url: str) -> None:
    import psycopg
    from psycopg import sql

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _setup() -> None:
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE_URL)
    _database_ready(url)
    os.environ["DATABASE_URL"] = url
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
    os.environ["CELERY_BROKER_URL"] = ""
    os.environ.pop("CACHE_URL", None)  # local memory: "cold" means this process's cache is empty
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fabricweb.settings")
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
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
    from apps.projects.models import Customer, Project, ProjectMembership

    user, _ = get_user_model().objects.get_or_create(username="bench-topology")
    user.set_password(PASSWORD)
    user.save()
    customer, _ = Customer.objects.get_or_create(name="Benchmark customer")
    project, _ = Project.objects.get_or_create(customer=customer, name="Topology benchmark", defaults={"owner": user})
    ProjectMembership.objects.get_or_create(project=project, user=user)
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
    job.refresh_from_db()
    if job.status != "succeeded":
        raise SystemExit(f"generation failed: {job.error}")
    return DesignVersion.objects.get(pk=job.version_id), user, time.perf_counter() - started


def _timed_get(client, url: str, params: dict | None = None) -> tuple[float, dict]:
    started = time.perf_counter()
    response = client.get(url, params or {}, HTTP_ACCEPT="application/json")
    elapsed = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        raise SystemExit(f"GET {url} {params} answered {response.status_code}: {response.content[:300]!r}")
    return elapsed, response.json()


def bench_api(version, user, repeat: int) -> dict:
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from apps.designs.api.topology import Topology
    from apps.designs.models import DeviceRecord

    started = time.perf_counter()
    view = Topology(version).view(expanded=[])
    view_s = time.perf_counter() - started

    client = Client()
    client.force_login(user)
    url = reverse("api-version-topology", kwargs={"pk": version.pk})
    expand = reverse("api-version-topology-expand", kwargs={"pk": version.pk})
    cold = []
    for _ in range(repeat):
        cache.clear()
        ms, first = _timed_get(client, url)
        cold.append(ms)
    warm = [_timed_get(client, url)[0] for _ in range(repeat)]
    pod = 0
    by_pod = {"level": "pod"}  # the first view is the plane level; pods are one choice away
    leaf_ms, _ = _timed_get(client, expand, {**by_pod, "node": f"leaf:p0:pod{pod}"})
    spine_ms, spines = _timed_get(client, expand, {**by_pod, "node": f"spine:p0:pod{pod}",
                                                   "expanded": f"leaf:p0:pod{pod}"})
    leaf = DeviceRecord.objects.filter(version=version, role="leaf").order_by("index").first()
    opened = f"leaf:p0:pod{leaf.pod},leaf:p0:su{leaf.su}"
    _timed_get(client, expand, {**by_pod, "node": f"leaf:p0:su{leaf.su}", "expanded": f"leaf:p0:pod{leaf.pod}"})
    switch_ms, ports = _timed_get(client, expand, {**by_pod, "node": f"dev:{leaf.pk}", "expanded": opened})
    schematic = reverse("api-version-topology-schematic", kwargs={"pk": version.pk})
    cache.clear()
    started = time.perf_counter()
    response = client.get(schematic)
    schematic_ms = (time.perf_counter() - started) * 1000
    if response.status_code != 200:
        raise SystemExit(f"GET {schematic} answered {response.status_code}")
    return {
        "level": first["level"],
        "nodes": first["counts"]["nodes"],
        "edges": first["counts"]["edges"],
        "elements": first["counts"]["nodes"] + first["counts"]["edges"],
        "response_kb": round(len(json.dumps(first)) / 1024),
        "links_drawn": sum(e["data"]["count"] for e in view["elements"]["edges"]),
        "view_s": round(view_s, 3),
        "api_cold_ms": round(statistics.median(cold)),
        "api_warm_ms": round(statistics.median(warm)),
        "expand_pod_ms": round(leaf_ms + spine_ms),
        "expand_pod_elements": spines["counts"]["nodes"] + spines["counts"]["edges"],
        "expand_switch_ms": round(switch_ms),
        "expand_switch_ports": ports["total"],
        "schematic_api_cold_ms": round(schematic_ms),
        "schematic_kb": round(len(response.content) / 1024),
    }


class _ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *args) -> None:
        pass


def _serve():
    from django.core.wsgi import get_wsgi_application

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = make_server("127.0.0.1", port, get_wsgi_application(), server_class=_ThreadingWSGIServer,
                         handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, f"http://127.0.0.1:{port}"


def bench_browser(version, user, repeat: int) -> dict:
    from django.core.cache import cache
    from django.urls import reverse
    from playwright.sync_api import sync_playwright

    server, base = _serve()
    page_url = base + reverse("designs:version-topology",
                              kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})
    probe = """() => {
        const t = window.fabricwebTopology;
        const api = performance.getEntriesByType('resource').find(e => e.name.includes('/topology/?'));
        const nav = performance.getEntriesByType('navigation')[0];
        return {draw: t.firstDrawMs, elements: t.cy.elements().length, api: api ? api.duration : null,
                html: nav.responseEnd, asked: t.timings.askedAtMs, build: t.timings.buildMs};
    }"""
    after = """() => {
        const started = performance.now();
        const svg = window.fabricwebExport.viewSvg();
        return {schematic: window.fabricwebSchematic.drawMs, exportMs: performance.now() - started,
                exportKb: svg.length / 1024};
    }"""
    errors: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            page = context.new_page()
            page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
            page.goto(base + reverse("login"))
            page.fill("input[name=username]", user.username)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_load_state("networkidle")
            runs = []
            cache.clear()
            for _ in range(repeat + 1):
                page.goto(page_url)
                page.wait_for_function("() => window.fabricwebTopology && window.fabricwebTopology.ready === true",
                                       timeout=60_000)
                run = page.evaluate(probe)
                page.wait_for_function("() => window.fabricwebSchematic && window.fabricwebSchematic.ready === true",
                                       timeout=60_000)
                runs.append({**run, **page.evaluate(after)})
            browser.close()
    finally:
        server.shutdown()
    cold, warm = runs[0], runs[1:]
    return {
        "first_draw_cold_ms": round(cold["draw"]),
        "api_in_browser_cold_ms": round(cold["api"] or 0),
        "first_draw_warm_ms": round(statistics.median(r["draw"] for r in warm)),
        "html_ms": round(statistics.median(r["html"] for r in warm)),
        "build_ms": round(statistics.median(r["build"] for r in warm)),
        "drawn_elements": cold["elements"],
        "schematic_cold_ms": round(cold["schematic"]),
        "schematic_warm_ms": round(statistics.median(r["schematic"] for r in warm)),
        "svg_export_ms": round(statistics.median(r["exportMs"] for r in runs)),
        "svg_export_kb": round(cold["exportKb"]),
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
    version, user, generate_s = _version(args.gpus, args.reuse)
    summary = version.summary
    result = {
        "gpus": args.gpus,
        "servers": summary["servers"],
        "switches": sum(summary["switches"].values()),
        "links": summary["total_links"],
        "generate_s": round(generate_s, 1) if generate_s is not None else None,
        **bench_api(version, user, args.repeat),
        **bench_browser(version, user, args.repeat),
        "first_draw_limit_ms": FIRST_DRAW_LIMIT_MS,
    }
    ok = (result["first_draw_cold_ms"] < FIRST_DRAW_LIMIT_MS and result["elements"] <= ELEMENT_LIMIT
          and not result["console_errors"] and result["links_drawn"] == result["links"]
          and result["schematic_cold_ms"] < SCHEMATIC_LIMIT_MS and result["svg_export_ms"] < SVG_EXPORT_LIMIT_MS)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        r = result
        print(f"{r['gpus']:,} GPUs: {r['servers']:,} servers, {r['switches']:,} switches, {r['links']:,} links"
              + (f" (generated in {r['generate_s']} s)" if r["generate_s"] is not None else ""))
        print(f"first view: level {r['level']}, {r['nodes']} nodes + {r['edges']} edges = {r['elements']} elements, "
              f"{r['response_kb']} KB, every link drawn once: {r['links_drawn'] == r['links']}")
        print("| measure | ms |\n| --- | ---: |")
        for label, key in (("Topology.view() (no HTTP)", "view_s"), ("API first view, cold cache", "api_cold_ms"),
                           ("API first view, cached", "api_warm_ms"), ("API open a pod (leaves + spines)",
                                                                       "expand_pod_ms"),
                           ("API open a leaf to its ports", "expand_switch_ms"),
                           ("Chromium first draw, cold cache", "first_draw_cold_ms"),
                           ("Chromium first draw, cached", "first_draw_warm_ms"),
                           ("  of which the HTML page", "html_ms"), ("  of which building the elements", "build_ms"),
                           ("API schematic (SVG), cold cache", "schematic_api_cold_ms"),
                           ("Chromium schematic in the page, cold cache", "schematic_cold_ms"),
                           ("Chromium schematic in the page, cached", "schematic_warm_ms"),
                           ("Chromium SVG export of the first view", "svg_export_ms")):
            value = r[key] * 1000 if key == "view_s" else r[key]
            print(f"| {label} | {value:,.0f} |")
        print(f"limits: cold first draw < {FIRST_DRAW_LIMIT_MS} ms with <= {ELEMENT_LIMIT} elements, schematic < "
              f"{SCHEMATIC_LIMIT_MS} ms, SVG export < {SVG_EXPORT_LIMIT_MS} ms: "
              f"{'ok' if ok else 'FAILED'}" + (f"; console errors: {r['console_errors']}" if r["console_errors"] else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
