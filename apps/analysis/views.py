"""The "Change RoCE settings" page of a version: the settings form; a valid post is a new version.

GET shows the form prefilled with the version's settings in force. POST creates a new version of
the design from this version's inputs with the posted settings (design_version_create) and goes
to its generation job; bad values re-render the form (200) with each message on its input and
nothing created. Any project member may create versions, as on the design form. An InfiniBand
version has no RoCE settings: the page says so and a POST creates nothing.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from apps.designs.fabric_text import roce_not_applicable
from apps.designs.services.roce_input import roce_input_clean, roce_settings_from_stored
from apps.designs.views.common import project_version
from apps.designs.views.version import VersionPageMixin
from apps.engine.roce import RoceSettings
from apps.engine.spec import SpecError

from .forms import roce_form_build, roce_form_data, roce_form_settings
from .selectors import roce_review_get
from .services import roce_settings_version_create


def _settings_of(version) -> RoceSettings:
    """The settings the form starts from: those in force on the version (the defaults if unreadable)."""
    review = roce_review_get(version=version) if version.is_ready else None
    if review is not None and review.settings:
        return review.roce_settings
    try:
        return roce_settings_from_stored(version.roce)
    except SpecError:
        return RoceSettings()


class RoceSettingsView(VersionPageMixin, View):
    """The RoCE settings form under the design's own header and tab bar."""

    template_name = "designs/analysis/roce_settings.html"
    panel_slots = ("header", "nav")

    def get(self, request, project_pk, version_pk):
        version = project_version(project=self.project, pk=version_pk)
        if version.is_infiniband:
            return self._render(version, None)
        form = roce_form_build(settings=_settings_of(version))
        return self._render(version, form)

    def post(self, request, project_pk, version_pk):
        version = project_version(project=self.project, pk=version_pk)
        if version.is_infiniband:
            return self._render(version, None)
        data = roce_form_data(request.POST)
        roce = roce_form_settings(data)
        try:
            if roce_input_clean(roce) == (version.roce or {}, {}):
                raise ValidationError(_("These are the settings of v%(number)s already: change a value to create a "
                                        "new version.") % {"number": version.number})
            job = roce_settings_version_create(version=version, user=request.user, roce=roce)
        except ValidationError as exc:
            errors = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
            form = roce_form_build(settings=_settings_of(version), data=data, errors=errors)
            return self._render(version, form)
        return redirect("designs:job-detail", project_pk=self.project.pk, job_pk=job.pk)

    def _render(self, version, form):
        return render(self.request, self.template_name, {
            **self.version_context(version), "form": form, "tab": "roce",
            "not_applicable": roce_not_applicable() if version.is_infiniband else "",
        })
