"""Serializers for designs, versions, their rows and jobs. Writes go through services, never save()."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.catalog.models import Fabric
from apps.projects.models import Currency
from fabricweb.api import AsciiNumbersMixin
from fabricweb.validators import DESCRIPTION_MAX_LENGTH, validate_single_line_name

from ..engine_text import wiring_verdict
from ..job_text import job_error, job_error_fields, job_stage_label
from ..models import BomLineRecord, Design, DesignVersion, DeviceRecord, Job, LinkRecord, PortRecord
from ..services.inputs import MAX_GPUS, MAX_OVERSUBSCRIPTION, MAX_PLANES


class HallLayoutSerializer(serializers.Serializer):
    """Documentation of `layout.hall`: the data hall's grid; every key is optional."""

    rows = serializers.IntegerField(required=False, min_value=0, help_text="rows of the hall; 0 (default): as needed")
    positions = serializers.IntegerField(required=False, min_value=0,
                                         help_text="rack positions per row; 0 (default): racks_per_row")
    width_m = serializers.FloatField(required=False, min_value=0,
                                     help_text="the room's width along the rows in metres; 0 (default): no room given")
    depth_m = serializers.FloatField(required=False, min_value=0,
                                     help_text="the room's depth across the rows in metres; 0 (default): no room given")
    reserved = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=2),
        required=False, help_text="cells where no rack stands, [row, position] counted from 1 (or text \"3:5, 3:6-8\")")
    zones = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1)), required=False,
        help_text='rows (from 1) per zone: {"compute": [...], "network": [...], "storage": [...]}; a kind without a '
                  "zone takes the rows no zone names")


class RackLayoutSerializer(serializers.Serializer):
    """Documentation of the `layout` object; every key is optional (engine defaults)."""

    servers_per_rack = serializers.IntegerField(required=False, min_value=0,
                                                help_text="default 4; 0: as many as height and power budget allow")
    racks_per_row = serializers.IntegerField(
        required=False, min_value=0, help_text="0 (default): a near-square hall from the rack count")
    rack_width_m = serializers.FloatField(required=False)
    row_pitch_m = serializers.FloatField(
        required=False, min_value=0, help_text="0 (default): rows in pairs round a cold aisle (the aisles below); "
                                               "more: one pitch for every row")
    rack_depth_m = serializers.FloatField(required=False, min_value=0, help_text="rack depth (default 1.2)")
    cold_aisle_m = serializers.FloatField(required=False, min_value=0,
                                          help_text="cold aisle between the fronts of a row pair (default 1.2, TIA-942)")
    hot_aisle_m = serializers.FloatField(required=False, min_value=0,
                                         help_text="hot aisle between the backs of two pairs (default 0.9)")
    cross_aisle_m = serializers.FloatField(required=False, min_value=0,
                                           help_text="cross aisles between row segments and round the hall (default 1.2)")
    row_racks_max = serializers.IntegerField(required=False, min_value=0,
                                             help_text="racks in one row segment (default 20); 0: no limit")
    max_aspect = serializers.FloatField(required=False, min_value=1,
                                        help_text="a derived hall's longer side at most this many times the shorter")
    air_limit_kw = serializers.FloatField(required=False, min_value=0,
                                          help_text="racks above this draw need more than air cooling (default 20)")
    rear_door_limit_kw = serializers.FloatField(
        required=False, min_value=0, help_text="racks above this draw need direct liquid cooling (default 55)")
    slack_m = serializers.FloatField(required=False)
    switches_per_rack = serializers.IntegerField(required=False, min_value=1,
                                                 help_text="spine and core racks: at most this many (default 16)")
    rack_units = serializers.IntegerField(required=False, min_value=1, max_value=100,
                                          help_text="usable height of a rack in U (default 48)")
    rack_power_kw = serializers.FloatField(required=False, min_value=0,
                                           help_text="power budget per rack in kW; 0 (default): no budget")
    rack_power_basis = serializers.ChoiceField(choices=["typical", "maximum"], required=False,
                                               help_text="the budget holds against typical (default) or maximum draw")
    cooling = serializers.ChoiceField(choices=["air", "rear-door", "liquid"], required=False,
                                      help_text="the most the site offers: air (default), rear-door heat exchanger or "
                                                "direct liquid cooling")
    leaf_rack = serializers.ChoiceField(
        choices=["middle", "end", "server"], required=False,
        help_text="a scale unit's leaves: a network rack in the middle or at the end of its server racks, or in the "
                  "server racks")
    spine_rows = serializers.ChoiceField(choices=["middle", "end"], required=False,
                                         help_text="spine and core rows: between the compute rows or after them")
    tray_height_m = serializers.FloatField(required=False, help_text="overhead cable tray above the racks (default 0.3)")
    structured_cabling = serializers.BooleanField(
        required=False, help_text="MPO trunks and patch panels between network and compute rows (default false)")
    hall = HallLayoutSerializer(required=False)


