"""The review state machine: who may move a version where, locking, one approved version per design."""
from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from apps.reviews.models import AuditEvent, ReviewEvent, VersionReview
from apps.reviews.services.review import version_review_act
from tests.designs.factories import DesignVersionFactory
from tests.reviews.conftest import api_client_for

pytestmark = pytest.mark.django_db


def review_url(version) -> str:
    return reverse("api-version-review", kwargs={"pk": version.pk})


def act(client, version, action, **extra):
    return client.post(review_url(version), {"action": action, **extra}, format="json")


def test_a_generated_version_starts_as_a_draft(version, member_api):
    review = member_api.get(review_url(version)).json()

    assert (review["state"], review["locked"], review["history"]) == ("draft", False, [])
    assert review["actions"] == ["submit"]


def test_member_submits_and_owner_approves_with_who_and_when_in_the_history(version, member_api, owner_api):
    submitted = act(member_api, version, "submit", note="Ready for the customer call")
    approved = act(owner_api, version, "approve")

    assert submitted.status_code == approved.status_code == 200
    review = approved.json()
    assert (review["state"], review["locked"], review["changed_by"]) == ("approved", True, "olivia")
    assert review["changed_at"]
    assert [(e["action"], e["from_state"], e["to_state"], e["actor"], e["note"]) for e in review["history"]] == [
        ("submit", "draft", "in_review", "mark", "Ready for the customer call"),
        ("approve", "in_review", "approved", "olivia", ""),
    ]
    assert all(e["at"] for e in review["history"])


@pytest.mark.parametrize(("who", "action", "status", "state"), [
    ("owner", "approve", 200, "approved"),
    ("staff_member", "approve", 200, "approved"),
    ("member", "approve", 403, "in_review"),
    ("owner", "reject", 200, "rejected"),
    ("member", "reject", 403, "in_review"),
    ("member", "reopen", 200, "draft"),
    ("outsider", "approve", 404, "in_review"),
    ("outsider", "submit", 404, "in_review"),
])
def test_permission_matrix_for_a_version_in_review(request, version, member, who, action, status, state):
    version_review_act(version=version, user=member, action="submit")
    client = api_client_for(request.getfixturevalue(who))

    response = act(client, version, action, note="Needs another look")

    assert response.status_code == status
    assert VersionReview.objects.get(version=version).state == state


def test_staff_who_is_not_a_member_gets_404(version, member):
    from tests.factories import StaffFactory

    version_review_act(version=version, user=member, action="submit")
    response = act(api_client_for(StaffFactory()), version, "approve")

    assert response.status_code == 404


def test_owner_and_member_are_offered_the_actions_they_may_take(version, member, member_api, owner_api):
    version_review_act(version=version, user=member, action="submit")

    assert member_api.get(review_url(version)).json()["actions"] == ["reopen"]
    assert owner_api.get(review_url(version)).json()["actions"] == ["approve", "reject", "reopen"]


def test_rejecting_needs_a_note_and_a_rejected_version_is_resubmitted(version, member_api, owner_api):
    act(member_api, version, "submit")

    without_note = act(owner_api, version, "reject")
    rejected = act(owner_api, version, "reject", note="Use 4x200G breakouts at the leaf")
    resubmitted = act(member_api, version, "submit")

    assert without_note.status_code == 400
    assert without_note.json() == {"note": ["Say what must change before this version can be approved."]}
    assert rejected.json()["state"] == "rejected"
    assert resubmitted.json()["state"] == "in_review"
    assert [e["action"] for e in resubmitted.json()["history"]] == ["submit", "reject", "submit"]


def test_approve_before_submitting_says_to_submit_first(version, owner_api):
    response = act(owner_api, version, "approve")

    assert response.status_code == 400
    assert response.json() == {"action": ["Fabric A v1 is draft: submit it for review first."]}
    assert not VersionReview.objects.filter(state="approved").exists()


