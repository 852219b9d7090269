"""RoCE lossless settings: validation, headroom, the design-review checklist and generated configs."""
from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import time
import tracemalloc

import pytest

from apps.engine.names import port_name
from apps.engine.plan import plan
from apps.engine.roce import (RULES, RoceSettings, headroom_bytes, link_classes, port_headroom, roce_checklist,
                              roce_configs, roce_headroom)
from apps.engine.roce.settings import BufferSettings
from apps.engine.spec import CableAssembly, DesignSpec, FiberCord, NicHw, Optic, ServerHw, SpecError, SwitchHw

OPTICS = (Optic("SR-400", "OSFP", 400, 400, 1, "SR", "MMF", 50),
          Optic("DR-400", "OSFP", 400, 400, 1, "DR", "SMF", 500))
CABLES = tuple(CableAssembly(f"DAC-400-{m}M", "DAC", "OSFP", "OSFP", 400, 400, 1, m) for m in (1, 2, 3))
FIBERS = (tuple(FiberCord(f"MMF-{m}M", "MMF", m) for m in (3, 5, 10, 20, 30, 50))
          + tuple(FiberCord(f"SMF-{m}M", "SMF", m) for m in (3, 5, 10, 20, 30, 50, 100, 200, 300, 500)))


CONNECTX7 = NicHw(ports=1, gbps=400, sku="MCX75310AAS-NEAT", name="NVIDIA ConnectX-7 400G OSFP", vendor="NVIDIA")


def make_spec(gpus: int, *, ports: int = 64, **kwargs) -> DesignSpec:
    return DesignSpec(gpus=gpus, server=ServerHw(gpus=8, nic_ports=8, nic_gbps=400),
                      leaf=SwitchHw(ports=ports, gbps=400, sku=f"SW-{ports}x400G", buffer_mb=64.0), optics=OPTICS, cables=CABLES,
                      fibers=FIBERS, **{"nic": CONNECTX7, **kwargs})


@pytest.fixture(scope="module")
def two_tier():
    return plan(make_spec(1024))


@pytest.fixture(scope="module")
def three_tier():
    return plan(make_spec(5000))


def by_code(findings, code, severity=None):
    return [f for f in findings if f.code == code and (severity is None or f.severity == severity)]


# --- settings ---------------------------------------------------------------------------------

def test_default_settings_use_the_documented_roce_values():
    s = RoceSettings()
    assert (s.pfc_priority, s.roce_dscp, s.cnp_dscp, s.cnp_priority) == (3, 26, 48, 6)
    assert s.lossless_priorities == (3,)
    assert (s.mtu, s.roce_mtu) == (9100, 4096)
    assert set(s.ecn) == {100, 200, 400, 800}
    assert all(t.kmin < t.kmax and 1 <= t.pmax <= 100 for t in s.ecn.values())
    assert s.pfc_watchdog.enabled


def test_settings_round_trip_through_json():
    s = RoceSettings.from_dict({"ecn": {"400": {"kmin": 500}}, "overrides": {"spine": {"mtu": 1500}},
                                "dcqcn": {"rpg_ai_rate": 10}})
    assert RoceSettings.from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_partial_user_json_changes_only_what_it_names():
    s = RoceSettings.from_dict({"ecn": {"400": {"kmin": 500}}, "pfc_watchdog": {"detection_ms": 400}})
    assert s.ecn[400].kmin == 500
    assert s.ecn[400].kmax == RoceSettings().ecn[400].kmax
    assert s.ecn[800] == RoceSettings().ecn[800]
    assert s.pfc_watchdog.detection_ms == 400 and s.pfc_watchdog.restoration_ms == 200


