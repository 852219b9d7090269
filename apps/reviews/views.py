"""Review pages (namespace "reviews"): the review of a version, its comment and action forms, the
diff of two versions (page and workbook) and the project's audit trail.

Every page sits under a project (``project_pk``) and resolves it before the handler runs
(apps.projects.views.ProjectScopedViewMixin): anonymous users go to the login page, non-members
get 404 whatever the method, and a version or comment of another project is 404 too.

Forms post here from the design page's Review panel. Success redirects back (``next``, else the
design page). Invalid input renders the version's review page with the errors in place (HTTP 200,
nothing saved). With JavaScript (static/js/reviews.js) the panel posts with
``X-Requested-With: fetch`` and gets JSON ``{"ok", "panel", "badge"}`` (always HTTP 200), so the
panel and the badge are replaced where they are, errors included. A plain member who posts an
approval gets 403 (the buttons are not offered to them).
"""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import View

from apps.designs.models import DesignVersion
from apps.designs.selectors import version_list_for_project
from apps.projects.views import ProjectScopedViewMixin

from .api.views import diff_workbook_response
from .filtersets import AuditEventFilterSet
from .forms import CommentEditForm, ReviewActionForm, form_add_service_errors
from .models import Comment
from .panels import comment_form_for, review_panel_context
from .selectors import audit_event_list_for_project, diff_version_choices
from .services.audit import audit_jobs_record
from .services.comments import comment_create, comment_delete, comment_update
from .services.diff import diff_versions_clean, version_diff
from .services.review import version_review_act
from .workbooks import bom_status_labels

AUDIT_PAGE_SIZE = 50


def _is_fetch(request) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


class VersionReviewMixin(ProjectScopedViewMixin):
    """Resolves self.version (a version of the page's project) for every method."""

    def get_version(self) -> DesignVersion:
        if not hasattr(self, "_version"):
            version = version_list_for_project(project=self.project).filter(pk=self.kwargs["version_pk"]).first()
            if version is None:
                raise Http404(_("No such design version."))
            self._version = version
        return self._version

    def design_url(self) -> str:
        return reverse("designs:version-detail", kwargs={"project_pk": self.project.pk,
                                                         "version_pk": self.get_version().pk})

    def next_url(self) -> str:
        target = self.request.POST.get("next") or ""
        if target and url_has_allowed_host_and_scheme(target, allowed_hosts={self.request.get_host()},
                                                      require_https=self.request.is_secure()):
            return target
        return self.design_url() + "#panel-review"

    def panel_context(self, **forms: Any) -> dict[str, Any]:
        version = self.get_version()
        context = {"version": version, "design": version.design, "project": self.project,
                   "can_manage": self.can_manage()}
        context.update(review_panel_context(self.request, version, **forms))
        return context

    def respond(self, *, ok: bool, **forms: Any) -> HttpResponse:
        """After a POST: JSON for the panel's script, else a redirect (ok) or the review page with errors."""
        if _is_fetch(self.request):
            context = self.panel_context(**forms)
            return JsonResponse({
                "ok": ok,
                "panel": render_to_string("reviews/_review_panel.html", context, request=self.request),
                "badge": render_to_string("reviews/_state_badge.html", context, request=self.request),
            })
        if ok:
            return redirect(self.next_url())
        return render(self.request, "reviews/version_review.html", self.panel_context(**forms))


class VersionReviewView(VersionReviewMixin, View):
    """The review of one version on a page of its own (also where a form without JavaScript shows its errors)."""

    def get(self, request, project_pk, version_pk):
        version = self.get_version()
        if not version.is_ready:
            return redirect(self.design_url())
        return render(request, "reviews/version_review.html", self.panel_context())


class CommentCreateView(VersionReviewMixin, View):
    def post(self, request, project_pk, version_pk):
        version = self.get_version()
        form = comment_form_for(version=version, data=request.POST)
        if form.is_valid():
            try:
                comment_create(version=version, author=request.user, **form.service_data())
            except ValidationError as exc:
                form.add_service_errors(exc)
            else:
                if not _is_fetch(request):
                    messages.success(request, _("Comment added."))
                return self.respond(ok=True)
        return self.respond(ok=False, comment_form=form)


class ReviewActionView(VersionReviewMixin, View):
    def post(self, request, project_pk, version_pk):
        version = self.get_version()
        form = ReviewActionForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                review = version_review_act(version=version, user=request.user, action=data["action"],
                                            note=data["note"], supersede=data["supersede"])
            except ValidationError as exc:
                form_add_service_errors(form, exc)
            else:
                if not _is_fetch(request):
                    messages.success(request, _("%(version)s is now %(state)s.") % {
                        "version": f"{version.design.name} v{version.number}", "state": review.get_state_display()})
                return self.respond(ok=True)
        return self.respond(ok=False, action_form=form)


