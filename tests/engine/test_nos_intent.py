"""One design's intent in three NOS renderings: SONiC config_db, Cumulus NVUE and Arista EOS parsed back and
compared field by field (DSCP / TC / queue maps, PFC priorities, ECN per port, PFC watchdog, MTU, BGP)."""
from __future__ import annotations

import json
import re

import pytest

from apps.engine.plan import plan
from apps.engine.roce import RoceSettings
from apps.engine.roce.configs import _Context
from apps.engine.roce.nos import EOS, NVUE
from apps.engine.specio import spec_from_dict

SN5600 = "920-9N42F-00RI-7C0"
SETTINGS = {
    "defaults": {},
    # a design that changes every field the renderings carry
    "changed": {"roce_dscp": 24, "cnp_dscp": 46, "pfc_priority": 4, "cnp_priority": 7, "mtu": 9000,
                "ecn": {"400": {"kmin": 300, "kmax": 1200, "pmax": 15}},
                "pfc_watchdog": {"detection_ms": 400, "restoration_ms": 1000, "poll_ms": 100, "action": "drop"}},
}


def _sonic(db: dict) -> dict:
    wd = db.get("PFC_WD", {})
    poll = int(wd.get("GLOBAL", {}).get("POLL_INTERVAL", 0))
    ports = {name for name in db["INTERFACE"] if "|" not in name}
    wred = db.get("WRED_PROFILE", {})
    ecn = {}
    for key, row in db["QUEUE"].items():
        name, queue = key.split("|")
        if "wred_profile" in row:
            w = wred[row["wred_profile"]]
            ecn[name, int(queue)] = (int(w["green_min_threshold"]) // 1024, int(w["green_max_threshold"]) // 1024,
                                     int(w["green_drop_probability"]))
    neighbors = {key.split("|")[1]: int(row["asn"]) for key, row in db["BGP_NEIGHBOR"].items()}
    return {
        "dscp_to_tc": {int(k): int(v) for k, v in db["DSCP_TO_TC_MAP"]["ROCE"].items()},
        "tc_to_queue": {int(k): int(v) for k, v in db["TC_TO_QUEUE_MAP"]["ROCE"].items()},
        "pfc": {name: {int(p) for p in db["PORT_QOS_MAP"][name]["pfc_enable"].split(",")} for name in ports},
        "ecn": ecn,
        "watchdog": {name: (int(wd[name]["detection_time"]), poll, wd[name]["action"]) for name in ports if name in wd},
        "restoration": {int(wd[name]["restoration_time"]) for name in ports if name in wd},
        "mtu": {name: int(db["PORT"][name]["mtu"]) for name in ports},
        "addresses": {key.split("|")[1] for key in db["INTERFACE"] if "|" in key},
        "asn": int(db["BGP_GLOBALS"]["default"]["local_asn"]),
        "router_id": db["BGP_GLOBALS"]["default"]["router_id"],
        "neighbors": neighbors,
        "max_paths": int(db["BGP_GLOBALS_AF"]["default|ipv4_unicast"]["max_ebgp_paths"]),
        "multipath_relax": db["BGP_GLOBALS"]["default"]["load_balance_mp_relax"] == "true",
        "redistribute_connected": "default|connected|bgp|ipv4" in db["ROUTE_REDISTRIBUTE"],
    }


