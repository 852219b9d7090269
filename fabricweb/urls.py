from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from apps.accounts.forms import LockoutAuthenticationForm
from fabricweb.health import healthz

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="projects:project-list", permanent=False), name="home"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("healthz/", healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(authentication_form=LockoutAuthenticationForm),
         name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/change/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("accounts/password/reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/password/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/password/reset/done/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("accounts/", include("apps.accounts.urls")),
    path("catalog/", include("apps.catalog.urls")),
    path("projects/", include("apps.projects.urls")),
    path("designs/exports/", include("apps.exports.urls")),
    path("designs/analysis/", include("apps.analysis.urls")),
    path("designs/performance/", include("apps.performance.urls")),
    path("designs/racks/", include("apps.racks.urls")),
    path("handover/", include("apps.handover.urls")),
    path("designs/", include("apps.designs.urls")),
    path("reviews/", include("apps.reviews.urls")),
    path("explore/", include("apps.explorer.urls")),
    path("api/", include("fabricweb.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
]

handler404 = "fabricweb.api.page_not_found"
