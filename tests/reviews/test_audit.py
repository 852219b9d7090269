"""The audit trail: who generated, commented, approved and exported what, recorded once, filterable."""
from __future__ import annotations

from datetime import timedelta

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone

from apps.exports.excel import version_workbook_write
from apps.exports.services import version_export_create
from apps.designs.models import Job
from apps.reviews.models import AuditEvent
from apps.reviews.services.audit import audit_job_record, audit_jobs_record
from apps.reviews.services.comments import comment_create
from apps.reviews.services.review import version_review_act

pytestmark = pytest.mark.django_db


def audit_url(project, query: str = "") -> str:
    return reverse("api-project-audit", kwargs={"project_pk": project.pk}) + (f"?{query}" if query else "")


def trail(client, project, query: str = "") -> list[tuple[str, str, str]]:
    response = client.get(audit_url(project, query))
    assert response.status_code == 200, response.json()
    return [(e["action"], e["actor"], e["target"]) for e in response.json()["results"]]


def test_generation_is_recorded_by_who_asked_for_it_when_the_job_finished(version):
    event = AuditEvent.objects.get(action="generated")
    job = Job.objects.get(version=version, kind="generate")

    assert (event.actor_name, event.target, event.version_id, event.job_ref) == (
        "mark", "Fabric A v1", version.pk, job.pk)
    assert event.at == job.finished_at
    assert event.data["gpus"] == 64 and event.data["total_cost"] == str(version.total_cost)


def test_an_export_through_the_exports_service_is_recorded(version, owner, owner_api, project, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    job = version_export_create(version=version, user=owner, kind="xlsx", background=False)
    assert job.status == "succeeded", job.error

    assert ("exported", "olivia", "Fabric A v1") in trail(owner_api, project)
    event = AuditEvent.objects.get(action="exported")
    assert (event.job_ref, event.data["kind"]) == (job.pk, "xlsx")
    assert event.data["size"] > 0


def test_a_job_is_recorded_once_however_often_it_is_seen(version, owner_api, project):
    job = Job.objects.get(version=version, kind="generate")

    audit_job_record(job_id=job.pk)
    audit_jobs_record(project=project)
    trail(owner_api, project)

    assert AuditEvent.objects.filter(job_ref=job.pk).count() == 1


def test_comment_and_approval_are_in_the_trail_newest_first(version, owner, member, owner_api, project):
    comment_create(version=version, author=member, body="Looks right")
    version_review_act(version=version, user=member, action="submit")
    version_review_act(version=version, user=owner, action="approve")

    assert trail(owner_api, project) == [
        ("approved", "olivia", "Fabric A v1"),
        ("submitted", "mark", "Fabric A v1"),
        ("commented", "mark", "Fabric A v1"),
        ("generated", "mark", "Fabric A v1"),
    ]


def test_the_trail_filters_by_action_actor_and_time(version, owner, member, owner_api, project):
    comment_create(version=version, author=member, body="One")
    comment_create(version=version, author=owner, body="Two")
    AuditEvent.objects.filter(action="generated").update(at=timezone.now() - timedelta(days=3))
    since = (timezone.now() - timedelta(days=1)).isoformat()

    assert trail(owner_api, project, "action=commented&actor=OLIVIA") == [("commented", "olivia", "Fabric A v1")]
    assert [a for a, _, _ in trail(owner_api, project, "action=generated&action=commented")] == [
        "commented", "commented", "generated"]
    assert ("generated", "mark", "Fabric A v1") not in trail(
        owner_api, project, "since=" + since.replace("+", "%2B"))


def test_bad_filters_are_field_errors(version, owner_api, project):
    response = owner_api.get(audit_url(project, "since=yesterday&action=deleted_everything"))

    assert response.status_code == 400
    assert set(response.json()) == {"since", "action"}


def test_the_trail_is_404_for_non_members(version, outsider_api, project):
    assert outsider_api.get(audit_url(project)).status_code == 404


def test_the_trail_keeps_the_actors_name_after_the_user_is_gone(version, member, owner_api, project):
    comment_create(version=version, author=member, body="Bye")
    member.delete()

    assert ("commented", "mark", "Fabric A v1") in trail(owner_api, project)


def test_the_version_workbook_has_a_review_sheet_once_the_version_is_reviewed(version, owner, member, tmp_path):
    plain = tmp_path / "plain.xlsx"
    version_workbook_write(version=version, path_or_stream=str(plain), user=owner)
    assert "Review" not in openpyxl.load_workbook(plain).sheetnames

    comment_create(version=version, author=member, body="Swap to AOC in row 3")
    version_review_act(version=version, user=member, action="submit", note="For the Tuesday call")
    version_review_act(version=version, user=owner, action="approve")
    reviewed = tmp_path / "reviewed.xlsx"
    version_workbook_write(version=version, path_or_stream=str(reviewed), user=owner)

    wb = openpyxl.load_workbook(reviewed)
    assert wb.sheetnames[-1] == "Review"
    rows = list(wb["Review"].iter_rows(values_only=True))
    assert rows[0] == ("When", "Who", "What", "About", "Text")
    assert rows[1][1:] == ("olivia", "Current state", None, "approved")
    assert [(row[1], row[2], row[4]) for row in rows[2:]] == [
        ("mark", "submit for review", "For the Tuesday call"),
        ("olivia", "approve", None),
        ("mark", "comment", "Swap to AOC in row 3"),
    ]


def test_the_trail_still_names_a_version_after_it_is_deleted(version, owner, member, owner_api, project):
    version_review_act(version=version, user=member, action="submit")
    version.delete()

    assert trail(owner_api, project) == [("submitted", "mark", "Fabric A v1"), ("generated", "mark", "Fabric A v1")]
    assert not AuditEvent.objects.exclude(version=None).exists()
