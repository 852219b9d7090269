"""Every sentence the engine writes for a person has a code and params that fill its English text."""
from __future__ import annotations

import json
import string
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.hall.build import check_racks
from apps.engine.messages import RETIRED, TEMPLATES, Message, fill, message
from apps.engine.plan import alternatives, plan, size
from apps.engine.report import report as plan_report
from apps.engine.spec import (AddressPools, CableAssembly, FiberCord, HallLayout, InfeasibleSpec, Optic, RackLayout,
                              SpecError, NicHw, SwitchHw)
from apps.engine.specio import spec_from_dict
from apps.engine.topology import size_fabric

from .builders import CABLES, NIC, OPTICS, dgx, server, spec, switch

OPTICS_FLT = OPTICS[-2]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def walk(msg: Message):
    """The message and every message nested in its params."""
    yield msg
    for value in msg.params.values():
        if isinstance(value, Message):
            yield from walk(value)


def assert_fills_its_template(msg: Message) -> None:
    for part in walk(msg):
        assert part.code in TEMPLATES, part
        assert set(part.params) == placeholders(TEMPLATES[part.code]), part
        assert part.text == fill(TEMPLATES[part.code], part.params)
        plain = json.loads(json.dumps(part.to_dict()))
        assert plain["code"] == part.code
        assert all(isinstance(v, (int, float, str, dict)) for v in plain["params"].values())


def messages_of(exc: SpecError) -> list[Message]:
    assert set(exc.details) == set(exc.errors)
    for name, details in exc.details.items():
        assert [m.text for m in details] == exc.errors[name]
    return [m for details in exc.details.values() for m in details]


def refusal(build) -> list[Message]:
    with pytest.raises(SpecError) as err:
        build()
    return messages_of(err.value)


SEED_SWITCH = "920-9N42F-00RI-7C0"
DICT_SPEC = {"gpus": 256, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400}, "leaf": {"ports": 64, "gbps": 400}}


