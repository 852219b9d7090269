from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DesignTemplatesConfig(AppConfig):
    name = "apps.design_templates"
    label = "design_templates"
    verbose_name = _("Design templates")

    def ready(self) -> None:
        # "Start from this template" fills the new-design form (designs' form_initial hook), and staff
        # get "Save as template" on the design page (designs' panel hook).
        from .hooks import design_templates_hooks_register

        design_templates_hooks_register()
