"""SONiC config_db files that a switch accepts as they are: checked against SONiC's YANG models with libyang,
breakout mode names and port lanes from the platform's own files, buffer pools from the switch's own buffer."""
from __future__ import annotations

import copy
import json

import pytest

from apps.engine.plan import plan
from apps.engine.roce import RoceSettings, roce_configs
from apps.engine.roce.platform import sonic_platform
from apps.engine.seedcatalog import seed_catalog
from apps.engine.specio import spec_from_dict

from .sonic_yang_check import yang_errors

SERVER = "DGXB-G1440+P2CMI36"  # DGX B200: 8 x 400G backend ports
# Every seed switch that carries a backend Ethernet fabric, hence gets a SONiC config_db.
SONIC_SWITCHES = sorted(sku for sku, m in seed_catalog().switches.items()
                        if m.fabric == "ethernet" and m.switch_class == "fabric")
# Designs that put the switch at every tier it can hold: leaves and spines, a core, two planes.
SHAPES = {"two-tier": {"gpus": 256}, "three-tier": {"gpus": 512, "tiers": 3}, "multi-plane": {"gpus": 256, "planes": 2}}


def _design(sku: str, shape: str):
    model = seed_catalog().switches[sku]
    at_400 = [m for m in model.breakouts if m.endswith("x400G")]
    leaf = {"sku": sku, "breakout": at_400[0]} if at_400 else {"sku": sku}
    return plan(spec_from_dict({"server": SERVER, "leaf": leaf, "third_party_optics": True, **SHAPES[shape]}))


@pytest.fixture(scope="module")
def generated():
    """Every switch file of every seed switch in every shape: {(sku, shape): (plan, {name: text})}."""
    out = {}
    for sku in SONIC_SWITCHES:
        for shape in SHAPES:
            p = _design(sku, shape)
            out[sku, shape] = (p, {n: t for n, t in roce_configs(p, RoceSettings()) if not n.startswith("server/")})
    return out


def test_every_seed_fabric_switch_has_sonic_platform_data():
    missing = [sku for sku in SONIC_SWITCHES if sonic_platform(seed_catalog().switch(sku)) is None]
    assert SONIC_SWITCHES and missing == []


@pytest.mark.parametrize("sku", SONIC_SWITCHES)
@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_config_db_loads_against_sonic_yang_with_no_error(generated, sku, shape):
    p, files = generated[sku, shape]
    dbs = {n: t for n, t in files.items() if n.endswith(".config_db.json")}
    roles = {d.role for d in p.devices if d.role != "server"}
    assert {n.split("/")[0] for n in dbs} == roles and ("core" in roles) == (shape == "three-tier")
    assert len(dbs) == sum(1 for d in p.devices if d.role != "server")
    errors = {name: yang_errors(text) for name, text in dbs.items()}
    assert {name: e for name, e in errors.items() if e} == {}


@pytest.mark.parametrize("sku, mode", [
    ("920-9N42F-00RI-7C0", "2x400G[200G,100G,50G,40G,25G,10G]"),  # NVIDIA SN5600: its platform.json
    ("Z9864F-ON", "2x400G(8)"),  # Dell Z9864F-ON
    ("DCS-7060X6-64PE", "2x400G"),  # Arista 7060X6-64PE
    ("DCS-7060DX5-64S", "1x400G[200G,100G,50G,40G,25G,10G]"),  # Arista 7060DX5-64S, native 400G cages
])
def test_breakout_cfg_names_every_cage_with_the_platforms_own_mode(generated, sku, mode):
    p, files = generated[sku, "two-tier"]
    cages = seed_catalog().switches[sku].cages
    for role in ("leaf", "spine"):
        device = next(d for d in p.devices if d.role == role)
        db = json.loads(files[f"{role}/{device.name}.config_db.json"])
        assert len(db["BREAKOUT_CFG"]) == cages
        assert {row["brkout_mode"] for row in db["BREAKOUT_CFG"].values()} == {mode}


