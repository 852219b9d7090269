"""Refuse to start a production process on a missing secret key (see settings: DJANGO_SECRET_KEY).

Called by wsgi.py, asgi.py and the Celery app, and registered as a system check, so gunicorn, the
worker, beat, runserver, migrate and `manage.py check` all stop with the same message.
"""
from __future__ import annotations

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

MISSING_SECRET_KEY = (
    "DJANGO_SECRET_KEY is not set. With DJANGO_DEBUG off fabricweb refuses to start on a public default key: "
    "set DJANGO_SECRET_KEY to a long random value (e.g. python -c \"import secrets; "
    "print(secrets.token_urlsafe(50))\"), or set DJANGO_DEBUG=true for local development."
)


def _secret_key_missing() -> bool:
    try:
        return not settings.SECRET_KEY
    except ImproperlyConfigured:  # Django refuses to read an empty key
        return True


def secret_key_require() -> None:
    if _secret_key_missing():
        raise ImproperlyConfigured(MISSING_SECRET_KEY)


def secret_key_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    if _secret_key_missing():
        return [checks.Error(MISSING_SECRET_KEY, id="fabricweb.E001")]
    return []