@pytest.mark.parametrize("data, field", [
    ({"ecn": {"400": {"kmin": -5}}}, "roce.ecn.400.kmin"),
    ({"ecn": {"400": {"pmax": 150}}}, "roce.ecn.400.pmax"),
    ({"ecn": {"1600": {"kmin": 10}}}, "roce.ecn.1600.kmax"),
    ({"ecn": {"fast": {"kmin": 10}}}, "roce.ecn.fast"),
    ({"pfc_priority": 8}, "roce.pfc_priority"),
    ({"roce_dscp": "twenty-six"}, "roce.roce_dscp"),
    ({"cnp_dscp": 64}, "roce.cnp_dscp"),
    ({"roce_mtu": 9000}, "roce.roce_mtu"),
    ({"trust": "cos"}, "roce.trust"),
    ({"mtu": float("nan")}, "roce.mtu"),
    ({"dcqcn": {"rpg_gd": 99}}, "roce.dcqcn.rpg_gd"),
    ({"dcqcn": {"rp_enable": "maybe"}}, "roce.dcqcn.rp_enable"),
    ({"pfc_watchdog": {"action": "explode"}}, "roce.pfc_watchdog.action"),
    ({"buffer": {"cell_bytes": 0}}, "roce.buffer.cell_bytes"),
    ({"overrides": {"router": {"mtu": 9100}}}, "roce.overrides.router"),
    ({"overrides": {"nic": {"pfc_priorities": [3, 9]}}}, "roce.overrides.nic.pfc_priorities.1"),
    ({"overrides": {"nic": {"headroom_kb": 100}}}, "roce.overrides.nic.headroom_kb"),
    ({"overrides": {"spine": {"colour": "red"}}}, "roce.overrides.spine.colour"),
    ({"pfc": 3}, "roce.pfc"),
])
def test_from_dict_rejects_bad_values_naming_the_field(data, field):
    with pytest.raises(SpecError) as err:
        RoceSettings.from_dict(data)
    assert field in err.value.errors


def test_from_dict_reports_every_bad_field_at_once():
    with pytest.raises(SpecError) as err:
        RoceSettings.from_dict({"pfc_priority": -1, "ecn": {"400": {"kmin": -1}}, "mtu": 100})
    assert {"roce.pfc_priority", "roce.ecn.400.kmin", "roce.mtu"} <= set(err.value.errors)


def test_from_dict_accepts_form_strings():
    s = RoceSettings.from_dict({"pfc_priority": "4", "ecn_enabled": "false", "roce_mtu": "2048"})
    assert (s.pfc_priority, s.ecn_enabled, s.roce_mtu) == (4, False, 2048)


# --- headroom ---------------------------------------------------------------------------------

def test_headroom_matches_the_documented_formula():
    # 400G = 50 bytes/ns; delay = 2*100 m*5 ns + 2*250 ns + 500 ns = 2,000 ns -> 100,000 bytes,
    # + 2 * 9,100 bytes MTU + 64 bytes PFC frame = 118,264 -> 462 cells of 256 bytes
    assert headroom_bytes(length_m=100, gbps=400, mtu_local=9100) == 462 * 256


def test_headroom_counts_the_whole_ethernet_frame_of_the_sonic_ip_mtu(three_tier):
    # SONiC's PORT mtu is the IP MTU (orchagent programs mtu + 14 header + 4 FCS + 4 VLAN into the ASIC), so
    # the largest frame on the wire is mtu + 18 bytes: headroom = 2 frames + the bytes in flight + a PFC frame.
    for mtu in range(9_000, 9_256, 4):
        for h in roce_headroom(three_tier, RoceSettings(mtu=mtu)):
            in_flight = 400 / 8 * (2 * h.link_class.longest_m * 5 + 2 * 250 + 500)
            exact = in_flight + 2 * (mtu + 18) + 64
            assert h.needed % 256 == 0 and exact <= h.needed < exact + 256, (mtu, h.link_class.name)


def test_headroom_grows_with_cable_length_and_speed():
    lengths = [1, 5, 30, 100, 500, 2000]
    by_length = [headroom_bytes(length_m=m, gbps=400, mtu_local=9100) for m in lengths]
    assert by_length == sorted(by_length) and len(set(by_length)) == len(by_length)
    by_speed = [headroom_bytes(length_m=100, gbps=g, mtu_local=9100) for g in (100, 200, 400, 800)]
    assert by_speed == sorted(by_speed) and len(set(by_speed)) == 4
    assert all(h % 256 == 0 for h in by_length + by_speed)


