"""The as-built check as a user meets it: upload, counts and findings, work orders, progress, API, overlay."""
from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from apps.designs.models.records import record_id
from apps.handover.models import AsBuiltCheck

from .dumps import as_uploads, as_zip, dump_files, planned_pairs, swapped_and_missing

pytestmark = pytest.mark.django_db


def page_url(version):
    return reverse("handover:asbuilt", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


def test_uploading_a_zip_shows_counts_and_a_swap_and_a_missing_link_with_their_fixes(client_for_member, version):
    f, pairs = swapped_and_missing(version)
    response = client_for_member.post(page_url(version), {"files": as_zip(dump_files(pairs))})
    assert response.status_code == 302
    html = client_for_member.get(response["Location"]).content.decode()
    check = AsBuiltCheck.objects.get(version=version)
    assert (check.planned, check.ok, check.miswired, check.missing, check.unverified) == (
        len(f), len(f) - 3, 2, 1, 0)
    assert 'id="asbuilt-counts"' in html and f"<td class=\"num\">{len(f)}</td>" in html
    assert "swapped pair" in html and "swap the cables at " in html
    assert f"connect {f.a_device[2]} {f.a_port[2]} to {f.b_device[2]} {f.b_port[2]}: no cable seen" in html


def test_loose_files_are_kept_as_one_zip_and_every_upload_makes_the_progress(client_for_member, version):
    f, pairs = planned_pairs(version)
    half = dump_files(pairs)[: len(dump_files(pairs)) // 2]
    client_for_member.post(page_url(version), {"files": as_uploads(half)})
    client_for_member.post(page_url(version), {"files": as_uploads(dump_files(pairs))})
    first, second = AsBuiltCheck.objects.filter(version=version).order_by("id")
    assert first.verified_pct < second.verified_pct == 100.0
    assert len(second.file_names) == len(dump_files(pairs)) and bytes(second.archive)[:2] == b"PK"
    project_page = client_for_member.get(reverse("projects:project-detail", kwargs={"project_pk": version.design.project_id}))
    html = project_page.content.decode()
    assert 'id="install-progress"' in html and f"{first.verified_pct} %</span> → " in html and "100.0 %" in html


def test_an_unknown_format_is_refused_naming_file_and_line_and_nothing_is_saved(client_for_member, version):
    files = as_uploads([("p0-spine-000.txt", "hello there\n")])
    response = client_for_member.post(page_url(version), {"files": files})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Nothing was saved" in html and "p0-spine-000.txt, line 1: unknown format" in html
    assert not AsBuiltCheck.objects.exists()


def test_an_oversized_upload_is_refused_with_its_limit(client_for_member, version, settings):
    settings.HANDOVER_UPLOAD_MAX_BYTES = 1024
    big = SimpleUploadedFile("p0-spine-000.txt", b"x" * 4096)
    response = client_for_member.post(page_url(version), {"files": [big]})
    assert response.status_code == 400
    assert "The upload is 4.0 KB; the limit is 1.0 KB." in response.content.decode()
    assert not AsBuiltCheck.objects.exists()


def test_a_zip_that_unpacks_past_the_limit_is_refused(client_for_member, version, settings):
    settings.HANDOVER_UPLOAD_MAX_BYTES = 20_000
    upload = as_zip([("p0-spine-000.txt", "a" * 100_000)])
    response = client_for_member.post(page_url(version), {"files": upload})
    assert response.status_code == 400 and "unpacks to more than" in response.content.decode()
    assert not AsBuiltCheck.objects.exists()


def test_work_orders_print_and_csv_list_each_fix_grouped_by_rack(client_for_member, version):
    _f, pairs = swapped_and_missing(version)
    client_for_member.post(page_url(version), {"files": as_zip(dump_files(pairs))})
    check = AsBuiltCheck.objects.get(version=version)
    kwargs = {"project_pk": version.design.project_id, "version_pk": version.pk, "check_pk": check.pk}
    html = client_for_member.get(reverse("handover:asbuilt-fixes", kwargs=kwargs)).content.decode()
    assert "Cabling work orders" in html and f"Rack {check.findings[0]['rack']}" in html
    response = client_for_member.get(reverse("handover:asbuilt-fixes-csv", kwargs=kwargs))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["Work order", "Rack", "Plane", "Rail", "State", "Finding", "A end", "B end", "Fix"]
    assert len(rows) == 1 + len(check.findings)
    assert {r[5] for r in rows[1:]} == {"swapped pair", "cable missing"}


def test_the_page_speaks_chinese(client_for_member, version):
    _f, pairs = swapped_and_missing(version)
    client_for_member.post(page_url(version), {"files": as_zip(dump_files(pairs))})
    with translation.override("zh-hans"):
        html = client_for_member.get(page_url(version), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "As-built check" not in html and "swap the cables" not in html


def test_api_upload_then_link_states_keyed_like_the_topology_edges(member_client, version):
    f, pairs = swapped_and_missing(version)
    url = reverse("api-version-asbuilt", kwargs={"pk": version.pk})
    response = member_client.post(url, {"files": [as_zip(dump_files(pairs, servers=True))]}, format="multipart")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["miswired"], body["missing"]) == (2, 1)
    assert {x["kind"] for x in body["findings"]} == {"swap", "connect"}
    states = member_client.get(reverse("api-version-asbuilt-link-states", kwargs={"pk": version.pk})).json()
    assert states["links"] == {
        f"link:{record_id(version.pk, 0)}": {"state": "miswired", "fix": states["links"][f"link:{record_id(version.pk, 0)}"]["fix"]},
        f"link:{record_id(version.pk, 1)}": states["links"][f"link:{record_id(version.pk, 1)}"],
        f"link:{record_id(version.pk, 2)}": {"state": "missing", "fix": f"connect {f.a_device[2]} {f.a_port[2]} to "
                                                                         f"{f.b_device[2]} {f.b_port[2]}: no cable seen"},
    }
    assert states["links"][f"link:{record_id(version.pk, 0)}"]["fix"].startswith("swap the cables at")
    every = member_client.get(reverse("api-version-asbuilt-link-states", kwargs={"pk": version.pk}),
                              {"states": "all"}).json()
    assert len(every["links"]) == len(f)
    assert member_client.get(reverse("api-version-asbuilt-link-states", kwargs={"pk": version.pk}),
                             {"states": "bogus"}).status_code == 400


def test_api_bad_upload_is_400_naming_file_and_line(member_client, version):
    url = reverse("api-version-asbuilt", kwargs={"pk": version.pk})
    bad = SimpleUploadedFile("srv-0000.json", b'{"lldp": \n [}')
    response = member_client.post(url, {"files": [bad]}, format="multipart")
    assert response.status_code == 400
    assert response.json()["files"][0].startswith("srv-0000.json, line 2: not valid JSON")
    assert not AsBuiltCheck.objects.exists()


def test_non_member_gets_404_on_page_and_api(outsider_client, version):
    assert outsider_client.get(reverse("api-version-asbuilt", kwargs={"pk": version.pk})).status_code == 404
    assert outsider_client.get(reverse("api-version-asbuilt-link-states", kwargs={"pk": version.pk})).status_code == 404


def test_design_page_links_the_check_and_the_topology_page_offers_the_overlay(client_for_member, version):
    kwargs = {"project_pk": version.design.project_id, "version_pk": version.pk}
    design = client_for_member.get(reverse("designs:version-detail", kwargs=kwargs)).content.decode()
    assert 'id="tab-asbuilt"' in design and "No neighbour dumps uploaded yet." in design
    assert 'id="asbuilt-overlay-toggle"' not in design
    topology = client_for_member.get(reverse("designs:version-topology", kwargs=kwargs)).content.decode()
    assert 'id="asbuilt-overlay-toggle"' in topology
    assert reverse("api-version-asbuilt-link-states", kwargs={"pk": version.pk}) in topology
