from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command

from apps.catalog.models import (Cable, FiberCord, Manufacturer, NicModel, PatchPanel, ServerModel, SwitchModel,
                                 Transceiver)
from apps.catalog.services import SEED_DIR, catalog_seed_load

pytestmark = pytest.mark.django_db

SEED_FILES = ("switches", "nics", "servers", "transceivers", "cables", "fibers", "patch_panels")
MODELS = {"switches": SwitchModel, "nics": NicModel, "servers": ServerModel, "transceivers": Transceiver,
          "cables": Cable, "fibers": FiberCord, "patch_panels": PatchPanel}


def seed_count(name: str) -> int:
    return len(yaml.safe_load((SEED_DIR / f"{name}.yaml").read_text()))


def test_load_seed_catalog_loads_every_file(capsys):
    call_command("load_seed_catalog")
    for name in SEED_FILES:
        assert MODELS[name].objects.count() == seed_count(name), name
    out = capsys.readouterr().out
    assert "Seed catalog loaded" in out and f"switches: {seed_count('switches')} created" in out


def test_loading_the_seed_twice_changes_nothing(capsys):
    call_command("load_seed_catalog")
    before = {name: MODELS[name].objects.count() for name in SEED_FILES}
    capsys.readouterr()
    call_command("load_seed_catalog")
    assert {name: MODELS[name].objects.count() for name in SEED_FILES} == before
    assert "0 created, 0 updated" in capsys.readouterr().out


def test_reloading_the_seed_restores_an_edited_price():
    catalog_seed_load()
    switch = SwitchModel.objects.get(model="Spectrum-4 SN5600")
    original = switch.list_price
    switch.list_price = 1
    switch.save()
    result = catalog_seed_load()
    assert result.updated["switches"] == 1
    switch.refresh_from_db()
    assert switch.list_price == original


def test_every_seed_price_is_marked_as_an_example():
    catalog_seed_load()
    for model in MODELS.values():
        assert not model.objects.filter(price_is_example=False).exists(), model


def test_seed_covers_the_hardware_a_presales_engineer_quotes():
    catalog_seed_load()
    assert SwitchModel.objects.filter(cages=64, cage_gbps=800, cage_form_factor="OSFP").values("asic").distinct().count() >= 2
    assert SwitchModel.objects.filter(cages=64, cage_gbps=400).exists()
    assert NicModel.objects.filter(port_gbps=400).exists() and NicModel.objects.filter(port_gbps=800).exists()
    assert ServerModel.objects.filter(gpus=8).count() >= 2
    assert ServerModel.objects.filter(backend_gbps=800, default_nic__port_gbps=800).exists()
    assert not ServerModel.objects.filter(default_nic__isnull=True).exists()


def test_seed_infiniband_switches_are_quantum2_ndr_and_quantum_x800_xdr():
    catalog_seed_load()
    ib = {s.sku: s for s in SwitchModel.objects.filter(fabric="infiniband")}
    assert set(ib) == {"MQM9700-NS2F", "Q3400-RA"}
    # Quantum-X800: 144 ports of 800G in 72 twin-port OSFP cages (NVIDIA), power not published: empty, never 0.
    x800 = ib["Q3400-RA"]
    assert (x800.cages, x800.cage_gbps, x800.breakouts) == (72, 1600, ["2x800G"])
    assert x800.power_typical_w is None and x800.power_max_w is None


