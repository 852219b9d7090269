"""The analysis and exports apps took their models over from designs without losing a row.

A database at the schema before the move (designs 0011, with RoceReview, TrafficAnalysis and
ExportFile in the designs app) holding a design with a RoCE review, a traffic analysis and an
export is migrated forward; the rows read back through the new apps' models, their content types
(and so their permissions) moved with them, and migrating back returns them to designs.
"""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from apps.analysis.models import RoceReview, TrafficAnalysis
from apps.exports.models import ExportFile
from tests.catalog.factories import NicModelFactory, ServerModelFactory, SwitchModelFactory
from tests.factories import UserFactory
from tests.projects.factories import ProjectFactory

BEFORE = [("designs", "0011_job_message_tracking")]
MOVED = {"rocereview": "analysis", "trafficanalysis": "analysis", "exportfile": "exports"}


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


@pytest.mark.django_db(transaction=True)
def test_moving_the_models_out_of_designs_keeps_reviews_analyses_and_exports():
    user = UserFactory()
    project = ProjectFactory(members=[user])
    switch = SwitchModelFactory()
    server, nic = ServerModelFactory(), NicModelFactory()
    leaves = _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    leaves = leaves.loader.graph.leaf_nodes()
    # Content types and permissions as the old schema had them.
    for model in MOVED:
        ContentType.objects.filter(model=model).delete()
        ct = ContentType.objects.create(app_label="designs", model=model)
        Permission.objects.create(content_type=ct, codename=f"view_{model}", name=f"Can view {model}")

    executor = _migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Design = old.get_model("designs", "Design")
    DesignVersion = old.get_model("designs", "DesignVersion")
    Job = old.get_model("designs", "Job")
    design = Design.objects.create(project_id=project.pk, name="Hall A", created_by_id=user.pk)
    version = DesignVersion.objects.create(
        design=design, number=1, server_id=server.pk, nic_id=nic.pk, leaf_switch_id=switch.pk, leaf_breakout="1x400G",
        spine_switch_id=switch.pk, spine_breakout="1x400G", core_switch_id=switch.pk, core_breakout="1x400G",
        gpus=256, status="ready", summary={"tiers": 2}, created_by_id=user.pk,
    )
    job = Job.objects.create(project_id=project.pk, version=version, kind="export", status="succeeded",
                             created_by_id=user.pk)
    old.get_model("designs", "RoceReview").objects.create(
        version=version, settings={"pfc_priority": 3}, findings=[{"severity": "warning", "code": "ecn"}], warnings=1,
    )
    old.get_model("designs", "TrafficAnalysis").objects.create(
        version=version, source="generation", status="succeeded", max_flows=20_000, seed=7, message_bytes=1 << 20,
        report={"summary": [1, 2]}, created_by_id=user.pk,
    )
    old.get_model("designs", "ExportFile").objects.create(
        job=job, version=version, kind="xlsx", language="zh-hans", path="exports/a.xlsx", size=1234,
    )

    _migrate(leaves)

    review = RoceReview.objects.get(version_id=version.pk)
    assert (review.settings, review.findings, review.warnings) == ({"pfc_priority": 3},
                                                                   [{"severity": "warning", "code": "ecn"}], 1)
    analysis = TrafficAnalysis.objects.get(version_id=version.pk)
    assert (analysis.source, analysis.status, analysis.seed, analysis.report, analysis.created_by_id) == (
        "generation", "succeeded", 7, {"summary": [1, 2]}, user.pk)
    export = ExportFile.objects.get(job_id=job.pk)
    assert (export.version_id, export.kind, export.language, export.path, export.size) == (
        version.pk, "xlsx", "zh-hans", "exports/a.xlsx", 1234)
    assert export.version.roce_review == review and list(export.version.traffic_analyses.all()) == [analysis]
    for model, app in MOVED.items():
        ct = ContentType.objects.get(model=model, app_label=app)
        assert Permission.objects.filter(content_type=ct, codename=f"view_{model}").exists()
        assert not ContentType.objects.filter(model=model, app_label="designs").exists()

    # And back: the rows stay, the content types return to designs.
    executor = _migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    assert old.get_model("designs", "RoceReview").objects.filter(version_id=version.pk).count() == 1
    assert old.get_model("designs", "ExportFile").objects.get(job_id=job.pk).size == 1234
    assert set(ContentType.objects.filter(model__in=MOVED).values_list("app_label", flat=True)) == {"designs"}
    _migrate(leaves)
    assert TrafficAnalysis.objects.filter(version_id=version.pk).count() == 1
    ContentType.objects.clear_cache()
