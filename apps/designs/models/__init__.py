from .design import Design, DesignVersion
from .job import Job
from .records import (NETWORK_CODES, BomLineRecord, DeviceRecord, LinkRecord, Network, PortRecord, Role, Tier,
                      TopologyGroups, record_id, record_id_range)

# Module-level names for drf-spectacular's ENUM_NAME_OVERRIDES (settings).
VersionStatus = DesignVersion.Status
JobStatus = Job.Status

__all__ = [
    "BomLineRecord",
    "Design",
    "DesignVersion",
    "DeviceRecord",
    "Job",
    "JobStatus",
    "LinkRecord",
    "NETWORK_CODES",
    "Network",
    "PortRecord",
    "Role",
    "Tier",
    "TopologyGroups",
    "VersionStatus",
    "record_id",
    "record_id_range",
]

