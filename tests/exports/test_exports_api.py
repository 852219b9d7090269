"""Asking for exports, watching them and downloading them, through the API and the design page."""
from __future__ import annotations

import dataclasses
import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from apps.exports import kinds
from apps.exports import services as export_services
from apps.exports.kinds import export_kind_get, export_kind_register
from apps.exports.models import ExportFile
from apps.exports.tasks import version_export_task
from apps.designs.models import DesignVersion, Job
from apps.designs.panels import design_panels_render
from apps.designs.services.design import design_create
from tests.designs.conftest import inputs
from tests.designs.factories import DesignVersionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def version(project, member, seed, django_capture_on_commit_callbacks) -> DesignVersion:
    project.name = "Cluster A"
    project.save()
    with django_capture_on_commit_callbacks(execute=True):
        job = design_create(project=project, user=member, name="Fabric A", data=inputs(seed))
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    return DesignVersion.objects.get(pk=job.version_id)


def exports_url(version) -> str:
    return reverse("api-version-export-list", kwargs={"pk": version.pk})


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def exported_files(media_root: Path) -> list[Path]:
    return sorted(p for p in (media_root / "exports").rglob("*") if p.is_file()) if media_root.exists() else []


def test_a_small_version_is_exported_during_the_request_and_downloads_as_a_workbook(member_client, version):
    response = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json")

    assert response.status_code == 200, response.content
    export = response.json()
    assert export["status"] == "succeeded" and export["percent"] == 100
    assert export["filename"] == "cluster-a-fabric-a-v1.xlsx"
    download = member_client.get(export["download_url"])
    assert download.status_code == 200
    assert download["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert download["Content-Disposition"] == 'attachment; filename="cluster-a-fabric-a-v1.xlsx"'
    content = body(download)
    assert len(content) == export["size"]
    workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    assert workbook.sheetnames == ["Summary", "BOM", "Cabling", "IP plan", "Loopbacks", "ASN plan", "Racks",
                                  "Scale-up and planes", "RoCE", "Traffic"]


def test_netbox_export_downloads_as_a_zip_of_csv_files(member_client, version):
    export = member_client.post(exports_url(version), {"kind": "netbox"}, format="json").json()

    download = member_client.get(export["download_url"])
    assert download["Content-Type"] == "application/zip"
    assert download["Content-Disposition"] == 'attachment; filename="cluster-a-fabric-a-v1-netbox.zip"'
    names = zipfile.ZipFile(io.BytesIO(body(download))).namelist()
    assert {"README.txt", "07-devices-part01.csv", "08-cables-part01.csv"} <= set(names)
    assert any(name.startswith("06-device_types-") for name in names)
    assert any(name.startswith("01-manufacturers-") for name in names)


def test_netbox_export_takes_a_name_prefix_and_refuses_a_bad_one_by_field(member_client, version):
    bad = member_client.post(exports_url(version), {"kind": "netbox", "prefix": "a b;rm"}, format="json")
    assert bad.status_code == 400 and "prefix" in bad.json()
    long = member_client.post(exports_url(version), {"kind": "netbox", "prefix": "x" * 21}, format="json")
    assert long.status_code == 400 and "prefix" in long.json()
    xlsx = member_client.post(exports_url(version), {"kind": "xlsx", "prefix": "alt"}, format="json")
    assert xlsx.status_code == 400 and "prefix" in xlsx.json()
    assert not ExportFile.objects.filter(version=version).exists()
    export = member_client.post(exports_url(version), {"kind": "netbox", "prefix": "alt-1"}, format="json").json()
    archive = zipfile.ZipFile(io.BytesIO(body(member_client.get(export["download_url"]))))
    devices = archive.read("07-devices-part01.csv").decode().splitlines()
    assert devices[1].startswith("alt-1-srv-0000,")


def test_a_big_version_answers_202_and_a_background_job_writes_the_file(
    member_client, version, settings, django_capture_on_commit_callbacks
):
    settings.FABRICWEB_EXPORT_SYNC_LINKS = 100  # this version has 768 links
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json")

    assert response.status_code == 202, response.content
    assert response.json()["status"] == "queued" and response.json()["download_url"] is None
    export = member_client.get(reverse("api-export-detail", kwargs={"pk": response.json()["id"]})).json()
    assert export["status"] == "succeeded", export
    job = member_client.get(reverse("api-job-detail", kwargs={"pk": export["job"]})).json()
    assert job["kind"] == "export" and job["status"] == "succeeded"
    assert member_client.get(export["download_url"]).status_code == 200


def test_download_before_the_file_is_written_answers_409(member_client, version, settings,
                                                         django_capture_on_commit_callbacks):
    settings.FABRICWEB_EXPORT_SYNC_LINKS = 100
    with django_capture_on_commit_callbacks(execute=False):
        export = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json").json()

    response = member_client.get(reverse("api-export-download", kwargs={"pk": export["id"]}))
    assert response.status_code == 409
    assert response.json()["status"] == "queued"


def test_asking_again_while_an_export_is_queued_returns_the_same_export(member_client, version, settings,
                                                                       django_capture_on_commit_callbacks):
    settings.FABRICWEB_EXPORT_SYNC_LINKS = 100
    with django_capture_on_commit_callbacks(execute=False):
        first = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json").json()
        again = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json").json()
        netbox = member_client.post(exports_url(version), {"kind": "netbox"}, format="json").json()

    assert again["id"] == first["id"]
    assert netbox["id"] != first["id"]
    listed = member_client.get(exports_url(version)).json()
    assert [e["id"] for e in listed["results"]] == [netbox["id"], first["id"]]


def test_a_version_that_is_not_ready_is_refused_with_400_and_nothing_is_created(member_client, project):
    queued = DesignVersionFactory(design__project=project)

    response = member_client.post(exports_url(queued), {"kind": "xlsx"}, format="json")

    assert response.status_code == 400
    assert "only a generated (ready) version can be exported" in response.json()["version"][0]
    assert not Job.objects.filter(kind=Job.Kind.EXPORT).exists()
    assert not ExportFile.objects.exists()


def test_an_unknown_kind_is_refused_with_400(member_client, version):
    response = member_client.post(exports_url(version), {"kind": "pptx"}, format="json")

    assert response.status_code == 400
    assert "kind" in response.json()
    assert not ExportFile.objects.exists()


def test_non_members_get_404_on_every_export_route(outsider_client, member_client, version):
    export = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json").json()

    assert outsider_client.get(exports_url(version)).status_code == 404
    assert outsider_client.post(exports_url(version), {"kind": "xlsx"}, format="json").status_code == 404
    assert outsider_client.get(reverse("api-export-detail", kwargs={"pk": export["id"]})).status_code == 404
    assert outsider_client.get(reverse("api-export-download", kwargs={"pk": export["id"]})).status_code == 404
    assert ExportFile.objects.count() == 1


def test_a_failed_export_says_why_and_leaves_no_file(member_client, version, monkeypatch, media_root):
    def broken_writer(*, version, path_or_stream, progress=None, user=None):
        Path(path_or_stream).write_bytes(b"half a workbook")
        raise RuntimeError("disk full")

    workbook = export_kind_get("xlsx")
    monkeypatch.setattr(kinds, "_KINDS", {**kinds._KINDS})  # restored afterwards
    export_kind_register(dataclasses.replace(workbook, writer=broken_writer))

    response = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json")

    assert response.status_code == 200
    export = response.json()
    assert export["status"] == "failed" and "disk full" in export["error"]
    assert export["download_url"] is None
    assert exported_files(media_root) == []
    assert member_client.get(reverse("api-export-download", kwargs={"pk": export["id"]})).status_code == 409
    assert DesignVersion.objects.get(pk=version.pk).status == "ready"


def test_a_redelivered_export_task_writes_the_file_again(version, member, settings, media_root,
                                                         django_capture_on_commit_callbacks):
    settings.FABRICWEB_EXPORT_SYNC_LINKS = 100
    with django_capture_on_commit_callbacks(execute=False):
        job = export_services.version_export_create(version=version, user=member, kind="netbox")
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, attempts=1)  # its worker died mid-export

    result = version_export_task.apply(args=[job.pk], task_id=Job.objects.get(pk=job.pk).celery_task_id).get()

    assert result["status"] == "succeeded"
    job.refresh_from_db()
    assert job.attempts == 2
    export = ExportFile.objects.get(job=job)
    assert (media_root / export.path).stat().st_size == export.size