class AddressPoolsSerializer(serializers.Serializer):
    """Documentation of the `pools` object; every key is optional (engine defaults)."""

    host = serializers.CharField(required=False, help_text="IPv4 network for NIC /31s, e.g. 10.0.0.0/12")
    p2p = serializers.CharField(required=False, help_text="IPv4 network for switch-to-switch /31s")
    loopback = serializers.CharField(required=False, help_text="IPv4 network for switch loopbacks")
    asn_base = serializers.IntegerField(required=False, help_text="first private ASN")


class SparesSerializer(serializers.Serializer):
    """Documentation of the `spares` object: percent of each part in use ordered as spares, 0 to 100, and
    one cold spare per switch model per `switches_per_spare` installed (engine.spec.SparesPolicy)."""

    switches = serializers.FloatField(required=False, help_text="percent; default 0 (switches_per_spare applies)")
    switches_per_spare = serializers.IntegerField(
        required=False, help_text="one cold spare per switch model per this many installed, rounded up; 0 = none; "
                                  "default 20")
    transceivers = serializers.FloatField(required=False, help_text="default 2")
    cables = serializers.FloatField(required=False, help_text="default 2")
    fibers = serializers.FloatField(required=False, help_text="fibre cords; default 2")


@extend_schema_field(SparesSerializer)
class SparesField(serializers.JSONField):
    """An object; keys and ranges are checked by the service (errors on "spares.<key>")."""


@extend_schema_field(RackLayoutSerializer)
class LayoutField(serializers.JSONField):
    """An object; keys and ranges are checked by the service (errors on "layout.<key>")."""


@extend_schema_field(AddressPoolsSerializer)
class PoolsField(serializers.JSONField):
    """An object; networks, overlaps and sizes are checked by the service (errors on "pools.<key>")."""


@extend_schema_field({"type": "object", "additionalProperties": True})
class RoceField(serializers.JSONField):
    pass


@extend_schema_field({"type": "object", "additionalProperties": True, "description": (
    'The other networks: {"frontend": {"switch", "breakout", "spine_switch", "spine_breakout", "ports_per_server", '
    '"oversubscription", "pools"}, "storage": {"mode": "fabric"|"converged"|"none", "nodes", "ports_per_node", '
    '"ports_per_server", "switch", "breakout", ...}, "oob": {"switch" (a management switch) or "ports", "gbps": 1|10, "uplinks", "pools"}}; '
    'errors on "networks.<network>.<setting>"')})
class NetworksField(serializers.JSONField):
    """An object; checked by the service (apps.designs.services.networks_input)."""


class DesignInputsSerializer(AsciiNumbersMixin, serializers.Serializer):
    """What a version is generated from. Catalog items by id; omitted inputs take their defaults.

    Types are checked here; ranges, catalog rules and feasibility by the service (one set of messages).
    """

    server = serializers.IntegerField(help_text="ServerModel id")
    nic = serializers.IntegerField(required=False, allow_null=True, help_text="NicModel id; default: the server's")
    leaf_switch = serializers.IntegerField(help_text="SwitchModel id")
    leaf_breakout = serializers.CharField(required=False, allow_blank=True, help_text='e.g. "2x400G"; default: native')
    spine_switch = serializers.IntegerField(required=False, allow_null=True, help_text="default: the leaf switch")
    spine_breakout = serializers.CharField(required=False, allow_blank=True)
    core_switch = serializers.IntegerField(required=False, allow_null=True, help_text="default: the spine switch")
    core_breakout = serializers.CharField(required=False, allow_blank=True)
    gpus = serializers.IntegerField(help_text=f"1 to {MAX_GPUS:,}")
    planes = serializers.IntegerField(required=False, help_text=f"1 to {MAX_PLANES}")
    nic_split = serializers.IntegerField(
        required=False, help_text="1 (default), 2 or 4: split every backend NIC port in that many parts, one of the "
                                  "NIC's published breakout modes; each part is a rail on a plane of its own")
    oversubscription = serializers.FloatField(
        required=False, help_text=f"o in o:1 at the leaf, 1 to {MAX_OVERSUBSCRIPTION}"
    )
    tiers = serializers.ChoiceField(choices=DesignVersion.Tiers.choices, required=False)
    layout = LayoutField(required=False)
    pools = PoolsField(required=False)
    roce = RoceField(required=False)
    discount_pct = serializers.DecimalField(
        max_digits=7, decimal_places=2, required=False, help_text="0 to 100; default: the project's"
    )
    currency = serializers.ChoiceField(choices=Currency.choices, required=False, help_text="default: the project's")
    spares = SparesField(
        required=False, help_text="spare percent per category (switches, transceivers, cables, fibers); rounded up, "
                                  "at least one per SKU in use when above 0; defaults 0 / 2 / 2 / 2; and "
                                  "switches_per_spare: one cold spare per switch model per N installed (default 20)",
    )
    networks = NetworksField(required=False, help_text="front-end, storage and out-of-band networks; none by default")
    third_party_optics = serializers.BooleanField(
        required=False, help_text="false (default): switch cages take only optics and cables made by the switch's "
                                  "vendor or declared compatible with it; true: any vendor's parts qualified for "
                                  "the fabric (InfiniBand included, never by default)")


