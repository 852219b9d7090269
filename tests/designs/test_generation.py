"""Generation jobs: progress, failures that leave nothing behind, lost workers, immutability."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from apps.designs import persistence
from apps.designs.models import BomLineRecord, DesignVersion, DeviceRecord, Job, LinkRecord, PortRecord
from apps.designs.services import design as design_services
from apps.designs.services.design import design_create, version_spec
from apps.designs.services.job import MAX_ATTEMPTS, MAX_SENDS, JobProgress, job_heartbeat, jobs_sweep
from apps.designs.tasks import SOFT_TIME_LIMIT, design_generate_task
from apps.engine import plan as engine_plan
from apps.engine.spec import InfeasibleSpec
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued_job(project, member, seed, django_capture_on_commit_callbacks):
    """A created design whose generation has not run yet (the on-commit enqueue is held back)."""
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = design_create(project=project, user=member, name="Held", data=inputs(seed, gpus=64))
    assert len(callbacks) == 1
    return job


def deliver(job: Job):
    """Run the task as the broker would deliver the job's message (under the task id the job recorded)."""
    return design_generate_task.apply(args=[job.pk], task_id=Job.objects.get(pk=job.pk).celery_task_id)


def rows_of(version) -> int:
    return sum(
        model.objects.filter(version=version).count()
        for model in (DeviceRecord, LinkRecord, PortRecord, BomLineRecord)
    )


def test_generation_marks_job_succeeded_and_version_ready(queued_job):
    assert queued_job.status == Job.Status.QUEUED
    assert queued_job.version.status == DesignVersion.Status.QUEUED
    deliver(queued_job)
    job = Job.objects.get(pk=queued_job.pk)
    assert (job.status, job.percent, job.attempts) == (Job.Status.SUCCEEDED, 100, 1)
    assert job.started_at and job.finished_at and job.finished_at >= job.started_at
    version = job.version
    assert version.status == DesignVersion.Status.READY
    assert version.generated_at is not None
    assert version.summary["servers"] == 8
    assert DeviceRecord.objects.filter(version=version, role="server").count() == 8


def test_a_failed_save_leaves_no_rows_and_says_why(queued_job, monkeypatch, member_client):
    real_write = persistence.table_write

    def fail_on_ports(table):
        if table.model is PortRecord:
            raise RuntimeError("disk full while writing ports")
        real_write(table)

    monkeypatch.setattr(persistence, "table_write", fail_on_ports)
    deliver(queued_job)

    job = member_client.get(reverse("api-job-detail", kwargs={"pk": queued_job.pk})).json()
    assert job["status"] == "failed"
    assert "disk full while writing ports" in job["error"]
    version = DesignVersion.objects.get(pk=queued_job.version_id)
    assert version.status == DesignVersion.Status.FAILED
    assert version.summary == {}
    assert rows_of(version) == 0


def test_engine_refusal_fails_the_job_with_the_message_on_the_input(queued_job, monkeypatch, member_client):
    def refuse(spec, *, progress=None):
        progress("topology", 10)
        raise InfeasibleSpec({"leaf.ports": ["64 ports cannot reach 70 leaves per plane"]})

    monkeypatch.setattr(engine_plan, "plan", refuse)
    deliver(queued_job)

    job = member_client.get(reverse("api-job-detail", kwargs={"pk": queued_job.pk})).json()
    assert job["status"] == "failed"
    assert "64 ports cannot reach 70 leaves per plane" in job["error"]
    assert job["error_fields"] == {"leaf_switch": ["64 ports cannot reach 70 leaves per plane"]}
    assert rows_of(queued_job.version) == 0


def test_soft_time_limit_fails_the_job_naming_the_limit(queued_job, monkeypatch):
    def too_slow(spec, *, progress=None):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(engine_plan, "plan", too_slow)
    deliver(queued_job)
    job = Job.objects.get(pk=queued_job.pk)
    assert job.status == Job.Status.FAILED
    assert f"longer than {SOFT_TIME_LIMIT} s" in job.error
    assert job.version.status == DesignVersion.Status.FAILED


