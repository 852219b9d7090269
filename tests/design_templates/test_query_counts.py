"""Query-count baselines of the template pages and API (tests/querycount.py): "small" is the built-in
templates alone, "large" adds ten templates staff saved from a design. A count that grows is an N+1."""
from __future__ import annotations

import pytest
from django.urls import reverse

from apps.design_templates.services import design_template_save
from tests.design_templates.conftest import api, browser
from tests.querycount import QueryCounter

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BASELINES: dict[str, dict[str, int]] = {
    "api-design-template-list": {"small": 1, "large": 1},
    "api-design-template-detail": {"small": 1, "large": 1},
    "page design_templates:template-list": {"small": 4, "large": 4},
    # The headline counts size the fabric on the catalog (parts, interconnects, exchange rates).
    "page design_templates:template-detail": {"small": 18, "large": 18},
}


def test_baselines_do_not_grow_with_the_data():
    assert {name: counts for name, counts in BASELINES.items() if counts["large"] != counts["small"]} == {}


@pytest.mark.parametrize("size", ["small", "large"])
def test_template_query_counts_stay_at_their_baselines(size, templates, staff_version, staff_member):
    if size == "large":
        for n in range(10):
            design_template_save(user=staff_member, version=staff_version, name=f"Saved {n}")
    slug = "dgx-superpod-h100-4su"
    counts = QueryCounter(api(staff_member))
    counts.get("api-design-template-list", reverse("api-design-template-list"))
    counts.get("api-design-template-detail", reverse("api-design-template-detail", kwargs={"slug": slug}))
    pages = QueryCounter(browser(staff_member))
    pages.get("page design_templates:template-list", reverse("design_templates:template-list"))
    pages.get("page design_templates:template-detail",
              reverse("design_templates:template-detail", kwargs={"slug": slug}))
    counts.measured.update(pages.measured)
    counts.check(BASELINES, size=size)
