"""Switch classes and uplink groups in the engine: a front-end leaf's access ports go down and its uplink
group up, a management switch keeps every access port for devices, each network takes only its classes,
the explorer leaves out switches that cannot lead a backend fabric, and unpublished power is named."""
from __future__ import annotations

from dataclasses import replace

import pytest

from apps.engine.explore.search import explorable, switch_options
from apps.engine.networks.cluster import plan_cluster
from apps.engine.plan import plan
from apps.engine.seedcatalog import seed_catalog
from apps.engine.spec import SpecError, SwitchHw
from apps.engine.specio import spec_from_dict

from .builders import spec, switch

# A 48x25G SFP28 + 8x100G QSFP28 front-end leaf (the Dell S5248F-ON's layout) and a 32x100G spine.
LEAF_25G = {"ports": 48, "gbps": 25, "cages": 48, "cage_gbps": 25, "form_factor": "SFP28", "sku": "FE-25G",
            "name": "48x25G+8x100G leaf", "switch_class": "frontend", "uplinks": 8, "uplink_gbps": 100,
            "uplink_cages": 8, "uplink_form_factor": "QSFP28", "power_typical_w": 300, "power_max_w": 500}
SPINE_100G = {"ports": 32, "gbps": 100, "cages": 32, "cage_gbps": 100, "form_factor": "QSFP28", "sku": "FE-100G",
              "name": "32x100G spine", "switch_class": "frontend", "power_typical_w": 400, "power_max_w": 600}
MM = {"fabrics": ["ethernet"], "media": "SR", "fiber": "MMF", "reach_m": 100, "price": 50, "power_w": 1}
OPTICS_25_100 = [
    dict(MM, sku="SFP28-SR", form_factor="SFP28", gbps=25, port_gbps=25, ports=1),
    dict(MM, sku="QSFP28-SR4", form_factor="QSFP28", gbps=100, port_gbps=100, ports=1),
]
FIBERS = [{"sku": f"OM4-{m}M", "fiber": "MMF", "length_m": m, "price": 10, "fabrics": ["ethernet"]}
          for m in (1, 3, 5, 10, 20, 30, 50, 100)]
BASE = {"name": "fe", "gpus": 256, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
        "leaf": {"ports": 64, "gbps": 400}}


def cluster(frontend: dict | None = None, oob: dict | None = None):
    """The spec with the seed's interconnects plus 25G / 100G multimode optics and cords."""
    data = dict(BASE)
    if frontend is not None:
        data["frontend"] = frontend
    if oob is not None:
        data["oob"] = oob
    extra = spec_from_dict({**BASE, "optics": OPTICS_25_100, "fibers": FIBERS})
    seed = seed_catalog()
    return replace(spec_from_dict(data), optics=seed.optics + extra.optics, cables=seed.cables,
                   fibers=seed.fibers + extra.fibers)


def frontend(**kwargs) -> dict:
    return {"ports_per_server": 2, "gbps": 25, "leaf": LEAF_25G, "spine": SPINE_100G,
            "oversubscription": "1.5:1", **kwargs}


def test_frontend_leaf_uses_access_ports_down_and_the_uplink_group_up():
    fe = plan_cluster(cluster(frontend())).networks["frontend"]
    links = fe.links
    # 32 servers x 2 ports = 64 endpoint ports on 48-port leaves: 2 leaves, all 8 uplinks of each in use.
    assert fe.switches["leaf"] == 2
    up = links.tier == 1
    assert int(up.sum()) == 2 * 8
    # Uplinks leave from the uplink group (ports 48..55), never from an access port.
    assert sorted(set(links.a_port[up].tolist())) == list(range(48, 56))
    assert int(links.b_port[links.tier == 0].max()) < 48
    # 48 x 25G down over 8 x 100G up: 1.5:1, as asked.
    assert fe.oversubscription["leaf"] == pytest.approx(1.5)
    skus = {line.sku for line in fe.bom}
    assert {"SFP28-SR", "QSFP28-SR4", "FE-25G", "FE-100G"} <= skus


def test_frontend_at_one_to_one_uses_only_as_many_access_ports_as_the_uplinks_carry():
    fe = plan_cluster(cluster(frontend(oversubscription=1))).networks["frontend"]
    assert fe.oversubscription["leaf"] == pytest.approx(1.0)
    # 8 x 100G = 800G up carries 32 x 25G down: 64 endpoint ports need 2 leaves.
    assert fe.switches["leaf"] == 2


def test_a_leaf_with_an_uplink_group_needs_a_spine_at_the_uplink_speed():
    with pytest.raises(SpecError) as err:
        plan_cluster(cluster(frontend(spine=None)))
    assert "100 Gb/s" in " ".join(err.value.errors["frontend.spine"])
    with pytest.raises(SpecError) as err:
        plan_cluster(cluster(frontend(spine=dict(SPINE_100G, gbps=25))))
    assert "frontend.spine" in err.value.errors


