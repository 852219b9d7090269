import pytest
from rest_framework.test import APIClient

from tests.factories import StaffFactory, UserFactory


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    # The production hasher costs about a second per user on this machine.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_sign_in_lock_on_localhost():
    """Failed sign-ins in other tests (all from 127.0.0.1) must not add up to a lock; lock tests use other addresses."""
    from apps.accounts.lockout import login_reset

    login_reset(address="127.0.0.1")


@pytest.fixture
def user(db):
    return UserFactory()


@pytest.fixture
def staff(db):
    return StaffFactory()


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture
def user_client(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def staff_client(staff):
    client = APIClient()
    client.force_authenticate(staff)
    return client
