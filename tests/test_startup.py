"""Entry points import on their own in a fresh process (a worker or a management command starts from them).

A circular import can hide inside pytest's process, where other modules are imported first; a
celery worker that imports fabricweb.api first failed to start with such a cycle.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("module", ["fabricweb.api", "fabricweb.celery", "apps.designs.tasks", "apps.catalog.api.views",
                                    "apps.analysis.tasks", "apps.exports.tasks"])
def test_module_imports_first_in_a_fresh_process(module):
    code = ("import os, importlib; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'fabricweb.settings'); "
            f"import django; django.setup(); importlib.import_module({module!r})")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", "x")})
    assert result.returncode == 0, result.stderr[-3000:]
