#!/usr/bin/env bash
# Run the whole test suite against PostgreSQL and Redis on 127.0.0.1 (started if down).
# Usage: scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

services_up
# Debian packages first: requirements.txt builds libyang against libyang2-dev.
debian_ready
venv_ready

export DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/fabricweb}"
export CELERY_BROKER_URL="${TEST_CELERY_BROKER_URL:-redis://127.0.0.1:6379/13}"
export CELERY_RESULT_BACKEND="$CELERY_BROKER_URL"
# Tests run tasks in-process unless a test starts a real worker (tests/designs/test_worker.py).
export CELERY_TASK_ALWAYS_EAGER=true
export CACHE_URL="${TEST_CACHE_URL:-rediscache://127.0.0.1:6379/14}"
export DJANGO_SECRET_KEY="test-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz"
export PYTHONDONTWRITEBYTECODE=1

PY=.venv/bin/python
psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='fabricweb'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE fabricweb"
$PY manage.py compilemessages --ignore=.venv >/dev/null
$PY manage.py check --fail-level WARNING
$PY manage.py makemigrations --check --dry-run >/dev/null || {
  echo "Model changes without migrations: run manage.py makemigrations" >&2; exit 1; }
.venv/bin/lint-imports --no-cache
# Two xdist workers (CI has two cores) unless the arguments choose (-n 0: one process).
workers=(-n "${FABRICWEB_TEST_WORKERS:-2}")
for arg in "$@"; do
  case "$arg" in -n|-n*|--numprocesses*) workers=() ;; esac
done
exec .venv/bin/pytest "${workers[@]}" "$@"
