"""Review with two people: a project can require that the approver is not the person who submitted the version
(on by default for new projects), and the approval record shows both people."""
from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from apps.projects.services import project_create
from apps.reviews.models import AuditEvent, VersionReview
from apps.reviews.services.review import version_review_act
from tests.projects.factories import CustomerFactory
from tests.reviews.conftest import api_client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_people(project):
    project.review_two_people = True
    project.save(update_fields=["review_two_people"])
    return project


def review_url(version) -> str:
    return reverse("api-version-review", kwargs={"pk": version.pk})


def test_new_projects_review_with_two_people(owner):
    project = project_create(customer=CustomerFactory(), name="New hall", owner=owner)
    assert project.review_two_people is True


def test_the_project_form_creates_a_project_reviewed_by_two_people_unless_unticked(owner):
    client = Client()
    client.force_login(owner)
    data = {"new_customer_name": "ACME", "name": "Hall 9", "description": "", "discount_pct": "0", "currency": "USD"}
    client.post(reverse("projects:project-list"), {**data, "review_two_people": "on"})
    client.post(reverse("projects:project-list"), {**data, "name": "Hall 10"})
    from apps.projects.models import Project

    assert dict(Project.objects.filter(name__startswith="Hall ").values_list("name", "review_two_people")) == {
        "Hall 9": True, "Hall 10": False}


def test_the_submitter_cannot_approve_and_is_not_offered_to(two_people, version, owner):
    version_review_act(version=version, user=owner, action="submit")
    review = api_client_for(owner).get(review_url(version)).json()
    assert review["actions"] == ["reopen"]
    with pytest.raises(ValidationError) as error:
        version_review_act(version=version, user=owner, action="approve")
    assert "another person approves it" in error.value.message_dict["action"][0]
    assert VersionReview.objects.get(version=version).state == "in_review"
    response = api_client_for(owner).post(review_url(version), {"action": "approve"}, format="json")
    assert response.status_code == 400 and "action" in response.json()


def test_another_person_approves_and_the_record_shows_both(two_people, version, owner, member):
    version_review_act(version=version, user=member, action="submit")
    version_review_act(version=version, user=owner, action="approve")
    review = api_client_for(owner).get(review_url(version)).json()
    assert (review["state"], review["submitted_by"], review["changed_by"]) == ("approved", "mark", "olivia")
    approval = AuditEvent.objects.get(version=version, action="approved")
    assert approval.data["submitted_by"] == "mark"
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("designs:version-detail", kwargs={"project_pk": two_people.pk,
                                                                "version_pk": version.pk})).content.decode()
    assert "Submitted by mark, approved by olivia." in page


def test_without_the_setting_one_person_may_submit_and_approve(project, version, owner):
    version_review_act(version=version, user=owner, action="submit")
    assert version_review_act(version=version, user=owner, action="approve").state == "approved"


def test_the_submitter_cannot_reject_their_own_version_but_can_withdraw_it(two_people, version, owner):
    version_review_act(version=version, user=owner, action="submit")

    response = api_client_for(owner).post(review_url(version), {"action": "reject", "note": "Redo the spines"},
                                          format="json")

    assert response.status_code == 400 and "another person rejects it" in str(response.json()["action"])
    assert VersionReview.objects.get(version=version).state == "in_review"
    withdrawn = api_client_for(owner).post(review_url(version), {"action": "reopen"}, format="json")
    assert withdrawn.json()["state"] == "draft"
