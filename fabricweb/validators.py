"""Validators shared by every app's models, forms and serializers.

`validate_single_line_name`: names (customers, projects, designs, catalog parts) end up in
generated files (shell comments, switch configs, CSV and workbook cells, documents); a name
holding a control character, a format character or a line/paragraph separator could end a
comment line or hide text there, so such names are refused at input (apps.engine.safe_text
decides which characters, and sanitises names stored before this rule).
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from apps.engine.safe_text import has_control_characters

# Free text (descriptions, notes) is capped like review comments.
DESCRIPTION_MAX_LENGTH = 4000


def validate_single_line_name(value: object) -> None:
    if isinstance(value, str) and has_control_characters(value):
        raise ValidationError(
            _("Names cannot hold line breaks, tabs or other control characters."), code="control_characters"
        )


description_max_length = MaxLengthValidator(DESCRIPTION_MAX_LENGTH)
