"""Shared fixtures of the design-document tests.

`documents` builds one version and writes its four files (PDF and Word, English and Chinese) once per
module: rendering costs seconds. Its rows live in a transaction that is rolled back when the module
is done, so the tests that follow see an empty database as usual.
"""
from __future__ import annotations

import io
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import TestCase
from django.utils import translation
from rest_framework.test import APIClient

from tests.designs.conftest import (  # noqa: F401
    client_for_member,
    member,
    member_client,
    outsider_client,
    project,
    seed,
)

CUSTOMER = "深度智算 <b>Lab</b> & Co"
COMMENT = "Check the <script>alert(1)</script> spine count"


@dataclass
class Built:
    version_id: int
    customer: str
    api_bom_total: str
    currency: str
    chapter_titles: dict[str, list[str]]
    files: dict[str, Path] = field(default_factory=dict)


def _version(owner, name="Fabric A", customer=CUSTOMER, **extra):
    from apps.catalog.models import ServerModel, SwitchModel
    from apps.designs.models import DesignVersion
    from apps.designs.services.design import design_create
    from apps.projects.models import Customer
    from apps.reviews.services.comments import comment_create
    from apps.reviews.services.review import version_review_act
    from tests.projects.factories import ProjectFactory

    call_command("load_seed_catalog", verbosity=0, stdout=io.StringIO())
    project = ProjectFactory(members=[])
    project.customer = Customer.objects.create(name=customer)
    project.owner = owner
    project.review_two_people = False
    project.save()
    data = {"server": ServerModel.objects.get(sku="DGXH-G640F+P2EDI36").pk,
            "leaf_switch": SwitchModel.objects.get(sku="920-9N42F-00RI-7C0").pk, "leaf_breakout": "2x400G",
            "gpus": 256, "currency": "EUR", **extra}
    with TestCase.captureOnCommitCallbacks(execute=True):
        job = design_create(project=project, user=owner, name=name, data=data)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    version = DesignVersion.objects.get(pk=job.version_id)
    comment_create(version=version, author=owner, body=COMMENT)
    version_review_act(version=version, user=owner, action="submit")
    version_review_act(version=version, user=owner, action="approve", note="Looks right")
    return version


@pytest.fixture(scope="module")
def documents(django_db_setup, django_db_blocker) -> Built:
    from apps.documents.chapters import CHAPTERS
    from apps.documents.document import (document_build, version_document_docx_write,
                                         version_document_pdf_write)
    from tests.factories import UserFactory

    scratch = Path(tempfile.mkdtemp(prefix="documents-tests-"))
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            owner = UserFactory(username="owner")
            version = _version(owner)
            client = APIClient()
            client.force_authenticate(owner)
            bom = client.get(f"/api/versions/{version.pk}/bom/").json()
            built = Built(version_id=version.pk, customer=CUSTOMER, api_bom_total=bom["totals"]["total"],
                          currency=bom["totals"]["currency"], chapter_titles={})
            for language in ("en", "zh-hans"):
                with translation.override(language):
                    built.chapter_titles[language] = [c.title for c in document_build(version=version).chapters]
                    built.files[f"{language}.pdf"] = scratch / f"{language}.pdf"
                    built.files[f"{language}.docx"] = scratch / f"{language}.docx"
                    version_document_pdf_write(version=version, path_or_stream=str(built.files[f"{language}.pdf"]))
                    version_document_docx_write(version=version,
                                                path_or_stream=str(built.files[f"{language}.docx"]))
            assert len(built.chapter_titles["en"]) == len(CHAPTERS)
            yield built
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def cluster_networks() -> dict:
    """A whole cluster on the seed catalog: front-end, storage fabric and out-of-band management beside the backend."""
    from apps.catalog.models import SwitchModel

    sn5600 = SwitchModel.objects.get(sku="920-9N42F-00RI-7C0").pk
    return {"frontend": {"switch": sn5600, "breakout": "2x400G", "ports_per_server": 2},
            "storage": {"mode": "fabric", "switch": sn5600, "breakout": "2x400G", "nodes": 8, "ports_per_node": 2,
                        "ports_per_server": 2},
            "oob": {"ports": 48, "gbps": 1}}


@dataclass
class Rendered:
    """A whole-cluster version's documents (Document objects) and their files, in both languages."""

    documents: dict = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)
    scratch: Path = Path()
    cache: dict = field(default_factory=dict)  # the tests' derived files (page images, Word as PDF)


@pytest.fixture(scope="module")
def cluster_documents(django_db_setup, django_db_blocker) -> Rendered:
    from apps.documents.document import document_build
    from apps.documents.render_docx import document_docx_write
    from apps.documents.render_pdf import document_pdf_write
    from tests.factories import UserFactory

    scratch = Path(tempfile.mkdtemp(prefix="document-pages-"))
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            call_command("load_seed_catalog", verbosity=0, stdout=io.StringIO())
            version = _version(UserFactory(username="pages"), name="Cluster", customer=CUSTOMER + " (cluster)",
                               networks=cluster_networks())
            rendered = Rendered(scratch=scratch)
            for language in ("en", "zh-hans"):
                with translation.override(language):
                    document = document_build(version=version)
                rendered.documents[language] = document
                rendered.files[f"{language}.pdf"] = scratch / f"{language}.pdf"
                rendered.files[f"{language}.docx"] = scratch / f"{language}.docx"
                document_pdf_write(document=document, target=str(rendered.files[f"{language}.pdf"]))
                document_docx_write(document=document, target=str(rendered.files[f"{language}.docx"]))
            yield rendered
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def soffice_convert(docx: Path, out_dir: Path) -> subprocess.CompletedProcess:
    """LibreOffice's own conversion of a Word file to PDF, in a profile of its own."""
    profile = out_dir / "lo-profile"
    return subprocess.run(
        ["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
         "--outdir", str(out_dir), str(docx)],
        capture_output=True, text=True, timeout=180,
    )