def seen_codes() -> dict[str, list[Message]]:
    """Drive the engine into every sentence it can write; code -> the messages seen."""
    found: list[Message] = []
    bad_switch = SwitchHw(ports=64, gbps=400, cages=7, rack_units=-1, price=-1.0, power_typical_w=float("nan"))
    twin = switch(64, twin=True)

    def refused(**kwargs):
        found.extend(refusal(lambda: size(spec(**kwargs))))

    # Field by field (DesignSpec.validate).
    refused(gpus=0, server="DGX", leaf=bad_switch, spine="x", nic="y", planes=0, oversubscription=0.5, tiers=4,
            currency="", optics=("o",), cables=("c",), fibers=("f",), spares="2 %")
    refused(gpus=1.5, planes=3, oversubscription=20.0, layout=RackLayout(servers_per_rack=10**6, rack_width_m=0,
                                                                         leaf_rack="side"))
    refused(oversubscription="3", layout=RackLayout(slack_m=-1.0))
    refused(pools=AddressPools(host="10.0.0.1/8", p2p="nope", loopback="fe80::/64"))
    refused(pools=AddressPools(p2p="10.0.0.0/8"))
    refused(optics=(Optic("SR", "OSFP", 400, 400, 1, "SR", "XMF", 50),),
            fibers=(FiberCord("F", "OMX", 1.0),), cables=(CableAssembly("C", "DAC", "OSFP", "OSFP", 0, 400, 1, 1),))
    # Parts that don't fit together.
    refused(leaf=switch(64, gbps=800))
    refused(leaf=twin, spine=SwitchHw(ports=32, gbps=800, cages=32, cage_gbps=800, breakout="1x800G"))
    refused(nic=replace(NIC, gbps=200))
    refused(nic=replace(NIC, ports=3))
    refused(server=server(gbps=800), nic=replace(NIC, gbps=800))
    refused(discount_pct=150.0)
    refused(server=replace(dgx(), nics_built_in="yes", ports_per_cage=3))
    refused(server=replace(dgx(), nic_ports=7), planes=1)
    refused(optics=(replace(OPTICS_FLT, flat_top=1),))
    refused(optics=(replace(OPTICS[0], fabrics=(), vendor=3, compatible_vendors=("",)),), third_party_optics="yes",
            leaf=replace(twin, vendor=None))
    refused(leaf=replace(twin, fabric="omni-path"))
    refused(leaf=replace(twin, switch_class="access"))
    refused(leaf=replace(twin, fabric="infiniband"), spine=twin)
    # Planes from a split NIC port; scale-up domains.
    cx8 = NicHw(ports=1, gbps=800, splits=(1, 2))
    refused(server=server(gbps=800), nic=cx8, leaf=switch(64), nic_split=4, planes=4)
    refused(server=server(gbps=800), nic=replace(cx8, splits=(1, 3)), leaf=switch(64), nic_split=3)
    refused(server=server(gbps=800), nic=cx8, leaf=switch(64), nic_split=2, planes=1)
    refused(server=replace(server(gbps=400), nic_gbps=402), nic=replace(cx8, gbps=402, splits=(1, 4)),
            leaf=switch(64), nic_split=4, planes=4)
    refused(server=replace(server(), scale_up_kind="pod", scale_up_gpus=70, gpus=4, nic_ports=4))
    refused(server=replace(server(), scale_up_kind="rack-scale", scale_up_gpus=70, gpus=4, nic_ports=4))
    refused(gpus=100, server=replace(server(), gpus=4, nic_ports=4, scale_up_kind="rack-scale", scale_up_gpus=72,
                                     scale_up_racks=1))
    # Racks and the hall (engine.hall).
    refused(layout=RackLayout(rack_power_basis="peak", cooling="water", spine_rows="side", hall=HallLayout(
        reserved=((0, 1),), zones=(("office", (1,)), ("network", ())))))
    refused(layout=RackLayout(hall=HallLayout(rows=2, positions=4, reserved=((3, 1),), zones=(("network", (5,)),))))
    refused(layout=RackLayout(hall=HallLayout(zones=(("network", (1,)), ("storage", (1,))))))
    refused(layout=RackLayout(rack_units=1))
    refused(server=dgx(), layout=RackLayout(rack_power_kw=5))
    refused(layout=RackLayout(rack_power_kw=0.5))
    refused(server=dgx(), layout=RackLayout(rack_power_kw=10.5, leaf_rack="server"))
    nvl72 = replace(server(), gpus=4, nic_ports=4, scale_up_kind="rack-scale", scale_up_gpus=72, scale_up_racks=1,
                    scale_up_switch_trays=9, scale_up_rack_power_w=132_000, cooling="liquid")
    refused(gpus=144, server=nvl72, layout=RackLayout(rack_power_kw=100))
    found.extend(plan(spec(144, server=replace(nvl72, cooling="", scale_up_rack_power_w=None))).notes)
    # 12 racks: a full SU of 8 sharing leaves by tray slot, and a last SU of 4 whose leaves cable what they carry.
    found.extend(plan(spec(864, server=replace(nvl72, cooling="", scale_up_rack_power_w=None))).notes)
    refused(gpus=1_000, layout=RackLayout(hall=HallLayout(rows=1)))
    refused(gpus=5_000, layout=RackLayout(hall=HallLayout(positions=2, zones=(("network", (1,)),))))
    found.extend(plan(spec(1_000, server=dgx(), layout=RackLayout(rack_power_kw=25))).notes)
    hall = plan(spec(256)).hall
    rack = hall.racks[0]
    rack.items[1].u = rack.items[0].u
    found.extend(refusal(lambda: check_racks(hall)))
    hall = plan(spec(256, server=dgx(), layout=RackLayout(rack_power_kw=50))).hall
    hall.racks[0].power_budget_w = 1.0
    found.extend(refusal(lambda: check_racks(hall)))
    # Structure.
    refused(leaf=switch(2, twin=True))
    with pytest.raises(InfeasibleSpec) as err:  # validation caps o at 16, which always leaves an uplink
        size_fabric(spec(oversubscription=1e11))
    found.extend(messages_of(err.value))
    refused(gpus=100_000, tiers=2)
    refused(gpus=10_000_000 // 10, leaf=switch(64))
    refused(gpus=3_000, leaf=switch(64), spine=switch(63, sku="S"), tiers=3)
    refused(gpus=3_000, leaf=switch(64), spine=SwitchHw(ports=12, gbps=400, cages=3, cage_gbps=1600, sku="S4",
                                                         breakout="4x400G"), tiers=3)
    refused(gpus=3_000, server=server(ports=8), leaf=switch(64), spine=switch(14, sku="S"), tiers=3)
    # Addresses.
    found.extend(refusal(lambda: plan(spec(1_000, pools=AddressPools(host="10.0.0.0/28", p2p="10.1.0.0/28",
                                                                             loopback="10.2.0.0/30")))))
    found.extend(refusal(lambda: plan(spec(1_000, pools=AddressPools(asn_base=4_294_967_290)))))
    found.extend(refusal(lambda: plan(spec(1_000, pools=AddressPools(asn_base=65_510)))))  # 33 ASNs reach 65,535
    # Cabling.
    found.extend(refusal(lambda: plan(spec(1_000, leaf=twin, optics=(), cables=(), fibers=(
        FiberCord("MMF-1M", "MMF", 1, price=1),)))))
    found.extend(refusal(lambda: plan(spec(1_000, optics=(), fibers=()))))  # copper only: runs too long
    # Qualification: nothing made by the switch's vendor, nothing qualified for InfiniBand, too short when qualified.
    ethernet_only = {"optics": tuple(replace(o, fabrics=("ethernet",)) for o in OPTICS),
                     "cables": tuple(replace(c, fabrics=("ethernet",)) for c in CABLES)}
    found.extend(refusal(lambda: plan(spec(1_000, leaf=replace(twin, vendor="Acme")))))
    found.extend(refusal(lambda: plan(spec(1_000, leaf=replace(twin, fabric="infiniband"), **ethernet_only))))
    found.extend(refusal(lambda: plan(spec(1_000, leaf=replace(switch(64), vendor="Acme"),
                                           cables=tuple(replace(c, vendor="Acme") for c in CABLES)))))
    found.extend(refusal(lambda: plan(spec(1_000, leaf=replace(switch(64), fabric="infiniband"), cables=CABLES,
                                           optics=ethernet_only["optics"]))))
    # Reading a spec (specio, seed catalog).
    found.extend(refusal(lambda: spec_from_dict([])))
    found.extend(refusal(lambda: spec_from_dict({"flavour": 1, "server": 5, "nic": {"sku": "n"},
                                                 "leaf": {"sku": "x", "ports2": 1}, "optics": "o",
                                                 "cables": [{"sku": "c"}], "fibers": [{"fiber": "MMF"}],
                                                 "layout": {"colour": 1}})))
    found.extend(refusal(lambda: spec_from_dict({**DICT_SPEC, "server": "nope",
                                                 "leaf": {"sku": SEED_SWITCH, "breakout": "3x400G", "x": 1}})))
    found.extend(refusal(lambda: spec_from_dict({**DICT_SPEC, "leaf": {"sku": SEED_SWITCH, "breakout": "fast"}})))
    # The other networks (engine.networks).
    from apps.engine.networks.cluster import plan_cluster
    fe = {"ports_per_server": 2, "gbps": 400, "leaf": {"ports": 64, "gbps": 400}}
    for extra in ({"frontend": dict(fe, server_ports=0)}, {"frontend": dict(fe, server_ports=1)},
                  {"frontend": dict(fe, gbps=200)}, {"storage": {"nodes": 0, "gbps": 400, "leaf": fe["leaf"]}},
                  {"storage": {"nodes": 2, "converged": True, "ports_per_server": 2}},
                  {"frontend": dict(fe, pools={"host": "10.0.0.0/14"})}, {"storage": 7},
                  {"oob": {"leaf": {"ports": 4, "gbps": 1}, "uplinks": 9}},
                  {"oob": {"leaf": {"ports": 4, "gbps": 1}}},
                  {"oob": {"leaf": {"ports": 48, "gbps": 1}, "pools": {"host": "172.16.0.0/30"}}},
                  {"oob": {"leaf": {"ports": 48, "gbps": 1, "uplinks": 4, "uplink_gbps": 10}, "uplinks": 9}},
                  {"oob": {"leaf": {"ports": 48, "gbps": 1, "switch_class": "fabric"}}},
                  {"frontend": dict(fe, leaf={"ports": 48, "gbps": 400, "uplinks": 8, "uplink_gbps": 800})}):
        found.extend(refusal(lambda: plan_cluster(spec_from_dict({**DICT_SPEC, **extra}))))
    # Points to raise in a review.
    for kwargs in ({"gpus": 5_001, "leaf": switch(128)}, {"gpus": 1_000, "oversubscription": 1.5},
                   {"gpus": 20_000}, {"gpus": 4_100, "leaf": switch(128)}, {"gpus": 5 * 32 * 8, "tiers": 3},
                   {"gpus": 1_000, "leaf": switch(64, rack_units=8), "tiers": 3,
                    "server": replace(server(), rack_units=8),
                    "layout": RackLayout(servers_per_rack=8, switches_per_rack=8, rack_units=42)}):
        found.extend(plan(spec(**kwargs)).notes)
    found.extend(plan(spec(1_000, server=dgx())).notes)
    found.extend(refusal(lambda: plan(spec(1_000, leaf=replace(twin, switch_class="management")))))
    found.extend(plan(spec(1_000, leaf=replace(twin, power_typical_w=None, power_max_w=None))).notes)
    found.extend(plan(spec(1_000, leaf=replace(twin, price=0))).notes)  # no list price: named, never 0 USD
    found.extend(plan(spec(5_000, layout=RackLayout(rack_power_kw=6, switches_per_rack=16))).notes)  # optics
    found.extend(plan(spec(5_000, optics=tuple(o for o in OPTICS if o.media == "SR"), cables=())).notes)  # margin
    nvl72_2u = replace(server(), gpus=4, nic_ports=4, rack_units=3, scale_up_kind="rack-scale", scale_up_gpus=72,
                       scale_up_racks=1, scale_up_switch_trays=9)
    found.extend(refusal(lambda: plan(spec(144, server=nvl72_2u))))  # 18 x 3U + 9U = 63U: a 48U rack is too low
    found.extend(plan(spec(1_000, leaf=replace(twin, fabric="infiniband"))).notes)
    found.extend(refusal(lambda: plan(spec(1_000, leaf=replace(twin, fabric="infiniband"),
                                           pools=AddressPools(host="10.0.0.0/28")))))
    for alt in alternatives(spec(5_000)) + alternatives(spec(5_000, leaf=switch(128))):
        found.extend(m for _, m in alt.reason_messages)
        found.extend(alt.notes)
    out: dict[str, list[Message]] = {}
    for msg in found:
        for part in walk(msg):
            out.setdefault(part.code, []).append(part)
    return out


@pytest.fixture(scope="module")
def seen() -> dict[str, list[Message]]:
    return seen_codes()


def test_the_engine_writes_every_coded_sentence_somewhere(seen):
    assert sorted(set(TEMPLATES) - set(seen) - RETIRED) == []
    assert "" not in seen  # no refusal without a code


def test_every_message_text_is_its_template_filled_with_its_params(seen):
    for messages in seen.values():
        for msg in messages:
            assert_fills_its_template(msg)


def test_a_message_is_its_english_text_and_builds_from_code_and_params():
    msg = message("warning.partial_pod", spines=3, spines_per_pod=8)
    assert str(msg) == msg.text == "the last pod is partly filled and has 3 spines instead of 8"
    assert msg.to_dict() == {"code": "warning.partial_pod", "params": {"spines": 3, "spines_per_pod": 8}}


def test_spec_errors_keep_english_texts_beside_coded_details():
    with pytest.raises(InfeasibleSpec) as err:
        size(spec(100_000, tiers=2))
    exc = err.value
    assert exc.errors["tiers"][0].startswith("2 tiers of 64-port spines hold at most 2,048 GPUs")
    detail = exc.details["tiers"][0]
    assert detail.code == "topology.two_tiers_limit"
    assert (detail.params["max_gpus"], detail.params["gpus"]) == (2_048, 100_000)
    assert str(exc) == "tiers: " + exc.errors["tiers"][0]
    plain = SpecError("not valid JSON")
    assert plain.errors == {"spec": ["not valid JSON"]} and plain.details["spec"][0].code == ""


def test_plan_notes_are_its_warnings_with_codes_and_the_report_carries_both():
    p = plan(spec(5_000, leaf=switch(128)))
    assert [n.text for n in p.notes] == p.warnings and p.warnings
    report = json.loads(json.dumps(plan_report(p, alternatives=alternatives(spec(5_000)))))
    assert report["warning_codes"] == [n.to_dict() for n in p.notes]
    assert not any(w["code"] == "warning.uneven_uplinks" for w in report["warning_codes"])
    blocking = json.loads(json.dumps(alternatives(spec(5_000, leaf=switch(128)))[-1].notes[0].to_dict()))
    assert blocking == {"code": "warning.uneven_uplinks",
                        "params": {"uplinks": 64, "spines": 40, "fewer": 1, "more": 2, "even": 64}}
    infeasible = [a for a in report["alternatives"] if not a["feasible"]]
    assert infeasible
    for alt in infeasible:
        first = alt["reason_codes"][0]
        assert (alt["reason_code"], alt["reason_params"]) == (first["code"], first["params"])
        assert alt["reason"] == "; ".join(
            f"{r['field']}: {fill(TEMPLATES[r['code']], r['params'])}" for r in alt["reason_codes"])


@st.composite
def requests(draw):
    rails = draw(st.sampled_from([1, 2, 4, 8]))
    return spec(
        draw(st.integers(-5, 200_000)), leaf=switch(draw(st.sampled_from([2, 8, 32, 63, 64, 128])),
                                                    twin=draw(st.booleans())),
        server=server(gpus=draw(st.sampled_from([1, 4, 8])), ports=rails),
        planes=draw(st.integers(0, 9)), oversubscription=draw(st.sampled_from([0.5, 1.0, 1.5, 3.0, 40.0])),
        tiers=draw(st.sampled_from(["auto", 2, 3, 4])),
        pools=AddressPools(host=draw(st.sampled_from(["10.0.0.0/12", "10.0.0.0/24", "10.0.0.7/24"]))),
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_whatever_the_request_every_sentence_fills_its_template(s):
    try:
        sz = size(s)
    except SpecError as exc:
        for msg in messages_of(exc):
            assert_fills_its_template(msg)
        return
    if sz.servers * s.server.nic_ports > 40_000:
        return  # planning is checked on the small ones; sizing covered the rest
    try:
        notes = plan(s).notes
    except SpecError as exc:
        notes = messages_of(exc)
    for msg in notes:
        assert_fills_its_template(msg)
