"""The procurement workbook and the NetBox files of a generated version, as procurement and ops open them.

Versions are generated through the designs service on the seed catalog (tasks run in-process).
LibreOffice (headless) recalculates the workbook the way a spreadsheet user would; it is started
once per test that needs it, for all the files of that test.
"""
from __future__ import annotations

import csv
import io
import shutil
import subprocess
import uuid
import zipfile
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import openpyxl
import pytest
import yaml
from django.urls import reverse
from django.utils.translation import gettext_lazy

from apps.exports.excel import (
    version_workbook_write,
    workbook_sheet_list,
    workbook_sheet_register,
)
from apps.exports.netbox import HEADERS, cable_type, interface_type, version_netbox_write
from apps.exports.netbox_parts import parts_bound, rows_parts_bound, weighted_parts
from apps.designs.workbook import Column
from apps.designs.models import DesignVersion, DeviceRecord, LinkRecord
from apps.designs.services.design import design_create
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db

# The procurement sheets, then the RoCE and Traffic sheets the analysis registers (apps/analysis).
SHEETS = ["Summary", "BOM", "Cabling", "IP plan", "Loopbacks", "ASN plan", "Racks", "Scale-up and planes", "RoCE",
          "Traffic"]
DISCOUNT = Decimal("7.35")
CENTS = Decimal("0.01")


def generate(project, user, data, capture, name="Fabric A") -> DesignVersion:
    with capture(execute=True):
        job = design_create(project=project, user=user, name=name, data=data)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    return DesignVersion.objects.get(pk=job.version_id)


@pytest.fixture
def version(project, member, seed, django_capture_on_commit_callbacks):
    """256 GPUs (32 DGX H100) on SN5600 leaves and spines in 2x400G, 2 tiers, 7.35 % discount."""
    return generate(project, member, inputs(seed, discount_pct=DISCOUNT), django_capture_on_commit_callbacks)


@pytest.fixture
def workbook_path(version, member, tmp_path) -> Path:
    path = tmp_path / "fabric.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path), user=member)
    return path


@pytest.fixture
def netbox_files(version, tmp_path) -> dict[str, list[dict[str, str]]]:
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=version, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    return files


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def api_bom_total(client, version) -> Decimal:
    response = client.get(reverse("api-version-bom", kwargs={"pk": version.pk}))
    assert response.status_code == 200
    return Decimal(response.json()["totals"]["total"])


def find_row(ws, label: str, column: int = 2) -> int:
    for row in range(1, ws.max_row + 1):
        if ws.cell(row=row, column=column).value == label:
            return row
    raise AssertionError(f"no row labelled {label!r} on {ws.title}")


