from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"

    def ready(self) -> None:
        from django.contrib import admin
        from django.core import checks

        from fabricweb.startup import secret_key_check

        from .forms import LockoutAdminAuthenticationForm
        from .lockout import lockout_connect

        checks.register(secret_key_check, checks.Tags.security)
        lockout_connect()
        admin.site.login_form = LockoutAdminAuthenticationForm
