from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "apps.analysis"
    label = "analysis"
    verbose_name = _("RoCE and traffic analysis")

    def ready(self) -> None:
        # Designs' hooks (generation steps, design-page panels, workbook sheets) and the Celery task.
        from apps.designs.generation import generation_step_register

        from . import tasks  # noqa: F401
        from .panels import analysis_panels_register
        from .services import ANALYSIS_GENERATION_STEP
        from .sheets import analysis_sheets_register

        generation_step_register(ANALYSIS_GENERATION_STEP)
        analysis_panels_register()
        analysis_sheets_register()
