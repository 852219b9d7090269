"""Django settings for fabricweb, read from the environment.

With nothing set the app runs on SQLite and runs Celery tasks in-process, so a
first run needs no server. Set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL
(Redis) for a team deployment with a real worker.

Production profile: DJANGO_DEBUG=false needs DJANGO_SECRET_KEY (the app refuses to start
without one); DJANGO_SECURE=true (behind HTTPS) turns on HSTS, the HTTPS redirect, secure
cookies and the proxy's X-Forwarded-Proto header. Every variable is listed in README.md.
"""
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=False)
# Only a DEBUG (development) run may fall back to a published key: sessions, password resets and
# signed values would otherwise be forgeable by anyone who read this file. Without DEBUG and without
# a key the web app, the worker and `manage.py check` refuse to start (fabricweb.startup); tools
# that sign nothing (makemessages, compilemessages) still run.
DEV_SECRET_KEY = "insecure-dev-key-change-me-0123456789abcdefghijklmnopqrstuvwxyz"
SECRET_KEY = env("DJANGO_SECRET_KEY", default="") or (DEV_SECRET_KEY if DEBUG else "")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS deployment (behind a proxy that terminates TLS and sets X-Forwarded-Proto).
SECURE = env.bool("DJANGO_SECURE", default=False)
SECURE_SSL_REDIRECT = SECURE
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=31_536_000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=SECURE)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", default=SECURE)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
USE_X_FORWARDED_HOST = SECURE
# The health check and the load balancer probe over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# Content-Security-Policy (fabricweb.middleware.ContentSecurityPolicyMiddleware): scripts only from
# this site (no inline script or event handler anywhere); styles also inline (the API docs' widgets).
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
CONTENT_SECURITY_POLICY_REPORT_ONLY = env.bool("DJANGO_CSP_REPORT_ONLY", default=False)

# Sign-in throttling (apps.accounts.lockout): this many failed sign-ins for one user name, or from
# one address, within the window lock that name or address out for the window.
FABRICWEB_LOGIN_FAILURE_LIMIT = env.int("FABRICWEB_LOGIN_FAILURE_LIMIT", default=10)
FABRICWEB_LOGIN_LOCKOUT_SECONDS = env.int("FABRICWEB_LOGIN_LOCKOUT_SECONDS", default=900)

# Password reset mails: the console by default; set EMAIL_URL (e.g. smtp+tls://user:pass@host:587).
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", default="fabricweb <noreply@localhost>")
PASSWORD_RESET_TIMEOUT = env.int("DJANGO_PASSWORD_RESET_TIMEOUT", default=3 * 24 * 3600)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "apps.accounts",
    "apps.catalog",
    "apps.projects",
    "apps.designs",
    "apps.racks",
    "apps.analysis",
    "apps.exports",
    "apps.performance",
    "apps.handover",
    "apps.reviews",
    "apps.explorer",
    "apps.design_templates",
    "apps.documents",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "fabricweb.middleware.ContentSecurityPolicyMiddleware",
    "fabricweb.middleware.QueueUnavailableMiddleware",
]

ROOT_URLCONF = "fabricweb.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "fabricweb.wsgi.application"
ASGI_APPLICATION = "fabricweb.asgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Generation jobs write large batches; wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 60

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "apps.accounts.backends.LoginLockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"

