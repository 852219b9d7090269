#!/usr/bin/env bash
# Install everything, migrate, load the seed catalog and a demo project, start web, worker and beat.
# Usage: scripts/setup.sh [--no-serve]   (then open http://127.0.0.1:8000/, user demo / demo-password)
#   --no-serve: everything above except starting the servers (CI runs it before scripts/test.sh).
# A local demo with the demo users (published passwords), i.e. FABRICWEB_DEMO=true. DEBUG stays off
# (the product's own error pages, as in production) unless asked for: DJANGO_DEBUG=true scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
USAGE="Usage: scripts/setup.sh [--no-serve]"
SERVE=true
for arg in "$@"; do
  case "$arg" in
    --no-serve) SERVE=false ;;
    -h|--help) echo "$USAGE"; exit 0 ;;
    *) echo "$USAGE" >&2; echo "Unknown argument: $arg" >&2; exit 2 ;;
  esac
done
. scripts/lib.sh

# Debian packages first: requirements.txt builds libyang against libyang2-dev.
debian_ready
venv_ready
PY=.venv/bin/python
# A Redis on 127.0.0.1 gives a real Celery worker; without one, jobs run in the web process.
if [ -z "${CELERY_BROKER_URL:-}" ] && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  export CELERY_BROKER_URL="redis://127.0.0.1:6379/0"
fi
export DJANGO_DEBUG="${DJANGO_DEBUG:-false}"
# Without DEBUG Django needs a secret key: one is made for this machine once and kept in var/ (not in git).
if [ -z "${DJANGO_SECRET_KEY:-}" ]; then
  mkdir -p var
  [ -s var/secret_key ] || $PY -c 'import secrets; print(secrets.token_urlsafe(50))' > var/secret_key
  chmod 600 var/secret_key
  DJANGO_SECRET_KEY="$(cat var/secret_key)"
  export DJANGO_SECRET_KEY
fi
$PY manage.py compilemessages --ignore=.venv >/dev/null
# Without DEBUG the static files are served by WhiteNoise from STATIC_ROOT.
$PY manage.py collectstatic --noinput >/dev/null
$PY manage.py migrate --noinput
$PY manage.py load_seed_catalog
$PY manage.py load_design_templates
FABRICWEB_DEMO=true $PY manage.py load_demo
if [ "$SERVE" = false ]; then
  echo "Installed and prepared; not serving (--no-serve)."
  exit 0
fi
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT INT TERM
if [ -n "${CELERY_BROKER_URL:-}" ]; then
  echo "Worker: celery over $CELERY_BROKER_URL"
  .venv/bin/celery -A fabricweb worker --loglevel=INFO --concurrency=2 -Q "${CELERY_TASK_DEFAULT_QUEUE:-fabricweb}" &
  PIDS+=($!)
  # Beat runs the sweeps that re-send jobs a dead broker or worker left behind (settings.CELERY_BEAT_SCHEDULE).
  mkdir -p var
  .venv/bin/celery -A fabricweb beat --loglevel=INFO --schedule var/celerybeat-schedule &
  PIDS+=($!)
else
  echo "No Redis found: design jobs run inside the web process."
fi
echo "Web: http://127.0.0.1:${PORT:-8000}/  (log in as demo / demo-password)"
.venv/bin/gunicorn fabricweb.wsgi:application --bind "0.0.0.0:${PORT:-8000}" --workers 2 --timeout 300 &
PIDS+=($!)
wait -n "${PIDS[@]}"
