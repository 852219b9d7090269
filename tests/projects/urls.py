"""Every project-scoped URL, so one test can prove non-members get 404 on all of them.

URLs are discovered from the URLconf: any route with a ``project_pk`` parameter (UI or API, any
app) is project-scoped. A route that needs more parameters (a design id, a member id, ...) must
say how to build them in EXTRA_KWARGS, or test_every_project_scoped_url_can_be_built fails.
Routes under the project that are not named ``project_pk`` are listed in DIRECT.

Other apps append to EXTRA_KWARGS (and DIRECT) here when they add nested routes, e.g.
    "designs:design-detail": lambda project: {"design_pk": DesignFactory(project=project).pk},
"""
from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from apps.projects.models import Project

PROJECT_KWARG = "project_pk"

# url name -> extra kwargs for the route, built for the given project (may create objects).
EXTRA_KWARGS: dict[str, Callable[[Project], dict[str, Any]]] = {
    "projects:project-member-remove": lambda project: {"user_id": project.owner_id},
    "api-project-member-detail": lambda project: {"user_id": project.owner_id},
}

# Project routes whose project parameter is not called project_pk: url name -> kwargs builder.
DIRECT: dict[str, Callable[[Project], dict[str, Any]]] = {
    "api-project-detail": lambda project: {"pk": project.pk},
}


def _design_pk(project: Project) -> dict[str, Any]:
    from tests.designs.factories import DesignFactory

    return {"pk": DesignFactory(project=project).pk}


def _version_pk(project: Project) -> dict[str, Any]:
    from tests.designs.factories import DesignVersionFactory

    return {"pk": DesignVersionFactory(design__project=project).pk}


def _job_pk(project: Project) -> dict[str, Any]:
    from tests.designs.factories import JobFactory

    return {"pk": JobFactory(version__design__project=project).pk}


def _export_pk(project: Project) -> dict[str, Any]:
    from apps.designs.models import Job
    from apps.exports.models import ExportFile
    from tests.designs.factories import JobFactory

    job = JobFactory(version__design__project=project, kind=Job.Kind.EXPORT)
    return {"pk": ExportFile.objects.create(job=job, version=job.version, kind=ExportFile.Kind.XLSX).pk}


# Designs: routes by design, version or job id, each reached through its project.
DIRECT.update({
    "api-design-detail": _design_pk,
    "api-design-version-list": _design_pk,
    "api-version-detail": _version_pk,
    "api-version-device-list": _version_pk,
    "api-version-link-list": _version_pk,
    "api-version-port-list": _version_pk,
    "api-version-bom": _version_pk,
    "api-job-detail": _job_pk,
})

# Exports (apps/exports): API and download pages, by version or export id.
DIRECT.update({
    "api-version-export-list": _version_pk,
    "api-export-detail": _export_pk,
    "api-export-download": _export_pk,
    "design-exports:version-exports": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "design-exports:export-download": _export_pk,
})

# Design pages (apps/designs/views): project_pk plus a design, version or job of that project.
EXTRA_KWARGS.update({
    "designs:design-detail": lambda project: {"design_pk": _design_pk(project)["pk"]},
    "designs:version-create": lambda project: {"design_pk": _design_pk(project)["pk"]},
    "designs:version-detail": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "designs:version-topology": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "designs:version-alternative-use": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "designs:job-detail": lambda project: {"job_pk": _job_pk(project)["pk"]},
})

# Topology API (apps/designs/api/topology/), by version id.
DIRECT.update({
    "api-version-topology": _version_pk,
    "api-version-topology-expand": _version_pk,
    "api-version-topology-schematic": _version_pk,
})


def _traffic_analysis_pk(project: Project) -> dict[str, Any]:
    from apps.analysis.models import TrafficAnalysis
    from tests.designs.factories import DesignVersionFactory

    version = DesignVersionFactory(design__project=project)
    analysis = TrafficAnalysis.objects.create(version=version, max_flows=1000, message_bytes=1 << 30)
    return {"pk": version.pk, "analysis_pk": analysis.pk}


# RoCE and traffic (apps/analysis): API by version id, the RoCE settings page under the project.
DIRECT.update({
    "api-version-roce": _version_pk,
    "api-version-roce-configs-zip": _version_pk,
    "api-version-roce-device-config": lambda project: {**_version_pk(project), "device_name": "leaf-1"},
    "api-version-traffic": _version_pk,
    "api-version-traffic-detail": _traffic_analysis_pk,
})
EXTRA_KWARGS["design-analysis:roce-settings"] = lambda project: {"version_pk": _version_pk(project)["pk"]}

