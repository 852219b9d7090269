"""The sentences of the front-end, storage and out-of-band networks (codes "network.*").

Added to engine.messages.TEMPLATES when this package is imported, so every Message the
networks write has its English template and the web app can translate it by code.
"""
from __future__ import annotations

from ..messages import TEMPLATES

NETWORK_TEMPLATES: dict[str, str] = {
    "network.no_frontend_ports": "the server model {server} has no front-end ports; choose a server with front-end "
                                 "ports or leave the front-end network out",
    "network.too_many_ports": "the server model {server} has {available} front-end ports, not {ports}",
    "network.speed": "{role} ports run at {gbps} Gb/s; this network's ports run at {network_gbps} Gb/s "
                     "(choose the switch's breakout at {network_gbps}G)",
    "network.storage_empty": "give storage nodes or storage ports per server (or none: no storage network)",
    "network.storage_converged_ports": "storage converged onto the front-end has no storage ports of its own; "
                                       "set them to 0",
    "network.converged_without_frontend": "storage converged onto the front-end needs a front-end network",
    "network.pool_overlap": "{cidr} overlaps {other} {other_cidr}",
    "network.oob_rack_ports": "rack {rack} needs {needed} management ports; the management switch has {ports} "
                              "ports, {uplinks} of them uplinks, so {access} for devices",
    "network.oob_uplinks": "a management switch needs at least one uplink and keeps a device port: 1 to {high}, "
                           "not {value}",
    "network.what_oob_host": "a subnet per management switch (network, gateway, devices, broadcast)",
    "network.choice": "must be one of {choices}, not {value}",
    "network.switch_class": "{switch} is a switch of class {switch_class}; the {network} network takes {allowed} switches",
    "network.uplink_spine": "the leaf's uplinks run at {uplink_gbps} Gb/s; give a spine switch whose ports run at "
                            "{uplink_gbps} Gb/s",
    "network.oob_uplink_group": "the management switch has {high} uplink ports: give 1 to {high} uplinks, not {value}",
}

TEMPLATES.update(NETWORK_TEMPLATES)