def test_headroom_is_rounded_to_the_configured_cell():
    assert headroom_bytes(length_m=10, gbps=400, mtu_local=9100, buffer=BufferSettings(cell_bytes=144)) % 144 == 0


def test_each_link_class_is_sized_for_its_longest_cable(three_tier):
    classes = {lc.name: lc for lc in link_classes(three_tier)}
    assert set(classes) == {"server-leaf", "leaf-spine", "spine-core"}
    for lc in classes.values():
        assert lc.longest_m == pytest.approx(float(three_tier.links.length_m[three_tier.links.tier == lc.tier].max()))
    rows = {(h.device_class, h.link_class.name): h for h in roce_headroom(three_tier, RoceSettings())}
    assert set(rows) == {("leaf", "server-leaf"), ("leaf", "leaf-spine"), ("spine", "leaf-spine"),
                         ("spine", "spine-core"), ("core", "spine-core")}
    for h in rows.values():
        assert h.configured == h.needed == headroom_bytes(length_m=h.link_class.longest_m, gbps=400,
                                                          mtu_local=9100 + 18)  # 9,100-byte IP MTU frames


# --- checklist ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fixture", ["two_tier", "three_tier"])
def test_default_settings_give_only_ok_findings(fixture, request):
    findings = roce_checklist(request.getfixturevalue(fixture), RoceSettings())
    assert [f.severity for f in findings] == ["ok"] * len(RULES)
    assert sorted(f.code for f in findings) == sorted(RULES)


def test_two_tier_checklist_names_only_the_classes_it_has(two_tier):
    s = RoceSettings.from_dict({"overrides": {"leaf": {"pfc_watchdog": False}, "spine": {"pfc_watchdog": False},
                                              "core": {"pfc_watchdog": False}}})
    classes = {f.device_class for f in by_code(roce_checklist(two_tier, s), "pfc_watchdog", "warning")}
    assert classes == {"leaf", "spine"}


def test_nic_pfc_on_the_wrong_priority_is_not_lossless_end_to_end(three_tier):
    s = RoceSettings.from_dict({"overrides": {"nic": {"pfc_priorities": [4]}}})
    findings = roce_checklist(three_tier, s)
    [error] = by_code(findings, "pfc_lossless", "error")
    assert error.device_class == "nic"
    assert "mlnx_qos -i <if> --pfc 0,0,0,1,0,0,0,0" in error.fix
    [extra] = by_code(findings, "pfc_lossless", "warning")
    assert extra.device_class == "nic" and extra.params["extra"] == [4]


def test_switch_tier_without_pfc_is_flagged_with_its_port_setting(three_tier):
    s = RoceSettings.from_dict({"overrides": {"core": {"pfc_priorities": []}}})
    [error] = by_code(roce_checklist(three_tier, s), "pfc_lossless", "error")
    assert error.device_class == "core" and 'pfc_enable "3"' in error.fix


def test_nic_trusting_pcp_is_flagged(three_tier):
    s = RoceSettings.from_dict({"overrides": {"nic": {"trust": "pcp"}}})
    [error] = by_code(roce_checklist(three_tier, s), "trust_mode", "error")
    assert error.device_class == "nic" and "--trust dscp" in error.fix


def test_roce_dscp_mapped_elsewhere_on_a_class_is_flagged(three_tier):
    s = RoceSettings.from_dict({"overrides": {"spine": {"roce_priority": 0}}})
    [error] = by_code(roce_checklist(three_tier, s), "roce_dscp_mapping", "error")
    assert error.device_class == "spine"
    assert "DSCP 26 to TC 3" in error.fix


