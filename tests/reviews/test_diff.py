"""The diff of two generated versions: inputs, switches and links per tier, BOM lines, exact cost deltas."""
from __future__ import annotations

import io
from decimal import Decimal

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from apps.designs.models import BomLineRecord
from apps.reviews.models import AuditEvent
from apps.reviews.services.diff import version_diff
from tests.designs.factories import DesignVersionFactory
from tests.projects.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def bom(version) -> dict[str, tuple[int, Decimal, Decimal]]:
    """Quantity, unit price and total per SKU, its spare line included (the diff compares what is ordered)."""
    out: dict[str, tuple[int, Decimal, Decimal]] = {}
    for line in BomLineRecord.objects.filter(version=version):
        qty, _price, total = out.get(line.sku, (0, line.unit_price, Decimal("0")))
        out[line.sku] = (qty + line.qty, line.unit_price, total + line.total)
    return out


def section(rows, title) -> list[tuple]:
    """The rows of a section of the Diff sheet: from its header row to the blank row after it."""
    start = next(i for i, row in enumerate(rows) if row[0] == title) + 1
    out = []
    for row in rows[start:]:
        if not any(cell is not None for cell in row):
            break
        out.append(tuple(cell for cell in row if cell is not None))
    return out


def diff_url(project, a, b, name="api-project-diff") -> str:
    return reverse(name, kwargs={"project_pk": project.pk}) + f"?a={a}&b={b}"


def test_diff_of_versions_with_different_gpu_counts_has_exact_bom_and_cost_deltas(version, version_2):
    diff = version_diff(a=version, b=version_2)

    lines_a, lines_b = bom(version), bom(version_2)
    by_sku = {line.sku: line for line in diff.bom}
    assert set(by_sku) == set(lines_a) | set(lines_b)
    for sku, line in by_sku.items():
        qty_a, _price_a, total_a = lines_a.get(sku, (0, None, Decimal("0")))
        qty_b, _price_b, total_b = lines_b.get(sku, (0, None, Decimal("0")))
        assert (line.qty_a, line.qty_b, line.qty_delta) == (qty_a, qty_b, qty_b - qty_a), sku
        assert (line.total_a, line.total_b, line.total_delta) == (total_a, total_b, total_b - total_a), sku
        expected = "added" if sku not in lines_a else "removed" if sku not in lines_b else (
            "same" if lines_a[sku] == lines_b[sku] else "changed")
        assert line.status == expected, sku
    # The DGX H100's NICs are built in; its twin-port cages take a flat-top module each: 8 -> 16 servers * 4,
    # plus 2 % spares rounded up (1 -> 2).
    flat = by_sku["MMA4Z00-NS-FLT"]
    assert (flat.status, flat.qty_a, flat.qty_b, flat.unit_price_a) == ("changed", 32 + 1, 64 + 2, Decimal("1400.00"))
    assert flat.total_delta == Decimal("46200.00")

    totals = {row.key: row for row in diff.totals}
    assert totals["total_cost"].delta == version_2.total_cost - version.total_cost
    assert totals["subtotal"].delta == sum((line.total_delta for line in diff.bom), Decimal("0"))
    assert isinstance(totals["total_cost"].delta, Decimal)
    assert totals["rack_units"].delta == version_2.rack_units - version.rack_units
    assert totals["power_typical_w"].delta == (
        Decimal(str(round(version_2.power_typical_w, 1))) - Decimal(str(round(version.power_typical_w, 1))))


