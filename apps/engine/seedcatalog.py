"""The seed catalog (apps/catalog/seed/*.yaml; columns as in apps.catalog.kinds) as engine dataclasses.

Read as files, not through the catalog app, so the engine stays plain Python. Used by the CLI
to resolve hardware given by SKU, and by plan() for interconnects when a spec carries none.

Mapping: a switch in breakout "NxSG" -> SwitchHw(ports = cages * N, gbps = S, cages, cage_gbps,
form_factor = cage_form_factor, breakout, fabric (default "ethernet"), ...);
a server -> ServerHw(nic_ports = backend_ports,
nic_gbps = backend_gbps, nics_built_in = backend_nics_built_in,
ports_per_cage = backend_ports_per_cage, scale_up_* from the scale_up columns); NIC -> NicHw (splits from its
breakouts, e.g. [1x800G, 2x400G] -> (1, 2)); transceiver -> Optic; cable -> CableAssembly; fibre ->
FiberCord; patch panel -> PatchPanelHw; price = list_price; name = "manufacturer model"; vendor = manufacturer (switches, optics,
cables and cords). Every transceiver, cable and fibre states `fabrics` (a list of "ethernet",
"infiniband"), and may list `compatible_vendors` (switch vendors it is declared compatible with).
A switch also carries `switch_class` (fabric / frontend / management, default fabric) and its uplink group
(uplink_cages, uplink_gbps, uplink_form_factor; uplinks = uplink_cages) and its packet buffer (buffer_mb, MiB);
power or buffer left out or null in the file is None (not published), never 0. Every item must name its `source` (data sheet or reference
architecture, title and URL): an item without one is refused (CatalogError names it).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .messages import MessageError, message
from .spec import CableAssembly, FiberCord, NicHw, Optic, PatchPanelHw, ServerHw, SpecError, SwitchHw

SEED_DIR = Path(__file__).resolve().parent.parent / "catalog" / "seed"
FILES = ("switches", "nics", "servers", "transceivers", "cables", "fibers", "patch_panels")
BREAKOUT = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*G?\s*$")


class CatalogError(ValueError):
    """A seed file that can't be read: names the file, the entry and the key."""


def parse_breakout(mode: str) -> tuple[int, int]:
    """ "2x400G" -> (2, 400)."""
    match = BREAKOUT.match(mode or "")
    if not match:
        raise ValueError(f"{mode!r} is not a breakout mode such as 2x400G")
    return int(match.group(1)), int(match.group(2))


@dataclass(frozen=True, slots=True)
class SwitchModel:
    """A seed switch before a breakout mode is chosen."""

    sku: str
    name: str
    cages: int
    cage_gbps: int
    form_factor: str
    breakouts: tuple[str, ...]
    rack_units: int
    power_typical_w: float | None  # None: not published
    power_max_w: float | None
    price: float
    fabric: str = "ethernet"
    vendor: str = ""
    switch_class: str = "fabric"
    uplink_cages: int = 0
    uplink_gbps: int = 0
    uplink_form_factor: str = ""
    buffer_mb: float | None = None  # None: not published

    def hw(self, breakout: str | None = None, *, gbps: int | None = None) -> SwitchHw:
        """The switch in `breakout`, or in the first mode whose port speed is `gbps`, or native."""
        if breakout is None:
            matching = [m for m in self.breakouts if gbps is not None and parse_breakout(m)[1] == gbps]
            breakout = matching[0] if matching else self.breakouts[0]
        if breakout not in self.breakouts:
            raise MessageError(message("catalog.breakout_not_offered", switch=self.name, modes=", ".join(self.breakouts),
                                       breakout=breakout))
        n, speed = parse_breakout(breakout)
        return SwitchHw(ports=self.cages * n, gbps=speed, cages=self.cages, cage_gbps=self.cage_gbps,
                        form_factor=self.form_factor, sku=self.sku, name=self.name, breakout=breakout,
                        rack_units=self.rack_units, power_typical_w=self.power_typical_w,
                        power_max_w=self.power_max_w, price=self.price, fabric=self.fabric,
                        vendor=self.vendor, switch_class=self.switch_class, uplinks=self.uplink_cages,
                        uplink_gbps=self.uplink_gbps, uplink_cages=self.uplink_cages,
                        uplink_form_factor=self.uplink_form_factor, buffer_mb=self.buffer_mb)