def test_progress_is_written_to_the_job_while_planning(queued_job, monkeypatch):
    seen = []
    real_plan = engine_plan.plan

    def watched(spec, *, progress=None):
        def report(stage, percent):
            progress(stage, percent)
            job = Job.objects.get(pk=queued_job.pk)
            seen.append((job.status, job.stage, job.percent))

        return real_plan(spec, progress=report)

    monkeypatch.setattr(engine_plan, "plan", watched)
    deliver(queued_job)
    assert seen, "the engine reported no progress"
    assert all(status == Job.Status.RUNNING for status, _, _ in seen)
    stages = [stage for _, stage, _ in seen]
    assert {"topology", "cabling", "addressing"} <= set(stages)
    percents = [percent for _, _, percent in seen]
    assert percents == sorted(percents) and 0 < max(percents) < 100


def test_progress_writes_are_throttled_within_a_stage(queued_job):
    Job.objects.filter(pk=queued_job.pk).update(status=Job.Status.RUNNING)
    progress = JobProgress(queued_job.pk, interval_s=60)
    progress("cabling", 10)
    progress("cabling", 50)  # same stage, too soon: not written
    assert Job.objects.get(pk=queued_job.pk).percent == 10
    progress("bom", 70)  # a new stage is written at once
    job = Job.objects.get(pk=queued_job.pk)
    assert (job.stage, job.percent) == ("bom", 70)
    assert job.heartbeat_at is not None


def _stale(seconds_over: int = 5):
    from django.conf import settings

    return timezone.now() - timedelta(seconds=settings.FABRICWEB_JOB_STALE_SECONDS + seconds_over)


def test_polling_a_running_job_without_heartbeat_changes_nothing(queued_job, member_client):
    """The periodic sweep repairs jobs, not whoever polls."""
    Job.objects.filter(pk=queued_job.pk).update(status=Job.Status.RUNNING, started_at=_stale(), heartbeat_at=_stale())
    job = member_client.get(reverse("api-job-detail", kwargs={"pk": queued_job.pk})).json()
    assert job["status"] == "running"


def test_the_sweep_sends_again_a_running_job_whose_heartbeat_stopped_and_it_finishes(queued_job):
    old_task_id = Job.objects.get(pk=queued_job.pk).celery_task_id
    Job.objects.filter(pk=queued_job.pk).update(
        status=Job.Status.RUNNING, attempts=1, started_at=_stale(), heartbeat_at=_stale(), stage="saving", percent=90
    )
    DesignVersion.objects.filter(pk=queued_job.version_id).update(status=DesignVersion.Status.GENERATING)

    assert jobs_sweep()["requeued"] == 1  # in-process mode: the new message runs at once

    job = Job.objects.get(pk=queued_job.pk)
    assert (job.status, job.attempts) == (Job.Status.SUCCEEDED, 2)
    assert job.celery_task_id != old_task_id
    assert DesignVersion.objects.get(pk=queued_job.version_id).status == DesignVersion.Status.READY
    assert DeviceRecord.objects.filter(version=job.version).count() > 0


def test_the_dead_workers_message_redelivered_after_the_resend_does_nothing(queued_job, monkeypatch):
    sent = []
    monkeypatch.setattr(design_generate_task, "apply_async", lambda args, task_id, **kw: sent.append(task_id))
    old_task_id = Job.objects.get(pk=queued_job.pk).celery_task_id
    Job.objects.filter(pk=queued_job.pk).update(
        status=Job.Status.RUNNING, attempts=1, started_at=_stale(), heartbeat_at=_stale()
    )
    jobs_sweep()
    job = Job.objects.get(pk=queued_job.pk)
    assert job.status == Job.Status.RETRYING
    assert "stopped reporting" in job.error
    assert sent == [job.celery_task_id]
    monkeypatch.undo()

    # Redis gives the dead worker's message back after the visibility timeout: it is stale.
    result = design_generate_task.apply(args=[queued_job.pk], task_id=old_task_id).get()
    assert result["status"] == "superseded"
    assert Job.objects.get(pk=queued_job.pk).status == Job.Status.RETRYING
    assert rows_of(queued_job.version) == 0

    deliver(queued_job)
    assert Job.objects.get(pk=queued_job.pk).status == Job.Status.SUCCEEDED


