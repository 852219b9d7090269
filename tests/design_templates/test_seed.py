"""The built-in templates load from their seed file, idempotently, and a broken file changes nothing."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.design_templates.models import DesignTemplate
from apps.design_templates.services import design_templates_seed_load

pytestmark = pytest.mark.django_db


def test_loading_twice_changes_nothing_and_keeps_staff_templates(templates, staff_member):
    DesignTemplate.objects.create(slug="mine", name="Mine", inputs={"gpus": 8}, created_by=staff_member)
    assert design_templates_seed_load() == {"created": 0, "updated": 0, "unchanged": 7}
    assert DesignTemplate.objects.filter(slug="mine").exists()


def test_a_changed_built_in_template_is_restored(templates):
    DesignTemplate.objects.filter(slug="roce-5000-gpus").update(name="Renamed")
    assert design_templates_seed_load()["updated"] == 1
    assert DesignTemplate.objects.get(slug="roce-5000-gpus").name.startswith("5,000 GPUs")


def test_every_built_in_template_names_its_source_and_both_languages(templates):
    for template in templates.values():
        assert template.reference_title and template.leaves_out
        assert set(template.translations["zh-hans"]) == {"name", "description", "leaves_out"}


@pytest.mark.parametrize("text, problem", [
    ("templates: [{slug: a, name: A}]", "inputs: missing"),
    ("- just a list", "expected a mapping"),
    ("templates: [", "templates.yaml"),
])
def test_a_broken_seed_file_is_refused_with_where_and_nothing_is_saved(tmp_path, db, text, problem):
    path = tmp_path / "templates.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError, match="nothing was saved") as caught:
        call_command("load_design_templates", path=path, stdout=io.StringIO())
    assert problem in str(caught.value)
    assert not DesignTemplate.objects.exists()
