"""What this app adds to designs' pages through designs' hooks (designs never imports this app).

- apps.designs.form_initial: /designs/projects/<id>/new/?template=<slug> opens the new-design form
  filled in from the template, with a note naming its source and what it leaves out.
- apps.designs.panels: a "Save as template" button in the design page's header, for staff only.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from apps.designs.form_initial import FormInitial, form_initial_provider_register
from apps.designs.panels import DesignPanel, design_panel_register

from .selectors import design_template_find
from .services import template_form_initial


def template_form_initial_provider(request, project) -> FormInitial | None:
    slug = request.GET.get("template")
    if not slug:
        return None
    template = design_template_find(slug=slug)
    if template is None:
        return FormInitial(notes=(_("There is no design template “%(slug)s”: the form starts empty.")
                                  % {"slug": str(slug)[:80]},))
    values, errors = template_form_initial(template=template)
    notes = [_("Started from the template “%(name)s”.") % {"name": template.display_name}]
    if template.reference_title:
        notes[0] += " " + _("Source: %(reference)s.") % {"reference": template.reference_title}
    if template.display_leaves_out:
        notes.append(_("What it leaves out: %(text)s") % {"text": template.display_leaves_out})
    for messages in errors.values():
        notes.extend(messages)
    return FormInitial(values=values, notes=tuple(notes))


def _save_as_template_context(request, version) -> dict:
    return {"can_save_template": bool(getattr(request.user, "is_staff", False))}


def design_templates_hooks_register() -> None:
    form_initial_provider_register(key="design_templates", provider=template_form_initial_provider)
    design_panel_register(DesignPanel(
        key="save-as-template", template_name="design_templates/_save_as_template_button.html", slot="header",
        get_context=_save_as_template_context, order=90,
    ))
