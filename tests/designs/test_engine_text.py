"""What the engine writes reaches Chinese users in Chinese: review points, refusals, alternatives, job stages."""
from __future__ import annotations

import re
import string

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from apps.accounts.services import profile_set_language
from apps.designs.engine_text import MESSAGES, alternative_reason, engine_text, message_text, summary_warnings
from apps.exports.excel import version_workbook_write
from apps.designs.job_text import STAGES, job_stage_label, stage_label
from apps.designs.models import DesignVersion, Job
from apps.designs.services.design import design_create
from apps.designs.services.inputs import spec_error_field_details, spec_error_fields
from apps.engine.messages import TEMPLATES, message
from apps.engine.plan import alternatives, plan
from apps.engine.report import alternative_dict
from apps.engine.spec import FiberCord, InfeasibleSpec
from tests.designs.conftest import inputs
from tests.designs.factories import JobFactory
from tests.engine.builders import spec, switch
from tests.engine.test_messages import seen_codes

CJK = re.compile(r"[\u4e00-\u9fff]")
GROUPED = re.compile(r"(?<=\d),(?=\d{3})")


def english_placeholders(template: str) -> str:
    """The engine's str.format template written as the gettext message ({gpus:,} -> %(gpus)s)."""
    return "".join(literal + (f"%({name})s" if name else "")
                   for literal, name, _, _ in string.Formatter().parse(template))


@pytest.fixture(scope="module")
def seen():
    return seen_codes()


@pytest.fixture(autouse=True)
def default_language_after():
    """A Chinese user's request leaves Chinese active in this thread: later tests expect the default."""
    yield
    translation.deactivate()


# The translation table --------------------------------------------------------------------------


def test_every_engine_sentence_has_a_gettext_message_worded_as_the_engine_writes_it():
    assert set(MESSAGES) == set(TEMPLATES)
    with translation.override("en"):
        for code, template in TEMPLATES.items():
            assert str(MESSAGES[code]) == english_placeholders(template), code


def test_english_pages_read_every_engine_sentence_as_the_engine_wrote_it(seen):
    with translation.override("en"):
        for messages in seen.values():
            for msg in messages:
                # Counts are grouped by thousands even where the engine's English isn't ("3,128 leaves").
                assert GROUPED.sub("", message_text(msg)) == GROUPED.sub("", msg.text)
                assert message_text(msg.to_dict()) == message_text(msg)


def test_chinese_pages_translate_every_engine_sentence(seen):
    with translation.override("zh-hans"):
        for code, messages in seen.items():
            text = message_text(messages[0])
            assert text != messages[0].text and CJK.search(text), (code, text)
            assert "%(" not in text


def test_counts_are_grouped_by_thousands_in_chinese():
    msg = message("topology.two_tiers_limit", spine_ports=64, max_gpus=2048, scale_units=8, su_servers=32,
                  gpus=100_000, leaves=3128)
    with translation.override("zh-hans"):
        text = message_text(msg)
    assert "2,048 个 GPU" in text and "100,000 个 GPU" in text and "3,128 台 Leaf" in text
    assert "64 端口 Spine" in text


def test_a_sentence_this_release_does_not_know_is_shown_as_the_engine_wrote_it():
    with translation.override("zh-hans"):
        assert engine_text("warning.from_a_newer_engine", {"n": 1}, "a newer sentence") == "a newer sentence"
        assert engine_text("warning.partial_pod", {"spines": 3}, "stored English") == "stored English"
        assert summary_warnings({"warnings": ["old English warning"]}) == ["old English warning"]
        assert alternative_reason({"reason": "tiers: old English reason"}) == "tiers: old English reason"


# Forms, estimate and API ------------------------------------------------------------------------


@pytest.fixture
def chinese_client(member) -> Client:
    profile_set_language(user=member, language="zh-hans")
    client = Client()
    client.force_login(member)
    return client


def form_data(seed, **changes) -> dict:
    data = {"server": seed["dgx_h100"].pk, "leaf_switch": seed["sn5600"].pk, "leaf_breakout": "2x400G",
            "gpus": "256", "planes": "1", "oversubscription": "1", "tiers": "auto", "currency": "USD"}
    data.update(changes)
    return data


def test_an_infeasible_estimate_in_chinese_names_the_field_in_chinese(chinese_client, project, seed):
    response = chinese_client.post(reverse("designs:design-estimate", kwargs={"project_pk": project.pk}),
                                   form_data(seed, gpus="100000", tiers="2"))
    body = response.json()
    assert response.status_code == 200 and body["feasible"] is False
    (error,) = body["errors"]["tiers"]
    assert error.startswith("使用 128 端口 Spine 的 2 层组网最多容纳 8,192 个 GPU")
    assert "hold at most" not in body["panel_html"] and error in body["panel_html"]
    reasons = [alt["reason"] for alt in body["alternatives"] if not alt["feasible"]]
    assert reasons and all(CJK.search(reason) and "GPUs" not in reason for reason in reasons)


