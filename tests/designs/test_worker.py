"""End to end through a REAL Celery worker over the Redis on 127.0.0.1, against the test database.

The worker is a subprocess (`celery -A fabricweb worker`) pointed at pytest's test database;
rows are committed (transactional_db) so it sees them. Each test uses its own queue so no
other worker on the same Redis takes its tasks, and kills its worker at the end.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from apps.designs.models import DesignVersion, DeviceRecord, Job, LinkRecord
from apps.designs.tasks import design_generate_task
from fabricweb.celery import app as celery_app
from tests.designs.conftest import inputs
from tests.factories import UserFactory
from tests.projects.factories import ProjectFactory

pytestmark = [pytest.mark.worker, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).with_name("celery")


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


# The sweep's timings, lowered so a dead worker's job is sent again within seconds, not minutes.
FAST_SWEEP = {
    "FABRICWEB_JOB_HEARTBEAT_SECONDS": "1",
    "FABRICWEB_JOB_STALE_SECONDS": "6",
    "FABRICWEB_JOB_RESEND_SECONDS": "10",
    "FABRICWEB_SWEEP_SECONDS": "2",
}


def _environment(queue: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_RESULT_BACKEND": settings.CELERY_RESULT_BACKEND or settings.CELERY_BROKER_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        **FAST_SWEEP,
    }


class Worker:
    """A celery worker (or, with beat=True, celery beat) subprocess on its own queue, logging to a file."""

    def __init__(self, queue: str, pool: str, *, beat: bool = False):
        self.queue = queue
        self.log = tempfile.NamedTemporaryFile(prefix="celery-worker-", suffix=".log", delete=False)
        if beat:
            self.schedule = Path(tempfile.mkdtemp(prefix="celery-beat-")) / "schedule"
            args = [str(CELERY), "-A", "fabricweb", "beat", "--loglevel=INFO", "--schedule", str(self.schedule)]
        else:
            args = [str(CELERY), "-A", "fabricweb", "worker", "--loglevel=INFO", "-Q", queue, "-n", f"{queue}@%h",
                    "--without-gossip", "--without-mingle", "--without-heartbeat", f"--pool={pool}"]
            if pool == "prefork":
                args.append("--concurrency=1")
        self.process = subprocess.Popen(
            args, cwd=ROOT, env=_environment(queue), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def children(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill(self) -> None:
        """SIGKILL: what an OOM killer or a pulled plug does; nothing gets to clean up."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-6000:]


@pytest.fixture
def worker_factory(transactional_db, monkeypatch):
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("needs CELERY_BROKER_URL pointing at Redis (scripts/test.sh sets it)")
    if connection.vendor != "postgresql":
        pytest.skip("the worker reads the PostgreSQL test database")
    queue = f"fabricweb-test-{uuid.uuid4().hex[:10]}"
    # This process sends real messages to that queue instead of running tasks in-process.
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    # Celery sends to a task's `queue` attribute; its cached exec options must be rebuilt.
    monkeypatch.setattr(design_generate_task, "queue", queue, raising=False)
    monkeypatch.setattr(design_generate_task, "_exec_options", None)
    workers: list[Worker] = []

    def start(pool: str = "solo", *, beat: bool = False) -> Worker:
        worker = Worker(queue, pool, beat=beat)
        workers.append(worker)
        return worker

    try:
        yield start
    finally:
        celery_app.conf.task_always_eager = eager
        for worker in workers:
            worker.kill()
            Path(worker.log.name).unlink(missing_ok=True)