@pytest.mark.parametrize("sku", SONIC_SWITCHES)
def test_every_catalog_breakout_maps_to_a_mode_the_platform_offers(sku):
    model = seed_catalog().switches[sku]
    platform = sonic_platform(model.hw())
    for breakout in model.breakouts:
        name = platform.mode_name(breakout)
        assert name is not None and name.startswith(breakout), (breakout, name)
        assert all(name in cage.modes for cage in platform.cages)


@pytest.mark.parametrize("sku", SONIC_SWITCHES)
def test_port_rows_cover_every_lane_of_every_cage_and_only_cabled_ports_are_up(generated, sku):
    p, files = generated[sku, "two-tier"]
    leaf = next(d for d in p.devices if d.role == "leaf")
    db = json.loads(files[f"leaf/{leaf.name}.config_db.json"])
    platform = sonic_platform(p.spec.leaf)
    lanes = [int(x) for row in db["PORT"].values() for x in row["lanes"].split(",")]
    assert sorted(lanes) == sorted(lane for cage in platform.cages for lane in cage.lanes)
    assert len(db["PORT"]) == p.spec.leaf.ports
    up = {name for name, row in db["PORT"].items() if row["admin_status"] == "up"}
    assert up == {key for key in db["INTERFACE"] if "|" not in key}
    meta = db["DEVICE_METADATA"]["localhost"]
    assert meta["platform"] == platform.platform and meta["hwsku"] in platform.hwskus


def test_hwsku_is_the_one_whose_ports_run_the_designs_breakout(generated):
    hwskus = {sku: json.loads(next(t for n, t in files.items() if n.startswith("leaf/")))["DEVICE_METADATA"]
              ["localhost"]["hwsku"] for (sku, shape), (_p, files) in generated.items() if shape == "two-tier"}
    # sonic-buildimage: Mellanox-SN5600-O128 and Arista-7060X6-64PE-O128S2 are 128 x 400G; Dell ships one
    # 64 x 800G HWSKU only, which BREAKOUT_CFG re-splits.
    assert hwskus == {"920-9N42F-00RI-7C0": "Mellanox-SN5600-O128", "DCS-7060X6-64PE": "Arista-7060X6-64PE-O128S2",
                      "Z9864F-ON": "Dell-Z9864f-O64", "DCS-7060DX5-64S": "Arista-7060DX5-64S"}


@pytest.mark.parametrize("table, key, field, value, expected", [
    ("PORT", None, "mtu", "99999", "out of type uint16"),  # above SONiC's port MTU range
    ("PORT_QOS_MAP", None, "dscp_to_tc_map", "NO_SUCH_MAP", "leafref"),  # names no DSCP_TO_TC_MAP
    ("BGP_NEIGHBOR_AF", None, "admin_status", "true", "enumeration"),  # the up/down enum, not a boolean
    ("PORT", None, "lanes", None, "Mandatory node \"lanes\""),
])
def test_a_broken_value_is_caught_by_the_yang_check(generated, table, key, field, value, expected):
    _p, files = generated["920-9N42F-00RI-7C0", "two-tier"]
    db = json.loads(next(t for n, t in files.items() if n.startswith("leaf/")))
    assert yang_errors(db) == []
    broken = copy.deepcopy(db)
    row = broken[table][key or next(iter(broken[table]))]
    if value is None:
        del row[field]
    else:
        row[field] = value
    errors = yang_errors(broken)
    assert len(errors) == 1 and expected in errors[0]


def test_an_unknown_table_or_field_is_an_error_too():
    assert yang_errors({"NO_SUCH_TABLE": {"x": {}}}) == ["NO_SUCH_TABLE: table is not modelled"]
    assert yang_errors({"LOOPBACK_INTERFACE": {"Loopback0": {"colour": "red"}}}) == [
        "LOOPBACK_INTERFACE|Loopback0: field 'colour' is not in the model"]


