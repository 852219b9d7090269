"""A design review in headless Chromium: comment on a version, submit it, approve it as the owner.
Fails on any JavaScript console error (see conftest.page)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from apps.reviews.models import Comment, VersionReview

pytestmark = pytest.mark.django_db(transaction=True)


def test_owner_comments_submits_and_approves_and_the_badge_follows(page, login, engineer, engineer_project,
                                                                    generate_design):
    version = generate_design("Hall A", gpus=64)
    login(engineer)
    page.goto(f"/designs/projects/{engineer_project.pk}/versions/{version.pk}/")
    badge = page.locator(".panel-header #review-state")
    expect(badge).to_have_text("Review: draft")
    panel = page.locator("#panel-review")

    # A device the version does not hold: the error shows under the device picker, nothing is saved.
    panel.locator("#id_body").fill("Can @ann confirm the leaf uplinks?")
    panel.locator("#id_anchor_type").select_option("device")
    expect(panel.locator("#id_anchor_sku")).to_be_hidden()
    panel.locator("#id_anchor_device").fill("p0-leaf-99")
    panel.locator("#comment-submit").click()
    expect(panel.locator('[data-error-for="anchor_device"]')).to_have_text(
        "This version has no device named “p0-leaf-99”. ")
    assert not Comment.objects.exists()

    panel.locator("#id_anchor_device").fill("p0-su00-leaf-r0")
    panel.locator("#comment-submit").click()
    comment = panel.locator(".comment").first
    expect(comment).to_contain_text("Can @ann confirm the leaf uplinks?")
    expect(comment.locator(".anchor.device")).to_have_text("device: p0-su00-leaf-r0")
    expect(comment.locator(".mention")).to_have_text("@ann")

    panel.locator("#review-submit").click()
    expect(badge).to_have_text("Review: in review")
    panel.locator("#id_note").fill("Matches the customer's RFP.")
    panel.locator("#review-approve").click()
    expect(badge).to_have_text("Review: approved")
    expect(panel.locator(".quoted")).to_have_text("This is the design's quoted version.")
    expect(panel.locator("#review-approve")).to_have_count(0)
    expect(panel.locator("#review-history li")).to_have_count(2)
    assert VersionReview.objects.get(version=version).state == "approved"

    page.reload()
    expect(page.locator(".panel-header #review-state")).to_have_text("Review: approved")
    page.goto(engineer_project.get_absolute_url())
    expect(page.locator(f'#approved-versions tr[data-version="{version.pk}"]')).to_contain_text("ann")
