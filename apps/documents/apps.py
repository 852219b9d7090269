from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

PDF_CONTENT_TYPE = "application/pdf"
DOCX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


class DocumentsConfig(AppConfig):
    name = "apps.documents"
    label = "documents"
    verbose_name = _("Design documents")

    def ready(self) -> None:
        # The design document is an export like the workbook: two kinds in the exports registry.
        from apps.exports.kinds import ExportKind, export_kind_register

        from .document import version_document_docx_write, version_document_pdf_write

        export_kind_register(ExportKind(
            code="pdf", label=_("Design document (PDF)"), extension="pdf", content_type=PDF_CONTENT_TYPE,
            writer=version_document_pdf_write, name_suffix="-design", by_language=True, order=30,
        ))
        export_kind_register(ExportKind(
            code="docx", label=_("Design document (Word)"), extension="docx", content_type=DOCX_CONTENT_TYPE,
            writer=version_document_docx_write, name_suffix="-design", by_language=True, order=40,
        ))
