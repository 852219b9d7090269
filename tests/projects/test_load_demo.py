from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from apps.projects.models import Customer, Project

pytestmark = pytest.mark.django_db


def _load_demo() -> str:
    out = StringIO()
    call_command("load_demo", "--demo", stdout=out)
    return out.getvalue()


def test_load_demo_refuses_without_an_explicit_demo_mode(monkeypatch):
    monkeypatch.delenv("FABRICWEB_DEMO", raising=False)
    with pytest.raises(CommandError, match="--demo or FABRICWEB_DEMO=true"):
        call_command("load_demo", stdout=StringIO())
    assert not get_user_model().objects.exists()
    assert not Project.objects.exists()


def test_load_demo_runs_with_fabricweb_demo_set(monkeypatch):
    monkeypatch.setenv("FABRICWEB_DEMO", "true")
    call_command("load_demo", stdout=StringIO())
    assert get_user_model().objects.get(username="demo").is_staff


def test_load_demo_creates_users_customer_and_project():
    output = _load_demo()
    User = get_user_model()
    demo, viewer = User.objects.get(username="demo"), User.objects.get(username="viewer")
    assert demo.is_staff and demo.check_password("demo-password")
    assert not viewer.is_staff and viewer.check_password("viewer-password")
    project = Project.objects.get(name="5,000 GPU RoCE cluster", customer__name="Example AI Lab")
    assert project.owner == demo
    assert set(project.members.all()) == {demo, viewer}
    assert "Created staff user demo" in output
    assert "Created project" in output


def test_load_demo_is_idempotent_and_keeps_changed_passwords():
    _load_demo()
    demo = get_user_model().objects.get(username="demo")
    demo.set_password("changed-by-admin")
    demo.save()
    output = _load_demo()
    demo.refresh_from_db()
    assert demo.check_password("changed-by-admin")
    assert get_user_model().objects.filter(username__in=["demo", "viewer"]).count() == 2
    assert Customer.objects.count() == 1
    assert Project.objects.count() == 1
    assert Project.objects.get().members.count() == 2
    assert "already exists" in output
    assert "Created" not in output


def test_demo_user_can_log_in_and_sees_the_demo_project(client):
    _load_demo()
    assert client.login(username="demo", password="demo-password")
    assert "5,000 GPU RoCE cluster" in client.get("/projects/").content.decode()
