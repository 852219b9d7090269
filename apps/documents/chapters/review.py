"""Review record: the review state, approvals with who and when, the history and the comments.

Comments carry no resolution of their own (apps.reviews): a comment made before the version's last
review decision (approved or rejected) is shown as answered by that decision, a later one as open.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..formatting import when
from ..model import Chapter, Heading, KeyValues, Paragraph, Table
from ..source import DocumentSource
from .cover import review_state_label

KEY = "review"
TITLE = gettext_lazy("Review record")


def _who(user) -> str:
    return user.get_username() if user is not None else _("(deleted user)")


def build(source: DocumentSource) -> Chapter:
    from apps.reviews.models import AnchorType, ReviewAction, ReviewState

    events = source.review_events
    approvals = [e for e in events if e.action == ReviewAction.APPROVE]
    blocks: list = [KeyValues([
        (_("Review state"), review_state_label(source)),
        (_("Second approver required"), _("yes") if source.project.review_two_people else _("no")),
    ])]
    blocks.append(Heading(_("Approvals")))
    if approvals:
        blocks.append(Table(headers=[_("Approved by"), _("When"), _("Result"), _("Note")],
                            rows=[[_who(e.actor), when(e.at), str(ReviewState(e.to_state).label), e.note]
                                  for e in approvals]))
    else:
        blocks.append(Paragraph(_("This version has not been approved.")))
    blocks.append(Heading(_("History")))
    if events:
        blocks.append(Table(headers=[_("When"), _("Who"), _("Action"), _("From"), _("To"), _("Note")],
                            rows=[[when(e.at), _who(e.actor), str(ReviewAction(e.action).label),
                                   str(ReviewState(e.from_state).label), str(ReviewState(e.to_state).label), e.note]
                                  for e in events]))
    else:
        blocks.append(Paragraph(_("No review events: the version is a draft.")))
    blocks.append(Heading(_("Comments")))
    decisions = [e.at for e in events if e.action in (ReviewAction.APPROVE, ReviewAction.REJECT)]
    last_decision = max(decisions) if decisions else None
    comments = source.comments
    if comments:
        open_count = sum(1 for c in comments if last_decision is None or c.created_at > last_decision)
        blocks.append(Paragraph(_("%(open)s open, %(answered)s answered by a review decision.") % {
            "open": open_count, "answered": len(comments) - open_count}))
        anchors = dict(AnchorType.choices)
        rows = []
        for comment in comments:
            about = str(anchors.get(comment.anchor_type, comment.anchor_type))
            if comment.anchor_ref:
                about += f" {comment.anchor_ref}"
            status = (_("open") if last_decision is None or comment.created_at > last_decision
                      else _("answered (%(when)s)") % {"when": when(last_decision)})
            rows.append([when(comment.created_at), _who(comment.author), about, comment.body, status])
        blocks.append(Table(headers=[_("When"), _("Author"), _("About"), _("Comment"), _("Status")], rows=rows,
                            widths=(15, 12, 15, 40, 18)))
    else:
        blocks.append(Paragraph(_("No comments on this version.")))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
