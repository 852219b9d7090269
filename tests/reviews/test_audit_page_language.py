"""The audit trail names what was exported the way the exports list does, in the reader's language."""
from __future__ import annotations

from types import SimpleNamespace

from django.utils import translation

from apps.reviews.templatetags.reviews import audit_details


def test_an_export_event_names_the_kind_of_file_not_its_code():
    event = SimpleNamespace(data={"job": 3, "kind": "xlsx", "size": 1_200_000})
    with translation.override("en"):
        assert ("kind", "Excel workbook") in audit_details(event)
    with translation.override("zh-hans"):
        details = dict(audit_details(SimpleNamespace(data={"job": 4, "kind": "netbox"})))
    assert "netbox" not in details.values()
    assert "NetBox" in "".join(details.values()) and "CSV" in "".join(details.values())


def test_a_kind_registered_by_another_app_is_named_by_its_label():
    with translation.override("zh-hans"):
        details = dict(audit_details(SimpleNamespace(data={"kind": "pdf", "language": "zh-hans"})))
    assert "设计文档（PDF）" in details.values() and "简体中文" in details.values()


def test_an_unknown_kind_is_shown_as_recorded():
    with translation.override("en"):
        assert ("kind", "pptx") in audit_details(SimpleNamespace(data={"kind": "pptx"}))
