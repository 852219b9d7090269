"""Every UI string is translated into Simplified Chinese, and users who chose it get Chinese pages.

The catalogues are locale/zh_Hans/LC_MESSAGES/django.po and djangojs.po, extracted with MAKEMESSAGES
below (run from the project root, then translate, then `manage.py compilemessages --ignore=.venv`
and commit the .po and .mo files). The first test runs the same extraction into a copy of the
project and fails on any string missing from the committed catalogue, untranslated or fuzzy.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.services import profile_set_language
from tests.factories import UserFactory
from tests.projects.factories import ProjectFactory

ROOT = Path(__file__).resolve().parents[1]
LOCALE = "zh_Hans"
IGNORED = [".venv", "staticfiles", "media", "bench", "tests", "static/vendor", "node_modules"]
MAKEMESSAGES = {
    "django": ["makemessages", "-l", LOCALE, *[f"--ignore={path}" for path in IGNORED]],
    "djangojs": ["makemessages", "-d", "djangojs", "-l", LOCALE, *[f"--ignore={path}" for path in IGNORED]],
}
COPY_SKIP = shutil.ignore_patterns(".venv", ".git", "media", "staticfiles", "node_modules", ".hypothesis",
                                   "__pycache__", "*.pyc", ".ruff_cache", "out", "*.sqlite3")


def catalogue(path: Path) -> list[dict]:
    """Entries of a .po file: msgid, plural, msgstrs, flags (the header and obsolete entries left out)."""
    entries, current, field = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if current is not None and current["msgid"]:
                entries.append(current)
            current, field = None, None
            continue
        if line.startswith("#~"):
            current = None
            continue
        if current is None:
            current = {"msgid": "", "plural": None, "msgstr": [], "flags": set()}
        if line.startswith("#,"):
            current["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+"(.*)"$', line)
        if match:
            field, text = match.group(1), match.group(2)
            if field == "msgid":
                current["msgid"] = text
            elif field == "msgid_plural":
                current["plural"] = text
            elif field.startswith("msgstr"):
                current["msgstr"].append(text)
            continue
        text = re.match(r'^"(.*)"$', line).group(1)
        if field == "msgid":
            current["msgid"] += text
        elif field == "msgid_plural":
            current["plural"] += text
        elif field and field.startswith("msgstr"):
            current["msgstr"][-1] += text
    return entries


def committed(domain: str) -> Path:
    return ROOT / "locale" / LOCALE / "LC_MESSAGES" / f"{domain}.po"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, list[dict]]:
    """makemessages run into a copy of the project: the committed catalogue merged with today's strings."""
    copy = tmp_path_factory.mktemp("i18n") / "project"
    shutil.copytree(ROOT, copy, ignore=COPY_SKIP)
    for command in MAKEMESSAGES.values():
        result = subprocess.run([sys.executable, "manage.py", *command], cwd=copy, capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, result.stderr
    return {domain: catalogue(copy / "locale" / LOCALE / "LC_MESSAGES" / f"{domain}.po") for domain in MAKEMESSAGES}


@pytest.mark.parametrize("domain", list(MAKEMESSAGES))
def test_every_ui_string_is_in_the_committed_chinese_catalogue(extracted, domain):
    known = {(e["msgid"], e["plural"]) for e in catalogue(committed(domain))}
    missing = [e["msgid"] for e in extracted[domain] if (e["msgid"], e["plural"]) not in known]
    assert not missing, (
        f"{len(missing)} strings are not in locale/{LOCALE}/LC_MESSAGES/{domain}.po; run "
        f"`manage.py {' '.join(MAKEMESSAGES[domain])}`, translate them and compile:\n" + "\n".join(missing[:50])
    )
    still_fuzzy = [e["msgid"] for e in extracted[domain] if "fuzzy" in e["flags"]]
    assert not still_fuzzy, f"strings whose translation no longer matches: {still_fuzzy[:50]}"


@pytest.mark.parametrize("domain", list(MAKEMESSAGES))
def test_the_chinese_catalogue_has_no_empty_or_fuzzy_translation(domain):
    entries = catalogue(committed(domain))
    assert entries
    empty = [e["msgid"] for e in entries if not e["msgstr"] or any(not text for text in e["msgstr"])]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert not empty, f"untranslated: {empty[:50]}"
    assert not fuzzy, f"fuzzy: {fuzzy[:50]}"
    header = committed(domain).read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert "#, fuzzy" not in header and '"Language: zh_Hans\\n"' in header


@pytest.mark.parametrize("domain", list(MAKEMESSAGES))
def test_the_compiled_catalogue_is_committed_next_to_its_source(domain):
    source = committed(domain)
    compiled = source.with_suffix(".mo")
    assert compiled.exists()
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(source)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_a_user_who_chose_chinese_gets_chinese_pages_in_every_session():
    user = UserFactory()
    project = ProjectFactory(owner=user, name="试点集群")
    client = Client()
    client.force_login(user)
    assert '<a href="/projects/">Projects</a>' in client.get(reverse("projects:project-list")).content.decode()

    response = client.post(reverse("accounts:language-set"), {"language": "zh-hans", "next": "/projects/"})
    assert response.status_code == 302

    fresh = Client()  # no language cookie: the choice is the user's, saved in the profile
    fresh.force_login(user)
    page = fresh.get(project.get_absolute_url()).content.decode()
    assert '<html lang="zh-hans">' in page
    assert '<a href="/projects/">项目</a>' in page
    assert "<h2>设计</h2>" in page and "新建设计" in page
    catalog = fresh.get(reverse("javascript-catalog")).content.decode()
    assert "\\u6b63\\u5728\\u5c55\\u5f00" in catalog or "正在展开" in catalog  # "Opening…" in topology.js


@pytest.mark.django_db
def test_numbers_are_grouped_by_thousands_in_chinese():
    user = UserFactory()
    profile_set_language(user=user, language="zh-hans")
    client = Client()
    client.force_login(user)
    from django.template import Context, Template
    from django.utils import translation

    with translation.override("zh-hans"):
        rendered = Template('{% load humanize %}{{ n|intcomma }} {{ x|floatformat:"2g" }}').render(
            Context({"n": 65536, "x": 45647381.6}))
    assert rendered == "65,536 45,647,381.60"
