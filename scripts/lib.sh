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

packages_ready() {
  # Installs the Debian packages named, each checked as a package (not as a command: Writer's
  # soffice would hide a missing Calc), with one apt-get run for all that are missing.
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]}..."
    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi
}

# Everything the product and its tests need from Debian, in one list so that setup.sh and test.sh,
# run in either order, leave the same machine: Chromium and its driver for the browser tests and
# the document's pictures, LibreOffice Calc to recalculate workbooks and Writer to open the Word
# file, Prometheus's promtool to check the alert rules, WeasyPrint's libraries (Pango, HarfBuzz's
# subsetter), Cairo for the Word file's pictures, Noto CJK for Chinese, poppler for page images,
# libyang (C library and headers: PyPI's libyang builds against them) to check configs against SONiC's YANG.
DEBIAN_PACKAGES=(
  chromium chromium-driver
  libreoffice-calc libreoffice-writer
  prometheus
  libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 libcairo2 fonts-noto-cjk
  poppler-utils gettext
  libyang2-dev gcc
)

debian_ready() {
  packages_ready "${DEBIAN_PACKAGES[@]}"
}