def test_a_running_job_whose_worker_died_too_often_is_declared_lost(queued_job, member_client):
    Job.objects.filter(pk=queued_job.pk).update(
        status=Job.Status.RUNNING, attempts=MAX_ATTEMPTS, started_at=_stale(), heartbeat_at=_stale()
    )
    DesignVersion.objects.filter(pk=queued_job.version_id).update(status=DesignVersion.Status.GENERATING)

    assert jobs_sweep()["lost"] == 1

    job = member_client.get(reverse("api-job-detail", kwargs={"pk": queued_job.pk})).json()
    assert job["status"] == "lost"
    assert "stopped reporting" in job["error"]
    assert job["finished_at"]
    assert DesignVersion.objects.get(pk=queued_job.version_id).status == DesignVersion.Status.FAILED


def test_a_running_job_with_a_fresh_heartbeat_is_left_running(queued_job):
    Job.objects.filter(pk=queued_job.pk).update(
        status=Job.Status.RUNNING, started_at=timezone.now(), heartbeat_at=timezone.now()
    )
    assert jobs_sweep() == {"resent": 0, "failed": 0, "requeued": 0, "lost": 0}
    assert Job.objects.get(pk=queued_job.pk).status == Job.Status.RUNNING


def test_a_lost_job_delivered_again_stays_lost_and_saves_nothing(queued_job):
    Job.objects.filter(pk=queued_job.pk).update(
        status=Job.Status.RUNNING, attempts=MAX_ATTEMPTS, heartbeat_at=_stale(), started_at=_stale()
    )
    jobs_sweep()
    deliver(queued_job)
    assert Job.objects.get(pk=queued_job.pk).status == Job.Status.LOST
    assert rows_of(queued_job.version) == 0


def test_a_queued_job_whose_message_never_reached_the_broker_is_sent_by_the_sweep(queued_job, settings):
    # The publish after the commit failed (the broker went away in between): nothing is in the queue.
    Job.objects.filter(pk=queued_job.pk).update(
        sent_at=None, created_at=timezone.now() - timedelta(seconds=settings.FABRICWEB_JOB_RESEND_SECONDS + 5)
    )
    assert jobs_sweep()["resent"] == 1
    job = Job.objects.get(pk=queued_job.pk)
    assert job.status == Job.Status.SUCCEEDED
    assert job.sends == 2


def test_a_queued_job_still_waiting_in_the_broker_is_left_alone(queued_job, settings, monkeypatch):
    task_id = Job.objects.get(pk=queued_job.pk).celery_task_id
    Job.objects.filter(pk=queued_job.pk).update(
        sent_at=timezone.now() - timedelta(seconds=settings.FABRICWEB_JOB_RESEND_SECONDS + 5)
    )
    monkeypatch.setattr("apps.designs.services.job.queue_waiting_task_ids", lambda: {task_id})
    assert jobs_sweep()["resent"] == 0
    assert Job.objects.get(pk=queued_job.pk).status == Job.Status.QUEUED


def test_a_queued_job_the_broker_lost_too_often_is_failed_with_a_message(queued_job, settings, member_client):
    Job.objects.filter(pk=queued_job.pk).update(
        sends=MAX_SENDS, sent_at=timezone.now() - timedelta(seconds=settings.FABRICWEB_JOB_RESEND_SECONDS + 5)
    )
    assert jobs_sweep()["failed"] == 1
    job = member_client.get(reverse("api-job-detail", kwargs={"pk": queued_job.pk})).json()
    assert job["status"] == "failed"
    assert "No worker received this job" in job["error"]
    assert DesignVersion.objects.get(pk=queued_job.version_id).status == DesignVersion.Status.FAILED
    assert rows_of(queued_job.version) == 0