def test_seed_has_optics_cables_and_fibres_at_every_reach_tier():
    catalog_seed_load()
    # Copper in the rack, active copper next rack, AEC/AOC across the row.
    assert Cable.objects.filter(media="DAC", length_m__lte=2, legs=1, gbps=800).exists()
    assert Cable.objects.filter(media="DAC", legs=2, leg_gbps=400, length_m__gte=3).exists()
    assert Cable.objects.filter(media="DAC", legs=2, form_factor_b="QSFP112").exists()
    assert Cable.objects.filter(media="ACC", length_m__gte=4).exists()
    assert Cable.objects.filter(media="AEC", length_m__gte=7).exists()
    assert Cable.objects.filter(media="AOC", length_m__gte=30).exists()
    assert Cable.objects.filter(form_factor_a="QSFP-DD", media="DAC").exists()
    # Twin-port switch optics with matching single-port NIC optics, on both fibre types.
    for media, fiber in (("SR", "MMF"), ("DR", "SMF")):
        assert Transceiver.objects.filter(ports=2, port_gbps=400, media=media, fiber=fiber).exists()
        for form_factor in ("OSFP", "QSFP112"):
            assert Transceiver.objects.filter(ports=1, gbps=400, form_factor=form_factor, media=media).exists()
        assert Transceiver.objects.filter(ports=1, gbps=800, media=media).exists()
    assert Transceiver.objects.filter(media="DR", reach_m__gte=500).exists()
    assert Transceiver.objects.filter(media="FR", reach_m__gte=2000).exists()
    assert Transceiver.objects.filter(form_factor="QSFP-DD").values("media").distinct().count() == 3
    # Fibre cords for every optic's connector, long enough for its reach.
    for optic in Transceiver.objects.all():
        connector = optic.connector.removeprefix("2x ")
        assert FiberCord.objects.filter(fiber=optic.fiber, connector=connector, length_m__gte=optic.reach_m).exists(), optic
    mmf = FiberCord.objects.filter(fiber="MMF", connector="MPO-12/APC").order_by("length_m")
    assert [float(c.length_m) for c in mmf] == [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100]
    prices = [c.list_price for c in mmf]
    assert prices == sorted(prices) and len(set(prices)) == len(prices)


def test_a_bad_seed_row_is_reported_by_file_and_row_and_nothing_is_saved(tmp_path: Path):
    rows = yaml.safe_load((SEED_DIR / "nics.yaml").read_text())
    rows[1]["port_gbps"] = "fast"
    rows[2]["form_factor"] = "SFP"
    (tmp_path / "nics.yaml").write_text(yaml.safe_dump(rows))
    with pytest.raises(CommandError, match="2 problem"):
        call_command("load_seed_catalog", path=tmp_path)
    assert NicModel.objects.count() == 0
    assert Manufacturer.objects.count() == 0


def test_bad_seed_rows_name_the_row_and_field(tmp_path: Path, capsys):
    rows = yaml.safe_load((SEED_DIR / "transceivers.yaml").read_text())
    rows[0]["gbps"] = 400  # twin-port module must total 800G
    (tmp_path / "transceivers.yaml").write_text(yaml.safe_dump(rows))
    with pytest.raises(CommandError):
        call_command("load_seed_catalog", "--path", str(tmp_path))
    err = capsys.readouterr().err
    assert "transceivers.yaml, row 1, column gbps" in err
    assert Transceiver.objects.count() == 0


def test_load_seed_catalog_with_a_missing_path_fails_cleanly(tmp_path: Path):
    with pytest.raises(CommandError):
        call_command("load_seed_catalog", path=tmp_path / "nowhere")


def test_every_seed_optic_cable_and_cord_states_its_fabrics_and_vendor():
    catalog_seed_load()
    for model in (Transceiver, Cable, FiberCord):
        for item in model.objects.select_related("manufacturer"):
            assert item.fabrics and set(item.fabrics) <= {"ethernet", "infiniband"}, item.sku
            assert item.manufacturer.name, item.sku
    # NVIDIA LinkX NDR-generation parts run both fabrics; Arista's and Credo's are Ethernet only.
    assert Transceiver.objects.get(sku="MMA4Z00-NS").fabrics == ["ethernet", "infiniband"]
    assert Cable.objects.get(sku="OSFP-800G-AOC-10M").fabrics == ["ethernet"]
    assert all(c.fabrics == ["ethernet"] for c in Cable.objects.filter(manufacturer__name="Credo"))


def test_every_seed_switch_and_patch_panel_names_its_source_and_never_writes_0_for_unknown_power():
    catalog_seed_load()
    for item in list(SwitchModel.objects.all()) + list(PatchPanel.objects.all()):
        assert "http" in item.source, item.sku
    for switch in SwitchModel.objects.all():
        assert switch.power_typical_w != 0 and switch.power_max_w != 0, switch.sku


def test_seed_has_a_switch_of_every_class_with_uplinks_on_front_end_and_management_ones():
    catalog_seed_load()
    classes = set(SwitchModel.objects.values_list("switch_class", flat=True))
    assert classes == {"fabric", "frontend", "management"}
    for switch in SwitchModel.objects.filter(switch_class="management"):
        assert switch.uplink_cages > 0 and switch.uplink_gbps > switch.cage_gbps, switch.sku
        assert (switch.cages, switch.cage_form_factor, switch.cage_gbps) == (48, "RJ45", 1), switch.sku
    leaves = SwitchModel.objects.filter(switch_class="frontend", uplink_cages__gt=0)
    spines = SwitchModel.objects.filter(switch_class="frontend", uplink_cages=0)
    assert leaves.exists() and spines.exists()
    for leaf in leaves:
        assert leaf.uplink_gbps > leaf.cage_gbps, leaf.sku
        # a front-end leaf's uplinks land on a seed spine of their speed and cage
        assert spines.filter(cage_gbps=leaf.uplink_gbps, cage_form_factor=leaf.uplink_form_factor).exists(), leaf.sku


