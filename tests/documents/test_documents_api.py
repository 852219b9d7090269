"""Asking for the design document like any export: through the API and the design page, in a chosen
language, in the background for large designs, in the audit trail; bad input answers per field."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from apps.designs.models import DesignVersion
from apps.designs.panels import design_panels_render
from apps.designs.services.design import design_create
from apps.exports.models import ExportFile
from apps.reviews.models import AuditAction, AuditEvent
from tests.designs.conftest import inputs

# The exports API tests' media folder (autouse), generated version and URL serve these as well.
from tests.exports.test_exports_api import exports_url, media_root, version  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_chinese_pdf_is_exported_downloaded_listed_and_audited(member_client, version,
                                                                 django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(exports_url(version), {"kind": "pdf", "language": "zh-hans"}, format="json")

    assert response.status_code == 200, response.content
    export = response.json()
    assert export["status"] == "succeeded" and export["kind"] == "pdf" and export["language"] == "zh-hans"
    assert export["filename"] == "cluster-a-fabric-a-v1-design-zh-hans.pdf"
    download = member_client.get(export["download_url"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    listed = member_client.get(exports_url(version)).json()
    assert [(item["id"], item["kind"], item["language"]) for item in listed["results"]] == [
        (export["id"], "pdf", "zh-hans")]
    event = AuditEvent.objects.get(action=AuditAction.EXPORTED, version=version)
    assert event.data["kind"] == "pdf" and event.data["language"] == "zh-hans"
    assert event.actor_name == version.design.created_by.username


def test_a_big_version_writes_the_word_file_in_the_background_with_progress(
    member_client, version, settings, django_capture_on_commit_callbacks
):
    settings.FABRICWEB_EXPORT_SYNC_LINKS = 100  # this version has 768 links
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(exports_url(version), {"kind": "docx", "language": "en"}, format="json")

    assert response.status_code == 202, response.content
    assert response.json()["status"] == "queued"
    export = member_client.get(reverse("api-export-detail", kwargs={"pk": response.json()["id"]})).json()
    assert export["status"] == "succeeded" and export["percent"] == 100, export
    assert export["filename"] == "cluster-a-fabric-a-v1-design-en.docx"
    download = member_client.get(export["download_url"])
    assert download["Content-Type"] == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.mark.parametrize("body, fields", [
    ({"kind": "pptx"}, {"kind"}),
    ({"kind": "pdf", "language": "fr"}, {"language"}),
    ({"kind": "docx", "language": ""}, {"language"}),
    ({"kind": "<script>", "language": "xx"}, {"kind", "language"}),
])
def test_bad_kind_or_language_answers_per_field_and_exports_nothing(member_client, version, body, fields):
    response = member_client.post(exports_url(version), body, format="json")

    assert response.status_code == 400
    assert set(response.json()) == fields
    assert ExportFile.objects.count() == 0


def test_the_service_refuses_a_language_it_does_not_speak(version, member):
    from django.core.exceptions import ValidationError

    from apps.exports.services import version_export_create

    with pytest.raises(ValidationError) as refused:
        version_export_create(version=version, user=member, kind="pdf", language="de")
    assert set(refused.value.message_dict) == {"language"}
    assert ExportFile.objects.count() == 0


def test_non_members_get_404_for_the_design_document(outsider_client, version):
    response = outsider_client.post(exports_url(version), {"kind": "pdf", "language": "en"}, format="json")

    assert response.status_code == 404
    assert ExportFile.objects.count() == 0


def test_the_design_page_asks_for_the_document_in_a_language_and_lists_it(member, version, settings):
    settings.FABRICWEB_EXPORT_SYNC_LINKS = 0  # only queued: the page's part is asking and listing
    browser = Client()
    browser.force_login(member)
    request = RequestFactory().get("/")
    request.user = member
    panel = next(p for p in design_panels_render(request=request, version=version)["section"] if p.key == "exports")
    assert 'value="pdf"' in panel.html and 'value="docx"' in panel.html
    assert 'name="language"' in panel.html and 'value="zh-hans"' in panel.html

    exports_page = reverse("design-exports:version-exports", kwargs={"version_pk": version.pk})
    response = browser.post(exports_page, {"kind": "docx", "language": "zh-hans", "next": "/projects/"})

    assert response.status_code == 302
    export = ExportFile.objects.get(version=version)
    assert (export.kind, export.language) == ("docx", "zh-hans")
    page = browser.get(exports_page).content.decode()
    assert "Design document (Word) (简体中文)" in page


def test_the_racks_chapter_is_left_out_of_a_version_not_placed_in_a_hall(version):
    from apps.documents.chapters import racks
    from apps.documents.document import document_build
    from apps.racks.models import Hall

    titles = [chapter.title for chapter in document_build(version=version).chapters]
    assert "Racks and floor plan" in titles
    assert titles.index("Racks and floor plan") == titles.index("Cabling summary") + 1

    Hall.objects.filter(version=version).delete()

    assert "Racks and floor plan" not in [chapter.title for chapter in document_build(version=version).chapters]
    assert racks.TITLE == "Racks and floor plan"


def test_an_infiniband_design_document_has_the_infiniband_lossless_chapter(project, member, seed,
                                                                           django_capture_on_commit_callbacks):
    from apps.catalog.models import SwitchModel
    from apps.documents.document import document_build
    from apps.documents.render_pdf import document_html

    qm9700 = SwitchModel.objects.get(sku="MQM9700-NS2F")
    with django_capture_on_commit_callbacks(execute=True):
        job = design_create(project=project, user=member, name="IB fabric",
                            data=inputs(seed, leaf_switch=qm9700.pk, leaf_breakout="2x400G", gpus=512))
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    version = DesignVersion.objects.get(pk=job.version_id)

    document = document_build(version=version)

    titles = [chapter.title for chapter in document.chapters]
    assert "InfiniBand lossless design" in titles and "RoCE lossless design" not in titles
    html = document_html(document)
    assert "credit-based link-level flow control" in html
    assert "point-to-point /31 links, loopbacks or BGP ASNs" in html


def test_a_whole_cluster_document_shows_the_other_networks_and_the_cluster_total(
        member_client, project, seed, django_capture_on_commit_callbacks):
    from apps.documents.document import document_build
    from apps.documents.render_pdf import document_html
    from tests.designs.test_networks import create, networks

    response = create(member_client, project, {"name": "Cluster", **inputs(seed), "networks": networks(seed)},
                      django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    totals = member_client.get(reverse("api-version-bom", kwargs={"pk": version.pk})).json()["totals"]

    html = document_html(document_build(version=version))

    for network in ("Front-end (in-band)", "Storage", "Out-of-band management", "Whole cluster"):
        assert network in html, network
    assert f"{Decimal(totals['total']):,.2f} {totals['currency']}" in html
    assert "The other networks&#x27; links by medium:" in html or "The other networks' links by medium:" in html
