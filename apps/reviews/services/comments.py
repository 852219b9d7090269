"""Comments on a design version, optionally anchored to a device, a pod or a BOM line.

Rules:
- Only members comment (callers reach the version through the user's projects), and only on a
  generated ("ready") version: a comment is about the design the engine built.
- An anchor names something the version holds: a device by its exact name, a pod as
  "plane:pod" (0-based, as the engine numbers them; only 3-tier designs have pods), a BOM line
  by its SKU. Anything else is an error on ``anchor_ref``; the whole version needs no ref.
- ``@username`` in the body mentions a user, who must be a member of the project (owner
  included); an unknown or non-member name is an error on ``body``. An @ inside a word (an
  e-mail address) is not a mention.
- Comments may be added to an approved version (the discussion goes on), but once a version is
  approved or superseded its existing comments are part of the record: nobody edits or deletes
  them. Otherwise the author edits their comment; the author, the project owner or staff delete it.
- Every create, edit and delete is in the project's audit trail.
"""
from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.designs.models import BomLineRecord, DesignVersion
from apps.designs.selectors import version_device_list
from apps.projects.models import Project, ProjectMembership
from apps.projects.selectors import project_user_can_manage

from ..models import LOCKED_STATES, AnchorType, AuditAction, Comment, VersionReview
from .audit import audit_record, version_label

BODY_MAX_LENGTH = 4000
ANCHOR_MAX_LENGTH = Comment._meta.get_field("anchor_ref").max_length
# "@name" not preceded by a word character or another @ (so e-mail addresses are not mentions);
# a trailing dot or hyphen is punctuation, not part of the name.
MENTION_RE = re.compile(r"(?<![\w@])@([\w.+-]*[\w+])")
POD_RE = re.compile(r"^\s*(\d{1,4})\s*:\s*(\d{1,6})\s*$")


def mention_names(body: str) -> list[str]:
    """The usernames mentioned in `body`, in order, without repeats."""
    names: list[str] = []
    for name in MENTION_RE.findall(body or ""):
        if name not in names:
            names.append(name)
    return names


def project_member_users(*, project: Project) -> dict[str, Any]:
    """lower-cased username -> user, for every member of the project (the owner included)."""
    User = get_user_model()
    member_ids = ProjectMembership.objects.filter(project=project).values("user_id")
    users = User.objects.filter(pk__in=member_ids) | User.objects.filter(pk=project.owner_id)
    return {user.get_username().lower(): user for user in users.distinct()}


def _mentions_clean(*, project: Project, body: str) -> list[Any]:
    members = project_member_users(project=project)
    users, errors = [], []
    User = get_user_model()
    for name in mention_names(body):
        user = members.get(name.lower())
        if user is not None:
            users.append(user)
        elif User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": name}).exists():
            errors.append(_("@%(name)s is not a member of this project.") % {"name": name})
        else:
            errors.append(_("There is no user @%(name)s.") % {"name": name})
    if errors:
        raise ValidationError({"body": errors})
    return users


def _body_clean(body: Any) -> str:
    body = str(body or "").strip()
    if not body:
        raise ValidationError({"body": [_("Write a comment.")]})
    if len(body) > BODY_MAX_LENGTH:
        raise ValidationError({"body": [_("At most %(max)s characters.") % {"max": BODY_MAX_LENGTH}]})
    return body


def anchor_clean(*, version: DesignVersion, anchor_type: Any, anchor_ref: Any) -> tuple[str, str]:
    """(anchor_type, anchor_ref) checked against the version's rows; ValidationError on the field at fault."""
    anchor_type = str(anchor_type or AnchorType.NONE)
    if anchor_type not in AnchorType.values:
        raise ValidationError({"anchor_type": [
            _("Choose one of: %(choices)s.") % {"choices": ", ".join(AnchorType.values)}
        ]})
    ref = str(anchor_ref or "").strip()
    if anchor_type == AnchorType.NONE:
        if ref:
            raise ValidationError({"anchor_ref": [_("Choose what the comment is about (device, pod or BOM line).")]})
        return anchor_type, ""
    if not ref:
        raise ValidationError({"anchor_ref": [_("Say which %(anchor)s the comment is about.")
                                              % {"anchor": AnchorType(anchor_type).label}]})
    if len(ref) > ANCHOR_MAX_LENGTH:
        raise ValidationError({"anchor_ref": [_("At most %(max)s characters.") % {"max": ANCHOR_MAX_LENGTH}]})
    if anchor_type == AnchorType.DEVICE:
        if not version_device_list(version=version).filter(name=ref).exists():
            raise ValidationError({"anchor_ref": [
                _("This version has no device named “%(name)s”.") % {"name": ref}
            ]})
    elif anchor_type == AnchorType.POD:
        ref = _pod_clean(version=version, ref=ref)
    elif not BomLineRecord.objects.filter(version=version, sku=ref).exists():
        raise ValidationError({"anchor_ref": [
            _("This version's bill of materials has no line with SKU “%(sku)s”.") % {"sku": ref}
        ]})
    return anchor_type, ref


