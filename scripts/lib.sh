# Shared shell helpers for scripts/setup.sh and scripts/test.sh.

services_up() {
  if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    echo "Starting PostgreSQL..."
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
    for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
  fi
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    echo "Starting Redis..."
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
    for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
  fi
}

venv_ready() {
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
    .venv/bin/pip install -q --upgrade pip
  fi
  # Quick when everything is already installed.
  .venv/bin/pip install -q -r requirements.txt 2>&1 | grep -v "^WARNING: Location" || true
}

browser_ready() {
  # Debian's Chromium for browser tests, LibreOffice to recalculate workbooks and Prometheus's
  # promtool to check the generated alert rules.
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium chromium-driver)
  command -v soffice >/dev/null 2>&1 || missing+=(libreoffice-calc)
  command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]}..."
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi
}

documents_ready() {
  # WeasyPrint's libraries (Pango, HarfBuzz's subsetter), Cairo for the Word file's pictures, Noto CJK
  # for Chinese documents, and LibreOffice Writer, which opens the Word file in the tests.
  local missing=()
  for lib in libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 libcairo2 fonts-noto-cjk; do
    dpkg -s "$lib" >/dev/null 2>&1 || missing+=("$lib")
  done
  dpkg -s libreoffice-writer >/dev/null 2>&1 || missing+=(libreoffice-writer)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]}..."
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi
}