class DesignCreateSerializer(DesignInputsSerializer):
    name = serializers.CharField(max_length=Design._meta.get_field("name").max_length,
                                 validators=[validate_single_line_name])
    description = serializers.CharField(required=False, allow_blank=True, default="",
                                        max_length=DESCRIPTION_MAX_LENGTH)


class VersionCreateSerializer(DesignInputsSerializer):
    """Changes against the design's latest version: every input is optional."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False


class CatalogItemRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    sku = serializers.CharField()
    model = serializers.CharField()


class VersionBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = DesignVersion
        fields = ["id", "number", "status", "gpus", "total_cost", "currency", "created_at", "generated_at"]


class DesignSerializer(serializers.ModelSerializer):
    project = serializers.IntegerField(source="project_id", read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    version_count = serializers.SerializerMethodField()
    latest_version = serializers.SerializerMethodField()

    class Meta:
        model = Design
        fields = ["id", "project", "name", "description", "created_by", "created_at", "version_count",
                  "latest_version"]

    def get_version_count(self, design) -> int:
        # Lists annotate the count; a single design (detail, create answer) counts its versions.
        count = getattr(design, "version_count", None)
        return count if count is not None else design.versions.count()

    @extend_schema_field(VersionBriefSerializer(allow_null=True))
    def get_latest_version(self, design):
        prefetched = getattr(design, "versions_newest_first", None)  # lists prefetch them
        if prefetched is not None:
            version = prefetched[0] if prefetched else None
        else:
            version = design.versions.order_by("-number").first()
        return VersionBriefSerializer(version).data if version is not None else None


class JobSerializer(serializers.ModelSerializer):
    design = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    stage = serializers.CharField(read_only=True, help_text="stable stage key, e.g. topology, cabling, saving, done")
    stage_label = serializers.SerializerMethodField(help_text="the stage in the requester's language")
    error = serializers.SerializerMethodField(help_text="why the job failed, in the requester's language")
    error_fields = serializers.SerializerMethodField(help_text="field -> messages, in the requester's language")

    class Meta:
        model = Job
        fields = ["id", "kind", "status", "stage", "stage_label", "percent", "error", "error_fields", "project",
                  "version", "design", "attempts", "celery_task_id", "created_by", "created_at", "started_at",
                  "heartbeat_at", "finished_at"]
        read_only_fields = fields

    def get_stage_label(self, job) -> str:
        return job_stage_label(job)

    def get_error(self, job) -> str:
        return job_error(job)

    @extend_schema_field(serializers.DictField(child=serializers.ListField(child=serializers.CharField())))
    def get_error_fields(self, job):
        return job_error_fields(job)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_design(self, job):
        return job.version.design_id if job.version_id else None


class JobAcceptedSerializer(serializers.Serializer):
    """Answer to a create: the queued (or, without a broker, already finished) job."""

    job = JobSerializer()
    version = VersionBriefSerializer()
    design = DesignSerializer()


class VersionInputsSerializer(serializers.ModelSerializer):
    server = CatalogItemRefSerializer()
    nic = CatalogItemRefSerializer()
    leaf_switch = CatalogItemRefSerializer()
    spine_switch = CatalogItemRefSerializer()
    core_switch = CatalogItemRefSerializer()

    class Meta:
        model = DesignVersion
        fields = ["server", "nic", "leaf_switch", "leaf_breakout", "spine_switch", "spine_breakout", "core_switch",
                  "core_breakout", "gpus", "planes", "nic_split", "oversubscription", "tiers", "layout", "pools",
                  "roce",
                  "discount_pct", "currency", "spares",
                  "third_party_optics", "networks"]
        extra_kwargs = {"spares": {"help_text": "spare percent per category; null for versions from before spares"}}


class VersionTotalsSerializer(serializers.Serializer):
    subtotal = serializers.DecimalField(max_digits=16, decimal_places=2, allow_null=True,
                                        help_text="spare lines included (spares_subtotal of it)")
    spares_subtotal = serializers.DecimalField(max_digits=16, decimal_places=2, allow_null=True,
                                               help_text="null: generated before spares")
    discount = serializers.DecimalField(max_digits=16, decimal_places=2, allow_null=True)
    total_cost = serializers.DecimalField(max_digits=16, decimal_places=2, allow_null=True)
    total_includes_spares = serializers.SerializerMethodField()
    currency = serializers.CharField()
    power_typical_w = serializers.FloatField(
        allow_null=True, help_text="the network's: switches and switch-side optics (before the scope split: all)")
    power_max_w = serializers.FloatField(allow_null=True)
    in_server_typical_w = serializers.FloatField(
        allow_null=True, help_text="NICs and server-side optics, inside the servers' power budget; null: not computed")
    in_server_max_w = serializers.FloatField(allow_null=True)
    rack_units = serializers.IntegerField(allow_null=True)

    def get_total_includes_spares(self, version) -> bool:
        return version.spares_subtotal is not None


class WiringSerializer(serializers.Serializer):
    """The engine's wiring proof (engine.wiring) as stored in the version's summary."""

    worst_pair_fraction = serializers.FloatField(
        help_text="the lowest max-flow between two leaves of a plane, over the links as built, divided by a leaf's "
                  "downlinks, capped at 1 (1.0 for a correct 1:1 fabric, 0.333 for 3:1)")
    as_stated = serializers.BooleanField(help_text="whether the fabric delivers the oversubscription it states")
    stated_fraction = serializers.FloatField(help_text="min(1, leaf uplinks / leaf downlinks)")
    worst_pair_links = serializers.IntegerField(help_text="that max-flow in links")
    leaf_uplinks = serializers.IntegerField()
    leaf_downlinks = serializers.IntegerField()
    worst_pair = serializers.ListField(child=serializers.CharField(), allow_null=True,
                                       help_text="the names of the two leaves of the worst pair")
    leaf_pairs = serializers.IntegerField(help_text="leaf pairs the proof covers, all planes")


class VersionSerializer(serializers.ModelSerializer):
    design = serializers.IntegerField(source="design_id", read_only=True)
    design_name = serializers.CharField(source="design.name", read_only=True)
    project = serializers.IntegerField(source="design.project_id", read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)
    inputs = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()
    job = serializers.SerializerMethodField()
    wiring = serializers.SerializerMethodField(
        help_text="The wiring proof of the generated fabric; null when not computed (not generated yet, or "
                  "generated before the proof existed).")
    fabric = serializers.ChoiceField(
        choices=Fabric.choices, read_only=True,
        help_text="The leaf switch's fabric, as frozen in the spec. An InfiniBand version has no RoCE settings, "
                  "configs or ECMP traffic analysis (those endpoints answer 409 {\"fabric\": [...]}) and no p2p "
                  "/31s, loopbacks or ASNs: the subnet manager routes it; hosts get IPoIB addresses.",
    )

    class Meta:
        model = DesignVersion
        fields = ["id", "design", "design_name", "project", "number", "status", "fabric", "inputs", "summary",
                  "totals", "wiring", "job", "created_by", "created_at", "generated_at"]
        read_only_fields = fields

    @extend_schema_field(WiringSerializer(allow_null=True))
    def get_wiring(self, version):
        wiring = (version.summary or {}).get("wiring")
        if not isinstance(wiring, dict) or not wiring_verdict(version.summary)["computed"]:
            return None
        return WiringSerializer(wiring).data

    @extend_schema_field(VersionInputsSerializer)
    def get_inputs(self, version):
        return VersionInputsSerializer(version).data

    @extend_schema_field(VersionTotalsSerializer)
    def get_totals(self, version):
        return VersionTotalsSerializer(version).data

    @extend_schema_field(JobSerializer(allow_null=True))
    def get_job(self, version):
        job = version.jobs.order_by("-created_at", "-pk").first()
        return JobSerializer(job).data if job is not None else None


class VersionListSerializer(VersionSerializer):
    class Meta(VersionSerializer.Meta):
        fields = ["id", "design", "design_name", "project", "number", "status", "inputs", "totals", "created_by",
                  "created_at", "generated_at"]
        read_only_fields = fields


class DeviceSerializer(serializers.ModelSerializer):
    class Meta:
        model = DeviceRecord
        fields = ["id", "index", "name", "role", "sku", "model", "ports", "plane", "pod", "su", "rail", "group",
                  "row", "rack", "rack_unit", "asn", "loopback", "network"]
        read_only_fields = fields


class LinkSerializer(serializers.ModelSerializer):
    a_device_name = serializers.CharField(source="a_device.name", read_only=True)
    b_device_name = serializers.CharField(source="b_device.name", read_only=True)

    class Meta:
        model = LinkRecord
        fields = ["id", "index", "tier", "a_device", "a_device_name", "a_port", "b_device", "b_device_name", "b_port",
                  "plane", "rail", "pod", "medium", "medium_kind", "fiber", "a_sku", "b_sku", "cable_sku",
                  "length_m", "label_a", "label_b", "subnet", "a_ip", "b_ip", "network"]
        read_only_fields = fields


class PortSerializer(serializers.ModelSerializer):
    device_name = serializers.CharField(source="device.name", read_only=True)

    class Meta:
        model = PortRecord
        fields = ["id", "index", "device", "device_name", "number", "name", "speed_gbps", "link"]
        read_only_fields = fields


class BomLineSerializer(serializers.ModelSerializer):
    spares = serializers.IntegerField(
        read_only=True, allow_null=True, default=None,
        help_text="spares of this line's SKU ordered by the spares policy (their own spare line); null on a spare line")

    class Meta:
        model = BomLineRecord
        fields = ["index", "sku", "description", "category", "spare", "spares", "scope", "qty", "unit_price", "total",
                  "power_typical_w", "power_max_w", "in_server_typical_w", "in_server_max_w", "rack_units", "network",
                  "price_published", "power_published"]
        read_only_fields = fields
        extra_kwargs = {
            "price_published": {"help_text": "false: the part has no list price; its 0 is not a price and the "
                                             "totals (price_missing) leave it out"},
            "power_published": {"help_text": "false: the vendor publishes no power figure; its 0 W is not a value "
                                             "and the totals (power_missing) leave it out"},
            "network": {"help_text": 'the BOM section: "backend", "frontend", "storage" or "oob"'},
            "spare": {"help_text": "a spare line: stock priced like its base line, no power, no rack units"},
            "scope": {"help_text": 'whose power: "network", "in-server", "both", "spare"; "" before the split'},
        }


class ExchangeRateUsedSerializer(serializers.Serializer):
    """A rate the version's prices were converted with: 1 `from` = `rate` `to`."""

    # "from" is a keyword; the field is declared under it below.
    to = serializers.CharField()
    rate = serializers.DecimalField(max_digits=18, decimal_places=8, coerce_to_string=True)
    example = serializers.BooleanField(help_text="The rate was a catalog example, not the day's rate.")

    def get_fields(self):
        fields = super().get_fields()
        fields = {"from": serializers.CharField(), **fields}
        return fields


