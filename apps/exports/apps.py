from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExportsConfig(AppConfig):
    name = "apps.exports"
    label = "exports"
    verbose_name = _("Exports")

    def ready(self) -> None:
        # Designs' hooks (the design-page panel; the built-in workbook sheets, registered when
        # excel.py is imported) and the Celery task.
        from . import excel, tasks  # noqa: F401
        from .network_sheets import network_sheets_register
        from .panels import exports_panels_register

        exports_panels_register()
        network_sheets_register()