@dataclass(slots=True)
class SeedCatalog:
    switches: dict[str, SwitchModel] = field(default_factory=dict)
    nics: dict[str, NicHw] = field(default_factory=dict)
    servers: dict[str, ServerHw] = field(default_factory=dict)
    default_nic: dict[str, str] = field(default_factory=dict)  # server sku -> NIC sku
    optics: tuple[Optic, ...] = ()
    cables: tuple[CableAssembly, ...] = ()
    fibers: tuple[FiberCord, ...] = ()
    patch_panels: tuple[PatchPanelHw, ...] = ()

    def switch(self, sku: str, breakout: str | None = None, *, gbps: int | None = None,
               field_name: str = "leaf") -> SwitchHw:
        model = self.switches.get(sku)
        if model is None:
            raise SpecError({f"{field_name}.sku": [message("catalog.unknown_sku", kind="switch", sku=repr(sku))]})
        try:
            return model.hw(breakout, gbps=gbps)
        except MessageError as exc:
            raise SpecError({f"{field_name}.breakout": [exc.message]}) from None
        except ValueError as exc:
            raise SpecError({f"{field_name}.breakout": [str(exc)]}) from None

    def server(self, sku: str, field_name: str = "server") -> ServerHw:
        if sku not in self.servers:
            raise SpecError({f"{field_name}.sku": [message("catalog.unknown_sku", kind="server", sku=repr(sku))]})
        return self.servers[sku]

    def nic(self, sku: str, field_name: str = "nic") -> NicHw:
        if sku not in self.nics:
            raise SpecError({f"{field_name}.sku": [message("catalog.unknown_sku", kind="NIC", sku=repr(sku))]})
        return self.nics[sku]

    def interconnects(self) -> tuple[tuple[Optic, ...], tuple[CableAssembly, ...], tuple[FiberCord, ...]]:
        return self.optics, self.cables, self.fibers


def _name(row: dict) -> str:
    return f"{row.get('manufacturer', '')} {row.get('model', '')}".strip()


class _Reader:
    def __init__(self, path: Path, index: int, row: Any):
        if not isinstance(row, dict):
            raise CatalogError(f"{path.name}[{index}]: expected a mapping, got {type(row).__name__}")
        self.path, self.index, self.row = path, index, row

    def _where(self, key: str) -> str:
        return f"{self.path.name}[{self.index}] ({self.row.get('sku', '?')}).{key}"

    def text(self, key: str, default: str | None = None) -> str:
        value = self.row.get(key, default)
        if value is None or not isinstance(value, (str, int, float)):
            raise CatalogError(f"{self._where(key)}: missing")
        return str(value)

    def int(self, key: str, default: int | None = None) -> int:
        value = self.row.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or int(value) != value:
            raise CatalogError(f"{self._where(key)}: expected a whole number, got {value!r}")
        return int(value)

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.row.get(key, default)
        if not isinstance(value, bool):
            raise CatalogError(f"{self._where(key)}: expected true or false, got {value!r}")
        return value

    def names(self, key: str, *, required: bool) -> tuple[str, ...]:
        value = self.row.get(key)
        if value is None and not required:
            return ()
        if not isinstance(value, list) or (required and not value) or not all(
                isinstance(v, str) and v.strip() for v in value):
            raise CatalogError(f"{self._where(key)}: expected a list of names, got {value!r}")
        return tuple(v.strip() for v in value)

    def fabrics(self) -> tuple[str, ...]:
        values = self.names("fabrics", required=True)
        for value in values:
            if value not in ("ethernet", "infiniband"):
                raise CatalogError(f"{self._where('fabrics')}: {value!r} is not ethernet or infiniband")
        return values

    def watts(self, key: str) -> float | None:
        """A power figure; missing or null: not published (None)."""
        return None if self.row.get(key) is None else self.num(key)

    def num(self, key: str, default: float | None = None) -> float:
        value = self.row.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise CatalogError(f"{self._where(key)}: expected a number, got {value!r}")
        return float(value)


