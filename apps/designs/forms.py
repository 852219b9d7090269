"""UI forms for a design's inputs. They only shape input: the services validate it.

Fields are named after the service's inputs (apps.designs.services.inputs); nested settings are
flattened, "layout.servers_per_rack" is the field ``layout_servers_per_rack`` and "pools.host"
is ``pools_host``. Numbers are taken as text so that every range and feasibility message comes
from the service, the same words the API and the as-you-type estimate use. A service
ValidationError is put back on the matching fields with ``form_add_service_errors``.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from apps.catalog.models import NicModel, ServerModel, SwitchModel
from apps.catalog.selectors import nic_list, server_list, switch_breakout_choices, switch_list
from apps.engine.networks.spec import FRONTEND_POOLS, STORAGE_POOLS, OobPools
from apps.engine.spec import AddressPools, RackLayout, SparesPolicy

from .services.layout_input import cells_text, rows_text
from apps.projects.models import Currency, Project
from fabricweb.validators import DESCRIPTION_MAX_LENGTH, validate_single_line_name

from .models import DesignVersion

LAYOUT_FIELDS = ("servers_per_rack", "racks_per_row", "rack_width_m", "row_pitch_m", "slack_m", "switches_per_rack",
                 "rack_units", "rack_power_kw", "tray_height_m", "air_limit_kw", "rear_door_limit_kw")
# The hall's aisles and shape (engine.hall.geometry), in the form's "Data hall" group.
AISLE_FIELDS = ("rack_depth_m", "cold_aisle_m", "hot_aisle_m", "cross_aisle_m", "row_racks_max", "max_aspect")
# engine RackLayout choices: leaf_rack, spine_rows, rack_power_basis, cooling (services.layout_input.LAYOUT_CHOICES)
LAYOUT_PLACEMENT_FIELDS = ("leaf_rack", "spine_rows", "rack_power_basis", "cooling")
# The data hall (engine HallLayout): layout.hall.rows is the field layout_hall_rows, its zones' rows are
# layout_hall_zones_<kind> (text "1-3, 7"), its reserved cells layout_hall_reserved (text "3:5, 3:6-8").
HALL_FIELDS = ("rows", "positions", "width_m", "depth_m", "reserved")
ZONE_FIELDS = ("compute", "network", "storage")
POOL_FIELDS = ("host", "p2p", "loopback", "asn_base")
SPARE_FIELDS = ("switches_per_spare", "switches", "transceivers", "cables", "fibers")  # engine SparesPolicy
SWITCH_TIERS = ("leaf", "spine", "core")
AUTOMATIC = ("", _("Automatic (NIC speed)"))
NETWORK_FORM_FIELDS = {
    "frontend": ("switch", "breakout", "ports_per_server", "oversubscription", "pools_host"),
    "storage": ("mode", "switch", "breakout", "nodes", "ports_per_node", "ports_per_server", "pools_host"),
    "oob": ("switch", "ports", "gbps", "uplinks", "pools_host"),
}


def server_label(server: ServerModel) -> str:
    return f"{server.manufacturer.name} {server.model} — {server.gpus}× {server.gpu_model}, " \
           f"{server.backend_ports}×{server.backend_gbps}G"


def nic_label(nic: NicModel) -> str:
    return f"{nic.manufacturer.name} {nic.model} — {nic.ports}×{nic.port_gbps}G {nic.form_factor}"


def switch_label(switch: SwitchModel) -> str:
    label = f"{switch.manufacturer.name} {switch.model} — {switch.cages}×{switch.cage_gbps}G {switch.cage_form_factor}"
    # Ethernet is the default; an InfiniBand switch says so, as it can't join an Ethernet fabric.
    return f"{label}, {switch.get_fabric_display()}" if switch.fabric == "infiniband" else label


class CatalogChoiceField(forms.ModelChoiceField):
    def __init__(self, *args, label_function, **kwargs):
        super().__init__(*args, **kwargs)
        self.label_function = label_function

    def label_from_instance(self, obj) -> str:
        return self.label_function(obj)


def _number(label, *, required=False, step="1", placeholder=None, help_text="", minimum="0"):
    attrs = {"step": step, "min": minimum, "inputmode": "decimal"}
    if placeholder is not None:
        attrs["placeholder"] = str(placeholder)
    return forms.CharField(
        label=label, required=required, help_text=help_text, widget=forms.NumberInput(attrs=attrs), max_length=40
    )


def _default(dataclass_type, name: str) -> Any:
    return {f.name: f.default for f in dataclasses.fields(dataclass_type)}[name]


class DesignInputsForm(forms.Form):
    """The inputs of one version: hardware, size, structure, rack layout, pools, commercial terms."""

    server = CatalogChoiceField(
        label=_("GPU server"), queryset=ServerModel.objects.none(), label_function=server_label,
        empty_label=_("— choose —"),
    )
    nic = CatalogChoiceField(
        label=_("Backend NIC"), queryset=NicModel.objects.none(), label_function=nic_label, required=False,
        empty_label=_("The server's default NIC"),
        help_text=_("Follows the server's default NIC when you change the server."),
    )
    leaf_switch = CatalogChoiceField(
        label=_("Leaf switch"), queryset=SwitchModel.objects.none(), label_function=switch_label,
        empty_label=_("— choose —"),
    )
    leaf_breakout = forms.ChoiceField(label=_("Leaf breakout"), required=False)
    spine_switch = CatalogChoiceField(
        label=_("Spine switch"), queryset=SwitchModel.objects.none(), label_function=switch_label, required=False,
        empty_label=_("Same as the leaf"),
    )
    spine_breakout = forms.ChoiceField(label=_("Spine breakout"), required=False)
    core_switch = CatalogChoiceField(
        label=_("Core switch"), queryset=SwitchModel.objects.none(), label_function=switch_label, required=False,
        empty_label=_("Same as the spine"), help_text=_("Used only when the fabric needs 3 tiers."),
    )
    core_breakout = forms.ChoiceField(label=_("Core breakout"), required=False)

    gpus = _number(_("GPUs"), required=True, minimum="1")
    planes = _number(
        _("Planes"), minimum="1", help_text=_("Independent parallel fabrics; must divide the server's rails.")
    )
    nic_split = forms.ChoiceField(
        label=_("NIC port split"), required=False, initial="1",
        choices=[("1", _("Whole ports")), ("2", _("Each port in 2 parts, on 2 planes")),
                 ("4", _("Each port in 4 parts, on 4 planes"))],
        help_text=_("Split every backend NIC port in one of the NIC's published breakout modes (ConnectX-8 800G "
                    "as 2x400G); each part lands on a plane of its own, so planes must be a multiple of it."),
    )
    oversubscription = _number(
        _("Oversubscription at the leaf (o:1)"), step="0.1", minimum="1", help_text=_("1 = non-blocking.")
    )
    tiers = forms.ChoiceField(label=_("Tiers"), choices=DesignVersion.Tiers.choices, initial=DesignVersion.Tiers.AUTO)

    layout_servers_per_rack = _number(
        _("Servers per rack"), placeholder=_default(RackLayout, "servers_per_rack"),
        help_text=_("0: as many as the rack's height and power budget allow. A rack-scale system's racks hold "
                    "its own trays."))
    layout_racks_per_row = _number(_("Racks per row"), placeholder=_default(RackLayout, "racks_per_row"),
                                   help_text=_("0 or blank: a near-square hall from the number of racks."))
    layout_rack_width_m = _number(_("Rack width (m)"), step="0.01", placeholder=_default(RackLayout, "rack_width_m"))
    layout_row_pitch_m = _number(
        _("Row pitch (m)"), step="0.01", placeholder=_default(RackLayout, "row_pitch_m"),
        help_text=_("0 or blank: rows in pairs facing a cold aisle, hot aisles between the pairs (the aisles "
                    "below). More: one pitch for every row."))
    layout_rack_depth_m = _number(_("Rack depth (m)"), step="0.01", placeholder=_default(RackLayout, "rack_depth_m"))
    layout_cold_aisle_m = _number(_("Cold aisle (m)"), step="0.05", placeholder=_default(RackLayout, "cold_aisle_m"),
                                  help_text=_("Between the fronts of a row pair; TIA-942 recommends 1.2 m."))
    layout_hot_aisle_m = _number(_("Hot aisle (m)"), step="0.05", placeholder=_default(RackLayout, "hot_aisle_m"),
                                 help_text=_("Between the backs of two row pairs."))
    layout_cross_aisle_m = _number(_("Cross aisle (m)"), step="0.05", placeholder=_default(RackLayout, "cross_aisle_m"),
                                   help_text=_("Between row segments and round the hall; circulation of at least "
                                               "1.2 m."))
    layout_row_racks_max = _number(_("Racks per row segment"), placeholder=_default(RackLayout, "row_racks_max"),
                                   help_text=_("Longer rows are cut by cross aisles; 0: no limit."))
    layout_max_aspect = _number(_("Longest hall side to shortest, at most"), step="0.1",
                                placeholder=_default(RackLayout, "max_aspect"))
    layout_air_limit_kw = _number(
        _("Air cooling up to (kW a rack)"), step="0.5", placeholder=_default(RackLayout, "air_limit_kw"),
        help_text=_("Racks drawing more need a rear-door heat exchanger or liquid cooling."))
    layout_rear_door_limit_kw = _number(
        _("Rear-door heat exchanger up to (kW a rack)"), step="0.5",
        placeholder=_default(RackLayout, "rear_door_limit_kw"),
        help_text=_("Racks drawing more need direct liquid cooling."))
    layout_slack_m = _number(_("Cable slack (m)"), step="0.1", placeholder=_default(RackLayout, "slack_m"))
    layout_switches_per_rack = _number(
        _("Switches per spine/core rack"), placeholder=_default(RackLayout, "switches_per_rack")
    )
    layout_rack_units = _number(_("Rack height (U)"), placeholder=_default(RackLayout, "rack_units"))
    layout_leaf_rack = forms.ChoiceField(
        label=_("Leaf rack position"), required=False,
        choices=[("", _("Default (middle)")), ("middle", _("Middle of its server racks")),
                 ("end", _("End of its server racks")), ("server", _("In the server racks"))],
        help_text=_("Where each scale unit's leaves stand: in a network rack in the middle or at the end of its "
                    "server racks, or spread over the server racks themselves. In the middle, server-to-leaf "
                    "cables are shortest."),
    )
    layout_spine_rows = forms.ChoiceField(
        label=_("Spine and core rows"), required=False,
        choices=[("", _("Default (middle)")), ("middle", _("Between the compute rows")),
                 ("end", _("After the compute rows"))],
        help_text=_("Where the spine and core racks stand. Between the compute rows, leaf uplinks are shorter; "
                    "after them, the network rows stay together."),
    )
    layout_rack_power_kw = _number(
        _("Power budget per rack (kW)"), step="0.1", placeholder=0,
        help_text=_("What one rack may draw; 0 or blank: no budget. A GB200 NVL72 rack needs about 130 kW "
                    "and liquid cooling."))
    layout_rack_power_basis = forms.ChoiceField(
        label=_("Budget against"), required=False,
        choices=[("", _("Default (typical draw)")), ("typical", _("Typical draw")), ("maximum", _("Maximum draw"))],
        help_text=_("Whether the budget is held against the devices' typical or their maximum power."))
    layout_cooling = forms.ChoiceField(
        label=_("Cooling"), required=False,
        choices=[("", _("Default (air)")), ("air", _("Air")), ("rear-door", _("Rear-door heat exchanger")),
                 ("liquid", _("Direct liquid cooling"))])
    layout_tray_height_m = _number(_("Cable tray above the racks (m)"), step="0.05",
                                   placeholder=_default(RackLayout, "tray_height_m"))
    layout_structured_cabling = forms.BooleanField(
        label=_("Structured cabling"), required=False,
        help_text=_("MPO trunks and patch panels between the network rows and the compute rows, with their BOM "
                    "lines, instead of point-to-point cables across the hall."))
    layout_hall_rows = _number(_("Hall rows"), placeholder=0, help_text=_("0 or blank: as many as the racks need."))
    layout_hall_positions = _number(
        _("Rack positions per row"), placeholder=0, help_text=_("0 or blank: the racks per row above."))
    layout_hall_width_m = _number(_("Room width (m)"), step="0.1", placeholder=0,
                                  help_text=_("Along the rows; 0 or blank: no room given."))
    layout_hall_depth_m = _number(_("Room depth (m)"), step="0.1", placeholder=0,
                                  help_text=_("Across the rows; 0 or blank: as deep as the racks need."))
    layout_hall_reserved = forms.CharField(
        label=_("Reserved cells"), required=False, max_length=4000,
        widget=forms.TextInput(attrs={"placeholder": "3:5, 3:6-8"}),
        help_text=_("Where no rack may stand (building columns, cooling units): row:position counted from 1, "
                    "separated by commas; 3:6-8 is row 3, positions 6 to 8."))
    layout_hall_zones_compute = forms.CharField(
        label=_("Compute zone rows"), required=False, max_length=1000,
        widget=forms.TextInput(attrs={"placeholder": "1-8"}))
    layout_hall_zones_network = forms.CharField(
        label=_("Network zone rows"), required=False, max_length=1000,
        widget=forms.TextInput(attrs={"placeholder": "9-10"}),
        help_text=_("Rows counted from 1, a range as 9-10; racks of a kind without a zone take the rows no zone "
                    "names."))
    layout_hall_zones_storage = forms.CharField(
        label=_("Storage zone rows"), required=False, max_length=1000,
        widget=forms.TextInput(attrs={"placeholder": "11"}))

    pools_host = forms.CharField(
        label=_("Host pool (NIC /31s)"), required=False, max_length=43,
        widget=forms.TextInput(attrs={"placeholder": _default(AddressPools, "host")}),
    )
    pools_p2p = forms.CharField(
        label=_("Switch-to-switch pool (/31s)"), required=False, max_length=43,
        widget=forms.TextInput(attrs={"placeholder": _default(AddressPools, "p2p")}),
    )
    pools_loopback = forms.CharField(
        label=_("Loopback pool (/32s)"), required=False, max_length=43,
        widget=forms.TextInput(attrs={"placeholder": _default(AddressPools, "loopback")}),
    )
    pools_asn_base = _number(_("First ASN"), minimum="1", placeholder=_default(AddressPools, "asn_base"))

    discount_pct = _number(_("Discount (%)"), step="0.01", help_text=_("Off list price; the project's by default."))
    currency = forms.ChoiceField(label=_("Currency"), choices=Currency.choices)
    third_party_optics = forms.BooleanField(
        label=_("Allow third-party optics"), required=False,
        help_text=_("Off: switch cages take only optics and cables made by the switch's vendor or declared "
                    "compatible with it. On: any vendor's parts qualified for the fabric. Never on by default, "
                    "InfiniBand included."),
    )

    spares_switches_per_spare = _number(
        _("One spare switch per N installed"), placeholder=_default(SparesPolicy, "switches_per_spare"),
        help_text=_("One cold spare of each switch model for every N of it installed, rounded up (0: none). "
                    "The default of 20 is ours, not a vendor's figure: set it from the support contract's "
                    "replacement time."))
    spares_switches = _number(_("Spare switches (%)"), step="0.1", placeholder=_default(SparesPolicy, "switches"),
                              help_text=_("A switch model gets the larger of this and one per N."))
    spares_transceivers = _number(_("Spare transceivers (%)"), step="0.1",
                                  placeholder=_default(SparesPolicy, "transceivers"))
    spares_cables = _number(_("Spare cables (%)"), step="0.1", placeholder=_default(SparesPolicy, "cables"))
    spares_fibers = _number(
        _("Spare fibre cords (%)"), step="0.1", placeholder=_default(SparesPolicy, "fibers"),
        help_text=_("Of each part in use, rounded up, at least one per part when above 0. Spares are their own "
                    "BOM lines and are included in the total."),
    )

    # The other networks (services.networks_input): "networks.frontend.switch" is networks_frontend_switch.
    networks_frontend_switch = CatalogChoiceField(
        label=_("Front-end leaf switch"), queryset=SwitchModel.objects.none(), label_function=switch_label,
        required=False, empty_label=_("No front-end network"),
        help_text=_("The in-band (north-south) network: a leaf-spine of its own over the servers' front-end ports."),
    )
    networks_frontend_breakout = forms.ChoiceField(label=_("Front-end breakout"), required=False)
    networks_frontend_ports_per_server = _number(_("Front-end ports per server"), minimum="1", placeholder=2)
    networks_frontend_oversubscription = _number(_("Front-end oversubscription (o:1)"), step="0.1", minimum="1",
                                                 placeholder=1)
    networks_frontend_pools_host = forms.CharField(
        label=_("Front-end host pool"), required=False, max_length=43,
        widget=forms.TextInput(attrs={"placeholder": FRONTEND_POOLS.host}))
    networks_storage_mode = forms.ChoiceField(
        label=_("Storage network"), required=False,
        choices=[("", _("None")), ("fabric", _("A storage fabric of its own")),
                 ("converged", _("Converged onto the front-end"))])
    networks_storage_switch = CatalogChoiceField(
        label=_("Storage leaf switch"), queryset=SwitchModel.objects.none(), label_function=switch_label,
        required=False, empty_label=_("— choose —"))
    networks_storage_breakout = forms.ChoiceField(label=_("Storage breakout"), required=False)
    networks_storage_nodes = _number(_("Storage nodes"), placeholder=0)
    networks_storage_ports_per_node = _number(_("Ports per storage node"), minimum="1", placeholder=2)
    networks_storage_ports_per_server = _number(_("Storage ports per server"), placeholder=0)
    networks_storage_pools_host = forms.CharField(
        label=_("Storage host pool"), required=False, max_length=43,
        widget=forms.TextInput(attrs={"placeholder": STORAGE_POOLS.host}))
    networks_oob_switch = CatalogChoiceField(
        label=_("Management switch"), queryset=SwitchModel.objects.none(), label_function=switch_label,
        required=False, empty_label=_("A generic switch of the port count below"),
        help_text=_("A management-class switch of the catalog: its ports, speed and uplinks are used."))
    networks_oob_ports = _number(
        _("Management switch ports"), minimum="4",
        help_text=_("One management switch per rack takes every BMC and switch management port of the rack; "
                    "blank, with no management switch chosen: no out-of-band network."))
    networks_oob_gbps = forms.ChoiceField(label=_("Management port speed"), required=False,
                                          choices=[("1", "1G"), ("10", "10G")])
    networks_oob_uplinks = _number(_("Management switch uplinks"), minimum="1", placeholder=2)
    networks_oob_pools_host = forms.CharField(
        label=_("Management address pool"), required=False, max_length=43,
        widget=forms.TextInput(attrs={"placeholder": OobPools().host}))

    FIELDSETS = (
        (_("Hardware"), ("server", "nic", "leaf_switch", "leaf_breakout", "spine_switch", "spine_breakout",
                         "core_switch", "core_breakout")),
        (_("Size and structure"), ("gpus", "planes", "nic_split", "oversubscription", "tiers")),
        (_("Optics and cables"), ("third_party_optics",)),
        (_("Rack layout"), tuple(f"layout_{name}" for name in LAYOUT_FIELDS + LAYOUT_PLACEMENT_FIELDS)
         + ("layout_structured_cabling",)),
        (_("Data hall"), tuple(f"layout_{name}" for name in AISLE_FIELDS)
         + tuple(f"layout_hall_{name}" for name in HALL_FIELDS)
         + tuple(f"layout_hall_zones_{kind}" for kind in ZONE_FIELDS)),
        (_("Address pools"), tuple(f"pools_{name}" for name in POOL_FIELDS)),
        (_("Commercial terms"), ("discount_pct", "currency")),
        (_("Spares"), tuple(f"spares_{name}" for name in SPARE_FIELDS)),
        (_("Front-end network"), tuple(f"networks_frontend_{name}" for name in NETWORK_FORM_FIELDS["frontend"])),
        (_("Storage network"), tuple(f"networks_storage_{name}" for name in NETWORK_FORM_FIELDS["storage"])),
        (_("Out-of-band management network"), tuple(f"networks_oob_{name}" for name in NETWORK_FORM_FIELDS["oob"])),
    )

    def __init__(self, *args, project: Project, **kwargs):
        super().__init__(*args, **kwargs)
        self.project = project
        self.fields["server"].queryset = server_list(active_only=True)
        self.fields["nic"].queryset = nic_list(active_only=True)
        for tier in SWITCH_TIERS:
            # The backend fabric takes fabric-class switches; the other networks never a management one.
            self.fields[f"{tier}_switch"].queryset = switch_list(active_only=True, switch_class="fabric")
        for key in ("frontend", "storage"):
            self.fields[f"networks_{key}_switch"].queryset = switch_list(active_only=True).exclude(
                switch_class="management")
        self.fields["networks_oob_switch"].queryset = switch_list(active_only=True, switch_class="management")
        self.fields["currency"].initial = project.currency
        self.fields["discount_pct"].initial = project.discount_pct
        self.fields["planes"].initial = 1
        self.fields["oversubscription"].initial = 1
        for name in SPARE_FIELDS:
            self.fields[f"spares_{name}"].initial = f"{_default(SparesPolicy, name):g}"
        self._set_breakout_choices()

    # Breakouts -----------------------------------------------------------------------------

    def _switch_value(self, tier: str) -> SwitchModel | None:
        """The switch this tier uses as the form stands (spine defaults to leaf, core to spine)."""
        name = f"{tier}_switch"
        raw = self.data.get(self.add_prefix(name)) if self.is_bound else self.initial.get(name)
        if isinstance(raw, SwitchModel):
            return raw
        if raw not in (None, ""):
            try:
                return self.fields[name].queryset.filter(pk=int(raw)).first()
            except (TypeError, ValueError):
                return None
        if tier == "spine":
            return self._switch_value("leaf")
        if tier == "core":
            return self._switch_value("spine")
        return None

    def _set_breakout_choices(self) -> None:
        every_mode: dict[str, str] = {}
        for switch in self.fields["leaf_switch"].queryset:
            every_mode.update(dict(switch_breakout_choices(switch=switch)))
        for tier in SWITCH_TIERS:
            switch = self._switch_value(tier)
            modes = switch_breakout_choices(switch=switch) if switch is not None else list(every_mode.items())
            self.fields[f"{tier}_breakout"].choices = [AUTOMATIC, *modes]
        for key in ("frontend", "storage"):
            self.fields[f"networks_{key}_breakout"].choices = [("", _("Automatic")), *every_mode.items()]

    # Data for the services -----------------------------------------------------------------

    def service_data(self) -> dict[str, Any]:
        """The cleaned inputs as the services take them (blank means "default")."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        for name in ("server", "nic", "leaf_switch", "spine_switch", "core_switch"):
            item = data.get(name)
            out[name] = item if item is not None else ""
        for name in ("leaf_breakout", "spine_breakout", "core_breakout", "gpus", "planes", "nic_split",
                     "oversubscription",
                     "tiers", "discount_pct", "currency"):
            value = data.get(name)
            out[name] = value.strip() if isinstance(value, str) else ("" if value is None else value)
        out["third_party_optics"] = bool(data.get("third_party_optics"))
        out["layout"] = self._layout_data(data)
        out["pools"] = {key: data[f"pools_{key}"].strip() for key in POOL_FIELDS
                        if (data.get(f"pools_{key}") or "").strip()}
        out["spares"] = {key: data[f"spares_{key}"].strip() for key in SPARE_FIELDS
                         if (data.get(f"spares_{key}") or "").strip()}
        out["networks"] = self._networks_data(data)
        # Blank values stay: for a new version they replace the previous version's choice with the default.
        return out

    @staticmethod
    def _layout_data(data: dict[str, Any]) -> dict[str, Any]:
        """The flat layout_* fields as the `layout` input (blank fields left out: the engine's defaults)."""
        def text(name: str) -> str:
            return (data.get(name) or "").strip()

        layout: dict[str, Any] = {key: text(f"layout_{key}") for key in LAYOUT_FIELDS + AISLE_FIELDS + LAYOUT_PLACEMENT_FIELDS
                                  if text(f"layout_{key}")}
        if data.get("layout_structured_cabling"):
            layout["structured_cabling"] = True
        hall: dict[str, Any] = {key: text(f"layout_hall_{key}") for key in HALL_FIELDS if text(f"layout_hall_{key}")}
        zones = {kind: text(f"layout_hall_zones_{kind}") for kind in ZONE_FIELDS if text(f"layout_hall_zones_{kind}")}
        if zones:
            hall["zones"] = zones
        if hall:
            layout["hall"] = hall
        return layout

    @staticmethod
    def _networks_data(data: dict[str, Any]) -> dict[str, Any]:
        """The flat networks_* fields as the `networks` input (a network without its switch/ports is left out)."""
        out: dict[str, Any] = {}
        for key, names in NETWORK_FORM_FIELDS.items():
            value: dict[str, Any] = {}
            for name in names:
                raw = data.get(f"networks_{key}_{name}")
                if isinstance(raw, SwitchModel):
                    raw = raw.pk
                elif isinstance(raw, str):
                    raw = raw.strip()
                if raw in (None, ""):
                    continue
                if name == "pools_host":
                    value["pools"] = {"host": raw}
                else:
                    value[name] = raw
            present = {"frontend": "switch", "storage": "mode", "oob": "ports"}[key]
            if present in value or (key == "oob" and "switch" in value) or (key == "storage" and value.get("ports_per_server") not in (None, "", "0")):
                out[key] = value
        return out

    @staticmethod
    def initial_from_version(version: DesignVersion) -> dict[str, Any]:
        """Form values that reproduce a version's inputs (for "new version" and "try again")."""
        initial: dict[str, Any] = {
            "server": version.server_id,
            "nic": version.nic_id,
            "leaf_switch": version.leaf_switch_id,
            "leaf_breakout": version.leaf_breakout,
            "spine_switch": version.spine_switch_id,
            "spine_breakout": version.spine_breakout,
            "core_switch": version.core_switch_id,
            "core_breakout": version.core_breakout,
            "gpus": version.gpus,
            "planes": version.planes,
            "nic_split": str(version.nic_split),
            "oversubscription": f"{version.oversubscription:g}",
            "tiers": version.tiers,
            "discount_pct": version.discount_pct,
            "currency": version.currency,
            "third_party_optics": version.third_party_optics,
        }
        layout = version.layout or {}
        for key in LAYOUT_FIELDS + AISLE_FIELDS + LAYOUT_PLACEMENT_FIELDS:
            if key in layout:
                initial[f"layout_{key}"] = layout[key]
        initial["layout_structured_cabling"] = bool(layout.get("structured_cabling"))
        hall = layout.get("hall") or {}
        for key in ("rows", "positions", "width_m", "depth_m"):
            if hall.get(key) not in (None, ""):
                initial[f"layout_hall_{key}"] = hall[key]
        if hall.get("reserved"):
            initial["layout_hall_reserved"] = cells_text(hall["reserved"])
        for kind, rows in (hall.get("zones") or {}).items():
            if kind in ZONE_FIELDS and rows:
                initial[f"layout_hall_zones_{kind}"] = rows_text(rows)
        for key in POOL_FIELDS:
            if key in (version.pools or {}):
                initial[f"pools_{key}"] = version.pools[key]
        for key, names in NETWORK_FORM_FIELDS.items():
            stored = (version.networks or {}).get(key) or {}
            for name in names:
                value = (stored.get("pools") or {}).get("host") if name == "pools_host" else stored.get(name)
                if value not in (None, ""):
                    initial[f"networks_{key}_{name}"] = value
        # A version from before spares had none: the form offers the defaults (its __init__ initial).
        for key in SPARE_FIELDS:
            if key in (version.spares or {}):
                initial[f"spares_{key}"] = f"{float(version.spares[key]):g}"
        return initial

    def fieldsets(self):
        """(title, [bound fields]) for the template, in FIELDSETS order."""
        return [(title, [self[name] for name in names]) for title, names in self.FIELDSETS]


