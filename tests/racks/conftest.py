"""Fixtures for the racks tests: a generated design placed in a hall with a power budget and a reserved cell."""
from __future__ import annotations

import pytest

from tests.designs.conftest import (client_for_member, inputs, member, member_client, outsider_client,  # noqa: F401
                                    project, seed)
from tests.exports.test_exports import generate

# 256 GPUs: 32 DGX H100 (8U, 10.2 kW each) on SN5600 leaves in 2x400G; 45 kW per rack against typical draw,
# the cell at row 1, position 3 reserved (a building column).
LAYOUT = {"rack_power_kw": 45, "hall": {"reserved": [[1, 3]]}}


@pytest.fixture
def hall_version(project, member, seed, django_capture_on_commit_callbacks):
    return generate(project, member, inputs(seed, layout=LAYOUT), django_capture_on_commit_callbacks, name="Hall A")


@pytest.fixture(autouse=True)
def english_unless_asked():
    """Pages asked for in Chinese leave Chinese active in this thread; each test starts and ends in English."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()