def test_ecn_kmin_above_kmax_is_flagged_on_every_switch_class_with_that_speed(three_tier):
    s = RoceSettings.from_dict({"ecn": {"400": {"kmin": 2000, "kmax": 1000}}})
    errors = by_code(roce_checklist(three_tier, s), "ecn_thresholds", "error")
    assert {f.device_class for f in errors} == {"leaf", "spine", "core"}
    assert all(f.fix == "Lower the ECN Kmin of 400G ports below Kmax in the RoCE settings, for example to 250 KB."
               and f.params["kmin"] == 2000 for f in errors)


def test_ecn_pmax_zero_and_missing_speed_are_flagged(three_tier):
    s = RoceSettings.from_dict({"ecn": {"400": {"pmax": 0}}})
    errors = by_code(roce_checklist(three_tier, s), "ecn_thresholds", "error")
    assert errors and all("ECN Pmax of 400G ports between 1 and 100" in f.fix for f in errors)
    s = RoceSettings.from_dict({"ecn": {"400": None}})
    warnings = by_code(roce_checklist(three_tier, s), "ecn_thresholds", "warning")
    assert warnings and all("ECN thresholds (Kmin, Kmax, Pmax) for 400G ports" in f.fix for f in warnings)


def test_dcqcn_disabled_on_the_nic_is_flagged(three_tier):
    s = RoceSettings.from_dict({"dcqcn": {"rp_enable": False}})
    [error] = by_code(roce_checklist(three_tier, s), "dcqcn", "error")
    assert error.device_class == "nic" and "roce_rp/enable/3" in error.fix


def test_headroom_below_what_the_cable_needs_is_flagged(three_tier):
    s = RoceSettings.from_dict({"overrides": {"spine": {"headroom_kb": 40}}})
    errors = by_code(roce_checklist(three_tier, s), "headroom", "error")
    assert {f.device_class for f in errors} == {"spine"}
    needed = {h.link_class.name: h.needed for h in port_headroom(three_tier, RoceSettings(), "spine")}
    for f in errors:
        assert f.params["needed"] == needed[f.params["link_class"]]
        assert f"headroom_kb to at least {-(-f.params['needed'] // 1024)}" in f.fix


def test_enough_headroom_override_passes(three_tier):
    s = RoceSettings.from_dict({"overrides": {"spine": {"headroom_kb": 1000}}})
    assert not by_code(roce_checklist(three_tier, s), "headroom", "error")


def test_spine_mtu_below_the_other_tiers_is_flagged(three_tier):
    s = RoceSettings.from_dict({"overrides": {"spine": {"mtu": 1500}}})
    [error] = by_code(roce_checklist(three_tier, s), "mtu", "error")
    assert error.device_class == "spine" and "MTU 9100" in error.fix


def test_switch_mtu_below_the_nic_mtu_is_flagged(three_tier):
    s = RoceSettings.from_dict({"mtu": 4200, "nic_mtu": 9000})
    errors = by_code(roce_checklist(three_tier, s), "mtu", "error")
    assert {f.device_class for f in errors} == {"leaf", "spine", "core"}


def test_nic_mtu_too_small_for_the_roce_mtu_is_flagged(three_tier):
    s = RoceSettings.from_dict({"nic_mtu": 1500})
    [warning] = by_code(roce_checklist(three_tier, s), "mtu", "warning")
    assert warning.device_class == "nic" and warning.params["fallback"] == 1024


def test_cnp_sharing_the_data_priority_is_flagged(three_tier):
    s = RoceSettings.from_dict({"overrides": {"leaf": {"cnp_priority": 3}}})
    [error] = by_code(roce_checklist(three_tier, s), "cnp_priority", "error")
    assert error.device_class == "leaf" and "DSCP 48 to TC 6" in error.fix


def test_cnp_in_best_effort_and_without_strict_priority_is_flagged(three_tier):
    s = RoceSettings.from_dict({"overrides": {"nic": {"cnp_priority": 0}}, "cnp_strict_priority": False})
    findings = by_code(roce_checklist(three_tier, s), "cnp_priority")
    assert [(f.severity, f.device_class) for f in findings if f.severity == "error"] == [("error", "nic")]
    assert {f.device_class for f in findings if f.severity == "warning"} == {"leaf", "spine", "core"}


def test_pfc_watchdog_off_is_flagged(three_tier):
    s = RoceSettings.from_dict({"pfc_watchdog": {"enabled": False}})
    warnings = by_code(roce_checklist(three_tier, s), "pfc_watchdog", "warning")
    assert {f.device_class for f in warnings} == {"leaf", "spine", "core"}
    assert all("PFC_WD" in f.fix for f in warnings)


def test_findings_list_errors_before_warnings_before_ok(three_tier):
    s = RoceSettings.from_dict({"overrides": {"spine": {"mtu": 1500, "pfc_watchdog": False}}, "sonic_fragment": True})
    severities = [f.severity for f in roce_checklist(three_tier, s)]
    assert severities == sorted(severities, key=["error", "warning", "ok"].index)


# --- configs -----------------------------------------------------------------------------------

# The inline test switches have no SONiC platform data: their switches get config_db fragments when asked.
FRAGMENT = RoceSettings(sonic_fragment=True)


def configs_by_name(p, settings=None):
    return dict(roce_configs(p, settings or FRAGMENT))


@pytest.fixture(scope="module")
def default_configs(three_tier):
    return configs_by_name(three_tier)


def test_one_config_file_per_device(three_tier, default_configs):
    assert len(default_configs) == len(three_tier.devices)
    for d in three_tier.devices:
        suffix = "roce.sh" if d.role == "server" else "config_db.fragment.json"
        assert f"{d.role}/{d.name}.{suffix}" in default_configs


REQUIRED_TABLES = {"PORT", "CABLE_LENGTH", "DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP",
                   "MAP_PFC_PRIORITY_TO_QUEUE", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", "PORT_QOS_MAP", "SCHEDULER", "QUEUE", "WRED_PROFILE", "BUFFER_POOL",
                   "BUFFER_PROFILE", "BUFFER_PG", "BUFFER_QUEUE", "PFC_WD"}


@pytest.mark.parametrize("role", ["leaf", "spine", "core"])
def test_switch_config_is_json_with_consistent_lossless_settings(three_tier, default_configs, role):
    device = next(d for d in three_tier.devices if d.role == role)
    config = json.loads(default_configs[f"{role}/{device.name}.config_db.fragment.json"])
    assert REQUIRED_TABLES <= set(config)
    dscp = config["DSCP_TO_TC_MAP"]["ROCE"]
    assert (dscp["26"], dscp["48"]) == ("3", "6")
    assert sum(v != "0" for v in dscp.values()) == 2
    assert config["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"]["3"] == "3"
    assert config["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"]["ROCE"] == {"3": "3"}
    links = three_tier.links
    cabled = sorted({int(p) for p in links.a_port[links.a_dev == device.index]}
                    | {int(p) for p in links.b_port[links.b_dev == device.index]})
    names = [port_name(device, p) for p in cabled]
    assert list(config["PORT"]) == names
    for name in names:
        assert config["PORT"][name]["speed"] == "400000" and config["PORT"][name]["mtu"] == "9100"
        qos = config["PORT_QOS_MAP"][name]
        assert qos["pfc_enable"] == "3" and qos["pfcwd_sw_enable"] == "3" and qos["dscp_to_tc_map"] == "ROCE"
        assert config["QUEUE"][f"{name}|3"]["wred_profile"] == "ROCE_LOSSLESS_400G"
        assert config["SCHEDULER"][config["QUEUE"][f"{name}|6"]["scheduler"]]["type"] == "STRICT"
        profile = config["BUFFER_PROFILE"][config["BUFFER_PG"][f"{name}|3"]["profile"]]
        assert int(profile["size"]) == int(profile["xon"]) + int(profile["xoff"])
        assert config["BUFFER_QUEUE"][f"{name}|3"]["profile"] == "egress_lossless_profile"
        assert config["PFC_WD"][name]["detection_time"] == "200"
    wred = config["WRED_PROFILE"]["ROCE_LOSSLESS_400G"]
    t = RoceSettings().ecn[400]
    assert (wred["ecn"], wred["green_min_threshold"], wred["green_max_threshold"], wred["green_drop_probability"]) \
        == ("ecn_all", str(t.kmin * 1024), str(t.kmax * 1024), str(t.pmax))


