"""The procurement workbook of a design version.

Sheets, in registry order (`workbook_sheet_register` adds more without editing this module):
   0 Summary    customer, project, version, who exported it and when; inputs; headline figures
                (tiers, planes, servers, GPUs, switches and links per tier, max GPUs, hops,
                bisection, oversubscription, free ports, power, rack units, cost); validation
                (engine warnings, address-pool and ASN usage); notes.
  10 BOM        one row per SKU: part number, description, category, quantity, unit price and
                extended price = quantity x unit price as a live formula; per-category subtotals
                (SUMIF), subtotal, discount % (an input cell), discount = ROUND(subtotal x % / 100,
                2) and total as formulas, so procurement can change a quantity, a price or the
                discount and every total follows. Same rounding as the engine, so the total equals
                the API's BOM total to the cent. Lines whose catalog price is an example are marked.
  20 Cabling    every link: both ends (rack, device, port, label), medium, kind, fibre, modules,
                cable or cord, length in metres, tier, plane, rail, pod.
  30 IP plan    every link: both ends (device, port, address) and its /31.
  40 Loopbacks  every switch: its /32 loopback.
  50 ASN plan   every switch: role, plane, pod, scale unit, rail, group and eBGP ASN.

Every table has a styled, frozen header row, an auto-filter, set column widths and number
formats (#,##0 counts, #,##0.00 money, 0.0 metres; ASNs and indexes without separators).
Large sheets are streamed (apps.designs.exports.workbook) from `values_list` tuples.

Extension: a writer is ``writer(context: WorkbookContext, sheet: Sheet) -> bool | None``; it
declares columns (`sheet.columns([...])`) and appends (`sheet.append`) or streams
(`sheet.stream(rows, count=n)`) rows; returning False leaves the sheet out of this workbook.
Register it once at import time of a module Django loads:

    from django.utils.translation import gettext_lazy as _
    from apps.designs.exports.excel import workbook_sheet_register
    workbook_sheet_register(_("RoCE checklist"), roce_sheet_write, order=60)
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing IO, Any
