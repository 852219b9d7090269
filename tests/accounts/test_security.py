"""Sign-in lockout, password change and reset pages, the Content-Security-Policy header."""
from __future__ import annotations

import re
import uuid

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from apps.accounts.lockout import login_reset
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def address():
    """A client address of this test's own (the lock counts per address too)."""
    value = f"198.51.100.{uuid.uuid4().int % 250 + 1}"
    login_reset(address=value)
    yield value
    login_reset(address=value)


def _user():
    return UserFactory(username=f"lock-{uuid.uuid4().hex[:8]}")


def test_100_wrong_passwords_on_the_token_endpoint_lock_the_account_even_for_the_right_one(address):
    user = _user()
    client = APIClient(REMOTE_ADDR=address)
    url = reverse("api-token")
    statuses = [client.post(url, {"username": user.username, "password": f"wrong-{i}"}, format="json").status_code
                for i in range(100)]
    assert statuses[:10] == [400] * 10
    assert set(statuses[10:]) == {429}

    locked = client.post(url, {"username": user.username, "password": PASSWORD}, format="json")
    assert locked.status_code == 429
    assert "Too many failed sign-ins" in locked.json()["detail"]
    assert int(locked["Retry-After"]) > 60
    # Another address is locked out of this account too.
    other = APIClient(REMOTE_ADDR="192.0.2.77").post(url, {"username": user.username, "password": PASSWORD},
                                                      format="json")
    assert other.status_code == 429
    login_reset(username=user.username)


def test_wrong_passwords_from_one_address_lock_that_address_for_every_account(address):
    client = Client(REMOTE_ADDR=address)
    for i in range(10):
        client.post(reverse("login"), {"username": f"nobody-{i}", "password": "x"})
    victim = _user()
    response = client.post(reverse("login"), {"username": victim.username, "password": PASSWORD})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "Too many failed sign-ins" in response.content.decode()
    # The account itself is not locked: the same user signs in from elsewhere.
    elsewhere = Client(REMOTE_ADDR="192.0.2.78")
    assert elsewhere.post(reverse("login"), {"username": victim.username, "password": PASSWORD}).status_code == 302


def test_the_locked_message_is_in_chinese_for_a_chinese_reader(address):
    user = _user()
    client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE="zh-hans")
    for _ in range(10):
        client.post(reverse("login"), {"username": user.username, "password": "x"})
    body = client.post(reverse("login"), {"username": user.username, "password": PASSWORD}).content.decode()
    assert "登录失败次数过多" in body
    login_reset(username=user.username)


def test_a_successful_sign_in_clears_the_accounts_count(address):
    user = _user()
    client = Client(REMOTE_ADDR=address)
    for _ in range(9):
        client.post(reverse("login"), {"username": user.username, "password": "x"})
    login_reset(address=address)
    assert client.post(reverse("login"), {"username": user.username, "password": PASSWORD}).status_code == 302
    client.logout()
    client.post(reverse("login"), {"username": user.username, "password": "x"})
    assert client.post(reverse("login"), {"username": user.username, "password": PASSWORD}).status_code == 302


def test_the_admin_login_obeys_the_lock(address):
    staff = UserFactory(username=f"lock-{uuid.uuid4().hex[:8]}", is_staff=True)
    client = Client(REMOTE_ADDR=address)
    for _ in range(10):
        client.post(reverse("admin:login"), {"username": staff.username, "password": "x"})
    response = client.post(reverse("admin:login"), {"username": staff.username, "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert "Too many failed sign-ins" in response.content.decode()
    login_reset(username=staff.username)


@pytest.mark.parametrize("language, heading", [("en", "Change password"), ("zh-hans", "修改密码")])
def test_a_user_changes_their_password(language, heading):
    user = _user()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    page = client.get(reverse("password_change"))
    assert heading in page.content.decode()
    response = client.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": "a-New-passphrase-42", "new_password2": "a-New-passphrase-42",
    })
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("a-New-passphrase-42")


def test_a_wrong_old_password_is_refused_on_its_field():
    user = _user()
    client = Client()
    client.force_login(user)
    response = client.post(reverse("password_change"), {
        "old_password": "not-it", "new_password1": "a-New-passphrase-42", "new_password2": "a-New-passphrase-42",
    })
    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


@pytest.mark.parametrize("language, subject", [("en", "Reset your fabricweb password"),
                                                ("zh-hans", "重置您的 fabricweb 密码")])
def test_a_user_resets_a_forgotten_password_by_email(language, subject, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = _user()
    user.email = f"{user.username}@example.com"
    user.save()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.post(reverse("password_reset"), {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].subject == subject
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and form.context["validlink"]
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "Fresh-passphrase-77",
                                                    "new_password2": "Fresh-passphrase-77"})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("Fresh-passphrase-77")


def test_the_login_page_links_to_the_password_reset():
    assert reverse("password_reset") in Client().get(reverse("login")).content.decode()


def test_pages_carry_a_content_security_policy_without_inline_scripts(client):
    client.force_login(UserFactory())
    response = client.get(reverse("projects:project-list"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    body = response.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body), "inline <script> is blocked by the policy"
    assert not re.search(r"\son[a-z]+=\"", body), "inline event handlers are blocked by the policy"


def test_the_api_docs_load_their_script_from_the_site():
    client = Client()
    client.force_login(UserFactory())
    page = client.get(reverse("swagger-ui")).content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)


def test_unauthenticated_api_calls_answer_401_with_www_authenticate(api_client):
    for url in (reverse("api-me"), reverse("api-project-list")):
        response = api_client.get(url)
        assert response.status_code == 401, url
        assert response["WWW-Authenticate"] == "Token"