@pytest.mark.parametrize("action", ["submit", "approve", "reject", "reopen"])
def test_an_approved_version_is_locked(version, owner, member, owner_api, action):
    version_review_act(version=version, user=member, action="submit")
    version_review_act(version=version, user=owner, action="approve")

    response = act(owner_api, version, action, note="again")

    assert response.status_code == 400
    assert response.json() == {
        "action": ["Fabric A v1 is approved and locked: create a new version to change the design."]}
    assert VersionReview.objects.get(version=version).state == "approved"
    assert ReviewEvent.objects.filter(version=version).count() == 2


def test_approving_a_second_version_of_a_design_supersedes_the_first_only_when_asked(
    version, version_2, owner, member, owner_api
):
    for v in (version, version_2):
        version_review_act(version=v, user=member, action="submit")
    version_review_act(version=version, user=owner, action="approve")

    refused = act(owner_api, version_2, "approve")
    approved = act(owner_api, version_2, "approve", supersede=True)

    assert refused.status_code == 400
    assert refused.json() == {"supersede": [
        "Fabric A v1 is approved and quoted. "
        "To quote Fabric A v2 instead, approve it with “replace the quoted version”."
    ]}
    assert approved.status_code == 200
    states = dict(VersionReview.objects.values_list("version_id", "state"))
    assert states == {version.pk: "superseded", version_2.pk: "approved"}
    old = owner_api.get(review_url(version)).json()
    assert (old["state"], old["locked"], old["actions"]) == ("superseded", True, [])
    assert old["history"][-1]["action"] == "supersede"
    assert old["history"][-1]["note"] == "Superseded by Fabric A v2."
    assert AuditEvent.objects.filter(action="superseded", version=version).count() == 1


def test_each_design_has_its_own_approved_version(project, version, owner, member, generate):
    other = generate(project, member, name="Fabric B", gpus=128)
    for v in (version, other):
        version_review_act(version=v, user=member, action="submit")
        version_review_act(version=v, user=owner, action="approve")

    assert VersionReview.objects.filter(state="approved").count() == 2


def test_the_database_refuses_two_approved_versions_of_one_design(version, version_2):
    VersionReview.objects.create(version=version, design=version.design, state="approved")

    with pytest.raises(IntegrityError), transaction.atomic():
        VersionReview.objects.create(version=version_2, design=version.design, state="approved")


def test_only_a_generated_version_is_reviewed(project, owner_api):
    queued = DesignVersionFactory(design__project=project)

    response = act(owner_api, queued, "submit")

    assert response.status_code == 400
    assert list(response.json()) == ["version"]
    assert not VersionReview.objects.exists()


def test_unknown_action_is_a_field_error(version, member_api):
    response = act(member_api, version, "publish")

    assert response.status_code == 400
    assert list(response.json()) == ["action"]


def test_every_transition_is_in_the_audit_trail(version, owner, member):
    version_review_act(version=version, user=member, action="submit")
    version_review_act(version=version, user=owner, action="reject", note="Too expensive")
    version_review_act(version=version, user=member, action="reopen")
    version_review_act(version=version, user=member, action="submit")
    version_review_act(version=version, user=owner, action="approve")

    events = AuditEvent.objects.exclude(action="generated").order_by("at", "id")
    assert [(e.action, e.actor_name) for e in events] == [
        ("submitted", "mark"), ("rejected", "olivia"), ("reopened", "mark"), ("submitted", "mark"),
        ("approved", "olivia"),
    ]
    assert events[1].data == {"from": "in_review", "to": "rejected", "note": "Too expensive"}


def test_the_approved_version_of_each_design_is_listed_for_the_project(version, version_2, owner, member, member_api):
    version_review_act(version=version_2, user=member, action="submit")
    version_review_act(version=version_2, user=owner, action="approve")

    response = member_api.get(reverse("api-project-approved-versions",
                                      kwargs={"project_pk": version.design.project_id}))

    assert response.status_code == 200
    [approved] = response.json()
    assert (approved["design_name"], approved["version"], approved["number"], approved["approved_by"]) == (
        "Fabric A", version_2.pk, 2, "olivia")
    assert approved["total_cost"] == str(version_2.total_cost) and approved["approved_at"]
