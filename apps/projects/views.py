"""Project and customer pages. Thin: selectors read, services write, forms shape input.

Every page needs a signed-in user. Project pages resolve the project in dispatch(), before the
method handler, so a non-member gets 404 for every method. Invalid forms are shown again with
the errors in place and nothing saved (HTTP 200, as Django does: Chromium logs a 4xx page load
as a console error, which the browser tests treat as a failure).
"""
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from .forms import CustomerForm, MemberAddForm, ProjectCreateForm, ProjectEditForm, form_add_service_errors
from .models import Customer, Project
from .panels import project_panels_render
from .selectors import (
    customer_get_for_user,
    customer_list_for_user,
    customer_project_list_for_user,
    customer_user_can_manage,
    project_get_for_user,
    project_list_for_user,
    project_membership_list,
    project_user_can_manage,
)
from .services import (
    customer_create,
    customer_update,
    project_create,
    project_create_with_customer_name,
    project_delete,
    project_member_add,
    project_member_remove,
    project_update,
)

FORM_ERRORS = 200


class ProjectScopedViewMixin(LoginRequiredMixin):
    """For any page under a project (``<int:project_pk>`` in the URL), in any app.

    Sets ``self.project`` (use ``get_project()``) before the method handler runs: anonymous users
    go to the login page, non-members get 404 whatever the method. Templates get ``project`` and
    ``can_manage``.
    """

    project_url_kwarg = "project_pk"

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.project = project_get_for_user(user=request.user, pk=kwargs[self.project_url_kwarg])
        self.check_project_permission()
        return super().dispatch(request, *args, **kwargs)

    def check_project_permission(self) -> None:
        """Members pass; override to require more (see ProjectManagerRequiredMixin)."""

    def get_project(self) -> Project:
        return self.project

    def can_manage(self) -> bool:
        return project_user_can_manage(user=self.request.user, project=self.project)

    def get_context_data(self, **kwargs):
        # For views with ContextMixin (TemplateView, DetailView, FormView...).
        context = super().get_context_data(**kwargs)
        context.setdefault("project", self.project)
        context.setdefault("can_manage", self.can_manage())
        return context


class ProjectManagerRequiredMixin(ProjectScopedViewMixin):
    """Owner or staff of the project; other members get 403 (they already know it exists)."""

    def check_project_permission(self) -> None:
        if not self.can_manage():
            raise PermissionDenied(_("Only the project owner or staff can do this."))


# Projects ---------------------------------------------------------------------------------


