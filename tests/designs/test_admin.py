"""The admin shows designs, versions and jobs, and lets no one edit what generation wrote."""
import pytest
from django.test import Client
from django.urls import reverse

from apps.designs.models import DesignVersion, Job
from tests.designs.factories import JobFactory
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client():
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_admin_lists_and_shows_designs_versions_and_jobs(admin_client):
    job = JobFactory()
    version = job.version
    for name, pk in (("design", version.design_id), ("designversion", version.pk), ("job", job.pk)):
        assert admin_client.get(reverse(f"admin:designs_{name}_changelist")).status_code == 200
        page = admin_client.get(reverse(f"admin:designs_{name}_change", args=[pk]))
        assert page.status_code == 200


def test_admin_cannot_change_a_version_or_a_job(admin_client):
    job = JobFactory()
    version = job.version
    admin_client.post(reverse("admin:designs_designversion_change", args=[version.pk]), {"gpus": 1})
    admin_client.post(reverse("admin:designs_job_change", args=[job.pk]), {"status": "succeeded"})
    assert DesignVersion.objects.get(pk=version.pk).gpus == version.gpus
    assert Job.objects.get(pk=job.pk).status == Job.Status.QUEUED
    assert admin_client.get(reverse("admin:designs_designversion_add")).status_code == 403
