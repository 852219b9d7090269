"""Dates on the pages read the same to every customer: 2026-12-03 14:05 in English (not 12/03/2026 2:05 p.m.,
which most of the world reads as 12 March), 2026年12月3日 in Chinese."""
from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from apps.accounts.services import profile_set_language
from apps.projects.models import Project
from tests.factories import UserFactory
from tests.projects.factories import ProjectFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_client():
    owner = UserFactory()
    project = ProjectFactory(owner=owner)
    Project.objects.filter(pk=project.pk).update(
        created_at=dt.datetime(2026, 12, 3, 14, 5, tzinfo=dt.timezone.utc),
        updated_at=dt.datetime(2026, 12, 3, 14, 5, tzinfo=dt.timezone.utc))
    client = Client()
    client.force_login(owner)
    return client, owner, project


def test_english_pages_write_dates_year_first(owner_client):
    client, _owner, project = owner_client
    html = client.get(project.get_absolute_url()).content.decode()
    local = timezone.localtime(dt.datetime(2026, 12, 3, 14, 5, tzinfo=dt.timezone.utc))
    assert local.strftime("%Y-%m-%d %H:%M") in html
    assert "12/03/2026" not in html and "p.m." not in html


def test_chinese_pages_keep_chinese_dates(owner_client):
    client, owner, project = owner_client
    profile_set_language(user=owner, language="zh-hans")
    html = client.get(project.get_absolute_url()).content.decode()
    assert "2026年12月3日" in html
