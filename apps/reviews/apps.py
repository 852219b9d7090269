from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewsConfig(AppConfig):
    name = "apps.reviews"
    label = "reviews"
    verbose_name = _("Reviews")

    def ready(self) -> None:
        # Registries of other apps (design page, project page, procurement workbook) and signal receivers.
        from . import receivers  # noqa: F401
        from .panels import panels_register
        from .workbooks import review_sheet_register

        panels_register()
        review_sheet_register()