class ProjectListView(LoginRequiredMixin, View):
    template_name = "projects/project_list.html"

    def _render(self, request, form, status=200):
        projects = project_list_for_user(user=request.user).order_by("-updated_at")
        return render(request, self.template_name, {"projects": projects, "form": form}, status=status)

    def _form(self, request, data=None):
        return ProjectCreateForm(data, customers=customer_list_for_user(user=request.user).order_by("name"))

    def get(self, request):
        initial_customer = request.GET.get("customer")
        form = self._form(request)
        if initial_customer and initial_customer.isdigit():
            form.initial["customer"] = initial_customer
        return self._render(request, form)

    def post(self, request):
        form = self._form(request, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            fields = {
                "name": data["name"],
                "description": data["description"],
                "discount_pct": data["discount_pct"],
                "currency": data["currency"],
                "review_two_people": data["review_two_people"],
            }
            try:
                if data["customer"]:
                    project = project_create(customer=data["customer"], owner=request.user, **fields)
                else:
                    project = project_create_with_customer_name(
                        customer_name=data["new_customer_name"], owner=request.user, **fields
                    )
            except ValidationError as exc:
                form_add_service_errors(form, exc)
            else:
                messages.success(request, _("Project “%(name)s” created.") % {"name": project.name})
                return redirect(project)
        return self._render(request, form, status=FORM_ERRORS)


def _project_detail_response(request, project, *, member_form=None, status=200) -> HttpResponse:
    can_manage = project_user_can_manage(user=request.user, project=project)
    if member_form is None and can_manage:
        member_form = MemberAddForm()
    context = {
        "project": project,
        "can_manage": can_manage,
        "memberships": project_membership_list(project=project),
        "member_form": member_form,
        "project_panels": project_panels_render(request=request, project=project),
    }
    return render(request, "projects/project_detail.html", context, status=status)


class ProjectDetailView(ProjectScopedViewMixin, View):
    def get(self, request, project_pk):
        return _project_detail_response(request, self.project)


class ProjectEditView(ProjectManagerRequiredMixin, View):
    template_name = "projects/project_form.html"

    def _form(self, data=None):
        return ProjectEditForm(
            data,
            instance=self.project,
            customers=customer_list_for_user(user=self.request.user).order_by("name"),
            members=get_user_model().objects.filter(project_memberships__project=self.project).order_by("username"),
        )

    def _render(self, form, status=200):
        return render(self.request, self.template_name, {"project": self.project, "form": form}, status=status)

    def get(self, request, project_pk):
        return self._render(self._form())

    def post(self, request, project_pk):
        form = self._form(request.POST)
        if form.is_valid():
            # Fresh copy: on a service error the page must still show the saved values around the form.
            project = Project.objects.get(pk=self.project.pk)
            try:
                project_update(project=project, user=request.user, data=dict(form.cleaned_data))
            except ValidationError as exc:
                form_add_service_errors(form, exc)
            else:
                messages.success(request, _("Project saved."))
                return redirect(project)
        return self._render(form, status=FORM_ERRORS)


class ProjectDeleteView(ProjectManagerRequiredMixin, View):
    template_name = "projects/project_confirm_delete.html"

    def get(self, request, project_pk):
        return render(request, self.template_name, {"project": self.project})

    def post(self, request, project_pk):
        name = self.project.name
        try:
            project_delete(project=self.project, user=request.user)
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
            return redirect(self.project)
        messages.success(request, _("Project “%(name)s” deleted.") % {"name": name})
        return redirect("projects:project-list")


class ProjectMemberAddView(ProjectManagerRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request, project_pk):
        form = MemberAddForm(request.POST)
        if form.is_valid():
            user = form.cleaned_data["username"]
            try:
                project_member_add(project=self.project, user=user, added_by=request.user)
            except ValidationError as exc:
                form.add_error("username", exc.messages)
            else:
                messages.success(request, _("%(username)s added to the project.") % {"username": user.get_username()})
                return redirect(self.project)
        return _project_detail_response(request, self.project, member_form=form, status=FORM_ERRORS)


class ProjectMemberRemoveView(ProjectManagerRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request, project_pk, user_id):
        membership = get_object_or_404(project_membership_list(project=self.project), user_id=user_id)
        try:
            project_member_remove(project=self.project, user=membership.user, removed_by=request.user)
        except ValidationError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(
                request, _("%(username)s removed from the project.") % {"username": membership.user.get_username()}
            )
        return redirect(self.project)


# Customers --------------------------------------------------------------------------------


class CustomerListView(LoginRequiredMixin, View):
    template_name = "projects/customer_list.html"

    def _render(self, request, form, status=200):
        customers = customer_list_for_user(user=request.user).order_by("name")
        return render(request, self.template_name, {"customers": customers, "form": form}, status=status)

    def get(self, request):
        return self._render(request, CustomerForm())

    def post(self, request):
        form = CustomerForm(request.POST)
        if form.is_valid():
            try:
                customer = customer_create(created_by=request.user, **form.cleaned_data)
            except ValidationError as exc:
                form_add_service_errors(form, exc)
            else:
                messages.success(request, _("Customer “%(name)s” created.") % {"name": customer.name})
                return redirect(customer)
        return self._render(request, form, status=FORM_ERRORS)


class CustomerScopedViewMixin(LoginRequiredMixin):
    """Resolve the customer before the handler: 404 unless the user sees it."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.customer = customer_get_for_user(user=request.user, pk=kwargs["customer_pk"])
        self.check_customer_permission()
        return super().dispatch(request, *args, **kwargs)

    def check_customer_permission(self) -> None:
        """Anyone who sees the customer passes; CustomerEditView requires more."""


class CustomerDetailView(CustomerScopedViewMixin, View):
    template_name = "projects/customer_detail.html"

    def get(self, request, customer_pk):
        context = {
            "customer": self.customer,
            "can_manage": customer_user_can_manage(user=request.user, customer=self.customer),
            "projects": customer_project_list_for_user(user=request.user, customer=self.customer),
        }
        return render(request, self.template_name, context)


class CustomerEditView(CustomerScopedViewMixin, View):
    template_name = "projects/customer_form.html"

    def check_customer_permission(self) -> None:
        if not customer_user_can_manage(user=self.request.user, customer=self.customer):
            raise PermissionDenied(_("Only the customer's creator or staff can edit it."))

    def _render(self, form, status=200):
        return render(self.request, self.template_name, {"customer": self.customer, "form": form}, status=status)

    def get(self, request, customer_pk):
        return self._render(CustomerForm(instance=self.customer))

    def post(self, request, customer_pk):
        form = CustomerForm(request.POST, instance=self.customer)
        if form.is_valid():
            # A fresh copy, so a rejected edit leaves the page's customer as saved.
            customer = Customer.objects.get(pk=self.customer.pk)
            try:
                customer_update(customer=customer, user=request.user, data=form.cleaned_data)
            except ValidationError as exc:
                form_add_service_errors(form, exc)
            else:
                messages.success(request, _("Customer saved."))
                return redirect(customer)
        return self._render(form, status=FORM_ERRORS)
