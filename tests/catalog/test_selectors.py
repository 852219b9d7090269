import pytest
from django.core.exceptions import ValidationError

from apps.catalog.selectors import interconnect_catalog, nic_hw, optic_hw, server_hw, switch_hw
from apps.catalog.services import catalog_seed_load
from apps.catalog.models import NicModel, ServerModel, SwitchModel, Transceiver
from apps.engine.spec import CableAssembly, FiberCord, NicHw, Optic, ServerHw, SwitchHw

from .factories import CableFactory, FiberCordFactory, SwitchModelFactory, TransceiverFactory

pytestmark = pytest.mark.django_db


def test_sn5600_in_2x400g_is_128_ports_of_400g():
    catalog_seed_load()
    sn5600 = SwitchModel.objects.get(model="Spectrum-4 SN5600")
    hw = switch_hw(switch=sn5600, breakout="2x400G")
    assert isinstance(hw, SwitchHw)
    assert (hw.ports, hw.gbps, hw.cages, hw.cage_gbps, hw.form_factor) == (128, 400, 64, 800, "OSFP")
    assert hw.ports_per_cage == 2 and hw.native_gbps == 800
    assert hw.breakout == "2x400G" and hw.sku == sn5600.sku
    assert hw.price == float(sn5600.list_price) and hw.rack_units == 2
    assert hw.power_typical_w == 1200 and hw.power_max_w == 2300


def test_switch_in_a_mode_it_does_not_offer_is_a_breakout_error():
    switch = SwitchModelFactory(breakouts=["2x400G"], cages=32)
    with pytest.raises(ValidationError) as info:
        switch_hw(switch=switch, breakout="1x800G")
    assert "breakout" in info.value.message_dict
    assert "2x400G" in info.value.message_dict["breakout"][0]


def test_server_and_nic_map_to_engine_hardware():
    catalog_seed_load()
    server = ServerModel.objects.get(model="DGX H100")
    hw = server_hw(server=server)
    assert hw == ServerHw(gpus=8, nic_ports=8, nic_gbps=400, sku=server.sku, name="NVIDIA DGX H100",
                          scale_up="NVLink 4", rack_units=8, power_w=10200.0, price=float(server.list_price),
                          nics_built_in=True, ports_per_cage=2, scale_up_kind="in-server", scale_up_gpus=8,
                          scale_up_gb_s=900.0)
    nic = nic_hw(nic=server.default_nic)
    assert isinstance(nic, NicHw) and (nic.ports, nic.gbps, nic.form_factor) == (1, 400, "OSFP")
    cx8 = nic_hw(nic=NicModel.objects.get(port_gbps=800))
    assert cx8.gbps == 800 and cx8.splits == (1, 2)
    pcie = server_hw(server=ServerModel.objects.get(sku="SYS-821GE-TNHR"))  # separate ConnectX-7 cards
    assert (pcie.nics_built_in, pcie.ports_per_cage) == (False, 1)
    flat = optic_hw(transceiver=Transceiver.objects.get(sku="MMA4Z00-NS-FLT"))
    assert flat.flat_top and (flat.ports, flat.gbps, flat.power_w) == (2, 800, 15.0)


def test_interconnect_catalog_offers_only_active_items():
    TransceiverFactory(sku="OPT-ON")
    TransceiverFactory(sku="OPT-OFF", active=False)
    CableFactory(sku="CAB-ON", media="DAC", length_m=1.5)
    CableFactory(sku="CAB-OFF", active=False)
    FiberCordFactory(sku="FIB-ON", length_m=30)
    optics, cables, fibers = interconnect_catalog()
    assert [o.sku for o in optics] == ["OPT-ON"] and isinstance(optics[0], Optic)
    assert optics[0].ports == 2 and optics[0].port_gbps == 400 and optics[0].fiber == "MMF"
    assert [c.sku for c in cables] == ["CAB-ON"] and isinstance(cables[0], CableAssembly)
    assert cables[0].length_m == 1.5
    assert [f.sku for f in fibers] == ["FIB-ON"] and isinstance(fibers[0], FiberCord)
    assert fibers[0].connector == "MPO-12/APC" and fibers[0].length_m == 30.0


def test_interconnect_catalog_of_the_seed_is_plain_floats():
    catalog_seed_load()
    optics, cables, fibers = interconnect_catalog()
    assert len(optics) >= 10 and len(cables) >= 30 and len(fibers) >= 40
    assert all(isinstance(x.price, float) for x in optics + cables + fibers)
