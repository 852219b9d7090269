"""Design pages for meetings: "use this alternative" makes a new version with those inputs, and a cheaper
alternative that meets the request is raised among the points of the review."""
from __future__ import annotations

import pytest

from apps.designs.models import DesignVersion, Job
from apps.designs.services.design import version_alternative_use
from tests.designs.conftest import inputs
from tests.designs.test_topology import generate
from tests.designs.test_views import url

pytestmark = pytest.mark.django_db


@pytest.fixture
def version(project, member, seed, django_capture_on_commit_callbacks):
    """1,024 GPUs in one plane: alternatives in 2 tiers, 3 tiers and 2, 4 and 8 planes."""
    return generate(project, member, inputs(seed, gpus=1024), django_capture_on_commit_callbacks, "Hall B")


def usable(version) -> list[dict]:
    return [a for a in version.summary["alternatives"] if a["feasible"] and not a["blocking"] and not a["current"]]


def test_using_an_alternative_makes_a_new_version_with_those_inputs(client_for_member, project, version,
                                                                    django_capture_on_commit_callbacks):
    alt = next(a for a in usable(version) if a["planes"] > 1)
    page = client_for_member.get(url("version-detail", project, version_pk=version.pk)).content.decode()
    assert page.count('class="use-alternative"') == len(usable(version))
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for_member.post(url("version-alternative-use", project, version_pk=version.pk),
                                          {"planes": alt["planes"], "tiers": alt["tiers"]})
    new = DesignVersion.objects.get(design=version.design, number=2)
    job = Job.objects.get(version=new)
    assert response["Location"] == url("job-detail", project, job_pk=job.pk)
    assert new.is_ready and (new.planes, new.tiers) == (alt["planes"], str(alt["tiers"]))
    assert (new.gpus, new.server_id, new.leaf_switch_id, new.leaf_breakout) == (
        version.gpus, version.server_id, version.leaf_switch_id, version.leaf_breakout)
    assert new.summary["planes"] == alt["planes"]
    assert float(new.total_cost) == pytest.approx(alt["total_cost"], rel=1e-6)


@pytest.mark.parametrize("planes, tiers", [("3", "2"), ("1", "7"), ("x", ""), ("", "")])
def test_an_alternative_the_version_does_not_list_changes_nothing(client_for_member, project, version, planes, tiers):
    response = client_for_member.post(url("version-alternative-use", project, version_pk=version.pk),
                                      {"planes": planes, "tiers": tiers}, follow=True)
    assert response.status_code == 200
    assert "has no such alternative to use" in response.content.decode()
    assert DesignVersion.objects.filter(design=version.design).count() == 1


def test_the_own_structure_is_not_an_alternative_to_use(member, version):
    own = next(a for a in version.summary["alternatives"] if a["current"])
    with pytest.raises(Exception) as error:
        version_alternative_use(version=version, user=member, planes=own["planes"], tiers=own["tiers"])
    assert "alternative" in error.value.message_dict


def test_non_member_cannot_use_an_alternative(project, version, client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    response = client.post(url("version-alternative-use", project, version_pk=version.pk), {"planes": 2, "tiers": 2})
    assert response.status_code == 404
    assert DesignVersion.objects.filter(design=version.design).count() == 1


def test_a_cheaper_alternative_is_raised_among_the_review_points(client_for_member, project, version):
    summary = dict(version.summary)
    current = next(a for a in summary["alternatives"] if a["current"])
    cheaper = next(a for a in summary["alternatives"] if a["feasible"] and not a["current"] and not a["blocking"])
    cheaper["total_cost"] = current["total_cost"] - 12_345
    summary["alternatives"] = [dict(a) for a in summary["alternatives"]]
    version.summary = summary
    version.save(update_fields=["summary"])
    body = client_for_member.get(url("version-detail", project, version_pk=version.pk)).content.decode()
    points = body[body.index('id="version-warnings"'):]
    assert "A cheaper structure meets the same request" in points
    assert "12,345 USD less" in points
