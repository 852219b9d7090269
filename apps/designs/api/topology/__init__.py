"""The topology of a generated version as cytoscape.js elements: aggregated first, expanded on demand.

By concern (the rules are stated in each module):
    aggregation.py    the chain of groups of every device (plane > pod > SU > block > device > port),
                      the level that fits ELEMENT_BUDGET, and the first view from GROUP BY queries
    expansion.py      a group's children and a device's ports on demand, and the links they touch
    serialization.py  nodes, compound boxes and merged edges as cytoscape.js elements
    views.py          the API (api-version-topology, api-version-topology-expand)

`Topology(version, level=...)` puts the three together: `first_view()`, `view(expanded=...)`,
`expand(node_id, expanded=..., offset=..., limit=...)`.
"""
from __future__ import annotations

from .aggregation import (  # noqa: F401
    BLOCK, ELEMENT_BUDGET, LEVELS, LINK_EDGE_FIELDS, LINK_FIELDS, PORT_PAGE, PORT_PAGE_MAX, TopologyBase, TopologyError,
    first_view_cache_key, parse_node,
)
from .expansion import ExpansionMixin
from .serialization import SerializationMixin


class Topology(ExpansionMixin, SerializationMixin, TopologyBase):
    """The cytoscape elements of one ready version for a level and a set of expanded nodes."""
