"""What a page, sheet or API answer says where an Ethernet-only section meets an InfiniBand design.

An InfiniBand fabric is lossless by credit-based link-level flow control and routed by the subnet
manager (OpenSM or UFM: LIDs, fat-tree routing engine), so the RoCE settings (PFC, ECN, DCQCN,
DSCP), the SONiC and mlnx_qos configs, the ECMP hashing analysis and the IP underlay plan
(/31 links, loopbacks, eBGP ASNs) don't apply. Each says so in one sentence rather than
showing an empty or made-up plan.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from apps.engine.cabling import REACH_MARGIN_FRACTION, REACH_MARGIN_M, usable_reach


def roce_not_applicable() -> str:
    return _("Not applicable on InfiniBand: the fabric is lossless by credit-based link-level flow control, so "
             "there are no PFC, ECN, DCQCN or DSCP settings to configure and no SONiC or mlnx_qos configs; the "
             "subnet manager (OpenSM or UFM) configures the switches.")


def traffic_not_applicable() -> str:
    return _("Not applicable on InfiniBand: the subnet manager (OpenSM or UFM, fat-tree routing engine) computes "
             "deterministic routes per destination LID, so there is no ECMP 5-tuple hashing to analyse.")


def underlay_not_applicable() -> str:
    return _("Not applicable on InfiniBand: the subnet manager assigns LIDs and routes, so there are no "
             "point-to-point /31 links, loopbacks or BGP ASNs; hosts get IPoIB addresses from the host pool.")


def reach_margin_rule() -> str:
    """How optics are chosen against their reach (engine.cabling: the reach margin), in the reader's language."""
    return _("Optics are chosen with a reach margin: a link's fibre cord stays at least %(metres)s m or %(percent)s "
             "%% of the optic's rated reach below it, whichever is larger (multimode SR 50 m: cords up to "
             "%(sr)s m), because the installed run grows by tray detours, service loops and patch cords the plan "
             "cannot see, and every connector pair spends optical budget. A longer link takes the next reach class; "
             "where none is qualified, the design says how many links run that close to the limit.") % {
        "metres": f"{REACH_MARGIN_M:g}", "percent": f"{100 * REACH_MARGIN_FRACTION:g}", "sr": f"{usable_reach(50):g}"}

