"""RoCE settings and traffic analysis as an API client sees them: generation stores them, the API serves them."""
from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.urls import reverse

from apps.analysis import services as analysis_services
from apps.analysis.models import RoceReview, TrafficAnalysis
from apps.designs.models import Design, DesignVersion, DeviceRecord, Job
from apps.designs.services import design as design_services
from apps.designs.services import job as job_services
from apps.engine.roce import RoceSettings, nos_for_vendor
from apps.engine.specio import spec_from_dict
from tests.designs.conftest import inputs

pytestmark = pytest.mark.django_db

SWITCH_TABLES = {"PORT", "QUEUE", "BREAKOUT_CFG", "PFC_WD", "WRED_PROFILE", "DSCP_TO_TC_MAP"}


def create(client, project, data, capture, name="Fabric A"):
    with capture(execute=True):
        return client.post(reverse("api-design-list", kwargs={"project_pk": project.pk}), {"name": name, **data},
                           format="json")


def two_scale_units(seed, **changes):
    """512 GPUs (64 DGX H100) on 64x400G leaves: two scale units, so collectives cross the spines."""
    return inputs(seed, leaf_switch=seed["th4"].pk, leaf_breakout="1x400G", gpus=512, **changes)


def generated(client, project, seed, capture, name="Fabric A", **changes):
    response = create(client, project, two_scale_units(seed, **changes), capture, name=name)
    assert response.status_code == 202, response.content
    version = DesignVersion.objects.get(pk=response.json()["version"]["id"])
    assert version.status == DesignVersion.Status.READY, Job.objects.get(version=version).error
    return version


@pytest.fixture
def version(member_client, project, seed, django_capture_on_commit_callbacks):
    """A generated 512-GPU design (64 DGX H100, 16 leaves, 8 spines) with default RoCE settings."""
    return generated(member_client, project, seed, django_capture_on_commit_callbacks)


def roce(client, version):
    response = client.get(reverse("api-version-roce", kwargs={"pk": version.pk}))
    assert response.status_code == 200, response.content
    return response.json()


def traffic(client, version):
    response = client.get(reverse("api-version-traffic", kwargs={"pk": version.pk}))
    assert response.status_code == 200, response.content
    return response.json()


def test_generation_stores_the_traffic_report_and_roce_review_with_the_version(
    member_client, project, seed, django_capture_on_commit_callbacks, monkeypatch
):
    seen = []
    real_progress = job_services.job_progress

    def watched(*, job_id, stage, percent):
        seen.append((stage, percent))
        real_progress(job_id=job_id, stage=stage, percent=percent)

    monkeypatch.setattr(job_services, "job_progress", watched)  # JobProgress (engine, traffic, roce)
    monkeypatch.setattr(design_services, "job_progress", watched)  # the service's own stages
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks)

    stages = [stage for stage, _ in seen]
    assert stages.index("traffic") < stages.index("roce") < stages.index("saving")
    percents = [percent for _, percent in seen]
    assert percents == sorted(percents)

    review = RoceReview.objects.get(version=version)
    # defaults: every rule ok, but the 7060DX5-64S (Tomahawk 4) publishes no packet buffer: one warning per
    # switch class says its SONiC buffer pools are not sized
    assert (review.errors, review.warnings, review.error) == (0, 2, "")
    unknown = [f for f in review.findings if f["params"].get("buffer_unknown")]
    assert {f["device_class"] for f in unknown} == {"leaf", "spine"}
    assert {f["device_class"] for f in review.findings if f not in unknown} == {"fabric"}
    assert {(h["device_class"], h["link_class"]) for h in review.headroom} == {
        ("leaf", "server-leaf"), ("leaf", "leaf-spine"), ("spine", "leaf-spine")}
    analysis = TrafficAnalysis.objects.get(version=version)
    assert (analysis.source, analysis.status, analysis.pattern) == ("generation", "succeeded", "both")
    assert set(analysis.report["patterns"]) == {"all-reduce", "all-to-all"}
    assert version.summary["timings_s"]["traffic"] >= 0


