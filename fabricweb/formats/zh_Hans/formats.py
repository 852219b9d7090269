"""Simplified Chinese formats: Django's, but numbers grouped by thousands with commas, as quotes,
datasheets and BOMs write them (45,647,382.00), instead of no separator."""
from django.conf.locale.zh_Hans.formats import *  # noqa: F401,F403

THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