def test_a_job_redelivered_after_its_worker_died_is_retried_from_scratch(queued_job, monkeypatch):
    # The first delivery's worker died mid-run: the row still says running, attempt 1.
    Job.objects.filter(pk=queued_job.pk).update(
        status=Job.Status.RUNNING, attempts=1, started_at=timezone.now(), heartbeat_at=timezone.now(),
        stage="cabling", percent=40,
    )
    statuses = []
    real = design_services.design_version_generate

    def spy(*, job_id, celery_task_id=""):
        statuses.append(Job.objects.get(pk=job_id).status)
        return real(job_id=job_id, celery_task_id=celery_task_id)

    monkeypatch.setattr("apps.designs.tasks.design_version_generate", spy)
    deliver(queued_job)

    assert statuses == [Job.Status.RETRYING]
    job = Job.objects.get(pk=queued_job.pk)
    assert (job.status, job.attempts) == (Job.Status.SUCCEEDED, 2)
    assert DeviceRecord.objects.filter(version=job.version).count() > 0


def test_a_job_whose_worker_keeps_dying_is_failed(queued_job):
    Job.objects.filter(pk=queued_job.pk).update(status=Job.Status.RUNNING, attempts=3)
    deliver(queued_job)
    job = Job.objects.get(pk=queued_job.pk)
    assert job.status == Job.Status.FAILED
    assert "lost 3 times" in job.error
    assert rows_of(job.version) == 0


def test_a_generated_version_refuses_input_changes(queued_job):
    version = DesignVersion.objects.get(pk=queued_job.version_id)
    version.gpus = 128  # still queued: allowed
    version.save()
    deliver(queued_job)
    version = DesignVersion.objects.get(pk=queued_job.version_id)
    assert version.status == DesignVersion.Status.READY
    version.gpus = 4096
    with pytest.raises(ValidationError) as error:
        version.save()
    assert "gpus" in error.value.message_dict
    assert DesignVersion.objects.get(pk=version.pk).gpus == 128


def test_saved_rows_match_the_plan_port_to_port(queued_job):
    deliver(queued_job)
    version = DesignVersion.objects.get(pk=queued_job.version_id)
    plan = engine_plan.plan(version_spec(version=version))
    devices = {d.index: d for d in DeviceRecord.objects.filter(version=version)}
    assert [devices[i].name for i in range(len(plan.devices))] == [d.name for d in plan.devices]
    links = list(LinkRecord.objects.filter(version=version).order_by("index"))
    assert len(links) == len(plan.links)
    for link in links:
        i = link.index
        assert devices[plan.links.a_dev[i]].pk == link.a_device_id
        assert devices[plan.links.b_dev[i]].pk == link.b_device_id
        assert link.tier == plan.links.tier[i]
        assert link.medium == plan.media[plan.links.medium[i]].key
        assert link.label_a == f"{devices[plan.links.a_dev[i]].name}:{link.a_port} > " \
                               f"{devices[plan.links.b_dev[i]].name}:{link.b_port}"
    ports = list(PortRecord.objects.filter(version=version))
    assert len(ports) == 2 * len(links)
    assert len({(p.device_id, p.number) for p in ports}) == len(ports)
    by_link = {link.pk: link for link in links}
    for port in ports:
        link = by_link[port.link_id]
        assert (port.device_id, port.name) in {(link.a_device_id, link.a_port), (link.b_device_id, link.b_port)}
    switches = [d for d in devices.values() if d.role != "server"]
    assert all(d.loopback and d.asn for d in switches)
    server_link = next(link for link in links if link.tier == 0)
    assert server_link.subnet.endswith("/31") and server_link.a_ip != server_link.b_ip


def test_rows_written_without_copy_equal_the_copy_rows(project, member, seed, monkeypatch,
                                                      django_capture_on_commit_callbacks):
    """The executemany path (SQLite, the first-run default) writes the same rows as COPY."""
    def generated(name):
        with django_capture_on_commit_callbacks(execute=True):
            job = design_create(project=project, user=member, name=name, data=inputs(seed, gpus=64))
        return DesignVersion.objects.get(pk=job.version_id)

    copied = generated("With COPY")
    monkeypatch.setattr(connection, "vendor", "sqlite")
    inserted = generated("With INSERT")
    fields = ["index", "tier", "a_port", "b_port", "plane", "rail", "pod", "medium", "length_m", "label_a", "subnet",
              "a_ip", "b_ip"]
    assert list(LinkRecord.objects.filter(version=copied).order_by("index").values_list(*fields)) == list(
        LinkRecord.objects.filter(version=inserted).order_by("index").values_list(*fields))
    device_fields = ["index", "name", "role", "plane", "pod", "su", "rail", "asn", "loopback"]
    assert list(DeviceRecord.objects.filter(version=copied).order_by("index").values_list(*device_fields)) == list(
        DeviceRecord.objects.filter(version=inserted).order_by("index").values_list(*device_fields))
    assert PortRecord.objects.filter(version=inserted).count() == PortRecord.objects.filter(version=copied).count()