def test_deleting_a_version_deletes_its_export_files(member_client, version, media_root):
    member_client.post(exports_url(version), {"kind": "xlsx"}, format="json")
    member_client.post(exports_url(version), {"kind": "netbox"}, format="json")
    assert len(exported_files(media_root)) == 2

    version.delete()

    assert exported_files(media_root) == []
    assert not ExportFile.objects.exists()


def test_an_export_removed_from_disk_answers_410(member_client, version, media_root):
    export = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json").json()
    (media_root / ExportFile.objects.get(pk=export["id"]).path).unlink()

    assert member_client.get(export["download_url"]).status_code == 410


# Design page -----------------------------------------------------------------------------------------------


@pytest.fixture
def member_browser(member) -> Client:
    client = Client()
    client.force_login(member)
    return client


def test_the_design_page_has_an_exports_panel_that_exports_and_downloads(member, member_browser, version):
    # Loading the URLconf registers the panel, as it is loaded before any page is rendered.
    exports_page = reverse("design-exports:version-exports", kwargs={"version_pk": version.pk})
    request = RequestFactory().get("/")
    request.user = member
    panels = design_panels_render(request=request, version=version)
    panel = next(p for p in panels["section"] if p.key == "exports")
    assert panel.title == "Exports"
    assert f'action="{exports_page}"' in panel.html
    assert 'value="xlsx"' in panel.html and 'value="netbox"' in panel.html

    response = member_browser.post(exports_page, {"kind": "xlsx", "next": "/projects/"})

    assert response.status_code == 302 and response["Location"] == "/projects/"
    export = ExportFile.objects.get(version=version)
    page = member_browser.get(exports_page)
    download_url = reverse("design-exports:export-download", kwargs={"pk": export.pk})
    assert page.status_code == 200 and download_url.encode() in page.content
    download = member_browser.get(download_url)
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="cluster-a-fabric-a-v1.xlsx"'
    fragment = member_browser.get(exports_page, headers={"X-Requested-With": "fetch"})
    assert b"<html" not in fragment.content and download_url.encode() in fragment.content


