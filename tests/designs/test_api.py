"""The design API as a client sees it: create (202) -> poll the job -> read summary, rows and BOM."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from apps.designs.models import BomLineRecord, Design, DesignVersion, DeviceRecord, Job, LinkRecord, PortRecord
from apps.designs.services.inputs import design_inputs_clean
from apps.engine import plan as engine_plan
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db


def create(client, project, data, capture, name="Fabric A"):
    with capture(execute=True):
        response = client.post(
            reverse("api-design-list", kwargs={"project_pk": project.pk}), {"name": name, **data}, format="json"
        )
    return response


def poll(client, job_id):
    return client.get(reverse("api-job-detail", kwargs={"pk": job_id})).json()


def count(client, name, version_id, **params):
    response = client.get(reverse(name, kwargs={"pk": version_id}), params)
    assert response.status_code == 200, response.content
    return response.json()["count"]


@pytest.fixture
def th4_5000(seed):
    """The 5,000-GPU worked example: DGX H100 (8x400G) on 64x400G leaves, spines and cores."""
    return inputs(seed, leaf_switch=seed["th4"].pk, leaf_breakout="1x400G", gpus=5000)


@pytest.mark.slow
def test_create_design_answers_202_and_generates_the_5000_gpu_worked_example(
    member_client, project, th4_5000, django_capture_on_commit_callbacks, seed
):
    response = create(member_client, project, th4_5000, django_capture_on_commit_callbacks)

    assert response.status_code == 202, response.content
    body = response.json()
    assert body["design"]["name"] == "Fabric A"
    assert body["version"]["number"] == 1
    job = poll(member_client, body["job"]["id"])
    assert job["status"] == "succeeded", job
    assert job["percent"] == 100
    assert job["version"] == body["version"]["id"]

    version_id = body["version"]["id"]
    version = member_client.get(reverse("api-version-detail", kwargs={"pk": version_id})).json()
    assert version["status"] == "ready"
    summary = version["summary"]
    assert summary["tiers"] == 3
    assert summary["switches"] == {"leaf": 160, "spine": 160, "core": 128}  # 5 pods: 128 cores spread evenly
    assert summary["max_gpus"] == 65536

    spec = design_inputs_clean(project=project, data=th4_5000).spec()
    plan = engine_plan.plan(spec)
    assert count(member_client, "api-version-device-list", version_id) == len(plan.devices) == 625 + 448
    assert count(member_client, "api-version-link-list", version_id) == len(plan.links) == 5000 + 5120 + 5120
    assert count(member_client, "api-version-port-list", version_id) == 2 * len(plan.links)
    assert count(member_client, "api-version-link-list", version_id, tier=0) == 5000
    assert count(member_client, "api-version-device-list", version_id, role="core") == 128

    bom = member_client.get(reverse("api-version-bom", kwargs={"pk": version_id})).json()
    assert [line["sku"] for line in bom["lines"]] == [line.sku for line in plan.bom]
    switch_line = next(line for line in bom["lines"] if line["sku"] == seed["th4"].sku)
    assert switch_line["qty"] == 448
    assert float(bom["totals"]["total"]) == pytest.approx(plan.total_cost, abs=0.01)
    assert float(version["totals"]["total_cost"]) == pytest.approx(plan.total_cost, abs=0.01)
    assert bom["totals"]["currency"] == project.currency
    assert bom["totals"]["rack_units"] == plan.rack_units


@pytest.fixture
def ready_version(member_client, project, seed, django_capture_on_commit_callbacks):
    """A generated 256-GPU design (32 servers, 8 leaves) on SN5600 in 2x400G."""
    response = create(member_client, project, inputs(seed, gpus=256), django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    assert version.status == DesignVersion.Status.READY
    return version


def test_devices_filter_by_role_rail_plane_and_name(member_client, ready_version):
    vid = ready_version.pk
    assert count(member_client, "api-version-device-list", vid, role="server") == 32
    assert count(member_client, "api-version-device-list", vid, role="leaf") == 8
    assert count(member_client, "api-version-device-list", vid, role="leaf", rail=3) == 1
    assert count(member_client, "api-version-device-list", vid, role="leaf", plane=0) == 8
    assert count(member_client, "api-version-device-list", vid, role=["leaf", "spine"]) == 8 + ready_version.summary[
        "switches"]["spine"]
    leaf = DeviceRecord.objects.filter(version=ready_version, role="leaf").order_by("index").first()
    listed = member_client.get(reverse("api-version-device-list", kwargs={"pk": vid}), {"device": leaf.name}).json()
    assert [d["name"] for d in listed["results"]] == [leaf.name]
    assert listed["results"][0]["loopback"]


def test_links_filter_by_device_at_either_end_tier_rail_and_medium(member_client, ready_version):
    vid = ready_version.pk
    leaf = DeviceRecord.objects.filter(version=ready_version, role="leaf", rail=0).get()
    # Every server's NIC port 0 lands on the rail-0 leaf, which also cables its uplinks.
    down = count(member_client, "api-version-link-list", vid, device=leaf.name, tier=0)
    up = count(member_client, "api-version-link-list", vid, device=leaf.name, tier=1)
    assert down == 32
    assert up == ready_version.summary["leaf_uplinks"] > 0
    assert count(member_client, "api-version-link-list", vid, device=leaf.name) == down + up
    assert count(member_client, "api-version-link-list", vid, tier=0, rail=0) == 32
    link = LinkRecord.objects.filter(version=ready_version, tier=0).order_by("index").first()
    assert count(member_client, "api-version-link-list", vid, medium=link.medium_kind) >= 1
    assert count(member_client, "api-version-link-list", vid, medium=link.medium) >= 1
    server = DeviceRecord.objects.get(pk=link.a_device_id)
    rows = member_client.get(reverse("api-version-link-list", kwargs={"pk": vid}), {"device": server.name}).json()
    assert rows["count"] == 8
    first = rows["results"][0]
    assert first["a_device_name"] == server.name
    assert first["label_a"].startswith(f"{server.name}:{first['a_port']} > ")
    assert first["a_ip"] and first["b_ip"] and first["subnet"].endswith("/31")


def test_ports_list_the_used_ports_of_a_device(member_client, ready_version):
    server = DeviceRecord.objects.get(version=ready_version, index=0)
    rows = member_client.get(
        reverse("api-version-port-list", kwargs={"pk": ready_version.pk}), {"device": server.name}
    ).json()
    assert rows["count"] == 8
    assert [p["name"] for p in rows["results"]] == [f"eth{i}" for i in range(8)]
    assert {p["speed_gbps"] for p in rows["results"]} == {400}


def test_record_lists_are_paginated(member_client, ready_version):
    url = reverse("api-version-link-list", kwargs={"pk": ready_version.pk})
    total = LinkRecord.objects.filter(version=ready_version).count()
    page = member_client.get(url, {"limit": 50, "offset": 100}).json()
    assert page["count"] == total
    assert len(page["results"]) == 50
    assert [link["index"] for link in page["results"]] == list(range(100, 150))
    assert page["next"] and page["previous"]
    ports = reverse("api-version-port-list", kwargs={"pk": ready_version.pk})
    assert PortRecord.objects.filter(version=ready_version).count() > 1000
    assert len(member_client.get(ports, {"limit": 5000}).json()["results"]) == 1000


def test_project_lists_its_designs_and_versions(member_client, project, ready_version):
    designs = member_client.get(reverse("api-design-list", kwargs={"project_pk": project.pk})).json()
    assert [d["name"] for d in designs["results"]] == ["Fabric A"]
    assert designs["results"][0]["latest_version"]["status"] == "ready"
    versions = member_client.get(reverse("api-project-version-list", kwargs={"project_pk": project.pk})).json()
    assert [(v["design_name"], v["number"]) for v in versions["results"]] == [("Fabric A", 1)]
    jobs = member_client.get(reverse("api-project-job-list", kwargs={"project_pk": project.pk})).json()
    assert [j["status"] for j in jobs["results"]] == ["succeeded"]


def test_a_new_version_leaves_the_first_unchanged(
    member_client, ready_version, django_capture_on_commit_callbacks
):
    first_devices = DeviceRecord.objects.filter(version=ready_version).count()
    first_summary = dict(ready_version.summary)
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(
            reverse("api-design-version-list", kwargs={"pk": ready_version.design_id}),
            {"gpus": 512, "discount_pct": "25"}, format="json",
        )
    assert response.status_code == 202, response.content
    second = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    assert second.number == 2
    assert second.status == DesignVersion.Status.READY
    # Inputs not given are carried over from version 1.
    assert (second.server_id, second.leaf_switch_id, second.leaf_breakout) == (
        ready_version.server_id, ready_version.leaf_switch_id, ready_version.leaf_breakout)
    assert second.gpus == 512
    assert DeviceRecord.objects.filter(version=second, role="server").count() == 64

    ready_version.refresh_from_db()
    assert ready_version.gpus == 256
    assert ready_version.summary == first_summary
    assert DeviceRecord.objects.filter(version=ready_version).count() == first_devices
    listed = member_client.get(reverse("api-design-version-list", kwargs={"pk": ready_version.design_id})).json()
    assert [v["number"] for v in listed["results"]] == [1, 2]


def test_version_has_no_update_route(member_client, ready_version):
    url = reverse("api-version-detail", kwargs={"pk": ready_version.pk})
    assert member_client.patch(url, {"gpus": 1}, format="json").status_code == 405
    assert member_client.put(url, {"gpus": 1}, format="json").status_code == 405


def _nothing_created():
    return (Design.objects.count(), DesignVersion.objects.count(), Job.objects.count(), DeviceRecord.objects.count(),
            LinkRecord.objects.count(), PortRecord.objects.count(), BomLineRecord.objects.count()) == (0,) * 7


BAD_INPUTS = [
    ({"gpus": 0}, "gpus"),
    ({"gpus": -8}, "gpus"),
    ({"gpus": "lots"}, "gpus"),
    ({"gpus": 2.5}, "gpus"),
    ({"gpus": 1_000_001}, "gpus"),
    ({"gpus": 10**30}, "gpus"),
    ({"gpus": None}, "gpus"),
    ({"planes": 0}, "planes"),
    ({"planes": 3}, "planes"),
    ({"oversubscription": 0.5}, "oversubscription"),
    ({"oversubscription": "fast"}, "oversubscription"),
    ({"tiers": "4"}, "tiers"),
    ({"server": 999999}, "server"),
    ({"server": "DGX"}, "server"),
    ({"leaf_switch": 999999}, "leaf_switch"),
    ({"nic": 999999}, "nic"),
    ({"leaf_breakout": "3x100G"}, "leaf_breakout"),
    ({"leaf_breakout": "1x800G"}, "leaf_breakout"),
    ({"layout": {"servers_per_rack": -1}}, "layout.servers_per_rack"),  # 0: as many as height and power allow
    ({"layout": {"aisles": 2}}, "layout.aisles"),
    ({"layout": "wide"}, "layout"),
    ({"layout": {"leaf_rack": "sideways"}}, "layout.leaf_rack"),
    ({"layout": {"spine_rows": 3}}, "layout.spine_rows"),
    ({"pools": {"host": "10.0.0.1/12"}}, "pools.host"),
    ({"pools": {"p2p": "10.0.0.0/16"}}, "pools.p2p"),
    ({"pools": {"host": "10.0.0.0/29"}}, "pools.host"),
    ({"discount_pct": 150}, "discount_pct"),
    ({"currency": "XXX"}, "currency"),
    ({"tiers": "2", "gpus": 100_000}, None),  # infeasible: reported by the engine on the field to change
]


@pytest.mark.parametrize(("changes", "field"), BAD_INPUTS)
def test_bad_input_answers_400_on_the_field_and_creates_nothing(
    member_client, project, seed, django_capture_on_commit_callbacks, changes, field
):
    data = inputs(seed)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = member_client.post(
            reverse("api-design-list", kwargs={"project_pk": project.pk}), {"name": "Bad", **data}, format="json"
        )
    assert response.status_code == 400, response.content
    errors = response.json()
    if field is not None:
        assert field in errors, errors
        assert all(isinstance(m, str) and m for m in errors[field])
    else:
        assert errors
    assert callbacks == []
    assert _nothing_created()


def test_inactive_catalog_item_is_refused(member_client, project, seed, django_capture_on_commit_callbacks):
    seed["sn5600"].active = False
    seed["sn5600"].save()
    response = create(member_client, project, inputs(seed), django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert "inactive" in response.json()["leaf_switch"][0]
    assert _nothing_created()


def test_800g_nic_on_a_400g_only_leaf_names_the_fix(member_client, project, seed, django_capture_on_commit_callbacks):
    data = inputs(seed, server=seed["hgx_b300"].pk, leaf_switch=seed["th4"].pk, leaf_breakout=None)
    response = create(member_client, project, data, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    message = response.json()["leaf_breakout"][0]
    assert "800" in message and "choose a switch with 800G ports" in message
    assert _nothing_created()


def test_400g_nic_on_an_800g_leaf_is_told_which_breakout(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    response = create(member_client, project, inputs(seed, leaf_breakout="1x800G"), django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert "choose breakout 2x400G" in response.json()["leaf_breakout"][0]


def test_engine_infeasibility_message_reaches_the_user(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    # 100,000 GPUs cannot fit in 2 tiers of 128-port switches: the engine says why.
    data = inputs(seed, gpus=100_000, tiers="2")
    response = create(member_client, project, data, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    errors = response.json()
    spec = design_inputs_clean(project=project, data=inputs(seed, gpus=100_000, tiers="2")).spec()
    with pytest.raises(Exception) as engine_error:
        engine_plan.size(spec)
    # The engine's words, with counts grouped by thousands as the UI writes numbers ("3,128 leaves").
    ungrouped = re.compile(r"(?<=\d),(?=\d{3})")
    engine_messages = [ungrouped.sub("", m) for messages in engine_error.value.errors.values() for m in messages]
    assert any(m in [ungrouped.sub("", e) for msgs in errors.values() for e in msgs] for m in engine_messages)
    assert _nothing_created()


def test_duplicate_design_name_is_a_name_error(
    member_client, project, ready_version, django_capture_on_commit_callbacks, seed
):
    response = create(member_client, project, inputs(seed), django_capture_on_commit_callbacks, name="fabric a")
    assert response.status_code == 400
    assert "name" in response.json()
    assert Design.objects.count() == 1


def test_estimate_reports_size_alternatives_and_field_errors(member_client, project, seed):
    url = reverse("api-design-estimate", kwargs={"project_pk": project.pk})
    good = member_client.post(url, inputs(seed, gpus=5000), format="json").json()
    assert good["feasible"] is True
    assert good["size"]["switches"]["leaf"] > 0 and good["size"]["max_gpus"] >= 5000
    assert good["size"]["estimated_cost"] > 0
    assert any(alt["cheapest"] for alt in good["alternatives"])
    assert not good["errors"]

    bad = member_client.post(url, inputs(seed, gpus=0, leaf_breakout="1x800G"), format="json")
    assert bad.status_code == 200
    assert set(bad.json()["errors"]) >= {"gpus", "leaf_breakout"}
    assert bad.json()["feasible"] is False
    assert _nothing_created()


def test_job_of_another_project_is_404(outsider_client, ready_version):
    job = ready_version.jobs.get()
    assert outsider_client.get(reverse("api-job-detail", kwargs={"pk": job.pk})).status_code == 404
    assert outsider_client.get(reverse("api-version-bom", kwargs={"pk": ready_version.pk})).status_code == 404


def test_openapi_schema_builds_and_documents_the_design_routes(member_client):
    response = member_client.get(reverse("schema"), {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/api/projects/{project_pk}/designs/" in paths
    assert "202" in paths["/api/projects/{project_pk}/designs/"]["post"]["responses"]
    assert {"/api/versions/{id}/links/", "/api/jobs/{id}/", "/api/versions/{id}/bom/"} <= set(paths)
    link_params = {p["name"] for p in paths["/api/versions/{id}/links/"]["get"]["parameters"]}
    assert {"tier", "plane", "rail", "pod", "device", "medium", "limit", "offset"} <= link_params


def test_nic_slower_than_the_server_ports_is_a_nic_error(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    from apps.catalog.models import NicModel

    cx8 = NicModel.objects.get(sku="900-9X81E-00EX-ST0")  # 800G NIC in a 400G server
    response = create(member_client, project, inputs(seed, nic=cx8.pk), django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert "800" in response.json()["nic"][0]
    assert _nothing_created()


def test_bad_new_version_answers_400_and_adds_no_version(
    member_client, ready_version, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = member_client.post(
            reverse("api-design-version-list", kwargs={"pk": ready_version.design_id}), {"gpus": 0}, format="json"
        )
    assert response.status_code == 400
    assert "gpus" in response.json()
    assert callbacks == []
    assert DesignVersion.objects.filter(design_id=ready_version.design_id).count() == 1
    assert Job.objects.count() == 1


def test_a_new_version_on_another_switch_moves_the_following_tiers_with_it(
    member_client, ready_version, seed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(
            reverse("api-design-version-list", kwargs={"pk": ready_version.design_id}),
            {"leaf_switch": seed["th4"].pk}, format="json",
        )
    assert response.status_code == 202, response.content
    second = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    # Breakout defaults to the new switch's mode at the NIC speed; spine and core follow the leaf.
    assert (second.leaf_switch_id, second.leaf_breakout) == (seed["th4"].pk, "1x400G")
    assert (second.spine_switch_id, second.spine_breakout) == (seed["th4"].pk, "1x400G")
    assert (second.core_switch_id, second.core_breakout) == (seed["th4"].pk, "1x400G")
    assert second.status == DesignVersion.Status.READY


def test_network_racks_can_stand_at_the_end_of_their_rows(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    data = inputs(seed, gpus=256, layout={"leaf_rack": "end", "spine_rows": "end"})
    response = create(member_client, project, data, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    assert version.status == DesignVersion.Status.READY
    assert version.layout == {"leaf_rack": "end", "spine_rows": "end"}
    assert version.spec["layout"]["leaf_rack"] == "end"


# Spares and power by scope (issue 12, sections 4 and 5) -------------------------------------------------


def test_bom_api_gives_spare_lines_power_scope_and_totals_that_include_spares(member_client, ready_version):
    bom = member_client.get(reverse("api-version-bom", kwargs={"pk": ready_version.pk})).json()
    lines, totals = bom["lines"], bom["totals"]
    spares = [line for line in lines if line["spare"]]
    base = {line["sku"]: line for line in lines if not line["spare"]}
    assert spares and all(line["scope"] == "spare" and line["power_typical_w"] == 0 for line in spares)
    assert lines[-len(spares):] == spares  # spare lines come last
    for line in spares:
        assert line["unit_price"] == base[line["sku"]]["unit_price"]
        installed = base[line["sku"]]["qty"]
        # the default policy: one spare switch per 20 of a model, 2 % of the rest, rounded up
        expected = -(-installed // 20) if line["category"] == "switch" else max(1, -(-installed * 2 // 100))
        assert line["qty"] == expected
        assert line["spares"] is None and base[line["sku"]]["spares"] == line["qty"]  # shown on its base line
    assert any(line["category"] == "switch" for line in spares)
    assert all(line["spares"] == 0 for line in base.values() if line["category"] == "nic")
    assert float(totals["spares_subtotal"]) == pytest.approx(sum(float(line["total"]) for line in spares))
    assert float(totals["subtotal"]) == pytest.approx(sum(float(line["total"]) for line in lines))
    assert totals["total_includes_spares"] is True
    in_server = sum(line["in_server_typical_w"] for line in lines)
    assert totals["in_server_typical_w"] == pytest.approx(in_server) and in_server > 0
    assert totals["power_typical_w"] == pytest.approx(sum(line["power_typical_w"] for line in lines) - in_server)
    assert {line["scope"] for line in base.values()} <= {"network", "in-server", "both"}
    version = member_client.get(reverse("api-version-detail", kwargs={"pk": ready_version.pk})).json()
    assert version["inputs"]["spares"] == {"switches": 0.0, "transceivers": 2.0, "cables": 2.0, "fibers": 2.0,
                                           "switches_per_spare": 20}
    assert version["totals"]["total_includes_spares"] is True
    assert version["totals"]["in_server_typical_w"] == pytest.approx(in_server)
    assert version["summary"]["power"]["in_server_typical_w"] == pytest.approx(in_server)
    assert version["summary"]["spares"]["subtotal"] == pytest.approx(float(totals["spares_subtotal"]))


def test_spare_percentages_are_set_per_design_and_bad_ones_get_field_errors(
        member_client, project, seed, django_capture_on_commit_callbacks):
    bad = create(member_client, project, inputs(seed, spares={"transceivers": 150, "optics": 1, "cables": "x"}),
                 django_capture_on_commit_callbacks)
    assert bad.status_code == 400
    assert set(bad.json()) >= {"spares.transceivers", "spares.optics", "spares.cables"}
    assert not Design.objects.filter(project=project).exists()
    assert create(member_client, project, inputs(seed, spares=[2]),
                  django_capture_on_commit_callbacks).status_code == 400
    good = create(member_client, project, inputs(seed, spares={"switches": 10, "fibers": 0}),
                  django_capture_on_commit_callbacks)
    assert good.status_code == 202, good.content
    version = DesignVersion.objects.get(pk=good.json()["version"]["id"])
    assert version.spares == {"switches": 10.0, "transceivers": 2.0, "cables": 2.0, "fibers": 0.0,
                              "switches_per_spare": 20}
    spare = {line.category for line in BomLineRecord.objects.filter(version=version, spare=True)}
    assert "switch" in spare and "fiber" not in spare and "transceiver" in spare


@pytest.mark.parametrize("value", [-1, 2.5, "x", 10_001, True])
def test_a_bad_switches_per_spare_is_a_field_error_and_creates_nothing(
        member_client, project, seed, django_capture_on_commit_callbacks, value):
    response = create(member_client, project, inputs(seed, spares={"switches_per_spare": value}),
                      django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert list(response.json()) == ["spares.switches_per_spare"]
    assert not Design.objects.filter(project=project).exists()


def test_a_bad_switches_per_spare_is_explained_in_chinese_too(
        member_client, project, seed, django_capture_on_commit_callbacks):
    member_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-hans"
    response = create(member_client, project, inputs(seed, spares={"switches_per_spare": -3}),
                      django_capture_on_commit_callbacks)
    assert response.status_code == 400
    message = " ".join(response.json()["spares.switches_per_spare"])
    assert "10,000" in message and "交换机" in message


def test_one_spare_switch_per_n_is_set_per_design_and_shown_per_bom_line(
        member_client, project, seed, django_capture_on_commit_callbacks):
    good = create(member_client, project, inputs(seed, spares={"switches_per_spare": 4, "transceivers": 0,
                                                               "cables": 0, "fibers": 0}),
                  django_capture_on_commit_callbacks)
    assert good.status_code == 202, good.content
    version = DesignVersion.objects.get(pk=good.json()["version"]["id"])
    assert version.spares["switches_per_spare"] == 4
    lines = member_client.get(reverse("api-version-bom", kwargs={"pk": version.pk})).json()["lines"]
    switches = [line for line in lines if line["category"] == "switch" and not line["spare"]]
    spares = {line["sku"]: line["qty"] for line in lines if line["spare"]}
    assert switches and set(spares) == {line["sku"] for line in switches}  # only switches get spares here
    for line in switches:
        assert line["spares"] == spares[line["sku"]] == -(-line["qty"] // 4)
