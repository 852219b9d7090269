"""Sign-in throttling: failed sign-ins lock the user name, or the address they come from, for a while.

Rules:
- Every failed authentication (the login page, the admin's, the API token endpoint) counts once
  against the user name and once against the client address, in the cache (Redis in a team
  deployment, so every web process shares the counts).
- FABRICWEB_LOGIN_FAILURE_LIMIT failures within FABRICWEB_LOGIN_LOCKOUT_SECONDS lock that name,
  or that address, for FABRICWEB_LOGIN_LOCKOUT_SECONDS: even the right password is refused, with a
  message saying why and for how long. A successful sign-in clears the name's count.
- The client address is REMOTE_ADDR, or behind the HTTPS proxy (DJANGO_SECURE) the last address of
  X-Forwarded-For, the one the proxy itself appended.
"""
from __future__ import annotations

import hashlib
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import ngettext

PREFIX = "fabricweb:login"


def client_address(request: Any) -> str:
    if request is None:
        return ""
    meta = getattr(request, "META", {})
    if settings.SECURE_PROXY_SSL_HEADER and meta.get("HTTP_X_FORWARDED_FOR"):
        return meta["HTTP_X_FORWARDED_FOR"].split(",")[-1].strip()
    return meta.get("REMOTE_ADDR", "")


def _scopes(*, username: str, address: str) -> list[str]:
    scopes = []
    if username:
        scopes.append("user:" + hashlib.sha256(username.strip().lower().encode()).hexdigest()[:32])
    if address:
        scopes.append("addr:" + address)
    return scopes


def login_locked_seconds(*, username: str = "", address: str = "") -> int:
    """Seconds left on the longest lock over this name or address; 0 when neither is locked."""
    now = time.time()
    until = [cache.get(f"{PREFIX}:locked:{scope}") for scope in _scopes(username=username, address=address)]
    return max([int(u - now) + 1 for u in until if u and u > now], default=0)


def login_failure_record(*, username: str = "", address: str = "") -> None:
    limit = int(settings.FABRICWEB_LOGIN_FAILURE_LIMIT)
    window = int(settings.FABRICWEB_LOGIN_LOCKOUT_SECONDS)
    for scope in _scopes(username=username, address=address):
        key = f"{PREFIX}:failures:{scope}"
        cache.add(key, 0, timeout=window)
        try:
            failures = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=window)
            failures = 1
        if failures >= limit:
            cache.add(f"{PREFIX}:locked:{scope}", time.time() + window, timeout=window)


def login_success_record(*, username: str) -> None:
    for scope in _scopes(username=username, address=""):
        cache.delete(f"{PREFIX}:failures:{scope}")


def login_reset(*, username: str = "", address: str = "") -> None:
    """Lift the lock and forget the failures (administrators; tests)."""
    for scope in _scopes(username=username, address=address):
        cache.delete_many([f"{PREFIX}:failures:{scope}", f"{PREFIX}:locked:{scope}"])


def login_locked_message(seconds: int) -> str:
    minutes = max(1, (seconds + 59) // 60)
    return ngettext(
        "Too many failed sign-ins for this account or from this address. Try again in %(minutes)d minute.",
        "Too many failed sign-ins for this account or from this address. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def _on_login_failed(sender, credentials, request=None, **kwargs) -> None:
    login_failure_record(username=str(credentials.get("username") or ""), address=client_address(request))


def _on_logged_in(sender, request, user, **kwargs) -> None:
    login_success_record(username=user.get_username())


def lockout_connect() -> None:
    from django.contrib.auth.signals import user_logged_in, user_login_failed

    user_login_failed.connect(_on_login_failed, dispatch_uid="fabricweb-login-failed")
    user_logged_in.connect(_on_logged_in, dispatch_uid="fabricweb-logged-in")


__all__ = ["client_address", "login_failure_record", "login_locked_message", "login_locked_seconds",
           "login_reset", "login_success_record", "lockout_connect"]