def test_an_infeasible_design_form_in_chinese_shows_the_engines_reason_in_chinese(chinese_client, project, seed):
    response = chinese_client.post(reverse("designs:design-create", kwargs={"project_pk": project.pk}),
                                   form_data(seed, name="大厅 A", gpus="256", pools_host="10.0.0.0/29"))
    assert response.status_code == 200
    errors = [str(e) for e in response.context["form"].errors["pools_host"]]
    assert errors == ["需要 512 个地址（每个网卡端口一个 /31），但 10.0.0.0/29 只有 8 个；请使用 /23 或更大的地址段"]


def test_an_infeasible_api_request_in_chinese_answers_400_with_the_field_error_in_chinese(
        member_client, project, seed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = member_client.post(
            reverse("api-design-list", kwargs={"project_pk": project.pk}),
            {"name": "Bad", **inputs(seed, tiers="2", gpus=100_000)}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    (error,) = response.json()["tiers"]
    assert error.startswith("使用 128 端口 Spine 的 2 层组网最多容纳 8,192 个 GPU") and "GPUs" not in error
    english = member_client.post(
        reverse("api-design-list", kwargs={"project_pk": project.pk}),
        {"name": "Bad", **inputs(seed, tiers="2", gpus=100_000)}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["tiers"][0].startswith("2 tiers of 128-port spines hold at most 8,192 GPUs")


# The design page and the workbook ----------------------------------------------------------------


@pytest.fixture
def ready_version(project, member, seed, django_capture_on_commit_callbacks):
    """300 GPUs: 38 servers in one 64-server scale unit, so it is partly filled and GPU slots are spare."""
    with django_capture_on_commit_callbacks(execute=True):
        job = design_create(project=project, user=member, name="Hall A", data=inputs(seed, gpus=300))
    version = DesignVersion.objects.get(pk=job.version_id)
    assert version.is_ready and version.summary["warnings"] and version.summary["warning_codes"]
    return version


def version_url(version) -> str:
    return reverse("designs:version-detail", kwargs={"project_pk": version.design.project_id,
                                                     "version_pk": version.pk})


def warnings_section(body: str) -> str:
    return body.split('id="version-warnings"', 1)[1].split("</section>", 1)[0]


def test_the_design_page_in_chinese_shows_the_review_points_in_chinese(chinese_client, ready_version):
    body = chinese_client.get(version_url(ready_version)).content.decode()
    section = warnings_section(body)
    for english in ready_version.summary["warnings"]:
        assert english not in body
    assert "最后一个扩展单元只有 38 台服务器（满配 64 台）；其 Leaf 仍要连接全部 64 条上联" in section
    assert "300 个 GPU 需要 38 台 8 卡服务器：空余 4 个 GPU 槽位" in section


def test_a_version_generated_before_codes_existed_shows_its_stored_english_points(chinese_client, ready_version):
    summary = dict(ready_version.summary)
    summary.pop("warning_codes")
    DesignVersion.objects.filter(pk=ready_version.pk).update(summary=summary)
    section = warnings_section(chinese_client.get(version_url(ready_version)).content.decode())
    assert all(english in section for english in summary["warnings"])


def test_the_alternatives_table_in_chinese_names_structures_and_reasons_in_chinese(chinese_client, ready_version):
    engine_alternatives = [alternative_dict(alt) for alt in alternatives(spec(5_000))]
    infeasible = next(alt for alt in engine_alternatives if not alt["feasible"])
    old = {key: value for key, value in infeasible.items() if not key.startswith("reason_")}
    old.update(label="2 tiers (old)", reason="tiers: stored English reason")
    summary = dict(ready_version.summary, alternatives=engine_alternatives + [old])
    DesignVersion.objects.filter(pk=ready_version.pk).update(summary=summary)
    body = chinese_client.get(version_url(ready_version)).content.decode()
    table = body.split('id="alternatives-table"', 1)[1].split("</table>", 1)[0]
    assert infeasible["reason"].split(": ", 1)[1] not in table
    assert "使用 64 端口 Spine 的 2 层组网最多容纳 2,048 个 GPU" in table
    assert "<td>8 个平面，2 层" in table and "<td>8 planes" not in table
    assert "stored English reason" in table  # a version without reason codes keeps its words


def test_the_workbook_written_in_chinese_lists_the_engine_warnings_in_chinese(ready_version, member, tmp_path):
    path = tmp_path / "fabric.xlsx"
    with translation.override("zh-hans"):
        version_workbook_write(version=ready_version, path_or_stream=str(path), user=member)
        expected = summary_warnings(ready_version.summary)
    cells = [value for row in openpyxl.load_workbook(path).worksheets[0].iter_rows(values_only=True)
             for value in row if isinstance(value, str)]
    assert expected and all(text in cells for text in expected)
    assert not any(english in cells for english in ready_version.summary["warnings"])


# Jobs -------------------------------------------------------------------------------------------


def test_a_job_stage_is_a_key_shown_in_the_readers_language(member_client, ready_version):
    job = Job.objects.get(version=ready_version)
    assert job.stage == "done"
    url = reverse("api-job-detail", kwargs={"pk": job.pk})
    chinese = member_client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    english = member_client.get(url, HTTP_ACCEPT_LANGUAGE="en").json()
    assert (chinese["stage"], english["stage"]) == ("done", "done")
    assert english["stage_label"] == "done"
    with translation.override("zh-hans"):
        assert chinese["stage_label"] == str(STAGES["done"]) and CJK.search(chinese["stage_label"])


def test_every_stage_key_has_words_and_old_rows_stay_readable():
    with translation.override("zh-hans"):
        for key in STAGES:
            assert CJK.search(stage_label(key)), key
        assert stage_label("", "queued") == stage_label("queued")
        assert stage_label("comparing alternatives") == stage_label("alternatives")  # an English row
        assert stage_label("正在保存") == "正在保存"  # words an earlier release stored translated
        assert "Summary" in stage_label("writing_sheet:Summary")


def test_a_job_that_failed_on_an_engine_refusal_explains_it_in_the_readers_language(
        chinese_client, member_client, project):
    with pytest.raises(InfeasibleSpec) as err:
        plan(spec(1_000, leaf=switch(64, twin=True), optics=(), cables=(), fibers=(FiberCord("MMF-1M", "MMF", 1),)))
    with translation.override("en"):
        english_fields = spec_error_fields(err.value)
    job = JobFactory(
        version__design__project=project, version__status=DesignVersion.Status.FAILED, status=Job.Status.FAILED,
        stage="failed", error=str(err.value), error_fields=english_fields,
        error_details=spec_error_field_details(err.value),
    )
    page = chinese_client.get(reverse("designs:job-detail", kwargs={"project_pk": project.pk, "job_pk": job.pk}))
    body = page.content.decode()
    assert "no cable assembly" not in body
    assert "目录中没有任何线缆组件或光模块组合能连接“服务器 OSFP 400G 端口”与“Leaf OSFP 800G 端口笼（2x400G 拆分）”" in body
    api = member_client.get(reverse("api-job-detail", kwargs={"pk": job.pk}), HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert api["stage"] == "failed" and CJK.search(api["stage_label"])
    assert CJK.search(api["error"]) and all(CJK.search(m) for m in api["error_fields"]["non_field_errors"])
    english = member_client.get(reverse("api-job-detail", kwargs={"pk": job.pk}), HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["error_fields"] == english_fields
    with translation.override("zh-hans"):
        assert job_stage_label(job) == str(STAGES["failed"])


# The rack layout on the form ----------------------------------------------------------------------


def test_the_form_sets_where_leaf_and_spine_racks_stand_and_a_new_version_starts_from_it(
        client_for_member, project, seed, django_capture_on_commit_callbacks):
    create = reverse("designs:design-create", kwargs={"project_pk": project.pk})
    form = client_for_member.get(create).context["form"]
    assert [value for value, _ in form.fields["layout_leaf_rack"].choices] == ["", "middle", "end", "server"]
    assert [value for value, _ in form.fields["layout_spine_rows"].choices] == ["", "middle", "end"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for_member.post(create, form_data(seed, name="Hall B", layout_leaf_rack="end",
                                                            layout_spine_rows="end"))
    assert response.status_code == 302
    version = DesignVersion.objects.get(design__project=project, design__name="Hall B")
    assert version.layout == {"leaf_rack": "end", "spine_rows": "end"}
    assert version.spec["layout"]["leaf_rack"] == "end"
    new_version = client_for_member.get(
        reverse("designs:version-create", kwargs={"project_pk": project.pk, "design_pk": version.design_id}))
    initial = new_version.context["form"].initial
    assert (initial["layout_leaf_rack"], initial["layout_spine_rows"]) == ("end", "end")
    assert 'name="layout_leaf_rack"' in new_version.content.decode()


def test_a_rack_position_the_engine_does_not_know_is_refused_on_its_field(client_for_member, project, seed):
    response = client_for_member.post(reverse("designs:design-create", kwargs={"project_pk": project.pk}),
                                      form_data(seed, name="Hall C", layout_leaf_rack="sideways"))
    assert response.status_code == 200 and response.context["form"].errors["layout_leaf_rack"]


def test_the_rack_position_fields_are_labelled_in_chinese(chinese_client, project):
    body = chinese_client.get(reverse("designs:design-create", kwargs={"project_pk": project.pk})).content.decode()
    assert "Leaf 机柜位置" in body and "Spine 与 Core 机柜排" in body and "计算机柜排之间" in body

