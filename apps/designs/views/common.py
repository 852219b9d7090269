"""Lookups shared by the design pages: objects of the page's project, or 404."""
from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from apps.projects.models import Project

from ..models import Design, DesignVersion, Job
from ..selectors import design_list_for_project, job_get_for_user, version_list_for_project


def project_design(*, project: Project, pk: Any) -> Design:
    design = design_list_for_project(project=project).filter(pk=pk).first()
    if design is None:
        raise Http404(_("No such design."))
    return design


def project_version(*, project: Project, pk: Any) -> DesignVersion:
    version = version_list_for_project(project=project).filter(pk=pk).first()
    if version is None:
        raise Http404(_("No such design version."))
    return version


def project_job(*, user: Any, project: Project, pk: Any) -> Job:
    job = job_get_for_user(user=user, pk=pk)
    if job.project_id != project.pk:
        raise Http404(_("No such job."))
    return job
