"""Serializers of the RoCE review and traffic analyses (read-only shapes; writes go through services)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.analysis.models import TrafficAnalysis
from apps.analysis.services import MAX_MAX_FLOWS, MAX_MESSAGE_BYTES, MAX_SEED, MIN_MAX_FLOWS
from apps.analysis.text import RULE_TITLES, SEVERITY_LABELS, class_label, finding_text, link_class_label
from apps.engine.traffic import MAX_LATENCY_NS


@extend_schema_field({"type": "object", "additionalProperties": True,
                      "description": "RoCE settings as RoceSettings.to_dict: pfc_priority, roce_dscp, cnp_dscp, "
                                     "cnp_priority, trust, mtu, nic_mtu, roce_mtu, ecn_enabled, ecn (per Gbps: kmin, "
                                     "kmax KB, pmax %), dcqcn, pfc_watchdog, buffer, overrides (per device class)"})
class SettingsField(serializers.JSONField):
    pass


class FindingSerializer(serializers.Serializer):
    severity = serializers.CharField(help_text="error, warning or ok")
    severity_label = serializers.CharField()
    code = serializers.CharField(help_text="the rule: pfc_lossless, trust_mode, roce_dscp_mapping, ecn_thresholds, "
                                           "dcqcn, headroom, mtu, cnp_priority, pfc_watchdog")
    rule = serializers.CharField(help_text="the rule's title in the request's language")
    variant = serializers.CharField(help_text="which sentence of the rule ('' if unknown to this server)")
    device_class = serializers.CharField(help_text="nic, leaf, spine, core, or fabric for an ok line")
    device_class_label = serializers.CharField()
    message = serializers.CharField(help_text="in the request's language")
    fix = serializers.CharField(help_text="in the request's language; commands are left as they are")
    params = serializers.DictField(help_text="the numbers of the message")

    def to_representation(self, finding):
        text = finding_text(finding, self.context["review_context"])
        return {
            "severity": finding["severity"], "severity_label": str(SEVERITY_LABELS.get(finding["severity"], "")),
            "code": finding["code"], "rule": str(RULE_TITLES.get(finding["code"], finding["code"])),
            "variant": text.variant, "device_class": finding["device_class"],
            "device_class_label": class_label(finding["device_class"]), "message": text.message, "fix": text.fix,
            "params": finding.get("params") or {},
        }


class HeadroomSerializer(serializers.Serializer):
    device_class = serializers.CharField()
    link_class = serializers.CharField(help_text="server-leaf, leaf-spine or spine-core")
    link_class_label = serializers.SerializerMethodField()
    tier = serializers.IntegerField()
    gbps = serializers.IntegerField()
    links = serializers.IntegerField()
    longest_m = serializers.FloatField(help_text="longest cable of the link class (the profile is sized for it)")
    cable_m = serializers.IntegerField()
    needed = serializers.IntegerField(help_text="bytes of headroom the longest cable needs")
    configured = serializers.IntegerField(help_text="bytes configured (xoff): the override or the computed value")
    xon = serializers.IntegerField()
    xoff = serializers.IntegerField()
    size = serializers.IntegerField()
    overridden = serializers.BooleanField()
    profile = serializers.CharField(help_text="SONiC BUFFER_PROFILE name")
    ok = serializers.BooleanField()

    def get_link_class_label(self, row) -> str:
        return link_class_label(row["link_class"])


class RoceReviewSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    stored = serializers.BooleanField(help_text="false: computed now for a version generated before reviews")
    settings = SettingsField(help_text="every setting in force, defaults filled in")
    changes = SettingsField(help_text="the settings that differ from the defaults (the version's `roce` input)")
    defaults = SettingsField()
    counts = serializers.DictField(child=serializers.IntegerField(), help_text="findings per severity")
    findings = FindingSerializer(many=True)
    headroom = HeadroomSerializer(many=True)
    error = serializers.CharField(help_text="why no review could be made ('' normally)")
    configs_zip = serializers.CharField(help_text="URL of the zip of every device's config")
    device_config = serializers.CharField(help_text="URL template of one device's config ({device} = its name)")


class _AnalysisFields(serializers.ModelSerializer):
    # Plain strings (values listed) rather than enums: "status" and "source" enums exist elsewhere in the schema.
    source = serializers.CharField(read_only=True, help_text="generation or on-demand")
    status = serializers.CharField(read_only=True, help_text="queued, running, succeeded or failed")
    pattern = serializers.CharField(read_only=True, help_text="both, all-reduce or all-to-all")


class TrafficAnalysisSerializer(_AnalysisFields):
    report = serializers.JSONField(help_text="TrafficReport.to_dict(): patterns -> strategies (the headline placement, "
                                             "named by `placement`; `other_placements` holds the rest, e.g. the "
                                             "ring in plan order; `placement_seed` the scheduler order's seed) -> "
                                             "histogram, utilisation, collisions, effective bandwidth, hops, "
                                             "estimated_ms (bandwidth term), latency_steps, step_latency_us, "
                                             "latency_basis, latency_ms, total_ms. Reports stored before placements "
                                             "and the latency term lack those keys (not computed).")
    summary_rows = serializers.SerializerMethodField(
        help_text="one row per collective, placement and strategy, headline placement first: worst_over_mean, "
                  "p99_util and max_util lead; collision_share is null where flows_outnumber_links; "
                  "estimated_ms + latency_ms = total_ms (null: not computed)")
    hop_rows = serializers.SerializerMethodField(
        help_text="one row per collective, placement, strategy and hop; collision shares null where the hop's flows "
                  "outnumber its links")

    class Meta:
        model = TrafficAnalysis
        fields = ["id", "version", "source", "status", "pattern", "max_flows", "seed", "qps_per_connection",
                  "message_bytes", "switch_latency_ns", "nic_latency_ns", "seconds", "error", "created_at",
                  "finished_at", "report", "summary_rows", "hop_rows"]
        read_only_fields = fields

    def _report(self, analysis):
        from apps.engine.traffic import TrafficReport

        if not analysis.report:
            return None
        return TrafficReport.from_dict(analysis.report)

    @extend_schema_field({"type": "array", "items": {"type": "object", "additionalProperties": True}})
    def get_summary_rows(self, analysis):
        report = self._report(analysis)
        return report.summary_rows() if report else []

    @extend_schema_field({"type": "array", "items": {"type": "object", "additionalProperties": True}})
    def get_hop_rows(self, analysis):
        report = self._report(analysis)
        return report.hop_rows() if report else []


class TrafficAnalysisBriefSerializer(_AnalysisFields):
    class Meta:
        model = TrafficAnalysis
        fields = ["id", "source", "status", "pattern", "max_flows", "seed", "qps_per_connection",
                  "switch_latency_ns", "nic_latency_ns", "seconds", "error", "created_at"]
        read_only_fields = fields


class VersionTrafficSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    analysis = TrafficAnalysisSerializer(allow_null=True, help_text="the report shown by default, or null")
    analyses = TrafficAnalysisBriefSerializer(many=True, help_text="every analysis of the version, newest first")


class TrafficRequestSerializer(serializers.Serializer):
    """Documentation of the request; values are checked by the service (one set of messages)."""

    pattern = serializers.CharField(required=False, help_text="both (default), all-reduce or all-to-all")
    max_flows = serializers.IntegerField(required=False, help_text=f"{MIN_MAX_FLOWS:,} to {MAX_MAX_FLOWS:,}; "
                                                                   "flows above it are sampled (default 1,000,000)")
    seed = serializers.IntegerField(required=False, help_text=f"0 to {MAX_SEED}; same seed, same result")
    qps_per_connection = serializers.IntegerField(required=False, help_text="1 to 64 queue pairs per connection")
    message_bytes = serializers.IntegerField(required=False, help_text=f"1 to {MAX_MESSAGE_BYTES:,} (default 1 GiB)")
    switch_latency_ns = serializers.IntegerField(
        required=False, allow_null=True,
        help_text=f"0 to {MAX_LATENCY_NS:,}: switch port-to-port latency from the vendor's data sheet; with "
                  "nic_latency_ns the network step is computed from the paths, otherwise NCCL 2.30.7's figure "
                  "(14 us) is used")
    nic_latency_ns = serializers.IntegerField(required=False, allow_null=True,
                                              help_text=f"0 to {MAX_LATENCY_NS:,}: latency of one NIC end")