def test_seed_quotes_front_end_and_management_switches_of_several_vendors():
    catalog_seed_load()
    for role, switches in (
        ("25G leaf", SwitchModel.objects.filter(switch_class="frontend", cage_gbps=25, uplink_gbps=100)),
        ("100G spine", SwitchModel.objects.filter(switch_class="frontend", cage_gbps=100, uplink_cages=0)),
        ("1G management", SwitchModel.objects.filter(switch_class="management", cage_gbps=1)),
    ):
        assert switches.values("manufacturer").distinct().count() >= 3, role


def test_every_seed_item_of_every_kind_names_its_source():
    catalog_seed_load()
    for model in (SwitchModel, NicModel, ServerModel, Transceiver, Cable, FiberCord, PatchPanel):
        assert model.objects.exists(), model
        for item in model.objects.all():
            assert item.source.strip(), f"{model.__name__} {item.sku} names no source"
            assert "http" in item.source, f"{model.__name__} {item.sku}: give the source's URL"


def test_a_seed_item_without_a_source_is_refused_by_file_row_and_column(tmp_path: Path, capsys):
    rows = yaml.safe_load((SEED_DIR / "nics.yaml").read_text())
    del rows[0]["source"]
    rows[2]["source"] = "   "
    (tmp_path / "nics.yaml").write_text(yaml.safe_dump(rows))
    with pytest.raises(CommandError, match="2 problem"):
        call_command("load_seed_catalog", path=tmp_path)
    err = capsys.readouterr().err
    assert "nics.yaml, row 1, column source" in err and "nics.yaml, row 3, column source" in err
    assert "data sheet or reference architecture" in err
    assert NicModel.objects.count() == 0


def test_the_seed_quotes_the_nvl72_rack_power_nvidia_publishes_and_leaves_the_rest_empty():
    catalog_seed_load()
    gb300 = ServerModel.objects.get(sku="ARS-121GL-NB3-LCC-R1")
    assert gb300.scale_up_rack_power_w == 142_000  # "Full rack requiring up to 142 kW"
    assert gb300.scale_up_switch_tray_power_w is None
    gb200 = ServerModel.objects.get(sku="DGX-GB200-NVL72-TRAY")
    assert gb200.scale_up_rack_power_w is None and gb200.scale_up_switch_tray_power_w is None
    # Vendors that publish no card power: empty, not 0 W.
    assert NicModel.objects.get(sku="POLLARA-400").power_w is None
    assert NicModel.objects.get(sku="BCM957608-P1400GDF00").power_w is None


def test_the_seed_has_the_amd_platforms_and_their_400g_nics():
    catalog_seed_load()
    amd = ServerModel.objects.filter(gpu_model__startswith="Instinct")
    assert {s.default_nic.sku for s in amd} == {"POLLARA-400", "BCM957608-P1400GDF00"}
    assert all(s.gpus == 8 and s.backend_ports == 8 and s.backend_gbps == 400 for s in amd)
    assert all(s.scale_up_kind == "in-server" and s.scale_up_domain_gpus == 8 for s in amd)


def test_the_seed_cables_front_end_and_management_speeds():
    catalog_seed_load()
    for form, gbps in (("SFP+", 10), ("SFP28", 25), ("QSFP28", 100)):
        assert Transceiver.objects.filter(form_factor=form, gbps=gbps, media="SR").exists(), form
        assert Cable.objects.filter(form_factor_a=form, gbps=gbps, media="DAC").exists(), form
    assert Transceiver.objects.filter(form_factor="QSFP28", media="DR").exists()
    assert Transceiver.objects.filter(form_factor="QSFP28", media="FR", reach_m__gte=2000).exists()
    assert Cable.objects.filter(form_factor_a="QSFP28", form_factor_b="SFP28", legs=4, leg_gbps=25).exists()
    assert Transceiver.objects.filter(form_factor="OSFP", gbps=1600).count() >= 2
    assert FiberCord.objects.filter(connector__startswith="MPO-24").values("fiber").distinct().count() == 2
