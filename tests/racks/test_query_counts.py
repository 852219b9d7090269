"""Query-count baselines of the racks endpoints and pages (tests/querycount.py), at two sizes of data.

"small": one design of 64 GPUs. "large": two designs, the measured one of 512 GPUs with a power budget
and a reserved cell. A count that grows with the data (racks, items) is an N+1.
"""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.racks.models import Rack
from tests.designs.conftest import inputs
from tests.exports.test_exports import generate
from tests.querycount import QueryCounter

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BASELINES: dict[str, dict[str, int]] = {
    "api-version-rack-list": {"small": 4, "large": 4},  # version, hall (power basis), count, racks
    "api-version-rack-detail": {"small": 4, "large": 4},  # version, rack, hall, contents
    "api-version-hall": {"small": 3, "large": 3},  # version, hall, racks per kind and over budget
    "page racks:hall": {"small": 13, "large": 13},  # the version page's header and tabs, hall, racks
    "page racks:rack": {"small": 14, "large": 14},  # the version page's header and tabs, rack, hall, contents
    "page racks:device-rack": {"small": 6, "large": 6},
}


def test_no_baseline_grows_with_the_data():
    assert {name: counts for name, counts in BASELINES.items() if counts["large"] != counts["small"]} == {}


@pytest.mark.parametrize("size", ["small", "large"])
def test_racks_query_counts_stay_at_their_baselines(size, project, member, seed, member_client, client_for_member,
                                                    django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    version = generate(project, member, inputs(seed, gpus=64), capture, name="Hall A")
    if size == "large":
        generate(project, member, inputs(seed, gpus=128), capture, name="Hall B")
        version = generate(project, member, inputs(seed, gpus=512, layout={"rack_power_kw": 45, "hall": {
            "reserved": [[1, 3]]}}), capture, name="Hall C")
    rack = Rack.objects.filter(version=version, kind="compute").order_by("-items").first()
    device = rack.contents.filter(kind="device").first()
    api = QueryCounter(member_client)
    api.get("api-version-rack-list", reverse("api-version-rack-list", kwargs={"pk": version.pk}) + "?limit=1000")
    api.get("api-version-rack-detail", reverse("api-version-rack-detail", kwargs={"pk": version.pk,
                                                                                  "name": rack.name}))
    api.get("api-version-hall", reverse("api-version-hall", kwargs={"pk": version.pk}))
    pages = QueryCounter(client_for_member)
    keys = {"project_pk": project.pk, "version_pk": version.pk}
    pages.get("page racks:hall", reverse("racks:hall", kwargs=keys))
    pages.get("page racks:rack", reverse("racks:rack", kwargs={**keys, "name": rack.name}))
    pages.get("page racks:device-rack", reverse("racks:device-rack", kwargs={**keys, "device": device.name}),
              status=302)
    api.measured.update(pages.measured)
    api.check(BASELINES, size=size)