BAD_ROCE = [
    ({"pfc_priority": 9}, "roce.pfc_priority"),
    ({"pfc_priority": "three"}, "roce.pfc_priority"),
    ({"ecn": {"400": {"kmin": -1}}}, "roce.ecn.400.kmin"),
    ({"ecn": {"400": {"kmin": "lots"}}}, "roce.ecn.400.kmin"),
    ({"ecn": {"1600": {"kmin": 10}}}, "roce.ecn.1600.kmax"),
    ({"mtu": 100_000}, "roce.mtu"),
    ({"roce_mtu": 3000}, "roce.roce_mtu"),
    ({"dcqcn": {"rpg_gd": 99}}, "roce.dcqcn.rpg_gd"),
    ({"pfc_watchdog": {"action": "panic"}}, "roce.pfc_watchdog.action"),
    ({"overrides": {"gpu": {"mtu": 9000}}}, "roce.overrides.gpu"),
    ({"overrides": {"nic": {"headroom_kb": 100}}}, "roce.overrides.nic.headroom_kb"),
    ({"turbo": True}, "roce.turbo"),
    ("lossless please", "roce"),
]


@pytest.mark.parametrize(("roce_input", "field"), BAD_ROCE)
def test_bad_roce_settings_answer_400_on_the_dotted_field_and_create_nothing(
    member_client, project, seed, django_capture_on_commit_callbacks, roce_input, field
):
    response = create(member_client, project, two_scale_units(seed, roce=roce_input),
                      django_capture_on_commit_callbacks)
    assert response.status_code == 400, response.content
    errors = response.json()
    assert field in errors, errors
    assert all(isinstance(m, str) and m for m in errors[field])
    assert (Design.objects.count(), DesignVersion.objects.count(), Job.objects.count()) == (0, 0, 0)


def test_bad_roce_settings_on_a_new_version_add_no_version(member_client, version, django_capture_on_commit_callbacks):
    url = reverse("api-design-version-list", kwargs={"pk": version.design_id})
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(url, {"roce": {"ecn": {"400": {"kmin": 5_000_000}}}}, format="json")
    assert response.status_code == 400
    assert response.json() == {"roce.ecn.400.kmin": ["Must be between 0 and 1000000."]}
    assert DesignVersion.objects.filter(design_id=version.design_id).count() == 1


def test_a_version_stores_only_the_settings_changed_from_the_defaults(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks, roce={
        "pfc_priority": "3", "mtu": 9100, "ecn": {"400": {"kmin": 300, "kmax": 1600}}, "dcqcn": {"rpg_gd": "9"}})
    assert version.roce == {"ecn": {"400": {"kmin": 300}}, "dcqcn": {"rpg_gd": 9}}

    body = roce(member_client, version)
    assert body["changes"] == version.roce
    assert body["settings"]["ecn"]["400"] == {"kmin": 300, "kmax": 1600, "pmax": 20}
    assert body["settings"]["pfc_priority"] == 3
    assert body["settings"] == RoceSettings.from_dict(version.roce).to_dict()
    assert body["defaults"] == RoceSettings().to_dict()


def test_nic_on_another_pfc_priority_generates_and_the_checklist_names_the_class_and_fix(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks,
                        roce={"overrides": {"nic": {"pfc_priorities": [4]}}})

    body = roce(member_client, version)
    assert body["stored"] is True
    assert body["counts"]["error"] >= 1
    nic_error = next(f for f in body["findings"] if f["severity"] == "error" and f["code"] == "pfc_lossless")
    assert nic_error["device_class"] == "nic"
    assert nic_error["device_class_label"] == "NIC"
    assert nic_error["message"] == ("PFC is not enabled for priority 3 on NIC ports (PFC on: 4); RoCE frames are "
                                    "dropped when this hop congests.")
    assert nic_error["fix"] == "mlnx_qos -i <if> --pfc 0,0,0,1,0,0,0,0 on every backend NIC"
    assert body["findings"][0]["severity"] == "error"  # problems first
    warning = next(f for f in body["findings"] if f["variant"] == "pfc_lossless.extra")
    assert warning["severity"] == "warning" and warning["params"]["extra"] == [4]


