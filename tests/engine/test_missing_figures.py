"""A figure we lack is named wherever it would be summed, never a 0 that reads as a value (issue 28, part 3),
and the 2026 parts plan (part 4).

Worked example: NVIDIA's GB200 SuperPOD scalable unit as a whole cluster (8 DGX GB200 NVL72 racks, 576 GPUs on
Quantum-2 QM9700, a front-end on SN5600 and an SN2201 out-of-band switch per rack). NVIDIA publishes no power per
compute tray or per GB200 rack (the RA gives 1.2 MW per SU, network included) and no SN2201 draw in the sources
read; the catalog sells no Cat6A cord.
"""
from __future__ import annotations

import pytest

from apps.engine.cabling import usable_reach
from apps.engine.networks.cluster import plan_cluster
from apps.engine.plan import plan
from apps.engine.report import report
from apps.engine.seedcatalog import seed_catalog
from apps.engine.specio import spec_from_dict

GB200_CLUSTER = {
    "gpus": 576, "server": "DGX-GB200-NVL72-TRAY", "leaf": {"sku": "MQM9700-NS2F"},
    "layout": {"cooling": "liquid", "rack_power_kw": 140},
    "frontend": {"ports_per_server": 2, "gbps": 400, "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"}},
    "oob": {"leaf": {"sku": "SN2201"}},
}
PASSIVE = ("patch-panel", "cable-manager", "power-shelf")  # a power shelf's losses are in the rack's figure


@pytest.fixture(scope="module")
def gb200():
    result = plan_cluster(spec_from_dict(GB200_CLUSTER))
    return result, report(result)


def test_gb200_whole_cluster_names_every_part_without_a_figure_in_its_totals(gb200):
    result, out = gb200
    cluster = out["cluster"]
    assert cluster["power_missing"] == ["SN2201"]
    assert cluster["price_missing"] and all(sku.startswith("CAT6A-") for sku in cluster["price_missing"])
    assert out["networks"]["oob"]["power"]["missing"] == ["SN2201"]
    assert out["networks"]["oob"]["cost"]["missing"] == cluster["price_missing"]
    hall = out["hall"]
    assert {"SN2201", "NVIDIA DGX GB200 NVL72 compute tray", "NVLink switch tray"} <= set(hall["power_missing"])
    codes = {note.code for note in result.notes}
    assert {"warning.power_not_published", "warning.price_not_published",
            "warning.hall_power_not_published"} <= codes
    [hall_note] = [n for n in result.notes if n.code == "warning.hall_power_not_published"]
    assert "NVIDIA DGX GB200 NVL72 compute tray" in hall_note.text and "SN2201" in hall_note.text


def test_the_hall_counts_the_network_as_the_bom_does_so_it_is_never_below_the_networks_power(gb200):
    result, out = gb200
    # Before: 70.4 kW of racks against 116.7 kW of network: optics were in the BOM and nowhere in the racks.
    devices = sum(item.power_typical_w - item.pluggable_w for rack in result.hall.racks for item in rack.items)
    pluggables = sum(item.pluggable_w for rack in result.hall.racks for item in rack.items)
    bom_optics = sum(line.network_typical_w for net in [result, *result.networks.values()] for line in net.bom
                     if line.category in ("transceiver", "cable"))
    assert pluggables == pytest.approx(bom_optics, rel=1e-6)
    assert out["hall"]["power_typical_w"] == pytest.approx(devices + pluggables)
    assert out["hall"]["power_typical_w"] >= out["cluster"]["power_typical_w"] - 1e-6


def test_no_unflagged_zero_in_any_total_rack_item_or_bom_line(gb200):
    result, _ = gb200
    for rack in result.hall.racks:
        if rack.power_typical_w == 0:
            assert rack.power_missing, rack.name
        for item in rack.items:
            if item.power_typical_w == 0 and item.role not in PASSIVE:
                assert item.power_missing, (rack.name, item.name)
    compute = [r for r in result.hall.racks if r.kind == "compute"]
    assert len(compute) == 8 and all("NVIDIA DGX GB200 NVL72 compute tray" in r.power_missing for r in compute)
    for net in [result, *result.networks.values()]:
        for line in net.bom:
            if line.unit_price == 0:
                assert not line.price_published, line.sku
            if line.category in ("switch", "transceiver") and not line.spare and line.power_typical_w == 0:
                assert not line.power_published, line.sku


def test_a_figure_that_is_published_is_counted_not_named():
    # GB300 NVL72: "Full rack requiring up to 142 kW" (NVIDIA Enterprise RA): the compute racks carry it.
    result = plan(spec_from_dict({"gpus": 1152, "server": "ARS-121GL-NB3-LCC-R1", "leaf": {"sku": "Q3400-RA"},
                                  "layout": {"cooling": "liquid", "rack_power_kw": 150}}))
    compute = [r for r in result.hall.racks if r.kind == "compute"]
    assert compute and all(r.power_typical_w == pytest.approx(142_000) for r in compute)
    assert not any("ARS-121GL" in part for r in compute for part in r.power_missing)


def test_every_seed_part_has_a_price_and_a_power_figure_or_none_never_a_zero_for_an_active_part():
    cat = seed_catalog()
    for item in [*cat.switches.values(), *cat.optics, *cat.cables, *cat.fibers, *cat.nics.values()]:
        assert item.price > 0, item
    for model in cat.switches.values():
        assert model.power_typical_w is None or model.power_typical_w > 0, model.sku
    for optic in cat.optics:
        assert optic.power_w is None or optic.power_w > 0, optic.sku
    for cable in cat.cables:  # only passive copper draws nothing
        assert cable.power_w is None or cable.power_w > 0 or cable.media == "DAC", cable.sku