class BomTotalsSerializer(serializers.Serializer):
    lines = serializers.IntegerField()
    subtotal = serializers.DecimalField(max_digits=16, decimal_places=2)
    discount_pct = serializers.DecimalField(max_digits=5, decimal_places=2)
    discount = serializers.DecimalField(max_digits=16, decimal_places=2)
    total = serializers.DecimalField(max_digits=16, decimal_places=2)
    currency = serializers.CharField()
    exchange_rates = ExchangeRateUsedSerializer(many=True)
    power_typical_w = serializers.FloatField(help_text="the network's (before the scope split: all)")
    power_max_w = serializers.FloatField()
    in_server_typical_w = serializers.FloatField(allow_null=True, help_text="null: not computed")
    in_server_max_w = serializers.FloatField(allow_null=True)
    rack_units = serializers.IntegerField()
    spares_subtotal = serializers.DecimalField(max_digits=16, decimal_places=2, allow_null=True,
                                               help_text="included in subtotal and total; null: before spares")
    total_includes_spares = serializers.BooleanField()
    price_missing = serializers.ListField(child=serializers.CharField(), help_text=(
        "SKUs without a list price: subtotal and total leave them out and are lower bounds"))
    power_missing = serializers.ListField(child=serializers.CharField(), help_text=(
        "SKUs without a published power figure: the power totals leave them out and are lower bounds"))


class BomSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.CharField()
    lines = BomLineSerializer(many=True)
    totals = BomTotalsSerializer()


class EstimateSerializer(serializers.Serializer):
    feasible = serializers.BooleanField()
    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    size = serializers.JSONField(allow_null=True, help_text="the engine's sizing: tiers, counts, max GPUs and "
                                                            "estimated_cost, the total a generated version quotes")
    alternatives = serializers.ListField(child=serializers.JSONField())