def test_ecn_kmin_above_kmax_is_an_error_on_every_switch_class_with_that_speed(
    member_client, project, seed, django_capture_on_commit_callbacks
):
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks,
                        roce={"ecn": {"400": {"kmin": 2000, "kmax": 1000}}})
    findings = [f for f in roce(member_client, version)["findings"] if f["variant"] == "ecn_thresholds.kmin_above_kmax"]
    assert {f["device_class"] for f in findings} == {"leaf", "spine"}
    assert findings[0]["fix"] == ("Lower the ECN Kmin of 400G ports below Kmax in the RoCE settings, for example to "
                                  "250 KB.")


def test_roce_review_lists_headroom_per_switch_class_and_link_class(member_client, version):
    body = roce(member_client, version)
    rows = {(h["device_class"], h["link_class"]): h for h in body["headroom"]}
    server_leaf = rows[("leaf", "server-leaf")]
    assert server_leaf["gbps"] == 400 and server_leaf["ok"] is True
    assert server_leaf["configured"] == server_leaf["needed"] > 2 * 9100
    assert server_leaf["profile"].startswith("pg_lossless_400000_")
    assert body["configs_zip"] == reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk})


def test_configs_zip_streams_one_file_per_device(member_client, version):
    response = member_client.get(reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk}))
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith('attachment; filename="fabric-a-v1-roce-configs.zip"')
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert archive.testzip() is None
    names = archive.namelist()
    devices = list(DeviceRecord.objects.filter(version=version).values_list("name", "role"))
    spec = spec_from_dict(version.spec)
    second = {role: nos_for_vendor(spec.switch_hw(role).vendor) for role in ("leaf", "spine", "core")}
    root = "fabric-a-v1-roce-configs/"
    expected = {f"{root}server/{name}.roce.sh" if role == "server" else f"{root}sonic/{role}/{name}.config_db.json"
                for name, role in devices}
    expected |= {f"{root}{second[role].key}/{role}/{name}{second[role].suffix}" for name, role in devices
                 if role != "server" and second[role] is not None}
    # every NOS folder starts with its apply procedure
    expected |= {f"{root}{folder}/APPLY.txt" for folder in {n.split("/")[1] for n in expected} - {"server"}}
    monitoring = {f"{root}monitoring/prometheus/fabric-targets.json", f"{root}monitoring/prometheus/fabric-alerts.yml",
                  f"{root}monitoring/grafana/fabric-dashboard.json"}
    assert set(names) == expected | monitoring | {f"{root}README.txt"}
    assert len(names) == len(expected) + len(monitoring) + 1  # one entry per file, and the README
    targets = json.loads(archive.read(f"{root}monitoring/prometheus/fabric-targets.json"))
    assert {t["targets"][0] for t in targets} == {name for name, _ in devices}

    leaf = next(n for n in names if "/leaf/" in n and n.endswith(".config_db.json"))
    tables = json.loads(archive.read(leaf))
    assert SWITCH_TABLES <= set(tables)
    # Tomahawk 4 (7060DX5-64S): no published buffer, so the platform's own pools stay and APPLY.txt says why
    assert "BUFFER_POOL" not in tables
    assert "buffer pools not sized" in archive.read(f"{root}sonic/APPLY.txt").decode()
    sonic_apply = archive.read(f"{root}sonic/APPLY.txt").decode()
    assert "缓冲" in sonic_apply and "sudo config reload" in sonic_apply and "systemctl restart bgp" in sonic_apply
    assert "BREAKOUT_CFG mode 1x400G[200G,100G,50G,40G,25G,10G]" in sonic_apply
    eos_apply = archive.read(f"{root}eos/APPLY.txt").decode()
    assert "configure session" in eos_apply and "== 简体中文 ==" in eos_apply and "检查" in eos_apply
    assert tables["DSCP_TO_TC_MAP"]["ROCE"]["26"] == "3"
    assert tables["DSCP_TO_TC_MAP"]["ROCE"]["48"] == "6"
    script = archive.read(next(n for n in names if n.endswith(".roce.sh"))).decode()
    assert 'TRUST=dscp' in script and 'mlnx_qos -i "$ifname" --trust "$TRUST"' in script
    assert 'PFC=0,0,0,1,0,0,0,0' in script and 'mlnx_qos -i "$ifname" --pfc "$PFC"' in script
    assert archive.getinfo(f"{root}README.txt").file_size > 0


