"""The chapters of the design document, in order. Each module has KEY, TITLE and
`build(source) -> Chapter | None` (None: the chapter does not apply to this version and is left out).
"""
from __future__ import annotations

from . import (addressing, alternatives, appendix, architecture, bom, cabling, cover, lossless, performance, racks,
               requirements, review, summary, wiring)

CHAPTERS = [
    cover,
    summary,
    requirements,
    architecture,
    alternatives,
    bom,
    cabling,
    racks,  # None when the version is not placed in a hall (apps.racks)
    addressing,
    lossless,
    performance,
    wiring,
    review,
    appendix,
]
