import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.authtoken.models import Token

from apps.accounts.models import Profile
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_login_page_logs_a_user_in(client):
    user = UserFactory(username="alice")
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_login_with_wrong_password_shows_error_and_stays_anonymous(client):
    UserFactory(username="bob")
    response = client.post(reverse("login"), {"username": "bob", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert response.context["form"].errors


def test_anonymous_api_request_is_refused_with_401_and_www_authenticate(api_client):
    response = api_client.get(reverse("api-me"))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_drf_create_token_command_gives_a_working_token(api_client):
    user = UserFactory(username="carol")
    call_command("drf_create_token", "carol")
    token = Token.objects.get(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api_client.get(reverse("api-me"))
    assert response.status_code == 200
    assert response.json()["username"] == "carol"


def test_token_endpoint_exchanges_password_for_token(api_client):
    UserFactory(username="dave")
    response = api_client.post(reverse("api-token"), {"username": "dave", "password": PASSWORD})
    assert response.status_code == 200
    assert len(response.json()["token"]) == 40


def test_language_preference_is_saved_per_user_and_applied(client):
    user = UserFactory(username="erin")
    client.force_login(user)
    response = client.post(reverse("accounts:language-set"), {"language": "zh-hans", "next": "/api/me/"})
    assert response.status_code == 302
    assert Profile.objects.get(user=user).language == "zh-hans"
    response = client.get(reverse("api-me"))
    assert response["Content-Language"] == "zh-hans"


def test_unknown_language_is_rejected_and_nothing_saved(client):
    user = UserFactory(username="frank")
    client.force_login(user)
    response = client.post(reverse("accounts:language-set"), {"language": "klingon"})
    assert response.status_code == 400
    assert not Profile.objects.filter(user=user).exists()


def test_me_api_rejects_unknown_language_field_level(user_client):
    response = user_client.patch(reverse("api-me"), {"language": "xx"}, format="json")
    assert response.status_code == 400
    assert "language" in response.json()
