"""Sheets other apps add to a version's procurement workbook, without designs knowing them.

The exports app writes the workbook (apps.exports.excel: Summary, BOM, Cabling, IP plan,
Loopbacks, ASN plan); the analysis app adds its RoCE and Traffic sheets, the reviews app its
Review sheet. They register here, from their AppConfig.ready(), so none of them imports another:

    from django.utils.translation import gettext_lazy as _
    from apps.designs.sheets import workbook_sheet_register
    workbook_sheet_register(_("RoCE checklist"), roce_sheet_write, order=60)

A writer is ``writer(context: SheetContext, sheet: Sheet) -> bool | None``. It declares columns
(``sheet.columns([Column(...), ...])``, apps.designs.workbook), then appends rows
(``sheet.append``) or streams them (``sheet.stream(rows, count=n)``); returning False leaves its
sheet out of this workbook. Sheets go by `order`, then name. A registered sheet whose writer
raises is left out by the workbook (logged, and named on its Summary).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils import translation
from django.utils.translation import gettext as _

from .models import DesignVersion
from .workbook import Column, Sheet, Styled

Progress = Callable[[str, int], None]


class SheetContext(Protocol):
    """What every sheet writer gets (apps.exports.excel.WorkbookContext has this and more)."""

    version: DesignVersion
    progress: Progress

    def title(self, name: Any) -> str:
        """This workbook's title of the sheet registered as `name`."""


SheetWriterFn = Callable[[SheetContext, Sheet], "bool | None"]


@dataclass(frozen=True)
class SheetWriter:
    name: Any  # the sheet's title; a lazy translation is resolved when the workbook is written
    writer: SheetWriterFn
    order: int

    @property
    def key(self) -> str:
        return sheet_key(self.name)


_SHEETS: dict[str, SheetWriter] = {}


def sheet_key(name: Any) -> str:
    """The untranslated name: the same whatever language is active when a sheet is registered or looked up."""
    with translation.override(None):
        return str(name)


def workbook_sheet_register(name: Any, writer: SheetWriterFn, order: int = 100) -> None:
    """Add (or replace, same name) a sheet: `writer(context, sheet)` fills it; sheets go by `order`.

    `name` is the sheet title (a gettext_lazy string is translated when the workbook is written).
    Call it from AppConfig.ready() or a module imported after it.
    """
    entry = SheetWriter(name=name, writer=writer, order=int(order))
    _SHEETS[entry.key] = entry


def workbook_sheet_unregister(name: Any) -> None:
    _SHEETS.pop(sheet_key(name), None)


def workbook_sheet_list() -> list[SheetWriter]:
    return sorted(_SHEETS.values(), key=lambda entry: (entry.order, entry.key))


def not_applicable_sheet(sheet: Sheet, text: str) -> None:
    """A sheet holding one sentence saying why it does not apply (an InfiniBand design)."""
    sheet.columns([Column(_("Not applicable"), 140, "wrap")], freeze=False, auto_filter=False)
    sheet.append([Styled(text, "note")])