def test_one_device_config_is_the_file_in_the_zip(member_client, version):
    response = member_client.get(reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk}))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    for role in ("spine", "server"):
        device = DeviceRecord.objects.filter(version=version, role=role).order_by("-pk").first()
        one = member_client.get(reverse("api-version-roce-device-config",
                                        kwargs={"pk": version.pk, "device_name": device.name}))
        assert one.status_code == 200
        path = one["X-Config-Path"]
        assert archive.read(f"fabric-a-v1-roce-configs/{path}") == one.content
    assert one["Content-Type"].startswith("text/x-shellscript")
    missing = member_client.get(reverse("api-version-roce-device-config",
                                        kwargs={"pk": version.pk, "device_name": "no-such-switch"}))
    assert missing.status_code == 404

    spec = spec_from_dict(version.spec)
    leaf = DeviceRecord.objects.filter(version=version, role="leaf").first()
    url = reverse("api-version-roce-device-config", kwargs={"pk": version.pk, "device_name": leaf.name})
    nos = member_client.get(url, {"file": "nos"})
    if nos_for_vendor(spec.leaf.vendor) is None:
        assert nos.status_code == 404
    else:
        assert nos.status_code == 200 and nos["X-Config-Path"].endswith(nos_for_vendor(spec.leaf.vendor).suffix)
        assert archive.read(f"fabric-a-v1-roce-configs/{nos['X-Config-Path']}") == nos.content
    assert member_client.get(url, {"file": "yaml"}).status_code == 400
    server = DeviceRecord.objects.filter(version=version, role="server").first()
    assert member_client.get(reverse("api-version-roce-device-config",
                                     kwargs={"pk": version.pk, "device_name": server.name}),
                             {"file": "nos"}).status_code == 404


def test_switch_configs_follow_the_version_settings(member_client, project, seed, django_capture_on_commit_callbacks):
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks,
                        roce={"pfc_priority": 4, "roce_dscp": 24})
    leaf = DeviceRecord.objects.filter(version=version, role="leaf").first()
    response = member_client.get(reverse("api-version-roce-device-config",
                                         kwargs={"pk": version.pk, "device_name": leaf.name}))
    tables = json.loads(response.content)
    assert tables["DSCP_TO_TC_MAP"]["ROCE"]["24"] == "4"
    assert {q["pfc_enable"] for q in tables["PORT_QOS_MAP"].values()} == {"4"}


def test_traffic_api_returns_the_stored_report(member_client, version):
    body = traffic(member_client, version)
    stored = TrafficAnalysis.objects.get(version=version)
    analysis = body["analysis"]
    assert analysis["id"] == stored.pk
    assert analysis["source"] == "generation"
    assert analysis["report"] == stored.report
    assert {(r["pattern"], r["placement"], r["strategy"]) for r in analysis["summary_rows"]} == {
        (p, placement, s) for p, placement in (("all-reduce", "scheduler"), ("all-reduce", "plan"),
                                               ("all-to-all", "plan")) for s in ("ecmp", "hash-aware")}
    assert {r["hop"] for r in analysis["hop_rows"]} >= {"server-leaf up", "leaf-spine up", "leaf-spine down"}
    assert [a["id"] for a in body["analyses"]] == [stored.pk]
    for row in analysis["summary_rows"]:
        assert 0 < row["effective_bandwidth"] <= 1