def test_diff_names_the_inputs_that_changed_and_counts_per_tier(version, version_2):
    diff = version_diff(a=version, b=version_2)

    assert [(c.field, c.a, c.b) for c in diff.inputs] == [("gpus", "64", "128")]
    switches = {row.key: (row.a, row.b, row.delta) for row in diff.switches}
    links = {row.key: (row.a, row.b, row.delta) for row in diff.links}
    sa, sb = version.summary, version_2.summary
    assert switches == {tier: (sa["switches"][tier], sb["switches"][tier], sb["switches"][tier] - sa["switches"][tier])
                        for tier in ("leaf", "spine", "core")}
    assert links == {tier: (sa["links"][tier], sb["links"][tier], sb["links"][tier] - sa["links"][tier])
                     for tier in ("server-leaf", "leaf-spine", "spine-core")}
    assert links["server-leaf"] == (64, 128, 64)


def test_diff_between_designs_names_the_catalog_parts_that_differ(project, member, version, generate, seed):
    other = generate(project, member, name="Fabric TH4", gpus=64, leaf_switch=seed["th4"].pk, leaf_breakout="1x400G",
                     currency="USD")

    changes = {c.field: (c.a, c.b) for c in version_diff(a=version, b=other).inputs}

    assert changes["design"] == ("Fabric A", "Fabric TH4")
    assert changes["leaf_switch"] == ("NVIDIA Spectrum-4 SN5600 (920-9N42F-00RI-7C0)",
                                      f"{seed['th4'].manufacturer.name} {seed['th4'].model} (DCS-7060DX5-64S)")
    assert changes["leaf_breakout"] == ("2x400G", "1x400G")


def test_money_deltas_are_left_out_between_currencies(project, member, version, generate):
    in_euros = generate(project, member, name="Fabric EUR", gpus=64, currency="EUR")

    diff = version_diff(a=version, b=in_euros)

    assert not diff.same_currency
    assert {row.key: row.delta for row in diff.totals if row.money} == {
        "subtotal": None, "discount": None, "total_cost": None}
    assert all(line.total_delta is None for line in diff.bom)


def test_diff_api_answers_exact_decimal_strings(version, version_2, project, member_api):
    response = member_api.get(diff_url(project, version.pk, version_2.pk))

    assert response.status_code == 200
    body = response.json()
    assert (body["a"]["label"], body["b"]["label"]) == ("Fabric A v1", "Fabric A v2")
    totals = {row["key"]: row for row in body["totals"]}
    assert Decimal(totals["total_cost"]["delta"]) == version_2.total_cost - version.total_cost
    assert totals["total_cost"]["a"] == str(version.total_cost)
    flat = next(line for line in body["bom"] if line["sku"] == "MMA4Z00-NS-FLT")
    assert (flat["qty_delta"], flat["total_delta"]) == (33, "46200.00")  # 32 modules and 1 more spare
    assert body["inputs"] == [{"field": "gpus", "label": "GPUs", "a": "64", "b": "128"}]
    assert body["bom_counts"]["changed"] >= 1


def test_diff_api_refuses_missing_unready_and_foreign_versions_field_by_field(version, project, member_api):
    foreign = DesignVersionFactory(design__project=ProjectFactory())
    queued = DesignVersionFactory(design__project=project)

    missing = member_api.get(reverse("api-project-diff", kwargs={"project_pk": project.pk}) + f"?a={version.pk}")
    not_ready = member_api.get(diff_url(project, queued.pk, version.pk))
    other_project = member_api.get(diff_url(project, version.pk, foreign.pk))
    not_a_number = member_api.get(diff_url(project, "v1", version.pk))

    assert missing.status_code == not_ready.status_code == other_project.status_code == not_a_number.status_code == 400
    assert missing.json() == {"b": ["This field is required."]}
    assert list(not_ready.json()) == ["a"]
    assert "queued" in not_ready.json()["a"][0]
    assert other_project.json() == {"b": [f"This project has no version {foreign.pk}."]}
    assert list(not_a_number.json()) == ["a"]


def test_diff_api_is_404_for_non_members(version, version_2, project, outsider_api):
    assert outsider_api.get(diff_url(project, version.pk, version_2.pk)).status_code == 404


