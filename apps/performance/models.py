"""A run of the training-job performance model on a design version.

Rules:
- A run belongs to one version and one designs Job (kind "performance"): the job carries status,
  stage and percent for the progress bar; the run keeps the workload as asked, the result
  (apps.engine.simulation.SimulationResult.to_dict()) and the alternatives' rows.
- Read-only once finished; a failed run keeps no result (the job says why).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.designs.models import DesignVersion, Job

from .text import model_name


class PerformanceRun(models.Model):
    version = models.ForeignKey(DesignVersion, on_delete=models.CASCADE, related_name="performance_runs")
    job = models.OneToOneField(Job, on_delete=models.CASCADE, related_name="performance_run")
    workload = models.JSONField(_("workload"), default=dict)
    with_alternatives = models.BooleanField(_("also on the alternatives"), default=False)
    result = models.JSONField(_("result"), default=dict, blank=True)
    alternatives = models.JSONField(_("alternatives"), default=list, blank=True)
    seconds = models.FloatField(_("seconds"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("performance run")
        verbose_name_plural = _("performance runs")

    def __str__(self) -> str:
        return f"Performance run #{self.pk} of {self.version}"

    @property
    def subject(self) -> str:
        """What was run: the model's published name (not its key) or the collective."""
        return model_name(self.workload)