def test_lossless_profiles_carry_the_computed_headroom(three_tier, default_configs):
    for h in roce_headroom(three_tier, RoceSettings()):
        device = next(d for d in three_tier.devices if d.role == h.device_class)
        config = json.loads(default_configs[f"{h.device_class}/{device.name}.config_db.fragment.json"])
        profile = config["BUFFER_PROFILE"][h.profile]
        assert int(profile["xoff"]) == h.needed
        assert f"{h.link_class.cable_m}m" in config["CABLE_LENGTH"]["AZURE"].values()


def test_wred_thresholds_follow_the_port_speed():
    p = plan(DesignSpec(gpus=256, server=ServerHw(gpus=8, nic_ports=8, nic_gbps=800),
                        leaf=SwitchHw(ports=64, gbps=800, buffer_mb=64.0), optics=(
                            Optic("SR-800", "OSFP", 800, 800, 1, "SR", "MMF", 50),
                            Optic("DR-800", "OSFP", 800, 800, 1, "DR", "SMF", 500)), fibers=FIBERS))
    s = RoceSettings.from_dict({"ecn": {"800": {"kmin": 900, "kmax": 3000, "pmax": 10}}, "sonic_fragment": True})
    leaf = next(d for d in p.devices if d.role == "leaf")
    config = json.loads(dict(roce_configs(p, s))[f"leaf/{leaf.name}.config_db.fragment.json"])
    wred = config["WRED_PROFILE"]
    assert list(wred) == ["ROCE_LOSSLESS_800G"]
    assert (wred["ROCE_LOSSLESS_800G"]["green_min_threshold"], wred["ROCE_LOSSLESS_800G"]["green_max_threshold"],
            wred["ROCE_LOSSLESS_800G"]["green_drop_probability"]) == (str(900 * 1024), str(3000 * 1024), "10")
    assert all(port["speed"] == "800000" for port in config["PORT"].values())


def test_overrides_show_up_in_the_generated_config(three_tier):
    s = RoceSettings.from_dict({"overrides": {"spine": {"mtu": 1500, "pfc_watchdog": False}}, "sonic_fragment": True})
    spine = next(d for d in three_tier.devices if d.role == "spine")
    config = json.loads(dict(roce_configs(three_tier, s))[f"spine/{spine.name}.config_db.fragment.json"])
    assert {port["mtu"] for port in config["PORT"].values()} == {"1500"}
    assert "PFC_WD" not in config
    assert all("pfcwd_sw_enable" not in qos for qos in config["PORT_QOS_MAP"].values())


def test_nic_script_sets_trust_pfc_dscp_and_dcqcn_on_every_backend_port(three_tier, default_configs):
    server = three_tier.devices[0]
    script = default_configs[f"server/{server.name}.roce.sh"]
    for line in ('TRUST=dscp', 'PFC=0,0,0,1,0,0,0,0', "ROCE_DSCP=26", "ROCE_PRIO=3", "CNP_DSCP=48",
                 "CNP_PRIO=6", "TOS=106", "MTU=9000",
                 'mlnx_qos -i "$ifname" --trust "$TRUST"', 'mlnx_qos -i "$ifname" --pfc "$PFC"',
                 'mlnx_qos -i "$ifname" --dscp2prio "set,${ROCE_DSCP},${ROCE_PRIO}"',
                 'mlnx_qos -i "$ifname" --dscp2prio "set,${CNP_DSCP},${CNP_PRIO}"',
                 'cma_roce_tos -d "$dev" -t "$TOS"', 'echo 1 > "$ecn/roce_np/enable/${ROCE_PRIO}"',
                 'echo 1 > "$ecn/roce_rp/enable/${ROCE_PRIO}"', 'echo 1019 > "$ecn/roce_rp/dce_tcp_g"',
                 "mlxconfig -y -d \"$dev\" set ROCE_CC_PRIO_MASK_P1=8"):
        assert line in script
    assert 'roce_port "${NETDEVS[$i]}" "${DEVS[$i]}"' in script  # names discovered on the host, not assumed


