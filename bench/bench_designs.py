"""Benchmark design generation from API request to job done, through a real server and worker.

    .venv/bin/python bench/bench_designs.py                 # 5,000 and 65,536 GPUs
    .venv/bin/python bench/bench_designs.py --gpus 16384 --repeat 3
    .venv/bin/python bench/bench_designs.py --networks none   # the backend alone

What runs (nothing in-process but the HTTP client and the bookkeeping):
- PostgreSQL database BENCH_DATABASE (default fabricweb_bench on 127.0.0.1), migrated, with the
  seed catalog; Redis on 127.0.0.1 (BENCH_BROKER_URL, default db 12) as the broker;
- a gunicorn web server and a `celery worker --pool=solo` on a queue of its own;
- per size: POST /api/projects/{id}/designs/ (token auth), then GET /api/jobs/{id}/ every 50 ms
  until the job is finished.

Printed per size: devices, links, ports; "total" = API request to job done as the client sees it;
the job's own plan and save times (save = every row written with COPY inside the transaction);
and "persist+commit" = the same plan's rows written again in this process in a fresh
transaction, committed (then deleted), i.e. the persistence cost alone.
Design: DGX H100 (8x400G) on 64x400G switches (Tomahawk-4 class), 1:1, tiers automatic; with
--networks all (the default) also the front-end (2 ports per server) and a storage fabric (2 ports
per server, one storage node per 20 servers with 2 ports) on SN5600 in 2x400G, and a 48-port 1G
management switch per rack. Then, per network, "topo <network> ms" = GET /api/versions/{id}/topology/
?network=... (the first view, cold: nothing cached yet), the request the topology page's first draw waits on,
and "draw <network> ms" = the topology page's first draw in headless Chromium (/usr/bin/chromium, or
FABRICWEB_CHROMIUM) opened on that network (?network=...), from navigation start to cytoscape's first frame.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BIN = Path(sys.executable).parent

CHROMIUM = os.environ.get("FABRICWEB_CHROMIUM", "/usr/bin/chromium")
FIRST_DRAW_LIMIT_MS = 2000
PASSWORD = "bench-designs-password-0123"
SERVER_SKU = "DGXH-G640F+P2EDI36"
SWITCH_SKU = "DCS-7060DX5-64S"
NETWORK_SWITCH_SKU = "920-9N42F-00RI-7C0"  # SN5600, 2x400G for the front-end and storage fabrics


def _env(database: str, broker: str, queue: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fabricweb.settings",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": broker,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "DJANGO_DEBUG": "false",
        "DJANGO_LOG_LEVEL": "WARNING",
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_ready(database: str) -> None:
    exists = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc", f"SELECT 1 FROM pg_database WHERE datname='{database}'"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    if exists != "1":
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {database}"], check=True)


class Api:
    def __init__(self, base: str, token: str):
        self.base, self.token = base, token

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": f"Token {self.token}", "Content-Type": "application/json", "Accept": "application/json",
        })
        try:
            with urllib.request.urlopen(request, timeout=600) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


def _wait_http(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return  # answering (401 is fine)
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server at {url} did not start")


def first_draws(base: str, username: str, page_url: str, networks: list[str]) -> dict[str, float]:
    """The topology page's first draw (ms from navigation start) per network, in headless Chromium."""
    from playwright.sync_api import sync_playwright

    out: dict[str, float] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
        page.goto(base + "/accounts/login/")  # fabricweb/urls.py "login"
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_load_state("networkidle")
        for network in networks:
            page.goto(f"{page_url}?network={network}")
            page.wait_for_function("() => window.fabricwebTopology && window.fabricwebTopology.ready === true",
                                   timeout=60_000)
            out[network] = page.evaluate("() => window.fabricwebTopology.firstDrawMs")
        browser.close()
    return out


