from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PerformanceConfig(AppConfig):
    name = "apps.performance"
    label = "performance"
    verbose_name = _("Training-job performance")

    def ready(self) -> None:
        # Designs' hooks: the job kind's task, the design-page link and summary, the workbook sheet.
        from . import tasks  # noqa: F401  (registers the job kind with designs' job_task_register)
        from .panels import performance_panels_register
        from .sheets import performance_sheet_register

        performance_panels_register()
        performance_sheet_register()
