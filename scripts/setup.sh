#!/usr/bin/env bash
# Install everything, migrate, load the seed catalog and a demo project, start web and worker.
# Usage: scripts/setup.sh        (then open http://127.0.0.1:8000/, user demo / demo-password)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

venv_ready
PY=.venv/bin/python
# A Redis on 127.0.0.1 gives a real Celery worker; without one, jobs run in the web process.
if [ -z "${CELERY_BROKER_URL:-}" ] && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  export CELERY_BROKER_URL="redis://127.0.0.1:6379/0"
fi
export DJANGO_DEBUG="${DJANGO_DEBUG:-true}"
command -v msgfmt >/dev/null 2>&1 && $PY manage.py compilemessages --ignore=.venv >/dev/null
$PY manage.py migrate --noinput
$PY manage.py load_seed_catalog
$PY manage.py load_demo
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT INT TERM
if [ -n "${CELERY_BROKER_URL:-}" ]; then
  echo "Worker: celery over $CELERY_BROKER_URL"
  .venv/bin/celery -A fabricweb worker --loglevel=INFO --concurrency=2 -Q fabricweb &
  PIDS+=($!)
else
  echo "No Redis found: design jobs run inside the web process."
fi
echo "Web: http://127.0.0.1:${PORT:-8000}/  (log in as demo / demo-password)"
.venv/bin/gunicorn fabricweb.wsgi:application --bind "0.0.0.0:${PORT:-8000}" --workers 2 --timeout 300 &
PIDS+=($!)
wait -n "${PIDS[@]}"
