from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm

from .lockout import client_address, login_locked_message, login_locked_seconds


class _LockoutMixin:
    """Say the account or address is locked, and for how long, instead of "wrong password"."""

    def clean(self):
        username = self.data.get("username", "") if self.data else ""
        seconds = login_locked_seconds(username=str(username), address=client_address(self.request))
        if seconds:
            raise forms.ValidationError(login_locked_message(seconds), code="locked")
        return super().clean()


class LockoutAuthenticationForm(_LockoutMixin, AuthenticationForm):
    pass


class LockoutAdminAuthenticationForm(_LockoutMixin, AdminAuthenticationForm):
    pass