def _ints(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


def _nvue(script: str) -> dict:
    sonic_name, dscp, queue, profiles, port_profile, mtu, neighbors, out = {}, {}, {}, {}, {}, {}, {}, {}
    pfc, port_wd, addresses = set(), set(), set()
    poll = robustness = 0
    for line in script.splitlines():
        if m := re.fullmatch(r"nv set interface '?(\S+?)'? description '(\S+) to .*'", line):
            sonic_name[m[1]] = m[2]
        elif m := re.fullmatch(r"nv set qos mapping default-global dscp (\S+) switch-priority (\d)", line):
            dscp.update({d: int(m[2]) for d in _ints(m[1])})
        elif m := re.fullmatch(r"nv set qos egress-queue-mapping default-global switch-priority (\d) "
                               r"traffic-class (\d)", line):
            queue[int(m[1])] = int(m[2])
        elif m := re.fullmatch(r"nv set qos pfc default-global switch-priority (\d)", line):
            pfc.add(int(m[1]))
        elif m := re.fullmatch(r"nv set qos congestion-control (\S+) traffic-class (\d) (min-threshold|max-threshold|"
                               r"probability) (\d+)", line):
            profiles.setdefault((m[1], int(m[2])), {})[m[3]] = int(m[4])
        elif m := re.fullmatch(r"nv set interface '?(\S+?)'? qos congestion-control profile (\S+)", line):
            port_profile[m[1]] = m[2]
        elif m := re.fullmatch(r"nv set interface '?(\S+?)'? qos pfc-watchdog", line):
            port_wd.add(m[1])
        elif m := re.fullmatch(r"nv set qos pfc-watchdog polling-interval (\d+)", line):
            poll = int(m[1])
        elif m := re.fullmatch(r"nv set qos pfc-watchdog robustness (\d+)", line):
            robustness = int(m[1])
        elif m := re.fullmatch(r"nv set interface '?(\S+?)'? link mtu '?(\d+)'?", line):
            mtu[m[1]] = int(m[2])
        elif m := re.fullmatch(r"nv set interface '?(swp\S+?)'? ip address '?(\S+)'?", line):
            addresses.add(m[2])
        elif m := re.fullmatch(r"nv set vrf default router bgp neighbor '?(\S+?)'? remote-as '?(\d+)'?", line):
            neighbors[m[1]] = int(m[2])
        elif m := re.fullmatch(r"nv set router bgp autonomous-system '?(\d+)'?", line):
            out["asn"] = int(m[1])
        elif m := re.fullmatch(r"nv set router bgp router-id '?(\S+?)'?", line):
            out["router_id"] = m[1]
        elif m := re.fullmatch(r"nv set vrf default router bgp address-family ipv4-unicast multipaths ebgp '?(\d+)'?",
                               line):
            out["max_paths"] = int(m[1])
    ports = set(sonic_name)
    return {**out,
            "dscp_to_tc": dscp, "tc_to_queue": queue,
            "pfc": {sonic_name[p]: pfc for p in ports},
            "ecn": {(sonic_name[p], tc): (v["min-threshold"] // 1024, v["max-threshold"] // 1024, v["probability"])
                    for p, prof in port_profile.items() for (name, tc), v in profiles.items() if name == prof},
            "watchdog": {sonic_name[p]: (poll * robustness, poll, "drop") for p in port_wd},
            "mtu": {sonic_name[p]: mtu[p] for p in ports}, "addresses": addresses, "neighbors": neighbors,
            "multipath_relax": "nv set vrf default router bgp path-selection multipath aspath-ignore on" in script,
            "redistribute_connected": "nv set vrf default router bgp address-family ipv4-unicast redistribute connected"
                                      in script}


def _eos(config: str) -> dict:
    dscp, queue, neighbors, out = {}, {}, {}, {}
    ports: dict[str, dict] = {}
    current = None
    wd = {}
    for line in config.splitlines():
        if m := re.fullmatch(r"qos map dscp ([\d ]+) to traffic-class (\d)", line):
            dscp.update({int(d): int(m[2]) for d in m[1].split()})
        elif m := re.fullmatch(r"qos map traffic-class (\d) to tx-queue (\d)", line):
            queue[int(m[1])] = int(m[2])
        elif m := re.fullmatch(r"priority-flow-control pause watchdog default (timeout|recovery-time|polling-interval) "
                               r"(\S+)", line):
            wd[m[1]] = round(float(m[2]) * 1000)
        elif m := re.fullmatch(r"priority-flow-control pause watchdog action (\S+)", line):
            wd["action"] = m[1]
        elif m := re.fullmatch(r"interface (Ethernet\S+)", line):
            current = ports.setdefault(m[1], {"pfc": set(), "ecn": {}})
        elif current is not None and (m := re.fullmatch(r"   description (\S+) to .*", line)):
            current["sonic"] = m[1]
        elif current is not None and (m := re.fullmatch(r"   mtu (\d+)", line)):
            current["mtu"] = int(m[1])
        elif current is not None and (m := re.fullmatch(r"   ip address (\S+)", line)):
            current["address"] = m[1]
        elif current is not None and (m := re.fullmatch(r"   priority-flow-control priority (\d) no-drop", line)):
            current["pfc"].add(int(m[1]))
        elif current is not None and line == "   priority-flow-control pause watchdog":
            current["watchdog"] = True
        elif current is not None and (m := re.fullmatch(r"   tx-queue (\d)", line)):
            current["queue"] = int(m[1])
        elif current is not None and (m := re.fullmatch(
                r"      random-detect ecn minimum-threshold (\d+) kbytes maximum-threshold (\d+) kbytes "
                r"max-mark-probability (\d+)", line)):
            current["ecn"][current["queue"]] = (int(m[1]), int(m[2]), int(m[3]))
        elif line == "!":
            current = None
        elif m := re.fullmatch(r"router bgp (\d+)", line):
            out["asn"] = int(m[1])
        elif m := re.fullmatch(r"   router-id (\S+)", line):
            out["router_id"] = m[1]
        elif m := re.fullmatch(r"   maximum-paths (\d+) ecmp \d+", line):
            out["max_paths"] = int(m[1])
        elif m := re.fullmatch(r"   neighbor (\S+) remote-as (\d+)", line):
            neighbors[m[1]] = int(m[2])
    eth = {p["sonic"]: p for p in ports.values() if "sonic" in p}
    return {**out, "dscp_to_tc": dscp, "tc_to_queue": queue, "neighbors": neighbors,
            "pfc": {n: p["pfc"] for n, p in eth.items()},
            "ecn": {(n, q): v for n, p in eth.items() for q, v in p["ecn"].items()},
            "watchdog": {n: (wd["timeout"], wd["polling-interval"], wd["action"]) for n, p in eth.items()
                         if p.get("watchdog")},
            "restoration": {wd["recovery-time"]} if "recovery-time" in wd else set(),
            "mtu": {n: p["mtu"] for n, p in eth.items()}, "addresses": {p["address"] for p in eth.values()},
            "multipath_relax": "   bgp bestpath as-path multipath-relax" in config,
            "redistribute_connected": "   redistribute connected" in config}


@pytest.mark.parametrize("name", list(SETTINGS))
@pytest.mark.parametrize("role", ["leaf", "spine"])
def test_sonic_nvue_and_eos_carry_the_same_intent_field_by_field(name, role):
    p = plan(spec_from_dict({"server": "DGXB-G1440+P2CMI36", "gpus": 256, "third_party_optics": True,
                             "leaf": {"sku": SN5600, "breakout": "2x400G"}}))
    settings = RoceSettings.from_dict(SETTINGS[name])
    ctx = _Context(p, settings)
    device = next(d for d in p.devices if d.role == role).index
    sonic = _sonic(json.loads(ctx.switch_config(device)))
    nvue = _nvue(NVUE.render(ctx, device))
    eos = _eos(EOS.render(ctx, device))
    assert sonic["dscp_to_tc"][settings.roce_dscp] == settings.pfc_priority and len(sonic["dscp_to_tc"]) == 64
    assert len(sonic["ecn"]) == len(sonic["pfc"]) and sonic["neighbors"]
    for field in ("dscp_to_tc", "tc_to_queue", "pfc", "ecn", "watchdog", "mtu", "addresses", "asn", "router_id",
                  "neighbors", "max_paths", "multipath_relax", "redistribute_connected"):
        assert nvue[field] == sonic[field], field
        assert eos[field] == sonic[field], field
    # Cumulus restores a stormed queue by its own polling: only SONiC and EOS state a restoration time.
    assert eos["restoration"] == sonic["restoration"] == {settings.pfc_watchdog.restoration_ms}
