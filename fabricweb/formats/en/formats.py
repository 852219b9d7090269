"""English formats: Django's, but short dates read the same everywhere (2026-12-03 14:05), as the workbooks
write them, instead of the US month/day order (12/03/2026 2:05 p.m.) that reads as 12 March to most customers."""
from django.conf.locale.en.formats import *  # noqa: F401,F403

SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
