"""Errors for a user, not a developer: the local setup runs without DEBUG unless asked, a page a user may not
see is the product's own 404 page, and the language menu names each language in itself."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[1]


def setup_environment(tmp_path, **env) -> dict[str, str]:
    """Run the lines of scripts/setup.sh that choose DEBUG and the secret key, in an empty directory."""
    script = (ROOT / "scripts" / "setup.sh").read_text()
    start = script.index('export DJANGO_DEBUG=')
    end = script.index("\nfi\n", start) + 4
    code = f'set -euo pipefail\nPY={sys.executable}\n{script[start:end]}\necho "$DJANGO_DEBUG"; echo "$DJANGO_SECRET_KEY"'
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "DJANGO_SECRET_KEY")}
    result = subprocess.run(["bash", "-c", code], cwd=tmp_path, env={**clean, **env}, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    debug, key = result.stdout.splitlines()
    return {"debug": debug, "key": key}


def test_setup_runs_without_debug_and_with_a_kept_secret_key_unless_asked(tmp_path):
    first = setup_environment(tmp_path)
    assert first["debug"] == "false"
    assert len(first["key"]) >= 50
    assert (tmp_path / "var" / "secret_key").stat().st_mode & 0o077 == 0
    assert setup_environment(tmp_path)["key"] == first["key"]
    assert setup_environment(tmp_path, DJANGO_DEBUG="true")["debug"] == "true"


@pytest.mark.django_db
def test_a_non_member_sees_the_products_own_404_page(client, user, staff):
    from tests.projects.factories import ProjectFactory

    project = ProjectFactory(owner=staff)
    client.force_login(user)
    response = client.get(reverse("projects:project-detail", kwargs={"project_pk": project.pk}))
    assert response.status_code == 404
    body = response.content.decode()
    assert "Page not found" in body and 'class="topbar"' in body
    assert "URLconf" not in body and "Traceback" not in body


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_language_menu_names_each_language_in_itself(client, user, language):
    client.force_login(user)
    client.cookies["django_language"] = language
    body = client.get(reverse("projects:project-list"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert '<option value="en" lang="en"' in body and ">English</option>" in body
    assert ">简体中文</option>" in body
