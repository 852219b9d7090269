import copy

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.text import slugify
from django.utils.translation import gettext as _
from rest_framework import serializers

from fabricweb.api import AsciiNumbersMixin, SlugRelatedField

from ..models import (Cable, ExchangeRate, Fabric, FiberCord, Manufacturer, NicModel, PatchPanel, ServerModel,
                      SwitchModel, Transceiver)

ITEM_FIELDS = ["id", "sku", "manufacturer", "model", "description"]
PRICE_FIELDS = ["source", "list_price", "currency", "price_is_example", "active", "created", "updated"]


class ModelCleanSerializer(AsciiNumbersMixin, serializers.ModelSerializer):
    """Runs the model's own clean() so the API refuses exactly what the admin and importers refuse."""

    def validate(self, attrs):
        attrs = super().validate(attrs)
        candidate = copy.copy(self.instance) if self.instance is not None else self.Meta.model()
        for name, value in attrs.items():
            setattr(candidate, name, value)
        try:
            candidate.clean()
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.message_dict) from None
        return attrs


class ManufacturerSerializer(ModelCleanSerializer):
    class Meta:
        model = Manufacturer
        fields = ["id", "name", "slug", "created", "updated"]
        read_only_fields = ["created", "updated"]
        extra_kwargs = {"slug": {"required": False}}

    def validate(self, attrs):
        name = attrs.get("name", getattr(self.instance, "name", ""))
        if not attrs.get("slug") and self.instance is None:
            slug = slugify(name)
            if not slug:
                raise serializers.ValidationError({"slug": [_("Give a slug (letters, digits, hyphens).")]})
            if Manufacturer.objects.filter(slug=slug).exists():
                raise serializers.ValidationError({"slug": [_("Slug %(slug)s is taken; give another.") % {"slug": slug}]})
            attrs["slug"] = slug
        return super().validate(attrs)  # the model's clean(): control characters


class CatalogItemSerializer(ModelCleanSerializer):
    manufacturer = SlugRelatedField(slug_field="name", queryset=Manufacturer.objects.all())


class SwitchModelSerializer(CatalogItemSerializer):
    breakouts = serializers.ListField(
        child=serializers.CharField(max_length=16), allow_empty=False,
        help_text=_('Breakout modes such as "1x800G", "2x400G"; the first is the native mode.'),
    )
    logical_ports = serializers.DictField(
        child=serializers.IntegerField(), read_only=True,
        help_text=_("Logical ports per breakout mode, e.g. {\"2x400G\": 128}."),
    )
    native_breakout = serializers.CharField(read_only=True)
    uplink_breakouts = serializers.ListField(
        child=serializers.CharField(max_length=16), required=False,
        help_text=_('Modes of the uplink cages, e.g. ["1x100G", "4x25G"]; empty: they run whole.'),
    )

    class Meta:
        model = SwitchModel
        fields = ITEM_FIELDS + [
            "switch_class", "fabric", "asic", "asic_tbps", "cages", "cage_form_factor", "cage_gbps", "breakouts",
            "native_breakout", "logical_ports", "uplink_cages", "uplink_form_factor", "uplink_gbps",
            "uplink_breakouts", "rack_units", "power_typical_w", "power_max_w", "buffer_mb",
        ] + PRICE_FIELDS


class NicModelSerializer(CatalogItemSerializer):
    breakouts = serializers.ListField(
        child=serializers.CharField(max_length=16), required=False,
        help_text=_('The published ways to split one port, e.g. ["1x800G", "2x400G"]; empty: the port runs whole.'),
    )
    splits = serializers.ListField(child=serializers.IntegerField(), read_only=True,
                                   help_text=_("Parts one port can be split into, e.g. [1, 2]."))

    class Meta:
        model = NicModel
        fields = ITEM_FIELDS + ["ports", "port_gbps", "form_factor", "host_interface", "power_w", "breakouts",
                                "splits"] + PRICE_FIELDS


class ServerModelSerializer(CatalogItemSerializer):
    default_nic = SlugRelatedField(
        slug_field="sku", queryset=NicModel.objects.all(), allow_null=True, required=False,
        help_text=_("SKU of the NIC the server ships with."),
    )

    class Meta:
        model = ServerModel
        fields = ITEM_FIELDS + [
            "gpus", "gpu_model", "scale_up", "scale_up_domain_gpus", "scale_up_kind", "scale_up_gb_s_per_gpu",
            "scale_up_racks", "scale_up_switch_trays", "scale_up_switch_tray_power_w", "scale_up_rack_power_w",
            "backend_ports", "backend_gbps", "default_nic",
            "frontend_ports", "frontend_gbps", "rack_units", "power_w", "backend_nics_built_in",
            "backend_ports_per_cage",
        ] + PRICE_FIELDS


class QualifiedPartSerializer(CatalogItemSerializer):
    fabrics = serializers.ListField(
        child=serializers.ChoiceField(choices=Fabric.choices), allow_empty=False,
        help_text=_('The fabrics the part is qualified for: "ethernet", "infiniband" or both.'),
    )


class CompatibleVendorsMixin(serializers.Serializer):
    compatible_vendors = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False,
        help_text=_("Switch vendors (manufacturer names) the part is declared compatible with besides its own."),
    )


class TransceiverSerializer(CompatibleVendorsMixin, QualifiedPartSerializer):
    class Meta:
        model = Transceiver
        fields = ITEM_FIELDS + [
            "form_factor", "gbps", "port_gbps", "ports", "media", "fiber", "connector", "reach_m", "power_w",
            "flat_top", "fabrics", "compatible_vendors",
        ] + PRICE_FIELDS


