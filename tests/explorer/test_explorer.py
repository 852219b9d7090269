"""The explorer app: the service against generated versions, the page, the API, bad input, the links."""
from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from apps.designs.models import Design, DesignVersion
from apps.designs.services.design import design_create
from apps.explorer.services import explorer_generate, explorer_run
from tests.designs.conftest import inputs


def page_url(project, **query) -> str:
    base = reverse("explorer:explorer", kwargs={"project_pk": project.pk})
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def api_url(project) -> str:
    return reverse("api-project-explore", kwargs={"project_pk": project.pk})


@pytest.fixture
def explored(project, seed):
    return explorer_run(project=project, data={"gpus": 512, "server": seed["dgx_h100"].pk})


def test_every_active_switch_is_explored_and_the_frontier_is_marked(explored, seed):
    assert explored["bar_met"] and explored["candidates"]
    # 4 Ethernet switch modes at 400G in the seed: leaf x spine x (2 tiers + 3 tiers x core) x 4 plane counts.
    assert explored["explored"] == 4 * 4 * 5 * 4
    assert any(c["pareto"] for c in explored["candidates"])
    costs = [c["total_cost"] for c in explored["candidates"]]
    assert costs == sorted(costs)
    first = explored["candidates"][0]
    assert first["inputs"]["leaf_switch"] in {s.pk for s in (seed["sn5600"], seed["th4"])} or first["inputs"]
    assert first["label"]


def test_generate_this_one_creates_a_version_that_quotes_the_candidates_total(
        project, member, seed, explored, django_capture_on_commit_callbacks):
    for candidate in (explored["candidates"][0], explored["candidates"][-1]):
        with django_capture_on_commit_callbacks(execute=True):
            job = explorer_generate(project=project, user=member, name=candidate["label"][:100],
                                    data={"gpus": 512, "server": seed["dgx_h100"].pk, **candidate["inputs"]})
        version = DesignVersion.objects.get(pk=job.version_id)
        assert version.is_ready
        assert float(version.total_cost) == pytest.approx(candidate["total_cost"], abs=0.005)
        assert version.planes == candidate["planes"] and int(version.tiers) == candidate["tiers"]


