"""Authentication backend that refuses every sign-in to a locked name or address (apps.accounts.lockout).

Listed first in AUTHENTICATION_BACKENDS, so the admin's login, the API token endpoint and the login
page all obey the lock; PermissionDenied stops Django from asking the other backends.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from .lockout import client_address, login_locked_seconds


class LoginLockoutBackend:
    def authenticate(self, request: Any, username: str | None = None, **credentials: Any) -> None:
        if login_locked_seconds(username=username or "", address=client_address(request)):
            raise PermissionDenied
        return None
    # No get_user(): it never signs anyone in, so sessions (and the test client's force_login) use the next one.