def _wait_for(predicate, *, timeout: float, worker: Worker, what: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if worker.process.poll() is not None:
            pytest.fail(f"worker exited ({worker.process.returncode}) while waiting for {what}:\n{worker.output()}")
        time.sleep(interval)
    pytest.fail(f"timed out waiting for {what}:\n{worker.output()}")


def _client_and_project():
    user = UserFactory()
    project = ProjectFactory(members=[user])
    client = APIClient()
    client.force_authenticate(user)
    return client, project


def _job(client, job_id) -> dict:
    return client.get(reverse("api-job-detail", kwargs={"pk": job_id})).json()


def test_real_worker_generates_a_design_end_to_end(worker_factory, seed):
    worker = worker_factory()
    client, project = _client_and_project()
    response = client.post(
        reverse("api-design-list", kwargs={"project_pk": project.pk}),
        {"name": "Through Redis", **inputs(seed, gpus=512)}, format="json",
    )
    assert response.status_code == 202, response.content
    job_id = response.json()["job"]["id"]
    assert response.json()["job"]["status"] == "queued"  # a real worker, not in-process

    job = _wait_for(lambda: (j := _job(client, job_id))["status"] in ("succeeded", "failed") and j,
                    timeout=120, worker=worker, what="the job to finish")
    assert job["status"] == "succeeded", job
    assert job["celery_task_id"]
    version = DesignVersion.objects.get(pk=job["version"])
    assert version.status == DesignVersion.Status.READY
    assert DeviceRecord.objects.filter(version=version, role="server").count() == 64
    assert LinkRecord.objects.filter(version=version).count() == version.summary["total_links"]


def test_job_whose_worker_process_is_killed_mid_run_is_retried_not_left_running(worker_factory, seed):
    """Prefork pool: SIGKILL the child running the task; acks_late + reject_on_worker_lost redeliver it."""
    worker = worker_factory(pool="prefork")
    client, project = _client_and_project()
    response = client.post(
        reverse("api-design-list", kwargs={"project_pk": project.pk}),
        {"name": "Killed", **inputs(seed, gpus=65_536, leaf_breakout="2x400G")}, format="json",
    )
    assert response.status_code == 202, response.content
    job_id = response.json()["job"]["id"]
    _wait_for(lambda: _job(client, job_id)["status"] == "running", timeout=120, worker=worker,
              what="the job to start", interval=0.05)
    children = _wait_for(worker.children, timeout=10, worker=worker, what="the pool process")
    for pid in children:
        os.kill(pid, signal.SIGKILL)

    seen = set()

    def finished():
        job = _job(client, job_id)
        seen.add(job["status"])
        return job["status"] in ("succeeded", "failed", "lost") and job

    job = _wait_for(finished, timeout=240, worker=worker, what="the redelivered job to finish", interval=0.1)
    assert job["status"] == "succeeded", job
    assert job["attempts"] == 2
    version = DesignVersion.objects.get(pk=job["version"])
    assert DeviceRecord.objects.filter(version=version, role="server").count() == 8192


def test_job_whose_whole_worker_is_killed_mid_save_ends_within_two_minutes_with_no_partial_rows(worker_factory, seed):
    """Solo pool: SIGKILL the whole worker (its process group) while it saves a 65,536-GPU design, then
    start another, as a supervisor would. Redis would keep the unacknowledged message for the visibility
    timeout; the beat sweep sees the heartbeat stop and sends the job again instead."""
    worker = worker_factory(pool="solo")
    beat = worker_factory(beat=True)
    client, project = _client_and_project()
    response = client.post(
        reverse("api-design-list", kwargs={"project_pk": project.pk}),
        {"name": "Pulled plug", **inputs(seed, gpus=65_536, leaf_breakout="2x400G")}, format="json",
    )
    assert response.status_code == 202, response.content
    job_id = response.json()["job"]["id"]
    first_task_id = _wait_for(
        lambda: (j := _job(client, job_id))["stage"].startswith("saving") and j["celery_task_id"],
        timeout=150, worker=worker, what="the job to start saving", interval=0.05,
    )
    worker.kill()
    killed_at = time.monotonic()
    assert Job.objects.get(pk=job_id).status == Job.Status.RUNNING
    replacement = worker_factory(pool="solo")

    seen = set()

    def finished():
        job = _job(client, job_id)
        seen.add(job["status"])
        if beat.process.poll() is not None:
            pytest.fail(f"beat exited:\n{beat.output()}")
        return job["status"] in ("succeeded", "failed", "lost") and job

    job = _wait_for(finished, timeout=120, worker=replacement, what="the job to end after the kill", interval=0.2)
    elapsed = time.monotonic() - killed_at
    assert elapsed < 120, elapsed
    assert job["status"] in ("succeeded", "failed"), job
    # Started again by the sweep. "retrying" shows only until the new worker takes the message, which on a
    # busy machine can fall between two polls, so the attempts tell it instead.
    assert job["attempts"] >= 2 or "retrying" in seen, (job, seen)
    assert job["celery_task_id"] != first_task_id
    version = DesignVersion.objects.get(pk=job["version"])
    devices = DeviceRecord.objects.filter(version=version).count()
    links = LinkRecord.objects.filter(version=version).count()
    if job["status"] == "succeeded":
        assert job["attempts"] == 2
        assert version.status == DesignVersion.Status.READY
        assert devices == sum(version.summary["devices"].values())
        assert links == version.summary["total_links"]
        assert DeviceRecord.objects.filter(version=version, role="server").count() == 8192
    else:
        assert (devices, links) == (0, 0)
        assert version.status == DesignVersion.Status.FAILED