def test_nic_script_follows_nic_overrides(three_tier):
    s = RoceSettings.from_dict({"overrides": {"nic": {"trust": "pcp", "pfc_priorities": [4]}},
                                "dcqcn": {"np_enable": False}})
    script = dict(roce_configs(three_tier, s))[f"server/{three_tier.devices[0].name}.roce.sh"]
    assert 'TRUST=pcp' in script and 'PFC=0,0,0,0,1,0,0,0' in script
    assert "--dscp2prio" not in script
    assert 'echo 0 > "$ecn/roce_np/enable/${ROCE_PRIO}"' in script


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")
def test_nic_script_is_valid_bash(default_configs):
    name, script = next((n, t) for n, t in default_configs.items() if n.startswith("server/"))
    result = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
    assert result.returncode == 0, result.stderr


def test_configs_of_a_65536_gpu_design_stream_one_device_at_a_time():
    p = plan(make_spec(65_536))
    assert len(p.devices) > 13_000
    tracemalloc.start()
    try:
        started = time.perf_counter()
        stream = roce_configs(p, RoceSettings())
        first = list(itertools.islice(stream, 200))
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [name for name, _ in first] == [f"server/{d.name}.roce.sh" for d in p.devices[:200]]
    assert elapsed < 30  # the first files come without generating the other 13,000
    assert peak < 64 * 2**20  # one device's text at a time, not the whole design


def test_small_nic_mtu_fix_advises_a_jumbo_mtu(three_tier):
    [warning] = by_code(roce_checklist(three_tier, RoceSettings.from_dict({"nic_mtu": 1500})), "mtu", "warning")
    assert "mtu 9000" in warning.fix


def test_split_cages_get_a_breakout_table_naming_every_parent_port_and_native_mode_switches_none(default_configs):
    twin = SwitchHw(ports=128, gbps=400, cages=64, cage_gbps=800, breakout="2x400G", sku="SW-64x800G", buffer_mb=64.0)
    split = plan(DesignSpec(gpus=512, server=ServerHw(gpus=8, nic_ports=8, nic_gbps=400), leaf=twin,
                            optics=OPTICS + (Optic("SR-2x400", "OSFP", 800, 400, 2, "SR", "MMF", 50),),
                            cables=CABLES, fibers=FIBERS))
    configs = configs_by_name(split)
    leaf = next(d for d in split.devices if d.role == "leaf")
    config = json.loads(configs[f"leaf/{leaf.name}.config_db.fragment.json"])
    breakout = config["BREAKOUT_CFG"]
    assert list(breakout) == [port_name(leaf, 2 * cage) for cage in range(64)]
    assert set(map(json.dumps, breakout.values())) == {json.dumps({"brkout_mode": "2x400G"})}
    # Every port the other tables name is a sub-port of a cage the table splits.
    assert {port_name(leaf, 2 * (p // 2)) for p in range(128) if port_name(leaf, p) in config["PORT"]} <= set(breakout)
    native = next(name for name in default_configs if name.startswith("leaf/"))
    assert "BREAKOUT_CFG" not in json.loads(default_configs[native])


@pytest.mark.parametrize("changes, field", [
    ({"cnp_dscp": 10 ** 400}, "roce.cnp_dscp"),
    ({"mtu": "1" * 5000}, "roce.mtu"),
    ({"roce_mtu": "²"}, "roce.roce_mtu"),  # a digit to str.isdigit(), not to int()
    ({"roce_mtu": "1" * 5000}, "roce.roce_mtu"),
])
def test_roce_numbers_python_cannot_convert_are_field_errors(changes, field):
    with pytest.raises(SpecError) as caught:
        RoceSettings.from_dict({**RoceSettings().to_dict(), **changes})
    assert field in caught.value.errors