def recalculate(paths: list[Path], outdir: Path) -> list[Path]:
    """Open and save each workbook with LibreOffice (headless), which recalculates every formula."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "LibreOffice (soffice) is needed to recalculate workbooks: apt-get install libreoffice-calc"
    profile = Path(f"/tmp/lo-{uuid.uuid4().hex}")
    outdir.mkdir(exist_ok=True)
    try:
        subprocess.run(
            [soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "xlsx",
             "--outdir", str(outdir), *map(str, paths)],
            check=True, capture_output=True, timeout=300,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    converted = [outdir / path.name for path in paths]
    for path in converted:
        assert path.is_file(), f"LibreOffice did not write {path}"
    return converted


def formulas_only(source: Path, target: Path, **changes) -> Path:
    """A copy whose formulas carry no cached results (openpyxl keeps formulas, drops values), with cell changes."""
    wb = openpyxl.load_workbook(source)
    for ref, value in changes.items():
        wb["BOM"][ref] = value
    wb.save(target)
    return target


# Workbook -----------------------------------------------------------------------------------------------


def test_workbook_has_the_sheets_with_styled_frozen_filtered_headers(workbook_path):
    wb = openpyxl.load_workbook(workbook_path)

    assert wb.sheetnames == SHEETS
    for title in SHEETS[1:]:
        ws = wb[title]
        header = ws["A1"]
        assert header.font.b, title
        assert header.fill.fill_type == "solid", title
        assert ws.freeze_panes == "A2", title
        assert ws.auto_filter.ref and ws.auto_filter.ref.startswith("A1:"), title
        assert ws.column_dimensions["A"].width > 5, title
    assert wb["Summary"].freeze_panes == "A2"
    bom = wb["BOM"]
    assert [c.value for c in bom[1]][:6] == [
        "Part number", "Description", "Category", "Quantity", "Unit price (USD)", "Extended price (USD)"]
    assert bom["D2"].number_format == "#,##0"
    assert bom["E2"].number_format == "#,##0.00"
    assert wb["Cabling"].cell(row=2, column=20).number_format == "0.0"
    asn = wb["ASN plan"]
    assert asn["H1"].value == "ASN" and asn["H2"].number_format == "0"


def test_bom_extended_prices_subtotals_discount_and_total_are_formulas(workbook_path, version):
    ws = openpyxl.load_workbook(workbook_path)["BOM"]
    lines = list(version.bom_lines.order_by("index"))
    last = 1 + len(lines)

    for row, line in enumerate(lines, start=2):
        assert ws[f"A{row}"].value == line.sku
        if not line.spare:  # a spare line's quantity is a formula of the spares policy (below)
            assert ws[f"D{row}"].value == line.qty
        assert Decimal(str(ws[f"E{row}"].value)) == line.unit_price
        assert ws[f"F{row}"].value == f"=D{row}*E{row}"
    subtotal = find_row(ws, "Subtotal, spares included")
    assert ws[f"F{subtotal}"].value == f"=SUM(F2:F{last})"
    # Category subtotals count the base lines; the spares have their own, on the Spare column.
    switches = find_row(ws, "Subtotal: Switches")
    assert ws[f"F{switches}"].value == (
        f'=SUMIFS($F$2:$F${last},$C$2:$C${last},"Switches",$L$2:$L${last},"<>spare")')
    spares = find_row(ws, "Subtotal: spares")
    assert ws[f"F{spares}"].value == f'=SUMIF($L$2:$L${last},"spare",$F$2:$F${last})'
    assert spares == subtotal - 1
    for row, line in enumerate(lines, start=2):
        assert ws[f"L{row}"].value == ("spare" if line.spare else None)
    assert [line.spare for line in lines] == sorted(line.spare for line in lines) and lines[-1].spare
    percent = find_row(ws, "Discount (%) — change it here")
    assert Decimal(str(ws[f"F{percent}"].value)) == DISCOUNT
    discount = find_row(ws, "Discount")
    assert ws[f"F{discount}"].value == f"=ROUND(F{subtotal}*F{percent}/100,2)"
    total = find_row(ws, "Total (USD)")
    assert ws[f"F{total}"].value == f"=F{subtotal}-F{discount}"
    assert ws.auto_filter.ref == f"A1:Q{last}"  # P: spares ordered; Q: the figure a line lacks


def test_spare_quantities_are_formulas_of_the_spares_policy_cells_and_their_base_lines(workbook_path, version):
    ws = openpyxl.load_workbook(workbook_path)["BOM"]
    lines = list(version.bom_lines.order_by("index"))
    rows = {(line.category, line.sku, line.spare): row for row, line in enumerate(lines, start=2)}
    assert ws["P1"].value == "Spares ordered"
    per_n = find_row(ws, "Spare switches: one per N installed, per model (0: none) — change it here")
    switch_pct = find_row(ws, "Spare switches (%) — the larger of this and one per N")
    optic_pct = find_row(ws, "Spare transceivers (%)")
    assert ws[f"F{per_n}"].value == version.spares["switches_per_spare"] == 20
    assert ws[f"F{switch_pct}"].value == 0 and ws[f"F{optic_pct}"].value == 2
    assert find_row(ws, "Spares policy") == find_row(ws, "Currency") + 1
    spares = [line for line in lines if line.spare]
    assert {line.category for line in spares} >= {"switch", "transceiver"}
    for line in spares:
        base = rows[(line.category, line.sku, False)]
        spare = rows[(line.category, line.sku, True)]
        formula = ws[f"D{spare}"].value
        assert f"D{base}" in formula and formula.startswith("=")
        if line.category == "switch":
            assert formula == (f"=MAX(IF($F${per_n}>0,ROUNDUP(D{base}/$F${per_n},0),0),"
                               f"IF($F${switch_pct}>0,MAX(1,ROUNDUP(D{base}*$F${switch_pct}/100,0)),0))")
        assert ws[f"P{base}"].value == f"=D{spare}"  # the base line shows the spares ordered of it
        assert ws[f"P{spare}"].value is None
    cached = openpyxl.load_workbook(workbook_path, data_only=True)["BOM"]
    for line in spares:
        assert cached[f"D{rows[(line.category, line.sku, True)]}"].value == line.qty
        assert cached[f"P{rows[(line.category, line.sku, False)]}"].value == line.qty
    summary = openpyxl.load_workbook(workbook_path)["Summary"]
    text = summary.cell(row=find_row(summary, "Spares (%)", column=1), column=2).value
    assert "one spare switch per 20 installed, per model" in text


def test_libreoffice_moves_the_spares_with_the_policy_cells(workbook_path, version, tmp_path):
    source = openpyxl.load_workbook(workbook_path)["BOM"]
    lines = list(version.bom_lines.order_by("index"))
    switch_lines = [(row, line) for row, line in enumerate(lines, start=2) if line.category == "switch"]
    (base_row, base), (spare_row, spare) = [item for item in switch_lines if not item[1].spare][0], \
        [item for item in switch_lines if item[1].spare][0]
    per_n = find_row(source, "Spare switches: one per N installed, per model (0: none) — change it here")
    optic_pct = find_row(source, "Spare transceivers (%)")
    changed = formulas_only(workbook_path, tmp_path / "policy.xlsx", **{f"F{per_n}": 2, f"F{optic_pct}": 0})

    (recalculated,) = recalculate([changed], tmp_path / "lo")

    ws = openpyxl.load_workbook(recalculated, data_only=True)["BOM"]
    assert ws[f"D{spare_row}"].value == -(-base.qty // 2) != spare.qty  # one per 2 installed
    assert ws[f"P{base_row}"].value == ws[f"D{spare_row}"].value
    for row, line in enumerate(lines, start=2):
        if line.spare and line.category == "transceiver":
            assert ws[f"D{row}"].value == 0 and ws[f"F{row}"].value == 0  # 0 %: no spare optics, nothing priced
    spares_total = Decimal(str(ws[f"F{find_row(ws, 'Subtotal: spares')}"].value)).quantize(CENTS)
    expected = sum((Decimal(str(ws[f"F{row}"].value)) for row, line in enumerate(lines, start=2) if line.spare),
                   Decimal("0")).quantize(CENTS)
    assert spares_total == expected and spares_total != version.spares_subtotal


def test_libreoffice_recalculates_the_total_to_the_api_total_and_follows_a_changed_quantity(
    workbook_path, version, member_client, tmp_path
):
    api_total = api_bom_total(member_client, version)
    source = openpyxl.load_workbook(workbook_path)["BOM"]
    switch_row = 2
    assert source[f"C{switch_row}"].value == "Switches"
    old_qty = source[f"D{switch_row}"].value
    unit_price = Decimal(str(source[f"E{switch_row}"].value))
    lines = list(version.bom_lines.order_by("index"))
    as_sent = formulas_only(workbook_path, tmp_path / "as-sent.xlsx")
    changed = formulas_only(workbook_path, tmp_path / "changed.xlsx", D2=old_qty + 10)

    recalculated, recalculated_changed = recalculate([as_sent, changed], tmp_path / "lo")

    ws = openpyxl.load_workbook(recalculated, data_only=True)["BOM"]
    total = Decimal(str(ws[f"F{find_row(ws, 'Total (USD)')}"].value)).quantize(CENTS)
    assert total == api_total
    # The spares subtotal recalculates to the API's, and the category subtotals plus it make the subtotal.
    spares = Decimal(str(ws[f"F{find_row(ws, 'Subtotal: spares')}"].value)).quantize(CENTS)
    assert spares == version.spares_subtotal == sum(line.total for line in lines if line.spare) > 0
    categories = sum(Decimal(str(ws[f"F{row}"].value)) for row in range(1, ws.max_row + 1)
                     if str(ws[f"B{row}"].value or "").startswith("Subtotal: ") and ws[f"B{row}"].value
                     != "Subtotal: spares")
    assert (categories + spares).quantize(CENTS) == Decimal(
        str(ws[f"F{find_row(ws, 'Subtotal, spares included')}"].value)).quantize(CENTS)
    cached = openpyxl.load_workbook(workbook_path, data_only=True)["BOM"]
    assert Decimal(str(cached[f"F{find_row(cached, 'Total (USD)')}"].value)).quantize(CENTS) == api_total

    # the switch model's spares follow its quantity (one per 20 installed, rounded up)
    spare_switch = next(line for line in lines if line.spare and line.sku == lines[0].sku)
    more_spares = -(-(old_qty + 10) // version.spares["switches_per_spare"]) - spare_switch.qty
    subtotal = sum((line.qty * line.unit_price for line in lines), Decimal("0")) + (10 + more_spares) * unit_price
    expected = subtotal - (subtotal * DISCOUNT / 100).quantize(CENTS, rounding=ROUND_HALF_UP)
    ws = openpyxl.load_workbook(recalculated_changed, data_only=True)["BOM"]
    assert ws["F2"].value == pytest.approx(float((old_qty + 10) * unit_price))
    assert Decimal(str(ws[f"F{find_row(ws, 'Total (USD)')}"].value)).quantize(CENTS) == expected
    summary = openpyxl.load_workbook(recalculated_changed, data_only=True)["Summary"]
    assert Decimal(str(summary.cell(row=find_row(summary, "Total (USD)", column=1), column=2).value)).quantize(
        CENTS) == expected


def test_cabling_has_a_row_per_link_with_both_ends_medium_and_length(workbook_path, version):
    ws = openpyxl.load_workbook(workbook_path, read_only=True)["Cabling"]
    header, *data = list(ws.iter_rows(values_only=True))
    links = LinkRecord.objects.filter(version=version).order_by("index")

    assert len(data) == links.count() == version.summary["total_links"]
    assert header[:13] == ("Link index", "Tier", "Plane", "Rail", "Pod", "A rack", "A device", "A port", "A label",
                           "B rack", "B device", "B port", "B label")
    first = links.select_related("a_device", "b_device").first()
    row = dict(zip(header, data[0]))
    assert row["A device"] == first.a_device.name and row["A port"] == first.a_port
    assert row["B device"] == first.b_device.name and row["B port"] == first.b_port
    assert row["A label"] == first.label_a and row["B label"] == first.label_b
    assert row["A rack"] == first.a_device.rack
    assert row["Medium"] == first.medium and row["Length (m)"] == first.length_m
    assert row["Tier"] == "server-leaf" and row["Rail"] == first.rail
    tiers = {row[1] for row in data}
    assert tiers == {"server-leaf", "leaf-spine"}


def test_ip_plan_loopbacks_and_asn_plan(workbook_path, version):
    wb = openpyxl.load_workbook(workbook_path, read_only=True)
    ip_header, *ip_rows = list(wb["IP plan"].iter_rows(values_only=True))
    link = LinkRecord.objects.filter(version=version, tier=1).select_related("a_device", "b_device").first()
    row = dict(zip(ip_header, ip_rows[link.index]))
    switches = DeviceRecord.objects.filter(version=version).exclude(role="server").order_by("index")

    assert len(ip_rows) == version.summary["total_links"]
    assert row["A device"] == link.a_device.name and row["A address"] == link.a_ip
    assert row["B device"] == link.b_device.name and row["B address"] == link.b_ip
    assert row["Subnet (/31)"] == link.subnet
    loopbacks = list(wb["Loopbacks"].iter_rows(min_row=2, values_only=True))
    assert [(r[0], r[-1]) for r in loopbacks] == [(s.name, f"{s.loopback}/32") for s in switches]
    asn_header, *asns = list(wb["ASN plan"].iter_rows(values_only=True))
    assert [(r[0], r[-1]) for r in asns] == [(s.name, s.asn) for s in switches]
    assert len({r[-1] for r in asns if r[1] == "leaf"}) == switches.filter(role="leaf").count()


def test_summary_names_customer_project_version_exporter_inputs_figures_and_warnings(workbook_path, version, member):
    ws = openpyxl.load_workbook(workbook_path)["Summary"]
    values = {row[0]: row[1] for row in ws.iter_rows(values_only=True) if row[0]}
    project = version.design.project

    assert values["Customer"] == project.customer.name
    assert values["Project"] == project.name
    assert values["Design"] == "Fabric A"
    assert values["Version"] == 1
    assert member.get_username() in values["Exported by"]
    assert values["GPUs requested"] == 256
    assert values["Leaf switch"].endswith("2x400G")
    assert values["Servers"] == 32
    assert values["Leaf switches"] == version.summary["switches"]["leaf"]
    assert values["Links in total"] == version.summary["total_links"]
    assert values["Maximum GPUs this design can grow to"] == version.summary["max_gpus"]
    # Every point the engine raised, the DGX H100's built-in NICs among them, one row each.
    warnings = [row[1] for row in ws.iter_rows(values_only=True) if row[0] == "Engine warning"]
    assert warnings == version.summary["warnings"] and len(warnings) == 3
    assert "are built into the 32 NVIDIA DGX H100 servers" in warnings[1]
    # Four 10.2 kW servers a rack: 40.8 kW, above the 20 kW air limit of the default air-cooled site.
    assert "they need rear-door cooling, but the site offers air" in warnings[-1]
    assert values["Total (USD)"].startswith("='BOM'!$F$")
    assert values["Prices"].startswith("Some list prices are catalog examples")
    # Spares and power by scope: the network's, and apart from it what the servers draw for their optics.
    assert values["Spares (USD)"].startswith("='BOM'!$F$")
    assert values["Spares (%)"] == (
        "switches 0, transceivers 2, cables 2, fibre cords 2; one spare switch per 20 installed, per model")
    assert values["Network power, typical (kW)"] == pytest.approx(version.power_typical_w / 1000)
    assert values["In-server power, typical (kW)"] == pytest.approx(version.in_server_typical_w / 1000)
    assert version.in_server_typical_w > 0
    notes = {row[0]: row[2] for row in ws.iter_rows(values_only=True) if row[0]}
    assert notes["Total (USD)"] == "spares included"


def test_bom_sheet_gives_power_by_scope_as_formulas(workbook_path, version):
    ws = openpyxl.load_workbook(workbook_path)["BOM"]
    lines = list(version.bom_lines.order_by("index"))
    last = 1 + len(lines)
    for row, line in enumerate(lines, start=2):
        assert ws[f"O{row}"].value == f"=D{row}*N{row}"
        assert ws[f"N{row}"].value == pytest.approx(line.in_server_typical_w / line.qty)
        assert ws[f"M{row}"].value == {"network": "network", "in-server": "in-server", "both": "network and in-server",
                                       "spare": "spare, unpowered"}[line.scope]
    network = find_row(ws, "Network power, typical (W): switches and switch-side optics")
    assert ws[f"H{network}"].value == f"=SUM(H2:H{last})-SUM(O2:O{last})"
    in_server = find_row(ws, "In-server power, typical (W): NICs and server-side optics, in the servers' budget")
    assert ws[f"H{in_server}"].value == f"=SUM(O2:O{last})"
    cached = openpyxl.load_workbook(workbook_path, data_only=True)["BOM"]
    assert cached[f"H{network}"].value == pytest.approx(version.power_typical_w)
    assert cached[f"H{in_server}"].value == pytest.approx(version.in_server_typical_w)


def test_a_workbook_of_a_version_from_before_spares_and_the_power_split_says_not_computed(version, tmp_path):
    version.bom_lines.filter(spare=True).delete()
    version.bom_lines.update(scope="", in_server_typical_w=None, in_server_max_w=None)
    DesignVersion.objects.filter(pk=version.pk).update(spares=None, spares_subtotal=None, in_server_typical_w=None,
                                                       in_server_max_w=None)
    version.refresh_from_db()
    path = tmp_path / "old.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path))
    wb = openpyxl.load_workbook(path)
    values = {row[0]: row[1] for row in wb["Summary"].iter_rows(values_only=True) if row[0]}
    assert values["Spares (USD)"] == "not computed" and values["In-server power (kW)"] == "not computed"
    assert values["Spares (%)"] == "none (generated before spares)"
    assert "Power, typical (kW)" in values and "Network power, typical (kW)" not in values
    bom = wb["BOM"]
    find_row(bom, "Subtotal")
    find_row(bom, "Power by scope (network, in-server): not computed for this version")


def test_lines_with_example_prices_are_marked(workbook_path, version):
    ws = openpyxl.load_workbook(workbook_path)["BOM"]
    marks = {ws[f"A{row}"].value: ws[f"K{row}"].value for row in range(2, 2 + version.bom_lines.count())}

    assert set(marks.values()) == {"yes"}  # every seed price is an example
    notes = [row[0] for row in ws.iter_rows(min_row=2 + len(marks), values_only=True) if row[0]]
    assert any("catalog example prices" in note for note in notes)


@pytest.fixture
def extra_sheets():
    """Register sheets for one test; the registry is restored afterwards, real sheets included."""
    from apps.designs import sheets as excel

    saved = dict(excel._SHEETS)

    def register(name, writer, order):
        workbook_sheet_register(name, writer, order)

    yield register
    excel._SHEETS.clear()
    excel._SHEETS.update(saved)


def test_a_sheet_registered_by_another_app_is_written_in_its_place(version, tmp_path, extra_sheets):
    def checklist(context, sheet):
        sheet.columns([Column("Check", 30), Column("Result", 10)])
        sheet.append(["PFC on priority 3", "ok"])
        sheet.append(["Version", context.version.number])

    def not_applicable(context, sheet):
        return False

    extra_sheets(gettext_lazy("RoCE checklist"), checklist, 15)
    extra_sheets("Power budget", not_applicable, 65)
    path = tmp_path / "extra.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path))

    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Summary", "BOM", "RoCE checklist", *SHEETS[2:]]
    ws = wb["RoCE checklist"]
    assert [[c.value for c in row] for row in ws.iter_rows()] == [["Check", "Result"], ["PFC on priority 3", "ok"],
                                                                   ["Version", 1]]
    assert ws["A1"].font.b and ws.freeze_panes == "A2" and ws.auto_filter.ref == "A1:B3"
    assert [entry.key for entry in workbook_sheet_list()][:3] == ["Summary", "BOM", "RoCE checklist"]


# NetBox ---------------------------------------------------------------------------------------------------


def logical_file(name: str) -> str:
    """The logical file of a numbered zip entry: "07-devices-part01.csv" -> "devices",
    "01-manufacturers-nvidia.csv" -> "manufacturers" (shared objects come one per file)."""
    rest = name.split("-", 1)[1].rsplit(".", 1)[0]
    keys = [key for key in (*HEADERS, "device_types") if rest == key or rest.startswith(f"{key}-")]
    return max(keys, key=len)


def tables(files: dict[str, str]) -> dict[str, list[dict[str, str]]]:
    """Rows per logical file ("devices", "cables", ...), parts joined in their order."""
    out: dict[str, list[dict[str, str]]] = {}
    for name in sorted(files):
        if name.endswith(".csv"):
            out.setdefault(logical_file(name), []).extend(rows(files[name]))
    return out


def device_types(files: dict[str, str]) -> list[dict]:
    return [document for name in sorted(files) if name.startswith("06-device_types-")
            for document in yaml.safe_load_all(files[name])]


def test_netbox_zip_holds_numbered_files_with_netbox_headers_and_a_readme(netbox_files):
    names = set(netbox_files)
    assert {"README.txt", "02-tenants.csv", "03-sites.csv", "04-locations.csv", "05-racks.csv",
            "07-devices-part01.csv", "08-cables-part01.csv", "11-vrfs.csv", "12-prefixes.csv",
            "13-ip_addresses-part01.csv"} <= names
    for shared in ("01-manufacturers-", "02-device_roles-", "06-device_types-", "09-rirs-", "10-asns-"):
        assert any(name.startswith(shared) for name in names), shared
    for name, text in netbox_files.items():
        if name.endswith(".csv"):
            assert text.splitlines()[0] == ",".join(HEADERS[logical_file(name)]), name
    readme = netbox_files["README.txt"]
    numbered = sorted(name for name in names if name[:2].isdigit())
    listing = readme.index("Parts of one file go in their order")
    order = [readme.index(f"  {name} ", listing) for name in numbered]
    assert order == sorted(order)  # the README lists every file, parts included, in import order
    assert "Background job" in readme and "120 s" in readme and "second import" in readme
    # a backend-only design: one figure, every cable of the files
    assert f"\nLinks:    {len(tables(netbox_files)['cables']):,}\n" in readme


def test_netbox_field_names_are_those_of_netbox_import_forms():
    # netbox-community/netbox dcim/forms/bulk_import.py and ipam/forms/bulk_import.py Meta.fields
    netbox_fields = {
        "locations": {"site", "parent", "name", "slug", "status", "tenant", "facility", "description"},
        "racks": {"site", "location", "group", "name", "facility_id", "tenant", "status", "role", "width",
                  "u_height"},
        "devices": {"name", "role", "tenant", "manufacturer", "device_type", "status", "site", "location", "rack",
                    "position", "face", "description"},
        "tenants": {"name", "slug", "group", "description", "comments"},
        "sites": {"name", "slug", "status", "region", "group", "tenant", "facility", "time_zone", "description"},
        "interfaces": {"device", "name", "label", "parent", "bridge", "lag", "type", "enabled", "mark_connected",
                       "mac_address", "speed", "duplex", "mtu", "mgmt_only", "description", "mode"},
        "rirs": {"name", "slug", "is_private", "description"},
        "asns": {"asn", "rir", "role", "tenant", "description"},
        "vrfs": {"name", "rd", "tenant", "enforce_unique", "description"},
        "prefixes": {"prefix", "vrf", "tenant", "status", "role", "is_pool", "mark_utilized", "description"},
        "ip_addresses": {"address", "vrf", "tenant", "status", "role", "device", "interface", "description"},
    }
    for key, allowed in netbox_fields.items():
        assert set(HEADERS[key]) <= allowed, key


def test_spare_switches_are_not_netbox_devices(project, member, seed, tmp_path, django_capture_on_commit_callbacks):
    version = generate(project, member, inputs(seed, spares={"switches": 50}), django_capture_on_commit_callbacks)
    spare_switches = version.bom_lines.get(spare=True, category="switch").qty
    assert spare_switches >= 1
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=version, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        devices = tables({n: archive.read(n).decode("utf-8") for n in archive.namelist()})["devices"]
    assert len(devices) == DeviceRecord.objects.filter(version=version).count()
    assert len(devices) == version.summary["servers"] + sum(version.summary["switches"].values())


def test_netbox_cables_join_prefixed_devices_and_template_interfaces_by_name(netbox_files, version):
    t = tables(netbox_files)
    devices = {row["name"]: row for row in t["devices"]}
    templates = {(d["manufacturer"], d["model"]): {i["name"] for i in d["interfaces"]}
                 for d in device_types(netbox_files)}
    roles = {row["name"] for row in t["device_roles"]}
    sites = {row["name"] for row in t["sites"]}
    racks = {(row["location"], row["name"]) for row in t["racks"]}
    cables = t["cables"]
    prefix = "fabric-a"

    assert len(devices) == DeviceRecord.objects.filter(version=version).count()
    assert all(name.startswith(f"{prefix}-") for name in devices)
    assert len(cables) == version.summary["total_links"]
    for cable in cables:
        for side in ("a", "b"):
            device = devices[cable[f"side_{side}_device"]]
            assert cable[f"side_{side}_type"] == "dcim.interface"
            assert cable[f"side_{side}_name"] in templates[(device["manufacturer"], device["device_type"])]
        assert cable["status"] == "planned" and cable["length_unit"] == "m" and float(cable["length"]) > 0
    for device in devices.values():
        assert (device["manufacturer"], device["device_type"]) in templates
        assert device["role"] in roles and device["site"] in sites and (device["location"], device["rack"]) in racks
        assert device["status"] == "planned" and device["location"] == prefix
    link = LinkRecord.objects.filter(version=version, tier=0).select_related("a_device", "b_device").first()
    first = cables[0]
    assert (first["side_a_device"], first["side_a_name"], first["side_b_device"], first["side_b_name"]) == (
        f"{prefix}-{link.a_device.name}", link.a_port, f"{prefix}-{link.b_device.name}", link.b_port)
    assert first["label"] == link.label_a


def test_netbox_types_are_netbox_slugs(netbox_files):
    cable_types = {row["type"] for row in tables(netbox_files)["cables"]}
    interface_types = {i["type"] for d in device_types(netbox_files) for i in d["interfaces"]}

    assert cable_types <= {"dac-passive", "dac-active", "aoc", "mmf-om4", "smf-os2"} and cable_types
    assert interface_types == {"400gbase-x-osfp", "virtual"}  # 2x400G ports of 800G OSFP cages; loopbacks
    assert cable_type("DAC", "") == "dac-passive" and cable_type("AEC", "") == "dac-active"
    assert cable_type("SR", "MMF") == "mmf-om4" and cable_type("DR", "SMF") == "smf-os2"
    assert interface_type(800, "OSFP") == "800gbase-x-osfp" and interface_type(400, "QSFP112") == "400gbase-x-qsfp112"
    assert interface_type(200, "OSFP") == "other"


def test_netbox_switch_templates_are_every_logical_port_named_by_first_lane(netbox_files, version):
    device = DeviceRecord.objects.get(version=version, name="p0-su00-leaf-r0")
    row = next(r for r in tables(netbox_files)["devices"] if r["name"] == "fabric-a-p0-su00-leaf-r0")
    (switch_type,) = [d for d in device_types(netbox_files) if d["model"] == row["device_type"]]
    ports = [i["name"] for i in switch_type["interfaces"]]

    assert row["device_type"].endswith(" 2x400G")  # a split model is a type of its own
    assert ports[:4] == ["Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12"]  # 2x400G: two ports per OSFP cage
    assert len(ports) == device.ports + 1 and ports[-1] == "Loopback0"
    addresses = tables(netbox_files)["ip_addresses"]
    assert {"address": f"{device.loopback}/32", "vrf": "fabric-a", "status": "reserved", "role": "loopback",
            "device": "fabric-a-p0-su00-leaf-r0", "interface": "Loopback0", "description": "",
            "tenant": version.design.project.customer.name} in addresses


def test_netbox_exports_asns_vrf_and_prefixes_of_the_plan(netbox_files, version):
    t = tables(netbox_files)
    asns = {int(row["asn"]): row for row in t["asns"]}
    switch_asns = set(DeviceRecord.objects.filter(version=version).exclude(role="server")
                      .values_list("asn", flat=True))
    assert set(asns) == switch_asns
    assert {row["rir"] for row in asns.values()} == {"RFC 6996 private ASNs"}
    assert t["rirs"] == [{"name": "RFC 6996 private ASNs", "slug": "rfc-6996", "is_private": "true"}]
    assert t["vrfs"][0]["name"] == "fabric-a" and t["vrfs"][0]["enforce_unique"] == "true"
    pools = version.spec["pools"]
    assert {row["prefix"] for row in t["prefixes"]} == {pools["host"], pools["p2p"], pools["loopback"]}
    assert {row["vrf"] for row in t["prefixes"]} == {"fabric-a"}
    assert {row["vrf"] for row in t["ip_addresses"]} == {"fabric-a"}


def test_netbox_parts_stay_within_the_timeout_budget(project, member, seed, tmp_path,
                                                      django_capture_on_commit_callbacks):
    from apps.exports.netbox_parts import CABLE_ROWS_PER_PART, INTERFACE_BUDGET

    version = generate(project, member, inputs(seed, gpus=4096), django_capture_on_commit_callbacks, name="Big")
    path = tmp_path / "big.zip"
    counts = version_netbox_write(version=version, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        files = {n: archive.read(n).decode("utf-8") for n in archive.namelist()}
    cable_parts = sorted(n for n in files if n.startswith("08-cables-part"))
    assert len(cable_parts) >= 2 and cable_parts[0] == "08-cables-part01.csv"
    assert all(len(rows(files[n])) <= CABLE_ROWS_PER_PART for n in cable_parts)
    assert sum(len(rows(files[n])) for n in cable_parts) == counts["cables"] == version.summary["total_links"]
    ports = {d["model"]: len(d["interfaces"]) for d in device_types(files)}
    for name in (n for n in files if n.startswith("07-devices-part")):
        assert sum(1 + ports[r["device_type"]] + 1 for r in rows(files[name])) <= INTERFACE_BUDGET or \
            len(rows(files[name])) == 1


def test_netbox_prefix_chosen_by_the_user_names_devices_location_and_vrf(version, tmp_path):
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=version, path_or_stream=str(path), prefix="hall2.alt")
    with zipfile.ZipFile(path) as archive:
        files = {n: archive.read(n).decode("utf-8") for n in archive.namelist()}
    t = tables(files)
    assert all(row["name"].startswith("hall2.alt-") for row in t["devices"])
    assert t["locations"][0]["name"] == "hall2.alt" and {r["location"] for r in t["racks"]} == {"hall2.alt"}
    assert t["vrfs"][0]["name"] == "hall2.alt"
    assert 'Prefix:   hall2.alt' in files["README.txt"]


def test_netbox_rack_positions_fit_their_racks_without_overlap(netbox_files):
    heights = {d["model"]: int(d["u_height"]) for d in device_types(netbox_files)}
    t = tables(netbox_files)
    rack_heights = {row["name"]: int(row["u_height"]) for row in t["racks"]}
    used: dict[str, set[int]] = {}
    for device in t["devices"]:
        units = set(range(int(device["position"]), int(device["position"]) + heights[device["device_type"]]))
        assert not used.setdefault(device["rack"], set()) & units, device["name"]
        assert max(units) <= rack_heights[device["rack"]]
        used[device["rack"]] |= units


def test_netbox_files_of_a_three_tier_design_with_optics(project, member, seed, tmp_path,
                                                        django_capture_on_commit_callbacks):
    data = inputs(seed, leaf_switch=seed["th4"].pk, leaf_breakout="1x400G", gpus=2048, tiers="3")
    version = generate(project, member, data, django_capture_on_commit_callbacks, name="Three tiers")
    path = tmp_path / "three.zip"
    counts = version_netbox_write(version=version, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}

    t = tables(files)
    devices = {row["name"]: row for row in t["devices"]}
    cables = t["cables"]
    assert {row["role"] for row in devices.values()} == {"GPU server", "Leaf switch", "Spine switch", "Core switch"}
    assert counts["cables"] == len(cables) == version.summary["total_links"]
    optical = {cable["type"] for cable in cables} & {"mmf-om4", "smf-os2"}
    assert optical, "a 3-tier hall has optical spine-core runs"
    templates = {d["model"]: {i["name"]: i["type"] for i in d["interfaces"]} for d in device_types(files)}
    for cable in cables:
        for side in ("a", "b"):
            assert cable[f"side_{side}_name"] in templates[devices[cable[f"side_{side}_device"]]["device_type"]]
    assert {v for ports in templates.values() for v in ports.values()} == {"400gbase-x-osfp", "400gbase-x-qsfpdd",
                                                                           "virtual"}
    test_netbox_rack_positions_fit_their_racks_without_overlap(files)


def test_a_registered_sheet_that_fails_is_left_out_and_named_on_the_summary(version, tmp_path, extra_sheets):
    from apps.designs.models import Design

    def broken(context, sheet):
        sheet.columns([Column("Check", 30)])
        list(Design.objects.raw("SELECT * FROM no_such_table"))  # a query error, as from a missing migration

    extra_sheets("RoCE checklist", broken, 60)
    path = tmp_path / "partial.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path))

    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == SHEETS
    summary = [row for row in wb["Summary"].iter_rows(values_only=True) if row[0]]
    assert summary[-2][0] == "Sheets left out"
    assert summary[-1][0] == "RoCE checklist" and "no_such_table" in summary[-1][1]
    assert DesignVersion.objects.filter(pk=version.pk).exists()  # the connection still works


def test_parts_bound_counts_the_parts_weighted_parts_cuts():
    weights = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9]
    for budget in (1, 5, 9, 10, 30, 1000):
        assert parts_bound(weights, budget) == len(list(weighted_parts([(w,) for w in weights], lambda r: r[0], budget)))
    assert parts_bound([], 10) == 0
    assert rows_parts_bound(720, 360) == 2 and rows_parts_bound(721, 360) == 3 and rows_parts_bound(0, 360) == 0


def test_netbox_part_numbers_are_wide_enough_to_sort_in_import_order(version, tmp_path, monkeypatch):
    # Parts of 2 cables: the 256-GPU fabric's 512 links make 256 cable parts, numbered part001 to part256 (a
    # 1,000,000-GPU design's 3.0 M cables make 8,336 parts of 360).
    monkeypatch.setattr("apps.exports.netbox.CABLE_ROWS_PER_PART", 2)
    path = tmp_path / "netbox.zip"
    version_netbox_write(version=version, path_or_stream=str(path))
    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    cables = [name for name in files if name.startswith("08-cables-part")]
    links = LinkRecord.objects.filter(version=version).count()
    assert len(cables) == -(-links // 2) > 99
    assert {len(name) for name in cables} == {len("08-cables-part001.csv")}
    assert "08-cables-part001.csv" in files and f"08-cables-part{len(cables):03d}.csv" in files
    readme = files["README.txt"]
    listing = readme.index("Parts of one file go in their order")
    numbered = sorted(name for name in files if name[:2].isdigit())
    order = [readme.index(f"  {name} ", listing) for name in numbered]
    assert order == sorted(order)  # sorted by name is the README's import order


def test_workbook_of_a_design_too_large_for_the_traffic_analysis_says_so_instead_of_running_it(
        version, member, tmp_path, monkeypatch):
    from apps.analysis.models import TrafficAnalysis

    TrafficAnalysis.objects.filter(version=version).delete()  # as generation leaves a design above the limit

    def analyze(*args, **kwargs):
        raise AssertionError("the export ran the traffic analysis")

    monkeypatch.setattr("apps.analysis.sheets.GENERATION_TRAFFIC_MAX_GPUS", version.gpus - 1)
    monkeypatch.setattr("apps.analysis.sheets.analyze", analyze)
    path = tmp_path / "large.xlsx"
    version_workbook_write(version=version, path_or_stream=str(path), user=member)
    book = openpyxl.load_workbook(path, read_only=True)
    cells = [str(cell) for row in book["Traffic"].iter_rows(values_only=True) for cell in row if cell]
    assert any("Not analysed during generation" in cell for cell in cells), cells