def test_explore_from_a_design_uses_its_inputs_and_generates_a_new_version(
        project, member, seed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        design_create(project=project, user=member, name="Hall B",
                      data=inputs(seed, gpus=256, discount_pct=10, layout={"servers_per_rack": 2}))
    design = Design.objects.get(name="Hall B")
    result = explorer_run(project=project, design=design, data={"gpus": 256, "server": seed["dgx_h100"].pk})
    candidate = result["candidates"][0]
    with django_capture_on_commit_callbacks(execute=True):
        job = explorer_generate(project=project, user=member, design=design,
                                data={"gpus": 256, "server": seed["dgx_h100"].pk, **candidate["inputs"]})
    version = DesignVersion.objects.get(pk=job.version_id)
    assert version.design == design and version.number == 2 and version.layout == {"servers_per_rack": 2}
    assert float(version.total_cost) == pytest.approx(candidate["total_cost"], abs=0.005)


def test_a_bar_nothing_meets_returns_the_nearest_with_what_each_misses(project, seed):
    result = explorer_run(project=project, data={"gpus": 512, "server": seed["dgx_h100"].pk, "budget": 1000.0})
    assert not result["bar_met"] and 1 <= len(result["candidates"]) <= 5
    for c in result["candidates"]:
        assert [m["bar"] for m in c["misses"]] == ["budget"] and "Budget" in c["misses"][0]["text"]


def test_service_refuses_bad_input_by_field(project, seed):
    with pytest.raises(ValidationError) as caught:
        explorer_run(project=project, data={"gpus": 0, "server": 999999})
    assert {"gpus", "server"} <= set(caught.value.message_dict)
    with pytest.raises(ValidationError) as caught:
        explorer_run(project=project, data={"gpus": 10, "server": seed["hgx_b300"].pk, "fabric": "infiniband"})
    assert "fabric" in caught.value.message_dict


def test_page_shows_form_then_chart_table_and_generate_buttons(client_for_member, project, seed):
    page = client_for_member.get(page_url(project))
    assert page.status_code == 200 and 'id="explore-form"' in page.content.decode()
    page = client_for_member.get(page_url(project, gpus=512, server=seed["dgx_h100"].pk, fabric="ethernet",
                                          oversubscriptions=1, max_hops=3))
    body = page.content.decode()
    assert page.status_code == 200
    assert 'id="explore-chart"' in body and 'id="explore-table"' in body and "Generate this one" in body
    data = json.loads(body.split('id="explore-data" type="application/json">')[1].split("</script>")[0])
    assert data and all(c["max_hops"] <= 3 for c in data)
    assert "vendor/chartjs/chart-4.6.1.umd.min.js" in body


def test_page_shows_field_errors_and_runs_nothing(client_for_member, project, seed):
    page = client_for_member.get(page_url(project, gpus=0, server=seed["dgx_h100"].pk, budget=-5))
    assert page.status_code == 200
    form = page.context["form"]
    assert "gpus" in form.errors and "budget" in form.errors
    assert page.context["result"] is None


def test_page_in_chinese(client_for_member, project, seed):
    with translation.override("zh-hans"):
        page = client_for_member.get(page_url(project, gpus=512, server=seed["dgx_h100"].pk, budget=1000),
                                     HTTP_ACCEPT_LANGUAGE="zh-hans")
    body = page.content.decode()
    assert "探索" in body and "预算" in body


def test_generate_view_creates_the_design_and_goes_to_its_job(client_for_member, project, seed, explored,
                                                             django_capture_on_commit_callbacks):
    candidate = explored["candidates"][0]
    post = {"gpus": 512, "server": seed["dgx_h100"].pk, "name": "Cheapest", **candidate["inputs"]}
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for_member.post(reverse("explorer:generate", kwargs={"project_pk": project.pk}), post)
    assert response.status_code == 302 and "/jobs/" in response["Location"]
    assert Design.objects.filter(project=project, name="Cheapest").exists()


def test_generate_view_with_bad_inputs_creates_nothing(client_for_member, project, seed):
    response = client_for_member.post(reverse("explorer:generate", kwargs={"project_pk": project.pk}),
                                      {"gpus": 512, "server": seed["dgx_h100"].pk, "back": "https://evil.example/"})
    assert response.status_code == 302 and "evil" not in response["Location"]
    assert not Design.objects.filter(project=project).exists()


def test_api_explores_and_answers_field_errors(member_client, project, seed):
    response = member_client.post(api_url(project), {"gpus": 512, "server": seed["dgx_h100"].pk, "max_hops": 3,
                                                     "blocking": True}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["bar_met"] and body["candidates"] and all(c["max_hops"] <= 3 for c in body["candidates"])
    assert {"spec"} & set(body["candidates"][0]) == set()
    assert {"total_cost", "as_stated", "pareto", "inputs"} <= set(body["candidates"][0])
    bad = member_client.post(api_url(project), {"gpus": "many", "server": seed["dgx_h100"].pk, "budget": -1},
                             format="json")
    assert bad.status_code == 400 and {"gpus", "budget"} <= set(bad.json())


def test_api_is_404_for_non_members(outsider_client, project, seed):
    response = outsider_client.post(api_url(project), {"gpus": 512, "server": seed["dgx_h100"].pk}, format="json")
    assert response.status_code == 404


def test_project_and_design_pages_link_to_the_explorer(client_for_member, project, member, seed,
                                                      django_capture_on_commit_callbacks):
    page = client_for_member.get(project.get_absolute_url())
    assert page_url(project) in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        job = design_create(project=project, user=member, name="Hall C", data=inputs(seed, gpus=256))
    version = DesignVersion.objects.get(pk=job.version_id)
    page = client_for_member.get(reverse("designs:version-detail",
                                         kwargs={"project_pk": project.pk, "version_pk": version.pk}))
    assert f"{page_url(project)}?design={version.design_id}" in page.content.decode()


def _queries(client, url, data) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.post(url, data, format="json")  # warm-up
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, data, format="json")
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_explore_api_queries_do_not_grow_with_the_catalog_or_the_designs(member_client, project, member, seed,
                                                                          django_capture_on_commit_callbacks):
    from apps.catalog.models import SwitchModel

    url, data = api_url(project), {"gpus": 256, "server": seed["dgx_h100"].pk, "max_hops": 3}
    before = _queries(member_client, url, data)
    with django_capture_on_commit_callbacks(execute=True):
        design_create(project=project, user=member, name="Hall D", data=inputs(seed, gpus=256))
    extra = SwitchModel.objects.get(pk=seed["th4"].pk)
    extra.pk, extra.sku = None, "DCS-7060DX5-64S-COPY"
    extra.save()
    after = _queries(member_client, url, data)
    assert after == before <= 25


def test_the_explorer_starts_from_the_projects_latest_version_without_a_design(
        client_for_member, project, member, seed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        design_create(project=project, user=member, name="Hall C", data=inputs(seed, gpus=512, oversubscription=2))

    form = client_for_member.get(page_url(project)).context["form"]

    assert form.initial["gpus"] == 512 and form.initial["server"] == seed["dgx_h100"].pk
    assert form.initial["fabric"] == "ethernet" and form.initial["oversubscriptions"] == ["2"]


def test_a_project_without_designs_starts_from_the_catalog_default(client_for_member, project, seed):
    form = client_for_member.get(page_url(project)).context["form"]

    assert form.initial["gpus"] == 1024


def test_candidates_name_their_switches_by_model_not_sku(explored, seed):
    models = {seed["sn5600"].model, seed["th4"].model}
    labels = [candidate["label"] for candidate in explored["candidates"]]

    assert all(seed["sn5600"].sku not in label and seed["th4"].sku not in label for label in labels)
    assert any(any(model in label for model in models) for label in labels)
