"""What the reviews app adds to the design page and the project page (through their panel registries).

Design page (apps.designs.panels), for generated versions:
- "header":  the review state badge (draft, in review, approved, rejected, superseded);
- "nav":     a link to the diff page, comparing this version with the one before it;
- "section": "Review": state with who and when, the actions the user may take, the history,
  the comments with their anchors and the comment form.
Project page (apps.projects.panels): the approved (quoted) version of each design with who
approved it and when, the latest activity and links to the audit trail and the diff page.
Registered from ReviewsConfig.ready().
"""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from apps.designs.models import DesignVersion
from apps.designs.selectors import version_bom_list, version_device_list
from apps.projects.models import Project
from apps.projects.selectors import project_user_can_manage

from .forms import CommentForm, ReviewActionForm
from .models import ReviewState
from .selectors import (
    approved_review_list_for_project,
    audit_event_list_for_project,
    comment_list_for_version,
    review_overview,
)
from .services.audit import audit_jobs_record

RECENT_EVENTS = 8


def version_pods(*, version: DesignVersion) -> list[str]:
    """The version's pods as "plane:pod" (3-tier designs only), read from its switches."""
    if not (version.summary or {}).get("pods"):
        return []
    pairs = (
        version_device_list(version=version)
        .exclude(pod=None).exclude(plane=None)
        .order_by().values_list("plane", "pod").distinct()
    )
    return [f"{plane}:{pod}" for plane, pod in sorted(pairs)]


def version_bom_choices(*, version: DesignVersion) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for sku, description in version_bom_list(version=version).values_list("sku", "description"):
        seen.setdefault(sku, f"{sku} — {description}" if description else sku)
    return list(seen.items())


def comment_form_for(*, version: DesignVersion, data: Any = None) -> CommentForm:
    form = CommentForm(data, pods=version_pods(version=version), bom_lines=version_bom_choices(version=version))
    form.fields["anchor_device"].widget.attrs["list"] = f"device-suggestions-{version.pk}"
    return form


def previous_ready_version(*, version: DesignVersion) -> DesignVersion | None:
    return (
        DesignVersion.objects.filter(design_id=version.design_id, status=DesignVersion.Status.READY,
                                     number__lt=version.number)
        .order_by("-number").only("pk", "number").first()
    )


def review_panel_context(
    request: HttpRequest, version: DesignVersion, *, comment_form: CommentForm | None = None,
    action_form: ReviewActionForm | None = None,
) -> dict[str, Any]:
    user = request.user
    project = version.design.project
    can_manage = project_user_can_manage(user=user, project=project)
    overview = review_overview(version=version, user=user)
    comments = list(comment_list_for_version(version=version))
    for comment in comments:
        own = comment.author_id is not None and comment.author_id == user.pk
        comment.can_edit = own and not overview["locked"]
        comment.can_delete = (own or can_manage) and not overview["locked"]
        comment.mentions_me = any(mentioned.pk == user.pk for mentioned in comment.mentions.all())
    quoted = (
        approved_review_list_for_project(project=project)
        .filter(design_id=version.design_id).exclude(version=version).first()
    )
    return {
        "review": overview,
        "comments": comments,
        "comment_form": comment_form or comment_form_for(version=version),
        "action_form": action_form or ReviewActionForm(),
        "quoted_elsewhere": quoted,
        "previous_version": previous_ready_version(version=version),
        "can_manage": can_manage,
    }


def _badge_context(request: HttpRequest, version: DesignVersion) -> dict[str, Any]:
    overview = review_overview(version=version, user=request.user)
    return {"review": overview}


def _nav_context(request: HttpRequest, version: DesignVersion) -> dict[str, Any]:
    return {"previous_version": previous_ready_version(version=version)}


def project_review_panel_context(request: HttpRequest, project: Project) -> dict[str, Any]:
    audit_jobs_record(project=project)
    approved = list(approved_review_list_for_project(project=project))
    latest = max(approved, key=lambda review: review.changed_at, default=None)
    return {
        "approved_reviews": approved,
        "latest_approval": latest,
        "recent_events": list(audit_event_list_for_project(project=project)[:RECENT_EVENTS]),
        "approved_state": ReviewState.APPROVED,
    }


def review_state_labels(versions: list) -> dict[int, dict[str, str]]:
    """The review state of each listed version that has left draft (one query), for the project page."""
    from .models import ReviewState, VersionReview

    rows = VersionReview.objects.filter(version__in=[v.pk for v in versions]).values_list("version_id", "state")
    return {version_id: {"text": str(ReviewState(state).label), "css": state}
            for version_id, state in rows if state != ReviewState.DRAFT}


def panels_register() -> None:
    from apps.designs.panels import DesignPanel, design_panel_register, version_label_register
    from apps.projects.panels import ProjectPanel, project_panel_register

    version_label_register("review", review_state_labels)
    design_panel_register(DesignPanel(
        key="review-state", template_name="reviews/_state_badge.html", slot="header", get_context=_badge_context,
        order=10,
    ))
    design_panel_register(DesignPanel(
        key="review-diff", template_name="reviews/_diff_nav.html", slot="nav", get_context=_nav_context, order=80,
    ))
    design_panel_register(DesignPanel(
        key="review", title=_("Review"), template_name="reviews/_review_section.html", slot="section",
        get_context=review_panel_context, order=50,
    ))
    project_panel_register(ProjectPanel(
        key="reviews", template_name="reviews/_project_panel.html", get_context=project_review_panel_context,
        order=20,
    ))
