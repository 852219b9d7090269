"""What the RoCE review and the traffic analysis of a version leave behind.

Rules:
- Generation writes one RoceReview and one TrafficAnalysis (source "generation", both
  collectives, default sampling) in the same transaction as the version's rows, so a ready
  version has both or, if it was generated before they existed, neither.
- A RoceReview freezes the settings in full (defaults filled in) next to the findings and the
  headroom rows computed from them; configs are generated from those frozen settings.
- More traffic analyses can be run on demand (another seed, sample size, collective, or the switch
  and NIC latencies of the latency term); each is its own row with its own status, the job-like
  source of truth for a run done by a worker. Rows stored before a parameter existed hold None
  there, and their reports lack the figures it feeds: pages and the API say "not computed".
- Both are read-only once written; a computation that failed is stored with its error (the
  design itself is still generated: the analysis is advice, not part of the fabric).
- The tables keep the names the designs app gave them (designs_rocereview,
  designs_trafficanalysis): the models moved to this app without moving a row.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.designs.models.design import DesignVersion


class RoceReview(models.Model):
    version = models.OneToOneField(DesignVersion, on_delete=models.CASCADE, related_name="roce_review")
    settings = models.JSONField(_("RoCE settings in force"), default=dict)
    findings = models.JSONField(_("checklist findings"), default=list)
    headroom = models.JSONField(_("PFC headroom"), default=list)
    # device classes present and link classes (name, tier, speed, longest cable) the findings refer to
    context = models.JSONField(_("fabric context"), default=dict)
    errors = models.PositiveIntegerField(_("errors"), default=0)
    warnings = models.PositiveIntegerField(_("warnings"), default=0)
    error = models.TextField(_("why the review could not be made"), blank=True)
    seconds = models.FloatField(_("seconds"), default=0.0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        db_table = "designs_rocereview"  # created by the designs app, which held this model before
        verbose_name = _("RoCE review")
        verbose_name_plural = _("RoCE reviews")

    def __str__(self) -> str:
        return f"RoCE review of {self.version}"


class TrafficAnalysis(models.Model):
    class Source(models.TextChoices):
        GENERATION = "generation", _("generation")
        ON_DEMAND = "on-demand", _("on demand")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        SUCCEEDED = "succeeded", _("succeeded")
        FAILED = "failed", _("failed")

    class Pattern(models.TextChoices):
        BOTH = "both", _("All-Reduce and All-to-All")
        ALL_REDUCE = "all-reduce", _("Ring All-Reduce")
        ALL_TO_ALL = "all-to-all", _("All-to-All")

    FINISHED = (Status.SUCCEEDED, Status.FAILED)

    version = models.ForeignKey(DesignVersion, on_delete=models.CASCADE, related_name="traffic_analyses")
    source = models.CharField(_("source"), max_length=16, choices=Source.choices, default=Source.ON_DEMAND)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.QUEUED)
    pattern = models.CharField(_("collective"), max_length=12, choices=Pattern.choices, default=Pattern.BOTH)
    max_flows = models.PositiveIntegerField(_("max flows"))
    seed = models.BigIntegerField(_("seed"), default=0)
    qps_per_connection = models.PositiveSmallIntegerField(_("queue pairs per connection"), default=1)
    message_bytes = models.BigIntegerField(_("message bytes"))
    # latency term parameters (apps.engine.traffic.latency); empty: NCCL's own per-step figure is used
    switch_latency_ns = models.PositiveIntegerField(_("switch port-to-port latency (ns)"), null=True, blank=True)
    nic_latency_ns = models.PositiveIntegerField(_("NIC latency (ns)"), null=True, blank=True)
    report = models.JSONField(_("report"), default=dict, blank=True)
    error = models.TextField(_("error"), blank=True)
    seconds = models.FloatField(_("seconds"), null=True, blank=True)
    celery_task_id = models.CharField(_("Celery task id"), max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        db_table = "designs_trafficanalysis"  # created by the designs app, which held this model before
        ordering = ["-created_at", "-id"]
        verbose_name = _("traffic analysis")
        verbose_name_plural = _("traffic analyses")
        indexes = [models.Index(fields=["version", "status"], name="designs_traffic_version_status")]

    def __str__(self) -> str:
        return f"Traffic analysis #{self.pk} of {self.version}"

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED
