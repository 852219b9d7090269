"""What a rack holds: its height and power budget against the devices of the design.

Rules:
- Every rack is `layout.rack_units` high. With an out-of-band network its top holds the management
  switch (`oob.leaf`), in every rack; the rest is filled from U1 up.
- Power is counted per device against the budget's basis (`layout.rack_power_basis`): a switch's
  typical or maximum draw (the other figure when one is not published), a server's `power_w` for
  both (catalogs publish one figure), a storage node's nothing (none is published). A rack-scale
  system's rack draws its published `scale_up_rack_power_w` (GB300 NVL72: "Full rack requiring up to 142 kW",
  NVIDIA Enterprise RA, NVL72 AI Factory), else its trays' power; it needs the cooling its model
  states ("liquid" for NVL72).
- Servers per rack: `layout.servers_per_rack`, or (0) as many as height and budget allow, never more
  than a scale unit; a fixed count that does not fit is lowered to what fits and the plan says so
  (warning.rack_servers_height / warning.rack_servers_power): racks never overflow, silently or not.
  With `leaf_rack` = "server" each server rack also holds its share of the SU's leaves
  (ceil(leaves / server racks)), which the count leaves room for. A power figure the vendor does not
  publish (None) counts 0 W.
- Leaf racks ("middle" / "end") and spine / core racks hold as many switches as height and budget
  allow (spine / core at most `layout.switches_per_rack`); an SU's leaves take as many leaf racks as
  they need.
- Bad input is refused by field (`check_rack_rules`, called by engine.plan and engine.specio right after
  DesignSpec.validate): a rack lower than a device
  (layout.rack_units), a budget that cannot hold one server, one switch or a rack-scale system's rack
  (layout.rack_power_kw), a rack-scale system on the wrong cooling (layout.cooling).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..messages import Message, message
from ..spec import DesignSpec, InfeasibleSpec, SwitchHw


def draw(typical: float, maximum: float, basis: str) -> float:
    """A device's draw on the budget's basis; the other figure when this one is not published (0)."""
    if basis == "maximum":
        return float(maximum or typical or 0.0)
    return float(typical or maximum or 0.0)


def switch_draw(hw: SwitchHw, basis: str) -> float:
    return draw(hw.power_typical_w, hw.power_max_w, basis)


def height(hw) -> int:
    return max(1, int(hw.rack_units))


@dataclass(slots=True)
class RackFill:
    """How the racks of a design are filled (derived from the layout and the hardware)."""

    units: int
    budget_w: float  # 0 = no budget
    basis: str
    top_u: int  # units reserved at the top of every rack (the management switch), 0 without OOB
    top_w: float
    server_u: int
    server_w: float  # one server's draw on the basis (a rack-scale tray: its share of the rack's power)
    servers_per_rack: int
    leaves_in_server_rack: int = 0  # leaf_rack "server": leaves per server rack (at most)
    leaves_per_leaf_rack: int = 0  # leaf_rack "middle" / "end"
    switches_per_rack: dict[str, int] = field(default_factory=dict)  # spine, core (and the other networks')
    notes: list[Message] = field(default_factory=list)
    rack_scale_switch_trays: int = 0  # NVLink switch trays per compute rack (rack-scale systems)
    # A rack-scale rack from the bottom up (rack_scale_stack): power shelves, the compute trays below the NVLink
    # switch trays, the switch trays, the trays above, power shelves.
    shelves_below: int = 0
    trays_below: int = 0
    shelves_above: int = 0

    @property
    def stack_u(self) -> int:
        """Units of a compute rack's own stack (servers, NVLink switch trays, power shelves)."""
        return (self.shelves_below + self.servers_per_rack * self.server_u + self.rack_scale_switch_trays
                + self.shelves_above)

    def server_unit(self, in_rack):
        """Lowest unit of the in_rack-th server (tray) of a compute rack, counted from 0 (array or int)."""
        below = self.trays_below if self.rack_scale_switch_trays else self.servers_per_rack
        above = (in_rack >= below) * self.rack_scale_switch_trays
        return self.shelves_below + in_rack * self.server_u + above + 1

    def fits(self, units: int, watts: float) -> bool:
        return units + self.top_u <= self.units and (not self.budget_w or watts + self.top_w <= self.budget_w + 1e-6)

    def per_rack(self, unit_u: int, unit_w: float, cap: int) -> int:
        """How many devices of unit_u U and unit_w W a rack holds beside the top reserve, at most cap."""
        n = (self.units - self.top_u) // max(1, unit_u)
        if self.budget_w and unit_w > 0:
            n = min(n, int((self.budget_w - self.top_w + 1e-6) // unit_w))
        return max(0, min(n, cap))


STRUCTURED_U = 2  # a 1U patch panel and a 1U cable manager per rack (engine.hall.structured)


# A rack-scale rack as NVIDIA builds it. GB200 NVL72: "ten compute nodes in the top stack", "below these compute
# nodes are the nine NVSwitch shelves", "on the bottom, we have eight more compute nodes" (ServeTheHome, NVIDIA DGX
# GB200 NVL72 at GTC 2024), "2x TOR Switches for management" and "Power shelves for supplying power to all trays and
# switches" (NVIDIA DGX GB200 User Guide, Hardware); "The reference design for an NVIDIA GB200 rack has 8 power
# shelves ... Each power shelf takes up one rack unit" (NVIDIA Mission Control / Base Command Manager manual, Power
# Shelf Integration). NVIDIA does not say where the shelves stand: half below the trays, half above them here.
# Other rack-scale racks (NVL36x2: "9x 2RU Compute trays", "9x 1RU NVL36 NVLink Switch trays", tuning guide) keep the
# same 10:8 split of the trays round the switch trays; no shelf count is published for them, so none is drawn.
TRAYS_ABOVE_SHARE = 10 / 18
NVL72_TRAYS = 18
NVL72_POWER_SHELVES = 8


def rack_scale_stack(trays: int, switch_trays: int) -> tuple[int, int, int]:
    """(power shelves below, trays below the switch trays, power shelves above) of a rack-scale rack."""
    above = round(trays * TRAYS_ABOVE_SHARE) if switch_trays else trays
    shelves = NVL72_POWER_SHELVES if trays == NVL72_TRAYS else 0
    return shelves // 2, trays - above, shelves - shelves // 2


def top_reserve(spec: DesignSpec, basis: str, *, structured: bool | None = None) -> tuple[int, float]:
    """(units, watts) kept at the top of every rack: the management switch, and the structured cabling's panel
    and cable manager."""
    oob = spec.oob
    units, watts = (height(oob.leaf), switch_draw(oob.leaf, basis)) if oob is not None else (0, 0.0)
    if spec.layout.structured_cabling if structured is None else structured:
        units += STRUCTURED_U
    return units, watts


_oob_reserve = top_reserve


def rack_fill(spec: DesignSpec, su_servers: int, rails: int) -> RackFill:
    """The fill of every rack kind for a design whose scale units have `su_servers` servers and `rails` leaves."""
    from ..scaleup import RACK_SCALE, scale_up_domain

    layout = spec.layout
    basis = layout.rack_power_basis
    top_u, top_w = _oob_reserve(spec, basis)
    budget = float(layout.rack_power_kw) * 1000.0
    server = spec.server
    server_u = height(server)
    domain = scale_up_domain(spec)
    fill = RackFill(units=layout.rack_units, budget_w=budget, basis=basis, top_u=top_u, top_w=top_w,
                    server_u=server_u, server_w=float(server.power_w or 0.0), servers_per_rack=1)
    leaf = spec.leaf
    leaf_u, leaf_w = height(leaf), switch_draw(leaf, basis)
    if domain.kind == RACK_SCALE:
        trays = max(1, domain.servers_per_rack)
        fill.servers_per_rack = trays
        fill.rack_scale_switch_trays = -(-domain.switch_trays // max(1, domain.racks))
        fill.shelves_below, fill.trays_below, fill.shelves_above = rack_scale_stack(trays, fill.rack_scale_switch_trays)
        if server.scale_up_rack_power_w:
            fill.server_w = float(server.scale_up_rack_power_w) / trays
        if not server.cooling and layout.cooling != "liquid":
            fill.notes.append(message("warning.rack_scale_cooling", system=server.name or server.sku or "server",
                                      cooling=layout.cooling))
    else:
        cap = layout.servers_per_rack or su_servers
        cap = max(1, min(cap, su_servers))
        best = 0
        for spr in range(cap, 0, -1):
            racks = -(-su_servers // spr)
            leaves = -(-rails // racks) if layout.leaf_rack == "server" else 0
            if fill.fits(spr * server_u + leaves * leaf_u, spr * fill.server_w + leaves * leaf_w):
                best = spr
                break
        if not best:
            racks = -(-su_servers // 1)
            leaves = -(-rails // racks) if layout.leaf_rack == "server" else 0
            reserved_u = leaves * leaf_u + top_u
            field_name = "layout.rack_units" if server_u + reserved_u > layout.rack_units else "layout.rack_power_kw"
            raise InfeasibleSpec({field_name: [message(
                "rack.nothing_fits", units=layout.rack_units, budget_kw=budget / 1000,
                server=server.name or server.sku or "server", reserved=reserved_u,
                reserved_kw=round((leaves * leaf_w + top_w) / 1000, 3))]})
        fill.servers_per_rack = best
        fixed = layout.servers_per_rack
        if fixed and best and best < min(fixed, su_servers):
            wanted = min(fixed, su_servers)
            leaves = -(-rails // -(-su_servers // wanted)) if layout.leaf_rack == "server" else 0
            if wanted * server_u + leaves * leaf_u + top_u > layout.rack_units:
                fill.notes.append(message("warning.rack_servers_height", servers=wanted, server_ru=server_u,
                                          needed=wanted * server_u, rack_units=layout.rack_units, fit=best))
            else:
                fill.notes.append(message("warning.rack_servers_power", servers=wanted,
                                          server_kw=fill.server_w / 1000, needed_kw=wanted * fill.server_w / 1000,
                                          budget_kw=budget / 1000, fit=best))
    if layout.leaf_rack == "server":
        racks = -(-su_servers // fill.servers_per_rack)
        fill.leaves_in_server_rack = -(-rails // racks)
    fill.leaves_per_leaf_rack = max(1, fill.per_rack(leaf_u, leaf_w, rails))
    for role in ("spine", "core"):
        hw = spec.switch_hw(role)
        fill.switches_per_rack[role] = max(1, fill.per_rack(height(hw), switch_draw(hw, basis),
                                                            layout.switches_per_rack))
    return fill


def network_switches_per_rack(spec: DesignSpec, hw: SwitchHw) -> int:
    """Switches of `hw` per network rack (the front-end, storage and management networks' own racks)."""
    layout = spec.layout
    basis = layout.rack_power_basis
    top_u, top_w = _oob_reserve(spec, basis)
    fill = RackFill(units=layout.rack_units, budget_w=float(layout.rack_power_kw) * 1000.0, basis=basis,
                    top_u=top_u, top_w=top_w, server_u=1, server_w=0.0, servers_per_rack=1)
    return max(1, fill.per_rack(height(hw), switch_draw(hw, basis), layout.switches_per_rack))


def check_rack_rules(spec: DesignSpec) -> None:
    """InfeasibleSpec naming every layout field whose rack rule the design's hardware breaks."""
    errors: dict[str, list[Message]] = {}
    for name, msg in rack_errors(spec):
        errors.setdefault(name, []).append(msg)
    if errors:
        raise InfeasibleSpec(errors)


def rack_errors(spec: DesignSpec) -> list[tuple[str, Message]]:
    """(field, message) for every rack rule the design's hardware breaks (see the module rules)."""
    from ..scaleup import RACK_SCALE, domain_rack_units, scale_up_domain

    layout = spec.layout
    out: list[tuple[str, Message]] = []
    units, basis = layout.rack_units, layout.rack_power_basis
    budget = float(layout.rack_power_kw) * 1000.0
    top_u, top_w = _oob_reserve(spec, basis)
    server = spec.server
    name = server.name or server.sku or "server"
    devices: list[tuple[str, str, int, float, bool]] = [("server", name, height(server), float(server.power_w or 0.0),
                                                         True)]
    for role in ("leaf", "spine", "core"):
        hw = spec.switch_hw(role)
        devices.append((role, hw.name or hw.sku or f"{hw.ports}x{hw.gbps}G switch", height(hw),
                        switch_draw(hw, basis), False))
    for key in ("frontend", "storage"):
        net = getattr(spec, key, None)
        if net is None or getattr(net, "converged", False):
            continue
        for role, hw in (("leaf", net.leaf), ("spine", getattr(net, "spine", None))):
            if hw is not None:
                devices.append((f"{key} {role}", hw.name or hw.sku or f"{hw.ports}x{hw.gbps}G switch", height(hw),
                                switch_draw(hw, basis), False))
    if spec.oob is not None and spec.oob.spine is not None:
        hw = spec.oob.spine
        devices.append(("management aggregation", hw.name or hw.sku or f"{hw.ports}x{hw.gbps}G switch", height(hw),
                        switch_draw(hw, basis), False))
    domain = scale_up_domain(spec)
    rack_scale = domain.kind == RACK_SCALE
    for role, model, device_u, watts, is_server in devices:
        if is_server and rack_scale:
            continue
        if device_u + top_u > units:
            out.append(("layout.rack_units", message("rack.too_low", units=units, role=role, model=model,
                                                     height=device_u + top_u)))
            break
    if rack_scale:
        below, _trays, above = rack_scale_stack(domain.servers_per_rack, -(-domain.switch_trays // max(1, domain.racks)))
        needed = domain_rack_units(spec) + below + above + top_u
        power = float(server.scale_up_rack_power_w or 0.0) or domain.servers_per_rack * float(server.power_w or 0.0)
        if needed > units:
            out.append(("layout.rack_units", message("rack.too_low", units=units, role="rack-scale system",
                                                     model=name, height=needed)))
        if budget and power + top_w > budget + 1e-6:
            out.append(("layout.rack_power_kw", message("rack.budget_domain", system=name,
                                                        power_kw=round((power + top_w) / 1000, 3),
                                                        budget_kw=budget / 1000)))
        if server.cooling and layout.cooling != server.cooling:
            out.append(("layout.cooling", message("rack.cooling_required", system=name, required=server.cooling,
                                                  power_kw=round(power / 1000, 3), cooling=layout.cooling)))
    if budget:
        for role, model, device_u, watts, is_server in devices:
            if is_server and rack_scale:
                continue
            if watts + top_w > budget + 1e-6:
                if is_server:
                    msg = message("rack.budget_one_server", budget_kw=budget / 1000, server=model,
                                  power_kw=round((watts + top_w) / 1000, 3), basis=basis)
                else:
                    msg = message("rack.budget_one_switch", budget_kw=budget / 1000, role=role, switch=model,
                                  power_kw=round((watts + top_w) / 1000, 3), basis=basis)
                out.append(("layout.rack_power_kw", msg))
                break
    return out
