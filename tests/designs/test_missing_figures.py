"""No silent zero in a quote (issue 28, part 3): a figure we lack is named wherever it is summed, on the design
page, the API, the racks pages, the workbook and the design document, in English and in Chinese.

Worked example: the GB200 SuperPOD scalable unit as a whole cluster on seed parts: 8 DGX GB200 NVL72 racks (576
GPUs) on Quantum-2 QM9700, a front-end on SN5600 in 2x400G and an SN2201 out-of-band switch per rack. NVIDIA
publishes no power per compute tray, per GB200 rack or for the SN2201 in the sources read, and the catalog sells
no Cat6A cord: before, the compute racks read 0.0 kW, the hall 70.4 kW below the network's 116.7 kW, the
out-of-band switches 0 W and the cords 0 USD, with no word.
"""
from __future__ import annotations

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from apps.accounts.services import profile_set_language
from apps.catalog.models import ServerModel, SwitchModel
from apps.designs.models import BomLineRecord
from apps.exports.excel import version_workbook_write
from apps.racks.models import Hall, Rack, RackItem
from tests.exports.test_exports import generate

pytestmark = pytest.mark.django_db
TRAY = "NVIDIA DGX GB200 NVL72 compute tray"


@pytest.fixture
def gb200(project, member, seed, django_capture_on_commit_callbacks):
    sn5600 = SwitchModel.objects.get(sku="920-9N42F-00RI-7C0")
    data = {
        "server": ServerModel.objects.get(sku="DGX-GB200-NVL72-TRAY").pk,
        "leaf_switch": SwitchModel.objects.get(sku="MQM9700-NS2F").pk, "gpus": 576,
        "layout": {"cooling": "liquid", "rack_power_kw": 140},
        "networks": {"frontend": {"switch": sn5600.pk, "breakout": "2x400G", "ports_per_server": 2},
                     "oob": {"switch": SwitchModel.objects.get(sku="SN2201").pk}},
    }
    return generate(project, member, data, django_capture_on_commit_callbacks, name="GB200 SU")


def test_stored_rows_flag_every_part_without_a_figure(gb200):
    cords = BomLineRecord.objects.filter(version=gb200, sku__startswith="CAT6A-")
    assert cords.exists() and not cords.filter(price_published=True).exists()
    assert not BomLineRecord.objects.filter(version=gb200, sku="SN2201", spare=False, power_published=True).exists()
    assert not BomLineRecord.objects.filter(version=gb200, unit_price=0, price_published=True).exists()
    hall = Hall.objects.get(version=gb200)
    assert {"SN2201", TRAY, "NVLink switch tray"} <= set(hall.power_missing)
    racks = Rack.objects.filter(version=gb200)
    assert not racks.filter(power_typical_w=0, power_missing="").exists()
    assert racks.filter(kind="compute").count() == 8
    assert all(TRAY in r.power_missing for r in racks.filter(kind="compute"))
    unflagged = RackItem.objects.filter(version=gb200, power_typical_w=0, power_missing="").exclude(
        kind__in=("patch-panel", "cable-manager"))
    assert not unflagged.exists()
    # The hall counts what the networks draw (switches and their optics): never below the networks' own power.
    assert hall.power_typical_w >= gb200.summary["cluster"]["power_typical_w"] - 1e-6


def test_design_page_marks_lower_bounds_and_names_the_parts_in_both_languages(client_for_member, member, project,
                                                                              gb200):
    url = reverse("designs:version-detail", kwargs={"project_pk": project.pk, "version_pk": gb200.pk})
    page = client_for_member.get(url).content.decode()
    for kpi in ("cost", "power"):
        block = page.split(f'data-kpi="{kpi}"', 1)[1].split("</div>\n  </div>", 1)[0]
        assert "≥" in block and "data-missing" in block, kpi
    assert "SN2201" in page.split('data-kpi="power"', 1)[1].split('data-kpi="rack_units"', 1)[0]
    cluster_row = page.split('data-network="cluster"', 1)[1].split("</tr>", 1)[0]
    assert "≥" in cluster_row and "CAT6A-5M" in cluster_row and "SN2201" in cluster_row
    assert 'id="bom-missing"' in page and "not published" in page
    profile_set_language(user=member, language="zh-hans")
    chinese = Client()
    chinese.force_login(member)
    zh = chinese.get(url).content.decode()
    assert "缺少：" in zh and "未公布" in zh and "≥" in zh


