"""Template pages (namespace "design_templates", included at /templates/).

design_templates:template-list    /templates/                     every template, and the references not offered
design_templates:template-detail  /templates/<slug>/              source, what it leaves out, headline counts
design_templates:template-start   /templates/<slug>/start/?project=<id>   -> the project's new-design form, filled in
design_templates:template-save    /templates/save/projects/<project_pk>/versions/<version_pk>/   staff: save a version

Every page needs a signed-in user; a project or version the user is not a member of is 404, and
saving is refused to non-staff (403).
"""
from __future__ import annotations

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View

from apps.designs.views.common import project_version
from apps.projects.selectors import project_get_for_user, project_list_for_user
from apps.projects.views import ProjectScopedViewMixin

from .forms import TemplateSaveForm
from .selectors import design_template_get, design_template_list
from .services import design_template_counts, design_template_save, references_not_offered

COUNT_LABELS = (
    ("gpus", gettext_lazy("GPUs")), ("servers", gettext_lazy("Servers")), ("scale_units", gettext_lazy("Scale units")), ("planes", gettext_lazy("Planes")),
    ("tiers", gettext_lazy("Tiers")), ("racks", gettext_lazy("Rack-scale systems (racks)")),
    ("nvlink_switch_trays", gettext_lazy("NVLink switch trays")), ("leaf", gettext_lazy("Leaf switches")),
    ("spine", gettext_lazy("Spine switches")), ("core", gettext_lazy("Core switches")), ("switches", gettext_lazy("Switches in all")),
    ("server_leaf_links", gettext_lazy("Server-leaf links")), ("leaf_spine_links", gettext_lazy("Leaf-spine links")),
    ("spine_core_links", gettext_lazy("Spine-core links")),
)


class TemplateListView(LoginRequiredMixin, View):
    def get(self, request):
        return render(request, "design_templates/template_list.html", {
            "templates": design_template_list(),
            "not_offered": references_not_offered(language=get_language() or ""),
        })


class TemplateDetailView(LoginRequiredMixin, View):
    def get(self, request, slug):
        template = design_template_get(slug=slug)
        errors: list[str] = []
        try:
            counts = design_template_counts(template=template)
        except ValidationError as exc:
            counts = {}
            errors = [message for messages in exc.message_dict.values() for message in messages]
        published = template.published_counts or {}
        rows = [{"key": key, "label": label, "published": published.get(key), "ours": counts.get(key)}
                for key, label in COUNT_LABELS if key in published or (key in counts and counts[key])]
        return render(request, "design_templates/template_detail.html", {
            "template": template, "rows": rows, "errors": errors,
            "projects": project_list_for_user(user=request.user).order_by("name"),
        })


class TemplateStartView(LoginRequiredMixin, View):
    """The chosen project's new-design form, filled in from the template (apps.designs.form_initial)."""

    def get(self, request, slug):
        template = design_template_get(slug=slug)
        project = project_get_for_user(user=request.user, pk=request.GET.get("project"))
        url = reverse("designs:design-create", kwargs={"project_pk": project.pk})
        return redirect(f"{url}?{urlencode({'template': template.slug})}")


class TemplateSaveView(ProjectScopedViewMixin, View):
    """Staff save a design version's inputs as a template."""

    def _load(self, version_pk):
        if not self.request.user.is_staff:
            raise PermissionDenied(_("Only staff can save design templates."))
        self.version = project_version(project=self.project, pk=version_pk)

    def _render(self, form, status=200):
        return render(self.request, "design_templates/template_save.html",
                      {"form": form, "version": self.version, "design": self.version.design,
                       "project": self.project}, status=status)

    def get(self, request, project_pk, version_pk):
        self._load(version_pk)
        design = self.version.design
        return self._render(TemplateSaveForm(initial={"name": f"{design.name} v{self.version.number}"[:120],
                                                      "description": design.description}))

    def post(self, request, project_pk, version_pk):
        self._load(version_pk)
        form = TemplateSaveForm(request.POST)
        if form.is_valid():
            try:
                template = design_template_save(user=request.user, version=self.version, **form.cleaned_data)
            except ValidationError as exc:
                for field, messages in exc.message_dict.items():
                    form.add_error(field if field in form.fields else None, messages)
            else:
                return redirect("design_templates:template-detail", slug=template.slug)
        return self._render(form)
