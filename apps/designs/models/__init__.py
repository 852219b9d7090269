from .design import Design, DesignVersion
from .job import Job
from .records import BomLineRecord, DeviceRecord, LinkRecord, PortRecord, Role, Tier, record_id, record_id_range

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
    "PortRecord",
    "Role",
    "Tier",
    "VersionStatus",
    "record_id",
    "record_id_range",
]

# Export files are modelled in apps/designs/exports; importing them here registers them with the app.
from apps.designs.exports.models import ExportFile  # noqa: E402, F401
# RoCE reviews and traffic analyses (apps/designs/analysis); importing them here registers them with the app.
from apps.designs.analysis.models import RoceReview, TrafficAnalysis  # noqa: E402, F401
