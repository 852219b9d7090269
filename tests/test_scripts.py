"""The README's two commands leave the same machine in either order (issue: a fresh machine)."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIB = ROOT / "scripts" / "lib.sh"


def _debian_packages() -> list[str]:
    text = LIB.read_text()
    block = re.search(r"DEBIAN_PACKAGES=\((.*?)\)", text, re.S).group(1)
    return [word for line in block.splitlines() for word in line.split("#")[0].split()]


def test_setup_and_test_scripts_install_the_same_debian_packages():
    for script in ("setup.sh", "test.sh"):
        body = (ROOT / "scripts" / script).read_text()
        assert re.search(r"^debian_ready$", body, re.M), f"{script} does not install the Debian packages"
        assert "browser_ready" not in body and "documents_ready" not in body


def test_packages_are_checked_as_packages_not_commands():
    # Writer's soffice once hid a missing Calc: a command check cannot tell the two apart.
    assert "command -v soffice" not in LIB.read_text()
    packages = _debian_packages()
    for needed in ("libreoffice-calc", "libreoffice-writer", "chromium", "chromium-driver", "prometheus",
                   "fonts-noto-cjk", "poppler-utils", "gettext"):
        assert needed in packages


def test_every_listed_package_is_installed_here():
    # The suite runs after test.sh installed the list; a name apt does not know would fail there first.
    missing = []
    for package in _debian_packages():
        status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
        if "install ok installed" not in status.stdout:
            missing.append(package)
    assert missing == []


def _sandbox(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """setup.sh in a copy of the tree whose helpers, Python, Celery, gunicorn and redis-cli only log their call."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "setup.sh").write_text((ROOT / "scripts" / "setup.sh").read_text())
    log = tmp_path / "calls.log"
    (tmp_path / "scripts" / "lib.sh").write_text(
        f'debian_ready() {{ echo debian_ready >> "{log}"; }}\nvenv_ready() {{ echo venv_ready >> "{log}"; }}\n')
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for folder, name in ((bin_dir, "python"), (bin_dir, "celery"), (bin_dir, "gunicorn"), (stubs, "redis-cli")):
        stub = folder / name
        status = 1 if name == "redis-cli" else 0  # no Redis: jobs in the web process, no worker or beat
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit {status}\n')
        stub.chmod(0o755)
    env = {"PATH": f"{stubs}:/usr/bin:/bin", "HOME": str(tmp_path), "DJANGO_SECRET_KEY": "x" * 50}
    return log, env


def _run_setup(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    log, env = _sandbox(tmp_path)
    result = subprocess.run(["bash", str(tmp_path / "scripts" / "setup.sh"), *args], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    return result, (log.read_text().splitlines() if log.exists() else [])


PREPARE = ["debian_ready", "venv_ready", "python manage.py compilemessages --ignore=.venv",
           "python manage.py collectstatic --noinput", "python manage.py migrate --noinput",
           "python manage.py load_seed_catalog", "python manage.py load_design_templates",
           "python manage.py load_demo"]


def test_setup_no_serve_prepares_everything_and_starts_no_server(tmp_path):
    result, calls = _run_setup(tmp_path, "--no-serve")
    assert result.returncode == 0, result.stderr
    assert [c for c in calls if not c.startswith("redis-cli")] == PREPARE
    assert not any(c.startswith(("gunicorn", "celery")) for c in calls)


def test_setup_without_arguments_prepares_the_same_then_serves(tmp_path):
    # The stub gunicorn returns at once, so setup's wait ends and the script with it.
    result, calls = _run_setup(tmp_path)
    assert [c for c in calls if not c.startswith("redis-cli")][:len(PREPARE)] == PREPARE
    assert calls[-1].startswith("gunicorn fabricweb.wsgi:application")


def test_setup_refuses_an_unknown_argument_before_installing_anything(tmp_path):
    result, calls = _run_setup(tmp_path, "--no-serv")
    assert result.returncode == 2
    assert "Usage: scripts/setup.sh [--no-serve]" in result.stderr
    assert calls == []


def test_ci_runs_setup_without_serving_then_the_readmes_test_command():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert lines.index("scripts/setup.sh --no-serve") < lines.index("exec scripts/test.sh") == len(lines) - 1
    readme = (ROOT / "README.md").read_text()
    assert "scripts/setup.sh --no-serve" in readme and "scripts/test.sh" in readme
    assert "--no-serve" in (ROOT / "scripts" / "setup.sh").read_text().splitlines()[2]


def test_setup_and_the_tests_use_different_databases_and_redis_dbs():
    # Setup migrates and loads demo data into its own database; the tests' databases are pytest-django's
    # test_<name> and Redis dbs 13/14, so setup run first leaves nothing in their way.
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    test = (ROOT / "scripts" / "test.sh").read_text()
    assert "DATABASE_URL" not in setup  # setup's database: settings' default (SQLite) or the caller's
    assert "redis://127.0.0.1:6379/0" in setup
    assert "redis://127.0.0.1:6379/13" in test and "rediscache://127.0.0.1:6379/14" in test
