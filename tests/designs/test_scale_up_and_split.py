"""Scale-up domains and split NIC ports through the API, the design page and the workbook."""
from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from apps.catalog.models import NicModel, ServerModel
from apps.designs.models import DesignVersion
from apps.exports.excel import version_workbook_write
from tests.designs.conftest import inputs
from tests.designs.test_api import _nothing_created, create

pytestmark = pytest.mark.django_db

GB300_TRAY = "ARS-121GL-NB3-LCC-R1"
GB200_TRAY = "DGX-GB200-NVL72-TRAY"


def _split_gb300(seed, **changes):
    tray = ServerModel.objects.get(sku=GB300_TRAY)
    values = {"server": tray.pk, "nic": tray.default_nic_id, "gpus": 576, "planes": 2, "nic_split": 2,
              "leaf_breakout": "2x400G", **changes}
    return inputs(seed, **values)


@pytest.fixture
def gb300_version(member_client, project, seed, django_capture_on_commit_callbacks):
    response = create(member_client, project, _split_gb300(seed), django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    assert version.status == DesignVersion.Status.READY, version.summary
    return version


def test_api_shows_the_domains_and_the_split(member_client, gb300_version):
    body = member_client.get(reverse("api-version-detail", kwargs={"pk": gb300_version.pk})).json()
    assert body["inputs"]["nic_split"] == 2
    summary = body["summary"]
    assert summary["scale_up"]["domains"] == 8
    assert summary["scale_up"]["gpus_per_domain"] == 72
    assert summary["scale_up"]["gb_s_per_gpu"] == 1800
    assert summary["scale_up"]["racks_per_domain"] == 1
    assert summary["scale_up"]["switch_trays"] == 72
    assert summary["nic_split"] == 2 and summary["port_gbps"] == 400
    assert summary["planes"] == 2 and summary["rails"] == 8
    assert summary["links"]["server-leaf"] == 576 * 2


def test_design_page_shows_the_domains(client_for_member, gb300_version):
    url = reverse("designs:version-detail", kwargs={"project_pk": gb300_version.design.project_id,
                                                    "version_pk": gb300_version.pk})
    html = client_for_member.get(url).content.decode()
    assert 'id="scale-up"' in html
    assert "GPUs per domain" in html and "NVLink switch trays" in html
    assert "72 (9 per domain)" in html
    assert "each port in 2 parts of 400 Gb/s" in html


def test_design_page_in_chinese(client_for_member, gb300_version):
    url = reverse("designs:version-detail", kwargs={"project_pk": gb300_version.design.project_id,
                                                    "version_pk": gb300_version.pk})
    html = client_for_member.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'id="scale-up"' in html and "GPUs per domain" not in html


def test_workbook_has_the_scale_up_sheet(gb300_version, member):
    buffer = io.BytesIO()
    version_workbook_write(version=gb300_version, path_or_stream=buffer, user=member)
    wb = load_workbook(io.BytesIO(buffer.getvalue()))
    sheet = wb["Scale-up and planes"]
    values = {row[2]: row[1] for row in sheet.iter_rows(min_row=2, values_only=True) if row and row[2]}
    assert values["domains"] == 8 and values["gpus_per_domain"] == 72 and values["gb_s_per_gpu"] == 1800
    assert values["racks_per_domain"] == 1 and values["nic_split"] == 2


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"nic_split": 3}, "nic_split", "1, 2 or 4"),
    ({"nic_split": "two"}, "nic_split", ""),
    ({"nic_split": 4, "planes": 4, "leaf_breakout": "4x200G"}, "nic_split", "2x400G"),
    ({"planes": 1}, "planes", "multiple of 2"),
    ({"gpus": 600}, "gpus", "648"),
])
def test_bad_split_or_domain_input_is_a_field_error_and_saves_nothing(
        member_client, project, seed, django_capture_on_commit_callbacks, changes, field, words):
    response = create(member_client, project, _split_gb300(seed, **changes), django_capture_on_commit_callbacks)
    assert response.status_code == 400, response.content
    errors = response.json()
    assert field in errors, errors
    assert words in " ".join(errors[field])
    assert _nothing_created()


def test_a_nic_without_published_breakouts_cannot_be_split(
        member_client, project, seed, django_capture_on_commit_callbacks):
    data = inputs(seed, nic=NicModel.objects.get(sku="MCX75310AAS-NEAT").pk, nic_split=2, planes=2,
                  leaf_breakout="4x200G")
    response = create(member_client, project, data, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert "no 2-way split" in response.json()["nic_split"][0]
    assert _nothing_created()


def test_gb200_nvl72_one_su_generates_with_whole_racks(member_client, project, seed,
                                                        django_capture_on_commit_callbacks):
    tray = ServerModel.objects.get(sku=GB200_TRAY)
    response = create(member_client, project, inputs(seed, server=tray.pk, nic=tray.default_nic_id, gpus=576,
                                                     leaf_breakout="2x400G"), django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    up = version.summary["scale_up"]
    assert (up["domains"], up["racks"], up["switch_trays"], version.summary["servers"]) == (8, 8, 72, 144)
    # NVLink switch trays are part of the rack system: nothing of them in the network BOM
    assert not version.bom_lines.filter(description__icontains="NVLink").exists()


def test_design_form_offers_the_split_and_puts_its_errors_on_the_field(client_for_member, project, seed):
    from tests.designs.test_views import field_errors, form_data, url

    page = client_for_member.get(url("design-create", project)).content.decode()
    assert 'name="nic_split"' in page and "Each port in 2 parts, on 2 planes" in page
    response = client_for_member.post(url("design-create", project), form_data(seed, nic_split="2", planes="2"))
    assert response.status_code == 200
    assert "publishes no 2-way split" in " ".join(field_errors(response, "nic_split"))
    assert 'data-error-for="nic_split"' in response.content.decode()
    tray = ServerModel.objects.get(sku=GB300_TRAY)
    response = client_for_member.post(url("design-create", project), form_data(
        seed, server=tray.pk, nic="", gpus="576", nic_split="2", planes="1"))
    assert "multiple of 2" in " ".join(field_errors(response, "planes"))
    from apps.designs.models import Design
    assert not Design.objects.filter(project=project).exists()


def test_leaves_shared_by_tray_slot_are_said_in_both_languages():
    from types import SimpleNamespace

    from django.utils import translation

    from apps.designs.scaleup_text import scale_up_notes
    from apps.designs.views.version import structure_rows

    # The engine's report of one GB200 SU on QM9700: 18 leaves of 32 downlinks, each taking tray t of 8 racks.
    summary = {"scale_up": {"kind": "rack-scale"}, "su_servers": 144, "scale_units": 1, "leaf_slots": 18,
               "leaf_downlinks": 32}
    with translation.override("en"):
        rows = dict(structure_rows(SimpleNamespace(summary=summary)))
        assert rows["Leaves per scale unit"].startswith("18 per plane, one per tray slot")
        assert "32 downlinks" in rows["Leaves per scale unit"]
        assert any("share their leaves by tray slot" in note for note in scale_up_notes(summary))
        assert not any("tray slot" in note for note in scale_up_notes({**summary, "leaf_slots": 0}))
    with translation.override("zh-hans"):
        rows = dict(structure_rows(SimpleNamespace(summary=summary)))
        assert "每个托盘位置一台" in rows["每个扩展单元的 Leaf 数"]
        assert any("按托盘位置共享 Leaf" in note for note in scale_up_notes(summary))
