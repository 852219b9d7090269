from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"

    def ready(self) -> None:
        from django.contrib import admin

        from .forms import LockoutAdminAuthenticationForm
        from .lockout import lockout_connect

        lockout_connect()
        admin.site.login_form = LockoutAdminAuthenticationForm
