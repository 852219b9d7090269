"""The schematic as a reader sees it, at 1 to 16 planes, 2 and 3 tiers: no label under a line drawn after it,
no box on another box, no label on another label or sticking out of its box, no link count on a box, and a
size that a page or a slide can show (the 8-plane picture was 4,976 px wide with overlapping spine boxes).

The pictures are built as schematic.py builds them from a version (one scale unit with a leaf per rail
and plane, one panel per plane with its pods or scale units), at sizes generation takes minutes to reach;
tests/designs/test_topology_schematic.py draws generated versions."""
from __future__ import annotations

import pytest
from django.utils import translation

from apps.designs.api.topology.drawing import MAX_WIDTH, schematic_svg
from apps.designs.api.topology.schematic import (
    Column, Leaf, Overview, PlanePanel, ScaleUnitPicture, SpineGroup, columns_per_plane,
)
from tests.designs import svg_geometry

RAILS = 8


def picture(planes: int, tiers: int, *, units: int) -> tuple[ScaleUnitPicture, Overview]:
    """A fabric of `units` pods (3 tiers) or scale units (2 tiers) of 32 eight-GPU servers, its rails split
    evenly over the planes (one leaf per rail and plane in a scale unit), folded as schematic.overview folds."""
    rails_per_plane = max(1, RAILS // planes)
    leaves = [Leaf(f"p{p}-su00-leaf-r{p * rails_per_plane + r}", p, p * rails_per_plane + r, 32, 32)
              for p in range(planes) for r in range(rails_per_plane)]
    groups = [SpineGroup(p, 0 if tiers == 3 else None, 32 if tiers == 3 else 64, 32 * rails_per_plane)
              for p in range(planes)]
    sus_per_pod = 4 if tiers == 3 else 0
    scale_units = units * (sus_per_pod or 1)
    su = ScaleUnitPicture(0, 32, ("su00-srv00", "su00-srv31"), RAILS, leaves, groups, scale_units, sus_per_pod,
                          units if tiers == 3 else 0)
    limit = columns_per_plane(planes)
    panels = []
    for p in range(planes):
        columns = [Column(k, servers=32 * (sus_per_pod or 1), leaves=rails_per_plane * (sus_per_pod or 1),
                          spines=32 if tiers == 3 else 0, sus=sus_per_pod or 1,
                          server_links=32 * rails_per_plane * (sus_per_pod or 1), spine_links=1024, core_links=1024)
                   for k in range(units)]
        if len(columns) > limit:
            rest = columns[limit - 1:]
            more = Column(rest[0].key, more=len(rest))
            for name in ("servers", "leaves", "spines", "sus", "server_links", "spine_links", "core_links"):
                setattr(more, name, sum(getattr(c, name) for c in rest))
            columns = [*columns[:limit - 1], more]
        panels.append(PlanePanel(p, 1024 if tiers == 3 else 0, 0 if tiers == 3 else 64 * 16, columns))
    return su, Overview(tiers, "pod" if tiers == 3 else "su", panels)


def draw(planes: int, tiers: int, units: int) -> str:
    su, overview = picture(planes, tiers, units=units)
    return schematic_svg(title="Hall A · version 1", subtitle="65,536 GPUs", scale_unit=su, overview=overview,
                         rails=RAILS, planes=planes)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("tiers,units", [(2, 20), (3, 64), (2, 1)])
@pytest.mark.parametrize("planes", [1, 2, 4, 8, 16])
def test_no_label_is_painted_over_and_nothing_overlaps(planes, tiers, units, language):
    with translation.override(language):
        svg = draw(planes, tiers, units)
    shapes = svg_geometry.painted(svg)
    counts = [s for s in shapes if s.kind == "text" and "count" in s.classes]
    assert counts, "no link count drawn"
    assert svg_geometry.covered_labels(shapes) == []
    assert svg_geometry.overlapping_boxes(shapes) == []
    assert svg_geometry.overlapping_labels(shapes) == []
    assert svg_geometry.labels_outside_their_box(shapes) == []
    assert svg_geometry.counts_on_boxes(shapes) == []
    width, _height = svg_geometry.size(svg)
    assert width <= MAX_WIDTH + 48, width


def test_every_count_sits_on_a_white_plate_over_its_edge():
    shapes = svg_geometry.painted(draw(8, 3, 64))
    plates = [s for s in shapes if s.kind == "rect" and "count-plate" in s.classes]
    counts = [s for s in shapes if s.kind == "text" and "count" in s.classes]
    assert len(plates) == len(counts)
    for plate, count in zip(plates, counts):
        assert plate.order < count.order
        # The plate covers the text it carries (with the estimate's margin).
        assert plate.box[0] <= count.box[0] + 1 and count.box[2] <= plate.box[2] + 1