def test_hash_aware_source_ports_spread_all_to_all_no_worse_than_random_ecmp(member_client, version):
    rows = {(r["pattern"], r["strategy"]): r for r in traffic(member_client, version)["analysis"]["summary_rows"]
            if r["headline"]}
    ecmp, aware = rows[("all-to-all", "ecmp")], rows[("all-to-all", "hash-aware")]
    assert aware["max_util"] <= ecmp["max_util"]
    assert aware["effective_bandwidth"] >= ecmp["effective_bandwidth"]


def test_random_ecmp_collisions_match_the_closed_form_per_hop(member_client, version):
    # NCCL's 2 channels x 16 queue pairs per ring connection: in plan order 512 flows leave the scale units over
    # 512 leaf uplinks (32 per boundary leaf on its 32 uplinks), no more flows than links, so the collision share
    # is shown.
    response = member_client.post(reverse("api-version-traffic", kwargs={"pk": version.pk}),
                                  {"pattern": "all-reduce", "qps_per_connection": 16}, format="json")
    assert response.status_code == 201, response.content
    # the ring in plan order (the headline, scheduler-placed ring crosses the spines at nearly every step)
    plan_rows = [h for h in response.json()["hop_rows"] if h["placement"] == "plan"]
    hops = [h for h in plan_rows if h["strategy"] == "ecmp" and h["tier"] == 1]
    assert {h["hop"] for h in hops} == {"leaf-spine up", "leaf-spine down"}
    for hop in hops:
        assert hop["flows"] == 512 and not hop["flows_outnumber_links"]
        assert 0.5 < hop["expected_collision_share"] < 0.95
        assert hop["collision_share"] == pytest.approx(hop["expected_collision_share"], abs=0.05), hop
    # Hash-aware ports put exactly one flow on every uplink: evenly loaded, no worse than random.
    aware = {h["hop"]: h for h in plan_rows if h["strategy"] == "hash-aware" and h["tier"] == 1}
    for hop in hops:
        assert aware[hop["hop"]]["worst_over_mean"] == pytest.approx(1.0)
        assert aware[hop["hop"]]["max_util"] <= hop["max_util"]


def test_traffic_can_be_run_again_with_another_seed_and_collective(member_client, version):
    url = reverse("api-version-traffic", kwargs={"pk": version.pk})
    response = member_client.post(url, {"pattern": "all-to-all", "max_flows": 5000, "seed": 7}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["status"], body["source"], body["seed"], body["max_flows"]) == ("succeeded", "on-demand", 7, 5000)
    # not given: the design's own NCCL_IB_QPS_PER_CONNECTION (4 on RoCE), stored as the report used it
    assert body["qps_per_connection"] == body["report"]["qps_per_connection"] == 4
    assert set(body["report"]["patterns"]) == {"all-to-all"}
    assert body["report"]["seed"] == 7
    assert response["Location"] == reverse("api-version-traffic-detail",
                                           kwargs={"pk": version.pk, "analysis_pk": body["id"]})
    listed = traffic(member_client, version)
    assert listed["analysis"]["source"] == "generation"  # the stored report stays the default
    assert [a["id"] for a in listed["analyses"]][0] == body["id"]
    detail = member_client.get(response["Location"]).json()
    assert detail["report"] == body["report"]


BAD_TRAFFIC = [
    ({"max_flows": 10}, "max_flows"),
    ({"max_flows": "many"}, "max_flows"),
    ({"max_flows": 10**9}, "max_flows"),
    ({"seed": -1}, "seed"),
    ({"pattern": "ring"}, "pattern"),
    ({"qps_per_connection": 0}, "qps_per_connection"),
    ({"colour": "blue"}, "colour"),
]


