"""Catalog factories: plausible parts, each valid under its model's clean() rules."""
from decimal import Decimal

import factory

from apps.catalog.models import Cable, FiberCord, Manufacturer, NicModel, ServerModel, SwitchModel, Transceiver


class ManufacturerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Manufacturer
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Vendor {n}")
    slug = factory.LazyAttribute(lambda m: m.name.lower().replace(" ", "-"))


class CatalogItemFactory(factory.django.DjangoModelFactory):
    manufacturer = factory.SubFactory(ManufacturerFactory)
    list_price = Decimal("1000.00")
    price_is_example = True


class SwitchModelFactory(CatalogItemFactory):
    class Meta:
        model = SwitchModel

    sku = factory.Sequence(lambda n: f"SW-{n:04d}")
    model = factory.Sequence(lambda n: f"Switch {n}")
    asic = "Spectrum-4"
    asic_tbps = Decimal("51.2")
    cages = 64
    cage_form_factor = "OSFP"
    cage_gbps = 800
    breakouts = factory.LazyFunction(lambda: ["1x800G", "2x400G", "4x200G"])
    rack_units = 2
    power_typical_w = 1200.0
    power_max_w = 2300.0


class NicModelFactory(CatalogItemFactory):
    class Meta:
        model = NicModel

    sku = factory.Sequence(lambda n: f"NIC-{n:04d}")
    model = factory.Sequence(lambda n: f"NIC {n}")
    ports = 1
    port_gbps = 400
    form_factor = "OSFP"
    host_interface = "PCIe Gen5 x16"
    power_w = 25.0


class ServerModelFactory(CatalogItemFactory):
    class Meta:
        model = ServerModel

    sku = factory.Sequence(lambda n: f"SRV-{n:04d}")
    model = factory.Sequence(lambda n: f"Server {n}")
    gpus = 8
    gpu_model = "H100 SXM5 80GB"
    scale_up = "NVLink 4"
    scale_up_domain_gpus = 8
    backend_ports = 8
    backend_gbps = 400
    default_nic = factory.SubFactory(NicModelFactory)
    frontend_ports = 2
    frontend_gbps = 400
    rack_units = 8
    power_w = 10200.0


class TransceiverFactory(CatalogItemFactory):
    class Meta:
        model = Transceiver

    sku = factory.Sequence(lambda n: f"OPT-{n:04d}")
    model = "OSFP 2x400G SR8"
    form_factor = "OSFP"
    gbps = 800
    port_gbps = 400
    ports = 2
    media = "SR"
    fiber = "MMF"
    connector = "2x MPO-12/APC"
    reach_m = 50.0
    power_w = 15.0
    fabrics = factory.LazyFunction(lambda: ["ethernet", "infiniband"])


class CableFactory(CatalogItemFactory):
    class Meta:
        model = Cable

    sku = factory.Sequence(lambda n: f"CAB-{n:04d}")
    model = "OSFP 800G DAC"
    media = "DAC"
    form_factor_a = "OSFP"
    form_factor_b = "OSFP"
    gbps = 800
    leg_gbps = 800
    legs = 1
    length_m = 2.0
    power_w = 0.0
    fabrics = factory.LazyFunction(lambda: ["ethernet", "infiniband"])


class FiberCordFactory(CatalogItemFactory):
    class Meta:
        model = FiberCord

    sku = factory.Sequence(lambda n: f"FIB-{n:04d}")
    model = "OM4 MPO-12/APC"
    fiber = "MMF"
    connector = "MPO-12/APC"
    length_m = 10.0
    fabrics = factory.LazyFunction(lambda: ["ethernet", "infiniband"])
