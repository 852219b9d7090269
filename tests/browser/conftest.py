"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright against pytest-django's live_server.

Every page fixture fails the test on a JavaScript console error or an uncaught exception.
"""
import os

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


@pytest.fixture
def page(browser, live_server, console_errors):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("console", lambda msg: msg.type == "error" and console_errors.append(f"console: {msg.text}"))
    page.on("pageerror", lambda exc: console_errors.append(f"pageerror: {exc}"))
    yield page
    context.close()
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