# Racks and the data hall (apps/racks): pages under the project's version.
EXTRA_KWARGS.update({
    "racks:hall": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "racks:rack": lambda project: {"version_pk": _version_pk(project)["pk"], "name": "R0001"},
    "racks:device-rack": lambda project: {"version_pk": _version_pk(project)["pk"], "device": "leaf-1"},
})
DIRECT.update({
    "api-version-rack-list": _version_pk,
    "api-version-rack-detail": lambda project: {**_version_pk(project), "name": "R0001"},
    "api-version-hall": _version_pk,
})

# Design templates (apps/design_templates): staff save a version of their project as a template.
EXTRA_KWARGS["design_templates:template-save"] = lambda project: {"version_pk": _version_pk(project)["pk"]}


def _walk(patterns, namespace: str | None, params: frozenset[str]):
    for entry in patterns:
        entry_params = params | frozenset(entry.pattern.regex.groupindex)
        if isinstance(entry, URLResolver):
            ns = namespace
            if entry.namespace:
                ns = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry.url_patterns, ns, entry_params)
        elif isinstance(entry, URLPattern) and entry.name:
            name = f"{namespace}:{entry.name}" if namespace else entry.name
            yield name, entry_params - {"format"}


def project_scoped_routes() -> dict[str, frozenset[str]]:
    """url name -> its parameters, for every named route with a project_pk parameter."""
    routes: dict[str, frozenset[str]] = {}
    for name, params in _walk(get_resolver().url_patterns, None, frozenset()):
        if PROJECT_KWARG in params:
            routes.setdefault(name, params)
    return routes


def project_scoped_url_names() -> list[str]:
    return sorted(set(project_scoped_routes()) | set(DIRECT))


def project_scoped_url(name: str, project: Project) -> str:
    if name in DIRECT:
        return reverse(name, kwargs=DIRECT[name](project))
    kwargs = {PROJECT_KWARG: project.pk}
    if name in EXTRA_KWARGS:
        kwargs.update(EXTRA_KWARGS[name](project))
    return reverse(name, kwargs=kwargs)


def project_scoped_urls(project: Project) -> list[str]:
    return [project_scoped_url(name, project) for name in project_scoped_url_names()]


# Reviews (apps/reviews): pages and API by version or comment, each reached through its project.
def _comment_kwargs(project: Project) -> dict[str, Any]:
    from apps.reviews.models import Comment
    from tests.designs.factories import DesignVersionFactory

    version = DesignVersionFactory(design__project=project)
    comment = Comment.objects.create(version=version, author=project.owner, body="Check the spine uplinks.")
    return {"version_pk": version.pk, "comment_pk": comment.pk}


EXTRA_KWARGS.update({
    "reviews:version-review": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "reviews:review-action": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "reviews:comment-create": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "reviews:comment-edit": _comment_kwargs,
    "reviews:comment-delete": _comment_kwargs,
})
DIRECT.update({
    "api-version-comment-list": _version_pk,
    "api-version-comment-detail": lambda project: {
        "pk": (kwargs := _comment_kwargs(project))["version_pk"], "comment_pk": kwargs["comment_pk"]},
    "api-version-review": _version_pk,
})


def _asbuilt_check(project: Project) -> dict[str, Any]:
    from apps.handover.models import AsBuiltCheck
    from tests.designs.factories import DesignVersionFactory

    version = DesignVersionFactory(design__project=project)
    check = AsBuiltCheck.objects.create(version=version, archive=b"")
    return {"version_pk": version.pk, "check_pk": check.pk}


def _asbuilt_check_api(project: Project) -> dict[str, Any]:
    built = _asbuilt_check(project)
    return {"pk": built["version_pk"], "check_pk": built["check_pk"]}


# Handover (apps/handover): pages under the project, API by version id.
EXTRA_KWARGS.update({
    "handover:asbuilt": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "handover:asbuilt-fixes": _asbuilt_check,
    "handover:asbuilt-fixes-csv": _asbuilt_check,
    "handover:asbuilt-upload": _asbuilt_check,
    "handover:inventory": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "handover:precheck-script": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "handover:kit": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "handover:kit-orders": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "handover:kit-csv": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "handover:kit-labels": lambda project: {"version_pk": _version_pk(project)["pk"]},
    "handover:kit-p2p": lambda project: {"version_pk": _version_pk(project)["pk"]},
})
DIRECT.update({
    "api-version-asbuilt": _version_pk,
    "api-version-asbuilt-link-states": _version_pk,
    "api-version-asbuilt-detail": _asbuilt_check_api,
    "api-version-inventory": _version_pk,
    "api-version-inventory-won": _version_pk,
    "api-version-inventory-import": _version_pk,
    "api-version-inventory-links": _version_pk,
    "api-version-precheck": _version_pk,
})

# Performance model (apps/performance): the page under the project, by version.
EXTRA_KWARGS["performance:version"] = lambda project: {"version_pk": _version_pk(project)["pk"]}
