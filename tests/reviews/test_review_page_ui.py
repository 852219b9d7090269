"""The review page of a version: breadcrumbs down to its design, the state badge in the user's language."""
from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.services import profile_set_language

pytestmark = pytest.mark.django_db


def review_page(version, user) -> str:
    client = Client()
    client.force_login(user)
    url = reverse("reviews:version-review", kwargs={"project_pk": version.design.project_id,
                                                    "version_pk": version.pk})
    return client.get(url).content.decode()


def test_review_page_breadcrumbs_lead_to_the_design(version, member):
    html = review_page(version, member)
    crumbs = re.search(r'<nav class="breadcrumbs".*?</nav>', html, re.S)[0]
    design_url = reverse("designs:design-detail", kwargs={"project_pk": version.design.project_id,
                                                          "design_pk": version.design_id})
    assert f'href="{design_url}"' in crumbs


def test_review_badge_reads_as_one_phrase_in_chinese(version, member):
    profile_set_language(user=member, language="zh-hans")
    html = review_page(version, member)
    badge = re.search(r'class="badge review-state[^>]*>([^<]*)</span>', html)[1]
    assert badge == "评审：草稿"
