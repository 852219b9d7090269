"""Design pages (namespace "designs", included at /designs/). Every route is under a project.

designs:design-create      projects/<project_pk>/new/                              the design form
designs:design-estimate    projects/<project_pk>/estimate/                         POST: live check (JSON)
designs:design-detail      projects/<project_pk>/designs/<design_pk>/              -> latest version
designs:version-create     projects/<project_pk>/designs/<design_pk>/versions/new/ ?from=<version id>
designs:version-detail     projects/<project_pk>/versions/<version_pk>/            the design page
designs:version-topology   projects/<project_pk>/versions/<version_pk>/topology/   topology + cabling
designs:version-alternative-use  projects/<project_pk>/versions/<version_pk>/alternatives/use/  POST: new version
designs:job-detail         projects/<project_pk>/jobs/<job_pk>/                    progress bar
"""
from django.urls import path

from . import views

app_name = "designs"
urlpatterns = [
    path("projects/<int:project_pk>/new/", views.DesignCreateView.as_view(), name="design-create"),
    path("projects/<int:project_pk>/estimate/", views.DesignEstimateView.as_view(), name="design-estimate"),
    path("projects/<int:project_pk>/designs/<int:design_pk>/", views.DesignDetailView.as_view(),
         name="design-detail"),
    path("projects/<int:project_pk>/designs/<int:design_pk>/versions/new/", views.VersionCreateView.as_view(),
         name="version-create"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/", views.VersionDetailView.as_view(),
         name="version-detail"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/topology/", views.VersionTopologyView.as_view(),
         name="version-topology"),
    path("projects/<int:project_pk>/versions/<int:version_pk>/alternatives/use/",
         views.VersionAlternativeUseView.as_view(), name="version-alternative-use"),
    path("projects/<int:project_pk>/jobs/<int:job_pk>/", views.JobDetailView.as_view(), name="job-detail"),
]
