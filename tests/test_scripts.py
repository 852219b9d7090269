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