class CableSerializer(CompatibleVendorsMixin, QualifiedPartSerializer):
    class Meta:
        model = Cable
        fields = ITEM_FIELDS + [
            "media", "form_factor_a", "form_factor_b", "gbps", "leg_gbps", "legs", "length_m", "power_w", "fabrics",
            "compatible_vendors",
        ] + PRICE_FIELDS


class FiberCordSerializer(QualifiedPartSerializer):
    class Meta:
        model = FiberCord
        fields = ITEM_FIELDS + ["fiber", "connector", "length_m", "fabrics"] + PRICE_FIELDS


class PatchPanelSerializer(CatalogItemSerializer):
    fibers = serializers.IntegerField(read_only=True, help_text=_("Fibres the panel terminates (ports x fibres per "
                                                                  "connector)."))

    class Meta:
        model = PatchPanel
        fields = ITEM_FIELDS + ["ports", "connector", "fiber", "fibers", "rack_units"] + PRICE_FIELDS


class CatalogImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text=_("An .xlsx workbook as exported by GET /api/catalog/export.xlsx."))


class NetboxImportSerializer(serializers.Serializer):
    file = serializers.ListField(
        child=serializers.FileField(), required=False, allow_empty=True,
        help_text=_("One or more NetBox device-type YAML files (each may hold several documents)."),
    )
    yaml = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False,
                                 help_text=_("NetBox device-type YAML as text, instead of files."))
    confirm = serializers.CharField(
        required=False, allow_blank=True, max_length=64,
        help_text=_("The digest of the preview the same request returned without it: the import is saved only "
                    "when the plan is still that one."),
    )
    skip_refused = serializers.BooleanField(
        required=False, default=False,
        help_text=_("With confirm: import the good files and skip the refused ones (otherwise nothing is saved "
                    "while a file is refused)."),
    )

    def validate(self, attrs):
        if not attrs.get("file") and not (attrs.get("yaml") or "").strip():
            raise serializers.ValidationError({"file": [_("Upload a YAML file or paste YAML text.")]})
        return attrs


class ImportResultSerializer(serializers.Serializer):
    created = serializers.DictField(child=serializers.IntegerField())
    updated = serializers.DictField(child=serializers.IntegerField())
    unchanged = serializers.DictField(child=serializers.IntegerField())
    total_created = serializers.IntegerField()
    total_updated = serializers.IntegerField()
    warnings = serializers.ListField(child=serializers.CharField())


class NetboxImportResultSerializer(ImportResultSerializer):
    switches = serializers.ListField(child=serializers.CharField(), help_text=_("SKUs of the imported switches."))
    skipped_files = serializers.ListField(child=serializers.CharField(),
                                          help_text=_("Refused files left out because skip_refused was set."))


class ImportIssueSerializer(serializers.Serializer):
    sheet = serializers.CharField(help_text=_("Sheet name (Excel) or file name (YAML)."))
    row = serializers.IntegerField(allow_null=True, help_text=_("Sheet row, or document number in a YAML file."))
    column = serializers.CharField(help_text=_("Column (field) name, or YAML key path."))
    cell = serializers.CharField(help_text=_("Cell reference such as L5, when known."))
    message = serializers.CharField()


class ImportErrorSerializer(serializers.Serializer):
    errors = ImportIssueSerializer(many=True)


class NetboxFieldChangeSerializer(serializers.Serializer):
    field = serializers.CharField()
    label = serializers.CharField()
    old = serializers.CharField(help_text=_("The catalog's value (- when empty or new)."))
    new = serializers.CharField(help_text=_("The value the import would save."))


class NetboxSwitchPlanSerializer(serializers.Serializer):
    document = serializers.IntegerField(help_text=_("Document number in the file."))
    switch = serializers.CharField()
    action = serializers.ChoiceField(choices=["create", "update", "unchanged", "refused"])
    sku = serializers.CharField()
    matched_by = serializers.CharField(help_text=_("How the catalog switch was found: part_number, slug, model, "
                                                   "or empty for a new switch."))
    changes = NetboxFieldChangeSerializer(many=True)
    warnings = serializers.ListField(child=serializers.CharField())
    errors = ImportIssueSerializer(many=True)


class NetboxFilePlanSerializer(serializers.Serializer):
    file = serializers.CharField()
    status = serializers.ChoiceField(choices=["ok", "refused"])
    errors = ImportIssueSerializer(many=True)
    switches = NetboxSwitchPlanSerializer(many=True)


class NetboxImportPlanSerializer(serializers.Serializer):
    digest = serializers.CharField(help_text=_("Send it back as confirm to save this plan."))
    files = NetboxFilePlanSerializer(many=True)
    refused_files = serializers.IntegerField()
    to_create = serializers.IntegerField()
    to_update = serializers.IntegerField()
    unchanged = serializers.IntegerField()


class NetboxPlanChangedSerializer(serializers.Serializer):
    detail = serializers.CharField()
    plan = NetboxImportPlanSerializer()


class ExchangeRateSerializer(ModelCleanSerializer):
    """The model's clean() checks the codes, a positive rate and one row per currency pair."""

    class Meta:
        model = ExchangeRate
        fields = ["id", "from_currency", "to_currency", "rate", "rate_is_example", "updated"]
        read_only_fields = ["updated"]
        validators = []  # the pair's uniqueness is checked by clean(), on to_currency, both ways round
