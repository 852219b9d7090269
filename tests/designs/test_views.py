"""Design pages as a member sees them: project panel, form with errors in place, job page, design page."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.designs.models import Design, DesignVersion, Job
from apps.designs.panels import DesignPanel, design_panel_register, design_panel_unregister
from apps.designs.services.design import design_create
from tests.designs.conftest import inputs
from tests.designs.factories import DesignFactory, DesignVersionFactory, JobFactory
from tests.factories import UserFactory
from tests.projects.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def form_data(seed, **changes) -> dict:
    """What the design form posts for 256 GPUs of DGX H100 on SN5600 in 2x400G (blanks = defaults)."""
    data = {
        "name": "Fabric A", "description": "", "server": seed["dgx_h100"].pk, "nic": "",
        "leaf_switch": seed["sn5600"].pk, "leaf_breakout": "2x400G", "spine_switch": "", "spine_breakout": "",
        "core_switch": "", "core_breakout": "", "gpus": "256", "planes": "1", "oversubscription": "1",
        "tiers": "auto", "discount_pct": "", "currency": "USD",
    }
    for name in ("servers_per_rack", "racks_per_row", "rack_width_m", "row_pitch_m", "slack_m", "switches_per_rack"):
        data[f"layout_{name}"] = ""
    for name in ("host", "p2p", "loopback", "asn_base"):
        data[f"pools_{name}"] = ""
    data.update(changes)
    return data


def url(name, project, **kwargs) -> str:
    return reverse(f"designs:{name}", kwargs={"project_pk": project.pk, **kwargs})


@pytest.fixture
def ready_version(project, member, seed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = design_create(project=project, user=member, name="Hall A", data=inputs(seed, gpus=256),
                            description="First hall")
    version = DesignVersion.objects.get(pk=job.version_id)
    assert version.is_ready
    return version


def field_errors(response, name: str) -> list[str]:
    return [str(e) for e in response.context["form"].errors.get(name, [])]


# Project page ---------------------------------------------------------------------------------


def test_project_page_lists_designs_with_their_versions_status_cost_and_links(client_for_member, project,
                                                                                ready_version):
    page = client_for_member.get(project.get_absolute_url())
    body = page.content.decode()
    assert page.status_code == 200
    assert 'id="project-designs"' in body and "Hall A" in body and "First hall" in body
    assert url("version-detail", project, version_pk=ready_version.pk) in body
    assert url("design-create", project) in body
    assert f"{url('version-create', project, design_pk=ready_version.design_id)}?from={ready_version.pk}" in body
    assert f"{ready_version.total_cost:,.0f} USD" in body
    assert '<span class="badge ready">ready</span>' in body


def test_project_page_without_designs_invites_to_start_one(client_for_member, project):
    body = client_for_member.get(project.get_absolute_url()).content.decode()
    assert 'id="no-designs"' in body
    assert url("design-create", project) in body


# The form -------------------------------------------------------------------------------------


def test_design_form_starts_from_a_server_and_a_leaf_switch_at_its_speed(client_for_member, project, seed):
    page = client_for_member.get(url("design-create", project))
    assert page.status_code == 200
    form = page.context["form"]
    server = form.fields["server"].queryset.get(pk=form.initial["server"])
    assert form.initial["nic"] == server.default_nic_id
    leaf = form.fields["leaf_switch"].queryset.get(pk=form.initial["leaf_switch"])
    assert any(mode.endswith(f"x{server.backend_gbps}G") for mode in leaf.breakouts)
    assert "leaf_breakout" not in form.initial  # automatic: follows the NIC speed
    # The breakout list offers only the chosen switch's modes; the script gets every switch's.
    assert [value for value, _ in form.fields["leaf_breakout"].choices] == ["", *leaf.breakouts]
    catalog = page.context["catalog_data"]
    assert catalog["switches"][str(seed["th4"].pk)][0][0] == "1x400G"
    assert catalog["servers"][str(seed["dgx_h100"].pk)]["default_nic"] == seed["dgx_h100"].default_nic_id
    assert 'data-error-for="gpus"' in page.content.decode()


def test_creating_a_design_goes_to_its_job_page_which_redirects_to_the_version_once_done(
        client_for_member, project, seed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for_member.post(url("design-create", project), form_data(seed))
    design = Design.objects.get(project=project, name="Fabric A")
    job = Job.objects.get(version__design=design)
    assert response.status_code == 302
    assert response["Location"] == url("job-detail", project, job_pk=job.pk)
    assert job.status == Job.Status.SUCCEEDED
    page = client_for_member.get(response["Location"])
    assert page.status_code == 302
    assert page["Location"] == url("version-detail", project, version_pk=job.version_id)


def test_a_running_job_page_shows_its_progress(client_for_member, project):
    job = JobFactory(version__design__project=project, version__status=DesignVersion.Status.GENERATING,
                     status=Job.Status.RUNNING, stage="topology", percent=40)
    page = client_for_member.get(url("job-detail", project, job_pk=job.pk))
    body = page.content.decode()
    assert page.status_code == 200
    assert 'aria-valuenow="40"' in body
    assert reverse("api-job-detail", kwargs={"pk": job.pk}) in body


def test_invalid_form_is_shown_again_with_errors_in_place_and_nothing_saved(client_for_member, project, seed):
    response = client_for_member.post(url("design-create", project), form_data(seed, gpus="0", name=""))
    assert response.status_code == 200
    assert field_errors(response, "name")
    assert field_errors(response, "gpus") == ["A design needs at least 1 GPU."]
    body = response.content.decode()
    assert 'data-error-for="gpus">A design needs at least 1 GPU.' in body
    assert not Design.objects.filter(project=project).exists()


def test_an_infeasible_design_gets_the_engines_reason_on_the_field_to_change(client_for_member, project, seed):
    response = client_for_member.post(url("design-create", project), form_data(seed, planes="3"))
    assert response.status_code == 200
    assert "3 planes do not divide" in " ".join(field_errors(response, "planes"))
    assert not Design.objects.filter(project=project).exists()


def test_rack_layout_and_pool_errors_land_on_their_own_fields(client_for_member, project, seed):
    response = client_for_member.post(
        url("design-create", project),
        form_data(seed, layout_servers_per_rack="-1", pools_host="10.0.0.1/8"),
    )
    assert response.status_code == 200
    # 0 servers per rack asks for as many as height and power allow (engine.hall); below it is an error.
    assert field_errors(response, "layout_servers_per_rack") == ["Must be at least 0."]
    assert field_errors(response, "pools_host")
    assert not Design.objects.filter(project=project).exists()


def test_a_name_already_used_in_the_project_is_refused_on_the_name_field(client_for_member, project, seed,
                                                                          ready_version):
    response = client_for_member.post(url("design-create", project), form_data(seed, name="hall a"))
    assert response.status_code == 200
    assert "already has a design named" in " ".join(field_errors(response, "name"))
    assert Design.objects.filter(project=project).count() == 1


def test_estimate_answers_feasibility_size_rough_cost_and_alternatives(client_for_member, project, seed):
    response = client_for_member.post(url("design-estimate", project), form_data(seed))
    assert response.status_code == 200
    body = response.json()
    assert body["feasible"] is True and body["errors"] == {}
    size = body["size"]
    assert (size["tiers"], size["switches"]["leaf"], size["max_gpus"]) == (2, 8, 8192)
    assert size["estimated_cost"] > 0
    assert any(alt["cheapest"] for alt in body["alternatives"])
    assert 'data-kpi="tiers">2<' in body["panel_html"]
    assert "Feasible" in body["panel_html"]


def test_estimate_puts_errors_on_the_form_field_names_and_is_still_a_200(client_for_member, project, seed):
    response = client_for_member.post(
        url("design-estimate", project), form_data(seed, gpus="-4", layout_racks_per_row="-1", name="")
    )
    assert response.status_code == 200
    body = response.json()
    assert body["feasible"] is False
    assert set(body["errors"]) == {"gpus", "layout_racks_per_row"}  # the name is checked on submit
    assert "Not feasible yet" in body["panel_html"]


def test_estimate_answers_only_posts(client_for_member, project):
    assert client_for_member.get(url("design-estimate", project)).status_code == 405


def test_new_version_form_starts_from_a_version_and_makes_version_2(client_for_member, project, seed, ready_version,
                                                                    django_capture_on_commit_callbacks):
    form_url = url("version-create", project, design_pk=ready_version.design_id)
    page = client_for_member.get(form_url, {"from": ready_version.pk})
    assert page.status_code == 200
    assert page.context["form"].initial["gpus"] == 256
    assert page.context["source_version"] == ready_version
    assert 'name="name"' not in page.content.decode()
    data = form_data(seed, gpus="512", **{"from": ready_version.pk})
    del data["name"], data["description"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for_member.post(form_url, data)
    assert response.status_code == 302
    second = DesignVersion.objects.get(design=ready_version.design, number=2)
    assert (second.gpus, second.status) == (512, DesignVersion.Status.READY)
    ready_version.refresh_from_db()
    assert ready_version.gpus == 256


def test_new_version_form_ignores_a_from_that_is_not_a_version_of_this_design(client_for_member, project,
                                                                              ready_version):
    form_url = url("version-create", project, design_pk=ready_version.design_id)
    for ignored in ("abc", ""):
        page = client_for_member.get(form_url, {"from": ignored})
        assert page.status_code == 200
        assert page.context["source_version"] == ready_version  # the latest
    assert client_for_member.get(form_url, {"from": ready_version.pk + 1000}).status_code == 404


def test_a_new_version_with_bad_input_is_shown_again_and_not_created(client_for_member, project, seed,
                                                                     ready_version):
    data = form_data(seed, oversubscription="0.5")
    del data["name"], data["description"]
    response = client_for_member.post(url("version-create", project, design_pk=ready_version.design_id), data)
    assert response.status_code == 200
    assert field_errors(response, "oversubscription")
    assert ready_version.design.versions.count() == 1


# The design page ------------------------------------------------------------------------------


def test_design_page_shows_headline_figures_bom_cost_breakdown_and_alternatives(client_for_member, project,
                                                                                 ready_version):
    page = client_for_member.get(url("version-detail", project, version_pk=ready_version.pk))
    assert page.status_code == 200
    kpis = {k["key"]: k["value"] for k in page.context["kpis"]}
    summary = ready_version.summary
    assert (kpis["gpus"], kpis["servers"], kpis["tiers"], kpis["leaf"], kpis["spine"]) == (256, 32, 2, 8, 4)
    assert kpis["links"] == summary["total_links"] == 768
    assert (kpis["max_gpus"], kpis["hops"]) == (summary["max_gpus"], 3)
    assert kpis["cost"] == ready_version.total_cost
    assert kpis["rack_units"] == ready_version.rack_units
    totals = page.context["bom_totals"]
    assert totals["total"] == ready_version.total_cost
    breakdown = page.context["cost_breakdown"]
    assert pytest.approx(sum(row["total"] for row in breakdown)) == float(totals["subtotal"])
    # A DGX H100 comes with its ConnectX-7s: switches and optics, no NIC cards.
    categories = {row["category"] for row in breakdown}
    assert categories >= {"switch", "transceiver"} and "nic" not in categories
    body = page.content.decode()
    assert 'id="cost-data"' in body and "chart-4.6.1.umd.min.js" in body
    assert f'{totals["total"]:,.2f}' in body
    alternatives = page.context["alternatives"]
    assert sum(1 for alt in alternatives if alt.get("cheapest")) == 1
    assert any(alt.get("current") for alt in alternatives)
    assert 'class="cheapest' in body
    assert url("version-topology", project, version_pk=ready_version.pk) in body


def test_a_design_opens_on_its_latest_generated_version(client_for_member, project, ready_version):
    DesignVersionFactory(design=ready_version.design, number=2)  # queued, not generated
    response = client_for_member.get(url("design-detail", project, design_pk=ready_version.design_id))
    assert response["Location"] == url("version-detail", project, version_pk=ready_version.pk)


def test_a_version_not_generated_yet_points_to_its_job(client_for_member, project):
    job = JobFactory(version__design__project=project)
    page = client_for_member.get(url("version-detail", project, version_pk=job.version_id))
    assert page.status_code == 200
    assert url("job-detail", project, job_pk=job.pk) in page.content.decode()
    topology = client_for_member.get(url("version-topology", project, version_pk=job.version_id))
    assert topology["Location"] == url("version-detail", project, version_pk=job.version_id)


def test_failed_job_page_says_why_with_the_fields_to_change_and_a_way_back(client_for_member, project):
    job = JobFactory(
        version__design__project=project, version__status=DesignVersion.Status.FAILED, status=Job.Status.FAILED,
        stage="failed", error="planes: 3 planes do not divide 8 rails",
        error_fields={"planes": ["3 planes do not divide 8 rails"], "layout.slack_m": ["Must be at most 1000."]},
    )
    page = client_for_member.get(url("job-detail", project, job_pk=job.pk))
    body = page.content.decode()
    assert page.status_code == 200
    assert "planes: 3 planes do not divide 8 rails" in body
    assert "<strong>Planes</strong>: 3 planes do not divide 8 rails" in body
    assert "<strong>Cable slack (m)</strong>: Must be at most 1000." in body
    retry = f"{url('version-create', project, design_pk=job.version.design_id)}?from={job.version_id}"
    assert retry in body
    version_page = client_for_member.get(url("version-detail", project, version_pk=job.version_id)).content.decode()
    assert "planes: 3 planes do not divide 8 rails" in version_page


def test_a_version_or_job_of_another_project_is_404_under_this_project(client_for_member, project, member):
    other = ProjectFactory(members=[member])
    job = JobFactory(version__design__project=other)
    assert client_for_member.get(url("version-detail", project, version_pk=job.version_id)).status_code == 404
    assert client_for_member.get(url("job-detail", project, job_pk=job.pk)).status_code == 404
    assert client_for_member.get(url("design-detail", project, design_pk=job.version.design_id)).status_code == 404
    assert client_for_member.get(
        url("version-create", project, design_pk=job.version.design_id)).status_code == 404


def test_non_member_gets_404_on_the_design_pages(project, ready_version):
    client = Client()
    client.force_login(UserFactory())
    for name, kwargs in [("version-detail", {"version_pk": ready_version.pk}), ("design-create", {}),
                         ("version-topology", {"version_pk": ready_version.pk})]:
        assert client.get(url(name, project, **kwargs)).status_code == 404


def test_topology_page_gives_its_script_the_api_urls(client_for_member, project, ready_version):
    page = client_for_member.get(url("version-topology", project, version_pk=ready_version.pk))
    assert page.status_code == 200
    config = page.context["topology_config"]
    assert config["topologyUrl"] == reverse("api-version-topology", kwargs={"pk": ready_version.pk})
    assert config["expandUrl"] == reverse("api-version-topology-expand", kwargs={"pk": ready_version.pk})
    assert config["linksUrl"] == reverse("api-version-link-list", kwargs={"pk": ready_version.pk})
    body = page.content.decode()
    assert "cytoscape-3.35.0.min.js" in body and 'id="cabling-filters"' in body
    assert [value for value, _ in page.context["levels"]] == ["auto", "plane", "overview", "su", "device"]


# Panels other apps add ------------------------------------------------------------------------


@pytest.fixture
def panel_templates(settings):
    settings.TEMPLATES = [{
        **settings.TEMPLATES[0],
        "APP_DIRS": False,
        "OPTIONS": {
            **settings.TEMPLATES[0]["OPTIONS"],
            "loaders": [
                ("django.template.loaders.locmem.Loader", {
                    "test/section.html":
                        '<p class="from-panel">{{ note }} for v{{ version.number }} of {{ design.name }}</p>',
                    "test/header.html": '<span class="badge approved">approved</span>',
                    "test/nav.html": '<a href="/roce/">RoCE</a>',
                }),
                "django.template.loaders.filesystem.Loader",
                "django.template.loaders.app_directories.Loader",
            ],
        },
    }]
    yield
    for key in ("test-section", "test-header", "test-nav", "test-ready-only"):
        design_panel_unregister(key=key)


def test_other_apps_add_panels_to_the_design_page_by_slot(client_for_member, project, ready_version,
                                                          panel_templates):
    design_panel_register(DesignPanel(
        key="test-section", title="Review", template_name="test/section.html", slot="section",
        get_context=lambda request, version: {"note": "Comments"},
    ))
    design_panel_register(DesignPanel(key="test-header", template_name="test/header.html", slot="header"))
    design_panel_register(DesignPanel(key="test-nav", template_name="test/nav.html", slot="nav"))
    body = client_for_member.get(url("version-detail", project, version_pk=ready_version.pk)).content.decode()
    assert '<section class="card design-panel" id="panel-test-section"' in body
    assert '<h2>Review</h2>' in body and "Comments for v1 of Hall A" in body
    header = body[body.index('class="version-header"'):body.index('class="tabs"')]
    assert "badge approved" in header
    tabs = body[body.index('class="tabs"'):body.index("</nav>", body.index('class="tabs"'))]
    assert 'href="/roce/"' in tabs


def test_panels_for_generated_versions_stay_off_until_the_version_is_ready(client_for_member, project,
                                                                           panel_templates):
    design_panel_register(DesignPanel(key="test-ready-only", template_name="test/header.html", slot="header"))
    version = DesignVersionFactory(design=DesignFactory(project=project))
    body = client_for_member.get(url("version-detail", project, version_pk=version.pk)).content.decode()
    assert "badge approved" not in body


def test_a_panel_needs_a_known_slot():
    with pytest.raises(ValueError):
        DesignPanel(key="x", template_name="x.html", slot="sidebar")


def test_new_version_form_ignores_a_from_of_non_ascii_digits(client_for_member, project, ready_version):
    # "²" and "٣" are digits to str.isdigit(); neither is a version id.
    form_url = url("version-create", project, design_pk=ready_version.design_id)
    for ignored in ("²", "1²"):
        page = client_for_member.get(form_url, {"from": ignored})
        assert page.status_code == 200
        assert page.context["source_version"] == ready_version


def test_design_page_ignores_a_traffic_choice_of_non_ascii_digits(client_for_member, project, ready_version):
    page = client_for_member.get(url("version-detail", project, version_pk=ready_version.pk), {"traffic": "²"})
    assert page.status_code == 200


# Spares and power by scope (issue 12, sections 4 and 5) -------------------------------------------------


def test_design_page_marks_spare_lines_with_their_subtotal_and_says_the_total_includes_them(
        client_for_member, project, ready_version):
    page = client_for_member.get(url("version-detail", project, version_pk=ready_version.pk))
    body = page.content.decode()
    base, spares = page.context["bom_lines"], page.context["bom_spare_lines"]
    # Default spares: 2 % of every transceiver, cable and fibre cord SKU in use, at least one; one cold spare per
    # switch model per 20 installed.
    assert {(line.category, line.sku) for line in spares} == {
        (line.category, line.sku) for line in base if line.category in ("switch", "transceiver", "cable", "fiber")}
    by_sku = {line.sku: line for line in base}
    for line in spares:
        installed = by_sku[line.sku].qty
        assert line.qty == (-(-installed // 20) if line.category == "switch" else max(1, -(-installed * 2 // 100)))
        assert line.unit_price == by_sku[line.sku].unit_price
        assert by_sku[line.sku].spares == line.qty  # the base line's Spares column
    # the Spares column: each base line says how many spares of it are ordered
    assert ">Spares</th>" in body
    for line in base:
        row = body.split(f'data-sku="{line.sku}" data-category="{line.category}" data-scope="{line.scope}"')[1]
        cell = row.split("data-ordered-spares>")[1].split("</td>")[0]
        assert cell == (f"{line.spares:,}" if line.spares is not None else "")
    totals = page.context["bom_totals"]
    assert totals["spares_subtotal"] == sum(line.total for line in spares) == ready_version.spares_subtotal > 0
    assert totals["subtotal"] == sum(line.total for line in base) + totals["spares_subtotal"]
    assert 'id="bom-spares"' in body and body.count("data-spare") == len(spares)
    assert f'{totals["spares_subtotal"]:,.2f}' in body
    assert "Total (USD), spares included" in body
    kpis = {k["key"]: k for k in page.context["kpis"]}
    assert kpis["cost"]["detail"] == f"includes spares: {ready_version.spares_subtotal:,.0f} USD"
    assert dict(page.context["inputs"])["Spares (%)"] == (
        "switches 0, transceivers 2, cables 2, fibre cords 2; one spare switch per 20 installed, per model")


def test_design_page_headline_shows_the_networks_power_with_the_in_server_part_beside_it(
        client_for_member, project, ready_version):
    page = client_for_member.get(url("version-detail", project, version_pk=ready_version.pk))
    power = {k["key"]: k for k in page.context["kpis"]}["power"]
    assert power["label"] == "Network power, typical / max (kW)"
    lines = list(ready_version.bom_lines.all())
    # DGX H100: the flat-top twin-port modules in the server's cages are in-server power; no NIC cards.
    in_server = sum(line.in_server_typical_w for line in lines)
    assert in_server > 0 and ready_version.in_server_typical_w == pytest.approx(in_server)
    network = sum(line.power_typical_w - line.in_server_typical_w for line in lines)
    assert power["value"] == pytest.approx(network / 1000) == pytest.approx(ready_version.power_typical_w / 1000)
    assert power["detail"] == "plus in-server (NICs, server-side optics): %.1f / %.1f kW" % (
        ready_version.in_server_typical_w / 1000, ready_version.in_server_max_w / 1000)
    scopes = {line.sku: line.scope for line in lines if not line.spare}
    assert {scopes[sku] for sku in scopes if sku.endswith("-FLT")} == {"in-server"}
    assert "network" in scopes.values()
    body = page.content.decode()
    assert power["detail"] in body and 'id="bom-power-scope"' in body


def test_a_version_generated_before_spares_and_the_power_split_still_renders_and_says_not_computed(
        client_for_member, member_client, project, ready_version):
    ready_version.bom_lines.filter(spare=True).delete()
    ready_version.bom_lines.update(scope="", in_server_typical_w=None, in_server_max_w=None)
    DesignVersion.objects.filter(pk=ready_version.pk).update(spares=None, spares_subtotal=None,
                                                             in_server_typical_w=None, in_server_max_w=None)
    page = client_for_member.get(url("version-detail", project, version_pk=ready_version.pk))
    assert page.status_code == 200
    body = page.content.decode()
    kpis = {k["key"]: k for k in page.context["kpis"]}
    assert kpis["power"]["detail"] == "in-server part: not computed"
    assert kpis["cost"]["detail"] == "spares: not computed"
    assert 'id="bom-spares"' not in body and 'id="bom-spares-note"' in body
    assert dict(page.context["inputs"])["Spares (%)"] == "none (generated before spares)"
    assert page.context["bom_totals"]["spares_subtotal"] is None
    bom = member_client.get(reverse("api-version-bom", kwargs={"pk": ready_version.pk})).json()
    assert bom["totals"]["spares_subtotal"] is None and bom["totals"]["in_server_typical_w"] is None
    assert bom["totals"]["total_includes_spares"] is False
    detail = member_client.get(reverse("api-version-detail", kwargs={"pk": ready_version.pk})).json()
    assert detail["totals"]["in_server_typical_w"] is None and detail["inputs"]["spares"] is None
    form = client_for_member.get(url("version-create", project, design_pk=ready_version.design_id)
                                 + f"?from={ready_version.pk}")
    assert form.status_code == 200 and form.context["form"]["spares_transceivers"].value() == "2"


def test_design_form_takes_spare_percentages_with_defaults_and_field_errors(
        client_for_member, project, seed, django_capture_on_commit_callbacks):
    form = client_for_member.get(url("design-create", project)).context["form"]
    assert [form[f"spares_{name}"].value() for name in ("switches", "transceivers", "cables", "fibers")] == [
        "0", "2", "2", "2"]
    bad = client_for_member.post(url("design-create", project), form_data(
        seed, spares_transceivers="101", spares_cables="-1", spares_fibers="lots", spares_switches=""))
    assert bad.status_code == 200 and not Design.objects.filter(project=project).exists()
    assert field_errors(bad, "spares_transceivers") == ["A spare percentage is 0 to 100 %."]
    assert field_errors(bad, "spares_cables") == ["A spare percentage is 0 to 100 %."]
    assert field_errors(bad, "spares_fibers")
    with django_capture_on_commit_callbacks(execute=True):
        client_for_member.post(url("design-create", project), form_data(
            seed, spares_switches="5", spares_transceivers="0", spares_cables="", spares_fibers="10"))
    version = DesignVersion.objects.get(design__project=project)
    assert version.spares == {"switches": 5.0, "transceivers": 0.0, "cables": 2.0, "fibers": 10.0,
                              "switches_per_spare": 20}
    spares = {line.category for line in version.bom_lines.filter(spare=True)}
    assert "switch" in spares and "transceiver" not in spares and "fiber" in spares
    switches = sum(version.summary["switches"].values())
    assert version.bom_lines.get(spare=True, category="switch").qty == -(-switches * 5 // 100)


def test_design_form_takes_one_spare_switch_per_n_with_its_default_and_field_errors(
        client_for_member, project, seed, django_capture_on_commit_callbacks):
    page = client_for_member.get(url("design-create", project))
    assert page.context["form"]["spares_switches_per_spare"].value() == "20"
    assert "One spare switch per N installed" in page.content.decode()
    for value in ("-1", "1.5", "10001"):
        bad = client_for_member.post(url("design-create", project), form_data(seed, spares_switches_per_spare=value))
        assert bad.status_code == 200 and not Design.objects.filter(project=project).exists()
        assert field_errors(bad, "spares_switches_per_spare") == (
            ["Enter a whole number."] if value == "1.5" else
            ["One spare switch per 0 (none) to 10,000 installed switches of a model."])
    with django_capture_on_commit_callbacks(execute=True):
        client_for_member.post(url("design-create", project), form_data(seed, spares_switches_per_spare="0"))
    version = DesignVersion.objects.get(design__project=project)
    assert version.spares["switches_per_spare"] == 0
    assert not version.bom_lines.filter(spare=True, category="switch").exists()  # 0: none, and 0 % switches


def test_the_spares_per_switch_field_and_error_speak_chinese(client_for_member, project, seed):
    client_for_member.post(reverse("accounts:language-set"), {"language": "zh-hans", "next": "/projects/"})
    page = client_for_member.get(url("design-create", project)).content.decode()
    assert '<html lang="zh-hans">' in page and "One spare switch per N installed" not in page
    assert "备件" in page
    bad = client_for_member.post(url("design-create", project), form_data(seed, spares_switches_per_spare="-1"))
    errors = field_errors(bad, "spares_switches_per_spare")
    assert errors and "10,000" in errors[0] and "One spare" not in errors[0]


def test_the_design_form_offers_third_party_optics_off_by_default_and_the_version_page_shows_the_choice(
        client_for_member, project, seed, django_capture_on_commit_callbacks):
    page = client_for_member.get(url("design-create", project))
    assert not page.context["form"]["third_party_optics"].value()
    assert 'name="third_party_optics"' in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client_for_member.post(url("design-create", project), form_data(seed, third_party_optics="on"))
    version = Design.objects.get(project=project, name="Fabric A").versions.get()
    assert version.third_party_optics is True
    page = client_for_member.get(url("version-detail", project, version_pk=version.pk))
    assert "third-party optics allowed" in page.content.decode()


def test_a_version_quoted_before_the_switch_rule_still_opens_and_a_new_version_from_it_takes_the_default(
        client_for_member, project, ready_version):
    # As stored before one-spare-switch-per-N: the four percentages only.
    DesignVersion.objects.filter(pk=ready_version.pk).update(
        spares={"switches": 0.0, "transceivers": 2.0, "cables": 2.0, "fibers": 2.0})
    page = client_for_member.get(url("version-detail", project, version_pk=ready_version.pk))
    assert page.status_code == 200
    assert dict(page.context["inputs"])["Spares (%)"] == "switches 0, transceivers 2, cables 2, fibre cords 2"
    form = client_for_member.get(url("version-create", project, design_pk=ready_version.design_id),
                                 {"from": ready_version.pk}).context["form"]
    assert form["spares_switches_per_spare"].value() == "20"
    assert form["spares_transceivers"].value() == "2"


def test_the_headline_counts_the_switches_and_the_transceivers_of_the_bill_of_materials(
        client_for_member, project, ready_version):
    from apps.designs.selectors import version_bom_list

    page = client_for_member.get(url("version-detail", project, version_pk=ready_version.pk))
    kpis = {k["key"]: k for k in page.context["kpis"]}
    lines = list(version_bom_list(version=ready_version))
    optics = sum(line.qty for line in lines if line.category == "transceiver" and not line.spare)
    spares = sum(line.qty for line in lines if line.category == "transceiver" and line.spare)

    assert kpis["switches"]["value"] == 8 + 4 and kpis["switches"]["detail"] == "leaf 8 · spine 4"
    assert kpis["optics"]["value"] == optics > 0
    assert kpis["optics"]["detail"] == (f"plus {spares:,} spares" if spares else "")
    body = page.content.decode()
    assert 'data-kpi="switches"' in body and 'data-kpi="optics"' in body
