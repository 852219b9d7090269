from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExplorerConfig(AppConfig):
    name = "apps.explorer"
    label = "explorer"
    verbose_name = _("Design-space explorer")

    def ready(self) -> None:
        # Links from the project page and the design page (designs' and projects' panel hooks).
        from .panels import explorer_panels_register

        explorer_panels_register()