# --- buffers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("sku", SONIC_SWITCHES)
def test_buffer_pools_come_from_the_switch_models_own_buffer(generated, sku):
    p, files = generated[sku, "two-tier"]
    model = seed_catalog().switches[sku]
    for role in ("leaf", "spine"):
        device = next(d for d in p.devices if d.role == role)
        db = json.loads(files[f"{role}/{device.name}.config_db.json"])
        if model.buffer_mb is None:  # not published: the platform's own pools stay, none of ours
            assert not {"BUFFER_POOL", "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE"} & set(db)
            continue
        total = round(model.buffer_mb * 2**20)
        pools = db["BUFFER_POOL"]
        assert pools["egress_lossless_pool"]["size"] == str(total)
        # shared = buffer - every cabled port's lossless PG (xon + xoff) for each lossless priority
        pg = [db["BUFFER_PROFILE"][row["profile"]] for key, row in db["BUFFER_PG"].items() if key.endswith("|3")]
        reserved = sum(int(profile["size"]) for profile in pg)
        assert int(pools["ingress_lossless_pool"]["size"]) <= total - reserved
        assert int(pools["ingress_lossless_pool"]["size"]) == int(pools["egress_lossy_pool"]["size"])


def test_spectrum4_and_tomahawk5_pools_are_sized_from_about_160_mb_not_64():
    for sku in ("920-9N42F-00RI-7C0", "DCS-7060X6-64PE", "Z9864F-ON"):
        assert 150 <= seed_catalog().switches[sku].buffer_mb <= 170


def test_a_stated_buffer_overrides_the_models_and_none_leaves_pools_unsized():
    p = _design("DCS-7060DX5-64S", "two-tier")  # Tomahawk 4: no published buffer in the seed
    leaf = next(d for d in p.devices if d.role == "leaf")
    name = f"leaf/{leaf.name}.config_db.json"
    assert "BUFFER_POOL" not in json.loads(dict(roce_configs(p, RoceSettings()))[name])
    stated = RoceSettings.from_dict({"buffer": {"switch_buffer_mb": 100}})
    db = json.loads(dict(roce_configs(p, stated))[name])
    assert db["BUFFER_POOL"]["egress_lossless_pool"]["size"] == str(100 * 2**20)
    assert yang_errors(db) == []


# --- switches without platform data --------------------------------------------------------------

def test_a_switch_without_platform_data_gets_a_note_or_a_fragment_when_asked():
    spec = spec_from_dict({"server": SERVER, "gpus": 256, "third_party_optics": True,
                           "leaf": {"ports": 128, "gbps": 400, "cages": 64, "cage_gbps": 800, "breakout": "2x400G",
                                    "sku": "SOME-64x800G", "name": "Some 64x800G switch"}})
    p = plan(spec)
    leaf = next(d for d in p.devices if d.role == "leaf")
    files = dict(roce_configs(p, RoceSettings()))
    note = files[f"leaf/{leaf.name}.config_db.missing-platform.txt"]
    assert "no SONiC platform data for Some 64x800G switch" in note and "sonic_fragment" in note
    assert not any(n.endswith(".json") for n in files)
    fragment = json.loads(dict(roce_configs(p, RoceSettings(sonic_fragment=True)))
                          [f"leaf/{leaf.name}.config_db.fragment.json"])
    assert "hwsku" not in fragment["DEVICE_METADATA"]["localhost"]
    assert all("lanes" not in row for row in fragment["PORT"].values())


@pytest.mark.parametrize("changes", [
    {"trust": "pcp"},  # DOT1P_TO_TC_MAP instead of the DSCP map on the ports
    {"ecn_enabled": False, "pfc_watchdog": {"enabled": False}},
    {"roce_dscp": 24, "cnp_dscp": 46, "pfc_priority": 4, "cnp_priority": 7, "cnp_strict_priority": False,
     "mtu": 9216, "pfc_watchdog": {"detection_ms": 400, "restoration_ms": 1000, "poll_ms": 100, "action": "alert"}},
    {"overrides": {"leaf": {"pfc_priorities": [3, 4], "headroom_kb": 200}, "spine": {"mtu": 1500}}},
    {"buffer": {"switch_buffer_mb": 64}},
])
def test_config_db_of_changed_roce_settings_still_loads(changes):
    p = _design("Z9864F-ON", "two-tier")
    settings = RoceSettings.from_dict(changes)
    errors = {name: yang_errors(text) for name, text in roce_configs(p, settings) if name.endswith(".config_db.json")}
    assert errors and {name: e for name, e in errors.items() if e} == {}