def test_deleting_a_version_deletes_its_rows(queued_job):
    deliver(queued_job)
    version = DesignVersion.objects.get(pk=queued_job.version_id)
    assert rows_of(version) > 0
    version_id = version.pk
    version.delete()
    assert rows_of(version_id) == 0
    assert not Job.objects.filter(pk=queued_job.pk).exists()


def test_a_dgx_h100_design_buys_no_nic_cards_and_a_flat_top_module_per_twin_port_cage(queued_job, member, client):
    deliver(queued_job)
    version = DesignVersion.objects.get(pk=queued_job.version_id)
    lines = {line.sku: line for line in BomLineRecord.objects.filter(version=version, spare=False)}
    assert not [line for line in lines.values() if line.category == "nic"]
    # 64 GPUs = 8 DGX H100, 4 twin-port cages each; the flat-top module is the only one that fits them.
    server_modules = sum(line.qty for sku, line in lines.items() if sku.endswith("-FLT"))
    assert server_modules == 8 * 4
    assert not [sku for sku, line in lines.items() if line.category == "cable" and "1:2" in line.description]
    assert any(item["code"] == "note.nics_built_in" for item in version.summary["warning_codes"])
    url = reverse("designs:version-detail", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})
    client.force_login(member)
    body = client.get(url).content.decode()
    assert "are built into the 8 NVIDIA DGX H100 servers and included in their price and power" in body


def test_a_server_with_pcie_nic_cards_still_buys_them(project, member, seed, django_capture_on_commit_callbacks):
    from apps.catalog.models import ServerModel

    h200 = ServerModel.objects.get(sku="SYS-821GE-TNHR")
    with django_capture_on_commit_callbacks(execute=True):
        job = design_create(project=project, user=member, name="H200", data=inputs(seed, server=h200.pk, gpus=64))
    version = DesignVersion.objects.get(pk=job.version_id)
    nics = [line for line in BomLineRecord.objects.filter(version=version) if line.category == "nic"]
    assert [(line.sku, line.qty) for line in nics] == [("MCX75510AAS-NEAT", 64)]


def test_the_bom_says_why_a_dgx_design_has_no_nic_line_on_the_page_and_in_the_workbook(queued_job, member, client,
                                                                                      tmp_path):
    import openpyxl

    from apps.exports.excel import version_workbook_write

    deliver(queued_job)
    version = DesignVersion.objects.get(pk=queued_job.version_id)
    note = ("The 64 backend NIC ports (NVIDIA ConnectX-7 400G OSFP) are built into the 8 NVIDIA DGX H100 servers and "
            "included in their price and power: the BOM lists no NIC cards.")
    client.force_login(member)
    url = reverse("designs:version-detail", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})
    assert f"<p class=\"help\" data-bom-note>{note}</p>" in client.get(url).content.decode()
    path = tmp_path / "fabric.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path), user=member)
    bom_sheet = openpyxl.load_workbook(path, read_only=True)["BOM"]
    assert note in [row[0] for row in bom_sheet.iter_rows(values_only=True) if row]


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_thread_refreshes_a_running_job_while_the_task_works(project):
    """The thread writes on its own connection: it sees committed rows only (hence a transactional test)."""
    job = Job.objects.create(project=project, status=Job.Status.RUNNING, heartbeat_at=_stale())
    with job_heartbeat(job_id=job.pk, interval_s=0.1):
        time.sleep(0.5)
    assert Job.objects.get(pk=job.pk).heartbeat_at > job.heartbeat_at
