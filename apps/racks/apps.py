from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RacksConfig(AppConfig):
    name = "apps.racks"
    label = "racks"
    verbose_name = _("Racks and data hall")

    def ready(self) -> None:
        # Designs' hooks: the generation step that stores the hall, the version's Racks tab, the
        # workbook's Racks sheet and the topology inspector's "its rack" link.
        from apps.designs.generation import generation_step_register

        from .panels import racks_panels_register
        from .services import RACKS_GENERATION_STEP
        from .sheets import racks_sheet_register

        generation_step_register(RACKS_GENERATION_STEP)
        racks_panels_register()
        racks_sheet_register()
