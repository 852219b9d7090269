"""The cover: customer, project, design, version, review state and the date the document was made."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..formatting import count, day, when
from ..model import Chapter, KeyValues, Paragraph
from ..source import DocumentSource

KEY = "cover"
TITLE = gettext_lazy("Network design document")


def review_state_label(source: DocumentSource) -> str:
    from apps.reviews.models import ReviewState

    review = source.review
    state = review.state if review is not None else ReviewState.DRAFT
    label = str(ReviewState(state).label) if state in ReviewState.values else str(state)
    if review is not None and review.changed_at:
        return _("%(state)s (%(when)s)") % {"state": label, "when": when(review.changed_at)}
    return label


def build(source: DocumentSource) -> Chapter:
    version = source.version
    rows = [
        (_("Customer"), source.customer.name),
        (_("Project"), source.project.name),
        (_("Design"), source.design.name),
        (_("Version"), str(version.number)),
        (_("Review state"), review_state_label(source)),
        (_("GPUs"), count(version.gpus)),
        (_("Fabric"), _("InfiniBand") if version.is_infiniband else _("Ethernet (RoCEv2)")),
        (_("Date"), day(source.made_at)),
    ]
    return Chapter(key=KEY, title=str(TITLE), cover=True, blocks=[
        KeyValues(rows),
        Paragraph(_("From the high-level design to the low-level design: architecture, alternatives, bill of "
                    "materials, cabling, addressing, lossless transport, performance and the review record. "
                    "Prices in the seed catalog are examples, not quotes."), style="note"),
    ])
