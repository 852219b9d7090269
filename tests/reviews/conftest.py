"""Fixtures for review tests: the seed catalog, a project (owner, member, staff member) and ready versions.

Versions are generated through the designs service on the seed catalog; tasks run in-process.
"""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apps.designs.models import DesignVersion, Job
from apps.designs.services.design import design_create, design_version_create
from tests.designs.conftest import inputs, seed  # noqa: F401  (the seed fixture)
from tests.factories import StaffFactory, UserFactory
from tests.projects.factories import ProjectFactory


@pytest.fixture
def owner(db):
    return UserFactory(username="olivia")


@pytest.fixture
def member(db):
    return UserFactory(username="mark")


@pytest.fixture
def staff_member(db):
    return StaffFactory(username="stella")


@pytest.fixture
def outsider(db):
    return UserFactory(username="oscar")


@pytest.fixture
def project(owner, member, staff_member):
    return ProjectFactory(owner=owner, members=[member, staff_member], name="Lab cluster")


def api_client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def member_api(member):
    return api_client_for(member)


@pytest.fixture
def owner_api(owner):
    return api_client_for(owner)


@pytest.fixture
def outsider_api(outsider):
    return api_client_for(outsider)


@pytest.fixture
def generate(django_capture_on_commit_callbacks, seed):
    """generate(project, user, name=..., **input changes) -> a ready version 1 of a new design;
    generate(project, user, design=design, **changes) -> the design's next version."""

    def _generate(project, user, *, name="Fabric A", design=None, **changes) -> DesignVersion:
        with django_capture_on_commit_callbacks(execute=True):
            if design is None:
                job = design_create(project=project, user=user, name=name, data=inputs(seed, **changes))
            else:
                job = design_version_create(design=design, user=user, data=changes)
        job = Job.objects.get(pk=job.pk)
        assert job.status == Job.Status.SUCCEEDED, job.error
        return DesignVersion.objects.select_related("design__project").get(pk=job.version_id)

    return _generate


@pytest.fixture
def version(project, member, generate):
    """Fabric A v1: 64 GPUs (8 DGX H100) on SN5600 in 2x400G, two tiers."""
    return generate(project, member, gpus=64)


@pytest.fixture
def version_2(version, member, generate):
    """Fabric A v2: the same design grown to 128 GPUs."""
    return generate(version.design.project, member, design=version.design, gpus=128)
