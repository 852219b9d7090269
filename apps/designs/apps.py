from django.apps import AppConfig


class DesignsConfig(AppConfig):
    name = "apps.designs"
    label = "designs"

    def ready(self) -> None:
        # The scale-up and NIC-split sheet is designs' own: registered like any other app's sheet.
        from .scaleup_text import SHEET_NAME, scale_up_sheet_write
        from .sheets import workbook_sheet_register

        workbook_sheet_register(SHEET_NAME, scale_up_sheet_write, order=55)