@pytest.mark.parametrize("sku", [s for s, m in seed_catalog().switches.items() if m.power_typical_w is None])
def test_a_seed_switch_without_power_is_named_in_the_bom_and_the_racks(sku):
    model = seed_catalog().switches[sku]
    if model.switch_class == "management":
        data = {"gpus": 64, "server": "DGXH-G640F+P2EDI36", "leaf": {"sku": "920-9N42F-00RI-7C0",
                "breakout": "2x400G"}, "oob": {"leaf": {"sku": sku}}}
    elif model.switch_class == "frontend":
        frontend = {"ports_per_server": 2, "gbps": model.hw().gbps, "leaf": {"sku": sku}}
        if model.hw().uplinks:  # a 25G leaf's 100G uplinks go to a 100G spine (itself without a figure)
            frontend["spine"] = {"sku": "DCS-7050CX3-32S", "breakout": "1x100G"}
        data = {"gpus": 64, "server": "DGXH-G640F+P2EDI36", "leaf": {"sku": "920-9N42F-00RI-7C0",
                "breakout": "2x400G"}, "frontend": frontend, "third_party_optics": True}
    else:
        data = {"gpus": 1152, "server": "ARS-121GL-NB3-LCC-R1", "leaf": {"sku": sku},
                "layout": {"cooling": "liquid", "rack_power_kw": 150}}
    result = plan_cluster(spec_from_dict(data))
    lines = [line for net in [result, *result.networks.values()] for line in net.bom if line.sku == sku]
    assert lines and not any(line.power_published for line in lines if not line.spare)
    assert sku in report(result)["cluster"]["power_missing"]
    assert sku in result.hall.power_missing


def test_gb300_at_800g_plans_on_quantum_x800_with_nvidia_xdr_optics():
    result = plan(spec_from_dict({"gpus": 1152, "server": "ARS-121GL-NB3-LCC-R1",
                                  "leaf": {"sku": "Q3400-RA", "breakout": "2x800G"},
                                  "layout": {"cooling": "liquid", "rack_power_kw": 150}}))
    skus = {line.sku for line in result.bom if line.category == "transceiver"}
    assert skus == {"MMS4A00-XM", "MMS4A20-XM800"}  # switch twin-port 2x800G, ConnectX-8 RHS 1x800G
    assert result.spec.fabric == "infiniband" and result.spec.port_gbps == 800
    assert result.switches["leaf"] and result.wiring.as_stated


def test_gb300_on_spectrum_4_plans_as_two_400g_planes_and_refuses_one_800gbe_port():
    split = plan(spec_from_dict({"gpus": 1152, "server": "ARS-121GL-NB3-LCC-R1", "planes": 2, "nic_split": 2,
                                 "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "2x400G"},
                                 "layout": {"cooling": "liquid", "rack_power_kw": 150}}))
    assert split.planes == 2 and split.spec.port_gbps == 400
    # ConnectX-8 runs Ethernet as 2x 400GbE (NVIDIA firmware notes): no NVIDIA 1x800G Ethernet link to it exists.
    with pytest.raises(Exception) as refused:
        plan(spec_from_dict({"gpus": 1152, "server": "ARS-121GL-NB3-LCC-R1",
                             "leaf": {"sku": "920-9N42F-00RI-7C0", "breakout": "1x800G"},
                             "layout": {"cooling": "liquid", "rack_power_kw": 150}}))
    assert "cabling.server-leaf" in refused.value.errors


def test_arista_7060x6_at_2x400g_plans_with_arista_twin_port_optics_and_no_third_party_parts():
    result = plan(spec_from_dict({"gpus": 1024, "server": "DGXB-G1440+P2CMI36",
                                  "leaf": {"sku": "DCS-7060X6-64PE", "breakout": "2x400G"}}))
    catalog = seed_catalog()
    switch_side = {m.b_sku for m in result.media if m.b_sku} | {m.a_sku for m in result.media if m.tier >= 1}
    vendors = {o.vendor for o in catalog.optics if o.sku in switch_side} | {
        c.vendor for c in catalog.cables if c.sku in switch_side}
    assert "OSFP-800G-2XDR4" in switch_side and vendors == {"Arista"}
    assert not result.spec.third_party_optics


def test_seed_data_fixes_nm_reach_and_the_connectx7_socket_direct_card():
    optics = {o.sku: o for o in seed_catalog().optics}
    assert optics["MMS4X00-NM"].reach_m == optics["MMS4X00-NM-FLT"].reach_m == 500
    assert seed_catalog().nics["MCX75510AAS-NEAT"].form_factor == "OSFP"


def test_deepseek_template_takes_no_sr_optic_at_its_50_m_limit():
    result = plan(spec_from_dict({"gpus": 16384, "server": "DGXH-G640F+P2EDI36", "leaf": {"sku": "MQM9700-NS2F"},
                                  "planes": 8, "tiers": 2}))
    reach = {o.sku: o.reach_m for o in seed_catalog().optics}
    for m in result.media:
        if m.kind in ("SR", "DR", "FR"):
            assert m.length_m <= usable_reach(min(reach[m.a_sku], reach[m.b_sku])), m.key
