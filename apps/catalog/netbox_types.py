"""NetBox interface type slugs as the catalog reads them: a speed, a cage form factor and a fabric.

Rules:
- the official NetBox slugs ("800gbase-x-osfp", "25gbase-x-sfp28", "1000base-t", "infiniband-ndr", ...)
  and spellings met in older library files ("800gbase-osfp800", "25gbase-sfp28") both work: the speed
  comes from the leading "<n>[g|t]base", the cage from the first form-factor token of the rest
  (longest tokens first, so "qsfpdd" wins over "qsfp", "osfp-rhs" over "osfp", "sfpdd" over "sfp");
- copper "-t" ports (1000base-t, 10gbase-t) sit in RJ45 jacks; a bare "qsfp" is the QSFP of its speed;
- cages the catalog does not stock (CFP, CFP2, CFP4, CFP8, CXP, CPAK, CDFP, XFP, XENPAK, X2, GBIC) are
  named, so the error says which cage it is;
- non-physical types (virtual, lag, bridge), wireless, cellular, PON, WAN circuits, stacking links and
  Fibre Channel are not Ethernet data ports; backplane types (-kr, -kx, -kp) are not front-panel ports;
- InfiniBand slugs give the IB port speed; NDR and XDR switches carry two ports per OSFP cage
  (Quantum-2, Quantum-X800), HDR one per QSFP56 cage, EDR one per QSFP28 cage; SDR..FDR have no cage
  the catalog stocks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ETHERNET = "ethernet"
INFINIBAND = "infiniband"

# What an interface is, for counting: a data port, or a reason it is not one.
DATA = "data"
NOT_A_PORT = "not-a-port"  # virtual, lag, bridge: no connector at all
OTHER_MEDIUM = "other-medium"  # wireless, cellular, PON, WAN circuits, Fibre Channel
STACKING = "stacking"
BACKPLANE = "backplane"


@dataclass(frozen=True)
class PortType:
    use: str  # DATA or one of the reasons above
    gbps: float = 0
    form_factor: str = ""  # the catalog's FormFactor value; "" when unsupported_cage names it
    fabric: str = ETHERNET
    ports_per_cage: int = 1
    unsupported_cage: str = ""  # "CFP2", "CXP"...: a cage the catalog does not stock


NOT_PORTS = {"virtual", "bridge", "lag"}
OTHER_MEDIUM_PREFIXES = ("ieee802.", "other-wireless", "gsm", "cdma", "lte", "4g", "5g", "t1", "e1", "t3", "e3",
                         "xdsl", "docsis", "bpon", "epon", "gpon", "xg-pon", "xgs-pon", "ng-pon", "10g-epon",
                         "25g-pon", "50g-pon", "sonet-", "moca", "bluetooth", "coaxial")
FIBRE_CHANNEL = re.compile(r"^\d+gfc")
STACKING_PREFIXES = ("cisco-stackwise", "cisco-flexstack", "juniper-vcp", "extreme-summitstack")
BACKPLANE_RE = re.compile(r"^[\d.]+[gm]?base-k[a-z0-9]+$")

# port Gb/s, cage, ports per cage (a cage-less generation has cage "")
INFINIBAND_TYPES: dict[str, tuple[float, str, int]] = {
    "infiniband-sdr": (10, "", 1), "infiniband-ddr": (20, "", 1), "infiniband-qdr": (40, "", 1),
    "infiniband-fdr10": (40, "", 1), "infiniband-fdr": (56, "", 1), "infiniband-edr": (100, "QSFP28", 1),
    "infiniband-hdr": (200, "QSFP56", 1), "infiniband-ndr": (400, "OSFP", 2), "infiniband-xdr": (800, "OSFP", 2),
}
INFINIBAND_TYPE_BY_GBPS = {gbps: slug for slug, (gbps, _ff, _n) in INFINIBAND_TYPES.items() if gbps >= 100}

SPEED_RE = re.compile(r"^(?P<num>\d+(?:\.\d+)?)(?P<unit>[gtm]?)base", re.IGNORECASE)
# Longest first: the first token found in the slug's tail names the cage.
CAGE_TOKENS: tuple[tuple[str, str], ...] = (
    ("osfp-rhs", "OSFP-RHS"), ("osfprhs", "OSFP-RHS"), ("qsfp-dd", "QSFP-DD"), ("qsfpdd", "QSFP-DD"),
    ("qsfp112", "QSFP112"), ("qsfp56", "QSFP56"), ("qsfp28", "QSFP28"), ("qsfpp", "QSFP+"), ("qsfp+", "QSFP+"),
    ("sfp-dd", "SFP-DD"), ("sfpdd", "SFP-DD"), ("dsfp", "DSFP"), ("sfp56", "SFP56"), ("sfp28", "SFP28"),
    ("sfpp", "SFP+"), ("sfp+", "SFP+"), ("osfp", "OSFP"), ("qsfp", "QSFP"), ("sfp", "SFP"),
)
UNSUPPORTED_CAGES: tuple[tuple[str, str], ...] = (
    ("cfp8", "CFP8"), ("cfp4", "CFP4"), ("cfp2", "CFP2"), ("cdfp", "CDFP"), ("cfp", "CFP"), ("cxp", "CXP"),
    ("cpak", "CPAK"), ("xenpak", "XENPAK"), ("xfp", "XFP"), ("gbic", "GBIC"), ("-x2", "X2"), ("cx4", "CX4"),
)
BARE_QSFP = {40: "QSFP+", 100: "QSFP28", 200: "QSFP56", 400: "QSFP112"}

# Export: NetBox's own slug for each (Gb/s, cage); import reads these back to the same pair.
NETBOX_SLUG: dict[tuple[int, str], str] = {
    (1, "RJ45"): "1000base-t", (10, "RJ45"): "10gbase-t", (1, "SFP"): "1000base-x-sfp",
    (10, "SFP+"): "10gbase-x-sfpp", (25, "SFP28"): "25gbase-x-sfp28", (50, "SFP56"): "50gbase-x-sfp56",
    (50, "SFP28"): "50gbase-x-sfp28", (40, "QSFP+"): "40gbase-x-qsfpp", (100, "DSFP"): "100gbase-x-dsfp",
    (100, "SFP-DD"): "100gbase-x-sfpdd", (100, "QSFP28"): "100gbase-x-qsfp28", (100, "QSFP-DD"): "100gbase-x-qsfpdd",
    (200, "QSFP56"): "200gbase-x-qsfp56", (200, "QSFP-DD"): "200gbase-x-qsfpdd",
    (400, "QSFP112"): "400gbase-x-qsfp112", (400, "QSFP-DD"): "400gbase-x-qsfpdd", (400, "OSFP"): "400gbase-x-osfp",
    (400, "OSFP-RHS"): "400gbase-x-osfp-rhs", (800, "QSFP-DD"): "800gbase-x-qsfpdd", (800, "OSFP"): "800gbase-x-osfp",
}


def port_type(slug: str) -> PortType | None:
    """How the catalog reads a NetBox interface type; None when the slug means nothing to it."""
    text = slug.strip().lower()
    if text in INFINIBAND_TYPES:
        gbps, cage, per_cage = INFINIBAND_TYPES[text]
        generation = "" if cage else text.removeprefix("infiniband-").upper()  # SDR..FDR: no cage the catalog stocks
        return PortType(DATA, gbps, cage, INFINIBAND, per_cage, generation)
    if text.startswith("infiniband-"):
        return None
    if text in NOT_PORTS:
        return PortType(NOT_A_PORT)
    if text.startswith(OTHER_MEDIUM_PREFIXES) or FIBRE_CHANNEL.match(text):
        return PortType(OTHER_MEDIUM)
    if text.startswith(STACKING_PREFIXES):
        return PortType(STACKING)
    if BACKPLANE_RE.match(text):
        return PortType(BACKPLANE)
    match = SPEED_RE.match(text)
    if not match:
        return None
    number = float(match["num"])
    gbps = {"g": number, "t": number * 1000, "m": number / 1000, "": number / 1000}[match["unit"]]
    rest = text[match.end():]
    for token, name in UNSUPPORTED_CAGES:
        if token in rest:
            return PortType(DATA, gbps, "", ETHERNET, 1, name)
    cage = next((name for token, name in CAGE_TOKENS if token in rest), "")
    if cage == "QSFP":
        cage = BARE_QSFP.get(int(gbps), "")
    if not cage and (rest.endswith("-t") or rest in ("-tx", "-t1")):
        cage = "RJ45"
    if not cage and rest in ("-fx", "-lfx"):  # 100BASE-FX: fibre on the board, no pluggable cage
        return PortType(DATA, gbps, "", ETHERNET, 1, text.upper())
    if not cage:
        return None
    return PortType(DATA, gbps, cage)


def netbox_slug(gbps: int, form_factor: str) -> str:
    """NetBox's interface type for a cage of `gbps` in `form_factor` ("other" when NetBox has none)."""
    return NETBOX_SLUG.get((gbps, form_factor), "other")
