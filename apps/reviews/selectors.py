"""Reading reviews, comments and the audit trail. Visibility goes through the user's projects.

A comment is visible when its version is (apps.designs.selectors.version_list_for_user); ids of
other projects' comments are Http404. A version without a VersionReview row is a draft.
"""
from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from apps.designs.models import DesignVersion
from apps.designs.selectors import version_list_for_user
from apps.projects.models import Project

from .models import AuditEvent, Comment, ReviewEvent, ReviewState, VersionReview


def review_for_version(*, version: DesignVersion) -> VersionReview | None:
    return VersionReview.objects.select_related("changed_by", "submitted_by").filter(version=version).first()


def review_state_for_version(*, version: DesignVersion) -> str:
    review = review_for_version(version=version)
    return review.state if review is not None else ReviewState.DRAFT


def review_event_list_for_version(*, version: DesignVersion) -> QuerySet[ReviewEvent]:
    return ReviewEvent.objects.filter(version=version).select_related("actor").order_by("at", "id")


def comment_list_for_version(*, version: DesignVersion) -> QuerySet[Comment]:
    return (
        Comment.objects.filter(version=version)
        .select_related("author")
        .prefetch_related(Prefetch("mentions"))
        .order_by("created_at", "id")
    )


def comment_get_for_user(*, user: Any, pk: Any) -> Comment:
    """The comment if the user sees its project; Http404 otherwise."""
    visible = version_list_for_user(user=user).values("pk")
    try:
        return (
            Comment.objects.select_related("author", "version__design__project")
            .filter(version__in=visible)
            .get(pk=pk)
        )
    except (Comment.DoesNotExist, ValueError, TypeError):
        raise Http404(_("No such comment.")) from None


def approved_review_list_for_project(*, project: Project) -> QuerySet[VersionReview]:
    """The approved (quoted) version of each design of the project that has one, by design name."""
    return (
        VersionReview.objects.filter(design__project=project, state=ReviewState.APPROVED)
        .select_related("version__design", "changed_by")
        .order_by("design__name")
    )


def review_states_for_project(*, project: Project) -> dict[int, str]:
    """version id -> review state, for the project's versions that left draft at least once."""
    return dict(VersionReview.objects.filter(design__project=project).values_list("version_id", "state"))


def diff_version_choices(*, project: Project) -> QuerySet[DesignVersion]:
    """The versions a diff can compare: the project's generated versions, by design then newest first."""
    return (
        DesignVersion.objects.filter(design__project=project, status=DesignVersion.Status.READY)
        .select_related("design")
        .only("pk", "number", "gpus", "currency", "total_cost", "generated_at", "design__name")
        .order_by("design__name", "-number")
    )


def audit_event_list_for_project(*, project: Project) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(project=project).select_related("actor", "version").order_by("-at", "-id")


def review_overview(*, version: DesignVersion, user: Any) -> dict[str, Any]:
    """A version's review as the API and the design page show it: state, who and when, what `user` may do, history."""
    from .services.audit import user_label, version_label
    from .services.review import review_actions_allowed

    review = review_for_version(version=version)
    state = review.state if review is not None else ReviewState.DRAFT
    return {
        "version": version.pk,
        "label": version_label(version),
        "state": state,
        "state_label": str(ReviewState(state).label),
        "locked": review is not None and review.is_locked,
        "changed_by": user_label(review.changed_by) if review is not None else "",
        "changed_at": review.changed_at if review is not None else None,
        "submitted_by": user_label(review.submitted_by) if review is not None and review.submitted_by_id else "",
        "two_people": version.design.project.review_two_people,
        "actions": review_actions_allowed(state=state, user=user, version=version,
                                          submitted_by_id=review.submitted_by_id if review is not None else None),
        "history": list(review_event_list_for_version(version=version)),
    }
