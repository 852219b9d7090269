"""Fixtures for design template tests: the seed catalog, the built-in templates, members and staff."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from apps.design_templates.models import DesignTemplate
from apps.designs.models import DesignVersion
from apps.designs.services.design import design_create
from tests.designs.conftest import inputs, member, project, seed  # noqa: F401
from tests.factories import StaffFactory, UserFactory
from tests.projects.factories import ProjectFactory


@pytest.fixture
def templates(seed):
    call_command("load_design_templates", stdout=io.StringIO())
    return {template.slug: template for template in DesignTemplate.objects.all()}


@pytest.fixture
def staff_member(db):
    return StaffFactory()


@pytest.fixture
def staff_project(staff_member, member):
    return ProjectFactory(members=[staff_member, member])


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def outsider(db):
    return UserFactory()


@pytest.fixture
def staff_version(staff_project, staff_member, seed, django_capture_on_commit_callbacks):
    """A generated 64-GPU design of DGX H100 on SN5600 in 2x400G, in a project the staff user belongs to."""
    with django_capture_on_commit_callbacks(execute=True):
        job = design_create(project=staff_project, user=staff_member, name="Hall B", data=inputs(seed, gpus=64),
                            description="Pilot hall")
    version = DesignVersion.objects.get(pk=job.version_id)
    assert version.is_ready
    return version
