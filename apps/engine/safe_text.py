"""User text in generated files, in a form the file's reader cannot execute or misparse.

Rules (every generator that writes a name, a description or any other user text follows them):
- Comments (`#` in shell, `!` in NOS configs, a README line): `comment_text` turns every
  control character (Unicode category Cc: C0, DEL, C1), every format character (Cf: bidi
  overrides, zero-width joiners, BOM) and every line or paragraph separator (Zl, Zp: U+2028,
  U+2029) into a space, so the text can never end the comment line nor hide what follows.
- Shell values: `shell_quote` is shlex.quote of the comment-safe text: a single-quoted word
  (a quote inside becomes '"'"'), so `$(...)`, backticks, `;` and globbing stay literal.
- Spreadsheet cells and CSV fields are the exporters' business (cells written as strings, CSV
  fields prefixed per OWASP's CSV-injection guidance); `has_control_characters` is the input
  check the forms and the API use to refuse such names in the first place.
"""
from __future__ import annotations

import re
import shlex
import unicodedata

# Categories that end or disguise a line: controls, format characters, line/paragraph separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
_SPACES = re.compile(r" {2,}")


def _unsafe(ch: str) -> bool:
    return unicodedata.category(ch) in UNSAFE_CATEGORIES


def has_control_characters(text: str) -> bool:
    """Whether `text` holds a character that could end a line or hide text in a generated file."""
    return any(_unsafe(ch) for ch in text)


def comment_text(text: object) -> str:
    """`text` on one line, safe after a comment marker: unsafe characters become spaces."""
    value = "" if text is None else str(text)
    if value.isascii() and value.isprintable():
        return value
    value = "".join(" " if _unsafe(ch) else ch for ch in value)
    return _SPACES.sub(" ", value).strip()


def shell_quote(text: object) -> str:
    """One shell word that stands for `text` literally (unsafe characters replaced by spaces)."""
    return shlex.quote(comment_text(text))


# OWASP "CSV Injection": a field starting with one of these is a formula to Excel, LibreOffice
# Calc and Google Sheets; a leading single quote makes it text (ASVS 1.2.10 adds NUL).
CSV_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\0")


def csv_text(value: object) -> object:
    """A CSV field that a spreadsheet shows as text: str values starting with a formula character get a "'"."""
    if isinstance(value, str) and value.startswith(CSV_FORMULA_START):
        return "'" + value
    return value