# Internationalization: English and Simplified Chinese, switchable per user.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["fabricweb.formats"]  # zh_Hans: thousands grouped with commas
TIME_ZONE = env("DJANGO_TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(env("FABRICWEB_MEDIA_ROOT", default=str(BASE_DIR / "media")))
MEDIA_URL = "media/"

# As-built check uploads (neighbour dumps): the most one upload may hold, its zip unpacked included.
HANDOVER_UPLOAD_MAX_BYTES = env.int("FABRICWEB_HANDOVER_UPLOAD_MAX_BYTES", default=64 * 1024 * 1024)

REST_FRAMEWORK = {
    # Token first: an unauthenticated call answers 401 with "WWW-Authenticate: Token" (DRF takes the
    # header from the first class; SessionAuthentication has none, which made it a 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        "fabricweb.api.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
        "fabricweb.api.SearchFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "fabricweb.api.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "fabricweb.api.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "fabricweb API",
    "DESCRIPTION": "Design AI training cluster fabrics: catalog, projects, designs, BOM and exports.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "fabricweb.api.document_error_responses"],
    "ENUM_NAME_OVERRIDES": {
        "CatalogFormFactorEnum": "apps.catalog.models.FormFactor",
        "NicFormFactorEnum": "apps.catalog.models.NicFormFactor",
        "OpticMediaEnum": "apps.catalog.models.OpticMedia",
        "CableMediaEnum": "apps.catalog.models.CableMedia",
        "FiberEnum": "apps.catalog.models.Fiber",
        "FabricEnum": "apps.catalog.models.Fabric",
        "DesignVersionStatusEnum": "apps.designs.models.VersionStatus",
        "JobStatusEnum": "apps.designs.models.JobStatus",
        "ExportKindEnum": "apps.exports.kinds.KIND_CHOICES",
        "ReviewStateEnum": "apps.reviews.models.ReviewState",
        "ReviewActionEnum": "apps.reviews.models.ReviewAction",
        "ReviewRequestActionEnum": "apps.reviews.models.ReviewRequestAction",
        "AuditActionEnum": "apps.reviews.models.AuditAction",
        # layout.leaf_rack and layout.spine_rows: one choice set, one name (check --deploy warned W001).
        "RackPlacementEnum": [("middle", "middle"), ("end", "end")],
        # The hall (apps.racks): the layout input's cooling and basis are the same choice sets as the stored ones.
        "RackKindEnum": "apps.racks.models.RackKind",
        "RackItemKindEnum": "apps.racks.models.ItemKind",
        "RackCoolingEnum": "apps.racks.models.Cooling",
        "RackPowerBasisEnum": "apps.racks.models.PowerBasis",
        "RackFaceEnum": "apps.racks.models.Face",
    },
}

# Celery: a real worker over Redis when CELERY_BROKER_URL is set, in-process otherwise.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or None)
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=600)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=660)
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", default="fabricweb")
CELERY_TASK_TRACK_STARTED = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_EXPIRES = 3600
# Redis redelivers an unacknowledged message (its worker died) after the visibility timeout: no task
# may run longer than the hard time limit, so that plus a margin never redelivers a live one.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + env.int("FABRICWEB_VISIBILITY_MARGIN_SECONDS", default=60),
    "socket_connect_timeout": 5,
}
# How long a request waits for the broker before answering 503 (services.queue.queue_check).
FABRICWEB_BROKER_CHECK_TIMEOUT = env.float("FABRICWEB_BROKER_CHECK_TIMEOUT", default=2.0)
# A running task refreshes its job's heartbeat this often (services.job.job_heartbeat).
FABRICWEB_JOB_HEARTBEAT_SECONDS = env.float("FABRICWEB_JOB_HEARTBEAT_SECONDS", default=10)
# A job "running" without a heartbeat for this long lost its worker: the sweep sends it again.
FABRICWEB_JOB_STALE_SECONDS = env.int("FABRICWEB_JOB_STALE_SECONDS", default=60)
# A queued job whose message the broker no longer holds this long after sending is sent again.
FABRICWEB_JOB_RESEND_SECONDS = env.int("FABRICWEB_JOB_RESEND_SECONDS", default=60)
# celery beat runs the sweeps this often: a dead worker's job is sent again within stale + sweep seconds.
FABRICWEB_SWEEP_SECONDS = env.float("FABRICWEB_SWEEP_SECONDS", default=30)
CELERY_BEAT_SCHEDULE = {
    "designs-jobs-sweep": {
        "task": "apps.designs.tasks.designs_jobs_sweep_task",
        "schedule": FABRICWEB_SWEEP_SECONDS,
        "options": {"expires": FABRICWEB_SWEEP_SECONDS},
    },
    "analysis-traffic-analyses-sweep": {
        "task": "apps.analysis.tasks.traffic_analyses_sweep_task",
        "schedule": FABRICWEB_SWEEP_SECONDS,
        "options": {"expires": FABRICWEB_SWEEP_SECONDS},
    },
}

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="WARNING")},
}

WHITENOISE_USE_FINDERS = True
