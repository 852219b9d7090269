"""The design document of a version: its chapters built in the active language, written as PDF or Word.

Rules:
- The export service (apps.exports.services) calls the writers with the export's language active
  (`translation.override`); every word of the document goes through gettext in that language.
- Chapters come from apps.documents.chapters.CHAPTERS in order; a chapter whose `build` answers
  None does not apply and is left out. Progress: one stage per chapter ("writing <chapter>"),
  then the rendering.
- Only a generated version has a document (the export service refuses the others).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from apps.designs.job_text import sheet_stage
from apps.designs.models import DesignVersion

from .chapters import CHAPTERS
from .model import Chapter, Document
from .source import DocumentSource

Progress = Callable[[str, int], None]

# Share of the progress bar for building the chapters; the rest is the rendering.
BUILD_SHARE = 60


def _noop(stage: str, percent: int) -> None:
    return None


def document_build(*, version: DesignVersion, progress: Progress | None = None) -> Document:
    """The document of `version` in the active language."""
    progress = progress or _noop
    language = translation.get_language() or settings.LANGUAGE_CODE
    source = DocumentSource.for_version(version=version, language=language)
    chapters: list[Chapter] = []
    for i, module in enumerate(CHAPTERS):
        progress(sheet_stage(str(module.TITLE)), BUILD_SHARE * i // len(CHAPTERS))
        chapter = module.build(source)
        if chapter is not None:
            chapters.append(chapter)
    version = source.version
    header = _("%(customer)s · %(design)s v%(number)s") % {
        "customer": source.customer.name, "design": version.design.name, "number": version.number}
    return Document(title=chapters[0].title if chapters else "", running_header=header, language=language,
                    chapters=chapters, toc_title=_("Contents"), page_label=_("Page"))


def version_document_pdf_write(*, version: DesignVersion, path_or_stream: Any, progress: Progress | None = None,
                               user: Any = None, **options: Any) -> None:
    """Write the design document of `version` as a PDF (WeasyPrint) to a path or a binary stream."""
    from .render_pdf import document_pdf_write

    progress = progress or _noop
    document = document_build(version=version, progress=progress)
    progress(sheet_stage("PDF"), BUILD_SHARE)
    document_pdf_write(document=document, target=path_or_stream)
    progress(sheet_stage("PDF"), 100)


def version_document_docx_write(*, version: DesignVersion, path_or_stream: Any, progress: Progress | None = None,
                                user: Any = None, **options: Any) -> None:
    """Write the design document of `version` as an editable Word file (python-docx)."""
    from .render_docx import document_docx_write

    progress = progress or _noop
    document = document_build(version=version, progress=progress)
    progress(sheet_stage("DOCX"), BUILD_SHARE)
    document_docx_write(document=document, target=path_or_stream)
    progress(sheet_stage("DOCX"), 100)