class CommentScopedMixin(VersionReviewMixin):
    def get_comment(self) -> Comment:
        comment = (
            Comment.objects.select_related("author", "version__design__project")
            .filter(pk=self.kwargs["comment_pk"], version=self.get_version()).first()
        )
        if comment is None:
            raise Http404(_("No such comment."))
        return comment


class CommentEditView(CommentScopedMixin, View):
    template_name = "reviews/comment_edit.html"

    def _render(self, comment: Comment, form: CommentEditForm) -> HttpResponse:
        return render(self.request, self.template_name, {
            "project": self.project, "version": self.get_version(), "design": self.get_version().design,
            "comment": comment, "form": form,
        })

    def get(self, request, project_pk, version_pk, comment_pk):
        comment = self.get_comment()
        if comment.author_id != request.user.pk:
            raise PermissionDenied(_("Only the author can edit a comment."))
        return self._render(comment, CommentEditForm(initial={"body": comment.body}))

    def post(self, request, project_pk, version_pk, comment_pk):
        comment = self.get_comment()
        form = CommentEditForm(request.POST)
        if form.is_valid():
            try:
                comment_update(comment=comment, user=request.user, data={"body": form.cleaned_data["body"]})
            except ValidationError as exc:
                form_add_service_errors(form, exc)
            else:
                messages.success(request, _("Comment saved."))
                return redirect(self.design_url() + "#panel-review")
        return self._render(comment, form)


class CommentDeleteView(CommentScopedMixin, View):
    def post(self, request, project_pk, version_pk, comment_pk):
        comment = self.get_comment()
        try:
            comment_delete(comment=comment, user=request.user)
        except ValidationError as exc:
            if _is_fetch(request):
                form = comment_form_for(version=self.get_version())
                form_add_service_errors(form, exc)
                return self.respond(ok=False, comment_form=form)
            for message in exc.messages:
                messages.error(request, message)
            return redirect(self.next_url())
        if not _is_fetch(request):
            messages.success(request, _("Comment deleted."))
        return self.respond(ok=True)


# Diff ---------------------------------------------------------------------------------------------------


class DiffMixin(ProjectScopedViewMixin):
    def diff_or_errors(self):
        """(diff, errors): the diff of ?a=&b= when both name ready versions of the project, else field errors."""
        a, b = self.request.GET.get("a"), self.request.GET.get("b")
        if not a and not b:
            return None, {}
        try:
            version_a, version_b = diff_versions_clean(project=self.project, a=a, b=b)
        except ValidationError as exc:
            return None, exc.message_dict
        return version_diff(a=version_a, b=version_b), {}

    def render_page(self, diff, errors) -> HttpResponse:
        choices = list(diff_version_choices(project=self.project))
        return render(self.request, "reviews/diff.html", {
            "project": self.project,
            "diff": diff,
            "errors": errors,
            "choices": choices,
            "selected_a": self.request.GET.get("a", ""),
            "selected_b": self.request.GET.get("b", ""),
            "status_labels": bom_status_labels(),
            "show_same": self.request.GET.get("same") == "1",
        })


class DiffView(DiffMixin, View):
    """Two version pickers and, once both are chosen, the two versions side by side."""

    def get(self, request, project_pk):
        diff, errors = self.diff_or_errors()
        return self.render_page(diff, errors)


class DiffWorkbookView(DiffMixin, View):
    """The diff as an Excel download; with bad parameters, the diff page with the errors (HTTP 200)."""

    def get(self, request, project_pk):
        diff, errors = self.diff_or_errors()
        if diff is None:
            return self.render_page(None, errors or {"a": [_("Choose a version.")], "b": [_("Choose a version.")]})
        return diff_workbook_response(diff=diff, user=request.user)


# Audit trail ---------------------------------------------------------------------------------------------


class AuditView(ProjectScopedViewMixin, View):
    template_name = "reviews/audit.html"

    def get(self, request, project_pk):
        audit_jobs_record(project=self.project)
        everything = audit_event_list_for_project(project=self.project)
        filterset = AuditEventFilterSet(request.GET or None, queryset=everything)
        if not filterset.is_bound:
            events = everything
        else:
            # Invalid filters show their errors and no rows rather than everything.
            events = filterset.qs if filterset.is_valid() else everything.none()
        page = Paginator(events, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
        query = request.GET.copy()
        query.pop("page", None)
        return render(request, self.template_name, {
            "project": self.project, "filter_form": filterset.form, "page": page, "events": page.object_list,
            "query": query.urlencode(),
        })
