"""The Performance page of a version (namespace "performance", at /designs/performance/).

GET: the form (a preset and its parallelism) and the newest run (or ?run=<id>): progress while its
job runs (polled through the API), then charts and tables. POST: a valid form queues a run and
goes to it; bad input re-renders the form with each message on its field and creates nothing.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views import View

from apps.designs.views.common import project_version
from apps.designs.views.version import VersionPageMixin

from .forms import PerformanceForm
from .presentation import run_context
from .selectors import performance_run_get, performance_run_latest, performance_run_list
from .services import performance_run_request


class PerformanceView(VersionPageMixin, View):
    """The page sits under the design's tab bar (header and nav panels) like the version's other pages."""

    template_name = "performance/version.html"
    panel_slots = ("header", "nav")

    def get(self, request, project_pk, version_pk):
        version = project_version(project=self.project, pk=version_pk)
        run = None
        if request.GET.get("run", "").isdigit():
            run = performance_run_get(version=version, pk=int(request.GET["run"]))
        run = run or performance_run_latest(version=version)
        initial = dict(run.workload) if run else {"model": "llama3-70b"}
        return self._render(version, PerformanceForm(initial=initial, tiers=_tiers(version)), run)

    def post(self, request, project_pk, version_pk):
        version = project_version(project=self.project, pk=version_pk)
        form = PerformanceForm(request.POST, tiers=_tiers(version))
        if form.is_valid():
            try:
                run = performance_run_request(version=version, user=request.user, workload=form.workload(),
                                              alternatives=form.cleaned_data["alternatives"])
            except ValidationError as exc:
                for name, messages in exc.message_dict.items():
                    form.add_error(name if name in form.fields else None, messages)
            else:
                url = reverse("performance:version", kwargs={"project_pk": self.project.pk, "version_pk": version.pk})
                return redirect(f"{url}?run={run.pk}")
        return self._render(version, form, None)  # re-rendered with its field messages, as the other forms

    def _render(self, version, form, run, status=200):
        return render(self.request, self.template_name, {
            **self.version_context(version), "form": form,
            "run": run, "runs": performance_run_list(version=version)[:10],
            **(run_context(run) if run else {"job": None}),
        }, status=status)


def _tiers(version) -> int | None:
    """The generated fabric's tiers (a 2-tier design has no core switch to fail)."""
    tiers = (version.summary or {}).get("tiers")
    return int(tiers) if isinstance(tiers, int) else None