@pytest.mark.parametrize(("data", "field"), BAD_TRAFFIC)
def test_bad_traffic_request_answers_400_on_the_field_and_runs_nothing(member_client, version, data, field):
    response = member_client.post(reverse("api-version-traffic", kwargs={"pk": version.pk}), data, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert TrafficAnalysis.objects.filter(version=version).count() == 1


def test_large_designs_are_analysed_by_a_worker_and_polled(
    member_client, version, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(analysis_services, "SYNC_MAX_GPUS", 8)
    url = reverse("api-version-traffic", kwargs={"pk": version.pk})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = member_client.post(url, {"pattern": "all-reduce"}, format="json")
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "queued"
    assert len(callbacks) == 1
    polled = member_client.get(response["Location"]).json()
    assert polled["status"] == "succeeded"
    assert set(polled["report"]["patterns"]) == {"all-reduce"}


def test_a_version_generated_before_analyses_were_stored_gets_them_on_demand(member_client, version):
    RoceReview.objects.filter(version=version).delete()
    TrafficAnalysis.objects.filter(version=version).delete()

    body = roce(member_client, version)
    assert body["stored"] is False
    assert body["counts"] == {"error": 0, "warning": 2, "ok": 8}  # the Tomahawk 4's buffer is not published
    assert traffic(member_client, version)["analysis"] is None
    response = member_client.post(reverse("api-version-traffic", kwargs={"pk": version.pk}), {}, format="json")
    assert response.status_code == 201
    assert traffic(member_client, version)["analysis"]["id"] == response.json()["id"]
    zipped = member_client.get(reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk}))
    assert zipfile.ZipFile(io.BytesIO(b"".join(zipped.streaming_content))).testzip() is None


def test_a_version_not_generated_yet_answers_409(member_client, version):
    DesignVersion.objects.filter(pk=version.pk).update(status=DesignVersion.Status.QUEUED)
    for name in ("api-version-roce", "api-version-roce-configs-zip", "api-version-traffic"):
        assert member_client.get(reverse(name, kwargs={"pk": version.pk})).status_code == 409


def test_a_version_the_engine_can_no_longer_plan_answers_409_for_configs(member_client, version):
    DesignVersion.objects.filter(pk=version.pk).update(spec={"gpus": 512})
    response = member_client.get(reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk}))
    assert response.status_code == 409
    assert "cannot rebuild" in response.json()["detail"]
    assert roce(member_client, version)["stored"] is True  # the stored review still reads


def test_non_members_get_404_on_every_roce_and_traffic_url(outsider_client, version):
    analysis = TrafficAnalysis.objects.get(version=version)
    device = DeviceRecord.objects.filter(version=version).first()
    urls = [
        reverse("api-version-roce", kwargs={"pk": version.pk}),
        reverse("api-version-roce-configs-zip", kwargs={"pk": version.pk}),
        reverse("api-version-roce-device-config", kwargs={"pk": version.pk, "device_name": device.name}),
        reverse("api-version-traffic", kwargs={"pk": version.pk}),
        reverse("api-version-traffic-detail", kwargs={"pk": version.pk, "analysis_pk": analysis.pk}),
    ]
    for url in urls:
        assert outsider_client.get(url).status_code == 404, url
    assert outsider_client.post(urls[3], {}, format="json").status_code == 404
    assert TrafficAnalysis.objects.filter(version=version).count() == 1


def test_analysis_of_another_version_is_404(member_client, project, seed, version, django_capture_on_commit_callbacks):
    other = generated(member_client, project, seed, django_capture_on_commit_callbacks, name="Fabric B")
    analysis = TrafficAnalysis.objects.get(version=other)
    url = reverse("api-version-traffic-detail", kwargs={"pk": version.pk, "analysis_pk": analysis.pk})
    assert member_client.get(url).status_code == 404


def test_openapi_schema_documents_the_roce_and_traffic_routes(member_client):
    paths = member_client.get(reverse("schema"), {"format": "json"}).json()["paths"]
    assert {"/api/versions/{id}/roce/", "/api/versions/{id}/roce/configs.zip",
            "/api/versions/{id}/roce/configs/{device_name}/", "/api/versions/{id}/traffic/",
            "/api/versions/{id}/traffic/{analysis_pk}/"} <= set(paths)
    assert {"201", "202"} <= set(paths["/api/versions/{id}/traffic/"]["post"]["responses"])


