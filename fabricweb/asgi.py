import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fabricweb.settings")
application = get_asgi_application()

from fabricweb.startup import secret_key_require  # noqa: E402  (settings are loaded by now)

secret_key_require()
