"""Comments on a design version: anchors checked against the version's rows, mentions of members only."""
from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from apps.designs.models import BomLineRecord, DeviceRecord
from apps.reviews.models import AuditEvent, Comment
from apps.reviews.services.comments import comment_create, mention_names
from apps.reviews.services.review import version_review_act
from tests.designs.factories import DesignVersionFactory
from tests.reviews.conftest import api_client_for

pytestmark = pytest.mark.django_db


def comments_url(version) -> str:
    return reverse("api-version-comment-list", kwargs={"pk": version.pk})


def comment_url(comment) -> str:
    return reverse("api-version-comment-detail", kwargs={"pk": comment.version_id, "comment_pk": comment.pk})


def approve(version, owner, member) -> None:
    version_review_act(version=version, user=member, action="submit")
    version_review_act(version=version, user=owner, action="approve")


def test_member_comments_and_every_member_reads_it(version, member_api, owner_api):
    response = member_api.post(comments_url(version), {"body": "Can we use AOC between rows?"}, format="json")

    assert response.status_code == 201, response.json()
    assert response.json()["author"] == "mark"
    listed = owner_api.get(comments_url(version)).json()["results"]
    assert [(c["author"], c["body"], c["anchor_type"], c["anchor_ref"]) for c in listed] == [
        ("mark", "Can we use AOC between rows?", "none", "")
    ]


def test_comment_is_anchored_to_a_device_or_a_bom_line_of_the_version(version, member_api):
    spine = DeviceRecord.objects.filter(version=version, role="spine").order_by("index").first()
    # The DGX H100 server-end module (its base line, not its spare line).
    optic_line = BomLineRecord.objects.get(version=version, sku="MMA4Z00-NS-FLT", spare=False)

    on_device = member_api.post(comments_url(version), {
        "body": "Dual-homed?", "anchor_type": "device", "anchor_ref": spine.name}, format="json")
    on_line = member_api.post(comments_url(version), {
        "body": "Customer has these in stock.", "anchor_type": "bom_line", "anchor_ref": optic_line.sku}, format="json")

    assert on_device.status_code == on_line.status_code == 201
    assert (on_device.json()["anchor_type"], on_device.json()["anchor_ref"]) == ("device", spine.name)
    assert (on_line.json()["anchor_type"], on_line.json()["anchor_ref"]) == ("bom_line", optic_line.sku)


def test_comment_is_anchored_to_a_pod_of_a_three_tier_version(project, member, generate):
    three_tier = generate(project, member, name="Three tiers", gpus=512, tiers="3")

    comment = comment_create(version=three_tier, author=member, body="Pod 0 row", anchor_type="pod",
                             anchor_ref=" 0 : 0 ")

    assert (comment.anchor_type, comment.anchor_ref) == ("pod", "0:0")
    with pytest.raises(ValidationError) as missing:
        comment_create(version=three_tier, author=member, body="x", anchor_type="pod", anchor_ref="0:7")
    assert missing.value.message_dict == {"anchor_ref": ["This version has no pod 7 in plane 0."]}


@pytest.mark.parametrize(("anchor_type", "anchor_ref", "message"), [
    ("device", "p9-spine-999", "This version has no device named “p9-spine-999”."),
    ("device", "", "Say which device the comment is about."),
    ("bom_line", "NOT-A-SKU", "This version's bill of materials has no line with SKU “NOT-A-SKU”."),
    ("pod", "0:0", "This version has no pods (only 3-tier designs are built of pods)."),
    ("pod", "pod one", "Give a pod as plane:pod, for example 0:1."),
    ("none", "p0-spine-000", "Choose what the comment is about (device, pod or BOM line)."),
])
def test_anchor_that_the_version_does_not_hold_is_a_field_error_and_nothing_is_saved(
    version, member_api, anchor_type, anchor_ref, message
):
    response = member_api.post(comments_url(version), {
        "body": "About this", "anchor_type": anchor_type, "anchor_ref": anchor_ref}, format="json")

    assert response.status_code == 400
    assert response.json() == {"anchor_ref": [message]}
    assert not Comment.objects.exists()


def test_unknown_anchor_type_and_empty_body_are_field_errors(version, member_api):
    response = member_api.post(comments_url(version), {"body": "  ", "anchor_type": "rack"}, format="json")

    assert response.status_code == 400
    assert set(response.json()) == {"anchor_type"}
    response = member_api.post(comments_url(version), {"body": "   "}, format="json")
    assert response.json() == {"body": ["Write a comment."]}
    assert not Comment.objects.exists()


