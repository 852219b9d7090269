"""The job queue unreachable: a clear 503, nothing half-created, on every path that enqueues work.

The broker is pointed at a closed port (eager mode off, as in a deployment with a worker).
"""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.analysis.models import TrafficAnalysis
from apps.exports.models import ExportFile
from apps.designs.models import Design, DesignVersion, Job
from apps.engine.traffic import DEFAULT_MAX_FLOWS
from fabricweb.celery import app as celery_app
from tests.designs.conftest import inputs
from tests.designs.test_views import form_data

pytestmark = pytest.mark.django_db

CLOSED_PORT = "redis://127.0.0.1:1/0"
MESSAGE_EN = "The job queue is unreachable, so nothing was created."
MESSAGE_ZH = "无法连接任务队列，因此未创建任何内容。"


@pytest.fixture
def broker_down(settings):
    # The app's configuration was read from CELERY_BROKER_URL at start; publishing uses the write URL.
    eager, url = celery_app.conf.task_always_eager, celery_app.conf.broker_write_url
    celery_app.conf.task_always_eager = False
    celery_app.conf.broker_write_url = settings.CELERY_BROKER_URL = CLOSED_PORT
    try:
        yield
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.broker_write_url = eager, url


def _counts():
    return Design.objects.count(), DesignVersion.objects.count(), Job.objects.count()


@pytest.fixture
def ready_version(project, member, seed, django_capture_on_commit_callbacks):
    from apps.designs.services.design import design_create

    with django_capture_on_commit_callbacks(execute=True):
        job = design_create(project=project, user=member, name="Hall A", data=inputs(seed, gpus=256))
    return DesignVersion.objects.get(pk=job.version_id)


def test_api_design_create_answers_503_with_a_message_and_creates_nothing(member_client, project, seed,
                                                                           broker_down):
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": "No queue", **inputs(seed)}, format="json")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert MESSAGE_EN in response.json()["detail"]
    assert response["Retry-After"]
    assert _counts() == (0, 0, 0)


def test_api_bad_input_is_still_a_400_when_the_queue_is_down(member_client, project, seed, broker_down):
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": "", **inputs(seed)}, format="json")
    assert response.status_code == 400
    assert "name" in response.json()


@pytest.mark.parametrize("language, message", [("en", MESSAGE_EN), ("zh-hans", MESSAGE_ZH)])
def test_design_form_answers_a_503_page_in_the_readers_language_and_creates_nothing(member, project, seed, broker_down,
                                                                                   language, message):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(member)
    response = client.post(reverse("designs:design-create", kwargs={"project_pk": project.pk}), form_data(seed))
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert message in response.content.decode()
    assert _counts() == (0, 0, 0)


def test_api_new_version_answers_503_and_creates_no_version(member_client, ready_version, broker_down):
    before = _counts()
    response = member_client.post(reverse("api-design-version-list", kwargs={"pk": ready_version.design_id}),
                                  {"gpus": 512}, format="json")
    assert response.status_code == 503, response.content
    assert _counts() == before


def test_api_background_export_answers_503_and_creates_no_job(member_client, ready_version, settings, broker_down):
    settings.FABRICWEB_EXPORT_SYNC_LINKS = 10  # this version is written in the background
    before = _counts()
    response = member_client.post(reverse("api-version-export-list", kwargs={"pk": ready_version.pk}),
                                  {"kind": "xlsx"}, format="json")
    assert response.status_code == 503, response.content
    assert _counts() == before
    assert not ExportFile.objects.exists()


def test_api_queued_traffic_analysis_answers_503_and_creates_no_analysis(member_client, ready_version, broker_down):
    before = TrafficAnalysis.objects.count()
    response = member_client.post(reverse("api-version-traffic", kwargs={"pk": ready_version.pk}),
                                  {"max_flows": DEFAULT_MAX_FLOWS + 1}, format="json")
    assert response.status_code == 503, response.content
    assert TrafficAnalysis.objects.count() == before


def test_work_done_in_the_request_needs_no_queue(member_client, ready_version, broker_down):
    """A small export is written during the request: the broker being down does not matter."""
    response = member_client.post(reverse("api-version-export-list", kwargs={"pk": ready_version.pk}),
                                  {"kind": "xlsx"}, format="json")
    assert response.status_code in (200, 201), response.content