class DesignCreateForm(DesignInputsForm):
    name = forms.CharField(label=_("Design name"), max_length=120, validators=[validate_single_line_name])
    description = forms.CharField(label=_("Description"), required=False, max_length=DESCRIPTION_MAX_LENGTH,
                                  widget=forms.Textarea(attrs={"rows": 2}))

    FIELDSETS = ((_("Design"), ("name", "description")),) + DesignInputsForm.FIELDSETS

    field_order = ["name", "description"]


def service_error_field(name: str, form: forms.Form) -> str | None:
    """The form field a service error key belongs to ("layout.slack_m" -> "layout_slack_m"), or None."""
    candidate = name.replace(".", "_")
    if candidate in form.fields:
        return candidate
    return None


def service_errors_by_field(errors: dict[str, list[str]], form: forms.Form) -> dict[str, list[str]]:
    """Service errors keyed by form field name; anything else under "__all__"."""
    out: dict[str, list[str]] = {}
    for name, messages in errors.items():
        field = service_error_field(name, form) or "__all__"
        out.setdefault(field, []).extend(str(m) for m in messages)
    return out


def form_add_service_errors(form: forms.Form, exc: ValidationError | dict[str, list[str]]) -> None:
    """Attach a service's errors to the matching fields (the rest as non-field errors)."""
    if isinstance(exc, ValidationError):
        errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
    else:
        errors = exc
    for field, messages in service_errors_by_field(errors, form).items():
        form.add_error(None if field == "__all__" else field, list(messages))
