"""The hall (engine.hall): racks filled by height and power, the grid with reserved cells and zones, the errors a
user sees, the devices CSV."""
from __future__ import annotations

import csv
import json

import pytest

from apps.engine.cli import main
from apps.engine.networks.cluster import plan_cluster
from apps.engine.plan import plan
from apps.engine.seedcatalog import seed_catalog
from apps.engine.spec import HallLayout, InfeasibleSpec, RackLayout, SpecError
from apps.engine.specio import spec_from_dict
from tests.engine.builders import dgx, replace, spec, switch

DGX_KW = 10.2  # the builders' DGX H100-like server


def racks_of(result, role):
    return {d.rack for d in result.devices if d.role == role}


def test_servers_per_rack_follow_from_the_power_budget_when_not_fixed():
    result = plan(spec(1_000, server=dgx(), layout=RackLayout(servers_per_rack=0, rack_power_kw=25)))
    assert result.hall.servers_per_rack == 2  # 2 x 10.2 kW fit 25 kW, 3 don't
    compute = [r for r in result.hall.racks if r.kind == "compute"]
    assert max(r.power_typical_w for r in compute) == pytest.approx(2 * DGX_KW * 1000)


def test_servers_per_rack_follow_from_the_height_without_a_budget():
    eight_u = replace(dgx(), rack_units=8)
    result = plan(spec(1_000, server=eight_u, layout=RackLayout(servers_per_rack=0, rack_units=42)))
    assert result.hall.servers_per_rack == 5  # 5 x 8U in 42U


def test_a_fixed_count_over_budget_places_what_fits_and_says_so():
    result = plan(spec(1_000, server=dgx(), layout=RackLayout(servers_per_rack=4, rack_power_kw=25)))
    assert result.hall.servers_per_rack == 2
    [note] = [n for n in result.notes if n.code == "warning.rack_servers_power"]
    assert note.text == "4 servers of 10.2 kW per rack draw 40.8 kW, more than the 25 kW budget: 2 placed per rack"
    assert all(r.power_w <= 25_000 for r in result.hall.racks)


def test_a_budget_that_cannot_hold_one_server_is_a_field_error():
    with pytest.raises(SpecError) as refused:
        plan(spec(1_000, server=dgx(), layout=RackLayout(rack_power_kw=8)))
    [msg] = refused.value.details["layout.rack_power_kw"]
    assert msg.code == "rack.budget_one_server"
    assert msg.text.startswith("a 8 kW rack can't hold one DGX 8-GPU drawing 10.2 kW")


def test_spine_racks_take_as_many_switches_as_the_budget_allows():
    result = plan(spec(5_000, layout=RackLayout(rack_power_kw=6, switches_per_rack=16)))
    assert result.hall.switches_per_rack["spine"] == 10  # 600 W typical each: 10 in 6 kW
    per_rack = {}
    for d in result.devices:
        if d.role == "spine":
            per_rack[d.rack] = per_rack.get(d.rack, 0) + 1
    assert max(per_rack.values()) == result.hall.switches_per_rack["spine"]


def test_leaves_stand_in_the_server_racks_when_asked():
    result = plan(spec(512, layout=RackLayout(leaf_rack="server", servers_per_rack=16)))
    assert racks_of(result, "leaf") <= racks_of(result, "server")
    assert not [r for r in result.hall.racks if r.kind == "network" and any(i.role == "leaf" for i in r.items)]


def test_reserved_cells_hold_no_rack_and_racks_flow_around_them():
    layout = RackLayout(racks_per_row=8, hall=HallLayout(reserved=((1, 2), (1, 5))))
    result = plan(spec(1_000, layout=layout))
    cells = {(r.row, r.position) for r in result.hall.racks}
    assert (0, 1) not in cells and (0, 4) not in cells
    assert (0, 0) in cells and (0, 2) in cells
    assert result.hall.hall.reserved == frozenset({(0, 1), (0, 4)})


def test_zones_put_network_racks_in_network_rows():
    layout = RackLayout(racks_per_row=16, hall=HallLayout(zones=(("network", (1,)),)))
    result = plan(spec(1_000, layout=layout))
    spine_racks = racks_of(result, "spine")
    for rack in result.hall.racks:
        if rack.name in spine_racks:
            assert rack.row == 0 and rack.zone == "network"
        else:  # servers and their SU's leaf racks stand in the compute rows
            assert rack.row != 0 and rack.zone == ""


