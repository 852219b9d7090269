from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from apps.catalog.models import SwitchModel

from .factories import (
    CableFactory, FiberCordFactory, ManufacturerFactory, NicModelFactory, ServerModelFactory, SwitchModelFactory,
    TransceiverFactory,
)

pytestmark = pytest.mark.django_db


def errors_of(instance) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as info:
        instance.full_clean()
    return info.value.message_dict


def test_valid_parts_pass_full_clean():
    for factory in (SwitchModelFactory, NicModelFactory, ServerModelFactory, TransceiverFactory, CableFactory,
                    FiberCordFactory):
        factory().full_clean()


def test_switch_logical_ports_per_breakout_mode():
    switch = SwitchModelFactory(cages=64, cage_gbps=800, breakouts=["1x800G", "2x400G", "4x200G"])
    assert switch.logical_ports == {"1x800G": 64, "2x400G": 128, "4x200G": 256}
    assert switch.native_breakout == "1x800G"


@pytest.mark.parametrize(
    ("breakouts", "fragment"),
    [
        ([], "at least one"),
        (["2x300G"], "600 Gb/s per cage"),
        (["1x800G", "1x800G"], "listed twice"),
        (["800G"], "not a breakout mode"),
        ("1x800G", "at least one"),
    ],
)
def test_switch_breakouts_must_split_the_cage_exactly(breakouts, fragment):
    switch = SwitchModelFactory.build(manufacturer=ManufacturerFactory(), breakouts=breakouts)
    messages = errors_of(switch)["breakouts"]
    assert any(fragment in m for m in messages), messages


def test_switch_max_power_below_typical_is_refused():
    switch = SwitchModelFactory.build(manufacturer=ManufacturerFactory(), power_typical_w=2000, power_max_w=1000)
    assert "power_max_w" in errors_of(switch)


def test_switch_front_panel_faster_than_its_asic_is_refused():
    switch = SwitchModelFactory.build(manufacturer=ManufacturerFactory(), asic_tbps=Decimal("25.6"))
    assert "asic_tbps" in errors_of(switch)


def test_switch_needs_at_least_one_cage_and_a_non_negative_price():
    switch = SwitchModelFactory.build(manufacturer=ManufacturerFactory(), cages=0, list_price=Decimal("-1"))
    errors = errors_of(switch)
    assert "cages" in errors and "list_price" in errors


def test_transceiver_speed_must_be_port_speed_times_ports():
    optic = TransceiverFactory.build(manufacturer=ManufacturerFactory(), gbps=400, port_gbps=400, ports=2)
    assert "gbps" in errors_of(optic)


def test_transceiver_sr_on_single_mode_fibre_is_refused():
    optic = TransceiverFactory.build(manufacturer=ManufacturerFactory(), media="SR", fiber="SMF")
    assert "fiber" in errors_of(optic)


def test_transceiver_reach_must_be_positive():
    optic = TransceiverFactory.build(manufacturer=ManufacturerFactory(), reach_m=0)
    assert "reach_m" in errors_of(optic)


def test_cable_speed_must_be_leg_speed_times_legs():
    cable = CableFactory.build(manufacturer=ManufacturerFactory(), gbps=800, leg_gbps=400, legs=1)
    assert "gbps" in errors_of(cable)
    CableFactory.build(manufacturer=ManufacturerFactory(), gbps=800, leg_gbps=400, legs=2).full_clean()


def test_cable_with_three_legs_or_no_length_is_refused():
    cable = CableFactory.build(manufacturer=ManufacturerFactory(), legs=3, leg_gbps=200, gbps=600, length_m=0)
    errors = errors_of(cable)
    assert "legs" in errors and "length_m" in errors


def test_fibre_cord_length_must_be_positive():
    assert "length_m" in errors_of(FiberCordFactory.build(manufacturer=ManufacturerFactory(), length_m=-5))


def test_server_default_nic_must_match_backend_speed():
    nic = NicModelFactory(port_gbps=800)
    server = ServerModelFactory.build(manufacturer=ManufacturerFactory(), backend_gbps=400, default_nic=nic)
    assert "default_nic" in errors_of(server)


def test_server_backend_ports_must_be_whole_nics():
    nic = NicModelFactory(ports=3, port_gbps=400)
    server = ServerModelFactory.build(manufacturer=ManufacturerFactory(), backend_ports=8, default_nic=nic)
    assert "default_nic" in errors_of(server)


def test_server_backend_ports_per_cage_must_divide_the_backend_ports():
    server = ServerModelFactory.build(manufacturer=ManufacturerFactory(), backend_ports=3, backend_ports_per_cage=2,
                                      default_nic=None)
    assert "backend_ports_per_cage" in errors_of(server)
    twin = ServerModelFactory.build(manufacturer=ManufacturerFactory(), backend_ports=8, backend_ports_per_cage=2,
                                    backend_nics_built_in=True, default_nic=None)
    twin.full_clean()  # 8 ports in 4 twin-port cages, as on a DGX H100


def test_sku_is_unique_per_model_type():
    SwitchModelFactory(sku="SAME-1")
    NicModelFactory(sku="SAME-1")  # another type may reuse it
    duplicate = SwitchModelFactory.build(manufacturer=ManufacturerFactory(), sku="SAME-1")
    assert "sku" in errors_of(duplicate)
    assert SwitchModel.objects.filter(sku="SAME-1").count() == 1


def test_currency_must_be_an_iso_code():
    assert "currency" in errors_of(NicModelFactory.build(manufacturer=ManufacturerFactory(), currency="usd"))


def test_optics_cables_and_cords_must_state_the_fabrics_they_are_qualified_for():
    for factory in (TransceiverFactory, CableFactory, FiberCordFactory):
        assert "fabrics" in errors_of(factory.build(manufacturer=ManufacturerFactory(), fabrics=[]))
        assert "fabrics" in errors_of(factory.build(manufacturer=ManufacturerFactory(), fabrics=["fddi"]))
        assert "fabrics" in errors_of(factory.build(manufacturer=ManufacturerFactory(),
                                                    fabrics=["ethernet", "ethernet"]))


def test_a_declared_compatible_vendor_must_be_a_catalog_manufacturer():
    ManufacturerFactory(name="Arista")
    ok = TransceiverFactory.build(manufacturer=ManufacturerFactory(), compatible_vendors=["arista"])
    ok.full_clean()
    bad = CableFactory.build(manufacturer=ManufacturerFactory(), compatible_vendors=["Nobody Inc"])
    assert "Nobody Inc" in errors_of(bad)["compatible_vendors"][0]