def _rows(path: Path) -> list:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise CatalogError(f"{path.name}: not valid YAML ({exc})") from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise CatalogError(f"{path.name}: expected a list of items")
    return data


def load(directory: Path | str | None = None) -> SeedCatalog:
    """Read the seed YAML files in `directory` (default apps/catalog/seed). Missing files are empty."""
    base = Path(directory) if directory is not None else SEED_DIR
    cat = SeedCatalog()
    optics, cables, fibers, panels = [], [], [], []
    for name in FILES:
        path = base / f"{name}.yaml"
        if not path.exists():
            continue
        for i, row in enumerate(_rows(path)):
            r = _Reader(path, i, row)
            sku = r.text("sku")
            if name == "switches":
                breakouts = row.get("breakouts") or []
                if not isinstance(breakouts, list) or not breakouts:
                    raise CatalogError(f"{path.name}[{i}] ({sku}).breakouts: expected a list such as [1x800G, 2x400G]")
                for mode in breakouts:
                    try:
                        parse_breakout(str(mode))
                    except ValueError as exc:
                        raise CatalogError(f"{path.name}[{i}] ({sku}).breakouts: {exc}") from None
                cat.switches[sku] = SwitchModel(
                    sku=sku, name=_name(row), cages=r.int("cages"), cage_gbps=r.int("cage_gbps"),
                    form_factor=r.text("cage_form_factor"), breakouts=tuple(str(m) for m in breakouts),
                    rack_units=r.int("rack_units", 1), power_typical_w=r.watts("power_typical_w"),
                    power_max_w=r.watts("power_max_w"), price=r.num("list_price", 0),
                    fabric=r.text("fabric", "ethernet"), vendor=str(row.get("manufacturer") or ""),
                    switch_class=r.text("switch_class", "fabric"), uplink_cages=r.int("uplink_cages", 0),
                    uplink_gbps=r.int("uplink_gbps", 0), uplink_form_factor=str(row.get("uplink_form_factor") or ""),
                    buffer_mb=r.watts("buffer_mb"))
            elif name == "nics":
                modes = row.get("breakouts") or []
                try:
                    splits = nic_splits([str(m) for m in modes], r.int("port_gbps"))
                except ValueError as exc:
                    raise CatalogError(f"{path.name}[{i}] ({sku}).breakouts: {exc}") from None
                cat.nics[sku] = NicHw(ports=r.int("ports"), gbps=r.int("port_gbps"), form_factor=r.text("form_factor"),
                                      sku=sku, name=_name(row), power_w=r.num("power_w", 0) if "power_w" not in row
                                      else r.watts("power_w"),
                                      price=r.num("list_price", 0), splits=splits,
                                      vendor=str(row.get("manufacturer") or ""))
            elif name == "servers":
                cat.servers[sku] = ServerHw(gpus=r.int("gpus"), nic_ports=r.int("backend_ports"),
                                            nic_gbps=r.int("backend_gbps"), sku=sku, name=_name(row),
                                            scale_up=str(row.get("scale_up") or ""), rack_units=r.int("rack_units", 1),
                                            power_w=r.num("power_w", 0), price=r.num("list_price", 0),
                                            nics_built_in=r.flag("backend_nics_built_in"),
                                            ports_per_cage=r.int("backend_ports_per_cage", 1),
                                            scale_up_kind=str(row.get("scale_up_kind") or ""),
                                            scale_up_gpus=r.int("scale_up_domain_gpus", 0),
                                            scale_up_gb_s=r.num("scale_up_gb_s_per_gpu", 0),
                                            scale_up_racks=r.int("scale_up_racks", 0),
                                            scale_up_switch_trays=r.int("scale_up_switch_trays", 0),
                                            scale_up_switch_tray_power_w=r.watts("scale_up_switch_tray_power_w"),
                                            scale_up_rack_power_w=r.watts("scale_up_rack_power_w"))
                if row.get("default_nic"):
                    cat.default_nic[sku] = str(row["default_nic"])
            elif name == "transceivers":
                optics.append(Optic(sku=sku, form_factor=r.text("form_factor"), gbps=r.int("gbps"),
                                    port_gbps=r.int("port_gbps"), ports=r.int("ports", 1), media=r.text("media"),
                                    fiber=r.text("fiber"), reach_m=r.num("reach_m"), name=_name(row),
                                    power_w=r.num("power_w", 0) if "power_w" not in row else r.watts("power_w"), price=r.num("list_price", 0),
                                    connector=str(row.get("connector") or ""), flat_top=r.flag("flat_top"),
                                    fabrics=r.fabrics(), vendor=str(row.get("manufacturer") or ""),
                                    compatible_vendors=r.names("compatible_vendors", required=False)))
            elif name == "cables":
                cables.append(CableAssembly(sku=sku, media=r.text("media"), form_factor_a=r.text("form_factor_a"),
                                            form_factor_b=r.text("form_factor_b"), gbps=r.int("gbps"),
                                            leg_gbps=r.int("leg_gbps"), legs=r.int("legs", 1),
                                            length_m=r.num("length_m"), name=_name(row),
                                            power_w=r.num("power_w", 0) if "power_w" not in row else r.watts("power_w"),
                                            price=r.num("list_price", 0), fabrics=r.fabrics(),
                                            vendor=str(row.get("manufacturer") or ""),
                                            compatible_vendors=r.names("compatible_vendors", required=False)))
            elif name == "patch_panels":
                panels.append(PatchPanelHw(sku=sku, ports=r.int("ports"), connector=r.text("connector"),
                                           fiber=r.text("fiber"), rack_units=r.int("rack_units", 1), name=_name(row),
                                           price=r.num("list_price", 0), vendor=str(row.get("manufacturer") or "")))
            else:
                fibers.append(FiberCord(sku=sku, fiber=r.text("fiber"), length_m=r.num("length_m"),
                                        connector=str(row.get("connector") or ""), name=_name(row),
                                        price=r.num("list_price", 0), fabrics=r.fabrics(),
                                        vendor=str(row.get("manufacturer") or "")))
            source = row.get("source")
            if not isinstance(source, str) or not source.strip():
                raise CatalogError(f"{path.name}[{i}] ({sku}).source: missing: name the data sheet or reference "
                                   "architecture the item's figures come from (title and URL)")
    cat.optics, cat.cables, cat.fibers = tuple(optics), tuple(cables), tuple(fibers)
    cat.patch_panels = tuple(panels)
    return cat


def nic_splits(modes: list[str], port_gbps: int) -> tuple[int, ...]:
    """The ways a NIC port splits, from its published breakout modes ("1x800G", "2x400G" -> (1, 2)).

    No modes: the port runs whole, (1,). A mode must divide the port's speed evenly; ValueError says why not.
    """
    splits = []
    for mode in modes:
        match = BREAKOUT.match(mode)
        if not match:
            raise ValueError(f"{mode!r} is not a mode such as 2x400G")
        n, speed = int(match.group(1)), int(match.group(2))
        if n * speed != port_gbps:
            raise ValueError(f"{mode} doesn't make a {port_gbps}G port")
        if n not in (1, 2, 4):
            raise ValueError(f"{mode}: a port splits in 1, 2 or 4")
        splits.append(n)
    return tuple(sorted(set(splits) | {1}))


@lru_cache(maxsize=4)
def _cached(directory: str) -> SeedCatalog:
    return load(directory)


def seed_catalog(directory: Path | str | None = None) -> SeedCatalog:
    """The seed catalog, read once per process (the files don't change while it runs)."""
    return _cached(str(Path(directory) if directory is not None else SEED_DIR))
