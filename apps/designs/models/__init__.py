from .design import Design, DesignVersion
from .job import Job
from .records import BomLineRecord, DeviceRecord, LinkRecord, PortRecord, Role, Tier, record_id, record_id_range

__all__ = [
    "BomLineRecord",
    "Design",
    "DesignVersion",
    "DeviceRecord",
    "Job",
    "LinkRecord",
    "PortRecord",
    "Role",
    "Tier",
    "record_id",
    "record_id_range",
]
