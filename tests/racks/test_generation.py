"""Generating a version stores its hall: every device in a rack, nothing overlapping, no rack over its budget."""
from __future__ import annotations

import pytest

from apps.designs.models import DeviceRecord
from apps.racks.models import Hall, Rack, RackItem
from apps.racks.selectors import rack_blocks

pytestmark = pytest.mark.django_db


def test_every_device_of_the_version_stands_in_one_rack_at_its_units(hall_version):
    hall = Hall.objects.get(version=hall_version)
    assert hall.racks == Rack.objects.filter(version=hall_version).count() > 0
    assert hall.budget_w == 45_000 and hall.power_basis == "typical"
    devices = dict(DeviceRecord.objects.filter(version=hall_version).values_list("id", "name"))
    items = list(RackItem.objects.filter(version=hall_version, kind="device").values_list("device_id", "name"))
    assert sorted(device for device, _name in items) == sorted(devices)
    assert all(devices[device] == name for device, name in items)
    # The devices' own rack column agrees with the hall.
    racks = dict(Rack.objects.filter(version=hall_version).values_list("id", "name"))
    stored = dict(DeviceRecord.objects.filter(version=hall_version).values_list("name", "rack"))
    for name, rack_id in RackItem.objects.filter(version=hall_version, kind="device").values_list("name", "rack_id"):
        assert stored[name] == racks[rack_id]


def test_no_two_items_share_a_unit_nothing_overhangs_and_no_rack_is_over_budget(hall_version):
    for rack, contents in rack_blocks(version=hall_version):
        units = [u for item in contents for u in range(item.u, item.u + item.u_height)]
        assert len(units) == len(set(units)), rack.name
        assert all(1 <= u <= rack.u_height for u in units), rack.name
        assert rack.power_typical_w <= 45_000 + 1e-6, rack.name
        assert rack.used_u == sum(item.u_height for item in contents)
        assert rack.power_typical_w == pytest.approx(sum(item.power_typical_w for item in contents))


def test_the_reserved_cell_holds_no_rack(hall_version):
    hall = Hall.objects.get(version=hall_version)
    assert hall.reserved == [{"row": 0, "position": 2}]
    assert not Rack.objects.filter(version=hall_version, row=0, position=2).exists()


def test_deleting_a_version_deletes_its_hall(hall_version):
    hall_version.delete()
    assert not Hall.objects.exists() and not Rack.objects.exists() and not RackItem.objects.exists()


def test_structured_cabling_adds_patch_panels_as_rack_items_without_a_device(project, member, seed,
                                                                              django_capture_on_commit_callbacks):
    from tests.designs.conftest import inputs
    from tests.exports.test_exports import generate

    version = generate(project, member, inputs(seed, layout={"structured_cabling": True, "hall": {
        "zones": {"network": [1]}}}), django_capture_on_commit_callbacks, name="Patched")
    panels = RackItem.objects.filter(version=version, kind="patch-panel")
    assert panels.exists() and not panels.filter(device__isnull=False).exists()
    assert Hall.objects.get(version=version).structured_cabling is True
    assert Hall.objects.get(version=version).zones[0] == {"kind": "network", "rows": [0, 0]}
    assert set(Rack.objects.filter(version=version, row=0).values_list("kind", flat=True)) <= {"network"}
