"""The kinds of catalog item, in load order, with the columns the seed, Excel and NetBox paths use.

Order matters: manufacturers first, NICs before servers (a server names its default NIC
by SKU). Column names are the model field names (the seed YAML keys too); `required` columns must be
present in an imported sheet, the others keep their current value (or default) when absent.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import models

from .models import Cable, FiberCord, Manufacturer, NicModel, PatchPanel, ServerModel, SwitchModel, Transceiver

COMMON_HEAD = ("sku", "manufacturer", "model", "description")
COMMON_TAIL = ("source", "list_price", "currency", "price_is_example", "active")


@dataclass(frozen=True)
class CatalogKind:
    key: str  # seed file stem and API path, e.g. "switches"
    sheet: str  # Excel sheet title
    model: type[models.Model]
    columns: tuple[str, ...]
    required: tuple[str, ...]

    @property
    def lookup(self) -> str:
        """The natural key rows are upserted by."""
        return "name" if self.model is Manufacturer else "sku"


def _kind(key, sheet, model, specific: tuple[str, ...], optional: tuple[str, ...] = ()) -> CatalogKind:
    columns = COMMON_HEAD + specific + COMMON_TAIL
    required = ("sku", "manufacturer", "model") + tuple(c for c in specific if c not in optional) + ("list_price",)
    return CatalogKind(key, sheet, model, columns, required)


MANUFACTURERS = CatalogKind("manufacturers", "Manufacturers", Manufacturer, ("name", "slug"), ("name",))
SWITCHES = _kind(
    "switches", "Switches", SwitchModel,
    ("fabric", "switch_class", "asic", "asic_tbps", "cages", "cage_form_factor", "cage_gbps", "breakouts",
     "uplink_cages", "uplink_form_factor", "uplink_gbps", "uplink_breakouts", "rack_units",
     "power_typical_w", "power_max_w", "buffer_mb"),
    optional=("fabric", "switch_class", "asic", "asic_tbps", "uplink_cages", "uplink_form_factor", "uplink_gbps",
              "uplink_breakouts", "power_typical_w", "power_max_w", "buffer_mb"),
)
NICS = _kind(
    "nics", "NICs", NicModel, ("ports", "port_gbps", "form_factor", "host_interface", "power_w", "breakouts"),
    optional=("host_interface", "power_w", "breakouts"),
)
SERVERS = _kind(
    "servers", "Servers", ServerModel,
    ("gpus", "gpu_model", "scale_up", "scale_up_domain_gpus", "scale_up_kind", "scale_up_gb_s_per_gpu",
     "scale_up_racks", "scale_up_switch_trays", "scale_up_switch_tray_power_w", "scale_up_rack_power_w",
     "backend_ports", "backend_gbps", "default_nic",
     "frontend_ports", "frontend_gbps", "rack_units", "power_w", "backend_nics_built_in", "backend_ports_per_cage"),
    optional=("scale_up", "scale_up_domain_gpus", "scale_up_kind", "scale_up_gb_s_per_gpu", "scale_up_racks",
              "scale_up_switch_trays", "scale_up_switch_tray_power_w", "scale_up_rack_power_w", "default_nic", "frontend_ports", "frontend_gbps",
              "backend_nics_built_in", "backend_ports_per_cage"),
)
TRANSCEIVERS = _kind(
    "transceivers", "Transceivers", Transceiver,
    ("form_factor", "gbps", "port_gbps", "ports", "media", "fiber", "connector", "reach_m", "power_w", "flat_top",
     "fabrics", "compatible_vendors"),
    optional=("connector", "power_w", "flat_top", "compatible_vendors"),
)
CABLES = _kind(
    "cables", "Cables", Cable,
    ("media", "form_factor_a", "form_factor_b", "gbps", "leg_gbps", "legs", "length_m", "power_w", "fabrics",
     "compatible_vendors"),
    optional=("power_w", "compatible_vendors"),
)
FIBERS = _kind("fibers", "Fibers", FiberCord, ("fiber", "connector", "length_m", "fabrics"))
PATCH_PANELS = _kind("patch_panels", "Patch panels", PatchPanel, ("ports", "connector", "fiber", "rack_units"),
                     optional=("rack_units",))

KINDS: tuple[CatalogKind, ...] = (MANUFACTURERS, SWITCHES, NICS, SERVERS, TRANSCEIVERS, CABLES, FIBERS, PATCH_PANELS)
ITEM_KINDS: tuple[CatalogKind, ...] = KINDS[1:]
KIND_BY_KEY = {kind.key: kind for kind in KINDS}
KIND_BY_SHEET = {kind.sheet.lower(): kind for kind in KINDS}
