"""The lossless design: RoCE settings with their rationale, PFC headroom and the checklist results;
on InfiniBand, the equivalent (credit-based flow control, the subnet manager).

The settings, headroom and findings are the version's stored RoCE review (apps.analysis), worded as
the design page words them.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.analysis.panels import checklist_rows, headroom_rows, settings_rows
from apps.designs.fabric_text import roce_not_applicable

from ..formatting import count
from ..model import Bullets, Chapter, Heading, Paragraph, Table
from ..source import DocumentSource

KEY = "lossless"
TITLE = gettext_lazy("RoCE lossless design")
TITLE_INFINIBAND = gettext_lazy("InfiniBand lossless design")


def rationale() -> list[str]:
    return [
        _("PFC pauses one priority only, the RoCE traffic's, so a congested port stops RoCE without dropping it "
          "while other traffic stays lossy."),
        _("Switches trust DSCP and map the RoCE DSCP to the lossless priority; congestion notifications (CNP) "
          "travel on a priority of their own so they are never stuck behind the traffic they slow down."),
        _("ECN marks packets between Kmin and Kmax of the queue; the NICs' DCQCN lowers the sender's rate on a "
          "CNP before the queue reaches the PFC threshold, so pauses stay rare."),
        _("The headroom of each lossless queue holds what is still in flight when a pause is sent: line rate × "
          "(2 × cable × 5 ns/m + 2 × PHY delay + PFC response) + two MTUs + the PFC frame, for the longest cable "
          "of the link class, in whole buffer cells."),
        _("The PFC watchdog stops a queue that stays paused (a pause storm) from spreading through the fabric."),
    ]


def _infiniband() -> Chapter:
    return Chapter(key=KEY, title=str(TITLE_INFINIBAND), blocks=[
        Paragraph(roce_not_applicable()),
        Bullets([
            _("Flow control: credit-based, per virtual lane and link; a sender transmits only what the receiver has "
              "buffer credits for, so the fabric does not drop packets under congestion."),
            _("Routing: the subnet manager (OpenSM or UFM) assigns LIDs and computes the forwarding tables with its "
              "fat-tree routing engine."),
            _("What to check at installation: one active subnet manager with a standby, the fat-tree routing "
              "engine, and the links up at their planned speed (the as-built check compares ibnetdiscover with "
              "the plan)."),
        ]),
    ])


def build(source: DocumentSource) -> Chapter:
    if source.version.is_infiniband:
        return _infiniband()
    review = source.roce_review
    blocks: list = []
    if review.error:
        blocks.append(Paragraph(_("The RoCE review could not be made: %(error)s") % {"error": review.error},
                                style="warning"))
    if review.settings:
        blocks.append(Heading(_("Settings")))
        blocks.append(Table(
            headers=[_("Setting"), _("Value"), _("Changed from the default")],
            rows=[[row["label"], str(row["value"]), _("yes") if row["changed"] else ""]
                  for row in settings_rows(review.settings, review.changes)], widths=(28, 57, 15)))
    blocks += [Heading(_("Rationale")), Bullets(rationale())]
    headroom = headroom_rows(review) if review.settings else []
    if headroom:
        blocks.append(Heading(_("PFC headroom per link class")))
        blocks.append(Table(
            headers=[_("Switch"), _("Link class"), _("Speed"), _("Longest cable (m)"), _("Needed (KB)"),
                     _("Configured (KB)"), _("XON (KB)")],
            rows=[[str(row["device_class_label"]), str(row["link_class_label"]), f"{row['gbps']}G",
                   f"{float(row['longest_m']):g}", count(row["needed_kb"]), count(row["configured_kb"]),
                   count(row["xon_kb"])] for row in headroom],
            numeric=(2, 3, 4, 5, 6)))
    blocks.append(Heading(_("Checklist")))
    blocks.append(Paragraph(_("%(errors)s errors, %(warnings)s warnings, %(ok)s checks passed.") % {
        "errors": review.count("error"), "warnings": review.count("warning"), "ok": review.count("ok")}))
    rows = checklist_rows(review)
    if rows:
        blocks.append(Table(
            headers=[_("Severity"), _("Rule"), _("Device class"), _("Finding"), _("Fix")],
            rows=[[row["severity_label"], row["rule"], str(row["device_class_label"]), row["message"], row["fix"]]
                  for row in rows], widths=(9, 14, 11, 36, 30)))
    return Chapter(key=KEY, title=str(TITLE), blocks=blocks)
