"""Host pre-check as a user meets it: download the script, upload the reports, see the hosts that differ."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.handover.models import HostPrecheck
from tests.engine.test_precheck import report

pytestmark = pytest.mark.django_db


def inventory_url(version):
    return reverse("handover:inventory", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk})


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_script_carries_the_design_and_passes_bash_n(client_for_member, version, tmp_path):
    url = reverse("handover:precheck-script", kwargs={"project_pk": version.design.project_id,
                                                      "version_pk": version.pk})
    script = client_for_member.get(url).content.decode()
    assert script.startswith("#!/usr/bin/env bash") and "DESIGN='Fabric A v1'" in script
    path = tmp_path / "p.sh"
    path.write_text(script)
    assert subprocess.run(["bash", "-n", str(path)]).returncode == 0


def test_uploaded_reports_list_hosts_that_differ(client_for_member, version):
    # The 512-GPU DGX H100 design: 8 backend ports of 400G per server, RoCE defaults (DSCP trust, PFC 3, ECN on).
    files = [SimpleUploadedFile(f"srv-000{i}.json", report(f"srv-000{i}", ports=8).encode()) for i in range(3)]
    files.append(SimpleUploadedFile("srv-0003.json", report("srv-0003", ports=8, fw="28.36.1010").encode()))
    files.append(SimpleUploadedFile("srv-0004.json", report("srv-0004", ports=8, trust="pcp").encode()))
    response = client_for_member.post(inventory_url(version), {"action": "precheck", "files": files})
    assert response.status_code == 302
    html = client_for_member.get(inventory_url(version)).content.decode()
    assert "5 hosts reported." in html
    table = html[html.index('id="precheck-deviations"'):]
    assert "srv-0003" in table and "28.36.1010" in table and "the majority" in table
    assert "srv-0004" in table and "trust mode" in table and "pcp" in table and "the design" in table
    assert "srv-0000" not in table


def test_a_bad_report_is_refused_naming_file_and_line_and_nothing_is_saved(client_for_member, version):
    files = [SimpleUploadedFile("srv-0000.json", report("srv-0000").encode()),
             SimpleUploadedFile("srv-0001.json", b'{"precheck": 1,\n "host": }')]
    response = client_for_member.post(inventory_url(version), {"action": "precheck", "files": files})
    assert response.status_code == 400
    assert "srv-0001.json, line 2: not valid JSON" in response.content.decode()
    assert not HostPrecheck.objects.exists()


def test_api_takes_reports_and_answers_the_deviations(member_client, version):
    url = reverse("api-version-precheck", kwargs={"pk": version.pk})
    files = [SimpleUploadedFile("a.json", report("srv-0000", ports=8, rate=200).encode())]
    response = member_client.post(url, {"files": files}, format="multipart")
    assert response.status_code == 201, response.content
    body = member_client.get(url).json()
    assert body["hosts"] == 1
    assert {(d["host"], d["field"], d["value"], d["expected"]) for d in body["deviations"]} >= {
        ("srv-0000", "link speed (Gb/s)", "200", "400")}
