from .aggregation import *  # noqa: F401,F403
from .aggregation import VersionTopologyExpandView, VersionTopologyView  # noqa: F401
