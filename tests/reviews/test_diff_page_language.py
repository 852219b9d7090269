"""The compare page's version pickers read in the user's language."""
from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.services import profile_set_language

pytestmark = pytest.mark.django_db


def picker_options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)[0]
    return [text.strip() for text in re.findall(r"<option[^>]*>([^<]*)</option>", select)][1:]


def test_version_pickers_count_gpus_in_the_users_language(version, version_2, project, member):
    client = Client()
    client.force_login(member)
    url = reverse("reviews:diff", kwargs={"project_pk": project.pk})
    english = client.get(url).content.decode()
    assert picker_options(english, "a") == ["Fabric A v2 · 128 GPUs", "Fabric A v1 · 64 GPUs"]
    profile_set_language(user=member, language="zh-hans")
    chinese = client.get(url).content.decode()
    assert picker_options(chinese, "b") == ["Fabric A v2 · 128 个 GPU", "Fabric A v1 · 64 个 GPU"]
