"""The explorer page: the request and the bar, then every feasible fabric on a chart and in a table.

GET without inputs shows the form (prefilled from the design's latest version with ?design=<id>, else the
first server); GET with inputs (the form submits by GET, so a result is a link to share) explores and
shows the candidates, or the form's field errors (HTTP 200, nothing run). "Generate this one" POSTs the
candidate's inputs to ExplorerGenerateView, which creates the version (or design) and goes to its job.
"""
from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View

from apps.catalog.selectors import server_list
from apps.designs.selectors import version_list_for_project
from apps.designs.views.common import project_design
from apps.projects.views import ProjectScopedViewMixin

from .forms import ExploreForm, GenerateForm, form_add_service_errors
from .services import explorer_generate, explorer_run


class ExplorerMixin(ProjectScopedViewMixin):
    design = None

    def load_design(self, value) -> None:
        if value not in (None, ""):
            self.design = project_design(project=self.project, pk=value if str(value).isdigit() else -1)


class ExplorerView(ExplorerMixin, View):
    template_name = "explorer/explorer.html"

    def get(self, request, project_pk):
        self.load_design(request.GET.get("design"))
        result = None
        if "gpus" in request.GET:
            form = ExploreForm(request.GET)
            if form.is_valid():
                try:
                    result = explorer_run(project=self.project, data=form.service_data(), design=self.design)
                except ValidationError as exc:
                    form_add_service_errors(form, exc)
        else:
            form = ExploreForm(initial=self._initial())
        return render(request, self.template_name, {
            "project": self.project, "design": self.design, "form": form, "result": result,
            "generate_data": {"gpus": form.cleaned_data.get("gpus"), "server": form.cleaned_data["server"].pk}
            if result is not None else None,
        })

    def _initial(self) -> dict:
        """The request the explorer starts from: the design's latest version, else the project's most recently
        changed version; the catalog's first server at 1,024 GPUs only for a project with no version yet."""
        if self.design is not None:
            latest = self.design.versions.order_by("-number").first()
        else:
            latest = version_list_for_project(project=self.project).select_related("leaf_switch").order_by(
                "-created_at", "-pk").first()
        if latest is not None:
            ratio = f"{float(latest.oversubscription or 1):g}"
            oversubscriptions = [ratio] if ratio in dict(ExploreForm.base_fields["oversubscriptions"].choices) \
                else ["1"]
            return {"gpus": latest.gpus, "server": latest.server_id, "fabric": latest.leaf_switch.fabric,
                    "oversubscriptions": oversubscriptions}
        server = server_list(active_only=True).first()
        return {"gpus": 1024, "server": server.pk if server is not None else None, "oversubscriptions": ["1"]}


class ExplorerGenerateView(ExplorerMixin, View):
    def post(self, request, project_pk):
        self.load_design(request.POST.get("design"))
        form = GenerateForm(request.POST)
        back = request.POST.get("back", "")
        if form.is_valid():
            data = {k: v for k, v in form.cleaned_data.items() if k != "name"}
            try:
                job = explorer_generate(project=self.project, user=request.user, data=data, design=self.design,
                                        name=form.cleaned_data.get("name", ""))
            except ValidationError as exc:
                errors = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
                for name, texts in errors.items():
                    messages.error(request, f"{name}: {' '.join(texts)}" if name and name != "__all__"
                                   else " ".join(texts))
            else:
                return redirect("designs:job-detail", project_pk=self.project.pk, job_pk=job.pk)
        else:
            messages.error(request, _("This candidate's inputs are incomplete; explore again."))
        if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                    require_https=request.is_secure()):
            return redirect(back)
        return redirect("explorer:explorer", project_pk=self.project.pk)