def test_api_lists_the_missing_parts_beside_the_totals(member_client, gb200):
    bom = member_client.get(f"/api/versions/{gb200.pk}/bom/").json()
    assert "SN2201" in bom["totals"]["power_missing"]
    assert bom["totals"]["price_missing"] and all(s.startswith("CAT6A-") for s in bom["totals"]["price_missing"])
    for line in bom["lines"]:
        if float(line["unit_price"]) == 0:
            assert line["price_published"] is False, line["sku"]
    hall = member_client.get(f"/api/versions/{gb200.pk}/hall/").json()
    assert TRAY in hall["power_missing"]
    racks = member_client.get(f"/api/versions/{gb200.pk}/racks/", {"limit": 100}).json()["results"]
    assert all(r["power_missing"] for r in racks if r["power_typical_w"] == 0)


def test_workbook_never_writes_a_zero_for_a_figure_we_lack(gb200, member, tmp_path):
    path = tmp_path / "gb200.xlsx"
    version_workbook_write(version=gb200, path_or_stream=str(path), user=member)
    book = openpyxl.load_workbook(path, read_only=True)
    rows = list(book["BOM"].iter_rows(values_only=True))
    header = list(rows[0])
    unit, missing = header.index(next(h for h in header if str(h).startswith("Unit price"))), header.index(
        "Missing figure")
    unit_power = header.index("Typical power per unit (W)")
    lines = [r for r in rows[1:] if r and len(r) > missing and r[0] and isinstance(r[3], int)]
    cords = [r for r in lines if str(r[0]).startswith("CAT6A-")]
    assert cords and all(r[unit] is None and "no list price" in r[missing] for r in cords)
    assert all(r[unit] != 0 for r in lines)
    sn2201 = [r for r in lines if r[0] == "SN2201" and "spare" not in (r[11] or "")]
    assert sn2201 and all(r[unit_power] is None and "no published power" in r[missing] for r in sn2201)
    notes = [r[0] for r in rows if r and isinstance(r[0], str) and "lower bounds" in r[0]]
    assert notes and "SN2201" in notes[0] and "CAT6A-5M" in notes[0]
    racks = list(book["Racks"].iter_rows(values_only=True))
    rheader = list(racks[0])
    typical = rheader.index("Typical power (W)")
    items = [r for r in racks[1:] if r and len(r) > typical and isinstance(r[1], int)]
    assert items and not [r for r in items if r[typical] == 0]
    trays = [r for r in items if r[7] == TRAY.removeprefix("NVIDIA ") or r[5] == "server"]
    assert trays and all(r[typical] == "not published" for r in trays)


def test_document_text_shows_lower_bounds_with_the_parts_named(gb200):
    from apps.documents.document import document_build
    from apps.documents.model import KeyValues, Paragraph, Table

    def text(document) -> dict[str, str]:
        out = {}
        for chapter in document.chapters:
            parts = []
            for block in chapter.blocks:
                if isinstance(block, Paragraph):
                    parts.append(block.text)
                elif isinstance(block, KeyValues):
                    parts += [f"{k}: {v}" for k, v in block.rows]
                elif isinstance(block, Table):
                    parts += [" | ".join(row) for row in block.rows]
            out[chapter.key] = "\n".join(parts)
        return out

    with translation.override("en"):
        en = text(document_build(version=gb200))
    total = next(line for line in en["bom"].splitlines() if line.startswith(" | Total"))
    assert "≥" in total and "CAT6A-5M" in total
    assert "≥" in en["summary"] and "SN2201" in en["summary"]
    hall_power = next(line for line in en["racks"].splitlines() if line.startswith("Power of the hall"))
    assert "≥" in hall_power and TRAY in hall_power
    cluster_row = next(line for line in en["architecture"].splitlines() if line.startswith("Whole cluster"))
    assert "≥" in cluster_row and "SN2201" in cluster_row
    with translation.override("zh-hans"):
        zh = text(document_build(version=gb200))
    assert "缺少：" in zh["bom"] and "缺少：" in zh["racks"]


def test_a_note_names_the_first_parts_and_counts_the_rest_in_both_languages():
    # A whole cluster of 1M GPUs lacks power figures for about 240 cut-to-length cords: named one by one, the notes
    # filled pages of the document. The BOM still lists every part on its own line.
    from apps.designs.missing import NAMED, at_least, bom_missing_text, missing_sentence
    cords = [f"SMF-{n}M" for n in range(101, 341)]
    assert missing_sentence(cords[:NAMED]) == "Missing: " + ", ".join(cords[:NAMED])
    note = missing_sentence(cords)
    assert note == "Missing: " + ", ".join(cords[:NAMED]) + f" and {240 - NAMED} more"
    assert "SMF-340M" not in at_least("75.6", cords) and at_least("75.6", cords).endswith("and 232 more)")
    assert "and 232 more" in bom_missing_text({"price": [], "power": cords})
    with translation.override("zh-hans"):
        assert missing_sentence(cords).endswith("另有 232 项")