def test_diff_workbook_opens_with_the_expected_rows(version, version_2, project, member_api):
    response = member_api.get(diff_url(project, version.pk, version_2.pk, "api-project-diff-workbook"))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert "attachment" in response["Content-Disposition"]
    wb = openpyxl.load_workbook(io.BytesIO(response.content))
    assert wb.sheetnames == ["Diff", "BOM changes"]
    summary = list(wb["Diff"].iter_rows(values_only=True))
    assert summary[0][0] == "Diff: Fabric A v1 → Fabric A v2"
    assert section(summary, "Inputs changed") == [("Input", "Fabric A v1", "Fabric A v2"), ("GPUs", "64", "128")]
    links = {row[0]: row[1:4] for row in section(summary, "Links per tier")}
    assert links["Server–leaf links"] == (64, 128, 64)
    totals = {row[0]: row[1:5] for row in section(summary, "Totals")}
    cost_a, cost_b, cost_delta, currency = totals["Total cost"]
    assert (Decimal(str(cost_a)), Decimal(str(cost_b)), currency) == (version.total_cost, version_2.total_cost, "USD")
    assert Decimal(str(cost_delta)) == version_2.total_cost - version.total_cost

    sheet = wb["BOM changes"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:7] == ("SKU", "Description", "Category", "Status", "Qty A", "Qty B", "Qty change")
    by_sku = {row[0]: row for row in rows[1:]}
    assert set(by_sku) == set(bom(version)) | set(bom(version_2))
    assert by_sku["MMA4Z00-NS-FLT"][3:7] == ("changed", 33, 66, 33)  # spares included
    assert Decimal(str(by_sku["MMA4Z00-NS-FLT"][11])) == Decimal("46200")
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == f"A1:L{len(rows)}"
    assert AuditEvent.objects.filter(action="exported", data__kind="diff_xlsx").count() == 1


def test_diff_page_shows_two_pickers_and_the_versions_side_by_side(version, version_2, project, member):
    client = Client()
    client.force_login(member)

    empty = client.get(reverse("reviews:diff", kwargs={"project_pk": project.pk}))
    page = client.get(diff_url(project, version.pk, version_2.pk, "reviews:diff"))

    assert empty.status_code == page.status_code == 200
    assert 'id="diff-a"' in empty.content.decode() and "diff-bom" not in empty.content.decode()
    html = page.content.decode()
    assert "Fabric A v1" in html and "Fabric A v2" in html
    assert 'class="bom-changed" data-sku="MMA4Z00-NS-FLT"' in html
    assert 'data-field="gpus"' in html
    assert page.context["diff"].b.pk == version_2.pk


def test_diff_page_with_a_bad_version_shows_the_error_in_place(version, project, member):
    client = Client()
    client.force_login(member)

    page = client.get(diff_url(project, version.pk, 999999, "reviews:diff"))
    download = client.get(diff_url(project, version.pk, "", "reviews:diff-workbook"))

    assert page.status_code == download.status_code == 200
    assert page.context["errors"] == {"b": ["This project has no version 999999."]}
    assert download.context["errors"] == {"b": ["Choose a version."]}
    assert "This project has no version 999999." in page.content.decode()


def test_diff_reads_only_bom_lines_and_summaries(version, version_2, django_assert_max_num_queries):
    # Per-link rows are never read: the number of queries does not grow with the design.
    with django_assert_max_num_queries(4):
        version_diff(a=version, b=version_2)


