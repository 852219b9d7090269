"""The racks chapter's floor plan reads in print: a key plan and sheets whose rack numbers and row names are
at least 2.5 mm high on the page, every rack on a sheet, the legend under the racks, cooling short said."""
from __future__ import annotations

import re
import xml.dom.minidom

import pytest

from apps.documents.chapters import racks as chapter
from apps.documents.model import Figure, Paragraph
from apps.racks.models import Rack
from tests.designs.conftest import inputs, member, project, seed  # noqa: F401
from tests.exports.test_exports import generate

pytestmark = pytest.mark.django_db


class _Source:
    def __init__(self, version):
        self.version = version


def _labels(svg: str) -> list[tuple[float, float]]:
    """(font size, y) of every rack number and row name."""
    return [(float(size), float(y)) for y, size in re.findall(
        r'<text class="(?:rack|row)-label"[^>]* y="([0-9.]+)" font-size="([0-9.]+)"', svg)]


def test_a_big_hall_prints_as_a_key_plan_and_sheets_legible_in_print(project, member, seed,
                                                                    django_capture_on_commit_callbacks):
    version = generate(project, member, inputs(seed, gpus=5_000), django_capture_on_commit_callbacks)
    built = chapter.build(_Source(version))
    figures = [b for b in built.blocks if isinstance(b, Figure) and "rack-elevation" not in b.svg]
    key, sheets = figures[0], figures[1:]
    assert "sheet-label" in key.svg and 'class="rack-label"' not in key.svg and len(sheets) >= 2
    seen: set[str] = set()
    for figure in sheets:
        xml.dom.minidom.parseString(figure.svg)
        width = float(re.search(r'width="([0-9.]+)"', figure.svg).group(1))
        mm_per_unit = figure.width_mm / width
        labels = _labels(figure.svg)
        assert labels and min(size for size, _y in labels) * mm_per_unit >= 2.5 - 1e-6
        assert figure.width_mm <= 170
        seen.update(re.findall(r'data-rack="([^"]+)"', figure.svg))
        # The legend starts under the lowest rack: it covers none.
        legend_y = float(re.search(r'class="legend-title" x="[0-9.]+" y="([0-9.]+)"', figure.svg).group(1))
        rack_bottoms = [float(y) + float(h) for y, h in re.findall(
            r'<rect class="rack[^"]*"[^>]* y="([0-9.]+)" width="[0-9.]+" height="([0-9.]+)"', figure.svg)]
        assert legend_y > max(rack_bottoms)
    assert seen == set(Rack.objects.filter(version=version).values_list("name", flat=True))
    # 40.8 kW racks of four DGX H100 need more than the air the site offers by default: said, not silent.
    warning = next(b for b in built.blocks if isinstance(b, Paragraph) and b.style == "warning")
    assert "rear-door heat exchanger" in warning.text and "the site offers air" in warning.text


def test_a_hall_of_many_racks_gets_a_key_plan_by_row_segment(project, member, seed, django_capture_on_commit_callbacks,
                                                             monkeypatch):
    from apps.documents.key_plan import segments
    from apps.racks.selectors import hall_plan, rack_summaries

    version = generate(project, member, inputs(seed, gpus=5_000), django_capture_on_commit_callbacks)
    monkeypatch.setattr(chapter, "KEY_PLAN_RACKS", 0)  # as above 5,000 racks (34,693 at 1,000,000 GPUs)
    built = chapter.build(_Source(version))
    figures = [b for b in built.blocks if isinstance(b, Figure) and "rack-elevation" not in b.svg]
    key, sheets = figures[0], figures[1:]
    xml.dom.minidom.parseString(key.svg)
    hall, racks = hall_plan(version=version), rack_summaries(version=version)
    runs = segments(hall, racks)
    # one bar per row segment (every rack in exactly one), no shape per rack, the sheets numbered on it
    assert sum(run["racks"] for run in runs) == len(racks) > len(runs)
    assert "data-rack" not in key.svg and key.svg.count("<rect") < len(racks)
    assert [int(n) for n in re.findall(r'paint-order="stroke">(\d+)</text>', key.svg)] == list(
        range(1, len(sheets) + 1))
    # the sheets are the same as with the detailed key plan, each with racks of its own
    assert all(re.search(r'data-rack="', figure.svg) for figure in sheets)
