import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fabricweb.settings")
application = get_wsgi_application()

from fabricweb.startup import secret_key_require  # noqa: E402  (settings are loaded by now)

secret_key_require()