def _pod_clean(*, version: DesignVersion, ref: str) -> str:
    match = POD_RE.match(ref)
    if match is None:
        raise ValidationError({"anchor_ref": [_("Give a pod as plane:pod, for example 0:1.")]})
    plane, pod = int(match.group(1)), int(match.group(2))
    if not (version.summary or {}).get("pods"):
        raise ValidationError({"anchor_ref": [_("This version has no pods (only 3-tier designs are built of pods).")]})
    if not version_device_list(version=version).filter(plane=plane, pod=pod).exists():
        raise ValidationError({"anchor_ref": [
            _("This version has no pod %(pod)s in plane %(plane)s.") % {"pod": pod, "plane": plane}
        ]})
    return f"{plane}:{pod}"


def _version_check(version: DesignVersion) -> None:
    if version.status != DesignVersion.Status.READY:
        raise ValidationError({"version": [
            _("Version %(number)s is %(status)s: only a generated version can be reviewed.")
            % {"number": version.number, "status": version.get_status_display()}
        ]})


def version_is_locked(*, version: DesignVersion) -> bool:
    return VersionReview.objects.filter(version=version, state__in=LOCKED_STATES).exists()


def _anchor_data(comment: Comment) -> dict[str, str]:
    return {"anchor_type": comment.anchor_type, "anchor_ref": comment.anchor_ref}


def comment_create(
    *, version: DesignVersion, author: Any, body: Any, anchor_type: Any = AnchorType.NONE, anchor_ref: Any = ""
) -> Comment:
    """A new comment by a member on a generated version; ValidationError (field -> messages) on bad input."""
    _version_check(version)
    project = version.design.project
    errors: dict[str, list[str]] = {}
    clean: dict[str, Any] = {}
    for name, check in (
        ("body", lambda: _body_clean(body)),
        ("anchor", lambda: anchor_clean(version=version, anchor_type=anchor_type, anchor_ref=anchor_ref)),
    ):
        try:
            clean[name] = check()
        except ValidationError as exc:
            errors.update(exc.message_dict)
    if "body" in clean:
        try:
            clean["mentions"] = _mentions_clean(project=project, body=clean["body"])
        except ValidationError as exc:
            errors.update(exc.message_dict)
    if errors:
        raise ValidationError(errors)
    anchor_type, anchor_ref = clean["anchor"]
    with transaction.atomic():
        comment = Comment.objects.create(
            version=version, author=author, body=clean["body"], anchor_type=anchor_type, anchor_ref=anchor_ref
        )
        comment.mentions.set(clean["mentions"])
        audit_record(
            project=project, actor=author, action=AuditAction.COMMENTED, version=version,
            data={"comment": comment.pk, **_anchor_data(comment),
                  "mentions": [user.get_username() for user in clean["mentions"]]},
        )
    return comment


def _locked_check(comment: Comment) -> None:
    if version_is_locked(version=comment.version):
        raise ValidationError(
            _("%(version)s is approved: its comments are part of the record and can no longer be changed.")
            % {"version": version_label(comment.version)}
        )


def comment_update(*, comment: Comment, user: Any, data: dict[str, Any]) -> Comment:
    """Edit a comment (its author only): body and/or anchor, as in comment_create."""
    if comment.author_id is None or comment.author_id != getattr(user, "pk", None):
        raise PermissionDenied(_("Only the author can edit a comment."))
    _locked_check(comment)
    version = comment.version
    body = data.get("body", comment.body)
    anchor_type = data.get("anchor_type", comment.anchor_type)
    anchor_ref = data.get("anchor_ref", comment.anchor_ref if "anchor_type" not in data else "")
    errors: dict[str, list[str]] = {}
    mentions: list[Any] = []
    anchor = (comment.anchor_type, comment.anchor_ref)
    try:
        body = _body_clean(body)
        mentions = _mentions_clean(project=version.design.project, body=body)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    try:
        anchor = anchor_clean(version=version, anchor_type=anchor_type, anchor_ref=anchor_ref)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        comment.body = body
        comment.anchor_type, comment.anchor_ref = anchor
        comment.edited_at = timezone.now()
        comment.save(update_fields=["body", "anchor_type", "anchor_ref", "edited_at"])
        comment.mentions.set(mentions)
        audit_record(
            project=version.design.project, actor=user, action=AuditAction.COMMENT_EDITED, version=version,
            data={"comment": comment.pk, **_anchor_data(comment)},
        )
    return comment


def comment_delete(*, comment: Comment, user: Any) -> None:
    """Delete a comment: its author, the project owner or staff."""
    version = comment.version
    project = version.design.project
    is_author = comment.author_id is not None and comment.author_id == getattr(user, "pk", None)
    if not is_author and not project_user_can_manage(user=user, project=project):
        raise PermissionDenied(_("Only the author, the project owner or staff can delete a comment."))
    _locked_check(comment)
    with transaction.atomic():
        audit_record(
            project=project, actor=user, action=AuditAction.COMMENT_DELETED, version=version,
            data={"comment": comment.pk, "author": comment.author.get_username() if comment.author else "",
                  "excerpt": comment.body[:120]},
        )
        comment.delete()