def test_mentions_of_project_members_are_recorded(version, member_api):
    response = member_api.post(comments_url(version), {
        "body": "@olivia please approve; @stella FYI. Mail me at mark@example.com"}, format="json")

    assert response.status_code == 201
    assert response.json()["mentions"] == ["olivia", "stella"]


def test_mention_of_a_non_member_or_an_unknown_user_is_an_error_on_body(version, member_api, outsider):
    response = member_api.post(comments_url(version), {"body": "@oscar and @nobody, have a look"}, format="json")

    assert response.status_code == 400
    assert response.json() == {"body": ["@oscar is not a member of this project.", "There is no user @nobody."]}
    assert not Comment.objects.exists()


def test_mention_names_ignore_email_addresses_and_trailing_punctuation():
    assert mention_names("ping @ann. and @bob-smith, not x@corp.com; @ann again") == ["ann", "bob-smith"]


def test_author_edits_their_comment_and_nobody_else_can(version, member, member_api, owner_api):
    comment = comment_create(version=version, author=member, body="First thought")

    edited = member_api.patch(comment_url(comment), {"body": "Second thought, @olivia"}, format="json")
    by_owner = owner_api.patch(comment_url(comment), {"body": "Hijacked"}, format="json")

    assert edited.status_code == 200
    assert edited.json()["body"] == "Second thought, @olivia"
    assert edited.json()["mentions"] == ["olivia"]
    assert edited.json()["edited_at"] is not None
    assert by_owner.status_code == 403
    assert Comment.objects.get().body == "Second thought, @olivia"


def test_author_or_owner_deletes_a_comment_another_member_cannot(version, member, owner_api, staff_member):
    comment = comment_create(version=version, author=member, body="Remove me")
    other = comment_create(version=version, author=staff_member, body="Keep me")

    assert api_client_for(member).delete(comment_url(other)).status_code == 403
    assert owner_api.delete(comment_url(comment)).status_code == 204
    assert list(Comment.objects.values_list("body", flat=True)) == ["Keep me"]


def test_comments_of_an_approved_version_stay_as_they_are_but_new_ones_can_be_added(
    version, owner, member, member_api
):
    comment = comment_create(version=version, author=member, body="Looks fine")
    approve(version, owner, member)

    edit = member_api.patch(comment_url(comment), {"body": "Changed my mind"}, format="json")
    delete = member_api.delete(comment_url(comment))
    added = member_api.post(comments_url(version), {"body": "PO received"}, format="json")

    assert edit.status_code == delete.status_code == 400
    assert edit.json() == {"non_field_errors": [
        "Fabric A v1 is approved: its comments are part of the record and can no longer be changed."]}
    assert added.status_code == 201
    assert list(Comment.objects.order_by("pk").values_list("body", flat=True)) == ["Looks fine", "PO received"]


def test_a_version_not_generated_cannot_be_commented_on(project, member_api):
    queued = DesignVersionFactory(design__project=project)

    response = member_api.post(comments_url(queued), {"body": "Too early"}, format="json")

    assert response.status_code == 400
    assert response.json() == {"version": ["Version %s is queued: only a generated version can be reviewed."
                                           % queued.number]}


def test_comment_of_another_version_is_404_under_this_one(version, version_2, member, member_api):
    comment = comment_create(version=version, author=member, body="On v1")
    url = reverse("api-version-comment-detail", kwargs={"pk": version_2.pk, "comment_pk": comment.pk})

    assert member_api.get(url).status_code == 404


def test_non_member_gets_404_on_comments(version, member, outsider_api):
    comment = comment_create(version=version, author=member, body="Private")

    assert outsider_api.get(comments_url(version)).status_code == 404
    assert outsider_api.post(comments_url(version), {"body": "hi"}, format="json").status_code == 404
    assert outsider_api.delete(comment_url(comment)).status_code == 404
    assert Comment.objects.count() == 1


def test_every_comment_change_is_in_the_audit_trail(version, member, member_api):
    response = member_api.post(comments_url(version), {"body": "Ping @olivia"}, format="json")
    comment = Comment.objects.get(pk=response.json()["id"])
    member_api.patch(comment_url(comment), {"body": "Ping @olivia again"}, format="json")
    member_api.delete(comment_url(comment))

    events = AuditEvent.objects.filter(action__startswith="comment").order_by("at", "id")
    assert [(e.action, e.actor_name, e.target) for e in events] == [
        ("commented", "mark", "Fabric A v1"), ("comment_edited", "mark", "Fabric A v1"),
        ("comment_deleted", "mark", "Fabric A v1"),
    ]
    assert events[0].data["mentions"] == ["olivia"]
