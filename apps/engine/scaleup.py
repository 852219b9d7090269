"""Scale-up domains: the GPUs that talk over NVLink / Infinity Fabric instead of the backend fabric.

Rules:
- In-server domains (HGX / DGX 8-GPU NVLink + NVSwitch; AMD 8-GPU Infinity Fabric): one domain per
  server, its GPUs the server's; nothing of the domain is on the network or in the network's BOM
  (the NVSwitch chips sit on the baseboard, inside the server's price and power).
- Rack-scale domains (GB200 NVL72, GB300 NVL72; NVL36x2 across two racks): the engine's "server" is a
  compute tray (4 GPUs, 4 backend NIC ports, one per GPU: GPU i of a tray is rail i), and
  `scale_up_gpus / gpus` trays share one domain. Published: "Each DGX GB200 rack is built with 18
  compute trays and 9 NVLink switch trays ... Each B200 GPU features 18 NVL5 links ... delivering a
  total bandwidth of 1.8 TB/s" (NVIDIA DGX SuperPOD GB200 RA, Network Fabrics); "each compute tray
  includes ... 4 ConnectX-8" and "9 NVSwitch trays ... of all 72 Blackwell Ultra GPUs ... 130 TB/s"
  (NVIDIA Enterprise RA, NVL72 AI Factory, components). A design asks for whole domains (the rack
  is what is sold); a domain's trays fill `scale_up_racks` racks, trays_per_rack = trays / racks, and
  never share a rack with another domain.
- Rails and scale units (engine.topology): as in NVIDIA's GB200 / GB300 SuperPOD reference
  architectures, a rack-scale system joins the backend fabric by GPU: GPU i of every compute tray
  is rail i (each GPU has its own NIC), and scale units are built of whole racks ("each SU contains
  8 DGX GB200 systems", 576 GPUs, GB200 RA abstract). No domain straddles two scale units. The leaves
  are either one per rail of an SU of whole racks, or shared by tray slot, leaf t taking tray t of each of
  the SU's K racks (the cross-rack rail), whichever needs fewer switches (engine.topology); a leaf cables
  only the uplinks its downlinks carry at the stated oversubscription.
  Worked example (tests/engine/test_scaleup.py): 576 GPUs of GB200 NVL72 (the RA's one SU) = 8 racks =
  8 domains of 72 GPUs = 144 compute trays, 72 NVLink switch trays, 576 server-leaf links (one 400G NIC
  port per GPU) on 4 rails; on QM9700 18 shared leaves of 32 down / 32 up and 16 spines, 576 leaf-spine
  links (34 switches; a leaf per rail of each rack: 32 leaves and 9 spines, 41).
- Counting, without double counting: NVLink switch trays, the NVLink copper spine and the power
  shelves are part of the rack-scale system (its published rack power, e.g. "Full rack requiring
  up to 142 kW" for GB300 NVL72, covers them): the domain summary counts the switch trays, the rack
  figures count the domain's racks and their height (trays and 1U switch trays: 18 + 9 = 27U per NVL72
  rack of 1U trays, checked against the layout's rack height), and neither the network BOM nor the
  network power adds them.
- Traffic (engine.traffic.patterns): flows between GPUs of one domain cross NVLink, never the
  backend fabric.

`scale_up_domain(spec)` is the one place other models read a design's domain size and bandwidth.
"""
from __future__ import annotations

from dataclasses import dataclass

from .spec import DesignSpec

IN_SERVER, RACK_SCALE = "in-server", "rack-scale"
# "9x 1RU NVLink switch trays" (NVIDIA DGX GB200 User Guide, Rack Configuration); NVL36x2: "9x 1RU NVL36 NVLink
# Switch trays" per rack (NVIDIA Multi-Node NVLink tuning guide).
NVLINK_SWITCH_TRAY_RU = 1


@dataclass(frozen=True, slots=True)
class ScaleUpDomain:
    """One scale-up domain of a design's servers."""

    kind: str  # IN_SERVER or RACK_SCALE
    interconnect: str  # e.g. "NVLink 5", "" when not stated
    gpus: int  # GPUs per domain
    gb_s_per_gpu: float  # scale-up bandwidth per GPU, GB/s both directions; 0 = not published
    servers: int  # servers (compute trays) per domain
    racks: int  # racks one domain fills; 0 for an in-server domain (a part of one rack)
    switch_trays: int  # NVLink switch trays per domain (rack-scale only)

    @property
    def servers_per_rack(self) -> int:
        return self.servers // self.racks if self.racks else 0


@dataclass(frozen=True, slots=True)
class ScaleUpSummary:
    """A design's domains: how many, what each is, and what they need in racks and switch trays."""

    domain: ScaleUpDomain
    domains: int
    gpus: int  # all domains
    racks: int  # racks the rack-scale domains fill (0 for in-server domains)
    switch_trays: int  # all domains
    rack_units_per_rack: int = 0  # compute trays + NVLink switch trays in one rack of a rack-scale domain

    def to_dict(self) -> dict:
        d = self.domain
        return {
            "kind": d.kind, "interconnect": d.interconnect, "domains": self.domains, "gpus_per_domain": d.gpus,
            "gb_s_per_gpu": d.gb_s_per_gpu or None, "servers_per_domain": d.servers, "racks_per_domain": d.racks,
            "racks": self.racks, "switch_trays_per_domain": d.switch_trays, "switch_trays": self.switch_trays,
            "gpus": self.gpus, "rack_units_per_rack": self.rack_units_per_rack,
        }


def scale_up_domain(spec: DesignSpec) -> ScaleUpDomain:
    """The design's scale-up domain: size in GPUs and bandwidth per GPU (for the performance model too)."""
    server = spec.server
    per_domain = spec.servers_per_domain
    if per_domain > 1:
        return ScaleUpDomain(RACK_SCALE, server.scale_up, server.scale_up_gpus, float(server.scale_up_gb_s),
                             per_domain, max(1, server.scale_up_racks), server.scale_up_switch_trays)
    gpus = server.scale_up_gpus if 0 < server.scale_up_gpus <= server.gpus else server.gpus
    return ScaleUpDomain(IN_SERVER, server.scale_up, gpus, float(server.scale_up_gb_s), 1, 0, 0)


def scale_up_summary(spec: DesignSpec, servers: int) -> ScaleUpSummary:
    """The domains of `servers` servers of the spec's model (whole domains; a partial one counts as one)."""
    domain = scale_up_domain(spec)
    domains = -(-servers // domain.servers) if servers else 0
    if domain.kind == IN_SERVER and domain.gpus < spec.server.gpus:
        domains = servers * (spec.server.gpus // max(1, domain.gpus))
    return ScaleUpSummary(domain=domain, domains=domains, gpus=servers * spec.server.gpus,
                          racks=domains * domain.racks, switch_trays=domains * domain.switch_trays,
                          rack_units_per_rack=domain_rack_units(spec))


def domain_rack_units(spec: DesignSpec) -> int:
    """Rack units one rack of a rack-scale domain holds: its compute trays and its share of the NVLink switch
    trays (0 for an in-server domain). Power shelves are not counted: NVIDIA publishes no height for them."""
    domain = scale_up_domain(spec)
    if domain.kind != RACK_SCALE:
        return 0
    racks = max(1, domain.racks)
    return (domain.servers_per_rack * max(1, spec.server.rack_units)
            + -(-domain.switch_trays // racks) * NVLINK_SWITCH_TRAY_RU)


def domain_servers(spec: DesignSpec) -> int:
    """Servers per domain as the traffic model and the placement use it (1 for in-server domains)."""
    return spec.servers_per_domain
