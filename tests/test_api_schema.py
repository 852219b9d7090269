"""The OpenAPI schema documents the error answers clients get (checked by schemathesis against a server)."""
from __future__ import annotations

import pytest
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(user_client):
    response = user_client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in ("get", "put", "patch", "post", "delete"):
                yield f"{method.upper()} {path}", operation


def test_every_operation_taking_input_documents_its_400_field_errors(schema):
    validate_schema(schema)
    missing = [name for name, op in operations(schema)
               if ("requestBody" in op or any(p["in"] == "query" for p in op.get("parameters", [])))
               and "400" not in op["responses"]]
    assert missing == []
    assert schema["components"]["schemas"]["FieldErrors"]["type"] == "object"


def test_every_operation_on_an_object_documents_its_404(schema):
    missing = [name for name, op in operations(schema)
               if any(p["in"] == "path" for p in op.get("parameters", [])) and "404" not in op["responses"]]
    assert missing == []


@pytest.mark.parametrize("path", ["/api/catalog/import/", "/api/catalog/import-netbox/"])
def test_imports_document_both_their_row_errors_and_field_errors(schema, path):
    body = schema["paths"][path]["post"]["responses"]["400"]["content"]["application/json"]["schema"]
    assert body == {"anyOf": [{"$ref": "#/components/schemas/ImportError"},
                              {"$ref": "#/components/schemas/FieldErrors"}]}


@pytest.mark.parametrize("path, media", [
    ("/api/versions/{id}/roce/configs/{device_name}/", "application/json"),
    ("/api/catalog/switches/{id}/netbox.yaml", "application/yaml"),
])
def test_structured_documents_are_documented_as_objects(schema, path, media):
    # A client (or schemathesis) parses JSON and YAML answers; a "string" schema never matches them.
    assert schema["paths"][path]["get"]["responses"]["200"]["content"][media]["schema"]["type"] == "object"


def test_deletes_document_their_400_refusals(schema):
    # e.g. a catalog item in use, or the owner removed from a project's members
    missing = [name for name, op in operations(schema) if name.startswith("DELETE") and "400" not in op["responses"]]
    assert missing == []
