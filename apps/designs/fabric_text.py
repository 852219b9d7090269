"""What a page, sheet or API answer says where an Ethernet-only section meets an InfiniBand design.

An InfiniBand fabric is lossless by credit-based link-level flow control and routed by the subnet
manager (OpenSM or UFM: LIDs, fat-tree routing engine), so the RoCE settings (PFC, ECN, DCQCN,
DSCP), the SONiC and mlnx_qos configs, the ECMP hashing analysis and the IP underlay plan
(/31 links, loopbacks, eBGP ASNs) don't apply. Each says so in one sentence rather than
showing an empty or made-up plan.
"""
from __future__ import annotations

from django.utils.translation import gettext as _


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
