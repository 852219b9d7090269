"""Every server and every switch of the seed catalog plans a design of its own class.

A server plans a backend fabric on a seed leaf at its NIC speed (rack-scale trays in whole NVL72 domains); a
fabric switch is the backend leaf, a front-end switch the front-end leaf, a management switch the out-of-band
switch of a design. Where no part of the switch's own vendor (or declared compatible) in the seed joins a tier,
the design says so and names what third-party optics would reach; allowing them, it plans. Where a part's
vendor publishes no power figure, the design says which part's figure it needs instead of counting it silently.
"""
from __future__ import annotations

import pytest
import yaml

from apps.engine.networks.cluster import plan_cluster
from apps.engine.seedcatalog import SEED_DIR, parse_breakout, seed_catalog
from apps.engine.spec import InfeasibleSpec
from apps.engine.specio import spec_from_dict

CATALOG = seed_catalog()
BACKEND_LEAF = "920-9N42F-00RI-7C0"  # NVIDIA Spectrum-4 SN5600: 1x800G, 2x400G, 4x200G
FRONTEND_SERVER = "DGXH-G640F+P2EDI36"  # states its front-end ports (2)


def seed_rows(kind: str) -> list[dict]:
    path = SEED_DIR / f"{kind}.yaml"
    return (yaml.safe_load(path.read_text(encoding="utf-8")) or []) if path.exists() else []


def switch_speeds(sku: str) -> list[int]:
    return [parse_breakout(mode)[1] for mode in CATALOG.switches[sku].breakouts]


def plan_qualified(data: dict):
    """The design with the switch vendors' own parts; where none joins a tier, the refusal says that third-party
    optics would, and the design allowing them plans."""
    try:
        return plan_cluster(spec_from_dict(data))
    except InfeasibleSpec as exc:
        text = " ".join(m for messages in exc.errors.values() for m in messages)
        assert "third-party optics" in text, text
        return plan_cluster(spec_from_dict({**data, "third_party_optics": True}))


def assert_unpublished_power_is_named(result) -> None:
    """Each BOM line whose power the vendor does not publish is named in a note of its network."""
    for bom, notes in [(result.bom, result.notes)] + [(n.bom, n.notes) for n in result.networks.values()]:
        missing = {line.sku for line in bom if not line.spare and not line.power_published}
        named = " ".join(note.params.get("skus", "") for note in notes if note.code == "warning.power_not_published")
        assert all(sku in named for sku in missing), (missing, named)


def backend_gpus(sku: str) -> int:
    server = CATALOG.servers[sku]
    if server.scale_up_kind == "rack-scale":
        return 2 * server.scale_up_gpus  # two whole NVL72 domains
    return 16 * server.gpus


@pytest.mark.parametrize("sku", sorted(CATALOG.servers))
def test_every_seed_server_plans_a_backend_fabric(sku):
    server = CATALOG.servers[sku]
    assert server.nic_gbps in switch_speeds(BACKEND_LEAF), "pick a seed leaf at this server's NIC speed"
    result = plan_qualified({"gpus": backend_gpus(sku), "server": sku, "leaf": {"sku": BACKEND_LEAF}})
    assert result.gpus == backend_gpus(sku)
    assert result.servers * server.gpus == result.gpus
    assert result.links_by_tier["server-leaf"] == result.servers * server.nic_ports
    assert result.total_cost > 0 and result.power_typical_w > 0
    assert_unpublished_power_is_named(result)


def fabric_server_for(sku: str) -> str:
    """A seed server whose NIC speed the switch offers (the smallest such speed first)."""
    speeds = switch_speeds(sku)
    candidates = sorted((s.nic_gbps, s.scale_up_kind == "rack-scale", code) for code, s in CATALOG.servers.items()
                        if s.nic_gbps in speeds)
    assert candidates, f"no seed server runs at {speeds} for {sku}"
    return candidates[0][2]


@pytest.mark.parametrize("sku", sorted(CATALOG.switches))
def test_every_seed_switch_plans_a_design_of_its_class(sku):
    model = CATALOG.switches[sku]
    if model.switch_class == "fabric":
        server = fabric_server_for(sku)
        result = plan_qualified({"gpus": backend_gpus(server), "server": server, "leaf": {"sku": sku}})
        assert result.switches["leaf"] > 0 and result.spec.fabric == model.fabric
    elif model.switch_class == "frontend":
        gbps = switch_speeds(sku)[0]
        frontend = {"ports_per_server": 2, "gbps": gbps, "leaf": {"sku": sku}}
        if model.uplink_cages:
            frontend["spine"] = spine_for(sku)
        result = plan_qualified({"gpus": 128, "server": FRONTEND_SERVER, "leaf": {"sku": BACKEND_LEAF},
                                 "frontend": frontend})
        assert result.networks["frontend"].switches["leaf"] > 0
    else:
        result = plan_qualified({"gpus": 128, "server": FRONTEND_SERVER, "leaf": {"sku": BACKEND_LEAF},
                                 "oob": {"leaf": {"sku": sku}}})
        assert result.networks["oob"].switches["leaf"] > 0
    assert_unpublished_power_is_named(result)


def spine_for(sku: str) -> dict:
    """The spine for a leaf with an uplink group: a seed front-end switch without an uplink group whose cages are
    the uplink cages' type and speed (the seed holds one for every front-end leaf: the design is planned from the
    seed alone)."""
    model = CATALOG.switches[sku]
    for code, other in sorted(CATALOG.switches.items()):
        if (code != sku and other.switch_class == "frontend" and not other.uplink_cages
                and other.cage_gbps == model.uplink_gbps and other.form_factor == model.uplink_form_factor):
            return {"sku": code, "breakout": f"1x{model.uplink_gbps}G"}
    raise AssertionError(f"no seed spine at {model.uplink_gbps}G {model.uplink_form_factor} for {sku}")


@pytest.mark.parametrize("sku", sorted(s for s, m in CATALOG.switches.items()
                                       if m.switch_class == "frontend" and m.uplink_cages))
def test_every_seed_front_end_leaf_plans_with_a_seed_spine(sku):
    spine = spine_for(sku)
    frontend = {"ports_per_server": 2, "gbps": CATALOG.switches[sku].cage_gbps, "leaf": {"sku": sku},
                "spine": spine}
    result = plan_qualified({"gpus": 1024, "server": FRONTEND_SERVER, "leaf": {"sku": BACKEND_LEAF},
                             "frontend": frontend})
    network = result.networks["frontend"]
    skus = {line.sku for line in network.bom}
    assert network.switches["leaf"] > 0 and {sku, spine["sku"]} <= skus, skus
    assert_unpublished_power_is_named(result)


# The figures a design of each kind reads; a figure a vendor does not publish is null (None) and only those
# listed as `may_be_unpublished` may be: the design then names the part (see the tests above).
NEEDED = {
    "servers": ("gpus", "backend_ports", "backend_gbps", "rack_units", "default_nic"),
    "nics": ("ports", "port_gbps", "form_factor"),
    "transceivers": ("form_factor", "gbps", "port_gbps", "ports", "media", "fiber", "connector", "reach_m"),
    "cables": ("media", "form_factor_a", "form_factor_b", "gbps", "leg_gbps", "legs", "length_m"),
    "fibers": ("fiber", "connector", "length_m"),
    "switches": ("cages", "cage_form_factor", "cage_gbps", "breakouts", "rack_units"),
}
RACK_SCALE_NEEDED = ("scale_up_domain_gpus", "scale_up_racks", "scale_up_switch_trays")


@pytest.mark.parametrize("kind", sorted(NEEDED))
def test_no_seed_item_leaves_empty_a_figure_its_design_needs(kind):
    for row in seed_rows(kind):
        needed = NEEDED[kind] + (RACK_SCALE_NEEDED if row.get("scale_up_kind") == "rack-scale" else ())
        empty = [key for key in needed if row.get(key) in (None, "", [], 0)]
        assert not empty, f"{kind}.yaml {row['sku']}: {', '.join(empty)} empty"
        if kind == "servers":
            assert row["default_nic"] in CATALOG.nics, row["sku"]


def test_a_rack_scale_tray_states_the_rack_power_nvidia_publishes():
    gb300 = next(row for row in seed_rows("servers") if row["sku"] == "ARS-121GL-NB3-LCC-R1")
    assert gb300["scale_up_rack_power_w"] == 142_000  # "Full rack requiring up to 142 kW"
    assert gb300["scale_up_switch_tray_power_w"] is None  # not published


def test_a_design_names_the_nic_whose_power_is_not_published():
    result = plan_cluster(spec_from_dict({"gpus": 128, "server": "AS-4126GS-NMR-LCC", "leaf": {"sku": BACKEND_LEAF}}))
    notes = [note for note in result.notes if note.code == "warning.power_not_published"]
    assert len(notes) == 1 and "POLLARA-400" in notes[0].params["skus"]
    assert "POLLARA-400" in notes[0].text and "no power figure" in notes[0].text