def _peak_reset(pid: int) -> None:
    """Reset the process's peak RSS (VmHWM) so the next reading is this job's (Linux: clear_refs "5")."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        pass


def _peak_mb(pid: int) -> float:
    """The process's peak resident set since the last reset, MB (VmHWM in /proc/<pid>/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gpus", type=int, nargs="+", default=[5000, 65536])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--networks", choices=("all", "none"), default="all",
                        help="all: front-end, storage and out-of-band networks beside the backend (default)")
    parser.add_argument("--database", default=os.environ.get("BENCH_DATABASE", "fabricweb_bench"))
    parser.add_argument("--broker", default=os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/12"))
    parser.add_argument("--switch", default=SWITCH_SKU, help=f"backend switch SKU (default {SWITCH_SKU})")
    parser.add_argument("--breakout", default="1x400G", help="backend switch breakout (default 1x400G)")
    parser.add_argument("--planes", type=int, default=None, help="backend planes (default: the form's)")
    parser.add_argument("--no-persist", action="store_true",
                        help="skip the persistence-alone measure (it plans again in this process)")
    parser.add_argument("--no-draw", action="store_true", help="skip the first draw in Chromium")
    parser.add_argument("--port", type=int, default=0,
                        help="the web server's port (default: a free one; on a shared machine, one of your own)")
    args = parser.parse_args()

    queue = f"fabricweb-bench-{uuid.uuid4().hex[:8]}"
    env = _env(args.database, args.broker, queue)
    os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CELERY_BROKER_URL",
                                             "CELERY_RESULT_BACKEND", "CELERY_TASK_ALWAYS_EAGER",
                                             "CELERY_TASK_DEFAULT_QUEUE")})
    _database_ready(args.database)
    python = str(BIN / "python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "manage.py", "load_seed_catalog", "-v0"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.urls import reverse
    from rest_framework.authtoken.models import Token

    from apps.catalog.models import ServerModel, SwitchModel
    from apps.designs.models import Design, DesignVersion, DeviceRecord, LinkRecord, PortRecord
    from apps.designs.persistence import version_records_write
    from apps.designs.persistence_networks import network_records_write
    from apps.designs.services.design import version_spec
    from apps.engine.networks.cluster import plan_cluster
    from apps.projects.services import customer_get_or_create, project_create

    user, _ = get_user_model().objects.get_or_create(username="bench")
    user.set_password(PASSWORD)
    user.save()
    token, _ = Token.objects.get_or_create(user=user)
    project = user.projects_owned.filter(name="Benchmark").first() or project_create(
        customer=customer_get_or_create(name="Benchmark customer", created_by=user), name="Benchmark", owner=user,
    )
    server = ServerModel.objects.get(sku=SERVER_SKU)
    switch = SwitchModel.objects.get(sku=args.switch)
    sn5600 = SwitchModel.objects.get(sku=NETWORK_SWITCH_SKU)

    def pools(gpus: int) -> dict:
        # The default /12 host and point-to-point pools hold up to 262,144 NIC ports and 524,288
        # switch links; larger designs get /10 pools (4,194,304 addresses each).
        if gpus <= 262_144:
            return {}
        return {"pools": {"host": "10.0.0.0/10", "p2p": "10.64.0.0/10", "loopback": "10.128.0.0/16"}}

    def networks(gpus: int) -> dict:
        if args.networks == "none":
            return {}
        servers = -(-gpus // server.gpus)
        wide = gpus > 262_144  # beside the backend's /10 pools (pools()), pools of their own that hold them
        return {"networks": {
            "frontend": {"switch": sn5600.pk, "breakout": "2x400G", "ports_per_server": 2,
                         **({"pools": {"host": "10.192.0.0/12", "p2p": "10.208.0.0/12", "loopback": "10.224.0.0/16"}}
                            if wide else {})},
            "storage": {"mode": "fabric", "switch": sn5600.pk, "breakout": "2x400G", "nodes": max(1, servers // 20),
                        "ports_per_node": 2, "ports_per_server": 2,
                        **({"pools": {"host": "100.64.0.0/12", "p2p": "100.96.0.0/11", "loopback": "100.80.0.0/16"}}
                           if wide else {})},
            "oob": {"ports": 48, "gbps": 1,
                    **({"pools": {"host": "172.16.0.0/13", "p2p": "172.24.0.0/14"}}
                       if wide else {})},
        }}

    logs = tempfile.mkdtemp(prefix="fabricweb-bench-")
    port = args.port or _free_port()
    processes = [
        subprocess.Popen([str(BIN / "gunicorn"), "fabricweb.wsgi:application", "--bind", f"127.0.0.1:{port}",
                          "--workers", "2", "--timeout", "600"], cwd=ROOT, env=env,
                         stdout=open(f"{logs}/web.log", "w"), stderr=subprocess.STDOUT, start_new_session=True),
        subprocess.Popen([str(BIN / "celery"), "-A", "fabricweb", "worker", "--pool=solo", "-Q", queue,
                          "-n", f"{queue}@%h", "--loglevel=WARNING", "--without-gossip", "--without-mingle"],
                         cwd=ROOT, env=env, stdout=open(f"{logs}/worker.log", "w"), stderr=subprocess.STDOUT,
                         start_new_session=True),
    ]
    api = Api(f"http://127.0.0.1:{port}", token.key)
    rows = []
    try:
        _wait_http(f"http://127.0.0.1:{port}/api/me/", 60)
        for gpus in args.gpus:
            for attempt in range(args.repeat):
                name = f"bench {gpus} #{attempt} {uuid.uuid4().hex[:6]}"
                worker_pid = processes[1].pid
                _peak_reset(worker_pid)
                started = time.perf_counter()
                status, body = api.call("POST", f"/api/projects/{project.pk}/designs/", {
                    "name": name, "server": server.pk, "leaf_switch": switch.pk, "leaf_breakout": args.breakout,
                    "gpus": gpus, **({"planes": args.planes} if args.planes else {}), **pools(gpus), **networks(gpus),
                })
                accepted = time.perf_counter()
                if status != 202:
                    raise SystemExit(f"create answered {status}: {body}")
                job_id = body["job"]["id"]
                while True:
                    _status, job = api.call("GET", f"/api/jobs/{job_id}/")
                    if job["status"] in ("succeeded", "failed", "lost"):
                        break
                    time.sleep(0.05)
                done = time.perf_counter()
                worker_peak_mb = _peak_mb(worker_pid)
                if job["status"] != "succeeded":
                    raise SystemExit(f"job {job_id} {job['status']}: {job['error']}\nlogs in {logs}")
                version = DesignVersion.objects.get(pk=job["version"])
                timings = version.summary.get("timings_s", {})
                topology_ms = {}
                for network in version.summary.get("networks") or {"backend": {}}:
                    t_topo = time.perf_counter()
                    code, view = api.call("GET", f"/api/versions/{version.pk}/topology/?network={network}")
                    if code != 200:
                        raise SystemExit(f"topology {network} answered {code}: {view}")
                    topology_ms[network] = (time.perf_counter() - t_topo) * 1000
                page = reverse("designs:version-topology", kwargs={"project_pk": project.pk, "version_pk": version.pk})
                draws = {} if args.no_draw else first_draws(
                    f"http://127.0.0.1:{port}", user.username, f"http://127.0.0.1:{port}{page}", list(topology_ms))

                # Persistence alone: the same plan written again into a scratch version, committed.
                persist = None
                if not args.no_persist:
                    plan = plan_cluster(version_spec(version=version))
                    scratch = DesignVersion.objects.get(pk=version.pk)
                    scratch.pk, scratch.number, scratch.status = None, version.number + 1000, DesignVersion.Status.QUEUED
                    scratch.save()
                    t0 = time.perf_counter()
                    with transaction.atomic():
                        version_records_write(version=scratch, plan=plan)
                        network_records_write(version_id=scratch.pk, plan=plan)
                    persist = time.perf_counter() - t0
                    scratch.delete()
                    del plan

                rows.append({
                    "gpus": gpus,
                    "devices": DeviceRecord.objects.filter(version=version).count(),
                    "links": LinkRecord.objects.filter(version=version).count(),
                    "ports": PortRecord.objects.filter(version=version).count(),
                    "accept_s": accepted - started,
                    "total_s": done - started,
                    "plan_s": timings.get("plan"),
                    "save_s": timings.get("save"),
                    "persist_commit_s": persist,
                    "worker_peak_mb": worker_peak_mb,
                    "timings": timings,
                    "topology_ms": topology_ms,
                    "draw_ms": draws,
                })
                Design.objects.filter(pk=version.design_id).delete()
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        connection.close()

    print(f"\nfabricweb design generation, API request -> job done ({os.cpu_count()} CPUs, PostgreSQL, "
          f"Redis, gunicorn + celery solo worker)")
    header = ("GPUs", "devices", "links", "ports", "202 in s", "total s", "plan s", "save s", "persist+commit s",
              "worker peak MB")
    print(" | ".join(f"{h:>16}" for h in header))
    for row in rows:
        values = (row["gpus"], row["devices"], row["links"], row["ports"], f"{row['accept_s']:.2f}",
                  f"{row['total_s']:.2f}", f"{row['plan_s']:.2f}", f"{row['save_s']:.2f}",
                  "-" if row["persist_commit_s"] is None else f"{row['persist_commit_s']:.2f}",
                  f"{row['worker_peak_mb']:.0f}")
        print(" | ".join(f"{v:>16}" for v in values))
        print("    job stages s: " + ", ".join(f"{k} {v:.2f}" for k, v in row["timings"].items()
                                                if isinstance(v, (int, float))))
        print("    topology first view (API, cold): " + ", ".join(
            f"{k} {v:.0f} ms" for k, v in row["topology_ms"].items()))
        print("    topology first draw (Chromium): " + ", ".join(
            f"{k} {v:.0f} ms" for k, v in row["draw_ms"].items())
              + f"  (limit {FIRST_DRAW_LIMIT_MS} ms: "
              + ("ok" if all(v < FIRST_DRAW_LIMIT_MS for v in row["draw_ms"].values()) else "FAILED") + ")")
    print(f"(server and worker logs: {logs})")


if __name__ == "__main__":
    main()
