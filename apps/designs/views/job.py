"""The progress page of a generation job.

It shows the job as it is when the page loads and, while the job is active, polls GET
/api/jobs/{id}/ (static/js/job.js): the bar's width is the job's percent and the stage is shown
in the user's language (the API's stage_label). A succeeded job turns into its design page; a
failed or lost one shows why (in the reader's language when the engine's codes were kept), the
field errors, and a link back to the form prefilled with the inputs. Works the same whether a
worker runs the job later or it already ran inside the request (eager tasks).
"""
from __future__ import annotations

from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from apps.projects.views import ProjectScopedViewMixin

from ..forms import DesignCreateForm
from ..job_text import job_error, job_error_fields, job_stage_label
from ..models import Job
from .common import project_job


def field_labels() -> dict[str, str]:
    """Input names (as errors name them) -> the form's labels, for a failed job's field errors."""
    form_fields = DesignCreateForm.base_fields
    labels = {name: str(field.label) for name, field in form_fields.items()}
    for name, field in form_fields.items():
        if name.startswith("layout_hall_zones_"):
            labels["layout.hall.zones." + name.removeprefix("layout_hall_zones_")] = str(field.label)
        elif name.startswith("layout_hall_"):
            labels["layout.hall." + name.removeprefix("layout_hall_")] = str(field.label)
        elif name.startswith(("layout_", "pools_")):
            labels[name.replace("_", ".", 1)] = str(field.label)
    labels["non_field_errors"] = _("Design")
    return labels


class JobDetailView(ProjectScopedViewMixin, View):
    template_name = "designs/job_detail.html"

    def get(self, request, project_pk, job_pk):
        job = project_job(user=request.user, project=self.project, pk=job_pk)
        version = job.version
        if job.status == Job.Status.SUCCEEDED and version is not None and version.is_ready:
            # A finished job's page is its version's page (a bookmark or a shared link lands there).
            return redirect("designs:version-detail", project_pk=self.project.pk, version_pk=version.pk)
        labels = field_labels()
        context = {
            "project": self.project,
            "job": job,
            "version": version,
            "design": version.design if version else None,
            "stage_label": job_stage_label(job),
            "error": job_error(job),
            "field_errors": [(labels.get(name, name), messages) for name, messages in job_error_fields(job).items()],
            "poll_url": reverse("api-job-detail", kwargs={"pk": job.pk}),
            "version_url": reverse("designs:version-detail", kwargs={"project_pk": self.project.pk,
                                                                     "version_pk": version.pk}) if version else "",
            "retry_url": (reverse("designs:version-create", kwargs={"project_pk": self.project.pk,
                                                                    "design_pk": version.design_id})
                          + f"?from={version.pk}") if version else "",
            "active": job.status in Job.ACTIVE,
            "status_labels": {value: str(label) for value, label in Job.Status.choices},
            "field_label_map": labels,
        }
        return render(request, self.template_name, context)
