"""The seed catalog YAML as engine dataclasses."""
from __future__ import annotations

import json

import pytest
import yaml

from apps.engine.seedcatalog import SEED_DIR, CatalogError, load, seed_catalog
from apps.engine.spec import SpecError
from apps.engine.specio import spec_from_dict, spec_to_dict


def test_seed_switch_in_a_breakout_mode_becomes_logical_ports_on_cages():
    hw = seed_catalog().switch("920-9N42F-00RI-7C0", "2x400G")
    assert (hw.ports, hw.gbps, hw.cages, hw.cage_gbps, hw.ports_per_cage) == (128, 400, 64, 800, 2)
    assert hw.form_factor == "OSFP" and hw.breakout == "2x400G" and hw.price > 0 and hw.rack_units >= 1


def test_without_a_breakout_the_switch_runs_at_the_nic_speed_when_it_can():
    cat = seed_catalog()
    assert cat.switch("920-9N42F-00RI-7C0", gbps=400).breakout == "2x400G"
    assert cat.switch("920-9N42F-00RI-7C0").breakout == "1x800G"  # native without a hint


def test_unknown_sku_or_breakout_names_the_field():
    cat = seed_catalog()
    with pytest.raises(SpecError) as err:
        cat.switch("920-9N42F-00RI-7C0", "3x300G", field_name="spine")
    assert "spine.breakout" in err.value.errors
    with pytest.raises(SpecError) as err:
        cat.server("NOPE")
    assert "server.sku" in err.value.errors


def test_servers_bring_their_default_nic_and_interconnects_load_with_connectors():
    cat = seed_catalog()
    server = cat.server("DGXH-G640F+P2EDI36")
    assert (server.gpus, server.nic_ports, server.nic_gbps) == (8, 8, 400)
    assert cat.default_nic[server.sku] in cat.nics
    assert cat.optics and cat.cables and cat.fibers
    twin = [o for o in cat.optics if o.ports == 2]
    assert twin and all(o.port_connector and not o.port_connector.startswith("2X") for o in twin)
    assert any(c.legs == 2 for c in cat.cables)


def test_dgx_and_hgx_b300_have_their_backend_nics_built_in_and_dgx_cages_hold_two_ports():
    cat = seed_catalog()
    cages = {sku: (s.nics_built_in, s.ports_per_cage) for sku, s in cat.servers.items()}
    assert cages["DGXH-G640F+P2EDI36"] == cages["DGXB-G1440+P2CMI36"] == (True, 2)
    assert cages["90SF02H1-M00030"] == (True, 1)  # ConnectX-8 on the HGX B300 baseboard
    assert cages["SYS-821GE-TNHR"] == (False, 1)  # PCIe ConnectX-7 cards, bought separately
    flat = {o.sku: o for o in cat.optics if o.flat_top}
    assert {"MMA4Z00-NS-FLT", "MMS4X00-NM-FLT"} <= set(flat)
    # The DGX cages' flat tops are twin-port 2x400G; the XDR single-port RHS optic is ConnectX-8's (GB300, B300).
    assert all(o.ports == 2 and o.gbps == 800 and o.port_gbps == 400 for o in flat.values() if o.ports == 2)
    assert [(o.sku, o.port_gbps, o.fabrics) for o in flat.values() if o.ports == 1] == [
        ("MMS4A20-XM800", 800, ("infiniband",))]


def test_a_malformed_seed_file_names_the_file_entry_and_key(tmp_path):
    (tmp_path / "nics.yaml").write_text("- sku: X1\n  ports: two\n  port_gbps: 400\n  form_factor: OSFP\n")
    with pytest.raises(CatalogError) as err:
        load(tmp_path)
    assert "nics.yaml[0] (X1).ports" in str(err.value)
    (tmp_path / "nics.yaml").write_text("sku: [unclosed\n")
    with pytest.raises(CatalogError) as err:
        load(tmp_path)
    assert "nics.yaml: not valid YAML" in str(err.value)


def test_missing_seed_files_give_an_empty_catalog(tmp_path):
    cat = load(tmp_path)
    assert not cat.switches and not cat.optics


def test_every_seed_optic_cable_and_cord_states_its_fabrics_and_vendor():
    cat = seed_catalog()
    for item in cat.optics + cat.cables + cat.fibers:
        assert item.fabrics and set(item.fabrics) <= {"ethernet", "infiniband"}, item.sku
        assert item.vendor, item.sku
    by_sku = {item.sku: item for item in cat.optics + cat.cables}
    assert by_sku["MMA4Z00-NS"].fabrics == ("ethernet", "infiniband")  # NVIDIA LinkX NDR / 400GbE
    assert by_sku["OSFP-800G-AOC-10M"].fabrics == ("ethernet",) and by_sku["OSFP-800G-AOC-10M"].vendor == "Arista"
    assert {m.vendor for m in cat.switches.values()} >= {"NVIDIA", "Arista"}


def test_a_seed_item_without_fabrics_is_refused(tmp_path):
    (tmp_path / "cables.yaml").write_text(
        "- {sku: X, manufacturer: Acme, model: x, media: DAC, form_factor_a: OSFP, form_factor_b: OSFP, gbps: 800,"
        " leg_gbps: 800, legs: 1, length_m: 1, list_price: 1}\n", encoding="utf-8")
    with pytest.raises(CatalogError, match="fabrics"):
        load(tmp_path)


def test_a_json_spec_carries_fabrics_vendor_and_the_third_party_option_both_ways():
    data = {"gpus": 256, "server": {"gpus": 8, "nic_ports": 8, "nic_gbps": 400},
            "leaf": {"ports": 64, "gbps": 400, "vendor": "Acme"}, "third_party_optics": True,
            "optics": [{"sku": "O", "form_factor": "OSFP", "gbps": 400, "port_gbps": 400, "ports": 1, "media": "SR",
                        "fiber": "MMF", "reach_m": 50, "fabrics": ["ethernet"], "vendor": "Other",
                        "compatible_vendors": ["Acme"]}]}
    spec = spec_from_dict(data)
    assert spec.third_party_optics is True and spec.leaf.vendor == "Acme"
    assert spec.optics[0].fabrics == ("ethernet",) and spec.optics[0].compatible_vendors == ("Acme",)
    assert spec_from_dict(json.loads(json.dumps(spec_to_dict(spec)))) == spec
    with pytest.raises(SpecError) as err:
        spec_from_dict({**data, "third_party_optics": "maybe",
                        "optics": [{**data["optics"][0], "fabrics": ["fddi"]}]})
    assert set(err.value.errors) == {"third_party_optics", "optics[0].fabrics"}


def test_a_seed_item_without_a_source_is_refused(tmp_path):
    (tmp_path / "nics.yaml").write_text("- sku: X1\n  ports: 1\n  port_gbps: 400\n  form_factor: OSFP\n")
    with pytest.raises(CatalogError) as err:
        load(tmp_path)
    assert "nics.yaml[0] (X1).source" in str(err.value) and "data sheet" in str(err.value)


def test_every_item_of_the_shipped_seed_names_its_source():
    for name in ("switches", "nics", "servers", "transceivers", "cables", "fibers", "patch_panels"):
        rows = yaml.safe_load((SEED_DIR / f"{name}.yaml").read_text(encoding="utf-8")) or []
        assert rows, name
        for row in rows:
            assert isinstance(row.get("source"), str) and "http" in row["source"], f"{name}.yaml {row['sku']}"
