"""The review state of a design version and its transitions.

States: draft (no VersionReview row yet means draft), in review, approved, rejected, superseded.

    action    from                  to          who
    submit    draft, rejected       in review   any member
    approve   in review             approved    the project owner or staff; with the project's
                                                "review by two people" (the default for new projects),
                                                not the person who submitted it
    reject    in review             rejected    the project owner or staff (a note saying why is required);
                                                with "review by two people", not the person who submitted it
    reopen    in review, rejected   draft       any member (withdraw, or rework after a rejection)

With "review by two people" the submitter's own way out of "in review" is to withdraw (reopen): judging
one's own submission, approving or rejecting, is another person's job.

Rules:
- Only a generated ("ready") version is reviewed: anything else is an error on ``version``.
- An action that does not apply to the current state is an error on ``action`` that says why;
  approving or rejecting as a plain member is PermissionDenied (HTTP 403: a member knows the
  project exists).
- Approved is locked: no further action applies, and its comments no longer change. The
  approved version is the design's quoted version; a design has at most one (the database
  enforces it). Approving another version of a design that already has one is refused unless
  the approver asks to supersede it (``supersede=True``): the old version then becomes
  "superseded" (locked too, with a "supersede" event naming its successor) in the same
  transaction. Supersession is the only way out of "approved".
- Every transition is a ReviewEvent (who, when, from, to, note) and an audit event. Transitions
  of one design are serialised (the design row is locked), so two approvals cannot race.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.designs.models import Design, DesignVersion
from apps.projects.selectors import project_user_can_manage

from ..models import USER_ACTIONS, AuditAction, ReviewAction, ReviewEvent, ReviewState, VersionReview
from .audit import audit_record, user_label, version_label

NOTE_MAX_LENGTH = 2000


@dataclass(frozen=True)
class Transition:
    sources: tuple[str, ...]
    target: str
    managers_only: bool


TRANSITIONS: dict[str, Transition] = {
    ReviewAction.SUBMIT: Transition((ReviewState.DRAFT, ReviewState.REJECTED), ReviewState.IN_REVIEW, False),
    ReviewAction.APPROVE: Transition((ReviewState.IN_REVIEW,), ReviewState.APPROVED, True),
    ReviewAction.REJECT: Transition((ReviewState.IN_REVIEW,), ReviewState.REJECTED, True),
    ReviewAction.REOPEN: Transition((ReviewState.IN_REVIEW, ReviewState.REJECTED), ReviewState.DRAFT, False),
}
AUDIT_ACTIONS = {
    ReviewAction.SUBMIT: AuditAction.SUBMITTED,
    ReviewAction.APPROVE: AuditAction.APPROVED,
    ReviewAction.REJECT: AuditAction.REJECTED,
    ReviewAction.REOPEN: AuditAction.REOPENED,
}


def review_actions_allowed(*, state: str, user: Any, version: DesignVersion,
                           submitted_by_id: int | None = None) -> list[str]:
    """The actions this user may take on a version in `state` (what the UI offers as buttons)."""
    if not version.is_ready:
        return []
    project = version.design.project
    can_manage = project_user_can_manage(user=user, project=project)
    own_submission = project.review_two_people and submitted_by_id is not None and submitted_by_id == user.pk
    return [
        action for action, transition in TRANSITIONS.items()
        if state in transition.sources and (can_manage or not transition.managers_only)
        and not (action in (ReviewAction.APPROVE, ReviewAction.REJECT) and own_submission)
    ]


def _action_clean(action: Any) -> str:
    if action not in USER_ACTIONS:
        raise ValidationError({"action": [
            _("Choose one of: %(actions)s.") % {"actions": ", ".join(str(a) for a in USER_ACTIONS)}
        ]})
    return str(action)


def _note_clean(note: Any, action: str) -> str:
    note = str(note or "").strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise ValidationError({"note": [_("At most %(max)s characters.") % {"max": NOTE_MAX_LENGTH}]})
    if action == ReviewAction.REJECT and not note:
        raise ValidationError({"note": [_("Say what must change before this version can be approved.")]})
    return note


def _not_applicable(action: str, state: str, version: DesignVersion) -> ValidationError:
    label = version_label(version)
    if state in (ReviewState.APPROVED, ReviewState.SUPERSEDED):
        message = _("%(version)s is %(state)s and locked: create a new version to change the design.")
    elif action in (ReviewAction.APPROVE, ReviewAction.REJECT):
        message = _("%(version)s is %(state)s: submit it for review first.")
    elif action == ReviewAction.SUBMIT:
        message = _("%(version)s is already %(state)s.")
    else:
        message = _("%(version)s is %(state)s: there is nothing to reopen.")
    return ValidationError({"action": [message % {"version": label, "state": ReviewState(state).label}]})


def _event(*, version: DesignVersion, action: str, source: str, target: str, user: Any, note: str, at) -> None:
    ReviewEvent.objects.create(
        version=version, action=action, from_state=source, to_state=target, actor=user, note=note, at=at
    )


def version_review_act(
    *, version: DesignVersion, user: Any, action: Any, note: Any = "", supersede: bool = False
) -> VersionReview:
    """Apply a review action to a version (see the module rules); returns the review as it now is."""
    action = _action_clean(action)
    if version.status != DesignVersion.Status.READY:
        raise ValidationError({"version": [
            _("Version %(number)s is %(status)s: only a generated version can be reviewed.")
            % {"number": version.number, "status": version.get_status_display()}
        ]})
    transition = TRANSITIONS[action]
    project = version.design.project
    if transition.managers_only and not project_user_can_manage(user=user, project=project):
        raise PermissionDenied(_("Only the project owner or staff can approve or reject a version."))
    note = _note_clean(note, action)
    with transaction.atomic():
        Design.objects.select_for_update().filter(pk=version.design_id).first()
        review, _created = VersionReview.objects.get_or_create(
            version=version, defaults={"design_id": version.design_id}
        )
        source = review.state
        if source not in transition.sources:
            raise _not_applicable(action, source, version)
        now = timezone.now()
        if action in (ReviewAction.APPROVE, ReviewAction.REJECT) and project.review_two_people \
                and review.submitted_by_id == user.pk:
            message = (_("You submitted %(version)s for review: in this project another person approves it.")
                       if action == ReviewAction.APPROVE else
                       _("You submitted %(version)s for review: in this project another person rejects it; "
                         "withdraw it to rework it yourself."))
            raise ValidationError({"action": [message % {"version": version_label(version)}]})
        if action == ReviewAction.APPROVE:
            _supersede_approved(version=version, user=user, supersede=supersede, at=now)
        review.state = transition.target
        review.changed_by = user
        review.changed_at = now
        if action == ReviewAction.SUBMIT:
            review.submitted_by = user
        review.save(update_fields=["state", "changed_by", "changed_at", "submitted_by"])
        _event(version=version, action=action, source=source, target=transition.target, user=user, note=note, at=now)
        data = {"from": source, "to": transition.target, "note": note}
        if action == ReviewAction.APPROVE:
            data["submitted_by"] = user_label(review.submitted_by) if review.submitted_by_id else ""
        audit_record(
            project=project, actor=user, action=AUDIT_ACTIONS[action], version=version, at=now, data=data,
        )
    return review


def _supersede_approved(*, version: DesignVersion, user: Any, supersede: bool, at) -> None:
    """Before `version` is approved: the design's approved version, if any, becomes superseded (if asked)."""
    current = (
        VersionReview.objects.select_related("version__design")
        .filter(design_id=version.design_id, state=ReviewState.APPROVED)
        .exclude(version=version)
        .first()
    )
    if current is None:
        return
    if not supersede:
        raise ValidationError({"supersede": [
            _("%(current)s is approved and quoted. To quote %(version)s instead, approve it with "
              "“replace the quoted version”.")
            % {"current": version_label(current.version), "version": version_label(version)}
        ]})
    note = _("Superseded by %(version)s.") % {"version": version_label(version)}
    current.state = ReviewState.SUPERSEDED
    current.changed_by = user
    current.changed_at = at
    current.save(update_fields=["state", "changed_by", "changed_at"])
    _event(version=current.version, action=ReviewAction.SUPERSEDE, source=ReviewState.APPROVED,
           target=ReviewState.SUPERSEDED, user=user, note=note, at=at)
    audit_record(
        project=version.design.project, actor=user, action=AuditAction.SUPERSEDED, version=current.version, at=at,
        data={"by_version": version.pk, "by": version_label(version)},
    )
