"""Planes from a split NIC port: the worked example from NVIDIA's DGX SuperPOD with DGX B300 (Spectrum-X).

NVIDIA DGX SuperPOD Reference Architecture, DGX B300 (Network Fabrics): "The Spectrum-X based compute fabric
features a twin-planar design ... Each GPU has 2x 400GbE connectivity through two different planes"; its
Table 3 (Larger DGX SuperPOD component counts): SUs of 64 nodes (512 GPUs) with 16 leaves and 8 spines, 2 SUs
32 / 16, 4 SUs 64 / 32, 8 SUs 128 / 64, 16 SUs (8,192 GPUs) 256 / 128, and one node-leaf cable per GPU.
"""
from __future__ import annotations

import numpy as np
import pytest

from apps.engine.plan import alternatives, plan
from apps.engine.spec import InfeasibleSpec, SpecError
from apps.engine.specio import spec_from_dict
from apps.engine.topology import size_fabric
from apps.engine.traffic.analysis import analyze

B300 = "90SF02H1-M00030"  # HGX B300, 8x ConnectX-8 800G
SN5600 = {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}  # 64x800G OSFP as 128x400G


def b300(gpus: int, **extra):
    return spec_from_dict({"gpus": gpus, "server": B300, "nic_split": 2, "planes": 2, "leaf": SN5600, **extra})


@pytest.mark.parametrize("sus, leaves, spines", [(1, 16, 8), (2, 32, 16), (4, 64, 32), (8, 128, 64),
                                                 (16, 256, 128)])
def test_dgx_b300_twin_plane_superpod_counts(sus, leaves, spines):
    result = plan(b300(sus * 512))
    assert result.scale_units == sus
    assert result.switches == {"leaf": leaves, "spine": spines, "core": 0}
    assert result.links_by_tier["server-leaf"] == 2 * sus * 512  # 2x 400G per GPU
    assert result.wiring.as_stated


def test_each_part_of_a_split_port_lands_on_its_own_plane_in_one_cage():
    result = plan(b300(512))
    links = result.links
    tier0 = links.tier == 0
    a_port, plane, a_dev = links.a_port[tier0], links.plane[tier0], links.a_dev[tier0]
    physical = 8
    # logical port L is part L // 8 of physical port L % 8: part 0 on plane 0, part 1 on plane 1
    assert np.array_equal(plane, a_port // physical)
    for server in (0, 63):
        mine = a_dev == server
        for port in range(physical):
            planes = sorted(plane[mine & (a_port % physical == port)].tolist())
            assert planes == [0, 1]
    # one twin-port optic per 800G NIC cage (the RA's one node-leaf cable per GPU), a fibre per 400G part
    server_optics = sum(line.qty for line in result.bom if line.category == "transceiver" and not line.spare
                        and line.scope == "in-server")
    assert server_optics == 512
    assert result.spec.rails == 16 and result.spec.port_gbps == 400


def test_split_report_and_traffic_follow_the_planes():
    result = plan(b300(1024))
    traffic = analyze(result, pattern="all-reduce", max_flows=20_000)
    assert traffic.rails == 16 and traffic.line_gbps == 400


def test_a_split_the_nic_does_not_publish_is_a_field_error():
    with pytest.raises(InfeasibleSpec) as err:
        spec_from_dict({"gpus": 512, "server": B300, "nic_split": 4, "planes": 4,
                        "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "4x200G"}})
    assert "nic_split" in err.value.errors
    assert "2x400G" in err.value.errors["nic_split"][0]
    assert err.value.details["nic_split"][0].code == "nic.split_mode"


def test_planes_must_be_a_multiple_of_the_split():
    with pytest.raises(SpecError) as err:
        b300(512, planes=1)
    assert err.value.details["planes"][0].code == "nic.split_planes"


def test_a_split_of_a_nic_without_breakouts_is_refused():
    with pytest.raises(InfeasibleSpec) as err:
        spec_from_dict({"gpus": 512, "server": "DGXH-G640F+P2EDI36", "nic_split": 2, "planes": 2,
                        "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "4x200G"}})
    assert err.value.details["nic_split"][0].code == "nic.split_mode"


def test_alternatives_of_a_split_design_keep_the_parts_on_planes_of_their_own():
    alts = alternatives(b300(512))
    assert alts and all(alt.planes % 2 == 0 for alt in alts)
    assert any(alt.current and alt.feasible for alt in alts)


def test_without_a_split_nothing_changes():
    whole = spec_from_dict({"gpus": 512, "server": B300, "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "1x800G"}})
    assert whole.nic_split == 1 and whole.rails == 8 and whole.port_gbps == 800
    assert size_fabric(whole).links_by_tier["server-leaf"] == 512


def test_cli_plans_a_split_rack_scale_design_and_reports_its_domains(tmp_path, capsys):
    import json

    from apps.engine.cli import main

    spec = {"gpus": 576, "server": "ARS-121GL-NB3-LCC-R1", "nic_split": 2, "planes": 2, "leaf": SN5600}
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    assert main(["plan", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nic_split"] == 2 and out["port_gbps"] == 400 and out["planes"] == 2
    assert out["scale_up"]["domains"] == 8 and out["scale_up"]["gpus_per_domain"] == 72
    assert out["links"]["server-leaf"] == 1152
    path.write_text(json.dumps({**spec, "nic_split": 3}))
    assert main(["plan", str(path)]) == 2
    assert "nic_split" in capsys.readouterr().err
