"""Review panels on the design and project pages, their forms, the audit trail page."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.reviews.models import Comment, VersionReview
from apps.reviews.services.comments import comment_create
from apps.reviews.services.review import version_review_act

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def design_page(client, version):
    return client.get(reverse("designs:version-detail", kwargs={"project_pk": version.design.project_id,
                                                                "version_pk": version.pk}))


def project_url(version) -> str:
    return reverse("projects:project-detail", kwargs={"project_pk": version.design.project_id})


def review_url(name, version, **extra) -> str:
    return reverse(f"reviews:{name}", kwargs={"project_pk": version.design.project_id, "version_pk": version.pk,
                                              **extra})


def test_design_page_shows_the_review_badge_panel_and_the_member_actions(version, member):
    comment_create(version=version, author=member, body="Ask @olivia about optics", anchor_type="bom_line",
                   anchor_ref="MMA4Z00-NS-FLT")

    html = design_page(client_for(member), version).content.decode()

    assert 'id="review-state"' in html and "Review: draft" in html
    assert 'id="panel-review"' in html and 'id="comment-form"' in html
    assert 'id="review-submit"' in html and 'id="review-approve"' not in html
    assert '<span class="mention" data-user="olivia">@olivia</span>' in html
    assert 'data-bom-sku="MMA4Z00-NS-FLT"' in html
    assert 'id="tab-diff"' in html


def test_owner_is_offered_approve_and_reject_for_a_version_in_review(version, owner, member):
    version_review_act(version=version, user=member, action="submit")

    html = design_page(client_for(owner), version).content.decode()

    assert "Review: in review" in html
    assert 'id="review-approve"' in html and 'id="review-reject"' in html


def test_posting_a_comment_returns_to_the_design_page_with_it(version, member):
    client = client_for(member)

    response = client.post(review_url("comment-create", version), {
        "body": "Check the leaf uplinks", "anchor_type": "device", "anchor_device": "p0-su00-leaf-r0"}, follow=True)

    assert response.status_code == 200
    assert response.redirect_chain[-1][0].endswith("#panel-review")
    assert "Check the leaf uplinks" in response.content.decode()
    assert Comment.objects.get().anchor_ref == "p0-su00-leaf-r0"


def test_a_comment_on_an_unknown_device_is_shown_again_with_the_error_in_place(version, member):
    response = client_for(member).post(review_url("comment-create", version), {
        "body": "Which one?", "anchor_type": "device", "anchor_device": "leaf-99"})

    assert response.status_code == 200
    form = response.context["comment_form"]
    assert form.errors == {"anchor_device": ["This version has no device named “leaf-99”."]}
    html = response.content.decode()
    assert 'data-error-for="anchor_device">This version has no device named “leaf-99”.' in html
    assert "Which one?" in html
    assert not Comment.objects.exists()


def test_the_panel_script_gets_the_panel_and_badge_back_as_json(version, member):
    client = client_for(member)

    bad = client.post(review_url("comment-create", version), {"body": "@ghost hi", "anchor_type": "none"},
                      HTTP_X_REQUESTED_WITH="fetch")
    good = client.post(review_url("review-action", version), {"action": "submit", "note": ""},
                       HTTP_X_REQUESTED_WITH="fetch")

    assert bad.status_code == good.status_code == 200
    assert bad.json()["ok"] is False and "There is no user @ghost." in bad.json()["panel"]
    assert good.json()["ok"] is True
    assert "Review: in review" in good.json()["badge"]
    assert VersionReview.objects.get(version=version).state == "in_review"


def test_owner_approves_from_the_panel_and_the_badge_changes(version, owner, member):
    version_review_act(version=version, user=member, action="submit")
    client = client_for(owner)

    response = client.post(review_url("review-action", version), {"action": "approve"}, follow=True)

    html = response.content.decode()
    assert "Review: approved" in html
    assert "This is the design&#x27;s quoted version." in html or "This is the design's quoted version." in html
    assert 'id="review-approve"' not in html


def test_a_member_who_posts_an_approval_gets_403(version, member):
    version_review_act(version=version, user=member, action="submit")

    response = client_for(member).post(review_url("review-action", version), {"action": "approve"})

    assert response.status_code == 403
    assert VersionReview.objects.get(version=version).state == "in_review"


def test_reject_without_a_note_is_shown_again_with_the_error(version, owner, member):
    version_review_act(version=version, user=member, action="submit")

    response = client_for(owner).post(review_url("review-action", version), {"action": "reject"})

    assert response.status_code == 200
    assert response.context["action_form"].errors == {
        "note": ["Say what must change before this version can be approved."]}


def test_author_edits_and_deletes_a_comment_from_the_pages(version, member):
    comment = comment_create(version=version, author=member, body="Draft text")
    client = client_for(member)

    edit_page = client.get(review_url("comment-edit", version, comment_pk=comment.pk))
    empty = client.post(review_url("comment-edit", version, comment_pk=comment.pk), {"body": ""})
    saved = client.post(review_url("comment-edit", version, comment_pk=comment.pk), {"body": "Final text"})

    assert edit_page.status_code == empty.status_code == 200
    assert "body" in empty.context["form"].errors
    assert saved.status_code == 302
    assert Comment.objects.get().body == "Final text"
    client.post(review_url("comment-delete", version, comment_pk=comment.pk))
    assert not Comment.objects.exists()


def test_project_page_shows_the_approved_version_of_each_design_with_who_and_when(version, version_2, owner, member):
    version_review_act(version=version_2, user=member, action="submit")
    version_review_act(version=version_2, user=owner, action="approve")

    response = client_for(member).get(project_url(version))

    html = response.content.decode()
    assert 'id="approved-versions"' in html
    assert f'data-version="{version_2.pk}"' in html and f'data-version="{version.pk}"' not in html.split(
        'id="approved-versions"')[1].split("</table>")[0]
    reviews = response.context["project_panels"]
    assert any("olivia" in panel and "v2" in panel for panel in reviews)
    assert 'id="recent-activity"' in html


def test_project_page_says_when_nothing_is_approved(version, member):
    response = client_for(member).get(project_url(version))

    assert 'id="no-approved-versions"' in response.content.decode()


def test_audit_page_lists_and_filters_events(version, owner, member, project):
    comment_create(version=version, author=member, body="Hello")
    client = client_for(owner)
    url = reverse("reviews:audit", kwargs={"project_pk": project.pk})

    everything = client.get(url)
    comments = client.get(url + "?action=commented")
    bad = client.get(url + "?since=last+week")

    assert everything.status_code == comments.status_code == bad.status_code == 200
    assert [e.action for e in everything.context["events"]] == ["commented", "generated"]
    row = everything.content.decode().split('data-action="generated"')[1].split("</tr>")[0]
    assert "total cost" in row and "USD" in row and "GPUs</span> 64" in row
    assert [e.action for e in comments.context["events"]] == ["commented"]
    assert "since" in bad.context["filter_form"].errors
    assert 'id="audit-empty"' in bad.content.decode()


def test_review_page_of_a_version_shows_the_panel(version, member):
    response = client_for(member).get(review_url("version-review", version))

    assert response.status_code == 200
    assert 'id="comment-form"' in response.content.decode()
