"""The building blocks other apps use for project-scoped views: members in, others 404."""
import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.test import RequestFactory
from django.views import View
from rest_framework import generics, serializers
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory, force_authenticate

from apps.projects.api.mixins import IsProjectManager, IsProjectManagerOrReadOnly, ProjectScopedMixin
from apps.projects.models import ProjectMembership
from apps.projects.views import ProjectManagerRequiredMixin, ProjectScopedViewMixin
from tests.factories import StaffFactory, UserFactory
from tests.projects.factories import ProjectFactory

pytestmark = pytest.mark.django_db


class _MembershipSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProjectMembership
        fields = ["user"]


class _ManagerOnlyView(ProjectScopedMixin, generics.ListAPIView):
    queryset = ProjectMembership.objects.all()
    project_field = "project"
    serializer_class = _MembershipSerializer
    permission_classes = [IsProjectManager]


class _ReadOrManageView(ProjectScopedMixin, generics.GenericAPIView):
    permission_classes = [IsProjectManagerOrReadOnly]

    def get(self, request, project_pk):
        return Response({"project": self.get_project().name})

    def post(self, request, project_pk):
        return Response({"written": True})


def _api(view_class, method, user, project):
    request = getattr(APIRequestFactory(), method)("/", {}, format="json")
    force_authenticate(request, user=user)
    return view_class.as_view()(request, project_pk=project.pk)


@pytest.fixture
def people():
    owner, member, staff_member, outsider = UserFactory(), UserFactory(), StaffFactory(), UserFactory()
    project = ProjectFactory(owner=owner, members=[member, staff_member])
    ProjectFactory(owner=owner)  # another project's rows must not show up
    return project, owner, member, staff_member, outsider


def test_project_scoped_queryset_holds_only_that_projects_rows(people):
    project, owner, *_ = people
    response = _api(_ManagerOnlyView, "get", owner, project)
    assert response.status_code == 200
    listed = sorted(row["user"] for row in response.data["results"])
    assert listed == sorted(project.members.values_list("pk", flat=True))


def test_is_project_manager_owner_and_staff_member_pass_member_403_outsider_404(people):
    project, owner, member, staff_member, outsider = people
    assert _api(_ManagerOnlyView, "get", owner, project).status_code == 200
    assert _api(_ManagerOnlyView, "get", staff_member, project).status_code == 200
    assert _api(_ManagerOnlyView, "get", member, project).status_code == 403
    assert _api(_ManagerOnlyView, "get", outsider, project).status_code == 404
    assert _api(_ManagerOnlyView, "get", StaffFactory(), project).status_code == 404


def test_read_only_for_members_writes_for_managers(people):
    project, owner, member, _staff_member, outsider = people
    assert _api(_ReadOrManageView, "get", member, project).data == {"project": project.name}
    assert _api(_ReadOrManageView, "post", member, project).status_code == 403
    assert _api(_ReadOrManageView, "post", owner, project).status_code == 200
    assert _api(_ReadOrManageView, "get", outsider, project).status_code == 404
    assert _api(_ReadOrManageView, "post", outsider, project).status_code == 404


class _ProjectPage(ProjectScopedViewMixin, View):
    def get(self, request, project_pk):
        return HttpResponse(self.get_project().name)


class _ProjectSettingsPage(ProjectManagerRequiredMixin, View):
    def get(self, request, project_pk):
        return HttpResponse("settings")


def _ui(view_class, user, project):
    request = RequestFactory().get("/somewhere/")
    request.user = user
    return view_class.as_view()(request, project_pk=project.pk)


def test_ui_mixin_members_in_others_404_anonymous_to_login(people):
    project, owner, member, staff_member, outsider = people
    assert _ui(_ProjectPage, member, project).content.decode() == project.name
    with pytest.raises(Http404):
        _ui(_ProjectPage, outsider, project)
    with pytest.raises(Http404):
        _ui(_ProjectPage, StaffFactory(), project)
    anonymous = _ui(_ProjectPage, AnonymousUser(), project)
    assert anonymous.status_code == 302
    assert "/accounts/login/" in anonymous["Location"]


def test_ui_manager_mixin_member_403_outsider_404(people):
    project, owner, member, staff_member, outsider = people
    assert _ui(_ProjectSettingsPage, owner, project).status_code == 200
    assert _ui(_ProjectSettingsPage, staff_member, project).status_code == 200
    with pytest.raises(PermissionDenied):
        _ui(_ProjectSettingsPage, member, project)
    with pytest.raises(Http404):
        _ui(_ProjectSettingsPage, outsider, project)