def test_schema_for_review_routes_is_valid_and_warning_free():
    from django.urls import include, path
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    generator = SchemaGenerator(patterns=[path("api/", include("apps.reviews.api.urls"))])
    GENERATOR_STATS.reset()
    schema = generator.get_schema(request=None, public=True)

    assert not GENERATOR_STATS._warn_cache, list(GENERATOR_STATS._warn_cache)
    assert not GENERATOR_STATS._error_cache, list(GENERATOR_STATS._error_cache)
    validate_schema(schema)
    assert {
        "/api/versions/{id}/comments/", "/api/versions/{id}/comments/{comment_pk}/", "/api/versions/{id}/review/",
        "/api/projects/{project_pk}/audit/", "/api/projects/{project_pk}/diff/",
        "/api/projects/{project_pk}/diff/workbook/", "/api/projects/{project_pk}/approved-versions/",
    } <= set(schema["paths"])
    audit_params = {p["name"] for p in schema["paths"]["/api/projects/{project_pk}/audit/"]["get"]["parameters"]}
    assert {"action", "actor", "since", "until", "version"} <= audit_params


def test_diff_shows_bisection_bandwidth_in_tbps_as_the_design_page_does(version, version_2, project, member):
    diff = version_diff(a=version, b=version_2)
    row = next(row for row in diff.figures if row.key == "bisection_tbps")
    assert (row.a, row.b) == (version.summary["bisection_gbps"] / 1000, version_2.summary["bisection_gbps"] / 1000)
    assert str(row.label) == "Bisection bandwidth (Tb/s)"
    client = Client()
    client.force_login(member)
    page = client.get(reverse("reviews:diff", kwargs={"project_pk": project.pk}) + f"?a={version.pk}&b={version_2.pk}")
    assert page.status_code == 200
    assert 'data-figure="bisection_tbps"' in page.content.decode()
    assert f"{version_2.summary['bisection_gbps'] / 1000:,.1f}" in page.content.decode()


def test_diff_workbook_writes_formula_like_names_as_text(version, version_2, project, member_api, tmp_path):
    from apps.designs.models import Design
    from apps.projects.models import Customer, Project
    from tests.designs.test_injection import FORMULAS, assert_user_text_is_text

    Customer.objects.filter(pk=project.customer_id).update(name=FORMULAS["customer"])
    Project.objects.filter(pk=project.pk).update(name=FORMULAS["project"])
    Design.objects.filter(pk=version.design_id).update(name=FORMULAS["design"])
    BomLineRecord.objects.filter(version=version_2).update(description=FORMULAS["sku_description"])
    response = member_api.get(diff_url(project, version.pk, version_2.pk, "api-project-diff-workbook"))
    assert response.status_code == 200
    path = tmp_path / "diff.xlsx"
    path.write_bytes(response.content)
    wb = openpyxl.load_workbook(path)
    summary = list(wb["Diff"].iter_rows(values_only=True))
    assert summary[0][0] == f"Diff: {FORMULAS['design']} v1 → {FORMULAS['design']} v2"
    assert ("Project", f"{FORMULAS['customer']} / {FORMULAS['project']}") == summary[1][:2]
    assert assert_user_text_is_text(path) >= 5


@pytest.mark.parametrize("key, a, b, tone", [
    ("discount", Decimal("100"), Decimal("250"), "better"),   # a larger discount is a saving
    ("discount", Decimal("250"), Decimal("100"), "worse"),
    ("total_cost", Decimal("900"), Decimal("800"), "better"),
    ("total_cost", Decimal("800"), Decimal("900"), "worse"),
    ("power_typical_w", Decimal("10"), Decimal("12"), "worse"),
    ("total_cost", Decimal("800"), Decimal("800"), ""),
])
def test_diff_colours_each_total_by_what_it_means_for_the_customer(key, a, b, tone):
    from apps.reviews.services.diff import TotalRow

    assert TotalRow(key, key, a, b, "USD", True).tone == tone


def test_diff_page_shows_a_larger_discount_as_a_saving(version, generate, project, member):
    version_2 = generate(project, member, design=version.design, discount_pct="25")
    client = Client()
    client.force_login(member)
    body = client.get(reverse("reviews:diff", kwargs={"project_pk": project.pk}),
                      {"a": version.pk, "b": version_2.pk}).content.decode()
    row = body[body.index('data-total="discount"'):]
    row = row[:row.index("</tr>")]
    assert "delta up better" in row
