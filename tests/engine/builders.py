"""Specs for engine tests: inline hardware and a small inline interconnect catalog.

Tests that check cabling and prices use this catalog, not the seed files, so a change of seed
prices can't move their expectations.
"""
from __future__ import annotations

from dataclasses import replace

from apps.engine.spec import (AddressPools, CableAssembly, DesignSpec, FiberCord, NicHw, Optic, RackLayout, ServerHw,
                              SwitchHw)


def server(gpus: int = 8, ports: int = 8, gbps: int = 400) -> ServerHw:
    return ServerHw(gpus=gpus, nic_ports=ports, nic_gbps=gbps, sku="SRV-8GPU", name="8-GPU server")


def dgx(gpus: int = 8, ports: int = 8, gbps: int = 400) -> ServerHw:
    """A DGX H100-like server: NICs built in (its price includes them), two backend ports per OSFP cage."""
    return ServerHw(gpus=gpus, nic_ports=ports, nic_gbps=gbps, sku="DGX-8GPU", name="DGX 8-GPU", power_w=10_200,
                    price=395_000, nics_built_in=True, ports_per_cage=2)


def switch(ports: int = 64, gbps: int = 400, *, twin: bool = False, sku: str = "", price: float = 20_000.0,
           rack_units: int = 2) -> SwitchHw:
    """A switch of `ports` logical ports; twin=True puts two of them on each 800G OSFP cage (2x400G)."""
    if twin:
        return SwitchHw(ports=ports, gbps=gbps, cages=ports // 2, cage_gbps=2 * gbps, form_factor="OSFP",
                        sku=sku or f"SW-{ports // 2}x{2 * gbps}G", breakout=f"2x{gbps}G", rack_units=rack_units,
                        power_typical_w=1000, power_max_w=1800, price=price)
    return SwitchHw(ports=ports, gbps=gbps, form_factor="OSFP", sku=sku or f"SW-{ports}x{gbps}G",
                    rack_units=rack_units, power_typical_w=600, power_max_w=1200, price=price)


NIC = NicHw(ports=1, gbps=400, form_factor="OSFP", sku="NIC-CX7", name="400G NIC", power_w=25, price=2_000)

OPTICS = (
    Optic("SR-400", "OSFP", 400, 400, 1, "SR", "MMF", 50, power_w=8, price=500, connector="MPO-12/APC"),
    Optic("DR-400", "OSFP", 400, 400, 1, "DR", "SMF", 500, power_w=9, price=900, connector="MPO-12/APC"),
    Optic("SR-2x400", "OSFP", 800, 400, 2, "SR", "MMF", 50, power_w=15, price=1_000, connector="2x MPO-12/APC"),
    Optic("DR-2x400", "OSFP", 800, 400, 2, "DR", "SMF", 500, power_w=17, price=1_600, connector="2x MPO-12/APC"),
    # Flat-top twin-port modules for a server's twin-port cages (DGX); never chosen for a switch cage.
    Optic("SR-2x400-FLT", "OSFP", 800, 400, 2, "SR", "MMF", 50, power_w=15, price=1_100, connector="2x MPO-12/APC",
          flat_top=True),
    Optic("DR-2x400-FLT", "OSFP", 800, 400, 2, "DR", "SMF", 100, power_w=17, price=1_700,
          connector="2x MPO-12/APC", flat_top=True),
)
CABLES = tuple(
    [CableAssembly(f"DAC-400-{m}M", "DAC", "OSFP", "OSFP", 400, 400, 1, m, price=80 + 10 * m) for m in (1, 2, 3)]
    + [CableAssembly(f"DAC-800-{m}M", "DAC", "OSFP", "OSFP", 800, 800, 1, m, price=150 + 10 * m) for m in (1, 2)]
    + [CableAssembly(f"SPLIT-{m}M", "DAC", "OSFP", "OSFP", 800, 400, 2, m, price=200 + 10 * m) for m in (1, 2, 3)]
    + [CableAssembly(f"AOC-800-{m}M", "AOC", "OSFP", "OSFP", 800, 800, 1, m, power_w=25, price=1_500 + m)
       for m in (10, 30)]
)
FIBER_LENGTHS = (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500)
FIBERS = tuple(
    [FiberCord(f"MMF-{m}M", "MMF", m, "MPO-12/APC", price=40 + m * 0.5) for m in FIBER_LENGTHS if m <= 100]
    + [FiberCord(f"SMF-{m}M", "SMF", m, "MPO-12/APC", price=50 + m * 0.3) for m in FIBER_LENGTHS]
)


def spec(gpus: int = 5_000, *, leaf: SwitchHw | None = None, catalog: bool = True, **kwargs) -> DesignSpec:
    """A DesignSpec with 8-GPU 8x400G servers, 64x400G switches and the inline catalog by default."""
    values = dict(gpus=gpus, server=server(), leaf=leaf or switch(), nic=NIC)
    if catalog:
        values.update(optics=OPTICS, cables=CABLES, fibers=FIBERS)
    values.update(kwargs)
    return DesignSpec(**values)


__all__ = ["AddressPools", "CABLES", "FIBERS", "NIC", "OPTICS", "RackLayout", "dgx", "replace", "server", "spec",
           "switch"]
