"""The design form: a new design, or a new version of one (editing a design means a new version).

The page checks the inputs as they are typed (static/js/design_form.js posts the form to
DesignEstimateView about 300 ms after the last change): feasibility, tiers, switches per tier,
max GPUs, hops and the total the generated version will quote (engine.plan.size prices the fabric
as generating does), with field errors in place. Submitting validates again in the service; errors
re-render the form with HTTP 200 (Chromium logs a 4xx page load as a console error), success
creates the job and redirects to its progress page.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from apps.catalog.models import parse_breakout
from apps.catalog.selectors import server_list, switch_breakout_choices, switch_list
from apps.projects.views import ProjectScopedViewMixin

from ..form_initial import design_form_initial
from ..forms import DesignCreateForm, DesignInputsForm, form_add_service_errors, service_errors_by_field
from ..services.design import design_create, design_estimate, design_version_create
from .common import project_design, project_version

FORM_ERRORS = 200


def catalog_picker_data() -> dict[str, Any]:
    """What the form's script needs to follow the pickers: default NICs and each switch's breakouts."""
    return {
        "servers": {
            str(server.pk): {"default_nic": server.default_nic_id, "gbps": server.backend_gbps}
            for server in server_list(active_only=True)
        },
        "switches": {
            str(switch.pk): [[mode, label] for mode, label in switch_breakout_choices(switch=switch)]
            for switch in switch_list(active_only=True)
        },
    }


def _first_choices() -> dict[str, Any]:
    """A sensible start for an empty form: the first server, and a leaf switch that runs at its speed."""
    server = server_list(active_only=True).first()
    if server is None:
        return {}
    initial: dict[str, Any] = {"server": server.pk, "nic": server.default_nic_id}
    for switch in switch_list(active_only=True):
        if any(parse_breakout(mode)[1] == server.backend_gbps for mode in switch.breakouts or []):
            # The breakout stays "automatic" so that it follows the server chosen next.
            initial["leaf_switch"] = switch.pk
            return initial
    return initial


class DesignFormMixin(ProjectScopedViewMixin):
    template_name = "designs/design_form.html"
    design = None
    source_version = None
    form_notes: tuple[str, ...] = ()

    def render_form(self, form, status: int = 200) -> HttpResponse:
        context = {
            "project": self.project,
            "design": self.design,
            "source_version": self.source_version,
            "form": form,
            "catalog_data": catalog_picker_data(),
            "estimate_url": reverse("designs:design-estimate", kwargs={"project_pk": self.project.pk}),
            "cancel_url": self.cancel_url(),
            "form_notes": self.form_notes,
        }
        return render(self.request, self.template_name, context, status=status)

    def cancel_url(self) -> str:
        if self.source_version is not None:
            return reverse("designs:version-detail", kwargs={"project_pk": self.project.pk,
                                                             "version_pk": self.source_version.pk})
        return self.project.get_absolute_url()

    def created(self, job) -> HttpResponse:
        return redirect("designs:job-detail", project_pk=self.project.pk, job_pk=job.pk)

    def add_input_errors(self, form) -> None:
        """When a field the service never sees is wrong (say the name), still show every input's problem."""
        result = design_estimate(project=self.project, data=form.service_data())
        for name, messages in service_errors_by_field(result["errors"], form).items():
            if name not in form.errors:
                form.add_error(None if name == "__all__" else name, messages)


class DesignCreateView(DesignFormMixin, View):
    """GET the form (the first server and a leaf switch at its speed preselected); POST creates the design."""

    def _form(self, data=None) -> DesignCreateForm:
        initial = _first_choices()
        if data is None:
            # Other apps may fill the form in (a reference template, say): apps.designs.form_initial.
            provided = design_form_initial(request=self.request, project=self.project)
            initial.update(provided.values)
            self.form_notes = provided.notes
        return DesignCreateForm(data, project=self.project, initial=initial)

    def get(self, request, project_pk):
        return self.render_form(self._form())

    def post(self, request, project_pk):
        form = self._form(request.POST)
        if form.is_valid():
            try:
                job = design_create(
                    project=self.project, user=request.user, name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"], data=form.service_data(),
                )
            except ValidationError as exc:
                form_add_service_errors(form, exc)
            else:
                return self.created(job)
        else:
            self.add_input_errors(form)
        return self.render_form(form, status=FORM_ERRORS)


class VersionCreateView(DesignFormMixin, View):
    """A new version of a design, the form prefilled from ?from=<version id> (default: the latest)."""

    def _load(self, design_pk) -> None:
        self.design = project_design(project=self.project, pk=design_pk)
        source = str(self.request.GET.get("from") or self.request.POST.get("from") or "")
        versions = self.design.versions.order_by("-number")
        if source.isascii() and source.isdigit():  # not "²", a digit to isdigit() only
            self.source_version = project_version(project=self.project, pk=source)
            if self.source_version.design_id != self.design.pk:
                self.source_version = versions.first()
        else:
            self.source_version = versions.first()

    def _form(self, data=None) -> DesignInputsForm:
        initial = DesignInputsForm.initial_from_version(self.source_version) if self.source_version else {}
        return DesignInputsForm(data, project=self.project, initial=initial)

    def get(self, request, project_pk, design_pk):
        self._load(design_pk)
        return self.render_form(self._form())

    def post(self, request, project_pk, design_pk):
        self._load(design_pk)
        form = self._form(request.POST)
        if form.is_valid():
            try:
                job = design_version_create(design=self.design, user=request.user, data=form.service_data())
            except ValidationError as exc:
                form_add_service_errors(form, exc)
            else:
                return self.created(job)
        else:
            self.add_input_errors(form)
        return self.render_form(form, status=FORM_ERRORS)


class DesignEstimateView(ProjectScopedViewMixin, View):
    """POST the form as it stands; JSON with feasibility, field errors and the live panel's HTML.

    Always HTTP 200 for a member: problems with the inputs are in "errors" (form field -> messages).
    """

    http_method_names = ["post"]

    def post(self, request, project_pk):
        form = DesignInputsForm(request.POST, project=self.project)
        if form.is_valid():
            result = design_estimate(project=self.project, data=form.service_data())
            errors = service_errors_by_field(result["errors"], form)
        else:
            result = {"feasible": False, "size": None, "alternatives": []}
            errors = {name: [str(m) for m in messages] for name, messages in form.errors.items()}
        # A name typed on the create form is checked on submit (it needs no engine).
        errors.pop("name", None)
        size = result.get("size")
        alternatives = [
            dict(alt, switch_total=sum((alt.get("switches") or {}).values()))
            for alt in result.get("alternatives") or []
        ]
        labels = {name: str(field.label) for name, field in form.fields.items()}
        error_list = [
            {"label": labels.get(name, _("Design")), "messages": messages} for name, messages in errors.items()
        ]
        panel = render_to_string(
            "designs/_estimate.html",
            {"feasible": result["feasible"] and not errors, "size": size, "alternatives": alternatives,
             "errors": errors, "error_list": error_list,
             "links_total": sum((size.get("links") or {}).values()) if size else 0},
            request=request,
        )
        return JsonResponse({
            "feasible": bool(result["feasible"]) and not errors,
            "errors": errors,
            "size": result.get("size"),
            "alternatives": result.get("alternatives") or [],
            "panel_html": panel,
            "message": _("Feasible") if result["feasible"] and not errors else _("Not feasible yet"),
        })