def test_a_hall_too_small_says_how_many_rows_are_missing():
    with pytest.raises(InfeasibleSpec) as refused:
        plan(spec(5_000, layout=RackLayout(hall=HallLayout(rows=4, positions=16))))
    [msg] = refused.value.details["layout.hall.rows"]
    assert msg.code == "hall.too_small"
    assert msg.params["rows"] == 4 and msg.params["missing"] == msg.params["needed_rows"] - 4 > 0
    assert f"{msg.params['missing']} rows missing" in msg.text


def test_nvl72_racks_need_liquid_and_their_power():
    tray = replace(seed_catalog().servers["DGX-GB200-NVL72-TRAY"], rack_power_w=132_000, cooling="liquid")
    base = dict(server=tray, leaf=switch(64))
    with pytest.raises(SpecError) as refused:
        plan(spec(144, **base, layout=RackLayout(cooling="air", rack_power_kw=150)))
    assert refused.value.details["layout.cooling"][0].code == "rack.cooling_required"
    with pytest.raises(SpecError) as refused:
        plan(spec(144, **base, layout=RackLayout(cooling="liquid", rack_power_kw=100)))
    assert refused.value.details["layout.rack_power_kw"][0].code == "rack.budget_domain"
    result = plan(spec(144, **base, layout=RackLayout(cooling="liquid", rack_power_kw=140)))
    compute = [r for r in result.hall.racks if r.kind == "compute"]
    assert len(compute) == 2 and all(r.power_w == pytest.approx(132_000) for r in compute)
    assert all(sum(i.role == "nvlink-switch" for i in r.items) == 9 for r in compute)


def test_bad_layout_fields_are_refused_by_name():
    with pytest.raises(SpecError) as refused:
        spec_from_dict({"gpus": 64, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
                        "leaf": {"ports": 64, "gbps": 400},
                        "layout": {"cooling": "water", "rack_power_basis": "peak", "leaf_rack": "top",
                                   "hall": {"rows": 2, "reserved": [[3, 1]], "zones": {"office": [1]}}}})
    assert {"layout.cooling", "layout.rack_power_basis", "layout.leaf_rack", "layout.hall.reserved",
            "layout.hall.zones"} <= set(refused.value.errors)


def test_structured_cabling_puts_a_panel_and_a_cable_manager_in_every_rack():
    result = plan(spec(1_000, layout=RackLayout(structured_cabling=True)))
    hall = result.hall
    assert hall.patch_panels == hall.cable_managers == len(hall.racks)
    assert hall.trunks > 0
    for rack in hall.racks:
        roles = [i.role for i in rack.items]
        assert roles.count("patch-panel") == 1 and roles.count("cable-manager") == 1


def test_cli_writes_the_devices_csv_with_positions_and_safe_text(tmp_path):
    data = {"gpus": 256, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400, "name": "=HYPERLINK(1)"},
            "leaf": {"ports": 64, "gbps": 400}, "oob": {"leaf": {"ports": 48, "gbps": 1}},
            "layout": {"rack_width_m": 0.6, "row_pitch_m": 2.4}}
    (tmp_path / "spec.json").write_text(json.dumps(data))
    assert main(["plan", str(tmp_path / "spec.json"), "--devices", str(tmp_path / "devices.csv")]) == 0
    rows = list(csv.DictReader(open(tmp_path / "devices.csv", encoding="utf-8")))
    assert {"device", "role", "network", "rack", "u", "u_height", "x_m", "y_m", "power_typical_w",
            "power_max_w"} <= set(rows[0])
    result = plan_cluster(spec_from_dict(data))
    devices = {d.name: d for d in result.devices}
    server = next(r for r in rows if r["role"] == "server")
    device = devices[server["device"]]
    assert server["rack"] == device.rack and int(server["u"]) == device.rack_unit
    assert float(server["x_m"]) == pytest.approx(device.col * 0.6)
    assert float(server["y_m"]) == pytest.approx(device.row * 2.4)
    assert server["model"] == "'=HYPERLINK(1)"  # a spreadsheet shows it as text
    assert {r["network"] for r in rows} == {"backend", "oob"}
    assert len([r for r in rows if r["role"] != "nvlink-switch"]) == len(result.devices) + len(
        result.networks["oob"].devices)