def test_traffic_runs_with_switch_and_nic_latencies_and_computes_the_step_from_the_paths(member_client, version):
    url = reverse("api-version-traffic", kwargs={"pk": version.pk})
    response = member_client.post(url, {"pattern": "all-reduce", "switch_latency_ns": 600, "nic_latency_ns": "1000"},
                                  format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["switch_latency_ns"], body["nic_latency_ns"]) == (600, 1000)
    ring = body["report"]["patterns"]["all-reduce"]["strategies"]["ecmp"]
    assert ring["latency_basis"] == "hops" and ring["latency_steps"] == 2 * (64 - 1)
    assert ring["step_latency_us"] == pytest.approx((2 * 1000 + ring["step_switches"] * 600
                                                     + 5 * ring["step_metres"]) / 1e3)
    row = next(r for r in body["summary_rows"] if r["headline"] and r["strategy"] == "ecmp")
    assert row["total_ms"] == pytest.approx(row["estimated_ms"] + row["latency_ms"])
    brief = member_client.get(url).json()["analyses"][0]
    assert (brief["switch_latency_ns"], brief["nic_latency_ns"]) == (600, 1000)


@pytest.mark.parametrize("data, field", [({"switch_latency_ns": -5}, "switch_latency_ns"),
                                         ({"nic_latency_ns": "fast"}, "nic_latency_ns"),
                                         ({"nic_latency_ns": 10**6}, "nic_latency_ns")])
def test_bad_latencies_answer_400_on_the_field_and_run_nothing(member_client, version, data, field):
    before = TrafficAnalysis.objects.count()
    response = member_client.post(reverse("api-version-traffic", kwargs={"pk": version.pk}), data, format="json")
    assert response.status_code == 400 and set(response.json()) == {field}
    assert TrafficAnalysis.objects.count() == before


def test_collision_share_is_null_in_the_api_where_flows_outnumber_links(member_client, version):
    rows = traffic(member_client, version)["analysis"]["summary_rows"]
    a2a = next(r for r in rows if r["pattern"] == "all-to-all" and r["strategy"] == "ecmp")
    assert a2a["flows_outnumber_links"] and a2a["collision_share"] is None
    assert a2a["worst_over_mean"] >= 1.0 and a2a["p99_util"] > 0


def test_the_generated_analysis_stores_the_queue_pairs_its_report_used(member_client, version):
    """The design's own NCCL_IB_QPS_PER_CONNECTION (4 on RoCE, engine.roce.host) is what the generated analysis runs
    with; the stored row and the API say the same number, not the model field's default."""
    stored = TrafficAnalysis.objects.get(version=version, source=TrafficAnalysis.Source.GENERATION)
    assert stored.qps_per_connection == stored.report["qps_per_connection"] == 4
    assert traffic(member_client, version)["analysis"]["qps_per_connection"] == 4


def test_generation_above_the_size_limit_is_ready_without_traffic_and_it_runs_on_demand(
    member_client, project, seed, monkeypatch, django_capture_on_commit_callbacks
):
    # The limit is 131,072 GPUs (a million-GPU design would take minutes and many GB); lowered here.
    monkeypatch.setattr(analysis_services, "GENERATION_TRAFFIC_MAX_GPUS", 256)
    version = generated(member_client, project, seed, django_capture_on_commit_callbacks)
    stored = TrafficAnalysis.objects.get(version=version)
    assert (stored.status, stored.report) == (TrafficAnalysis.Status.FAILED, {})
    assert stored.error == analysis_services.traffic_deferred_text(256)
    assert "256" in stored.error
    assert RoceReview.objects.filter(version=version).exists()  # the RoCE review still runs
    response = member_client.post(reverse("api-version-traffic", kwargs={"pk": version.pk}),
                                  {"pattern": "all-reduce"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "succeeded"
