"""The drawings as pure functions of selector data: colours against the budget, escaping, both faces."""
from __future__ import annotations

import re
import xml.dom.minidom

from django.utils import translation

from apps.racks.selectors import HallPlan, RackContent, RackSummary
from apps.racks.svg import POWER_STEPS, floorplan_svg, rack_elevation_svg

HALL = HallPlan(rows=2, positions=3, rack_width_m=0.6, row_pitch_m=2.4, rack_units=48, budget_w=40_000,
                power_basis="typical", cooling="air", reserved=[{"row": 1, "position": 2}],
                zones=[{"kind": "compute", "rows": [0, 0]}, {"kind": "network", "rows": [1, 1]}])


def rack(name, row, position, typical, *, budget=40_000, kind="compute"):
    return RackSummary(name=name, kind=kind, zone="", row=row, position=position, x_m=position * 0.6, y_m=row * 2.4,
                       u_height=48, used_u=32, power_typical_w=typical, power_max_w=typical * 1.2, budget_w=budget,
                       cooling="air", pod=None, su=0, items=4)


def item(name, u, height=8, face="front", role="server", kind="device"):
    return RackContent(name=name, kind=kind, role=role, network="backend", sku="SKU", model="Model", u=u,
                       u_height=height, face=face, full_depth=kind == "device", power_typical_w=10_000,
                       power_max_w=10_200)


def fills(svg: str) -> dict[str, str]:
    return dict(re.findall(r'data-rack="([^"]+)"[^>]*fill="(#[0-9a-f]+)"', svg))


def test_racks_are_coloured_by_power_against_the_budget_and_an_overfull_one_says_so():
    svg = floorplan_svg(HALL, [rack("R001-01", 0, 0, 5_000), rack("R001-02", 0, 1, 39_000),
                               rack("R002-01", 1, 0, 44_000, kind="network")])
    xml.dom.minidom.parseString(svg)  # well-formed
    colour = fills(svg)
    assert colour["R001-01"] == POWER_STEPS[0][1]
    assert colour["R001-02"] == POWER_STEPS[4][1]
    assert colour["R002-01"] == POWER_STEPS[-1][1]
    assert "R002-01 · 44.0 kW of 40.0 kW · over the budget" in svg
    assert svg.count('class="reserved"') == 1 and 'class="zone zone-network"' in svg


def test_the_maximum_basis_holds_maximum_draw_against_the_budget():
    hall = HallPlan(**{**{f: getattr(HALL, f) for f in HallPlan.__slots__}, "power_basis": "maximum"})
    svg = floorplan_svg(hall, [rack("R001-01", 0, 0, 35_000)])  # 42 kW maximum
    assert fills(svg)["R001-01"] == POWER_STEPS[-1][1]
    assert "Power per rack (maximum draw)" in svg


def test_names_are_escaped_and_links_come_from_the_caller():
    svg = floorplan_svg(HALL, [rack('R<1>"&', 0, 0, 1_000)], rack_href=lambda name: f"/r/?n={name}")
    xml.dom.minidom.parseString(svg)
    assert "<1>" not in svg and "R&lt;1&gt;&quot;&amp;" in svg
    assert 'href="/r/?n=R&lt;1&gt;&quot;&amp;"' in svg


def test_elevation_draws_both_faces_and_the_power_bar():
    items = [item("srv-0", 1), item("srv-1", 9), item("pp-1", 48, height=1, face="rear", role="patch-panel",
                                                    kind="patch-panel")]
    svg = rack_elevation_svg(rack("R001-01", 0, 0, 20_000), items, device_href=lambda i: f"/t/?device={i.name}")
    xml.dom.minidom.parseString(svg)
    front = svg[svg.index('class="face face-front"'):svg.index('class="face face-rear"')]
    rear = svg[svg.index('class="face face-rear"'):]
    assert 'data-item="srv-0"' in front and 'class="item mounted"' in front
    assert 'data-item="srv-0"' in rear and 'class="item depth"' in rear  # full depth: seen from the rear too
    assert 'data-item="pp-1"' in rear and 'data-item="pp-1"' not in front  # a patch panel is not
    assert 'href="/t/?device=srv-0"' in svg
    assert "20.0 kW of 40.0 kW budget (typical draw, 50 %)" in svg


def test_elevation_without_a_budget_and_in_chinese():
    with translation.override("zh-hans"):
        svg = rack_elevation_svg(rack("R001-01", 0, 0, 20_000, budget=None), [item("srv-0", 1)])
    assert "正面" in svg and "背面" in svg and "未设预算" in svg