def test_the_design_page_refuses_to_export_a_version_that_is_not_ready(member_browser, project):
    queued = DesignVersionFactory(design__project=project)
    exports_page = reverse("design-exports:version-exports", kwargs={"version_pk": queued.pk})

    response = member_browser.post(exports_page, {"kind": "xlsx"}, follow=True)

    assert response.status_code == 200
    assert "only a generated (ready) version can be exported" in response.content.decode()
    assert not ExportFile.objects.exists()


def test_download_names_keep_non_latin_project_names(member_client, version):
    project = version.design.project
    project.name = "训练集群"
    project.save()
    export = member_client.post(exports_url(version), {"kind": "xlsx"}, format="json").json()

    download = member_client.get(export["download_url"])

    assert export["filename"] == "训练集群-fabric-a-v1.xlsx"
    assert "filename*=utf-8''%E8%AE%AD%E7%BB%83%E9%9B%86%E7%BE%A4-fabric-a-v1.xlsx" in download["Content-Disposition"]


def test_the_openapi_schema_documents_the_export_routes_without_warnings():
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    from apps.exports.api import views as export_views

    views = {name for name in dir(export_views) if name.endswith("View")}
    GENERATOR_STATS.reset()
    schema = SchemaGenerator(patterns=None).get_schema(request=None, public=True)
    messages = [str(m) for m in list(GENERATOR_STATS._warn_cache) + list(GENERATOR_STATS._error_cache)]

    assert [m for m in messages if "export" in m.lower() or any(view in m for view in views)] == []
    paths = schema["paths"]
    post = paths["/api/versions/{id}/exports/"]["post"]
    assert {"200", "202"} <= set(post["responses"])
    download = paths["/api/exports/{id}/download/"]["get"]["responses"]
    assert {"200", "409", "410"} <= set(download)
    assert schema["components"]["schemas"]["ExportKindEnum"]["enum"][:2] == ["xlsx", "netbox"]