def test_management_switch_with_an_uplink_group_keeps_every_access_port_for_devices():
    mgmt = {"ports": 48, "gbps": 1, "form_factor": "RJ45", "switch_class": "management", "uplinks": 4,
            "uplink_gbps": 10, "uplink_cages": 4, "uplink_form_factor": "SFP+", "sku": "MGMT-48"}
    oob = plan_cluster(cluster(oob={"leaf": mgmt, "uplinks": 2})).networks["oob"]
    up = oob.links.tier == 1
    assert set(oob.links.a_port[up].tolist()) == {48, 49}
    assert int(oob.links.b_port[oob.links.tier == 0].max()) < 48
    with pytest.raises(SpecError) as err:
        plan_cluster(cluster(oob={"leaf": mgmt, "uplinks": 5}))
    assert "4 uplink ports" in " ".join(err.value.errors["oob.uplinks"])


@pytest.mark.parametrize("network, role_class, field", [
    ("oob", "fabric", "oob.leaf"),
    ("frontend", "management", "frontend.leaf"),
])
def test_each_network_takes_only_its_switch_classes(network, role_class, field):
    with pytest.raises(SpecError) as err:
        if network == "oob":
            plan_cluster(cluster(oob={"leaf": {"ports": 48, "gbps": 1, "switch_class": role_class,
                                                "name": "Big one"}}))
        else:
            plan_cluster(cluster(frontend(leaf=dict(LEAF_25G, switch_class=role_class, name="Big one"))))
    text = " ".join(err.value.errors[field])
    assert "Big one" in text and "switch" in text


def test_backend_refuses_a_management_or_front_end_switch():
    for switch_class in ("management", "frontend"):
        with pytest.raises(SpecError) as err:
            plan(spec(1_000, leaf=replace(switch(64), switch_class=switch_class, name="Mgmt 48")))
        assert "backend fabric takes fabric-class switches" in err.value.errors["leaf.switch_class"][0]
    assert plan(spec(1_000, leaf=replace(switch(64), switch_class="fabric"))).switches["leaf"] > 0


def test_explorer_only_tries_fabric_class_switches_with_published_power():
    ok = switch(64)
    unpublished = replace(switch(64, sku="NOPOWER"), power_typical_w=None, power_max_w=None)
    frontend_one = replace(switch(64, sku="FE"), switch_class="frontend")
    management = replace(switch(64, sku="MG"), switch_class="management")
    assert explorable(ok) and not explorable(unpublished)
    assert not explorable(frontend_one) and not explorable(management)
    options = switch_options((ok, unpublished, frontend_one, management), fabric="ethernet", gbps=400)
    assert [hw.sku for hw in options] == [ok.sku]


def test_a_switch_without_published_power_is_named_and_left_out_of_the_totals():
    published = plan(spec(1_000))
    unpublished_leaf = replace(switch(64, sku="LEAF-NOPOWER"), power_typical_w=None, power_max_w=None)
    result = plan(spec(1_000, leaf=unpublished_leaf, spine=switch(64)))
    notes = [n for n in result.notes if n.code == "warning.power_not_published"]
    assert len(notes) == 1 and "LEAF-NOPOWER" in notes[0].text
    line = next(line for line in result.bom if line.sku == "LEAF-NOPOWER")
    assert not line.power_published and line.power_typical_w == 0
    leaves = result.switches["leaf"]
    assert f"{leaves} device(s)" in notes[0].text
    # Only the leaves' watts are missing; the spines' and optics' still count.
    assert 0 < result.power_typical_w < published.power_typical_w
    assert not [n for n in published.notes if n.code == "warning.power_not_published"]


def test_switch_class_of_an_inline_switch_is_checked():
    with pytest.raises(SpecError) as err:
        plan(spec(1_000, leaf=SwitchHw(ports=64, gbps=400, switch_class="access")))
    assert "leaf.switch_class" in err.value.errors


def test_report_names_the_parts_missing_power():
    from apps.engine.report import report

    unpublished_leaf = replace(switch(64, sku="LEAF-NOPOWER"), power_typical_w=None, power_max_w=None)
    data = report(plan(spec(1_000, leaf=unpublished_leaf, spine=switch(64))))
    assert data["power"]["missing"] == ["LEAF-NOPOWER"]
    line = next(row for row in data["bom"] if row["sku"] == "LEAF-NOPOWER")
    assert line["power_published"] is False
    assert report(plan(spec(1_000)))["power"]["missing"] == []
