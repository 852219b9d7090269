"""Request bodies the API cannot parse are a 400 with `detail`, whatever breaks the parser."""
from __future__ import annotations

import pytest

from apps.projects.models import Customer
from tests.projects.factories import CustomerFactory

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("path", ["/api/customers/", "/api/catalog/import-netbox/", "/api/catalog/switches/"])
def test_json_nested_past_the_stack_is_a_400_and_changes_nothing(staff_client, path):
    response = staff_client.generic("POST", path, DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("JSON parse error")
    assert not Customer.objects.exists()


def test_json_with_an_integer_past_the_digit_limit_is_a_400(staff_client):
    response = staff_client.generic("POST", "/api/customers/", '{"name": ' + "1" * 5000 + "}",
                                    content_type="application/json")
    assert response.status_code == 400 and "detail" in response.json()


def test_a_body_over_the_memory_limit_is_a_400_with_detail_not_an_html_page(staff_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    response = staff_client.post("/api/catalog/import-netbox/", {"yaml": "a" * 4096}, format="json")
    assert response.status_code == 400
    assert response.json() == {"detail": "The request body is too large; upload large inputs as files."}


def test_a_form_with_too_many_fields_is_a_400_with_detail(staff_client, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    response = staff_client.post("/api/customers/", {f"f{i}": "x" for i in range(20)}, format="multipart")
    assert response.status_code == 400
    assert response.json() == {"detail": "The request has too many fields."}
    assert not Customer.objects.exists()


@pytest.mark.parametrize("path", ["/api/catalog/cables/abc/", "/api/versions/x/bom/", "/api/no-such-endpoint/"])
def test_an_api_url_that_matches_no_route_is_a_json_404(staff_client, path):
    response = staff_client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {"detail": "Not found."}


def test_a_page_url_that_matches_no_route_stays_an_html_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_search_term_with_a_nul_is_a_400_on_the_search_field(staff_client):
    response = staff_client.get("/api/customers/", {"search": "a\x00b"})
    assert response.status_code == 400
    assert list(response.json()) == ["search"]


@pytest.mark.parametrize("params", [{"limit": "83632559719832092672"}, {"limit": "5", "offset": "9" * 30}])
def test_a_page_size_or_offset_past_the_database_range_is_not_a_500(staff, staff_client, params):
    CustomerFactory(created_by=staff)
    response = staff_client.get("/api/customers/", params)
    assert response.status_code == 200
    assert len(response.json()["results"]) == (0 if "offset" in params else 1)
