"""Celery application; configuration comes from Django settings (CELERY_* names)."""
import os

from celery import Celery
from celery.signals import beat_init, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fabricweb.settings")

app = Celery("fabricweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

@worker_init.connect
@beat_init.connect
def _secret_key_require(**kwargs) -> None:
    """A worker or beat without DJANGO_SECRET_KEY (and DEBUG off) refuses to start, like the web app."""
    from django.core.exceptions import ImproperlyConfigured

    from fabricweb.startup import secret_key_require

    try:
        secret_key_require()
    except ImproperlyConfigured as exc:
        raise SystemExit(str(exc)) from None  # Celery logs and ignores exceptions from signal handlers
