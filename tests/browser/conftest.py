"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright against pytest-django's live_server.

Every page fixture fails the test on a JavaScript console error or an uncaught exception.
"""
import os
import threading

import pytest

CHROMIUM = os.environ.get("FABRICWEB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]

# Playwright's sync API runs an event loop in this thread; the ORM calls made by the tests
# themselves (fixtures, assertions) are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium chromium-driver")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


class ConsoleErrors(list):
    def assert_none(self):
        assert not self, "JavaScript errors on the page:\n" + "\n".join(self)


@pytest.fixture
def console_errors():
    return ConsoleErrors()


class InFlight:
    """Requests the live server is still answering (a browser that navigated away or closed does not wait
    for them; their thread still holds a database connection)."""

    def __init__(self):
        self.count = 0
        self.condition = threading.Condition()

    def wrap(self, app):
        def counted(environ, start_response):
            with self.condition:
                self.count += 1
            try:
                result = app(environ, start_response)
            except BaseException:
                self.done()
                raise
            return _ClosingResponse(result, self.done)

        return counted

    def done(self):
        with self.condition:
            self.count -= 1
            self.condition.notify_all()

    def wait_idle(self, timeout: float = 60) -> bool:
        with self.condition:
            return self.condition.wait_for(lambda: self.count <= 0, timeout)


class _ClosingResponse:
    """A WSGI response that reports when the server closed it (Django closes the request's database
    connection in that close)."""

    def __init__(self, result, on_close):
        self.result = result
        self.on_close = on_close
        self.closed = False

    def __iter__(self):
        return iter(self.result)

    def close(self):
        try:
            close = getattr(self.result, "close", None)
            if close is not None:
                close()
        finally:
            if not self.closed:
                self.closed = True
                self.on_close()


@pytest.fixture(scope="session")
def live_server_requests(live_server):
    """The live server's requests in flight, counted (one wrapper for the session)."""
    in_flight = InFlight()
    httpd = live_server.thread.httpd
    httpd.set_app(in_flight.wrap(httpd.get_app()))
    return in_flight


@pytest.fixture
def page(browser, live_server, live_server_requests, console_errors):
    """A 1440x900 page; at the end it waits for the page's requests, closes its context and waits until the
    live server has answered every request, so the database flush after the test never meets a request
    still holding locks (a deadlock under load)."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("console", lambda msg: msg.type == "error" and console_errors.append(f"console: {msg.text}"))
    page.on("pageerror", lambda exc: console_errors.append(f"pageerror: {exc}"))
    yield page
    try:
        page.wait_for_load_state("networkidle", timeout=10_000)
    except Exception:  # noqa: BLE001 - a page that never goes idle is still closed below
        pass
    context.close()
    assert live_server_requests.wait_idle(120), "the live server is still answering requests"
    console_errors.assert_none()


@pytest.fixture
def login(page):
    """Log a user in through the real login form."""
    from tests.factories import PASSWORD

    def _login(user, password=PASSWORD):
        page.goto("/accounts/login/")
        page.fill("input[name=username]", user.username)
        page.fill("input[name=password]", password)
        page.click("button[type=submit]")
        page.wait_for_load_state("networkidle")
        return page

    return _login


# Design workflow fixtures -------------------------------------------------------------------------


@pytest.fixture
def seed_catalog(transactional_db):
    """The shipped seed catalog (switches, NICs, servers, optics, cables, fibres)."""
    import io

    from django.core.management import call_command

    call_command("load_seed_catalog", verbosity=0, stdout=io.StringIO())


@pytest.fixture
def engineer(transactional_db):
    from tests.factories import UserFactory

    return UserFactory(username="ann")


@pytest.fixture
def engineer_project(engineer):
    from tests.projects.factories import ProjectFactory

    return ProjectFactory(owner=engineer, name="Pilot cluster")


@pytest.fixture
def generate_design(engineer, engineer_project, seed_catalog):
    """Generate a design through the service (tasks run eagerly in tests); returns the ready version."""
    from apps.catalog.models import ServerModel, SwitchModel
    from apps.designs.models import DesignVersion
    from apps.designs.services.design import design_create

    def _generate(name="Hall A", *, gpus=256, switch_sku="920-9N42F-00RI-7C0", breakout="2x400G", **changes):
        data = {
            "server": ServerModel.objects.get(sku="DGXH-G640F+P2EDI36").pk,
            "leaf_switch": SwitchModel.objects.get(sku=switch_sku).pk,
            "leaf_breakout": breakout,
            "gpus": gpus,
            **changes,
        }
        job = design_create(project=engineer_project, user=engineer, name=name, data=data)
        version = DesignVersion.objects.get(pk=job.version_id)
        assert version.is_ready, job.error
        return version

    return _generate


@pytest.fixture
def background_worker(monkeypatch):
    """Generation jobs run in a thread a moment after they are enqueued, as a Celery worker would
    (the suite otherwise runs tasks eagerly, inside the request that creates the job)."""
    import threading
    import time

    from django.db import connection

    from apps.designs.tasks import design_generate_task

    threads = []

    def apply_async(args, task_id=None, start_after_s=1.5, **options):
        def run():
            time.sleep(start_after_s)
            try:
                design_generate_task.apply(args=args, task_id=task_id)
            finally:
                connection.close()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        threads.append(thread)

    monkeypatch.setattr(design_generate_task, "apply_async", apply_async)
    yield threads
    for thread in threads:
        thread.join(120)
