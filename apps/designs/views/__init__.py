"""Design pages (namespace "designs"): the form with its live estimate, the job's progress, the
design page of one version, and its topology with the cabling table.

Every page sits under a project (``project_pk``) and resolves it before the handler runs
(apps.projects.views.ProjectScopedViewMixin): anonymous users go to the login page, non-members
get 404 whatever the method, and a design, version or job of another project is 404 too.
Importing this package registers the designs panel on the project page (see project_panel).
"""
from . import project_panel  # noqa: F401  (registers the project page's designs panel)
from .design_form import DesignCreateView, DesignEstimateView, VersionCreateView
from .job import JobDetailView
from .version import DesignDetailView, VersionAlternativeUseView, VersionDetailView, VersionTopologyView

__all__ = [
    "DesignCreateView",
    "DesignDetailView",
    "DesignEstimateView",
    "JobDetailView",
    "VersionAlternativeUseView",
    "VersionCreateView",
    "VersionDetailView",
    "VersionTopologyView",
]
