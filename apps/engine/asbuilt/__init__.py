"""As-built check: neighbour dumps (LLDP, ibnetdiscover) against the planned links (see check.py, parsers.py)."""
from .check import (
    CODE_STATE,
    MISSING,
    MISWIRED,
    OK,
    STATE_CODE,
    STATES,
    TEMPLATES,
    UNVERIFIED,
    AsBuiltResult,
    Finding,
    PlannedFabric,
    asbuilt_check,
)
from .parsers import DumpError, Dumps, Neighbour, UploadLimits, dumps_from_path, read_dumps, zip_members
from .planned import planned_from_plan

__all__ = [
    "CODE_STATE", "MISSING", "MISWIRED", "OK", "STATE_CODE", "STATES", "TEMPLATES", "UNVERIFIED", "AsBuiltResult",
    "DumpError", "Dumps", "Finding", "Neighbour", "PlannedFabric", "UploadLimits", "asbuilt_check",
    "dumps_from_path", "planned_from_plan", "read_dumps", "zip_members",
]
