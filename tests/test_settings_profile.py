"""The production profile, checked in fresh processes with the environment a deployment sets.

`manage.py check --deploy --fail-level WARNING` must be clean with DJANGO_DEBUG=false,
DJANGO_SECURE=true, a real key and real hosts; without a key (and DEBUG off) nothing starts.
docker-compose.yml is checked for structure here, since Docker does not run in the test machine.
"""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
MISSING_KEY = "DJANGO_SECRET_KEY is not set"


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "FABRICWEB_"))}
    environment.update(env)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=environment, capture_output=True, text=True,
                          timeout=180)


def _production(**changes: str) -> dict[str, str]:
    env = {"DJANGO_DEBUG": "false", "DJANGO_SECURE": "true", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
           "DJANGO_ALLOWED_HOSTS": "fabric.example.com", "DJANGO_CSRF_TRUSTED_ORIGINS": "https://fabric.example.com"}
    env.update(changes)
    return env


def test_the_production_profile_passes_check_deploy_with_no_warning():
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **_production())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_without_django_secure_check_deploy_names_what_is_missing():
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **_production(DJANGO_SECURE="false"))
    assert result.returncode != 0
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in result.stderr + result.stdout


@pytest.mark.parametrize("args", [
    ["manage.py", "check"],
    ["-c", "import fabricweb.wsgi"],
    ["-c", "import fabricweb.asgi"],
])
def test_without_a_secret_key_and_debug_off_nothing_starts(args):
    env = _production()
    del env["DJANGO_SECRET_KEY"]
    result = _run(args, **env)
    assert result.returncode != 0
    assert MISSING_KEY in result.stderr + result.stdout


def test_the_worker_refuses_to_start_without_a_secret_key():
    env = _production(CELERY_BROKER_URL="redis://127.0.0.1:1/0")
    del env["DJANGO_SECRET_KEY"]
    celery = str(Path(sys.executable).with_name("celery"))
    result = subprocess.run([celery, "-A", "fabricweb", "worker", "--pool=solo", "-Q", "never-used"], cwd=ROOT,
                            env={**{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}, **env},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert MISSING_KEY in result.stderr + result.stdout


def test_a_debug_run_needs_no_key_and_translation_tools_run_without_one():
    assert _run(["manage.py", "check"], DJANGO_DEBUG="true").returncode == 0
    assert _run(["manage.py", "compilemessages", "--ignore=.venv"], DJANGO_DEBUG="false").returncode == 0


def test_django_secure_turns_on_hsts_redirect_secure_cookies_and_the_proxy_header():
    code = ("import django, os; os.environ['DJANGO_SETTINGS_MODULE']='fabricweb.settings'; django.setup(); "
            "from django.conf import settings as s; "
            "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0, "
            "s.SECURE_PROXY_SSL_HEADER)")
    on = _run(["-c", code], **_production()).stdout.split()
    assert on == ["True", "True", "True", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')"]
    off = _run(["-c", code], **_production(DJANGO_SECURE="false")).stdout.split()
    assert off == ["False", "False", "False", "False", "None"]


def test_docker_compose_runs_web_worker_beat_and_a_persistent_redis_with_a_required_key():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"web", "worker", "beat", "postgres", "redis"} <= set(services)
    redis = services["redis"]["command"]
    assert redis[redis.index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in services["redis"]["volumes"])
    assert services["beat"]["command"][:4] == ["celery", "-A", "fabricweb", "beat"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "fabricweb", "worker"]
    for name in ("web", "worker", "beat"):
        environment = services[name]["environment"]
        # ${VAR:?message}: compose refuses to start without a key instead of using a default.
        assert environment["DJANGO_SECRET_KEY"].startswith("${DJANGO_SECRET_KEY:?")
        assert environment["DJANGO_DEBUG"] == "false"
        assert "DJANGO_SECURE" in environment
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "/healthz/" in " ".join(services["web"]["healthcheck"]["test"])
    declared = set(compose["volumes"])
    for service in services.values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            assert source.startswith(("/", ".")) or source in declared, volume


def test_readme_documents_every_new_setting():
    readme = (ROOT / "README.md").read_text()
    for name in ("DJANGO_SECURE", "DJANGO_SECRET_KEY", "FABRICWEB_DEMO", "FABRICWEB_LOGIN_FAILURE_LIMIT",
                 "FABRICWEB_LOGIN_LOCKOUT_SECONDS", "EMAIL_URL", "FABRICWEB_JOB_STALE_SECONDS",
                 "FABRICWEB_JOB_HEARTBEAT_SECONDS", "FABRICWEB_JOB_RESEND_SECONDS", "FABRICWEB_SWEEP_SECONDS",
                 "FABRICWEB_BROKER_CHECK_TIMEOUT", "DJANGO_CSP_REPORT_ONLY", "DJANGO_HSTS_SECONDS"):
        assert f"`{name}`" in readme, name
