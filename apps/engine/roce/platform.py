"""SONiC platform facts of a switch model: what a config_db needs to load on a freshly installed switch.

The facts are SONiC's own, read from sonic-buildimage's device/<vendor>/<platform>/ folders by
scripts/sonic_platforms.py into platforms/<platform>.json (each file names its source commit):
- platform.json: every front-panel port (cage) with its name (Ethernet<first lane offset>), lanes,
  index and, per breakout mode, the aliases of its sub-ports. The mode names are the platform's own
  (SN5600 "2x400G[200G,100G,50G,40G,25G,10G]", Dell Z9864F "2x400G(8)", Arista 7060X6 "2x400G"):
  `config interface breakout` and BREAKOUT_CFG take exactly these.
- default_sku and every HWSKU's port_config.ini / hwsku.json: ports, speed, default breakout mode, FEC.

Rules:
- A catalog switch model has platform data when a platform file lists its SKU (catalog_skus).
- The design's breakout "NxSG" is the platform's mode whose name starts with "NxSG" (the bracketed
  speed list and a "(lanes)" suffix are the platform's decoration); where several do, the one whose
  "(lanes)" is the cage's own lane count (or that has none).
- Sub-ports of a cage split its lanes evenly in order; sub-port k is named Ethernet<first lane offset
  + k x lanes per sub-port> (SONiC's dynamic port breakout naming), with the mode's k-th alias.
- DEVICE_METADATA.hwsku: the HWSKU whose ports all run the design's breakout at its speed (e.g.
  Mellanox-SN5600-O128 for 2x400G); none such: the platform's default_sku, which the BREAKOUT_CFG
  rows then re-split.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PLATFORM_DIR = Path(__file__).resolve().parent / "platforms"
MODE = re.compile(r"^(\d+)x(\d+)G(?:\((\d+)\))?(?:\[[^\]]*\])?$")


@dataclass(frozen=True, slots=True)
class SubPort:
    name: str
    lanes: tuple[int, ...]
    alias: str
    index: int  # the cage's front-panel index (1-based), shared by its sub-ports


@dataclass(frozen=True, slots=True)
class CagePort:
    name: str  # the parent port: Ethernet<offset of its first lane>
    lanes: tuple[int, ...]
    index: int
    modes: dict  # platform mode name -> aliases of its sub-ports

    @property
    def offset(self) -> int:
        return int(self.name[len("Ethernet"):])


@dataclass(frozen=True, slots=True)
class SonicPlatform:
    platform: str
    source: str
    commit: str
    default_hwsku: str
    hwskus: dict  # name -> {"ports", "gbps", "default_breakout_mode", "fec"}
    cages: tuple[CagePort, ...]

    def mode_name(self, breakout: str) -> str | None:
        """The platform's name of the design's breakout ("2x400G" -> "2x400G(8)"), None if it has none."""
        want = MODE.match(breakout or "")
        if not want or not self.cages:
            return None
        lanes = len(self.cages[0].lanes)
        found = []
        for name in self.cages[0].modes:
            m = MODE.match(name)
            if m and m.group(1) == want.group(1) and m.group(2) == want.group(2):
                found.append((m.group(3) not in (None, str(lanes)), name))
        return min(found)[1] if found else None

    def hwsku(self, breakout: str) -> str:
        want = MODE.match(breakout or "")
        if want:
            n, gbps = int(want.group(1)), int(want.group(2))
            for name, sku in sorted(self.hwskus.items()):
                if sku["ports"] == n * len(self.cages) and sku["gbps"] == [gbps]:
                    return name
        return self.default_hwsku

    def sub_ports(self, cage: int, breakout: str) -> tuple[SubPort, ...]:
        port = self.cages[cage]
        mode = self.mode_name(breakout)
        aliases = port.modes.get(mode) if mode else None
        n = int(MODE.match(breakout).group(1)) if MODE.match(breakout or "") else 1
        aliases = aliases or [f"{port.name}/{k + 1}" for k in range(n)]
        step = len(port.lanes) // n
        return tuple(SubPort(name=f"Ethernet{port.offset + k * step}", lanes=port.lanes[k * step:(k + 1) * step],
                             alias=aliases[k], index=port.index) for k in range(n))


@lru_cache(maxsize=1)
def _by_sku() -> dict[str, SonicPlatform]:
    out = {}
    for path in sorted(PLATFORM_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        cages = tuple(CagePort(name=p["name"], lanes=tuple(p["lanes"]), index=p["index"],
                               modes=p.get("breakout_modes") or data.get("breakout_modes") or {})
                      for p in data["ports"])
        platform = SonicPlatform(platform=data["platform"], source=data["source"], commit=data["commit"],
                                 default_hwsku=data["default_hwsku"], hwskus=data["hwskus"], cages=cages)
        for sku in data["catalog_skus"]:
            out[sku] = platform
    return out


def sonic_platform(hw) -> SonicPlatform | None:
    """The platform facts of a switch model (SwitchHw), None when the catalog has none for its SKU or the
    platform has fewer cages than the model."""
    platform = _by_sku().get(getattr(hw, "sku", "") or "")
    if platform is None or len(platform.cages) < hw.physical_cages:
        return None
    return platform
