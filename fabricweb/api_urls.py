"""REST API root: each app contributes its routes under /api/."""
from django.urls import include, path

urlpatterns = [
    path("", include("apps.accounts.api.urls")),
    path("catalog/", include("apps.catalog.api.urls")),
    path("", include("apps.projects.api.urls")),
    path("", include("apps.designs.api.urls")),
    path("", include("apps.analysis.api.urls")),
    path("", include("apps.exports.api.urls")),
    path("", include("apps.performance.api.urls")),
    path("", include("apps.racks.api.urls")),
    path("", include("apps.handover.api.urls")),
    path("", include("apps.designs.api.topology_urls")),
    path("", include("apps.reviews.api.urls")),
    path("", include("apps.explorer.api.urls")),
]
