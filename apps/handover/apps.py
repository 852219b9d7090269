from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HandoverConfig(AppConfig):
    name = "apps.handover"
    label = "handover"
    verbose_name = _("Handover and as-built check")

    def ready(self) -> None:
        # Designs' and projects' hooks: the design-page panels and the project's install progress.
        from .panels import handover_panels_register

        handover_panels_register()
