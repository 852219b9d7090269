import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # These tests create many users; the production hasher costs about a second per user here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
