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
        from .kinds import ExportKind, export_kind_register
        from .models import ExportFile
        from .netbox import version_netbox_write
        from .network_sheets import network_sheets_register
        from .panels import exports_panels_register
        from .selectors import XLSX_CONTENT_TYPE, ZIP_CONTENT_TYPE

        export_kind_register(ExportKind(
            code=ExportFile.Kind.XLSX.value, label=ExportFile.Kind.XLSX.label, extension="xlsx",
            content_type=XLSX_CONTENT_TYPE, writer=excel.version_workbook_write, order=10,
        ))
        export_kind_register(ExportKind(
            code=ExportFile.Kind.NETBOX.value, label=ExportFile.Kind.NETBOX.label, extension="zip",
            content_type=ZIP_CONTENT_TYPE, writer=version_netbox_write, name_suffix="-netbox", order=20,
        ))
        exports_panels_register()
        network_sheets_register()
